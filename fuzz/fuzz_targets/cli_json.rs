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
use mahjong_referee::api::kit::json;
use mahjong_referee::api::{accounting, analysis, scoring};
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
            if let Ok(request) = json::score_request_from_json(text) {
                let response = scoring::score_request(&request);
                object(&json::score_response_to_json(&response, false).expect("writes"));
                object(&json::score_response_to_json(&response, true).expect("writes"));
            }
            // The JSON Lines answer of the same text, whatever it is.
            object(&scoring::score_json_line(text));
        }
        3 => {
            if let Ok(request) = json::validate_request_from_json(text) {
                let response = scoring::validate_request(&request);
                object(&json::validate_response_to_json(&response, false).expect("writes"));
            }
        }
        4 => {
            if let Ok(request) = json::analyze_request_from_json(text)
                && let Ok(response) = analysis::analyze_hand(&request)
            {
                object(&json::analyze_response_to_json(&response, false).expect("writes"));
            }
        }
        5 => {
            if let Ok(request) = accounting::settle_request_from_json(text)
                && let Ok(response) = accounting::settle_hand(&request)
            {
                object(&accounting::settle_response_to_json(&response, false).expect("writes"));
            }
        }
        6 => {
            if let Ok(request) = accounting::penalty_request_from_json(text)
                && let Ok(response) = accounting::adjudicate_penalty(&request)
            {
                object(&accounting::penalty_response_to_json(&response, false).expect("writes"));
            }
        }
        _ => {
            if let Ok(request) = accounting::standings_request_from_json(text)
                && let Ok(response) = accounting::compute_standings(&request)
            {
                object(&accounting::standings_response_to_json(&response, false).expect("writes"));
            }
        }
    }
}
