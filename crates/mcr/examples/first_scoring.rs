//! The cost of the first scoring in a process, which builds the division table: its time
//! and the resident memory it adds.
//!
//! ```sh
//! cargo run --release -p mcr --example first_scoring
//! ```

use mcr::notation::parse_hand;
use mcr::{Ruleset, WinContext, score};

/// The process's resident memory (Linux), 0 where unknown.
fn resident_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmRSS:"))?;
            line.split_whitespace().nth(1)?.parse().ok()
        })
        .unwrap_or(0)
}

fn main() {
    let context = WinContext::default();
    let hand = parse_hand("[123m][789m][123p]55s89p7p")
        .ok()
        .and_then(|h| h.validate(&context).ok())
        .expect("a valid hand");
    let before = resident_kib();
    let started = std::time::Instant::now();
    let first = score(&hand, &context, &Ruleset::MIL);
    let took = started.elapsed();
    let started = std::time::Instant::now();
    let second = score(&hand, &context, &Ruleset::MIL);
    let again = started.elapsed();
    assert_eq!(first, second);
    println!(
        "first scoring {:.2} ms (the next {:.1} µs), resident memory +{} KiB",
        took.as_secs_f64() * 1e3,
        again.as_secs_f64() * 1e6,
        resident_kib().saturating_sub(before)
    );
}
