//! `mahjong-referee`: the command line and the gRPC service of the MCR referee (see
//! [`mahjong_referee::cli`]; without a subcommand it serves).

use std::process::ExitCode;

/// Every call allocates many small short-lived blocks (decoded request, hand, response):
/// mimalloc serves them with a fraction of glibc's cost (see `cargo bench --bench score`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    mahjong_referee::cli::run()
}
