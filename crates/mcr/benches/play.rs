//! The play referee's throughput on the public replay corpus (600 hands in Botzone's line
//! format), one thread, counted in hands:
//!
//! - `play/replay_records`: every hand replayed from its parsed record (each event judged,
//!   the win scored, the points settled);
//! - `play/replay_botzone_text`: the same from the text, reading included;
//! - `play/legal_actions`: the legal actions of every seat with a decision, at every event
//!   of the corpus (counted in views; wins judged, no call analysis);
//! - `play/legal_actions_call_analysis`: the same with each claim's call analysis, for the
//!   views at a discard where the seat has at least one chow, pung or kong;
//! - `play/next_actions`: what may come next after the longest match of the corpus (up to its
//!   last discard, on offer), from its parsed record (one replay, the legal actions of each
//!   seat with a decision, no call analysis), counted in calls.
//!
//! `cargo bench -p mcr --bench play`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mcr::Ruleset;
use mcr::Seat;
use mcr::play::botzone::read_matches;
use mcr::play::{
    Action, Moment, NextOptions, Offer, Record, ReplayOptions, SeatView, legal_actions,
    legal_actions_with_calls, next_actions, replay,
};

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
    // The longest match (194 events, a draw game) without its `Huang` and `Score` lines: its
    // last discard is on offer, so the three other seats' claims are judged too.
    let mut longest = records
        .iter()
        .max_by_key(|r| r.events.len())
        .expect("a corpus")
        .clone();
    longest.draw_game = false;
    longest.stated = mcr::play::Stated::default();
    let longest = &longest;
    group.throughput(Throughput::Elements(1));
    group.bench_function("next_actions", |b| {
        b.iter(|| {
            let next = next_actions(
                std::hint::black_box(longest),
                &Ruleset::MIL,
                &NextOptions::default(),
            )
            .expect("no seed");
            std::hint::black_box(next.decisions.len())
        });
    });
    group.throughput(Throughput::Elements(hands));
    group.bench_function("replay_records", |b| {
        b.iter(|| {
            let mut findings = 0;
            for record in &records {
                findings += replay(record, &Ruleset::MIL, ReplayOptions::default())
                    .findings
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
                        .findings
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
    let claiming: Vec<SeatView> = views
        .iter()
        .filter(|v| matches!(v.moment, Moment::Offered(Offer::Discard { .. })))
        .filter(|v| {
            legal_actions(v, &Ruleset::MIL).iter().any(|a| {
                matches!(
                    a.action,
                    Action::Chow(_) | Action::Pung(_) | Action::Kong(_)
                )
            })
        })
        .cloned()
        .collect();
    group.throughput(Throughput::Elements(
        u64::try_from(claiming.len()).unwrap_or(u64::MAX),
    ));
    group.sample_size(10);
    group.bench_function("legal_actions_call_analysis", |b| {
        b.iter(|| {
            let mut analysed = 0;
            for view in &claiming {
                analysed += legal_actions_with_calls(view, &Ruleset::MIL)
                    .iter()
                    .filter(|a| a.call.is_some())
                    .count();
            }
            std::hint::black_box(analysed)
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
