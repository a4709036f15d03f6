//! Self-play driven by `next` alone: 200 hands dealt from seeds, four random players that
//! know no rule, each choosing only among what `next_actions` offers (with the seed, the draws
//! name their tiles), until the hand is over. Each finished record then replays with its seed
//! without a finding, and ends in a win or a draw game; every phase and every kind of event
//! but flowers (a 136-tile wall has none) is met.

use std::collections::BTreeSet;

use mcr::play::{
    Action, Event, NextOptions, NextPhase, Record, ReplayEnd, ReplayOptions, Seed, Then,
    next_actions, replay_seeded,
};
use mcr::{BySeat, Ruleset};

/// A small deterministic generator (xorshift): the test needs no randomness crate.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        usize::try_from(self.0 % n as u64).expect("below n")
    }
}

/// One choice of what may come next: an event, or the draw game.
enum Choice {
    Event(Event),
    DrawGame,
}

fn seed_of(k: u64) -> Seed {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&k.to_be_bytes());
    bytes[8..16].copy_from_slice(&0x6e65_7874_u64.to_be_bytes());
    Seed::new(bytes)
}

#[test]
fn two_hundred_hands_played_from_next_alone_replay_without_a_finding() {
    let rules = Ruleset::MIL;
    let mut phases = BTreeSet::new();
    let (mut wins, mut draw_games) = (0, 0);
    let mut made = [0usize; 9];
    for k in 0..200u64 {
        let seed = seed_of(k);
        let dealt = seed.deal();
        let mut record = Record {
            deal: BySeat::new_with(|s| {
                dealt.hands[s]
                    .iter()
                    .map(|&t| mcr::play::Drawn::Tile(t))
                    .collect()
            }),
            ..Record::default()
        };
        let options = NextOptions {
            seed: Some(seed),
            ..NextOptions::default()
        };
        let mut rng = Rng(k * 2_654_435_761 + 1);
        loop {
            let next = next_actions(&record, &rules, &options).expect("the seed applies");
            assert!(
                next.violations().is_empty(),
                "hand {k}: {:?}",
                next.violations()
            );
            phases.insert(next.phase.as_str());
            if next.phase == NextPhase::Over {
                break;
            }
            let mut choices: Vec<Choice> = Vec::new();
            let mut wins_offered: Vec<Choice> = Vec::new();
            for decision in &next.decisions {
                for legal in &decision.actions {
                    let choice = Choice::Event(Event::new(decision.seat, legal.action));
                    if matches!(legal.action, Action::Win(_)) {
                        wins_offered.push(choice);
                    } else {
                        choices.push(choice);
                    }
                }
            }
            match next.then {
                Some(Then::Draw(draw)) => {
                    let tile = draw.tile.expect("the seed's wall is known");
                    // Passing is as likely as all the claims together.
                    let weight = if next.phase == NextPhase::Claim {
                        choices.len().max(1)
                    } else {
                        1
                    };
                    for _ in 0..weight {
                        choices.push(Choice::Event(Event::new(draw.seat, Action::Draw(tile))));
                    }
                }
                Some(Then::DrawGame) => choices.push(Choice::DrawGame),
                None => {}
            }
            // A player offered a win takes it, one time in two.
            let pool = if !wins_offered.is_empty() && (choices.is_empty() || rng.below(2) == 0) {
                wins_offered
            } else {
                choices
            };
            assert!(!pool.is_empty(), "hand {k}: nothing may come next");
            let pick = rng.below(pool.len());
            match pool.into_iter().nth(pick).expect("picked") {
                Choice::Event(event) => {
                    made[kind(event.action)] += 1;
                    record.events.push(event);
                }
                Choice::DrawGame => record.draw_game = true,
            }
            assert!(record.events.len() < 400, "hand {k} does not end");
        }
        let r = replay_seeded(&record, &rules, ReplayOptions::default(), &seed).unwrap();
        assert!(r.violations.is_empty(), "hand {k}: {:?}", r.violations);
        match r.end {
            ReplayEnd::Win(_) => wins += 1,
            ReplayEnd::DrawGame => draw_games += 1,
            ReplayEnd::NoResult => panic!("hand {k} has no result"),
        }
    }
    assert_eq!(phases.len(), 4, "{phases:?}");
    assert!(
        wins > 0 && draw_games > 0,
        "{wins} wins, {draw_games} draw games"
    );
    // Every kind of event was played somewhere.
    let kinds: Vec<usize> = (0..9).filter(|&i| i != 1 && made[i] == 0).collect();
    assert!(
        kinds.is_empty(),
        "kinds never played: {kinds:?} of {made:?}"
    );
}

/// The kind of an action, 0–8 in [`Action`]'s order.
const fn kind(action: Action) -> usize {
    match action {
        Action::Draw(_) => 0,
        Action::Flower(_) => 1,
        Action::Discard(_) => 2,
        Action::Chow(_) => 3,
        Action::Pung(_) => 4,
        Action::Kong(_) => 5,
        Action::ConcealedKong(_) => 6,
        Action::AddedKong(_) => 7,
        Action::Win(_) => 8,
    }
}
