//! # mahjong-referee
//!
//! The service and command-line side of the Chinese Official Mahjong referee. The rules live
//! in the [`mcr`] crate; this crate only adapts them:
//!
//! - [`api`]: the protobuf contract `mahjong.v1` ([`pb`]); the only module that touches prost
//!   types.

#![forbid(unsafe_code)]

pub mod api;

pub use api::pb;
