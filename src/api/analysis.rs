//! The analysis family of the contract (`analysis.proto`): `AnalyzeHand`, from its request
//! to its response.
//!
//! The request is converted into an [`AnalysisQuery`] (its hand as a scoring request's is,
//! `super::query::convert_hand`) and checked as a hand in play ([`mcr::analysis::InPlay`]),
//! then analysed by [`mcr::analysis::analyze`]; each wait's score is written as a
//! `ScoreHandResponse` in the request's view (the basic one by default) by
//! [`super::score_sheet`].

use mcr::analysis::{
    Analysis, Completed, Discard, Distance, Drawn, InPlay, Wait, Waiting, WonHand, analyze,
};
use mcr::violation::FieldPath;
use mcr::{Hand, Rules, Tile, Violation, ViolationCode, WinContext};

use super::house_rules::{fingerprint_text, rules_from_pb};

use super::hand::{Artefacts, HandSource};
use super::path;
use super::pb;
use super::query::convert_hand;
use super::score_sheet::scored_to_pb;
use super::values::{
    detail_of, ruleset_to_pb, shape_to_pb, tile_or_violation, tile_to_pb, view_from_pb,
    wind_from_pb,
};
use crate::assessment;

/// Handles an `AnalyzeHand` request: the analysis, or every violation found in it.
/// Never panics, whatever the request holds.
pub fn analyze_hand(
    request: &pb::AnalyzeHandRequest,
) -> Result<pb::AnalyzeHandResponse, Vec<Violation>> {
    let AnalysisQuery {
        hand,
        context,
        rules,
        view,
    } = AnalysisQuery::try_from(request)?;
    let analysis = analyze(&hand, &context, &rules.ruleset());
    Ok(Writer { rules, view }.response(&analysis))
}

/// An `AnalyzeHand` request converted: the hand in play, its winds and flowers, the rules
/// and the view its waits are scored in.
#[derive(Debug)]
pub struct AnalysisQuery {
    /// The hand, checked as a hand in play.
    pub hand: InPlay,
    /// The winds and flowers (a win's circumstances are the analysis's to vary).
    pub context: WinContext,
    /// The rules in effect.
    pub rules: Rules,
    /// The view of every wait's score (the basic one when not given).
    pub view: pb::ScoreView,
}

impl TryFrom<&pb::AnalyzeHandRequest> for AnalysisQuery {
    type Error = Vec<Violation>;

    /// Converts the request, collecting every violation: the conversion's, then the
    /// domain's (the hand as a hand in play, paths as in the request).
    fn try_from(request: &pb::AnalyzeHandRequest) -> Result<Self, Vec<Violation>> {
        let pb::AnalyzeHandRequest {
            hand_input,
            context,
            ruleset,
            visible_tiles,
            view,
            overrides,
        } = request;
        if let Some(v) = path::too_many(
            FieldPath::of("visible_tiles"),
            visible_tiles.len(),
            crate::limits::MAX_VISIBLE_TILES,
        ) {
            return Err(vec![v]);
        }
        let mut violations = Vec::new();
        let mut artefacts = Artefacts::default();
        let input = convert_hand(
            hand_input.as_ref().map(HandSource::from),
            &mut violations,
            &mut artefacts,
        );
        let context = analysis_context(context.as_ref(), &mut violations);
        let rules = rules_from_pb(*ruleset, overrides.as_ref(), FieldPath::of("overrides"))
            .map_err(|v| violations.extend(v))
            .ok();
        // A view not given is the basic one here: an analysis scores many hands.
        let view = if *view == pb::ScoreView::Unspecified as i32 {
            pb::ScoreView::Basic
        } else {
            view_from_pb(*view, FieldPath::of("view")).unwrap_or_else(|v| {
                violations.push(v);
                pb::ScoreView::Basic
            })
        };
        let visible: Vec<Tile> = visible_tiles
            .iter()
            .enumerate()
            .filter_map(|(i, &t)| {
                tile_or_violation(t, FieldPath::of("visible_tiles").index(i))
                    .map_err(|v| violations.push(v))
                    .ok()
            })
            .collect();
        let Some(input) = input else {
            return Err(violations);
        };
        let hand = match InPlay::new(&input, &visible) {
            Ok(hand) => hand,
            Err(domain) => {
                violations.extend(
                    domain
                        .into_iter()
                        .filter(|v| !artefacts.cover(v))
                        .map(path::hand_violation),
                );
                return Err(violations);
            }
        };
        match rules {
            Some(rules) if violations.is_empty() => Ok(AnalysisQuery {
                hand,
                context,
                rules,
                view,
            }),
            Some(_) | None => Err(violations),
        }
    }
}

/// The winds and flowers of the request (East/East and none when absent).
fn analysis_context(
    context: Option<&pb::AnalysisContext>,
    violations: &mut Vec<Violation>,
) -> WinContext {
    let Some(&pb::AnalysisContext {
        seat_wind,
        prevalent_wind,
        flower_count,
    }) = context
    else {
        return WinContext::default();
    };
    let mut wind = |number, field| {
        wind_from_pb(number, FieldPath::of("context").field(field)).unwrap_or_else(|v| {
            violations.push(v);
            mcr::Wind::East
        })
    };
    let seat_wind = wind(seat_wind, "seat_wind");
    let prevalent_wind = wind(prevalent_wind, "prevalent_wind");
    if flower_count > 8 {
        violations.push(Violation::new(
            ViolationCode::FlowerCount,
            FieldPath::of("context").field("flower_count"),
            "there are only 8 flowers".to_owned(),
        ));
    }
    WinContext {
        seat_wind,
        prevalent_wind,
        flowers: u8::try_from(flower_count.min(8)).unwrap_or(8),
        ..WinContext::default()
    }
}

/// An analysis as proto, its waits' sheets in `view` (the call analysis of a legal action).
pub(crate) fn analysis_to_pb(
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
