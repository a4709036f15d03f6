//! Validating and scoring a hand allocate nothing: a counting allocator watches every
//! public corpus hand (with its context: flowers, kong wins, last tiles) go through
//! `HandInput::validate` and `score` under each ruleset.

use mcr::{Ruleset, score};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use std::alloc::System;

/// The system allocator, counting. The counts are the process's: this file holds one
/// test, so that no other test thread allocates while it counts.
#[global_allocator]
static ALLOCATOR: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

mod corpus_support;

#[test]
fn validating_and_scoring_allocate_nothing() {
    let hands: Vec<_> = corpus_support::scored_cases()
        .into_iter()
        .filter(|(hand, context)| hand.validate(context).is_ok())
        .collect();
    assert!(hands.len() > 2_000, "{} corpus hands", hands.len());
    // The first scoring builds the engine's tables: that one allocates, once a process.
    let (first, context) = &hands[0];
    let _ = first
        .validate(context)
        .map(|h| score(&h, context, &Ruleset::MIL));
    let rulesets = [
        Ruleset::MIL,
        Ruleset::CHINESE_OFFICIAL_1998,
        Ruleset::GREEN_BOOK_2006,
    ];
    let mut points = 0u64;
    let region = Region::new(ALLOCATOR);
    for (hand, context) in &hands {
        let Ok(hand) = hand.validate(context) else {
            continue;
        };
        for rules in &rulesets {
            points += u64::from(score(&hand, context, rules).total);
        }
    }
    let change = region.change();
    assert_eq!(
        (change.allocations, change.reallocations),
        (0, 0),
        "allocations while validating and scoring"
    );
    assert!(points > 0);
}
