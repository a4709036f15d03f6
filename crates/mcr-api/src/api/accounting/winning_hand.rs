//! A winning hand of an accounting request (notation or structured, with its context).

use crate::api::kit::hand::{context_from_pb, hand_from_pb};
use crate::api::kit::violations::{Violations, prefixed};
use mcr::settlement::WinSource;
use mcr::violation::FieldPath;
use mcr::{HandInput, Seat, ViolationCode, WinContext, WinMethod};

use crate::api::pb;
use crate::assessment;

/// A winning hand converted: the hand as declared and its context.
pub(crate) struct WinningHand {
    pub(crate) hand: HandInput,
    pub(crate) context: WinContext,
}

/// Converts a proto winning hand at `at` (`winning_hand`). The context's method and
/// robbing-a-kong flag are completed from `source`; an unspecified seat wind is the
/// declarer's, a given one must be the declarer's.
pub(crate) fn winning_hand_from_pb(
    w: &pb::WinningHand,
    at: FieldPath,
    declarer: Option<Seat>,
    source: Option<WinSource>,
    v: &mut Violations,
) -> Option<WinningHand> {
    let pb::WinningHand {
        hand_input,
        context,
    } = w;
    let hand = match hand_input.as_ref() {
        None => {
            v.push(
                ViolationCode::ValueInvalid,
                at.field("hand_input"),
                "the winning hand is required: set `notation` or `hand`",
            );
            None
        }
        Some(pb::winning_hand::HandInput::Notation(text)) => match assessment::parse_notation(text)
        {
            Ok(h) => Some(h),
            Err(e) => {
                v.add(prefixed(at, e));
                None
            }
        },
        Some(pb::winning_hand::HandInput::Hand(h)) => match hand_from_pb(h) {
            Ok(h) => Some(h),
            Err(errors) => {
                v.extend(errors.into_iter().map(|e| prefixed(at, e)));
                None
            }
        },
    };
    let mut ctx = match context_from_pb(context.as_ref()) {
        Ok(c) => Some(c),
        Err(errors) => {
            v.extend(errors.into_iter().map(|e| prefixed(at, e)));
            None
        }
    }?;
    match source {
        Some(WinSource::SelfDrawn) => ctx.method = WinMethod::SelfDrawn,
        Some(WinSource::RobbingKong { .. }) => ctx.robbing_kong = true,
        Some(WinSource::Discard { .. }) | None => {}
    }
    let seat_wind = context
        .as_ref()
        .map_or(pb::Wind::Unspecified as i32, |c| c.seat_wind);
    if let Some(declarer) = declarer {
        if seat_wind == pb::Wind::Unspecified as i32 {
            ctx.seat_wind = declarer.wind();
        } else if ctx.seat_wind != declarer.wind() {
            v.push(
                ViolationCode::ContextConflict,
                at.field("context").field("seat_wind"),
                format!(
                    "the seat wind is the declarer's seat: {declarer}, not {:?}",
                    ctx.seat_wind
                ),
            );
        }
    }
    Some(WinningHand {
        hand: hand?,
        context: ctx,
    })
}
