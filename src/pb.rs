//! The `mahjong.v1` contract as users of this crate name it: the generated messages, enums
//! and descriptor set of [`mcr_api::api::pb`], and the gRPC client generated over them
//! (`build.rs`), [`mahjong_service_client`].

pub use mcr_api::api::pb::*;

/// The generated client stub of `mahjong.v1.MahjongService`, every message from
/// [`mcr_api::api::pb`].
#[allow(
    clippy::all,
    clippy::pedantic,
    missing_docs,
    missing_debug_implementations,
    unreachable_pub
)]
mod client {
    include!(concat!(env!("OUT_DIR"), "/client/mahjong.v1.rs"));
}

pub use client::mahjong_service_client;
