//! The hand-written fast path of `ScoreHand` and `BatchScoreHands`, fenced here: everything
//! that reads or writes protobuf bytes by hand instead of through prost's message types.
//!
//! - [`fields`]: the field numbers the reader and the writer use, by message, each named
//!   as in the proto; a test checks every one against the descriptor set and that no
//!   field of a message the writer writes is left unhandled;
//! - [`query`]: the scoring requests read straight into the domain's hand where they can
//!   be, by prost where not;
//! - [`wire`]: the scoring responses written straight from the domain score, byte for
//!   byte what prost writes (`tests/wire.rs`);
//!
//! The server's stub and codec carry these requests and responses (`server::stub`,
//! `server::codec` of the `mahjong-referee` crate).

pub mod fields;
pub mod query;
pub mod wire;
