//! `mahjong-referee replay --format botzone --json` on the public replay corpus: one object
//! per match per line, in input order, agreeing with the independent checker on every legal
//! hand and on the first finding of every mutated one; unreadable matches are errors with
//! their line, and the run goes on.

use serde_json::Value;

#[path = "support/cli.rs"]
#[allow(dead_code)] // `cells` is for the sheets of the other CLI tests
mod cli_support;

use cli_support::{referee, referee_with_stdin, stderr, stdout};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/replay-public.txt");
const EXPECTED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/replay-public-expected.jsonl"
);

#[test]
fn the_public_replay_corpus_agrees_through_the_command_line() {
    let out = referee(&["replay", "--format", "botzone", "--json", CORPUS]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let got: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect();
    let expected: Vec<Value> = std::fs::read_to_string(EXPECTED)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(got.len(), expected.len());
    for (g, e) in got.iter().zip(&expected) {
        let id = &e["match"];
        assert_eq!(&g["match"], id);
        let violations = g["violations"].as_array().expect("violations");
        let lines: Vec<u64> = violations
            .iter()
            .map(|v| v["line"].as_u64().unwrap())
            .collect();
        assert!(lines.is_sorted(), "{id}: in line order");
        if e["mutation"].is_null() {
            assert!(violations.is_empty(), "{id}: {violations:?}");
        } else {
            assert_eq!(
                lines.first().copied(),
                e["first_violation_line"].as_u64(),
                "{id}"
            );
        }
        if e["mutation"].is_null() || e["mutation"] == "score_mismatch" {
            for field in ["winner", "fan", "scores", "derived"] {
                assert_eq!(g[field], e[field], "{id}: {field}");
            }
        }
    }
}

#[test]
fn unreadable_matches_are_errors_with_their_line_and_the_run_goes_on() {
    let corpus = std::fs::read_to_string(CORPUS).unwrap();
    let first = corpus.split("\n\n").next().unwrap();
    let bad_tile = first.replacen("Player 0 Deal T7", "Player 0 Deal X7", 1);
    let bad_player = first.replacen("Player 1 Draw T1", "Player 4 Draw T1", 1);
    let chi_honour = first.replacen("Player 3 Chi B8", "Player 3 Chi F2", 1);
    let fifth = first.replacen("Player 0 Deal T7 T3 W3", "Player 0 Deal W4 W4 W4", 1);
    let input = [bad_tile, bad_player, chi_honour, fifth, first.to_owned()].join("\n\n");
    let out = referee_with_stdin(&["replay", "--json", "-"], &input);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let got: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(got.len(), 5);
    let error = |i: usize| {
        (
            got[i]["error"]["line"].clone(),
            got[i]["error"]["code"].clone(),
        )
    };
    assert_eq!(error(0), (Value::from(3), Value::from("TILE_UNKNOWN")));
    assert_eq!(error(1), (Value::from(9), Value::from("SEAT_INVALID")));
    assert_eq!(error(2), (Value::from(37), Value::from("CHOW_INVALID")));
    // West has no W4; Norths second makes the fifth.
    assert_eq!(error(3), (Value::from(6), Value::from("DEAL_INVALID")));
    assert!(
        got[3]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("fifth copy")
    );
    for g in &got[..4] {
        assert_eq!(g["match"], "syn-8282-0");
        for field in ["winner", "fan", "scores", "violations", "derived"] {
            assert!(g[field].is_null(), "{field} of an error");
        }
    }
    assert_eq!(got[4]["winner"], 0);
}

#[test]
fn a_readable_account_without_json() {
    let corpus = std::fs::read_to_string(CORPUS).unwrap();
    let first = corpus.split("\n\n").next().unwrap();
    let out = referee_with_stdin(&["replay", "-"], first);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(
        text.contains("player 0 (East) wins on B8 on the discard of player 2 (West): 10 fan"),
        "{text}"
    );
    assert!(text.contains("海底捞月 8"), "{text}");
    assert!(text.contains("every event is legal"), "{text}");
    let missing = referee(&["replay", "/no/such/file"]);
    assert_eq!(missing.status.code(), Some(2));
}

/// East pungs South's B5 and adds the fourth B5, kept since the pung, to it after drawing
/// J3: Botzone's judge allows it (`--wall botzone`); the shared wall's rule asks for the tile
/// just drawn.
#[test]
fn an_added_kong_with_an_earlier_held_tile_under_botzone_walls() {
    let record = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/replay-added-kong-held.txt"
    ))
    .expect("the record");
    let codes = |wall: &str| -> Vec<(u64, String)> {
        let out = referee_with_stdin(&["replay", "--json", "--wall", wall, "-"], &record);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let v: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        v["violations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["line"].as_u64().unwrap(),
                    f["code"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    };
    // The record ends before the hand does; under Botzone's walls that is all.
    assert_eq!(codes("botzone"), [(22, "HAND_NOT_ENDED".to_owned())]);
    assert_eq!(codes("shared")[0], (20, "ADDED_KONG_NOT_DRAWN".to_owned()));
}
