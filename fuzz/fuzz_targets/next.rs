//! What may come next (`mcr::play::next_actions`) on hand records cut at random. The first
//! byte chooses the wall (and whether a seed is given), the second where each record is cut
//! (a fraction of its events); the rest is Botzone's text. Nothing panics, and:
//!
//! - a record that merely stops is no finding (`HAND_NOT_ENDED` never appears);
//! - the hand is `over` exactly when the replay stopped or ended; otherwise no finding stops it;
//! - no line is offered twice, and the `over` phase offers none;
//! - every action offered, appended to the record, is taken without a new finding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcr::Ruleset;
use mcr::play::botzone::{next_lines, read_matches};
use mcr::play::{
    Action, Consequence, Event, NextActions, NextDraw, NextOptions, NextPhase, PlayCode, Record,
    Seed, Then, Unplayable, next_actions,
};
use mcr::ruleset::{AddedKongTile, WallRule};

fuzz_target!(
    init: {
        mcr::shape::warm_up();
    },
    |data: &[u8]| {
        let [selector, cut, bytes @ ..] = data else {
            return;
        };
        let Ok(text) = std::str::from_utf8(bytes) else {
            return;
        };
        let wall = match selector % 3 {
            0 => WallRule::Shared136,
            1 => WallRule::Shared144,
            _ => WallRule::Botzone,
        };
        let mut rules = Ruleset::MIL;
        rules.play.wall = wall;
        rules.play.added_kong_tile = match wall {
            WallRule::Botzone => AddedKongTile::AnyHeld,
            WallRule::Shared136 | WallRule::Shared144 => AddedKongTile::JustDrawn,
        };
        let options = NextOptions {
            call_analysis: false,
            // A seed from the text's first 32 bytes, when there are that many.
            seed: (selector & 0x80 != 0)
                .then(|| bytes.get(..32)?.try_into().ok().map(Seed::new))
                .flatten(),
        };
        for (_, read) in read_matches(text) {
            let Ok(m) = read else {
                continue;
            };
            let mut record = m.record;
            // What the record states of its result is the replay's business, not next's.
            record.stated = mcr::play::Stated::default();
            let keep = record.events.len() * usize::from(*cut) / 255;
            if keep < record.events.len() {
                record.events.truncate(keep);
                record.draw_game = false;
            }
            check(&record, &rules, &options);
        }
    }
);

fn check(record: &Record, rules: &Ruleset, options: &NextOptions) {
    let next = match next_actions(record, rules, options) {
        Ok(next) => next,
        // A seed refused for this wall: only a seed does that.
        Err(Unplayable::Seed(_)) => {
            assert!(options.seed.is_some());
            return;
        }
        // A deal that cannot be played: at least one of its findings is not merely a deal
        // other than the seed's (that alone is a finding of a hand that is over).
        Err(Unplayable::Deal(found)) => {
            assert!(
                found.iter().any(|f| f.code != PlayCode::DealNotFromSeed),
                "{found:?}"
            );
            return;
        }
    };
    assert_properties(&next);
    if next.phase == NextPhase::Over {
        return;
    }
    for decision in &next.decisions {
        for legal in &decision.actions {
            let mut longer = record.clone();
            longer.events.push(Event::new(decision.seat, legal.action));
            let after = next_actions(&longer, rules, options).expect("the seed applied before");
            assert_eq!(
                after.findings(),
                next.findings(),
                "{:?} by {} was offered",
                legal.action,
                decision.seat
            );
        }
    }
    // What follows when no seat acts: the draw (when its tile is known), or the draw game.
    match next.then {
        Some(Then::Draw(NextDraw {
            seat,
            tile: Some(tile),
            ..
        })) => {
            let mut longer = record.clone();
            longer.events.push(Event::new(seat, Action::Draw(tile)));
            let after = next_actions(&longer, rules, options).expect("the seed applied before");
            assert_eq!(after.findings(), next.findings(), "the draw of {tile:?}");
        }
        Some(Then::DrawGame) => {
            let mut ended = record.clone();
            ended.draw_game = true;
            let after = next_actions(&ended, rules, options).expect("the seed applied before");
            assert_eq!(after.findings(), next.findings(), "the draw game");
            assert_eq!(after.phase, NextPhase::Over);
        }
        Some(Then::Draw(_)) | None => {}
    }
}

fn assert_properties(next: &NextActions) {
    let v = next.findings();
    assert!(v.iter().all(|v| v.code != PlayCode::HandNotEnded), "{v:?}");
    let stopped = v.iter().any(|v| v.consequence() == Consequence::Stops);
    if stopped {
        assert_eq!(next.phase, NextPhase::Over, "{v:?}");
    }
    let lines = next_lines(next);
    if next.phase == NextPhase::Over {
        assert!(lines.is_empty(), "{lines:?}");
    }
    let mut sorted = lines.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), lines.len(), "{lines:?}");
}
