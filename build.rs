//! Compiles the protobuf contract without a system `protoc`: protox parses `proto/` into a
//! `FileDescriptorSet`, which is written to `OUT_DIR/mahjong_descriptor.bin` (for proto3 JSON
//! and gRPC reflection) and handed to tonic-prost-build for the Rust messages and the
//! client and server stubs.

use std::path::PathBuf;

use prost::Message as _;

/// Every file of the `mahjong.v1` package.
const PROTOS: &[&str] = &[
    "mahjong/v1/tile.proto",
    "mahjong/v1/hand.proto",
    "mahjong/v1/ruleset.proto",
    "mahjong/v1/fan.proto",
    "mahjong/v1/scoring.proto",
    "mahjong/v1/accounting.proto",
    "mahjong/v1/mahjong_service.proto",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // tonic-prost-build's compile_fds does not emit this itself.
    println!("cargo:rerun-if-changed=proto");
    let fds = protox::compile(PROTOS, ["proto"])?;
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(out_dir.join("mahjong_descriptor.bin"), fds.encode_to_vec())?;
    tonic_prost_build::configure()
        .build_server(true)
        .build_client(true)
        .compile_fds(fds)?;
    Ok(())
}
