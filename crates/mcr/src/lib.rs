//! # mcr: the Chinese Official Mahjong (国标麻将) rules engine
//!
//! The domain core of mahjong-referee, free of any transport. Its modules are floors: each
//! imports only from the floors below it (declared in `scripts/floors.toml`;
//! `scripts/module-graph.py` checks every import keeps them, and that there is no circle).
//!
//! 1. [`tile`] and [`violation`]: the 34 tile kinds and winds; the problems found in input;
//! 2. [`hand`] ([`HandInput`], [`Hand`], [`WinContext`]), [`notation`] (the calculator
//!    notation `[123m][555p2]45m…`) and [`seat`] ([`Seat`], [`BySeat`]);
//! 3. [`shape`]: readings of a winning hand, waits, the distance to ready;
//! 4. [`fan`]: the catalogue of the 81 fans (the table and the fan multiset);
//! 5. [`ruleset`]: the three rulesets as data;
//! 6. [`mod@score`]: detection, exclusions, the best reading ([`score()`]) and its sheet;
//! 7. [`analysis`]: hands in play: the distance to ready, useful tiles, waits and what each
//!    is worth, the discard table;
//! 8. [`declaration`] and [`penalty`]: a declared win; infractions (one `const` table), the
//!    figures and the rulings;
//! 9. [`payments`]: itemised points, for a win and for a ruling;
//! 10. [`adjudication`]: whether a declared win stands, and whose claim wins;
//! 11. [`settlement`]: a hand settled; [`standings`]: a session ranked.
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
pub mod analysis;
pub mod declaration;
pub mod fan;
pub mod hand;
pub mod house_rules;
pub mod notation;
pub mod payments;
pub mod penalty;
pub mod play;
pub mod ruleset;
pub mod score;
pub mod seat;
pub mod settlement;
pub mod shape;
pub mod standings;
pub mod tile;
pub mod violation;

pub use fan::{Fan, FanCounts, FanSpec};
pub use hand::{
    Claim, Hand, HandInput, KongExposure, Meld, MeldInput, MeldKind, WinContext, WinMethod, Wind,
};
pub use house_rules::{RuleOverrides, Rules};
pub use ruleset::{Ruleset, RulesetId};
pub use score::sheet;
pub use score::sheet::{Element, ElementKind, ElementSet, ElementTiles, FanLine, Shape};
pub use score::{MINIMUM_FAN, Outcome, Scoring, score};
pub use shape::{Reading, Set, SetKind};
pub use tile::{Suit, Tile, TileSet};
pub use violation::{Violation, ViolationCode};

pub use adjudication::{WinVerdict, decide_declared_win, resolve_win_claims};
pub use penalty::{Infraction, InfractionKind, Offence, Ruling, Sanction};
pub use seat::{BySeat, Seat};
pub use settlement::{HandEnd, HandRecord, Settlement, settle};
