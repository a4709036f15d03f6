//! The `mahjong.v1` protobuf contract and its adapters: the only module that converts
//! between prost types and the domain (the server and the command line hand it the
//! contract's messages, and take its answers back).
//!
//! Its modules are floors, each importing only from those above it in this list:
//!
//! - [`pb`]: the generated messages, enums and gRPC client, and the descriptor set;
//! - [`path`]: where the engine's field paths are in each request (typed paths, renamed
//!   with one table a request);
//! - [`values`]: every enum and scalar, proto → domain and back;
//! - [`json`]: proto3 JSON for requests and responses;
//! - [`house_rules`]: house rules (`RuleOverrides`) → the rules a request applies, the
//!   fingerprint, `DescribeRuleset`;
//! - [`hand`]: request hands and contexts, proto → domain and back;
//! - [`query`]: the requests that carry a hand to score, converted once ([`query::ScoreQuery`])
//!   and judged by one function ([`query::assess`]);
//! - [`score_sheet`]: an assessment as proto (sheet lines, reading, the scoring responses);
//! - [`fast`]: the hand-written fast path of the scoring calls (requests read and responses
//!   written without prost's message types, the server stub and codec that carry them, the
//!   connection that batches small writes), its field numbers generated from the contract;
//! - [`scoring`]: the scoring calls (`scoring.proto`), each from request to response;
//! - [`analysis`]: the analysis of a hand in play (`analysis.proto`);
//! - [`accounting`]: settling hands, penalties and standings (`accounting.proto`);
//! - [`play`]: the play referee (`play.proto`): whole hands replayed from their records.

pub mod accounting;
pub mod analysis;
pub mod fast;
pub mod hand;
pub mod house_rules;
pub mod json;
pub mod path;
pub mod pb;
pub mod play;
pub mod query;
pub mod score_sheet;
pub mod scoring;
pub mod values;

pub use pb::FILE_DESCRIPTOR_SET;
pub use scoring::{score_request, validate_request};
