//! An analysis of a hand in play, domain → proto: `AnalyzeHand`'s response, and the call
//! analysis of a legal action (`LegalActions`). Each wait's score is a `ScoreHandResponse` in
//! the request's view ([`super::score_sheet`]).

use mcr::analysis::{Analysis, Completed, Discard, Distance, Drawn, Wait, Waiting, WonHand};
use mcr::{Hand, Rules};

use super::house_rules::fingerprint_text;
use super::score_sheet::scored_to_pb;
use super::values::{detail_of, ruleset_to_pb, shape_to_pb, tile_to_pb};
use crate::api::pb;
use crate::assessment;

/// An analysis as proto, its waits' sheets in `view` (the call analysis of a legal action).
pub fn analysis_to_pb(
    analysis: &Analysis,
    rules: Rules,
    view: pb::ScoreView,
) -> pb::AnalyzeHandResponse {
    Writer { rules, view }.response(analysis)
}

/// Writes an analysis as proto.
struct Writer {
    rules: Rules,
    view: pb::ScoreView,
}

impl Writer {
    fn response(&self, analysis: &Analysis) -> pb::AnalyzeHandResponse {
        let ruleset = ruleset_to_pb(self.rules.id()) as i32;
        match analysis {
            Analysis::Waiting(w) => pb::AnalyzeHandResponse {
                state: pb::HandState::Waiting as i32,
                shanten: i32::from(w.distance.shanten),
                shapes: shapes(&w.distance),
                useful: useful(&w.distance),
                waits: self.waits(w),
                ready_to_win: w.ready_to_win,
                complete: None,
                discards: Vec::new(),
                ruleset,
                rules_fingerprint: fingerprint_text(self.rules.fingerprint()),
            },
            Analysis::Drawn(d) => self.drawn(d, ruleset),
        }
    }

    fn drawn(&self, d: &Drawn, ruleset: i32) -> pb::AnalyzeHandResponse {
        let Drawn {
            distance,
            complete,
            discards,
        } = d;
        pb::AnalyzeHandResponse {
            state: pb::HandState::Drawn as i32,
            shanten: i32::from(distance.shanten),
            shapes: shapes(distance),
            useful: Vec::new(),
            waits: Vec::new(),
            ready_to_win: false,
            complete: complete.as_deref().map(|c| {
                let Completed { hand, won } = c;
                self.score(hand, won)
            }),
            discards: discards.iter().map(|row| self.discard(row)).collect(),
            ruleset,
            rules_fingerprint: fingerprint_text(self.rules.fingerprint()),
        }
    }

    fn discard(&self, row: &Discard) -> pb::DiscardOption {
        let Discard {
            tile,
            after,
            scoring_useful,
        } = row;
        pb::DiscardOption {
            tile: tile_to_pb(*tile),
            shanten: i32::from(after.distance.shanten),
            useful: useful(&after.distance),
            useful_count: after.distance.useful_count(),
            waits: self.waits(after),
            winning_count: row.winning_copies(),
            scoring_useful: scoring_useful.iter().map(tile_to_pb).collect(),
        }
    }

    fn waits(&self, w: &Waiting) -> Vec<pb::WaitingTile> {
        w.waits.iter().map(|wait| self.wait(wait)).collect()
    }

    fn wait(&self, wait: &Wait) -> pb::WaitingTile {
        let Wait {
            tile,
            remaining,
            scores,
        } = wait;
        let (on_discard, on_self_drawn) = scores.as_ref().map_or((None, None), |s| {
            (
                Some(self.score(&s.hand, &s.on_discard)),
                Some(self.score(&s.hand, &s.on_self_drawn)),
            )
        });
        let wins = |s: &Option<pb::ScoreHandResponse>| {
            s.as_ref()
                .is_some_and(|r| r.outcome == pb::Outcome::Win as i32)
        };
        pb::WaitingTile {
            tile: tile_to_pb(*tile),
            remaining: u32::from(*remaining),
            dead: scores.is_none(),
            wins_on_discard: wins(&on_discard),
            wins_self_drawn: wins(&on_self_drawn),
            on_discard,
            on_self_drawn,
        }
    }

    /// One won hand as a `ScoreHandResponse` in the request's view.
    fn score(&self, hand: &Hand, won: &WonHand) -> pb::ScoreHandResponse {
        let scored = assessment::scored(
            hand.clone(),
            &won.context,
            &self.rules,
            won.scoring,
            detail_of(self.view),
        );
        scored_to_pb(&scored, self.view)
    }
}

fn shapes(distance: &Distance) -> Vec<pb::ShapeShanten> {
    distance
        .shapes
        .iter()
        .map(|s| pb::ShapeShanten {
            shape: shape_to_pb(s.shape) as i32,
            shanten: i32::from(s.shanten),
            useful: s.useful.iter().map(tile_to_pb).collect(),
        })
        .collect()
}

fn useful(distance: &Distance) -> Vec<pb::UsefulTile> {
    distance
        .useful
        .iter()
        .map(|u| pb::UsefulTile {
            tile: tile_to_pb(u.tile),
            remaining: u32::from(u.remaining),
        })
        .collect()
}
