//! The in-process table (`mcr::play::Table`) stepped with arbitrary choices: the first 32
//! bytes are the seed, each next pair a choice (its seat, and an action number, legal or
//! not; a choice byte with the high bit set ends the step's choices). Nothing panics, and:
//!
//! - a refused step leaves the table exactly as it was;
//! - a step taken changes the record, and the state keeps its invariants;
//! - every legal action listed has a number in the space that maps back to it;
//! - once the hand is over, its log reads back as the same events and replays with the
//!   seed without a finding, to the table's result.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcr::house_rules::Rules;
use mcr::play::botzone::read_match;
use mcr::play::{
    ACTION_SPACE, ReplayOptions, Seed, Table, TablePhase, action_id, action_of_id, replay_record,
};
use mcr::{RulesetId, Seat, Wind};

fuzz_target!(
    init: {
        mcr::shape::warm_up();
    },
    |data: &[u8]| {
        let Some((seed, mut rest)) = data.split_first_chunk::<32>() else {
            return;
        };
        let seed = Seed::new(*seed);
        let rules = Rules::new(RulesetId::Mil, None).expect("MIL");
        let mut table = Table::new(seed, Wind::East, rules.clone()).expect("a seed deals");
        let mut steps = 0;
        while table.phase() != TablePhase::Over && steps < 400 {
            steps += 1;
            for decision in table.decisions() {
                for legal in &decision.actions {
                    let id = action_id(legal.action).expect("a seat's action has a number");
                    assert!(id < ACTION_SPACE);
                    assert_eq!(action_of_id(id), Some(legal.action));
                }
            }
            // The choices of this step, from the input; when it runs out, the first legal
            // action of each seat with a decision (so every hand ends).
            let mut choices = Vec::new();
            while let [seat, id, tail @ ..] = rest {
                rest = tail;
                let Some(action) = action_of_id(usize::from(*id) % (ACTION_SPACE + 8)) else {
                    continue;
                };
                choices.push((Seat::ALL[usize::from(*seat & 3)], action));
                if seat & 0x80 != 0 {
                    break;
                }
            }
            if rest.is_empty() && choices.is_empty() {
                choices = table
                    .decisions()
                    .iter()
                    .map(|d| (d.seat, d.actions[0].action))
                    .collect();
            }
            let before = table.record().clone();
            match table.step(&choices) {
                Ok(()) => {
                    assert_ne!(table.record(), &before, "a step taken changes the record");
                    table.state().check_invariants().expect("invariants");
                }
                Err(_) => assert_eq!(table.record(), &before, "a refused step changes nothing"),
            }
        }
        if table.phase() != TablePhase::Over {
            return;
        }
        let result = table.result().expect("a result once over");
        assert!(result.findings.is_empty(), "{:?}", result.findings);
        let log = table.log("fuzz");
        let lines: Vec<&str> = log.lines().collect();
        let read = read_match(&lines).expect("the log reads back");
        assert_eq!(read.record.events, table.record().events);
        let replayed = replay_record(&read.record, &rules.ruleset(), ReplayOptions::default(), Some(&seed))
            .expect("playable");
        assert!(replayed.findings.is_empty(), "{:?}", replayed.findings);
        assert_eq!(replayed.end, result.end);
        assert_eq!(replayed.deltas(), result.deltas());
    }
);
