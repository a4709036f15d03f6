//! `mahjong-referee`: the command line (and, later, the gRPC service) of the MCR referee.

use std::process::ExitCode;

fn main() -> ExitCode {
    mahjong_referee::cli::run()
}
