//! The analysis family of the contract (`analysis.proto`): `AnalyzeHand`, from its request
//! to its response.
//!
//! The request is converted into an [`AnalysisQuery`] (its hand as a scoring request's is,
//! `crate::api::kit::query::convert_hand`) and checked as a hand in play ([`mcr::analysis::InPlay`]),
//! then analysed by [`mcr::analysis::analyze`]; each wait's score is written as a
//! `ScoreHandResponse` in the request's view (the basic one by default) by
//! [`crate::api::kit::in_play`].

use mcr::analysis::{InPlay, analyze};
use mcr::violation::FieldPath;
use mcr::{Rules, Tile, Violation, ViolationCode, WinContext};

use crate::api::kit::hand::{Artefacts, HandSource};
use crate::api::kit::house_rules::{KeptRules, rules_from_pb};
use crate::api::kit::in_play::analysis_to_pb;
use crate::api::kit::path;
use crate::api::kit::query::convert_hand;
use crate::api::kit::values::{tile_or_violation, view_from_pb, wind_from_pb};
use crate::api::kit::violations::Violations;
use crate::api::pb;

/// Handles an `AnalyzeHand` request: the analysis, or every violation found in it.
/// Never panics, whatever the request holds.
pub fn analyze_hand(
    request: &pb::AnalyzeHandRequest,
    kept: &KeptRules,
) -> Result<pb::AnalyzeHandResponse, Vec<Violation>> {
    let AnalysisQuery {
        hand,
        context,
        rules,
        view,
    } = AnalysisQuery::new(request, kept)?;
    let analysis = analyze(&hand, &context, &rules.ruleset());
    Ok(analysis_to_pb(&analysis, rules, view))
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

impl AnalysisQuery {
    /// Converts the request, collecting every violation: the conversion's, then the
    /// domain's (the hand as a hand in play, paths as in the request). House rules are
    /// built, or found in `kept`.
    ///
    /// # Errors
    /// Every violation found.
    pub fn new(request: &pb::AnalyzeHandRequest, kept: &KeptRules) -> Result<Self, Vec<Violation>> {
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
        let mut violations = Violations::default();
        let mut artefacts = Artefacts::default();
        let input = convert_hand(
            hand_input.as_ref().map(HandSource::from),
            &mut violations,
            &mut artefacts,
        );
        let context = analysis_context(context.as_ref(), &mut violations);
        let rules = violations.take_all(rules_from_pb(
            *ruleset,
            overrides.as_ref(),
            FieldPath::of("overrides"),
            kept,
        ));
        // A view not given is the basic one here: an analysis scores many hands.
        let view = if *view == pb::ScoreView::Unspecified as i32 {
            pb::ScoreView::Basic
        } else {
            view_from_pb(*view, FieldPath::of("view")).unwrap_or_else(|v| {
                violations.add(v);
                pb::ScoreView::Basic
            })
        };
        let visible: Vec<Tile> = visible_tiles
            .iter()
            .enumerate()
            .filter_map(|(i, &t)| {
                tile_or_violation(t, FieldPath::of("visible_tiles").index(i))
                    .map_err(|v| violations.add(v))
                    .ok()
            })
            .collect();
        let Some(input) = input else {
            return Err(violations.into_vec());
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
                return Err(violations.into_vec());
            }
        };
        match rules {
            Some(rules) => violations.or_value(AnalysisQuery {
                hand,
                context,
                rules,
                view,
            }),
            None => Err(violations.into_vec()),
        }
    }
}

/// The winds and flowers of the request (East/East and none when absent).
fn analysis_context(
    context: Option<&pb::AnalysisContext>,
    violations: &mut Violations,
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
            violations.add(v);
            mcr::Wind::East
        })
    };
    let seat_wind = wind(seat_wind, "seat_wind");
    let prevalent_wind = wind(prevalent_wind, "prevalent_wind");
    if flower_count > 8 {
        violations.push(
            ViolationCode::FlowerCount,
            FieldPath::of("context").field("flower_count"),
            "there are only 8 flowers",
        );
    }
    WinContext {
        seat_wind,
        prevalent_wind,
        flowers: u8::try_from(flower_count.min(8)).unwrap_or(8),
        ..WinContext::default()
    }
}
