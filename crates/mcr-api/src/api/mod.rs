//! The `mahjong.v1` protobuf contract and its adapters: the only module that converts
//! between prost types and the domain (the server and the command line hand it the
//! contract's messages, and take its answers back).
//!
//! Three floors:
//!
//! - [`pb`]: the generated messages and enums, and the descriptor set (the gRPC client and
//!   server stubs are the transport's, in the `mahjong-referee` crate);
//! - [`kit`]: what the families share: field paths, enum and scalar mappings, proto3 JSON,
//!   the violations collector, house rules, hands, the scoring query and the encoders of
//!   score sheets, accounts, rulings and analyses;
//! - the families, one a `.proto` of the service, peers that import the kit and never each
//!   other: [`scoring`] (`scoring.proto`, with its hand-written fast path), [`analysis`]
//!   (`analysis.proto`), [`accounting`] (`accounting.proto`: settling hands, penalties and
//!   standings) and [`play`] (`play.proto`: whole hands replayed, legal actions, claims).
//!
//! A handler is decode → engine → encode, and takes the [`kit::house_rules::KeptRules`] of
//! its caller: the transport (the server's stub, codec and connections; the command line's
//! files) is the caller's.

pub mod accounting;
pub mod analysis;
pub mod kit;
pub mod pb;
pub mod play;
pub mod scoring;

pub use kit::house_rules::KeptRules;
pub use pb::FILE_DESCRIPTOR_SET;
pub use scoring::{score_request, validate_request};
