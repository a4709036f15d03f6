//! The public analysis corpus through `mahjong-referee analyze --jsonl`: each case as an
//! `AnalyzeHandRequest` in proto3 JSON (notation, winds, `RULESET_MIL`, visible tiles), each
//! answer read back from proto3 JSON and compared with the corpus.
//!
//! For the hands where the knitted straight beside a declared meld is the nearest shape,
//! which the corpus's calculator leaves out of its lists (see `View` in the support module),
//! the answer is compared with the engine's own analysis instead; the engine's test checks
//! that one against the corpus.

#[allow(dead_code)] // the fields and helpers only the engine's test uses
#[path = "../crates/mcr/tests/analysis_support/mod.rs"]
mod analysis_support;
#[allow(dead_code)] // the helpers this test does not use
#[path = "support/cli.rs"]
mod cli;

use std::collections::{BTreeMap, BTreeSet};

use analysis_support::{KNITTED_WITH_MELD, Summary, View, load};
use cli::{referee_with_stdin, stdout};
use mcr::Ruleset;
use mcr::analysis::{InPlay, analyze};
use serde_json::{Value, json};

/// The honours' proto3 JSON names, winds then dragons (corpus `F1`–`F4`, `J1`–`J3`).
const HONOURS: [&str; 7] = [
    "TILE_EAST",
    "TILE_SOUTH",
    "TILE_WEST",
    "TILE_NORTH",
    "TILE_RED",
    "TILE_GREEN",
    "TILE_WHITE",
];

/// The proto3 JSON name of a corpus tile code.
fn name(code: &str) -> String {
    let (letter, digit) = code.split_at(1);
    let n: usize = digit.parse().expect("corpus tile digit");
    match letter {
        "W" => format!("TILE_{n}M"),
        "B" => format!("TILE_{n}P"),
        "T" => format!("TILE_{n}S"),
        "F" => HONOURS[n - 1].to_owned(),
        _ => HONOURS[n + 3].to_owned(),
    }
}

/// The corpus code (`W1`, `F3`, …) of a proto3 JSON tile name (`TILE_1M`, `TILE_WEST`, …).
fn code(name: &Value) -> String {
    let name = name.as_str().unwrap_or_default();
    if let Some(i) = HONOURS.iter().position(|&h| h == name) {
        return if i < 4 {
            format!("F{}", i + 1)
        } else {
            format!("J{}", i - 3)
        };
    }
    let rest = name.strip_prefix("TILE_").unwrap_or(name);
    let (rank, suit) = rest.split_at(1);
    let letter = match suit {
        "M" => "W",
        "P" => "B",
        "S" => "T",
        other => panic!("tile name {name}: suit {other}"),
    };
    format!("{letter}{rank}")
}

fn codes(v: &Value) -> BTreeSet<String> {
    v.as_array().into_iter().flatten().map(code).collect()
}

fn useful_codes(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .map(|u| code(&u["tile"]))
        .collect()
}

fn score(v: &Value) -> (String, u64) {
    (
        v["outcome"].as_str().unwrap_or_default().to_owned(),
        v["total"].as_u64().unwrap_or(0),
    )
}

/// What an `AnalyzeHandResponse` says, in the support module's form; the knitted straight
/// is dropped from `shapes` when `omit_knitted_straight`.
fn summary(r: &Value, omit_knitted_straight: bool) -> Summary {
    let drawn = r["state"] == "HAND_STATE_DRAWN";
    Summary {
        shanten: (!drawn).then(|| r["shanten"].as_i64().unwrap_or(99)),
        shapes: if drawn {
            BTreeMap::new()
        } else {
            r["shapes"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|s| !(omit_knitted_straight && s["shape"] == "SHAPE_KNITTED_STRAIGHT"))
                .map(|s| {
                    (
                        s["shape"].as_str().unwrap_or_default().to_owned(),
                        (s["shanten"].as_i64().unwrap_or(99), codes(&s["useful"])),
                    )
                })
                .collect()
        },
        useful: useful_codes(&r["useful"]),
        remaining: r["useful"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|u| (code(&u["tile"]), u["remaining"].as_u64().unwrap_or(99)))
            .collect(),
        waits: r["waits"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|w| {
                let scores =
                    (w["dead"] != true).then(|| (score(&w["onDiscard"]), score(&w["onSelfDrawn"])));
                (code(&w["tile"]), scores)
            })
            .collect(),
        discards: r["discards"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|d| {
                (
                    code(&d["tile"]),
                    (
                        d["shanten"].as_i64().unwrap_or(99),
                        useful_codes(&d["useful"]),
                    ),
                )
            })
            .collect(),
    }
}

#[test]
fn public_analysis_corpus_agrees_completely_through_analyze_jsonl() {
    let cases = load();
    assert_eq!(cases.len(), 1500);
    let winds = ["WIND_EAST", "WIND_SOUTH", "WIND_WEST", "WIND_NORTH"];
    let input: String = cases
        .iter()
        .map(|c| {
            let visible: Vec<String> = c.visible.iter().map(|t| name(t)).collect();
            json!({
                "notation": c.notation,
                "context": {
                    "seatWind": winds[c.seat_wind],
                    "prevalentWind": winds[c.prevalent_wind],
                },
                "ruleset": "RULESET_MIL",
                "visibleTiles": visible,
            })
            .to_string()
                + "\n"
        })
        .collect();
    let output = referee_with_stdin(&["analyze", "--jsonl"], &input);
    assert!(output.status.success());
    let responses: Vec<Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(responses.len(), cases.len());

    let mut failures = Vec::new();
    let mut engine_compared = 0;
    for (case, response) in cases.iter().zip(&responses) {
        assert_eq!(response["ruleset"], "RULESET_MIL", "{}", case.id);
        let one_meld = case.melds.len() == 1;
        let (got, want) = if KNITTED_WITH_MELD.contains(&case.id.as_str()) {
            engine_compared += 1;
            let (hand, visible, context) = case.input();
            let hand = InPlay::new(&hand, &visible).expect("valid");
            let engine = View {
                omit_knitted_straight: false,
            }
            .summary(&analyze(&hand, &context, &Ruleset::MIL));
            (summary(response, false), engine)
        } else {
            (summary(response, one_meld), case.expected())
        };
        for d in got.differences(&want) {
            failures.push(format!("{} {}: {d}", case.id, case.notation));
        }
    }
    assert_eq!(engine_compared, KNITTED_WITH_MELD.len());
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
}

#[test]
fn a_malformed_line_is_answered_and_the_run_goes_on() {
    let input = [
        r#"{"notation": "123m"}"#,
        "not json",
        r#"{"notation": "1112345678999m", "visibleTiles": ["TILE_1M", "TILE_1M"]}"#,
        r#"{"notation": "1112345678999m", "ruleset": "RULESET_MIL"}"#,
    ]
    .join("\n");
    let output = referee_with_stdin(&["analyze", "--jsonl"], &input);
    assert!(output.status.success());
    let lines: Vec<Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["error"]["code"], "INVALID_REQUEST");
    assert_eq!(
        lines[0]["error"]["violations"][0]["code"],
        "TILE_COUNT_WRONG"
    );
    assert_eq!(lines[1]["error"]["code"], "REQUEST_UNPARSABLE");
    // Three 1m in the hand and two seen: five copies.
    assert_eq!(lines[2]["error"]["violations"][0]["field"], "visible_tiles");
    assert_eq!(lines[3]["waits"].as_array().map(Vec::len), Some(9));
    assert_eq!(lines[3]["readyToWin"], true);
}
