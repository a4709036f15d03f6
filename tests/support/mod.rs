//! Shared test support.
pub mod corpus;
