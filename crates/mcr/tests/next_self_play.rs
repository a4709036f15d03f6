//! Self-play driven by `next` alone: hands played by four random players that know no rule,
//! each choosing only among what `next_actions` offers, until the hand is over; each finished
//! record then replays without a finding and ends in a win or a draw game.
//!
//! - 200 hands dealt from seeds on the shared 136-tile wall: the draws name their tiles
//!   (`Player p Draw T`), and the record replays with its seed;
//! - 100 hands on a 144-tile wall with flowers that the record carries (so the draws are
//!   known too): flowers dealt and drawn are shown (`BuHua`);
//! - 100 hands under Botzone's per-seat walls, where the players draw from their own walls.
//!
//! Every phase, and every kind of event, is met.

use std::collections::BTreeSet;

use mcr::play::{
    Action, Drawn, Event, Flower, NextOptions, NextPhase, PlayState, Record, Replay, ReplayEnd,
    ReplayOptions, Seed, Then, next_actions, replay, replay_seeded,
};
use mcr::ruleset::{AddedKongTile, WallRule};
use mcr::{BySeat, Ruleset, Seat, Tile};

mod rng_support;
use rng_support::Rng;

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

/// What was met over the hands played.
#[derive(Default)]
struct Met {
    phases: BTreeSet<&'static str>,
    kinds: [usize; 9],
    wins: usize,
    draw_games: usize,
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

/// Plays `record` (dealt, no event yet) to its end choosing among what `next_actions`
/// offers; a draw whose tile `next` does not know comes from `own_wall` (given the seat and
/// how many times it has drawn).
fn play(
    record: &mut Record,
    rules: &Ruleset,
    options: &NextOptions,
    rng: &mut Rng,
    own_wall: impl Fn(Seat, usize) -> Drawn,
    met: &mut Met,
    hand: &str,
) {
    loop {
        let next = next_actions(record, rules, options).expect("the seed applies");
        assert!(next.findings().is_empty(), "{hand}: {:?}", next.findings());
        if let Some(Err(e)) = next.state.as_ref().map(PlayState::check_invariants) {
            panic!("{hand}: after {} events: {e}", record.events.len());
        }
        met.phases.insert(next.phase.as_str());
        if next.phase == NextPhase::Over {
            return;
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
                let tile = draw.tile.unwrap_or_else(|| {
                    let drawn = record
                        .events
                        .iter()
                        .filter(|e| e.seat == draw.seat && matches!(e.action, Action::Draw(_)))
                        .count();
                    own_wall(draw.seat, drawn)
                });
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
        assert!(!pool.is_empty(), "{hand}: nothing may come next");
        let pick = rng.below(pool.len());
        match pool.into_iter().nth(pick).expect("picked") {
            Choice::Event(event) => {
                met.kinds[kind(event.action)] += 1;
                record.events.push(event);
            }
            Choice::DrawGame => record.draw_game = true,
        }
        assert!(record.events.len() < 400, "{hand} does not end");
    }
}

/// Every state the replay went through (the deal, then each event) keeps the invariants of
/// play ([`mcr::play::PlayState::check_invariants`]).
fn assert_invariants(r: &Replay, what: &str) {
    for (i, state) in r.snapshots.iter().enumerate() {
        if let Err(e) = state.check_invariants() {
            panic!("{what}: after {i} events: {e}");
        }
    }
}

fn ended(end: &ReplayEnd, met: &mut Met, hand: &str) {
    match end {
        ReplayEnd::Win(_) => met.wins += 1,
        ReplayEnd::DrawGame => met.draw_games += 1,
        ReplayEnd::NoResult => panic!("{hand} has no result"),
    }
}

fn never_met(met: &Met, but: &[usize]) -> Vec<usize> {
    (0..9)
        .filter(|i| !but.contains(i) && met.kinds[*i] == 0)
        .collect()
}

#[test]
fn two_hundred_seeded_hands_played_from_next_alone_replay_with_their_seed() {
    let rules = Ruleset::MIL;
    let mut met = Met::default();
    for k in 0..200u64 {
        let seed = seed_of(k);
        let dealt = seed.deal();
        let mut record = Record {
            deal: BySeat::new_with(|s| dealt.hands[s].iter().map(|&t| Drawn::Tile(t)).collect()),
            ..Record::default()
        };
        let options = NextOptions {
            seed: Some(seed),
            ..NextOptions::default()
        };
        let hand = format!("seeded hand {k}");
        let mut rng = Rng(k * 2_654_435_761 + 1);
        let unknown = |_, _| panic!("the seed's wall is known");
        play(
            &mut record,
            &rules,
            &options,
            &mut rng,
            unknown,
            &mut met,
            &hand,
        );
        let r = replay_seeded(&record, &rules, ReplayOptions { snapshots: true }, &seed).unwrap();
        assert_invariants(&r, &hand);
        assert!(r.findings.is_empty(), "{hand}: {:?}", r.findings);
        ended(&r.end, &mut met, &hand);
    }
    assert_eq!(met.phases.len(), 4, "{:?}", met.phases);
    assert!(met.wins > 0 && met.draw_games > 0);
    // A 136-tile wall has no flowers.
    assert_eq!(never_met(&met, &[1]), [0; 0], "{:?}", met.kinds);
}

/// 136 tiles and the 8 flowers shuffled: the deal, and the wall the record carries.
fn deal_144(rng: &mut Rng) -> (BySeat<Vec<Drawn>>, Vec<Drawn>) {
    let mut all: Vec<Drawn> = (0..136).map(|k| Drawn::Tile(Tile::ALL[k / 4])).collect();
    all.extend((1..=8).filter_map(Flower::new).map(Drawn::Flower));
    rng.shuffle(&mut all);
    let deal = BySeat::new_with(|s| all[13 * s.index()..13 * s.index() + 13].to_vec());
    (deal, all[52..].to_vec())
}

#[test]
fn hands_with_flowers_played_from_next_alone() {
    let mut rules = Ruleset::MIL;
    rules.play.wall = WallRule::Shared144;
    let mut met = Met::default();
    for k in 0..100u64 {
        let mut rng = Rng(k * 7_919 + 3);
        let (deal, wall) = deal_144(&mut rng);
        let mut record = Record {
            deal,
            wall: Some(wall),
            ..Record::default()
        };
        let hand = format!("144-tile hand {k}");
        let unknown = |_, _| panic!("the record's wall is known");
        let options = NextOptions::default();
        play(
            &mut record,
            &rules,
            &options,
            &mut rng,
            unknown,
            &mut met,
            &hand,
        );
        let r = replay(&record, &rules, ReplayOptions { snapshots: true });
        assert_invariants(&r, &hand);
        assert!(r.findings.is_empty(), "{hand}: {:?}", r.findings);
        ended(&r.end, &mut met, &hand);
    }
    assert!(met.kinds[1] > 100, "flowers shown: {}", met.kinds[1]);
    assert_eq!(met.phases.len(), 4, "{:?}", met.phases);
}

#[test]
fn hands_under_botzone_walls_played_from_next_alone() {
    let mut rules = Ruleset::MIL;
    rules.play.wall = WallRule::Botzone;
    rules.play.added_kong_tile = AddedKongTile::AnyHeld;
    let mut met = Met::default();
    for k in 0..100u64 {
        let mut rng = Rng(k * 104_729 + 5);
        let mut tiles: Vec<Tile> = (0..136).map(|k| Tile::ALL[k / 4]).collect();
        rng.shuffle(&mut tiles);
        let mut record = Record {
            deal: BySeat::new_with(|s| {
                let start = 34 * s.index();
                tiles[start..start + 13]
                    .iter()
                    .map(|&t| Drawn::Tile(t))
                    .collect()
            }),
            ..Record::default()
        };
        // Each seat draws from its own 21 tiles.
        let own = |seat: Seat, drawn: usize| Drawn::Tile(tiles[34 * seat.index() + 13 + drawn]);
        let hand = format!("Botzone hand {k}");
        let options = NextOptions::default();
        play(
            &mut record,
            &rules,
            &options,
            &mut rng,
            own,
            &mut met,
            &hand,
        );
        let r = replay(&record, &rules, ReplayOptions { snapshots: true });
        assert_invariants(&r, &hand);
        assert!(r.findings.is_empty(), "{hand}: {:?}", r.findings);
        ended(&r.end, &mut met, &hand);
    }
    assert_eq!(met.phases.len(), 4, "{:?}", met.phases);
    assert!(met.draw_games > 0);
}
