//! # mcr: the Chinese Official Mahjong (国标麻将) rules engine
//!
//! The domain core of mahjong-referee, free of any transport:
//!
//! - [`tile`]: the 34 tile kinds;
//! - [`hand`]: hands as declared ([`HandInput`]) and validated ([`Hand`]), melds, the winning
//!   context ([`WinContext`]);
//! - [`notation`]: the common calculator notation (`[123m][555p2]45m…`);
//! - [`shape`]: readings of a winning hand and waits;
//! - [`fan`]: the fan table, detection and exclusions;
//! - [`ruleset`]: the three rulesets as data;
//! - [`score()`]: the best reading and its itemised fans.
//!
//! ```
//! use mcr::{notation::parse_hand, score, Ruleset, WinContext, Outcome, Fan};
//! let hand = parse_hand("[123m][789m][123p]55s89p7p")?.validate(&WinContext {
//!     method: mcr::WinMethod::SelfDrawn,
//!     ..WinContext::default()
//! }).expect("valid hand");
//! let s = score(&hand, &WinContext { method: mcr::WinMethod::SelfDrawn, ..Default::default() }, &Ruleset::MIL);
//! assert_eq!(s.outcome, Outcome::Win);
//! assert!(s.fans.has(Fan::ThreeSuitedTerminalChows));
//! assert_eq!(s.total, 18);
//! # Ok::<_, mcr::notation::ParseHandError>(())
//! ```

pub mod adjudication;
pub mod fan;
pub mod hand;
pub mod notation;
pub mod penalty;
pub mod ruleset;
mod score;
pub mod seat;
pub mod settlement;
pub mod shape;
pub mod sheet;
pub mod standings;
pub mod tile;
pub mod violation;

pub use fan::{Fan, FanCounts, FanSpec};
pub use hand::{
    Claim, Hand, HandInput, KongExposure, Meld, MeldInput, MeldKind, WinContext, WinMethod, Wind,
};
pub use ruleset::{Ruleset, RulesetId};
pub use score::{MINIMUM_FAN, Outcome, Scoring, score};
pub use shape::{Reading, Set, SetKind};
pub use sheet::{Element, ElementKind, ElementSet, ElementTiles, FanLine, Shape};
pub use tile::{Suit, Tile};
pub use violation::{Violation, ViolationCode};

pub use adjudication::{WinVerdict, judge_declared_win, resolve_win_claims};
pub use penalty::{Infraction, InfractionKind, Offence, Ruling, Sanction};
pub use seat::{BySeat, Seat};
pub use settlement::{HandEnd, HandRecord, Settlement, settle};
