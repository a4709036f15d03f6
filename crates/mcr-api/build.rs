//! Compiles the protobuf contract without a system `protoc`: protox parses `../../proto`
//! into a `FileDescriptorSet`, which is written to `OUT_DIR/mahjong_descriptor.bin` (for
//! proto3 JSON and gRPC reflection, `crate::api::pb::FILE_DESCRIPTOR_SET`) and handed to
//! prost-build for the Rust messages and enums alone (`OUT_DIR/mahjong.v1.rs`,
//! `crate::api::pb`): no service code, which is the root crate's (its `build.rs` generates
//! the gRPC client and server stubs over these messages).
//!
//! The field numbers the fast path reads and writes are generated here from the same
//! descriptor set (`OUT_DIR/fields.rs`, `crate::api::scoring::fast::fields`): one module a
//! message, one constant a field.

use std::fmt::Write as _;
use std::path::PathBuf;

use prost::Message as _;

/// Every file of the `mahjong.v1` package.
const PROTOS: &[&str] = &[
    "mahjong/v1/tile.proto",
    "mahjong/v1/hand.proto",
    "mahjong/v1/ruleset.proto",
    "mahjong/v1/fan.proto",
    "mahjong/v1/house_rules.proto",
    "mahjong/v1/scoring.proto",
    "mahjong/v1/analysis.proto",
    "mahjong/v1/accounting.proto",
    "mahjong/v1/play.proto",
    SERVICE,
];

/// The file of the service: its messages come from the files it imports.
const SERVICE: &str = "mahjong/v1/mahjong_service.proto";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=../../proto");
    let fds = protox::compile(PROTOS, ["../../proto"])?;
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(out_dir.join("mahjong_descriptor.bin"), fds.encode_to_vec())?;
    std::fs::write(out_dir.join("fields.rs"), field_numbers(&fds))?;
    // Every message with its proto name (`prost::Name`), for proto3 JSON by type. A scoring
    // request's house rules are boxed: the request stays small.
    prost_build::Config::new()
        .enable_type_names()
        .boxed(".mahjong.v1.ScoreHandRequest.overrides")
        .compile_fds(fds)?;
    Ok(())
}

/// One module a message of the package (nested messages in modules of their own inside it),
/// each with one `u32` constant a field: `score_hand_request::HAND` is `hand = 2`.
fn field_numbers(fds: &prost_types::FileDescriptorSet) -> String {
    fn message(out: &mut String, m: &prost_types::DescriptorProto, full: &str, depth: usize) {
        let indent = "    ".repeat(depth);
        let full = format!("{full}.{}", m.name());
        let _ = writeln!(
            out,
            "{indent}/// `{full}`.\n{indent}pub mod {} {{",
            snake_case(m.name())
        );
        for field in &m.field {
            let _ = writeln!(
                out,
                "{indent}    /// `{} = {}`.\n{indent}    pub const {}: u32 = {};",
                field.name(),
                field.number(),
                field.name().to_uppercase(),
                field.number()
            );
        }
        for nested in &m.nested_type {
            message(out, nested, &full, depth + 1);
        }
        let _ = writeln!(out, "{indent}}}");
    }
    let mut out = String::new();
    for file in &fds.file {
        for m in &file.message_type {
            message(&mut out, m, file.package(), 0);
        }
    }
    out
}

/// `ScoreHandRequest` → `score_hand_request`.
fn snake_case(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}
