//! The `mahjong.v1` protobuf contract and its adapters: the only module that touches prost
//! types.
//!
//! Its modules are floors, each importing only from those above it in this list:
//!
//! - [`pb`]: the generated messages, enums and gRPC client, and the descriptor set;
//! - [`path`]: field paths, and where the engine's paths are in each request;
//! - [`values`]: every enum and scalar, proto → domain and back;
//! - [`json`]: proto3 JSON for requests and responses;
//! - [`hand`]: request hands and contexts, proto → domain and back;
//! - [`query`]: the scoring requests read from protobuf straight into the domain's hand
//!   where they can be, by prost where not;
//! - [`wire`]: the scoring responses written as protobuf straight from the domain score;
//! - [`stub`] and [`codec`]: the server stub the binary serves, with those two responses,
//!   and how it reads requests and writes responses;
//! - [`scoring`]: the scoring calls (`scoring.proto`), each from request to response;
//! - [`accounting`]: settling hands, penalties and standings (`accounting.proto`).

pub mod accounting;
pub mod codec;
pub mod hand;
pub mod json;
pub mod path;
pub mod pb;
pub mod query;
pub mod scoring;
pub mod values;
pub mod wire;

pub use pb::FILE_DESCRIPTOR_SET;
pub use scoring::{score_request, validate_request};

/// The generated `mahjong.v1.MahjongService` server: its trait and routes, with every message
/// from [`pb`] but the two scoring requests, read by [`query`], and the two scoring
/// responses, which are already encoded ([`wire`]), and
/// [`codec::RefereeCodec`] (see `build.rs`).
#[allow(
    clippy::all,
    clippy::pedantic,
    missing_docs,
    missing_debug_implementations,
    unreachable_pub
)]
pub mod stub {
    include!(concat!(env!("OUT_DIR"), "/server/mahjong.v1.rs"));
}
