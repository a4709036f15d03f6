//! # mahjong-referee
//!
//! The service and command-line side of the Chinese Official Mahjong referee. The rules live
//! in the [`mcr`] crate; this crate only adapts them:
//!
//! - [`assessment`], [`api`] and [`limits`], re-exported from the [`mcr_api`] crate, which
//!   has no transport: the domain-level request flow shared by every front end, the protobuf
//!   contract `mahjong.v1`, the conversions between it and the domain, and its proto3 JSON
//!   form: the only module that converts between prost types and the domain ([`server`] and
//!   [`cli`] pass the contract's messages to it and back), and the fixed bounds;
//! - [`pb`]: the contract's messages (`mcr_api`'s) with the gRPC client generated over them;
//! - [`cli`]: the `mahjong-referee` command line, its accounting subcommands (`settle`,
//!   `penalty`, `standings`) among them;
//! - [`server`]: the gRPC server (health, reflection, gRPC-Web, limits, TLS, drain), set up
//!   by [`config`]; [`healthcheck`] is its probe;
//! - [`telemetry`] and [`metrics`]: logs, OpenTelemetry traces and Prometheus metrics of the
//!   service.

#![forbid(unsafe_code)]

pub mod cli;
pub mod config;
pub mod healthcheck;
pub mod metrics;
pub mod pb;
pub mod server;
pub mod telemetry;

pub use mcr_api::{api, assessment, limits};
