//! Self-play against the engine: seeded hands played by choosing only among what
//! [`legal_actions`] offers, several seats' claims settled by [`arbitrate`], on a table model
//! of the test's own (`self_play_support`, not the replay's transition). Each hand is written
//! in Botzone's format and replayed: the replay must find nothing and agree on the winner,
//! the fan and the points. Then an action `legal_actions` does not offer, spliced into such a
//! hand, must be a finding at its line.

mod self_play_support;

use mcr::play::botzone::{read_match, write_match};
use mcr::play::{
    ClaimMade, Offer, Replay, ReplayEnd, ReplayOptions, SeatView, arbitrate, legal_actions, replay,
};
use mcr::{BySeat, Ruleset};
use self_play_support::{Ended, Offered, Referee, Verdict, play};

/// The engine as referee.
struct Engine(Ruleset<'static>);

impl Referee for Engine {
    fn legal(&self, view: &SeatView) -> Vec<Offered> {
        legal_actions(view, &self.0)
            .into_iter()
            .map(|a| Offered {
                action: a.action,
                win: a.win.map(|w| (w.scoring.fan_total, w.scoring.total)),
            })
            .collect()
    }

    fn arbitrate(&self, offer: Offer, claims: &[ClaimMade]) -> Verdict {
        let v = arbitrate(offer, claims, &self.0).expect("claims offered are well formed");
        Verdict {
            stands: v.stands,
            overridden: v.overridden,
            illegal: v.illegal.len(),
        }
    }
}

const HANDS: u64 = 2_000;

/// Every state the replay went through (the deal, then each event) keeps the invariants of
/// play ([`mcr::play::PlayState::check_invariants`]).
fn assert_invariants(r: &Replay, what: &str) {
    for (i, state) in r.snapshots.iter().enumerate() {
        if let Err(e) = state.check_invariants() {
            panic!("{what}: after {i} events: {e}");
        }
    }
}

#[test]
fn hands_played_from_the_legal_actions_replay_without_a_finding() {
    let rules = Ruleset::MIL;
    let engine = Engine(rules);
    let (mut wins, mut draws, mut claims) = (0, 0, 0);
    for seed in 0..HANDS {
        let (table, ended) = play(seed, false, &engine);
        let record = table.record(&ended);
        claims += record
            .events
            .iter()
            .filter(|e| e.action.is_claim_kind())
            .count();
        // Through Botzone's text and back, as a log would travel.
        let text = write_match(&format!("self-{seed}"), &record, None);
        let lines: Vec<&str> = text.lines().collect();
        let m = read_match(&lines).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        let r = replay(&m.record, &rules, ReplayOptions { snapshots: true });
        assert_invariants(&r, &format!("seed {seed}"));
        assert!(
            r.findings.is_empty(),
            "seed {seed}: {:?}\n{text}",
            r.findings
        );
        match ended {
            Ended::Win(seat, fan, scores) => {
                wins += 1;
                let w = r.win().unwrap_or_else(|| panic!("seed {seed}: no win"));
                assert_eq!((w.seat, w.scoring.fan_total), (seat, fan), "seed {seed}");
                assert_eq!(
                    r.deltas().map(BySeat::into_array),
                    Some(scores),
                    "seed {seed}"
                );
            }
            Ended::DrawGame => {
                draws += 1;
                assert_eq!(r.end, ReplayEnd::DrawGame, "seed {seed}");
            }
            Ended::Spliced(_) => unreachable!(),
        }
    }
    // The hands are varied: wins and draw games, and claims are made.
    eprintln!("{wins} wins, {draws} draw games, {claims} claims");
    assert!(
        wins > HANDS / 10 && draws > HANDS / 10,
        "{wins} wins, {draws} draws"
    );
    assert!(claims > usize::try_from(HANDS).unwrap(), "{claims} claims");
}

#[test]
fn an_action_not_offered_is_a_finding_at_its_line() {
    let rules = Ruleset::MIL;
    let engine = Engine(rules);
    let mut spliced = 0;
    for seed in 0..HANDS / 2 {
        let (table, ended) = play(seed, true, &engine);
        let Ended::Spliced(index) = ended else {
            continue;
        };
        spliced += 1;
        let record = table.record(&ended);
        let r = replay(&record, &rules, ReplayOptions { snapshots: true });
        assert_invariants(&r, &format!("seed {seed}, spliced"));
        let first = r.findings.first().unwrap_or_else(|| {
            panic!(
                "seed {seed}: {:?} at event {index} passed",
                record.events[index]
            )
        });
        assert_eq!(
            first.at,
            mcr::play::At::Event(index),
            "seed {seed}: {:?} → {:?}",
            record.events[index],
            r.findings
        );
    }
    assert!(spliced > 500, "{spliced} hands spliced");
}
