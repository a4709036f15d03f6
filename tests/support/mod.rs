//! Shared test support.
pub mod corpus;
pub mod forms;
pub mod requests;
