//! `AdjudicatePenalty`: offences ruled, or a declared win decided.

use super::maxima::offences_over_limits;
use super::offence::offences_from_pb;
use super::winning_hand::winning_hand_from_pb;
use crate::api::kit::accounts::accounts_to_pb;
use crate::api::kit::house_rules::fingerprint_text;
use crate::api::kit::house_rules::{KeptRules, rules_of};
use crate::api::kit::ruling::ruling_to_pb;
use crate::api::kit::score_sheet::scored_hand_sheet;
use crate::api::kit::values::{optional_seat, required_seat, ruleset_to_pb, to_i32, verdict_to_pb};
use crate::api::kit::violations::{Violations, renumbered};
use mcr::settlement::{Declaration, Payments, WinSource};
use mcr::violation::FieldPath;
use mcr::{Rules, Ruleset, Violation, ViolationCode};

use crate::api::kit::path;
use crate::api::pb;

/// The explicit occurrence of a single offence; 0 is `None` (count from the list).
pub(crate) fn occurrence_from_pb(
    occurrence: i32,
    offences: usize,
    v: &mut Violations,
) -> Option<u32> {
    match u32::try_from(occurrence) {
        Err(_) => {
            v.push(
                ViolationCode::ValueNegative,
                FieldPath::of("occurrence"),
                format!(
                    "the occurrence must be 1 or more (0 to count from the list), found {occurrence}"
                ),
            );
            None
        }
        Ok(0) => None,
        Ok(n) => {
            if offences != 1 {
                v.push(
                    ViolationCode::ValueInvalid,
                    FieldPath::of("occurrence"),
                    format!("an occurrence goes with exactly one offence, found {offences}"),
                );
            }
            Some(n)
        }
    }
}

/// Rules offences or judges a declared win: the `AdjudicatePenalty` call. Every violation
/// of the request is reported.
pub fn adjudicate_penalty(
    request: &pb::AdjudicatePenaltyRequest,
    kept: &KeptRules,
) -> Result<pb::AdjudicatePenaltyResponse, Vec<Violation>> {
    let pb::AdjudicatePenaltyRequest {
        offences,
        occurrence,
        declared_win,
        ruleset,
        overrides,
    } = request;
    let over = offences_over_limits(offences, "offences");
    if !over.is_empty() {
        return Err(over);
    }
    let mut v = Violations::default();
    let applied = rules_of(*ruleset, overrides.as_ref(), kept, &mut v);
    let rules = &applied.ruleset();
    match (offences.is_empty(), declared_win) {
        (true, None) => v.push(
            ViolationCode::ValueInvalid,
            FieldPath::of("offences"),
            "give the offences to rule or the declared win to judge",
        ),
        (false, Some(_)) => v.push(
            ViolationCode::ContextConflict,
            FieldPath::of("declared_win"),
            "give the offences to rule or the declared win to judge, not both",
        ),
        (true, Some(_)) | (false, None) => {}
    }
    let occurrence = occurrence_from_pb(*occurrence, offences.len(), &mut v);
    let (converted, index) = offences_from_pb(offences, "offences", rules, &mut v);
    let mut rulings = match (occurrence, converted.as_slice()) {
        (Some(n), [one]) => mcr::penalty::rule(one, n, rules).map(|r| vec![r]),
        _ => mcr::penalty::adjudicate(&converted, rules),
    }
    .map_err(|errors| {
        v.extend(errors.into_iter().map(|e| {
            path::renamed_violation(e, |p| renumbered(path::adjudication(p), "offences", &index))
        }));
    })
    .unwrap_or_default();

    let decided = declared_win
        .as_ref()
        .and_then(|d| decide_declared_win(d, &applied, rules, &mut v));
    if !v.is_empty() {
        return Err(v.into_vec());
    }
    let (judgement, payments) = if let Some((decision, judgement)) = decided {
        rulings.extend(decision.ruling.iter().cloned());
        (Some(judgement), decision.payments)
    } else {
        let mut payments = Payments::default();
        for r in &rulings {
            r.add_payments(&mut payments);
        }
        (None, payments)
    };
    Ok(pb::AdjudicatePenaltyResponse {
        rulings: rulings.iter().map(ruling_to_pb).collect(),
        judgement,
        accounts: accounts_to_pb(&payments),
        unpaid_penalties: to_i32(payments.unpaid_penalties()),
        ruleset: ruleset_to_pb(applied.id()) as i32,
        rules_fingerprint: fingerprint_text(applied.fingerprint()),
    })
}

/// Judges a declared win at `declared_win`, recording every violation.
pub(crate) fn decide_declared_win(
    d: &pb::DeclaredWin,
    applied: &Rules,
    rules: &Ruleset,
    v: &mut Violations,
) -> Option<(mcr::adjudication::WinDecision, pb::WinJudgement)> {
    let pb::DeclaredWin {
        declarer,
        source,
        discarder,
        winning_hand,
    } = d;
    let at = FieldPath::of("declared_win");
    let declarer = v.take(required_seat(*declarer, at.field("declarer")));
    let discarder_given = *discarder != pb::Seat::Unspecified as i32;
    let discarder = v
        .take(optional_seat(*discarder, at.field("discarder")))
        .flatten();
    let source = match pb::WinSource::try_from(*source) {
        Ok(pb::WinSource::SelfDrawn) => {
            if discarder_given {
                v.push(
                    ViolationCode::ContextConflict,
                    at.field("discarder"),
                    "a self-drawn tile has no discarder",
                );
            }
            Some(WinSource::SelfDrawn)
        }
        Ok(s @ (pb::WinSource::Discard | pb::WinSource::RobbingKong)) => {
            if !discarder_given {
                v.push(
                    ViolationCode::SeatInvalid,
                    at.field("discarder"),
                    "a tile from another player needs that player (SEAT_UNSPECIFIED given)",
                );
            }
            discarder.map(|d| {
                if s == pb::WinSource::Discard {
                    WinSource::Discard { discarder: d }
                } else {
                    WinSource::RobbingKong { robbed: d }
                }
            })
        }
        Ok(pb::WinSource::Unspecified) => {
            v.push(
                ViolationCode::ValueInvalid,
                at.field("source"),
                "where the declared tile came from is required (WIN_SOURCE_UNSPECIFIED given)",
            );
            None
        }
        Err(_) => {
            v.push(
                ViolationCode::ValueInvalid,
                at.field("source"),
                format!("{source} is not a win source (expected WIN_SOURCE_SELF_DRAWN..WIN_SOURCE_ROBBING_KONG)"),
            );
            None
        }
    };
    let hand = match winning_hand {
        None => {
            v.push(
                ViolationCode::ValueInvalid,
                at.field("winning_hand"),
                "the declared hand is required",
            );
            None
        }
        Some(w) => winning_hand_from_pb(w, at.field("winning_hand"), declarer, source, v),
    };
    let (Some(declarer), Some(source), Some(hand)) = (declarer, source, hand) else {
        return None;
    };
    let declaration = Declaration { declarer, source };
    match mcr::decide_declared_win(&declaration, &hand.hand, &hand.context, rules) {
        Err(errors) => {
            v.extend(
                errors
                    .into_iter()
                    .map(|e| path::renamed_violation(e, path::declared_win)),
            );
            None
        }
        Ok(j) => {
            let judgement = pb::WinJudgement {
                verdict: verdict_to_pb(j.verdict) as i32,
                shanten: i32::from(j.distance),
                score_sheet: Some(scored_hand_sheet(
                    j.hand.clone(),
                    hand.context,
                    applied,
                    j.scoring,
                )),
            };
            Some((j, judgement))
        }
    }
}
