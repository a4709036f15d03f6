//! Scoring throughput on the public corpus: every winning hand, validated and scored, in one
//! iteration (`score/public_corpus`), and scored alone from validated hands (`score/score_only`).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mcr::{Hand, HandInput, Ruleset, WinContext, score};

#[path = "../tests/support/corpus.rs"]
#[allow(dead_code)]
mod corpus;

fn winning_hands() -> Vec<(HandInput, WinContext)> {
    corpus::load()
        .iter()
        .filter(|c| c.error().is_none())
        .filter_map(corpus::Case::input)
        .collect()
}

fn bench(c: &mut Criterion) {
    let inputs = winning_hands();
    let validated: Vec<(Hand, WinContext)> = inputs
        .iter()
        .filter_map(|(h, ctx)| h.validate(ctx).ok().map(|hand| (hand, *ctx)))
        .collect();
    assert_eq!(
        validated.len(),
        inputs.len(),
        "every winning corpus hand validates"
    );
    let n = u64::try_from(inputs.len()).unwrap_or(u64::MAX);
    let mut group = c.benchmark_group("score");
    group.throughput(Throughput::Elements(n));
    group.bench_function("public_corpus", |b| {
        b.iter(|| {
            let mut total = 0u32;
            for (hand, ctx) in &inputs {
                if let Ok(hand) = hand.validate(ctx) {
                    total += score(&hand, ctx, &Ruleset::MIL).total;
                }
            }
            std::hint::black_box(total)
        });
    });
    group.bench_function("score_only", |b| {
        b.iter(|| {
            let mut total = 0u32;
            for (hand, ctx) in &validated {
                total += score(hand, ctx, &Ruleset::MIL).total;
            }
            std::hint::black_box(total)
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
