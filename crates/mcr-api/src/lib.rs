//! # mcr-api
//!
//! The `mahjong.v1` protobuf contract of the Chinese Official Mahjong referee and its
//! adapters to the [`mcr`] engine, free of any transport: no gRPC, no async runtime, no
//! HTTP (none of tonic, tokio, hyper, h2 or tower is a dependency). The server and the
//! command line (the `mahjong-referee` crate) and the Python binding (`mcr-py`) all take the
//! API from here.
//!
//! - [`assessment`]: the domain-level request flow shared by every front end (validate,
//!   score, the score sheet), free of any protobuf type;
//! - [`limits`]: the fixed bounds of what the referee reads and writes;
//! - [`api`]: the generated messages and descriptor set ([`api::pb`]), the conversions
//!   between them and the domain, the hand-written fast path of the scoring calls, and the
//!   proto3 JSON form: the only module that converts between prost types and the domain.

#![forbid(unsafe_code)]

pub mod api;
pub mod assessment;
pub mod limits;
