//! Hand analysis throughput on the public analysis corpus, one thread, counted in hands:
//!
//! - `analyze/shanten`: the distance over every shape and the useful tiles of each of the
//!   1,225 waiting (13-tile) hands;
//! - `analyze/waits_scored`: the whole analysis of the ready hands among them: distance,
//!   useful tiles, and every wait scored on a discard and self-drawn;
//! - `analyze/discards`: the whole analysis of the 275 hands that have just drawn: the
//!   discard table, each row with its useful tiles and scored waits.
//!
//! `cargo bench -p mcr --bench analyze`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mcr::analysis::{Analysis, InPlay, analyze, distance};
use mcr::{Ruleset, WinContext};

#[path = "../tests/analysis_support/mod.rs"]
#[allow(dead_code)]
mod analysis_support;

fn hands() -> Vec<(InPlay, WinContext)> {
    analysis_support::load()
        .iter()
        .map(|case| {
            let (hand, visible, context) = case.input();
            let hand = InPlay::new(&hand, &visible).expect("every corpus hand is valid");
            (hand, context)
        })
        .collect()
}

fn elements<T>(v: &[T]) -> Throughput {
    Throughput::Elements(u64::try_from(v.len()).unwrap_or(u64::MAX))
}

fn bench(c: &mut Criterion) {
    let all = hands();
    let (waiting, drawn): (Vec<_>, Vec<_>) = all.into_iter().partition(|(h, _)| h.is_waiting());
    let ready: Vec<_> = waiting
        .iter()
        .filter(|(h, _)| distance(h).shanten == 0)
        .cloned()
        .collect();
    let mut group = c.benchmark_group("analyze");

    group.throughput(elements(&waiting));
    group.bench_function("shanten", |b| {
        b.iter(|| {
            let mut useful = 0;
            for (hand, _) in &waiting {
                useful += distance(hand).useful.len();
            }
            std::hint::black_box(useful)
        });
    });

    let waits_of = |hands: &[(InPlay, WinContext)]| {
        let mut total = 0u32;
        for (hand, context) in hands {
            match analyze(hand, context, &Ruleset::MIL) {
                Analysis::Waiting(w) => total += u32::try_from(w.waits.len()).unwrap_or(0),
                Analysis::Drawn(d) => total += u32::try_from(d.discards.len()).unwrap_or(0),
            }
        }
        total
    };
    group.throughput(elements(&ready));
    group.bench_function("waits_scored", |b| {
        b.iter(|| std::hint::black_box(waits_of(&ready)));
    });

    group.throughput(elements(&drawn));
    group.bench_function("discards", |b| {
        b.iter(|| std::hint::black_box(waits_of(&drawn)));
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
