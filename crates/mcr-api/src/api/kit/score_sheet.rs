//! A hand's assessment as proto: the score sheet's lines, its reading and elements, and the
//! `ScoreHand` and `ValidateHand` responses built from them, for every family that answers
//! with a score (scoring, analysis, accounting). The fast path writes the same responses
//! straight to bytes (`api::scoring::fast::wire`); `tests/wire.rs` keeps the two equal.

use mcr::{Element, FanLine, Hand, Outcome, Reading, Rules, Scoring, WinContext};

use super::house_rules::fingerprint_text;
use super::values::{
    detail_of, element_kind_to_pb, fan_to_pb, outcome_to_pb, ruleset_to_pb, shape_to_pb,
    shown_to_pb, tile_to_pb, violation_to_pb,
};
use crate::api::pb;
use crate::assessment::{self, Assessment, Detail, Scored};

/// A score sheet line as proto.
pub fn fan_line_to_pb(line: &FanLine) -> pb::FanLine {
    let FanLine {
        fan,
        points,
        count,
        elements,
    } = line;
    let spec = fan.spec();
    pb::FanLine {
        fan: fan_to_pb(*fan),
        name_zh: spec.name_zh.to_owned(),
        name_en: spec.name_en.to_owned(),
        name_zh_hant: spec.name_zh_hant.to_owned(),
        points: u32::from(*points),
        count: u32::from(*count),
        total_points: line.total(),
        element_indices: elements
            .iter()
            .map(|i| u32::try_from(i).unwrap_or(u32::MAX))
            .collect(),
    }
}

/// A score sheet line as proto without names or elements ([`pb::ScoreView::Basic`]).
pub(crate) fn fan_line_numbers(line: &FanLine) -> pb::FanLine {
    pb::FanLine {
        fan: fan_to_pb(line.fan),
        name_zh: String::new(),
        name_en: String::new(),
        name_zh_hant: String::new(),
        points: u32::from(line.points),
        count: u32::from(line.count),
        total_points: line.total(),
        element_indices: Vec::new(),
    }
}

/// A reading element as proto.
pub fn element_to_pb(element: &Element) -> pb::ReadingElement {
    let Element {
        kind,
        tiles,
        declared,
        claimed,
    } = element;
    pb::ReadingElement {
        kind: element_kind_to_pb(*kind) as i32,
        tiles: tiles.iter().map(|&t| tile_to_pb(t)).collect(),
        declared: *declared,
        claimed: *claimed,
    }
}

/// A reading as proto.
pub fn reading_to_pb(reading: &Reading) -> pb::Reading {
    pb::Reading {
        shape: shape_to_pb(reading.shape()) as i32,
        elements: reading.elements().iter().map(element_to_pb).collect(),
    }
}

/// A score as a response in `view`.
pub(crate) fn scored_to_pb(s: &Scored, view: pb::ScoreView) -> pb::ScoreHandResponse {
    let scoring = &s.scoring;
    let numbers = pb::ScoreHandResponse {
        outcome: outcome_to_pb(scoring.outcome) as i32,
        fans: Vec::new(),
        fan_total: scoring.fan_total,
        flower_points: scoring.flower_points,
        total: scoring.total,
        violations: Vec::new(),
        reading: None,
        notation: String::new(),
        ruleset: ruleset_to_pb(s.ruleset) as i32,
        rules_fingerprint: fingerprint_text(s.fingerprint),
        glyphs: String::new(),
    };
    match detail_of(view) {
        Detail::Totals => pb::ScoreHandResponse {
            fans: s.lines.iter().map(fan_line_numbers).collect(),
            ..numbers
        },
        Detail::Sheet => pb::ScoreHandResponse {
            fans: s.lines.iter().map(fan_line_to_pb).collect(),
            reading: scoring.reading.as_ref().map(|r| pb::Reading {
                shape: shape_to_pb(r.shape()) as i32,
                elements: s.elements.iter().map(element_to_pb).collect(),
            }),
            notation: s.notation(),
            glyphs: s.glyphs(),
            ..numbers
        },
    }
}

/// A assessment as a `ScoreHand` response in `view`; `ruleset` is reported as is for an
/// invalid input.
pub fn score_response(
    assessment: &Assessment,
    ruleset: i32,
    view: pb::ScoreView,
) -> pb::ScoreHandResponse {
    match assessment {
        Assessment::Invalid(violations) => pb::ScoreHandResponse {
            outcome: pb::Outcome::Invalid as i32,
            violations: violations.iter().map(violation_to_pb).collect(),
            ruleset,
            ..pb::ScoreHandResponse::default()
        },
        Assessment::Scored(s) => scored_to_pb(s, view),
    }
}

/// A assessment as a `ValidateHand` response: the first violations, clipped
/// ([`crate::limits::shown_violations`]).
pub fn validate_response(assessment: &Assessment) -> pb::ValidateHandResponse {
    match assessment {
        Assessment::Invalid(violations) => pb::ValidateHandResponse {
            valid: false,
            violations: crate::limits::shown_violations(violations)
                .map(shown_to_pb)
                .collect(),
            winning_shape: false,
            reaches_minimum: false,
            outcome: pb::Outcome::Invalid as i32,
            rules_fingerprint: String::new(),
        },
        Assessment::Scored(s) => pb::ValidateHandResponse {
            valid: true,
            violations: Vec::new(),
            winning_shape: s.is_winning_shape(),
            reaches_minimum: s.scoring.outcome == Outcome::Win,
            outcome: outcome_to_pb(s.scoring.outcome) as i32,
            rules_fingerprint: fingerprint_text(s.fingerprint),
        },
    }
}

/// The score sheet of a hand the engine validated and scored while settling or deciding:
/// the hand is not scored a second time.
pub fn scored_hand_sheet(
    hand: Hand,
    context: WinContext,
    rules: &Rules,
    scored: Scoring,
) -> pb::ScoreHandResponse {
    let assessment = assessment::assessment_of_scored(hand, &context, rules, scored);
    score_response(
        &assessment,
        ruleset_to_pb(rules.id()) as i32,
        pb::ScoreView::Full,
    )
}
