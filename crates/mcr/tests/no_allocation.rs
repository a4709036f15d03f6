//! Validating and scoring a hand allocate nothing: a counting allocator watches every
//! public corpus hand go through `HandInput::validate` and `score` under each ruleset.

use mcr::notation::parse_hand;
use mcr::{Ruleset, WinContext, WinMethod, Wind, score};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use std::alloc::System;

/// The system allocator, counting. The counts are the process's: this file holds one
/// test, so that no other test thread allocates while it counts.
#[global_allocator]
static ALLOCATOR: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

#[test]
fn validating_and_scoring_allocate_nothing() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/public.jsonl");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut hands = Vec::new();
    for line in text.lines() {
        let case: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let Some(Ok(hand)) = case["notation"].as_str().map(parse_hand) else {
            continue;
        };
        let flag = |name: &str| case[name].as_bool().unwrap_or(false);
        let wind = |name: &str| {
            let i = case[name].as_u64().and_then(|i| usize::try_from(i).ok());
            i.and_then(|i| Wind::ALL.get(i).copied())
                .unwrap_or(Wind::East)
        };
        let context = WinContext {
            method: if flag("self_drawn") {
                WinMethod::SelfDrawn
            } else {
                WinMethod::Discard
            },
            last_tile: flag("last_tile"),
            last_copy: flag("fourth_tile"),
            seat_wind: wind("seat_wind"),
            prevalent_wind: wind("prevalent_wind"),
            ..WinContext::default()
        };
        if hand.validate(&context).is_ok() {
            hands.push((hand, context));
        }
    }
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
