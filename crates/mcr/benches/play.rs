//! The play referee's throughput on the public replay corpus (600 hands in Botzone's line
//! format), one thread, counted in hands:
//!
//! - `play/replay_records`: every hand replayed from its parsed record (each event judged,
//!   the win scored, the points settled);
//! - `play/replay_botzone_text`: the same from the text, reading included.
//!
//! `cargo bench -p mcr --bench play`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mcr::Ruleset;
use mcr::play::botzone::read_matches;
use mcr::play::{Record, ReplayOptions, replay};

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
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
