//! The generated `mahjong.v1` messages, enums and gRPC client, and the encoded descriptor
//! set they come from.

#![allow(
    clippy::all,
    clippy::pedantic,
    missing_docs,
    missing_debug_implementations,
    unreachable_pub
)]

tonic::include_proto!("mahjong.v1");

/// The encoded `FileDescriptorSet` of `mahjong.v1` (for proto3 JSON and gRPC reflection).
pub const FILE_DESCRIPTOR_SET: &[u8] = tonic::include_file_descriptor_set!("mahjong_descriptor");
