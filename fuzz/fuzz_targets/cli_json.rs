//! The JSON requests of the command line on arbitrary input. The first byte chooses the
//! front end; the rest is its input:
//!
//! - `score --jsonl` and `analyze --jsonl` (0, 1): exactly one output line per non-blank
//!   input line, each a JSON object (a response, or `{"error": …}`);
//! - the one-shot requests (`ScoreHand`, `ValidateHand`, `AnalyzeHand`, `SettleHand`,
//!   `AdjudicatePenalty`, `ComputeStandings`, 2 to 7): never a panic, and every response
//!   to a request that parses writes as JSON that reads back as a JSON object.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mahjong_referee::api::KeptRules;
use mahjong_referee::api::kit::json;
use mahjong_referee::api::{accounting, analysis, pb, scoring};
use mahjong_referee::cli::{analyze::analyze_jsonl, score::score_jsonl};

fuzz_target!(
    init: {
        // The shape tables are built on first use, which takes seconds in this instrumented
        // build: built before any input, so that none is reported as slow for them.
        mcr::shape::warm_up();
    },
    |data: &[u8]| {
        let Some((&selector, input)) = data.split_first() else {
            return;
        };
        match selector % 8 {
            0 => lines(input, |i, o| score_jsonl(i, o)),
            1 => lines(input, |i, o| analyze_jsonl(i, o)),
            n => {
                let Ok(text) = std::str::from_utf8(input) else {
                    return;
                };
                one_shot(n, text);
            }
        }
    }
);

type Run = fn(&mut &[u8], &mut Vec<u8>) -> std::io::Result<std::process::ExitCode>;

/// The lines the JSON Lines front ends answer: split after each `\n` (the last line may
/// lack it), blank only when UTF-8 and nothing but white space.
fn answered_lines(input: &[u8]) -> usize {
    input
        .split_inclusive(|&b| b == b'\n')
        .filter(|line| std::str::from_utf8(line).map_or(true, |l| !l.trim().is_empty()))
        .count()
}

fn lines(input: &[u8], run: Run) {
    let mut out = Vec::new();
    let mut reader = input;
    run(&mut reader, &mut out).expect("in-memory input and output");
    let out = String::from_utf8(out).expect("UTF-8 output");
    assert!(out.is_empty() || out.ends_with('\n'), "{out:?}");
    let answers: Vec<&str> = out.lines().collect();
    assert_eq!(answers.len(), answered_lines(input), "{input:?} → {out:?}");
    for answer in answers {
        object(answer);
    }
}

/// `text` is one JSON object.
fn object(text: &str) {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Object(_)) => {}
        other => panic!("{text:?} is not a JSON object: {other:?}"),
    }
}

fn one_shot(n: u8, text: &str) {
    match n {
        2 => {
            if let Ok(request) = json::from_json::<pb::ScoreHandRequest>(text) {
                let response = scoring::score_request(&request, &KeptRules::default());
                object(&json::to_json::<pb::ScoreHandResponse>(&response, false).expect("writes"));
                object(&json::to_json::<pb::ScoreHandResponse>(&response, true).expect("writes"));
            }
            // The JSON Lines answer of the same text, whatever it is.
            object(&scoring::score_json_line(text, &KeptRules::default()));
        }
        3 => {
            if let Ok(request) = json::from_json::<pb::ValidateHandRequest>(text) {
                let response = scoring::validate_request(&request, &KeptRules::default());
                object(
                    &json::to_json::<pb::ValidateHandResponse>(&response, false).expect("writes"),
                );
            }
        }
        4 => {
            if let Ok(request) = json::from_json::<pb::AnalyzeHandRequest>(text)
                && let Ok(response) = analysis::analyze_hand(&request, &KeptRules::default())
            {
                object(
                    &json::to_json::<pb::AnalyzeHandResponse>(&response, false).expect("writes"),
                );
            }
        }
        5 => {
            if let Ok(request) = json::from_json::<pb::SettleHandRequest>(text)
                && let Ok(response) = accounting::settle_hand(&request, &KeptRules::default())
            {
                object(&json::to_json::<pb::SettleHandResponse>(&response, false).expect("writes"));
            }
        }
        6 => {
            if let Ok(request) = json::from_json::<pb::AdjudicatePenaltyRequest>(text)
                && let Ok(response) =
                    accounting::adjudicate_penalty(&request, &KeptRules::default())
            {
                object(
                    &json::to_json::<pb::AdjudicatePenaltyResponse>(&response, false)
                        .expect("writes"),
                );
            }
        }
        _ => {
            if let Ok(request) = json::from_json::<pb::ComputeStandingsRequest>(text)
                && let Ok(response) = accounting::compute_standings(&request, &KeptRules::default())
            {
                object(
                    &json::to_json::<pb::ComputeStandingsResponse>(&response, false)
                        .expect("writes"),
                );
            }
        }
    }
}
