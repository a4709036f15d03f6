//! The play referee's throughput on the public replay corpus (600 hands in Botzone's line
//! format), one thread, counted in hands:
//!
//! - `play/replay_records`: every hand replayed from its parsed record (each event judged,
//!   the win scored, the points settled);
//! - `play/replay_botzone_text`: the same from the text, reading included;
//! - `play/legal_actions`: the legal actions of every seat with a decision, at every event
//!   of the corpus (counted in views; wins judged, no call analysis).
//!
//! `cargo bench -p mcr --bench play`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mcr::Ruleset;
use mcr::Seat;
use mcr::play::botzone::read_matches;
use mcr::play::{Record, ReplayOptions, SeatView, legal_actions, replay};

fn corpus() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/replay-public.txt"
    );
    std::fs::read_to_string(path).expect("the public replay corpus")
}

fn bench(c: &mut Criterion) {
    let text = corpus();
    let records: Vec<Record> = read_matches(&text)
        .into_iter()
        .map(|(_, m)| m.expect("every corpus match reads").record)
        .collect();
    let hands = u64::try_from(records.len()).unwrap_or(u64::MAX);
    let mut group = c.benchmark_group("play");
    group.throughput(Throughput::Elements(hands));
    group.bench_function("replay_records", |b| {
        b.iter(|| {
            let mut findings = 0;
            for record in &records {
                findings += replay(record, &Ruleset::MIL, ReplayOptions::default())
                    .violations
                    .len();
            }
            std::hint::black_box(findings)
        });
    });
    group.bench_function("replay_botzone_text", |b| {
        b.iter(|| {
            let mut findings = 0;
            for (_, m) in read_matches(&text) {
                if let Ok(m) = m {
                    findings += replay(&m.record, &Ruleset::MIL, ReplayOptions::default())
                        .violations
                        .len();
                }
            }
            std::hint::black_box(findings)
        });
    });
    let views: Vec<SeatView> = records
        .iter()
        .flat_map(|r| replay(r, &Ruleset::MIL, ReplayOptions { snapshots: true }).snapshots)
        .flat_map(|state| Seat::ALL.into_iter().filter_map(move |s| state.view(s)))
        .collect();
    group.throughput(Throughput::Elements(
        u64::try_from(views.len()).unwrap_or(u64::MAX),
    ));
    group.bench_function("legal_actions", |b| {
        b.iter(|| {
            let mut actions = 0;
            for view in &views {
                actions += legal_actions(view, &Ruleset::MIL).len();
            }
            std::hint::black_box(actions)
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
