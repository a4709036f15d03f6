//! The `mahjong.v1` protobuf contract and its adapters: the only module that touches prost
//! types.
//!
//! - [`pb`]: the generated messages, enums and gRPC client;
//! - [`convert`]: proto → domain (collecting every violation) and domain → proto;
//! - [`json`]: proto3 JSON for requests and responses;
//! - [`query`]: the scoring requests read from protobuf straight into the domain's hand
//!   where they can be, by prost where not;
//! - [`wire`]: the scoring responses written as protobuf straight from the domain score;
//! - [`stub`] and [`codec`]: the server stub the binary serves, with those two responses,
//!   and how it reads requests and writes responses;
//! - [`accounting`]: settling hands, penalties and standings (`accounting.proto`).

pub mod accounting;
pub mod codec;
pub mod convert;
pub mod json;
pub mod query;
pub mod wire;

/// The generated `mahjong.v1` messages, enums and gRPC client.
#[allow(
    clippy::all,
    clippy::pedantic,
    missing_docs,
    missing_debug_implementations,
    unreachable_pub
)]
pub mod pb {
    tonic::include_proto!("mahjong.v1");
}

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

/// The encoded `FileDescriptorSet` of `mahjong.v1` (for proto3 JSON and gRPC reflection).
pub const FILE_DESCRIPTOR_SET: &[u8] = tonic::include_file_descriptor_set!("mahjong_descriptor");

pub use convert::{score_request, validate_request};
