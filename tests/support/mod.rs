//! Shared test support.
pub mod corpus;
pub mod requests;
