//! The public corpus (3,026 hands scored by an independent calculator under MIL): every
//! win must have the same fan multiset and total, every other case the same outcome.

use std::collections::BTreeMap;

use mcr::{
    Claim, HandInput, MeldInput, MeldKind, Outcome, Ruleset, Tile, WinContext, WinMethod, Wind,
    score,
};
use serde::Deserialize;

#[derive(Deserialize)]
struct Meld {
    kind: String,
    tiles: Vec<String>,
    claimed_from: u8,
}

#[derive(Deserialize)]
struct Case {
    id: String,
    melds: Vec<Meld>,
    concealed: Vec<String>,
    win_tile: String,
    flowers: u8,
    self_drawn: bool,
    fourth_tile: bool,
    kong_related: bool,
    last_tile: bool,
    seat_wind: usize,
    prevalent_wind: usize,
    expected: serde_json::Value,
}

/// The corpus names the three waits `独听・…`; the rulebook names are 边张, 坎张, 单钓将.
fn canonical(name: &str) -> &str {
    match name {
        "独听・边张" => "边张",
        "独听・嵌张" => "坎张",
        "独听・单钓" => "单钓将",
        other => other,
    }
}

fn tile(code: &str) -> Option<Tile> {
    Tile::from_code(code)
}

fn build(case: &Case) -> Option<(HandInput, WinContext)> {
    let mut melds = Vec::new();
    for m in &case.melds {
        let tiles = m
            .tiles
            .iter()
            .map(|t| tile(t))
            .collect::<Option<Vec<_>>>()?;
        let kind = match m.kind.as_str() {
            "chow" => MeldKind::Chow,
            "pung" => MeldKind::Pung,
            "kong" => MeldKind::Kong,
            "concealed_kong" => MeldKind::ConcealedKong,
            _ => return None,
        };
        let claimed_from = Claim::from_digit(m.claimed_from);
        melds.push(MeldInput {
            kind,
            tiles,
            claimed_from,
            promoted: false,
        });
    }
    let standing = case
        .concealed
        .iter()
        .map(|t| tile(t))
        .collect::<Option<Vec<_>>>()?;
    let hand = HandInput {
        melds,
        standing,
        winning_tile: Some(tile(&case.win_tile)?),
    };
    let ctx = WinContext {
        method: if case.self_drawn {
            WinMethod::SelfDrawn
        } else {
            WinMethod::Discard
        },
        robbing_kong: case.kong_related && !case.self_drawn,
        replacement_draw: case.kong_related && case.self_drawn,
        last_tile: case.last_tile,
        last_copy: case.fourth_tile,
        seat_wind: Wind::ALL[case.seat_wind],
        prevalent_wind: Wind::ALL[case.prevalent_wind],
        flowers: case.flowers,
    };
    Some((hand, ctx))
}

fn expected_fans(v: &serde_json::Value) -> BTreeMap<String, (u64, u64)> {
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
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/public.jsonl"
    ))
    .unwrap();
    let mut failures = Vec::new();
    let mut count = 0;
    for (line_no, line) in text.lines().enumerate() {
        let case: Case =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("line {}: {e}", line_no + 1));
        count += 1;
        let error = case.expected.get("error").and_then(|e| e.as_str());
        let got = build(&case).map(|(h, ctx)| {
            h.validate(&ctx)
                .map(|hand| score(&hand, &ctx, &Ruleset::MIL))
        });
        let scored = match (error, got) {
            (None | Some("ERROR_FAN_LESS_THAN_8" | "ERROR_NOT_WIN"), Some(Ok(s))) => s,
            (Some(_), None | Some(Err(_))) => continue, // malformed, and rejected
            (_, other) => {
                failures.push(format!(
                    "{} ({}): expected {:?}, got {:?}",
                    case.id,
                    line_no + 1,
                    error,
                    other.map(|r| r.map(|s| s.outcome))
                ));
                continue;
            }
        };
        let got_fans: BTreeMap<String, (u64, u64)> = scored
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
            None => (
                Outcome::Win,
                expected_fans(&case.expected["fans"]),
                case.expected["total"].as_u64(),
            ),
            Some("ERROR_FAN_LESS_THAN_8") => (
                Outcome::BelowMinimum,
                expected_fans(&case.expected["oracle_fans"]),
                case.expected["oracle_total"].as_u64(),
            ),
            _ => (
                Outcome::NotWinningShape,
                BTreeMap::new(),
                Some(u64::from(case.flowers)),
            ),
        };
        if scored.outcome != want_outcome
            || got_fans != want_fans
            || Some(u64::from(scored.total)) != want_total
        {
            failures.push(format!(
                "{} (line {}): expected {:?} {:?} = {:?}, got {:?} {:?} = {}",
                case.id,
                line_no + 1,
                want_outcome,
                want_fans,
                want_total,
                scored.outcome,
                got_fans,
                scored.total
            ));
        }
    }
    assert_eq!(count, 3026);
    assert!(
        failures.is_empty(),
        "{} of {count} cases disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
