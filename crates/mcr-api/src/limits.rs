//! The fixed bounds of what the referee reads and writes, in one place (the configurable
//! ones live in the `mahjong-referee` crate's `config`): how many violations an answer
//! lists, how long their texts may be (their paths are written here, once:
//! [`shown_violations`]), and the maxima of the repeated request fields (checked by
//! [`crate::api::kit::path::too_many`]).
//!
//! With these bounds the error details of a status (`ErrorInfo` + `BadRequest`) stay under
//! 8 KiB even once base64-encoded into the `grpc-status-details-bin` trailer, the size many
//! gRPC clients accept for all metadata: [`MAX_VIOLATIONS_SHOWN`] violations of at most
//! [`MAX_VIOLATION_FIELD`] + [`MAX_VIOLATION_TEXT`] bytes (plus a code of at most 32) are
//! at most 5 KiB encoded, 6.7 KiB in base64.

use std::borrow::Cow;
use std::fmt;

use mcr::{Violation, ViolationCode};

/// Violations listed in an error's `BadRequest`, in a `ValidateHand` answer and in a batch
/// entry's `HandError`: the first ones found. The status's `ErrorInfo` keeps the real total
/// in `violationCount` and the number listed in `violationsShown`.
pub const MAX_VIOLATIONS_SHOWN: usize = 20;

/// Bytes of a violation's field path that are listed; a longer one is cut at a character
/// boundary and ends with `…`.
pub const MAX_VIOLATION_FIELD: usize = 96;

/// Bytes of a violation's message (and of a `BadRequest` description) that are listed; a
/// longer one is cut at a character boundary and ends with `…`.
pub const MAX_VIOLATION_TEXT: usize = 120;

/// The maxima of the repeated request fields. A request over one is rejected before any
/// work with `INVALID_ARGUMENT` and a `VALUE_INVALID` violation at the field's path (e.g.
/// `players[3].sessions`), whatever else it holds. The lists of a hand (`Hand.melds`,
/// `Meld.tiles`, `Hand.standing_tiles`) have none below `--max-message-bytes`: each element
/// costs one check and at most one violation (of which [`MAX_VIOLATIONS_SHOWN`] are listed).
///
/// `AdjudicatePenaltyRequest.offences` and `SettleHandRequest.penalties`: the offences of one
/// hand.
pub const MAX_OFFENCES: usize = 64;
/// `SettleHandRequest.claimants`: the seats that claimed the winning discard.
pub const MAX_CLAIMANTS: usize = 8;
/// `Penalty.tiles`: the exposed tiles of one offence (a hand holds at most 18).
pub const MAX_PENALTY_TILES: usize = 18;
/// `ComputeStandingsRequest.players`.
pub const MAX_PLAYERS: usize = 4096;
/// `PlayerRecord.sessions`: the sessions of one player.
pub const MAX_SESSIONS: usize = 64;
/// `SessionRecord.hand_results`: the hands of one session.
pub const MAX_HAND_RESULTS: usize = 512;
/// `AnalyzeHandRequest.visible_tiles`: the tiles seen elsewhere (a set has 144 with flowers).
pub const MAX_VISIBLE_TILES: usize = 144;

/// `ReplayHandRequest.botzone_text`: one match in Botzone's line format. A hand's longest
/// record is about 300 lines of under 40 bytes; `mcr::play::botzone::MAX_MATCH_LINES` bounds
/// the lines and `mcr::play::record::MAX_EVENTS` the events of any record.
pub const MAX_RECORD_TEXT_BYTES: usize = 64 * 1024;
/// `HandRecord.wall`: the tiles after the deal (at most 144 − 52).
pub const MAX_WALL_TILES: usize = 144;
/// `SeatDeal.tiles`: a seat's dealt tiles (13 are dealt; more is reported, up to this many).
pub const MAX_DEALT_TILES: usize = 14;

/// `text` if it has at most `max` bytes; otherwise its longest prefix of at most `max - 3`
/// bytes that ends on a character boundary, followed by `…` (3 bytes), so at most `max`.
pub fn clip(text: &str, max: usize) -> Cow<'_, str> {
    if text.len() <= max {
        return Cow::Borrowed(text);
    }
    let mut end = max.saturating_sub('…'.len_utf8());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    Cow::Owned(format!("{}…", &text[..end]))
}

/// A violation as an answer lists it: its field path written (`hand.melds[2].tiles`) and
/// clipped, its message clipped (see [`clip`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown<'a> {
    /// The stable code.
    pub code: ViolationCode,
    /// The field path, at most [`MAX_VIOLATION_FIELD`] bytes.
    pub field: String,
    /// The message, at most [`MAX_VIOLATION_TEXT`] bytes.
    pub message: Cow<'a, str>,
}

/// As a violation is written: `CODE at field: message`.
impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}: {}", self.code, self.field, self.message)
    }
}

/// The violations an answer lists: the first [`MAX_VIOLATIONS_SHOWN`], their field path
/// written and clipped, their message clipped (see [`clip`]).
pub fn shown_violations(violations: &[Violation]) -> impl Iterator<Item = Shown<'_>> {
    violations.iter().take(MAX_VIOLATIONS_SHOWN).map(|v| {
        let field = v.path.to_string();
        Shown {
            code: v.code,
            field: if field.len() <= MAX_VIOLATION_FIELD {
                field
            } else {
                clip(&field, MAX_VIOLATION_FIELD).into_owned()
            },
            message: clip(&v.message, MAX_VIOLATION_TEXT),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_keeps_short_texts_and_cuts_long_ones_on_a_boundary() {
        assert_eq!(clip("abc", 3), "abc");
        assert_eq!(clip("abcdef", 5), "ab…");
        // "é" is two bytes: a cut inside it moves before it.
        let cut = clip("aéééé", 6);
        assert!(cut.len() <= 6, "{cut}");
        assert_eq!(cut, "aé…");
    }
}
