//! The public replay corpus (`tests/data/replay-public.txt`, 600 hands in Botzone's format,
//! with what an independent checker finds in `replay-public-expected.jsonl`) replayed by the
//! engine under MIL on one shared 136-tile wall: every legal hand agrees in winner, fan,
//! points and circumstances with no finding; every mutated hand's first finding is at the
//! mutated line.

use mcr::play::botzone::read_matches;
use mcr::play::{Ending, Phase, PlayState, ReplayOptions, replay};
use mcr::{Ruleset, Seat};
use serde::Deserialize;

#[derive(Deserialize)]
struct Expected {
    #[serde(rename = "match")]
    id: String,
    winner: Option<usize>,
    fan: Option<i64>,
    scores: Option<[i64; 4]>,
    first_violation_line: Option<usize>,
    mutation: Option<String>,
    derived: Option<Derived>,
}

#[allow(clippy::struct_excessive_bools)]
#[derive(Deserialize, Debug, PartialEq, Eq, Clone, Copy)]
#[serde(rename_all = "camelCase")]
struct Derived {
    self_drawn: bool,
    kong_replacement: bool,
    robbing_kong: bool,
    last_tile: bool,
    last_copy: bool,
}

fn corpus() -> (String, Vec<Expected>) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/");
    let text = std::fs::read_to_string(format!("{dir}replay-public.txt")).expect("corpus");
    let expected = std::fs::read_to_string(format!("{dir}replay-public-expected.jsonl"))
        .expect("expected")
        .lines()
        .map(|l| serde_json::from_str(l).expect("expected line"))
        .collect();
    (text, expected)
}

/// Tiles are conserved: what the seats hold, have melded and have discarded (taken
/// discards are in the claimer's meld) is the deal plus the draws so far.
fn assert_conserved(state: &PlayState, drawn: usize, id: &str) {
    let mut total = 0usize;
    for seat in Seat::ALL {
        let s = &state.seats()[seat];
        total += s.concealed_len();
        for meld in s.melds() {
            total += if meld.is_kong() { 4 } else { 3 };
        }
        let untaken = s.discards().iter().filter(|d| !d.taken).count();
        total += untaken;
    }
    // The tile being added to a kong is out of the hand and not yet in the meld.
    if let Phase::AddingKong { .. } = state.phase() {
        total += 1;
    }
    assert_eq!(total, 52 + drawn, "{id}: tiles not conserved");
}

/// The codes each kind of mutation is reported with.
fn codes_of(mutation: &str) -> &'static [&'static str] {
    match mutation {
        "discard_not_held" => &["DISCARD_NOT_HELD"],
        "chow_not_next" => &["CHOW_NOT_FROM_LEFT", "CHOW_WITHOUT_TILES"],
        "pung_without_pair" => &["PUNG_WITHOUT_PAIR"],
        "kong_without_tiles" => &["KONG_WITHOUT_TILES"],
        "bugang_without_pung" => &["ADDED_KONG_WITHOUT_PUNG"],
        "out_of_turn" => &["OUT_OF_TURN"],
        "false_win" => &["FALSE_WIN"],
        "priority" => &["CLAIM_PRIORITY"],
        "win_tile_mismatch" => &["WIN_TILE_MISMATCH"],
        "score_mismatch" => &["FAN_MISMATCH", "SCORE_MISMATCH"],
        other => panic!("unknown mutation {other}"),
    }
}

#[test]
fn the_public_replay_corpus_agrees() {
    let (text, expected) = corpus();
    let matches = read_matches(&text);
    assert_eq!(matches.len(), expected.len());
    let rules = Ruleset::MIL;
    let mut checked = 0;
    for ((id, read), want) in matches.into_iter().zip(&expected) {
        let m = read.unwrap_or_else(|e| panic!("{id:?}: {e}"));
        assert_eq!(m.id, want.id);
        let r = replay(&m.record, &rules, ReplayOptions { snapshots: true });
        let lines: Vec<usize> = r.findings.iter().map(|v| m.line_of(v.at)).collect();
        match &want.mutation {
            None => {
                assert!(r.findings.is_empty(), "{}: {:?}", want.id, r.findings);
            }
            Some(kind) => {
                let first = lines.iter().min().copied();
                let code = r.findings[lines.iter().position(|l| Some(*l) == first).unwrap_or(0)]
                    .code
                    .as_str();
                assert!(
                    codes_of(kind).contains(&code),
                    "{} ({kind}) gave {code}",
                    want.id
                );
                assert_eq!(
                    first, want.first_violation_line,
                    "{} ({kind}): {:?}",
                    want.id, r.findings
                );
            }
        }
        if want.mutation.is_none() || want.mutation.as_deref() == Some("score_mismatch") {
            let winner = r.win().map(|w| w.seat.index());
            assert_eq!(winner, want.winner, "{}", want.id);
            let fan = r.win().map_or(0, |w| i64::from(w.scoring.fan_total));
            assert_eq!(Some(fan), want.fan, "{}", want.id);
            assert_eq!(
                r.deltas().map(mcr::BySeat::into_array),
                want.scores,
                "{}",
                want.id
            );
            if let (Some(win), Some(d)) = (r.win(), want.derived) {
                let c = win.circumstances;
                let got = Derived {
                    self_drawn: c.self_drawn,
                    kong_replacement: c.kong_replacement,
                    robbing_kong: c.robbing_kong,
                    last_tile: c.last_tile,
                    last_copy: c.last_copy,
                };
                assert_eq!(got, d, "{}", want.id);
            }
        }
        for (i, state) in r.snapshots.iter().enumerate() {
            if let Err(e) = state.check_invariants() {
                panic!("{}: after {i} events: {e}", want.id);
            }
        }
        let mut drawn = 0;
        for (state, event) in r.snapshots.iter().skip(1).zip(&m.record.events) {
            if matches!(event.action, mcr::play::Action::Draw(_)) {
                drawn += 1;
            }
            if !matches!(state.phase(), Phase::Over(Ending::Win(_) | Ending::Stopped)) {
                assert_conserved(state, drawn, &want.id);
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 600);
}
