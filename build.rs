//! Generates the gRPC stubs of the service without a system `protoc`: protox parses the
//! service file of `proto/` (with the files it imports) into a `FileDescriptorSet`, and
//! tonic-prost-build writes from the service alone, every message taken from the `mcr-api`
//! crate (`::mcr_api::api::pb`, whose `build.rs` generates the messages and the descriptor
//! set):
//!
//! - the client stub (`OUT_DIR/client/mahjong.v1.rs`, `crate::pb::mahjong_service_client`);
//! - the server stub (`OUT_DIR/server/mahjong.v1.rs`, `crate::server::stub`): every message
//!   from `mcr_api::api::pb` but the two scoring requests, read by
//!   `mcr_api::api::scoring::fast::query`, and the two scoring responses, which are the bytes
//!   `mcr_api::api::scoring::fast::wire` writes, through `crate::server::codec::RefereeCodec`.
//!
//! The codec reads every other request and writes every other response with prost: which
//! messages those are is written here too (`OUT_DIR/server/messages.rs`, the input and
//! output types of the service's methods, `crate::server::codec`).

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;

/// The file of the service (and of nothing else).
const SERVICE: &str = "mahjong/v1/mahjong_service.proto";

/// The package of the contract, as descriptors name it.
const PACKAGE: &str = ".mahjong.v1";

/// Where the messages of the package live in Rust.
const MESSAGES: &str = "::mcr_api::api::pb";

/// The messages the server stub takes from the fast path instead of [`MESSAGES`], and the
/// codec reads or writes by hand.
const FAST: &[(&str, &str)] = &[
    (
        ".mahjong.v1.ScoreHandRequest",
        "::mcr_api::api::kit::query::ScoreQuery",
    ),
    (
        ".mahjong.v1.BatchScoreHandsRequest",
        "::mcr_api::api::scoring::fast::query::BatchScoreHandsQuery",
    ),
    (
        ".mahjong.v1.ScoreHandResponse",
        "::mcr_api::api::scoring::fast::wire::ScoreHandReply",
    ),
    (
        ".mahjong.v1.BatchScoreHandsResponse",
        "::mcr_api::api::scoring::fast::wire::BatchScoreHandsReply",
    ),
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // tonic-prost-build's compile_fds does not emit this itself.
    println!("cargo:rerun-if-changed=proto");
    let fds = protox::compile([SERVICE], ["proto"])?;
    let service_only = prost_types::FileDescriptorSet {
        file: fds
            .file
            .iter()
            .filter(|file| file.name() == SERVICE)
            .cloned()
            .collect(),
    };
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);

    let client_dir = out_dir.join("client");
    std::fs::create_dir_all(&client_dir)?;
    tonic_prost_build::configure()
        .build_server(false)
        .build_client(true)
        .out_dir(client_dir)
        .extern_path(PACKAGE, MESSAGES)
        .compile_fds(service_only.clone())?;

    let server_dir = out_dir.join("server");
    std::fs::create_dir_all(&server_dir)?;
    std::fs::write(
        server_dir.join("messages.rs"),
        prost_messages(&service_only),
    )?;
    let mut server = tonic_prost_build::configure();
    server = server
        .build_server(true)
        .build_client(false)
        .out_dir(server_dir);
    for (proto, rust) in FAST {
        server = server.extern_path(*proto, *rust);
    }
    server
        .extern_path(PACKAGE, MESSAGES)
        .codec_path("crate::server::codec::RefereeCodec")
        .compile_fds(service_only)?;
    Ok(())
}

/// The requests and the responses of the service's methods that prost reads and writes (all
/// but the [`FAST`] ones), as two macro calls of `crate::server::codec`:
/// `prost_queries!(ValidateHandRequest, …);` and `prost_replies!(ValidateHandResponse, …);`.
fn prost_messages(service_only: &prost_types::FileDescriptorSet) -> String {
    let mut queries = BTreeSet::new();
    let mut replies = BTreeSet::new();
    for file in &service_only.file {
        for service in &file.service {
            for method in &service.method {
                queries.insert(method.input_type());
                replies.insert(method.output_type());
            }
        }
    }
    let names = |types: BTreeSet<&str>| {
        types
            .into_iter()
            .filter(|t| FAST.iter().all(|(fast, _)| fast != t))
            .map(|t| {
                t.strip_prefix(PACKAGE)
                    .and_then(|name| name.strip_prefix('.'))
                    .unwrap_or_else(|| panic!("{t} is not a message of {PACKAGE}"))
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = String::new();
    let _ = writeln!(out, "prost_queries!({});", names(queries));
    let _ = writeln!(out, "prost_replies!({});", names(replies));
    out
}
