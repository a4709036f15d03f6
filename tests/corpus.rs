//! The public corpus (3,026 hands scored by an independent calculator under MIL): every
//! win must have the same fan multiset and total, every under-8 hand the same outcome and
//! the same breakdown, every non-winning and malformed hand the same outcome.

#[allow(dead_code)] // the request strategies this test does not use
mod support;

use std::collections::BTreeMap;

use mcr::{Outcome, Ruleset, score};
use support::corpus;

/// The corpus names the three waits `独听・…`; the rulebook names are 边张, 坎张, 单钓将.
fn canonical(name: &str) -> &str {
    match name {
        "独听・边张" => "边张",
        "独听・嵌张" => "坎张",
        "独听・单钓" => "单钓将",
        other => other,
    }
}

type Sheet = BTreeMap<String, (u64, u64)>;

fn expected_fans(v: &serde_json::Value) -> Sheet {
    v.as_array()
        .into_iter()
        .flatten()
        .map(|f| {
            let name = canonical(f[0].as_str().unwrap_or_default()).to_owned();
            (
                name,
                (f[1].as_u64().unwrap_or(0), f[2].as_u64().unwrap_or(0)),
            )
        })
        .collect()
}

#[test]
fn public_corpus_agrees_completely_under_mil() {
    let cases = corpus::load();
    assert_eq!(cases.len(), 3026);
    let mut failures = Vec::new();
    let mut wins = 0;
    for case in &cases {
        let error = case.error();
        let result = case.input().map(|(h, ctx)| {
            h.validate(&ctx)
                .map(|hand| score(&hand, &ctx, &Ruleset::MIL))
        });
        let scored = match (error, result) {
            (None | Some("ERROR_FAN_LESS_THAN_8" | "ERROR_NOT_WIN"), Some(Ok(s))) => s,
            // Malformed in the corpus, and rejected by validation (or by tile codes).
            (Some(e), None | Some(Err(_)))
                if !matches!(e, "ERROR_FAN_LESS_THAN_8" | "ERROR_NOT_WIN") =>
            {
                continue;
            }
            (_, other) => {
                failures.push(format!("{}: expected {error:?}, got {other:?}", case.id));
                continue;
            }
        };
        let got: Sheet = scored
            .fans
            .iter()
            .map(|(f, n)| {
                (
                    f.spec().name_zh.to_owned(),
                    (u64::from(Ruleset::MIL.points(f)), u64::from(n)),
                )
            })
            .collect();
        let (want_outcome, want_fans, want_total) = match error {
            None => {
                wins += 1;
                (
                    Outcome::Win,
                    expected_fans(&case.expected["fans"]),
                    case.expected["total"].as_u64(),
                )
            }
            Some("ERROR_FAN_LESS_THAN_8") => (
                Outcome::BelowMinimum,
                expected_fans(&case.expected["oracle_fans"]),
                case.expected["oracle_total"].as_u64(),
            ),
            _ => (
                Outcome::NotWinningShape,
                Sheet::new(),
                Some(u64::from(case.flowers)),
            ),
        };
        if scored.outcome != want_outcome
            || got != want_fans
            || Some(u64::from(scored.total)) != want_total
        {
            failures.push(format!(
                "{}: expected {want_outcome:?} {want_fans:?} = {want_total:?}, got {:?} {got:?} = {}",
                case.id, scored.outcome, scored.total
            ));
        }
    }
    assert_eq!(wins, 2314);
    assert!(
        failures.is_empty(),
        "{} of {} cases disagree:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
