//! The public corpus through the real binary: every case becomes a `ScoreHandRequest` in proto3
//! JSON (a structured hand, not notation), all of them go through ONE
//! `mahjong-referee score --jsonl` process, and every response must agree with the independent
//! calculator under MIL: wins with the same fan multiset and total, under-8 hands as
//! `OUTCOME_BELOW_MINIMUM` with the oracle's breakdown, non-winning hands as
//! `OUTCOME_NOT_WINNING_SHAPE`, malformed ones as `OUTCOME_INVALID`.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

/// Corpus tile codes: `W1`..`W9` characters, `B1`..`B9` dots, `T1`..`T9` bamboo, `F1`..`F4`
/// winds, `J1`..`J3` dragons. A bad code becomes a tile number out of range, which the referee
/// must report.
fn tile(code: &str) -> u32 {
    const OUT_OF_RANGE: u32 = 99;
    let mut chars = code.chars();
    let (Some(letter), Some(digit), None) = (chars.next(), chars.next(), chars.next()) else {
        return OUT_OF_RANGE;
    };
    let Some(n) = digit.to_digit(10) else {
        return OUT_OF_RANGE;
    };
    match (letter, n) {
        ('W', 1..=9) => n,
        ('B', 1..=9) => 9 + n,
        ('T', 1..=9) => 18 + n,
        ('F', 1..=4) => 27 + n,
        ('J', 1..=3) => 31 + n,
        _ => OUT_OF_RANGE,
    }
}

fn tiles(v: &Value) -> Vec<u32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|t| tile(t.as_str().unwrap()))
        .collect()
}

const WINDS: [&str; 4] = ["WIND_EAST", "WIND_SOUTH", "WIND_WEST", "WIND_NORTH"];

/// A corpus case as a `ScoreHandRequest` under MIL.
fn request(case: &Value) -> Value {
    let melds: Vec<Value> = case["melds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let kind = match m["kind"].as_str().unwrap() {
                "chow" => "MELD_KIND_CHOW",
                "pung" => "MELD_KIND_PUNG",
                "kong" => "MELD_KIND_KONG",
                "concealed_kong" => "MELD_KIND_CONCEALED_KONG",
                other => panic!("unknown meld kind {other}"),
            };
            let claimed_from = match m["claimed_from"].as_u64().unwrap() {
                0 => "CLAIM_SOURCE_UNSPECIFIED",
                1 => "CLAIM_SOURCE_LEFT",
                2 => "CLAIM_SOURCE_OPPOSITE",
                3 => "CLAIM_SOURCE_RIGHT",
                other => panic!("unknown claim source {other}"),
            };
            json!({"kind": kind, "tiles": tiles(&m["tiles"]), "claimedFrom": claimed_from})
        })
        .collect();
    let flag = |name: &str| case[name].as_bool().unwrap();
    let self_drawn = flag("self_drawn");
    let wind = |name: &str| WINDS[usize::try_from(case[name].as_u64().unwrap()).unwrap()];
    json!({
        "hand": {
            "melds": melds,
            "standingTiles": tiles(&case["concealed"]),
            "winningTile": tile(case["win_tile"].as_str().unwrap()),
        },
        "context": {
            "selfDrawn": self_drawn,
            "robbingKong": flag("kong_related") && !self_drawn,
            "replacementDraw": flag("kong_related") && self_drawn,
            "lastTile": flag("last_tile"),
            "lastCopy": flag("fourth_tile"),
            "seatWind": wind("seat_wind"),
            "prevalentWind": wind("prevalent_wind"),
            "flowerCount": case["flowers"].as_u64().unwrap(),
        },
        "ruleset": "RULESET_MIL",
    })
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

/// `name → (points, count)` of the corpus's `[[name, points, count], …]`.
fn expected_fans(v: &Value) -> BTreeMap<String, (u64, u64)> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                canonical(f[0].as_str().unwrap()).to_owned(),
                (f[1].as_u64().unwrap(), f[2].as_u64().unwrap()),
            )
        })
        .collect()
}

/// `nameZh → (points, count)` of a response.
fn response_fans(v: &Value) -> BTreeMap<String, (u64, u64)> {
    v["fans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["nameZh"].as_str().unwrap().to_owned(),
                (f["points"].as_u64().unwrap(), f["count"].as_u64().unwrap()),
            )
        })
        .collect()
}

#[test]
fn public_corpus_agrees_completely_through_score_jsonl() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/public.jsonl"
    ))
    .unwrap();
    let cases: Vec<Value> = text
        .lines()
        .enumerate()
        .map(|(i, l)| serde_json::from_str(l).unwrap_or_else(|e| panic!("line {}: {e}", i + 1)))
        .collect();
    assert_eq!(cases.len(), 3026);
    let input: String = cases
        .iter()
        .map(|c| request(c).to_string() + "\n")
        .collect();

    let mut child = Command::new(env!("CARGO_BIN_EXE_mahjong-referee"))
        .args(["score", "--jsonl"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let responses: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(responses.len(), cases.len());

    let mut failures = Vec::new();
    let mut seen = BTreeMap::<&str, usize>::new();
    for (line, (case, resp)) in cases.iter().zip(&responses).enumerate() {
        let id = case["id"].as_str().unwrap();
        let expected = &case["expected"];
        let error = expected.get("error").and_then(Value::as_str);
        let flowers = case["flowers"].as_u64().unwrap();
        let (outcome, fans, total) = match error {
            None => (
                "OUTCOME_WIN",
                Some(expected_fans(&expected["fans"])),
                expected["total"].as_u64(),
            ),
            Some("ERROR_FAN_LESS_THAN_8") => (
                "OUTCOME_BELOW_MINIMUM",
                Some(expected_fans(&expected["oracle_fans"])),
                expected["oracle_total"].as_u64(),
            ),
            Some("ERROR_NOT_WIN") => ("OUTCOME_NOT_WINNING_SHAPE", None, Some(flowers)),
            Some(_) => ("OUTCOME_INVALID", None, Some(0)),
        };
        *seen.entry(outcome).or_default() += 1;
        let got_fans = response_fans(resp);
        let ok = resp["outcome"] == outcome
            && resp["total"].as_u64() == total
            && fans.as_ref().is_none_or(|f| *f == got_fans)
            && (outcome == "OUTCOME_INVALID") != resp["violations"].as_array().unwrap().is_empty()
            && resp["ruleset"] == "RULESET_MIL";
        if !ok {
            failures.push(format!(
                "{id} (line {}): expected {outcome} {fans:?} = {total:?}, got {resp}",
                line + 1
            ));
        }
    }
    // Every kind of outcome is exercised.
    assert_eq!(seen.len(), 4, "{seen:?}");
    assert!(
        failures.is_empty(),
        "{} of {} cases disagree:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
