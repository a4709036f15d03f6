//! The generated `mahjong.v1.MahjongService` server: its trait and routes, with every message
//! from [`crate::api::pb`] but the two scoring requests, read by [`crate::api::scoring::fast::query`], and the two
//! scoring responses, which are already encoded ([`crate::api::scoring::fast::wire`]), and
//! [`super::codec::RefereeCodec`] (see `build.rs`).

#![allow(
    clippy::all,
    clippy::pedantic,
    missing_docs,
    missing_debug_implementations,
    unreachable_pub
)]

include!(concat!(env!("OUT_DIR"), "/server/mahjong.v1.rs"));
