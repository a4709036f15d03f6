//! Replays the public replay corpus a number of times, for instruction counts:
//!
//! ```sh
//! cargo build --release -p mcr --example replay_corpus
//! valgrind --tool=cachegrind --cache-sim=no target/release/examples/replay_corpus 5 text
//! ```
//!
//! The second argument is `text` (read the Botzone text and replay, as
//! `play/replay_botzone_text`), `records` (replay parsed records, as `play/replay_records`)
//! or `read` (read only). The instructions a hand are the difference between two runs'
//! `I refs` divided by the difference of their hands, which removes the loading.

use mcr::Ruleset;
use mcr::play::botzone::read_matches;
use mcr::play::{Record, ReplayOptions, replay};

fn main() {
    let mut args = std::env::args().skip(1);
    let reps: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let mode = args.next().unwrap_or_else(|| "text".to_owned());
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/replay-public.txt"
    );
    let text = std::fs::read_to_string(path).expect("the public replay corpus");
    let records: Vec<Record> = read_matches(&text)
        .into_iter()
        .filter_map(|(_, m)| m.ok().map(|m| m.record))
        .collect();
    let mut hands = 0usize;
    let mut findings = 0usize;
    for _ in 0..reps {
        match mode.as_str() {
            "records" => {
                for record in &records {
                    findings += replay(record, &Ruleset::MIL, ReplayOptions::default())
                        .findings
                        .len();
                    hands += 1;
                }
            }
            "read" => {
                for (_, m) in read_matches(&text) {
                    findings += m.map_or(1, |m| m.record.events.len());
                    hands += 1;
                }
            }
            _ => {
                for (_, m) in read_matches(&text) {
                    if let Ok(m) = m {
                        findings += replay(&m.record, &Ruleset::MIL, ReplayOptions::default())
                            .findings
                            .len();
                    }
                    hands += 1;
                }
            }
        }
    }
    println!("{hands} hands, {findings} findings");
}
