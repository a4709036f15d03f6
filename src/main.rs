//! `mahjong-referee`: the command line and the gRPC service of the MCR referee (see
//! [`mahjong_referee::cli`]; without a subcommand it serves).

use std::process::ExitCode;

fn main() -> ExitCode {
    mahjong_referee::cli::run()
}
