//! The gRPC server end to end: a real server on 127.0.0.1:0 per test, called with the
//! generated tonic client (and a raw HTTP/1.1 client for gRPC-Web).

mod abuse;
mod binary;
mod errors;
mod helpers;
#[path = "../support/hostile.rs"]
mod hostile;
mod kiosk;
mod lifecycle;
mod next;
mod replay;
mod rpcs;
mod stalled;
#[path = "../support/mod.rs"]
#[allow(dead_code)] // the corpus helpers these tests do not use
mod support;
mod transport;
