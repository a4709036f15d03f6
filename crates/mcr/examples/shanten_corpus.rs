//! The distance over every shape with the useful tiles (as `analyze/shanten`) of the analysis
//! corpus's waiting (13-tile) hands, a number of times, for instruction counts:
//!
//! ```sh
//! cargo build --release -p mcr --example shanten_corpus
//! valgrind --tool=cachegrind --cache-sim=no target/release/examples/shanten_corpus 20
//! ```
//!
//! It prints the hands and a checksum (for each hand, 100 × the distance plus the number of
//! useful tiles) that `scripts/compare-reference.sh` compares with the reference's; the
//! instructions a hand are the difference between two runs' `I refs` divided by the
//! difference of their hands.

use mcr::analysis::{InPlay, distance};

#[path = "../tests/analysis_support/mod.rs"]
#[allow(dead_code)]
mod analysis_support;

fn main() {
    let reps: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1);
    let waiting: Vec<InPlay> = analysis_support::load()
        .iter()
        .map(|case| {
            let (hand, visible, _) = case.input();
            InPlay::new(&hand, &visible).expect("every corpus hand is valid")
        })
        .filter(InPlay::is_waiting)
        .collect();
    let mut checksum = 0i64;
    for _ in 0..reps {
        for hand in &waiting {
            let d = distance(hand);
            checksum += 100 * i64::from(d.shanten) + i64::try_from(d.useful.len()).unwrap_or(0);
        }
    }
    println!("hands {} passes {reps} checksum {checksum}", waiting.len());
}
