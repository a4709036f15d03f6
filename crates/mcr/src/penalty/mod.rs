//! Penalties (罚则, docs/rules/penalties.md): the catalogue of infractions and the ruling each receives.
//!
//! An [`Offence`] is an [`Infraction`] by one seat. [`rule`] turns one offence into a
//! [`Ruling`]: a list of [`Sanction`]s (a warning, points deducted that nobody receives,
//! points paid to each other player or to one player, loss of the right to win this hand
//! (停和), exposed tiles that must be discarded, disqualification, or a deduction from the
//! session total). [`adjudicate`] rules every offence of one hand in order, counting repeated
//! offences so that the escalation of docs/rules/penalties.md#repeated-offences (warning, 5, 10, 20, …) applies.
//!
//! Every figure comes from the [`Ruleset`](crate::Ruleset): [`PenaltyFigures`], [`Escalation`] and
//! [`LateArrivalScale`] are its penalty switches (docs/rules/rulesets.md#penalty-figures).
//!
//! - [`table`]: the infraction catalogue, one `const` row per kind;
//! - [`infraction`]: an infraction with its details, and an offence (who committed it);
//! - [`figures`]: escalation and the late-arrival scale;
//! - [`ruling`]: a ruling and its sanctions, for one offence or every offence of a hand.
//!
//! ```
//! use mcr::penalty::{adjudicate, Infraction, Offence, Sanction};
//! use mcr::{Ruleset, Seat};
//! let empty_pung = Offence { offender: Seat::West, infraction: Infraction::EmptyPung };
//! let rulings = adjudicate(&[empty_pung.clone(), empty_pung.clone(), empty_pung],
//!     &Ruleset::CHINESE_OFFICIAL_1998).unwrap();
//! assert_eq!(rulings[0].sanctions, [Sanction::Warning]);
//! assert_eq!(rulings[1].sanctions, [Sanction::Deduction(5)]);
//! assert_eq!(rulings[2].sanctions, [Sanction::Deduction(10)]);
//! ```

pub mod figures;
pub mod infraction;
pub mod ruling;
pub mod table;

pub use figures::{Escalation, LateArrivalRuling, LateArrivalScale, LateTier, PenaltyFigures};
pub use infraction::{FalseDeclaration, Infraction, Offence, SignalSanction};
pub(crate) use ruling::{Occurrences, rule_at};
pub use ruling::{Ruling, Sanction, adjudicate, false_declaration_sanctions, rule};
pub use table::{GradedAmount, INFRACTION_TABLE, InfractionKind, InfractionSpec, RepeatedOffence};
