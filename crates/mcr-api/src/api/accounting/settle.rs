//! `SettleHand`: the end of a hand, its value and its offences, settled.

use super::maxima::offences_over_limits;
use super::offence::offences_from_pb;
use super::winning_hand::{WinningHand, winning_hand_from_pb};
use crate::api::kit::accounts::{accounts_to_pb, claim_resolution_to_pb, hand_result_to_pb};
use crate::api::kit::house_rules::fingerprint_text;
use crate::api::kit::house_rules::{KeptRules, rules_of};
use crate::api::kit::ruling::ruling_to_pb;
use crate::api::kit::score_sheet::scored_hand_sheet;
use crate::api::kit::values::{optional_seat, required_seat, ruleset_to_pb, to_i32};
use crate::api::kit::violations::{Violations, renumbered};
use mcr::adjudication::ClaimResolution;
use mcr::settlement::{Declaration, HandEnd, HandRecord, WinSource, WinValue};
use mcr::violation::FieldPath;
use mcr::{Seat, Violation, ViolationCode};

use crate::api::kit::path;
use crate::api::pb;

/// How a hand ended, as far as it converted.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ending {
    /// The end as given; `None` when unspecified or unknown (already reported).
    pub(crate) end: Option<pb::HandEnd>,
    /// The hand ended with a declaration of 和.
    pub(crate) is_win: bool,
    /// Where the winning tile came from; `None` for a draw game or when unknown.
    pub(crate) source: Option<WinSource>,
}

/// Converts how the hand ended, with the winner and discarder fields that go with it.
pub(crate) fn ending_from_pb(end: i32, winner: i32, discarder: i32, v: &mut Violations) -> Ending {
    let end = match pb::HandEnd::try_from(end) {
        Ok(pb::HandEnd::Unspecified) => {
            v.push(
                ViolationCode::ValueInvalid,
                FieldPath::of("end"),
                "how the hand ended is required (HAND_END_UNSPECIFIED given)",
            );
            None
        }
        Ok(e) => Some(e),
        Err(_) => {
            v.push(
                ViolationCode::ValueInvalid,
                FieldPath::of("end"),
                format!(
                    "{end} is not a hand end (expected HAND_END_SELF_DRAWN..HAND_END_DRAW_GAME)"
                ),
            );
            None
        }
    };
    let winner_given = winner != pb::Seat::Unspecified as i32;
    let discarder_given = discarder != pb::Seat::Unspecified as i32;
    let discarder = v
        .take(optional_seat(discarder, FieldPath::of("discarder")))
        .flatten();
    let source = match end {
        None | Some(pb::HandEnd::Unspecified) => None,
        Some(pb::HandEnd::DrawGame) => {
            if winner_given {
                v.push(
                    ViolationCode::ContextConflict,
                    FieldPath::of("winner"),
                    "a draw game (荒牌) has no winner",
                );
            }
            if discarder_given {
                v.push(
                    ViolationCode::ContextConflict,
                    FieldPath::of("discarder"),
                    "a draw game (荒牌) has no discarder",
                );
            }
            None
        }
        Some(pb::HandEnd::SelfDrawn) => {
            if discarder_given {
                v.push(
                    ViolationCode::ContextConflict,
                    FieldPath::of("discarder"),
                    "a self-drawn win has no discarder",
                );
            }
            Some(WinSource::SelfDrawn)
        }
        Some(e @ (pb::HandEnd::Discard | pb::HandEnd::RobbingKong)) => {
            if !discarder_given {
                v.push(
                    ViolationCode::SeatInvalid,
                    FieldPath::of("discarder"),
                    if e == pb::HandEnd::Discard {
                        "a win on a discard needs the discarder (SEAT_UNSPECIFIED given)"
                    } else {
                        "robbing a kong needs the player whose kong was robbed (SEAT_UNSPECIFIED given)"
                    },
                );
            }
            discarder.map(|d| {
                if e == pb::HandEnd::Discard {
                    WinSource::Discard { discarder: d }
                } else {
                    WinSource::RobbingKong { robbed: d }
                }
            })
        }
    };
    Ending {
        end,
        is_win: matches!(
            end,
            Some(pb::HandEnd::SelfDrawn | pb::HandEnd::Discard | pb::HandEnd::RobbingKong)
        ),
        source,
    }
}

/// The declarer of a win: `winner`, or the first of several claimants in turn order after
/// the discarder (截和), with the resolution.
pub(crate) fn declarer_from_pb(
    ending: Ending,
    winner: i32,
    claimants: &[i32],
    v: &mut Violations,
) -> (Option<Seat>, Option<ClaimResolution>) {
    let winner_given = winner != pb::Seat::Unspecified as i32;
    let winner = v
        .take(optional_seat(winner, FieldPath::of("winner")))
        .flatten();
    let mut seats = Vec::with_capacity(claimants.len());
    let mut index = Vec::with_capacity(claimants.len());
    for (i, &c) in claimants.iter().enumerate() {
        if let Some(seat) = v.take(required_seat(c, FieldPath::of("claimants").index(i))) {
            seats.push(seat);
            index.push(i);
        }
    }
    if claimants.is_empty() {
        if ending.is_win && !winner_given {
            v.push(
                ViolationCode::SeatInvalid,
                FieldPath::of("winner"),
                "a win needs its winner (SEAT_UNSPECIFIED given), or the claimants",
            );
        }
        return (winner, None);
    }
    let payer = match ending.end {
        Some(pb::HandEnd::Discard | pb::HandEnd::RobbingKong) => {
            ending.source.and_then(WinSource::payer)
        }
        Some(pb::HandEnd::SelfDrawn | pb::HandEnd::DrawGame | pb::HandEnd::Unspecified) | None => {
            v.push(
                ViolationCode::ClaimInvalid,
                FieldPath::of("claimants"),
                "several claims are only resolved on a discard or a robbed kong",
            );
            if ending.is_win && !winner_given {
                v.push(
                    ViolationCode::SeatInvalid,
                    FieldPath::of("winner"),
                    "a self-drawn win needs its winner (SEAT_UNSPECIFIED given)",
                );
            }
            None
        }
    };
    // Without the discarder, or without a single known claimant, there is nothing to resolve
    // (both reported already).
    let Some(payer) = payer.filter(|_| !seats.is_empty()) else {
        return (winner, None);
    };
    match mcr::resolve_win_claims(payer, &seats) {
        Ok(r) => {
            let complete = seats.len() == claimants.len();
            if let Some(w) = winner.filter(|&w| complete && w != r.winner) {
                v.push(
                    ViolationCode::ClaimInvalid,
                    FieldPath::of("winner"),
                    format!(
                        "{w} is intercepted (截和) or did not claim: {} is the first claimant after {payer}",
                        r.winner
                    ),
                );
            }
            (Some(r.winner), Some(r))
        }
        Err(errors) => {
            v.extend(
                errors
                    .into_iter()
                    .map(|e| path::renamed_violation(e, |p| renumbered(p, "claimants", &index))),
            );
            (winner, None)
        }
    }
}

/// The value of a win, and the winning hand when the value is a hand.
pub(crate) fn win_value_from_pb(
    ending: Ending,
    win_value: Option<&pb::settle_hand_request::WinValue>,
    declarer: Option<Seat>,
    v: &mut Violations,
) -> (Option<WinValue>, Option<WinningHand>) {
    match (ending.is_win, win_value) {
        (true, None) => {
            v.push(
                ViolationCode::WinValueMissing,
                FieldPath::of("win_value"),
                "a win needs its value: `fan_count` or `winning_hand`",
            );
            (None, None)
        }
        (false, None) => (None, None),
        (false, Some(_)) => {
            if ending.end.is_some() {
                v.push(
                    ViolationCode::WinValueForDraw,
                    FieldPath::of("win_value"),
                    "a draw game (荒牌) has no winning hand to value",
                );
            }
            (None, None)
        }
        (true, Some(pb::settle_hand_request::WinValue::FanCount(count))) => {
            let pb::FanCount {
                fan_total,
                flower_count,
            } = *count;
            let value = WinValue::Counted {
                fan: i64::from(fan_total),
                flowers: i64::from(flower_count),
            };
            (Some(value), None)
        }
        (true, Some(pb::settle_hand_request::WinValue::WinningHand(w))) => {
            let at = FieldPath::of("winning_hand");
            let hand = winning_hand_from_pb(w, at, declarer, ending.source, v);
            let value = hand.as_ref().map(|w| WinValue::Hand {
                hand: w.hand.clone(),
                context: w.context,
            });
            (value, hand)
        }
    }
}

/// Settles one hand: the `SettleHand` call. Every violation of the request is reported.
pub fn settle_hand(
    request: &pb::SettleHandRequest,
    kept: &KeptRules,
) -> Result<pb::SettleHandResponse, Vec<Violation>> {
    let pb::SettleHandRequest {
        end,
        winner,
        discarder,
        claimants,
        win_value,
        penalties,
        ruleset,
        overrides,
    } = request;
    let mut over = offences_over_limits(penalties, "penalties");
    over.extend(path::too_many(
        FieldPath::of("claimants"),
        claimants.len(),
        crate::limits::MAX_CLAIMANTS,
    ));
    if !over.is_empty() {
        return Err(over);
    }
    let mut v = Violations::default();
    let applied = rules_of(*ruleset, overrides.as_ref(), kept, &mut v);
    let rules = &applied.ruleset();
    let ending = ending_from_pb(*end, *winner, *discarder, &mut v);
    let (declarer, resolution) = declarer_from_pb(ending, *winner, claimants, &mut v);
    let (value, hand) = win_value_from_pb(ending, win_value.as_ref(), declarer, &mut v);
    let (offences, index) = offences_from_pb(penalties, "penalties", rules, &mut v);

    // The domain settles what converted; where a part did not, a stand-in that raises no
    // violation of its own takes its place, so that the rest is still checked.
    let converted = v.is_empty();
    let record_end = match (ending.source, declarer) {
        (Some(source), Some(declarer)) => HandEnd::Win(Declaration { declarer, source }),
        _ => HandEnd::DrawGame,
    };
    let record_value = match record_end {
        HandEnd::DrawGame => {
            if let Some(w) = &hand
                && let Err(errors) = w.hand.validate(&w.context)
            {
                let at = FieldPath::of("winning_hand");
                v.extend(
                    errors
                        .into_iter()
                        .map(|e| path::renamed_violation(e, |p| path::winning_hand(p, at))),
                );
            }
            None
        }
        HandEnd::Win(_) => Some(value.unwrap_or(WinValue::Counted { fan: 8, flowers: 0 })),
    };
    let record = HandRecord {
        end: record_end,
        value: record_value,
        penalties: offences,
    };
    let settlement = match mcr::settle(&record, rules) {
        Ok(s) if converted => s,
        Ok(_) => return Err(v.into_vec()),
        Err(errors) => {
            v.extend(errors.into_iter().map(|e| {
                path::renamed_violation(e, |p| renumbered(path::settlement(p), "penalties", &index))
            }));
            return Err(v.into_vec());
        }
    };
    // The hand the settlement scored, if it was given as tiles: its sheet comes from that
    // one score.
    let score_sheet = match (&hand, settlement.hand, settlement.scoring) {
        (Some(w), Some(scored_hand), Some(scored)) => {
            Some(scored_hand_sheet(scored_hand, w.context, &applied, scored))
        }
        _ => None,
    };
    Ok(pb::SettleHandResponse {
        result: Some(hand_result_to_pb(&settlement.result)),
        accounts: accounts_to_pb(&settlement.payments),
        rulings: settlement.rulings.iter().map(ruling_to_pb).collect(),
        score_sheet,
        unpaid_penalties: to_i32(settlement.unpaid_penalties),
        unbalanced_by: to_i32(settlement.unbalanced_by),
        claim_resolution: resolution.as_ref().map(claim_resolution_to_pb),
        ruleset: ruleset_to_pb(applied.id()) as i32,
        rules_fingerprint: fingerprint_text(applied.fingerprint()),
    })
}
