//! The generated `mahjong.v1` messages and enums, and the encoded descriptor set they come
//! from (`build.rs`). The gRPC client and server stubs are the `mahjong-referee` crate's.

#![allow(
    clippy::all,
    clippy::pedantic,
    missing_docs,
    missing_debug_implementations,
    unreachable_pub
)]

include!(concat!(env!("OUT_DIR"), "/mahjong.v1.rs"));

/// The encoded `FileDescriptorSet` of `mahjong.v1` (for proto3 JSON and gRPC reflection).
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/mahjong_descriptor.bin"));
