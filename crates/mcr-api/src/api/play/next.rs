//! `NextActions`: a hand's record so far → the phase, each seat's legal actions, the next
//! draw, the verdict so far; the log is the only state (`mcr::play::next`).

use mcr::Violation;
use mcr::play::botzone::next_lines;
use mcr::play::{DrawKind, Drawn, NextActions, NextDraw, NextOptions, Then, next_actions};

use super::actions::option_to_pb;
use super::replay::{RecordIn, read_record, response, unplayable_violations};
use crate::api::kit::house_rules::KeptRules;
use crate::api::kit::values::{next_phase_to_pb, seat_to_pb, tile_to_pb};
use crate::api::kit::violations::Violations;
use crate::api::pb;

/// `NextActions`: what may come next, or every problem that keeps the record from being
/// read (as for `ReplayHand`: a deal that cannot be played among them). The record is
/// replayed even when the request has other problems, so that those of its deal are
/// reported with them.
pub fn next_actions_of(
    request: &pb::NextActionsRequest,
    kept: &KeptRules,
) -> Result<pb::NextActionsResponse, Vec<Violation>> {
    let pb::NextActionsRequest {
        record,
        ruleset,
        overrides,
        seed,
        call_analysis,
    } = request;
    let mut v = Violations::default();
    let record = record.as_ref().map(|r| match r {
        pb::next_actions_request::Record::Structured(r) => RecordIn::Structured(r),
        pb::next_actions_request::Record::BotzoneText(text) => RecordIn::Botzone(text),
    });
    let read = read_record(record, *ruleset, overrides.as_ref(), seed, kept, &mut v);
    let Some(record) = read.record() else {
        return Err(v.into_vec());
    };
    let options = NextOptions {
        call_analysis: *call_analysis,
        seed: read.seed,
    };
    let next = match next_actions(record, &read.rules.ruleset(), &options) {
        Ok(next) => next,
        Err(unplayable) => {
            unplayable_violations(unplayable, read.botzone.as_ref(), &mut v);
            return Err(v.into_vec());
        }
    };
    v.or_value(())?;
    Ok(next_to_pb(&next, &read))
}

fn next_to_pb(next: &NextActions, read: &super::replay::ReadRecord) -> pb::NextActionsResponse {
    pb::NextActionsResponse {
        phase: next_phase_to_pb(next.phase) as i32,
        decisions: next
            .decisions
            .iter()
            .map(|d| pb::SeatDecision {
                seat: seat_to_pb(d.seat) as i32,
                actions: d
                    .actions
                    .iter()
                    .map(|a| option_to_pb(a, &read.rules))
                    .collect(),
            })
            .collect(),
        next_draw: next.then.map(then_to_pb),
        replay: Some(response(&next.replay, read.botzone.as_ref(), &read.rules)),
        next_lines: next_lines(next),
    }
}

fn then_to_pb(then: Then) -> pb::NextDraw {
    match then {
        Then::DrawGame => pb::NextDraw {
            draw_game: true,
            ..pb::NextDraw::default()
        },
        Then::Draw(NextDraw { seat, kind, tile }) => {
            let (tile, flower) = match tile {
                None => (pb::Tile::Unspecified as i32, 0),
                Some(Drawn::Tile(t)) => (tile_to_pb(t), 0),
                Some(Drawn::Flower(f)) => (pb::Tile::Unspecified as i32, u32::from(f.number())),
            };
            pb::NextDraw {
                draw_game: false,
                seat: seat_to_pb(seat) as i32,
                replacement: match kind {
                    DrawKind::Normal => false,
                    DrawKind::AfterKong | DrawKind::AfterFlower | DrawKind::DealtFlower => true,
                },
                tile,
                flower,
            }
        }
    }
}
