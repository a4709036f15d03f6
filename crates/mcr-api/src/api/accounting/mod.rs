//! Accounting over the `mahjong.v1` contract (`accounting.proto`): settling a hand
//! ([`settle_hand`]), ruling penalties and judging declared wins ([`adjudicate_penalty`]),
//! and session standings ([`compute_standings`]).
//!
//! Proto → domain collects *every* violation, with the request's field paths
//! (`penalties[2].offender`, `winning_hand.hand.melds[0].tiles[1]`, `players[1].sessions[0].late_minutes`):
//!
//! - seats unspecified where required, or outside the enum: `SEAT_INVALID`;
//! - infractions unspecified or outside the enum: `INFRACTION_UNKNOWN`;
//! - other enums outside their range, or unspecified where required: `VALUE_INVALID`;
//! - negative counts and amounts: `VALUE_NEGATIVE`;
//! - details given to an infraction that does not use them, a seat given where none
//!   belongs: `CONTEXT_CONFLICT`;
//! - then the domain's own checks ([`mcr::settle`], [`mcr::penalty::adjudicate`],
//!   [`mcr::decide_declared_win`], [`mcr::standings`]), run on whatever converted, so that a
//!   bad seat in one place does not hide a bad amount in another.
//!
//! Every prost struct is destructured exhaustively and every domain enum is matched without
//! a wildcard, so a new field or variant is a compile error here until it is handled.
//!
//! Domain → proto: points are `int32` (proto3 JSON writes 64-bit integers as strings); the
//! domain bounds every figure far below that range, and conversions saturate regardless.
//!
//! - `maxima`: the repeated fields of the requests over their maxima;
//! - `offence`, `winning_hand`: the messages the three calls read (the answers they write
//!   are the kit's: [`crate::api::kit::accounts`], [`crate::api::kit::ruling`]);
//! - [`settle`], [`penalty`], [`standings`]: one call each, its handler and its JSON forms.

pub(crate) mod maxima;
pub(crate) mod offence;
pub mod penalty;
pub mod settle;
pub mod standings;
pub(crate) mod winning_hand;

pub use penalty::adjudicate_penalty;
pub use settle::settle_hand;
pub use standings::compute_standings;
