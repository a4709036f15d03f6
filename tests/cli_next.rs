//! `mahjong-referee next` and `deal` from outside, as the checks call them: the public
//! next-line corpus (`tests/data/next-public.txt`, 600 hands in progress) answered as the
//! independent checker's `next-public-expected.jsonl` answers it (phase equal, `next` equal
//! as a set); unreadable matches; the seeded deal, and `replay`/`next` with its seed.

use std::collections::BTreeSet;

use serde_json::Value;

#[path = "support/cli.rs"]
#[allow(dead_code)] // `cells` is for the sheets of the other CLI tests
mod cli_support;

use cli_support::{referee, referee_with_stdin, stderr, stdout};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/next-public.txt");
const EXPECTED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/next-public-expected.jsonl"
);

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect()
}

fn set(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|l| l.as_str().expect("a line").to_owned())
        .collect()
}

#[test]
fn the_public_next_line_corpus_agrees_through_the_command_line() {
    let out = referee(&["next", "--json", "--wall", "shared", CORPUS]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let got = json_lines(&stdout(&out));
    let expected = json_lines(&std::fs::read_to_string(EXPECTED).unwrap());
    assert_eq!(got.len(), 600);
    assert_eq!(got.len(), expected.len());
    for (g, e) in got.iter().zip(&expected) {
        let id = &e["match"];
        assert_eq!(&g["match"], id);
        assert_eq!(g["phase"], e["phase"], "{id}");
        assert_eq!(set(&g["next"]), set(&e["next"]), "{id}");
        assert_eq!(g["violations"], Value::Array(Vec::new()), "{id}");
        let keys: BTreeSet<&str> = g.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            BTreeSet::from(["match", "phase", "next", "violations"]),
            "{id}"
        );
    }
    // Flags in any order, the file first, from standard input.
    let corpus = std::fs::read_to_string(CORPUS).unwrap();
    let first = corpus.split("\n\n").next().unwrap();
    let out = referee_with_stdin(&["next", "-", "--wall", "shared", "--json"], first);
    assert_eq!(json_lines(&stdout(&out))[0], got[0]);
}

#[test]
fn findings_so_far_unreadable_matches_and_the_readable_form() {
    let corpus = std::fs::read_to_string(CORPUS).unwrap();
    let first = corpus.split("\n\n").next().unwrap(); // syn-8282-0/71, East to act
    // South discards a tile it does not hold: the hand stops there.
    let stopped = format!("{first}\nPlayer 1 Play W1");
    let bad_tile = first.replacen("Player 0 Deal T7", "Player 0 Deal X7", 1);
    let fifth = first.replacen("Player 0 Deal T7 T3 W3", "Player 0 Deal W4 W4 W4", 1);
    let input = [stopped, bad_tile, fifth, first.to_owned()].join("\n\n");
    let out = referee_with_stdin(&["next", "--json", "-"], &input);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let got = json_lines(&stdout(&out));
    assert_eq!(got.len(), 4);
    assert_eq!(got[0]["phase"], "over");
    assert_eq!(got[0]["next"], Value::Array(Vec::new()));
    assert_eq!(got[0]["violations"][0]["code"], "OUT_OF_TURN");
    assert_eq!(got[0]["violations"][0]["line"], 72);
    assert_eq!(got[0]["violations"].as_array().unwrap().len(), 1);
    assert_eq!(got[1]["error"]["code"], "TILE_UNKNOWN");
    assert_eq!(got[2]["error"]["code"], "DEAL_INVALID");
    for g in &got[1..3] {
        assert_eq!(g["match"], "syn-8282-0/71");
        assert!(g["phase"].is_null() && g["next"].is_null() && g["violations"].is_null());
    }
    assert_eq!(got[3]["phase"], "act");

    let out = referee_with_stdin(&["next", "-"], first);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.contains("phase: act"), "{text}");
    assert!(text.contains("player 0 (East): Play W2, Play B7"), "{text}");
    assert!(text.contains("every event is legal"), "{text}");
    assert_eq!(referee(&["next", "/no/such/file"]).status.code(), Some(2));
}

const SEED: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

#[test]
fn deal_prints_the_seeds_deal_as_the_published_algorithm_makes_it() {
    let out = referee(&["deal", "--seed", SEED, "--json", "--wind", "W"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1);
    let v: Value = serde_json::from_str(&text).unwrap();
    // Worked out with Python's hashlib (scripts/deal.py).
    assert_eq!(
        v["commitment"],
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    );
    assert_eq!(v["wind"], 2);
    assert_eq!(v["deal"].as_array().unwrap().len(), 4);
    assert_eq!(
        v["deal"][0],
        serde_json::json!([
            "T5", "W9", "T9", "F3", "W8", "W8", "B5", "B8", "T5", "W2", "J1", "B5", "B7"
        ])
    );
    assert_eq!(v["wall"].as_array().unwrap().len(), 84);
    assert_eq!(v["wall"][0], "W3");
    assert_eq!(v["wall"][83], "W1");

    let header = stdout(&referee(&["deal", "--seed", SEED]));
    let lines: Vec<&str> = header.lines().collect();
    assert_eq!(lines.len(), 6);
    assert_eq!(
        lines[0],
        "Match 630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    );
    assert_eq!(lines[1], "Wind 0");
    assert_eq!(
        lines[2],
        "Player 0 Deal T5 W9 T9 F3 W8 W8 B5 B8 T5 W2 J1 B5 B7"
    );

    for bad in ["00", &"g".repeat(64), &format!("{SEED}00")] {
        let out = referee(&["deal", "--seed", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            stderr(&out).contains("64 hexadecimal digits"),
            "{}",
            stderr(&out)
        );
    }
    assert_eq!(referee(&["deal"]).status.code(), Some(2));
}

/// The seed's header, then East draws the wall's first tile and discards it.
fn seeded_hand() -> String {
    let header = stdout(&referee(&["deal", "--seed", SEED]));
    format!("{header}Player 0 Draw W3\nPlayer 0 Play W3\n")
}

#[test]
fn replay_and_next_check_the_deal_and_draws_against_the_seed() {
    let hand = seeded_hand();
    let replayed = |text: &str, extra: &[&str]| -> Value {
        let mut args = vec!["replay", "--json", "--seed", SEED];
        args.extend(extra);
        args.push("-");
        let out = referee_with_stdin(&args, text);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        serde_json::from_str(stdout(&out).trim()).unwrap()
    };
    let codes = |v: &Value| -> Vec<(u64, String)> {
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
    // A dealt hand: only its early end.
    assert_eq!(
        codes(&replayed(&hand, &[])),
        [(8, "HAND_NOT_ENDED".to_owned())]
    );
    // A forged deal line: West's first tile changed (to one West does not hold).
    let west = hand.lines().nth(4).unwrap();
    let forged_west = west.replacen(" B2 ", " J3 ", 1);
    assert_ne!(west, forged_west);
    let forged = hand.replacen(west, &forged_west, 1);
    assert_eq!(
        codes(&replayed(&forged, &[])),
        [(5, "DEAL_NOT_FROM_SEED".to_owned())]
    );
    // A forged draw.
    let forged = hand.replace("W3\n", "W4\n");
    assert_eq!(
        codes(&replayed(&forged, &[]))[0],
        (7, "WALL_MISMATCH".to_owned())
    );

    // next names the tile of the next draw, and finds nothing.
    let out = referee_with_stdin(&["next", "--seed", SEED, "--json", "-"], &hand);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["phase"], "claim");
    assert!(set(&v["next"]).contains("Player 1 Draw F4"), "{v}");
    assert_eq!(v["violations"], Value::Array(Vec::new()));
    let out = referee_with_stdin(
        &["next", "--json", "-", "--seed", SEED],
        &forged_west_hand(&hand),
    );
    let v: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["phase"], "over");
    assert_eq!(v["violations"][0]["code"], "DEAL_NOT_FROM_SEED");

    // A seed is refused with the walls it cannot deal.
    for wall in ["botzone", "shared-144"] {
        for command in ["replay", "next"] {
            let out = referee_with_stdin(&[command, "--seed", SEED, "--wall", wall, "-"], &hand);
            assert_eq!(out.status.code(), Some(2), "{command} {wall}");
            assert!(stderr(&out).contains("--seed"), "{}", stderr(&out));
        }
    }
}

fn forged_west_hand(hand: &str) -> String {
    let west = hand.lines().nth(4).unwrap();
    hand.replacen(west, &west.replacen(" B2 ", " J3 ", 1), 1)
}
