//! The public next-line corpus (`tests/data/next-public.txt`: 600 legal hands cut after
//! some line, with the phase and every line that may come next as an independent checker
//! finds them in `next-public-expected.jsonl`), answered by the engine under MIL on one
//! shared 136-tile wall: the same phase, the same set of lines, no finding. And each line
//! offered, appended to the log, is taken by the replay without a finding.

use std::collections::BTreeSet;

use mcr::Ruleset;
use mcr::play::botzone::{next_lines, read_match, read_matches};
use mcr::play::{
    Consequence, Event, NextActions, NextOptions, NextPhase, PlayCode, Record, Stated, Then,
    next_actions,
};
use mcr::ruleset::{AddedKongTile, WallRule};
use serde::Deserialize;

#[derive(Deserialize)]
struct Expected {
    #[serde(rename = "match")]
    id: String,
    phase: String,
    next: Vec<String>,
}

/// `next_actions` under `rules`, the state where the log leaves the hand checked against
/// the invariants of play ([`mcr::play::PlayState::check_invariants`]).
fn next_checked(record: &Record, rules: &Ruleset, what: &str) -> NextActions {
    let next = next_actions(record, rules, &NextOptions::default()).expect("no seed");
    if let Some(Err(e)) = next
        .state
        .as_ref()
        .map(mcr::play::PlayState::check_invariants)
    {
        panic!("{what}: after {} events: {e}", record.events.len());
    }
    next
}

fn corpus() -> (String, Vec<Expected>) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/");
    let text = std::fs::read_to_string(format!("{dir}next-public.txt")).expect("corpus");
    let expected = std::fs::read_to_string(format!("{dir}next-public-expected.jsonl"))
        .expect("expected")
        .lines()
        .map(|l| serde_json::from_str(l).expect("expected line"))
        .collect();
    (text, expected)
}

#[test]
fn the_public_next_line_corpus_agrees() {
    let (text, expected) = corpus();
    let matches = read_matches(&text);
    assert_eq!(matches.len(), expected.len());
    let rules = Ruleset::MIL;
    let mut phases = BTreeSet::new();
    for ((id, read), want) in matches.into_iter().zip(&expected) {
        let m = read.unwrap_or_else(|e| panic!("{id:?}: {e}"));
        assert_eq!(m.id, want.id);
        let next = next_checked(&m.record, &rules, &m.id);
        assert!(
            next.findings().is_empty(),
            "{}: {:?}",
            m.id,
            next.findings()
        );
        assert_eq!(next.phase.as_str(), want.phase, "{}", m.id);
        let got: BTreeSet<String> = next_lines(&next).into_iter().collect();
        let want_set: BTreeSet<String> = want.next.iter().cloned().collect();
        assert_eq!(got.len(), next_lines(&next).len(), "{}: a line twice", m.id);
        assert_eq!(got, want_set, "{}", m.id);
        phases.insert(next.phase.as_str());
    }
    assert_eq!(phases.len(), 4, "every phase is in the corpus: {phases:?}");
}

/// Every line offered (a draw aside: its tile is not known), appended to the log, is taken
/// without a finding, and a claim phase
/// always offers what follows when every seat passes.
#[test]
fn every_line_offered_is_taken_by_the_replay() {
    let (text, _) = corpus();
    let rules = Ruleset::MIL;
    let blocks: Vec<&str> = text
        .split("\n\n")
        .filter(|b| !b.trim().is_empty())
        .collect();
    for block in blocks.iter().step_by(3) {
        let lines: Vec<&str> = block.lines().collect();
        let m = read_match(&lines).unwrap();
        let next = next_checked(&m.record, &rules, &m.id);
        let offered = next_lines(&next);
        if next.phase == NextPhase::Claim {
            assert!(next.then.is_some(), "{}: no pass line", m.id);
        }
        for line in offered {
            if line.ends_with(" Draw") {
                continue; // the tile is not known: any tile left would do
            }
            let mut longer = lines.clone();
            longer.push(&line);
            let m2 = read_match(&longer).unwrap_or_else(|e| panic!("{}: {line}: {e}", m.id));
            let after = next_checked(&m2.record, &rules, &m2.id);
            assert!(
                after.findings().is_empty(),
                "{} + {line}: {:?}",
                m.id,
                after.findings()
            );
        }
    }
}

/// Under each wall, matches of the public replay corpus cut after every fifth event: every
/// action offered, appended, is taken without a new finding; the draw game offered ends the
/// hand without one; a hand goes on exactly while no finding has stopped it.
#[test]
fn under_every_wall_what_is_offered_is_taken() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/");
    let text = std::fs::read_to_string(format!("{dir}replay-public.txt")).expect("corpus");
    let matches = read_matches(&text);
    for wall in [WallRule::Shared136, WallRule::Shared144, WallRule::Botzone] {
        let mut rules = Ruleset::MIL;
        rules.play.wall = wall;
        rules.play.added_kong_tile = match wall {
            WallRule::Botzone => AddedKongTile::AnyHeld,
            WallRule::Shared136 | WallRule::Shared144 => AddedKongTile::JustDrawn,
        };
        let mut offered = 0;
        for (_, read) in matches.iter().step_by(5) {
            let m = read.as_ref().unwrap();
            let mut record = m.record.clone();
            record.stated = Stated::default();
            record.draw_game = false;
            let events = std::mem::take(&mut record.events);
            for cut in (0..=events.len()).step_by(5) {
                record.events = events[..cut].to_vec();
                let next = next_checked(&record, &rules, &m.id);
                let stops = next
                    .findings()
                    .iter()
                    .any(|v| v.consequence() == Consequence::Stops);
                assert!(!stops || next.phase == NextPhase::Over, "{}", m.id);
                assert!(
                    next.findings()
                        .iter()
                        .all(|v| v.code != PlayCode::HandNotEnded)
                );
                for decision in &next.decisions {
                    for legal in &decision.actions {
                        let mut longer = record.clone();
                        longer.events.push(Event::new(decision.seat, legal.action));
                        let after = next_checked(&longer, &rules, &m.id);
                        assert_eq!(
                            after.findings(),
                            next.findings(),
                            "{} cut at {cut} under {wall:?}: {:?} by {}",
                            m.id,
                            legal.action,
                            decision.seat
                        );
                        offered += 1;
                    }
                }
                if next.then == Some(Then::DrawGame) {
                    let mut ended = record.clone();
                    ended.draw_game = true;
                    let after = next_checked(&ended, &rules, &m.id);
                    assert_eq!(after.findings(), next.findings(), "{}", m.id);
                    assert_eq!(after.phase, NextPhase::Over);
                }
            }
        }
        assert!(offered > 1000, "{wall:?}: {offered}");
    }
}
