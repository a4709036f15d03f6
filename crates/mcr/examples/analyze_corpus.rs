//! Analyses the public analysis corpus's hands a number of times, for instruction counts:
//!
//! ```sh
//! cargo build --release -p mcr --example analyze_corpus
//! valgrind --tool=cachegrind --cache-sim=no target/release/examples/analyze_corpus 1 discards
//! valgrind --tool=cachegrind --cache-sim=no target/release/examples/analyze_corpus 3 discards
//! ```
//!
//! The second argument picks the hands and the work of one `analyze` bench:
//! `shanten` (the distance and useful tiles of the 1,225 waiting hands),
//! `waits_scored` (the whole analysis of the ready hands among them) or `discards` (the
//! whole analysis of the 275 drawn hands). It prints the hands analysed; the instructions a
//! hand are the difference between two runs' `I refs` divided by the difference of their
//! hands, which removes the loading of the corpus and the building of the tables.

use mcr::analysis::{Analysis, InPlay, analyze, distance};
use mcr::{Ruleset, WinContext};

#[path = "../tests/analysis_support/mod.rs"]
#[allow(dead_code)]
mod analysis_support;

fn main() {
    let mut args = std::env::args().skip(1);
    let reps: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let which = args.next().unwrap_or_else(|| "discards".to_owned());
    let all: Vec<(InPlay, WinContext)> = analysis_support::load()
        .iter()
        .map(|case| {
            let (hand, visible, context) = case.input();
            let hand = InPlay::new(&hand, &visible).expect("every corpus hand is valid");
            (hand, context)
        })
        .collect();
    let (waiting, drawn): (Vec<_>, Vec<_>) = all.into_iter().partition(|(h, _)| h.is_waiting());
    let hands: Vec<_> = match which.as_str() {
        "shanten" => waiting,
        "waits_scored" => waiting
            .into_iter()
            .filter(|(h, _)| distance(h).shanten == 0)
            .collect(),
        "discards" => drawn,
        other => panic!("unknown part {other}: shanten, waits_scored or discards"),
    };
    if reps == 0 {
        // `0 discards`: every row of every discard table, one line each, to compare two
        // builds' answers (the useful tiles that lead to a scoring wait included).
        for (hand, context) in &hands {
            if let Analysis::Drawn(d) = analyze(hand, context, &Ruleset::MIL) {
                for row in &d.discards {
                    let waits: Vec<_> = row
                        .after
                        .waits
                        .iter()
                        .map(|w| {
                            (
                                w.tile,
                                w.remaining,
                                w.wins_on_discard(),
                                w.wins_self_drawn(),
                            )
                        })
                        .collect();
                    println!(
                        "{} {} {:?} {:?} {:?}",
                        row.tile,
                        row.after.distance.shanten,
                        row.scoring_useful.iter().collect::<Vec<_>>(),
                        row.after.distance.useful,
                        waits
                    );
                }
            }
        }
        return;
    }
    // The tables are built before the passes, so that every pass costs the same.
    mcr::shape::warm_up();
    let mut total = 0usize;
    for _ in 0..reps {
        for (hand, context) in &hands {
            total += if which == "shanten" {
                distance(hand).useful.len()
            } else {
                match analyze(hand, context, &Ruleset::MIL) {
                    Analysis::Waiting(w) => w.waits.len(),
                    Analysis::Drawn(d) => d.discards.len(),
                }
            };
        }
    }
    println!(
        "{} hands analysed ({} a pass, {which}), total {total}",
        reps * hands.len(),
        hands.len()
    );
}
