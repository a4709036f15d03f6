//! The play referee (`play.proto`): whole hands replayed from their records
//! ([`replay_hand`]), a seat's legal actions ([`legal_actions_of`]) and claim arbitration
//! ([`arbitrate_claims`]).
//!
//! - `convert`: actions, drawn tiles and circumstances, both ways;
//! - `view`: a seat's view from proto;
//! - [`replay`], [`actions`], [`arbitrate`], [`next`], [`deal`]: one call each (`next`
//!   reads its record as `replay` does).

pub mod actions;
pub mod arbitrate;
mod convert;
pub mod deal;
pub mod next;
pub mod replay;
mod view;

pub use actions::legal_actions_of;
pub use arbitrate::arbitrate_claims;
pub use deal::deal_hand;
pub use next::next_actions_of;
pub use replay::replay_hand;
