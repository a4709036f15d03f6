//! The kit every family of the contract builds on: conversions between `mahjong.v1` and the
//! domain that more than one family uses. Its modules are floors, each importing only from
//! those above it in this list (and [`crate::api::pb`]); no module here imports a family.
//!
//! - [`path`]: where the engine's field paths are in each request (typed paths, renamed
//!   with one table a request);
//! - [`values`]: every enum and scalar, proto → domain and back;
//! - [`json`]: proto3 JSON for requests and responses;
//! - [`violations`]: [`violations::Violations`], the one collector of a request's
//!   violations, and where the engine's are placed in the request;
//! - [`house_rules`]: house rules (`RuleOverrides`) → the rules a request applies
//!   ([`house_rules::rules_of`]), the fingerprint, `DescribeRuleset`; the house rules built
//!   lately are kept in a [`house_rules::KeptRules`] the caller holds;
//! - [`hand`]: request hands and contexts, proto → domain and back;
//! - [`query`]: the requests that carry a hand to score, converted once
//!   ([`query::ScoreQuery`]) and judged by one function ([`query::assess`]);
//! - [`score_sheet`]: an assessment as proto (sheet lines, reading, the scoring responses);
//! - [`accounts`], [`ruling`], [`in_play`]: the answers several families write: payments
//!   and hand results; rulings and offences; an analysis of a hand in play.

pub mod accounts;
pub mod hand;
pub mod house_rules;
pub mod in_play;
pub mod json;
pub mod path;
pub mod query;
pub mod ruling;
pub mod score_sheet;
pub mod values;
pub mod violations;
