//! Scores the public corpus's winning hands a number of times, for instruction counts:
//!
//! ```sh
//! cargo build --release -p mcr --example score_corpus
//! valgrind --tool=cachegrind --cache-sim=no target/release/examples/score_corpus 20 validate
//! ```
//!
//! The second argument is `validate` (validate and score, as `score/public_corpus`) or
//! `score` (score validated hands, as `score/score_only`). It prints the hands scored; the
//! instructions a hand are the difference between two runs' `I refs` divided by the
//! difference of their hands, which removes the loading of the corpus.

use mcr::Ruleset;

#[path = "../tests/corpus_support/mod.rs"]
mod corpus_support;

fn main() {
    let mut args = std::env::args().skip(1);
    let reps: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let validate = args.next().is_none_or(|a| a != "score");
    let inputs = corpus_support::scored_cases();
    let validated: Vec<_> = inputs
        .iter()
        .filter_map(|(h, ctx)| h.validate(ctx).ok().map(|hand| (hand, *ctx)))
        .collect();
    let mut total = 0u64;
    for _ in 0..reps {
        if validate {
            for (hand, ctx) in &inputs {
                if let Ok(hand) = hand.validate(ctx) {
                    total += u64::from(mcr::score(&hand, ctx, &Ruleset::MIL).total);
                }
            }
        } else {
            for (hand, ctx) in &validated {
                total += u64::from(mcr::score(hand, ctx, &Ruleset::MIL).total);
            }
        }
    }
    println!(
        "{} hands scored ({} a pass), points {total}",
        reps * inputs.len(),
        inputs.len()
    );
}
