//! The cost of building the analysis tables (the per-group distance tables and what is kept
//! beside them), which a server does before SERVING: the time and the resident memory added.
//!
//! ```sh
//! cargo run --release -p mcr --example analysis_tables
//! ```

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
    let before = resident_kib();
    let started = std::time::Instant::now();
    mcr::shape::shanten::table::warm_up();
    let took = started.elapsed();
    println!(
        "analysis tables built in {:.0} ms, resident memory +{} KiB",
        took.as_secs_f64() * 1e3,
        resident_kib().saturating_sub(before)
    );
}
