//! The real `mahjong-referee` binary: score sheets, JSON output, invalid input, JSON Lines.

use std::process::Command;

use serde_json::Value;

#[path = "support/cli.rs"]
mod cli_support;

use cli_support::{cells, referee, referee_with_stdin, stderr, stdout};

const E23: &str = "[123m][789m][123p]55s89p7p";

#[test]
fn e23_score_sheet_is_18_under_every_ruleset() {
    for ruleset in ["chinese-official-1998", "mil", "green-book-2006"] {
        let out = referee(&["score", E23, "--self-drawn", "--ruleset", ruleset]);
        let text = stdout(&out);
        assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
        assert!(stderr(&out).is_empty());
        let line = |start: &str| {
            text.lines()
                .find(|l| l.trim_start().starts_with(start))
                .unwrap_or_else(|| panic!("no line `{start}` in\n{text}"))
        };
        assert_eq!(
            cells(line("三色双龙会")),
            ["三色双龙会", "Three-Suited Terminal Chows", "16 ×1", "16"]
        );
        assert_eq!(cells(line("边张")), ["边张", "Edge Wait", "1 ×1", "1"]);
        assert_eq!(cells(line("自摸")), ["自摸", "Self-Drawn", "1 ×1", "1"]);
        assert_eq!(
            cells(line("Fan total")),
            ["Fan total (without flowers)", "18"]
        );
        assert_eq!(cells(line("Flowers")), ["Flowers", "0"]);
        assert_eq!(cells(line("Total")), ["Total", "18"]);
        assert_eq!(line("Outcome").trim(), "Outcome    WIN");
        assert!(
            line("Reading").contains("[123m] [789m] [123p] 789p 55s"),
            "{text}"
        );
        assert!(line("Ruleset").ends_with(ruleset));
        // Exactly three fans.
        assert_eq!(
            text.lines().filter(|l| l.contains(" ×")).count(),
            3,
            "{text}"
        );
    }
}

#[test]
fn context_flags_reach_the_score() {
    // E23 on a discard, South seat in the West round, 3 flowers: 16 + 1 + 3.
    let out = referee(&[
        "score",
        E23,
        "--seat",
        "S",
        "--prevalent",
        "W",
        "--flowers",
        "3",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["fanTotal"], 17);
    assert_eq!(v["flowerPoints"], 3);
    assert_eq!(v["total"], 20);
    let fans: Vec<&str> = v["fans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["fan"].as_str().unwrap())
        .collect();
    assert_eq!(
        fans,
        [
            "FAN_THREE_SUITED_TERMINAL_CHOWS",
            "FAN_EDGE_WAIT",
            "FAN_FLOWER_TILES"
        ]
    );
    assert_eq!(v["fans"][2]["count"], 3);
    assert_eq!(v["fans"][2]["totalPoints"], 3);
}

#[test]
fn json_output_has_the_proto3_names() {
    let out = referee(&["score", E23, "--self-drawn", "--ruleset", "mil", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_str(&stdout(&out)).expect("one JSON document");
    let keys = |v: &Value| {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    assert_eq!(
        keys(&v),
        [
            "fanTotal",
            "fans",
            "flowerPoints",
            "glyphs",
            "notation",
            "outcome",
            "reading",
            "rulesFingerprint",
            "ruleset",
            "total",
            "violations"
        ]
    );
    assert_eq!(
        keys(&v["fans"][0]),
        [
            "count",
            "elementIndices",
            "fan",
            "nameEn",
            "nameZh",
            "nameZhHant",
            "points",
            "totalPoints"
        ]
    );
    assert_eq!(v["outcome"], "OUTCOME_WIN");
    assert_eq!(v["ruleset"], "RULESET_MIL");
    assert_eq!(v["fanTotal"], 18);
    assert_eq!(v["flowerPoints"], 0);
    assert_eq!(v["total"], 18);
    assert_eq!(v["violations"], serde_json::json!([]));
    assert_eq!(v["fans"][0]["fan"], "FAN_THREE_SUITED_TERMINAL_CHOWS");
    assert_eq!(v["fans"][0]["nameZh"], "三色双龙会");
    assert_eq!(v["fans"][0]["nameEn"], "Three-Suited Terminal Chows");
    assert_eq!(v["fans"][0]["points"], 16);
    assert_eq!(v["fans"][0]["count"], 1);
    assert_eq!(v["reading"]["shape"], "SHAPE_STANDARD");
    assert_eq!(v["reading"]["elements"][0]["tiles"][0], "TILE_1M");
    assert_eq!(v["reading"]["elements"][0]["declared"], true);
}

#[test]
fn invalid_input_exits_2_listing_every_violation() {
    let out = referee(&[
        "score",
        "[124m][789m][123p]55555s7p",
        "--self-drawn",
        "--robbing-kong",
        "--flowers",
        "9",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).is_empty());
    let err = stderr(&out);
    for (code, field) in [
        ("CHOW_INVALID", "hand.melds[0].tiles"),
        ("TILE_COUNT_WRONG", "hand.standing_tiles"),
        ("TILE_COPIES_EXCEEDED", "hand"),
        ("CONTEXT_CONFLICT", "context.robbing_kong"),
        ("FLOWER_COUNT_INVALID", "context.flower_count"),
    ] {
        assert!(
            err.lines()
                .any(|l| l.contains(code) && l.contains(&format!(" {field}: "))),
            "{code} at {field} missing from\n{err}"
        );
    }
    assert!(err.starts_with("invalid hand: 5 violations"), "{err}");
    // With --json the response is printed too, and the exit code is the same.
    let out = referee(&["score", "[124m][789m][123p]55s89p7p", "--json"]);
    assert_eq!(out.status.code(), Some(2));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["outcome"], "OUTCOME_INVALID");
    assert_eq!(v["violations"][0]["code"], "CHOW_INVALID");
    assert_eq!(v["violations"][0]["field"], "hand.melds[0].tiles");
}

#[test]
fn notation_errors_exit_2() {
    let out = referee(&["score", "[123m]12x"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("NOTATION_SYNTAX at notation"), "{err}");
    assert!(err.contains("position 8"), "{err}");
}

#[test]
fn losing_hands_are_normal_output() {
    let out = referee(&["score", "[123m]456m234p67s55p8s"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("BELOW MINIMUM"));
    let out = referee(&["score", "123m456p789s1357sE", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["outcome"], "OUTCOME_NOT_WINNING_SHAPE");
    assert!(v.get("reading").is_none());
}

#[test]
fn usage_errors_and_bare_invocation() {
    // A bare invocation is `serve` configured by MAHJONG_* variables (a bad one fails at
    // start-up, before anything listens; tests/server/binary.rs runs the real thing).
    let out = Command::new(env!("CARGO_BIN_EXE_mahjong-referee"))
        .env("MAHJONG_MAX_BATCH_HANDS", "0")
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--max-batch-hands"),
        "{}",
        stderr(&out)
    );
    for args in [
        &["score"][..],
        &["score", E23, "--seat", "X"],
        &["score", E23, "--ruleset", "riichi"],
        &["score", "--jsonl", E23],
        &["score", "--jsonl", "--self-drawn"],
    ] {
        let out = referee(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    let out = referee(&["score", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("--jsonl"));
}

#[test]
fn jsonl_answers_every_line_in_order_and_survives_bad_lines() {
    let input = [
        r#"{"notation": "[123m][789m][123p]55s89p7p", "context": {"selfDrawn": true}}"#,
        "",
        r#"{"notation": "#,
        "   ",
        r#"{"hand": {"standingTiles": [1, 2, 3], "winningTile": 99}, "ruleset": "RULESET_MIL"}"#,
        r#"{"notation": "[123m]456m234p67s55p8s", "ruleset": "RULESET_GREEN_BOOK_2006"}"#,
        r#"{"notation": "123m", "bogus": true}"#,
    ]
    .join("\n");
    let out = referee_with_stdin(&["score", "--jsonl"], &input);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("every output line is JSON"))
        .collect();
    assert_eq!(lines.len(), 5, "{}", stdout(&out));
    assert_eq!(lines[0]["outcome"], "OUTCOME_WIN");
    assert_eq!(lines[0]["total"], 18);
    assert_eq!(lines[1]["error"]["code"], "REQUEST_UNPARSABLE");
    assert!(lines[1]["error"]["message"].as_str().unwrap().len() > 10);
    assert_eq!(lines[2]["outcome"], "OUTCOME_INVALID");
    assert_eq!(lines[2]["ruleset"], "RULESET_MIL");
    let fields: Vec<&str> = lines[2]["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["hand.winning_tile", "hand.standing_tiles"]);
    assert_eq!(lines[3]["outcome"], "OUTCOME_BELOW_MINIMUM");
    assert_eq!(lines[3]["ruleset"], "RULESET_GREEN_BOOK_2006");
    assert_eq!(lines[4]["error"]["code"], "REQUEST_UNPARSABLE");
}

/// The calculator's knitted straight with a claimed chow, under each `--lang`: the fan names
/// in Simplified, Traditional or none, the English always.
#[test]
fn lang_chooses_the_chinese_of_the_sheet() {
    let hand = "[345m3]258m1477s369p7s";
    let first_fan = |lang: &str| {
        let out = referee(&["score", hand, "--lang", lang]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let text = stdout(&out);
        assert!(
            text.starts_with("Hand       [345m3]258m369p14777s\n"),
            "{text}"
        );
        assert!(text.contains("Outcome    WIN"), "{text}");
        let line = text
            .lines()
            .find(|l| l.contains("Knitted Straight"))
            .unwrap_or_else(|| panic!("no Knitted Straight in\n{text}"))
            .to_owned();
        cells(&line)
            .into_iter()
            .map(str::to_owned)
            .collect::<Vec<String>>()
    };
    assert_eq!(
        first_fan("zh-hans"),
        ["组合龙", "Knitted Straight", "12 ×1", "12"]
    );
    assert_eq!(
        first_fan("zh-hant"),
        ["組合龍", "Knitted Straight", "12 ×1", "12"]
    );
    assert_eq!(first_fan("en"), ["Knitted Straight", "12 ×1", "12"]);
    let out = referee(&["score", hand, "--lang", "fr"]);
    assert_eq!(out.status.code(), Some(2));
}

/// `parse` reads every form and prints the canonical notation, glyphs, melds and counts;
/// text that is not notation exits 2 with the position.
#[test]
fn parse_prints_what_the_notation_denotes() {
    let out = referee(&["parse", "[🀙🀚🀛,2] 🀇🀈🀉 1z1z1z 5z5z 🀄🀄 7z"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "Notation   [123p2]123mEEECCPPC");
    assert_eq!(lines[1], "Glyphs     [🀙🀚🀛2]🀇🀈🀉🀀🀀🀀🀄🀄🀆🀆🀄");
    assert_eq!(lines[2], "Melds      chow 123p, claimed tile 2p");
    assert!(
        text.contains("Counts     1m×1 2m×1 3m×1 1p×1 2p×1 3p×1 E×3 C×3 P×2"),
        "{text}"
    );
    let out = referee(&["parse", "[123m,]1m", "--json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("NOTATION_SYNTAX at notation"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("position 6"), "{}", stderr(&out));
    let out = referee(&["parse", "[345m3]258m1477s369p7s", "--json"]);
    let v: Value = serde_json::from_str(&stdout(&out)).expect("one JSON document");
    assert_eq!(v["hand"]["melds"][0]["claimedTile"], "TILE_5M");
    assert_eq!(v["notation"], "[345m3]258m369p14777s");
}
