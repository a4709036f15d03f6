//! The analysis tables of the `mcr` engine, and the one format they travel in.
//!
//! A group is one suit (nine ranks, chows allowed) or the honours (seven kinds, no chows).
//! For every group of at most 14 tiles with at most four copies of a kind, the tables hold
//! its distances to `m` sets (0–4) and `p` pairs (0–1), as one of a few classes of
//! distances, where one more tile lowers each, and (for the suits) where one tile fewer
//! keeps each: see `mcr::shape::shanten::table`, which reads them.
//!
//! Computing them is a dynamic programme over about 450,000 groups: some 6 G instructions,
//! most of a second. So `mcr`'s build script calls [`generate`] and writes the tables with
//! [`GroupTables::encode`] (LZ4), the crate embeds the bytes, and a process reads them back
//! with [`GroupTables::decode`] in a few milliseconds. This crate is built optimised even in
//! a debug build (the workspace's profiles), so that the build script stays quick.
//!
//! Nothing here knows tiles or hands: counts in, bytes out.

mod format;
mod generate;
mod groups;
mod index;
mod programme;

pub use format::DecodeError;
pub use generate::{GroupTables, generate};
pub use groups::{HONOURS, MAX_SETS, MAX_TILES, SLOTS, SUITS};
pub use index::Positions;
