//! The in-process table ([`mcr::play::Table`]) played by random bots that know no rule:
//! every finished hand's log, read back as Botzone text and replayed with its seed, finds
//! nothing and ends as the table says; every action's number maps back to it; a step that is
//! not legal is refused with the record's own code and leaves the table as it was.

use mcr::house_rules::Rules;
use mcr::play::botzone::read_match;
use mcr::play::{
    ACTION_SPACE, Action, PlayCode, ReplayEnd, ReplayOptions, Seed, Table, TableCode, TablePhase,
    action_id, action_of_id, replay_record,
};
use mcr::{RulesetId, Seat, Tile, Wind};

mod rng_support;
use rng_support::Rng;

fn seed_of(k: u64) -> Seed {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&k.to_be_bytes());
    bytes[8..16].copy_from_slice(&0x0074_6162_6c65_u64.to_be_bytes());
    Seed::new(bytes)
}

fn mil() -> Rules {
    Rules::new(RulesetId::Mil, None).expect("MIL")
}

/// One random decision: a win when offered, else any action (in a claim window, each seat
/// claims half the time).
fn choose(table: &Table, rng: &mut Rng) -> Vec<(Seat, Action)> {
    let mut out = Vec::new();
    for decision in table.decisions() {
        let actions = &decision.actions;
        if let Some(win) = actions.iter().find(|a| matches!(a.action, Action::Win(_))) {
            out.push((decision.seat, win.action));
        } else if table.phase() == TablePhase::Act || rng.below(2) == 0 {
            out.push((decision.seat, actions[rng.below(actions.len())].action));
        }
    }
    out
}

/// A hand played to its end; the number of steps.
fn play(table: &mut Table, rng: &mut Rng) -> usize {
    let mut steps = 0;
    while table.phase() != TablePhase::Over {
        let choice = choose(table, rng);
        table.step(&choice).expect("a legal choice is taken");
        table.state().check_invariants().expect("invariants");
        steps += 1;
        assert!(steps < 1_000, "a hand ends");
    }
    steps
}

#[test]
fn random_tables_give_logs_that_replay_legal_with_the_tables_result() {
    let rules = mil();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut wins, mut draws) = (0, 0);
    for k in 0..1_000 {
        let seed = seed_of(k);
        let mut table = Table::new(seed, Wind::East, rules.clone()).expect("a seed deals");
        play(&mut table, &mut rng);
        let result = table.result().expect("a result once over");
        match &result.end {
            ReplayEnd::Win(_) => wins += 1,
            ReplayEnd::DrawGame => draws += 1,
            ReplayEnd::NoResult => panic!("hand {k} has no result: {:?}", result.findings),
        }
        assert!(
            result.findings.is_empty(),
            "hand {k}: {:?}",
            result.findings
        );

        let log = table.log(&k.to_string());
        let lines: Vec<&str> = log.lines().collect();
        let read = read_match(&lines).expect("the table's log reads back");
        assert_eq!(read.record.events, table.record().events, "hand {k}");
        let replayed = replay_record(
            &read.record,
            &rules.ruleset(),
            ReplayOptions::default(),
            Some(&seed),
        )
        .expect("playable");
        assert!(
            replayed.findings.is_empty(),
            "hand {k}: {:?}",
            replayed.findings
        );
        assert_eq!(replayed.end, result.end, "hand {k}");
        assert_eq!(replayed.deltas(), result.deltas(), "hand {k}");
    }
    assert!(wins > 0 && draws > 0, "{wins} wins, {draws} draw games");
}

#[test]
fn every_action_has_a_number_that_maps_back() {
    let mut mapped = 0;
    for id in 0..ACTION_SPACE {
        let Some(action) = action_of_id(id) else {
            // Only the flower row has numbers without an action (flowers 1–8 of 34 slots).
            assert!(id >= 7 * 34 + 8, "{id}");
            continue;
        };
        assert_eq!(action_id(action), Some(id), "{action:?}");
        mapped += 1;
    }
    assert_eq!(mapped, 7 * 34 + 8);
    assert_eq!(action_of_id(ACTION_SPACE), None);
    assert_eq!(action_id(Action::Discard(Tile::ALL[0])), Some(0));
}

#[test]
fn a_step_that_is_not_legal_is_refused_and_changes_nothing() {
    let mut rng = Rng(7);
    let mut table = Table::new(seed_of(3), Wind::South, mil()).expect("a seed deals");
    assert_eq!(table.phase(), TablePhase::Act);
    let dealer = table.decisions()[0].seat;
    assert_eq!(dealer, Seat::East);
    let before = table.record().clone();

    // A tile the dealer does not hold.
    let held = table.observation(dealer).concealed;
    let absent = *Tile::ALL
        .iter()
        .find(|t| !held.contains(t))
        .expect("a tile not held");
    let error = table
        .step(&[(dealer, Action::Discard(absent))])
        .expect_err("not held");
    assert_eq!(error.code, TableCode::Play(PlayCode::DiscardNotHeld));
    assert_eq!(error.code.as_str(), "DISCARD_NOT_HELD");

    // Another seat acting in the dealer's turn.
    let south_tile = table.observation(Seat::South).concealed[0];
    let error = table
        .step(&[(Seat::South, Action::Discard(south_tile))])
        .expect_err("out of turn");
    assert_eq!(error.code, TableCode::Play(PlayCode::OutOfTurn));

    // Nobody acting when the dealer must.
    let error = table.step(&[]).expect_err("the dealer must act");
    assert_eq!(error.code.as_str(), "VALUE_INVALID");
    assert_eq!(table.record(), &before, "refused steps leave the record");

    // Played to the end, the table takes no more.
    play(&mut table, &mut rng);
    let error = table.step(&[]).expect_err("over");
    assert_eq!(error.code, TableCode::Play(PlayCode::EventAfterEnd));
}

#[test]
fn an_observation_shows_no_tile_the_seat_cannot_see() {
    let mut rng = Rng(11);
    for k in 0..50 {
        let mut table = Table::new(seed_of(100 + k), Wind::East, mil()).expect("deals");
        while table.phase() != TablePhase::Over {
            for seat in Seat::ALL {
                let seen = table.observation(seat);
                let own = &table.state().seats()[seat];
                assert_eq!(seen.concealed, own.concealed_tiles());
                for other in Seat::ALL {
                    let public = &seen.seats[other];
                    let held = usize::from(public.concealed_count);
                    assert_eq!(held, table.state().seats()[other].concealed_len());
                    // Concealed kongs are counted, never shown, in the public part.
                    assert_eq!(
                        public.melds.len() + usize::from(public.concealed_kongs),
                        table.state().seats()[other].melds().len()
                    );
                }
                assert_eq!(seen.legal, table.legal(seat).to_vec());
            }
            let choice = choose(&table, &mut rng);
            table.step(&choice).expect("legal");
        }
    }
}
