//! The procedure of play (行牌, docs/rules/tiles-and-play.md, docs/rules/penalties.md): a hand in play and its
//! transition, and whole hands replayed from their records.
//!
//! - [`record`]: what a record holds (the deal, the events, the wall, its own statements);
//! - [`code`]: the findings, each with a stable code, its rule and its consequence;
//! - [`state`]: the state of a hand in play ([`PlayState`]): the wall, each seat's tiles,
//!   whose move it is, and the invariants every state keeps
//!   ([`PlayState::check_invariants`]);
//! - [`win`]: a declaration of 和 judged, with the circumstances the log shows;
//! - [`legal`]: what a seat may do now, from its own view ([`legal_actions`]);
//! - [`mod@arbitrate`]: whose claim stands when several seats claim one tile ([`arbitrate()`]);
//! - [`step`]: the transition ([`PlayState::apply`], and its pure form [`PlayState::next`]);
//!   an event it cannot take is a [`StepError`], made a finding at the event's place;
//! - [`seed`]: a deal anyone can verify, from a 32-byte seed ([`Seed`]);
//! - [`mod@replay`]: a whole record judged ([`replay()`]), with its seed ([`replay_seeded`]);
//! - [`next`]: what may come next in a hand in progress, from its record so far
//!   ([`next_actions`]);
//! - [`botzone`]: Botzone's line format, read and written;
//! - [`table`]: a whole table in one process ([`Table`]): a seeded hand played one decision
//!   at a time, the draws and the claim windows the table's own.
//!
//! The switches the rulebooks leave open are [`crate::ruleset::PlayRules`].

pub mod arbitrate;
pub mod botzone;
pub mod code;
pub mod legal;
pub mod next;
pub mod record;
pub mod replay;
pub mod seed;
pub mod state;
pub mod step;
pub mod table;
pub mod win;

pub use arbitrate::{Arbitration, ClaimMade, ClaimProblem, IllegalClaim, arbitrate};
pub use code::{At, Consequence, PlayCode, PlayFinding};
pub use legal::{
    CallAnalysis, LegalAction, Moment, Offer, SeatView, call_analysis, legal_actions,
    legal_actions_with_calls,
};
pub use next::{Decision, NextActions, NextDraw, NextOptions, NextPhase, Then, next_actions};
pub use record::{Action, Circumstances, Drawn, Event, Flower, OverriddenClaim, Record, Stated};
pub use replay::{
    Replay, ReplayEnd, ReplayOptions, Unplayable, deal_record, replay, replay_dealt, replay_record,
    replay_seeded, replay_so_far,
};
pub use seed::{Seed, SeedError, SeededDeal};
pub use state::{DrawKind, Ending, Inconsistency, Phase, PlayState, SeatState, Wall, WallLeft};
pub use step::{Effects, StepError};
pub use table::{
    ACTION_SPACE, Observation, PublicSeat, Table, TableCode, TableError, TablePhase, action_id,
    action_of_id,
};
pub use win::JudgedWin;
