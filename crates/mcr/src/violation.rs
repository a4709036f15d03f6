//! Input violations: every problem found in a hand or a context, each with a stable code.

use std::fmt;

/// The stable machine code of a violation. Codes never change meaning; new ones may be added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ViolationCode {
    /// The number of standing tiles does not fit the declared melds.
    TileCountWrong,
    /// A tile appears more than four times.
    TooManyCopies,
    /// More than four declared melds.
    TooManyMelds,
    /// A meld has the wrong number of tiles for its kind.
    MeldTileCount,
    /// A chow that is not three consecutive numbered tiles of one suit.
    ChowInvalid,
    /// A chow claimed from someone other than the player on the left.
    ChowNotFromLeft,
    /// A pung whose tiles are not identical.
    PungInvalid,
    /// A kong whose tiles are not identical.
    KongInvalid,
    /// A concealed kong with a claimed tile.
    ConcealedKongClaimed,
    /// No winning tile.
    WinningTileMissing,
    /// A tile that is not one of the 34 kinds.
    TileUnknown,
    /// Circumstances of the win that cannot happen together.
    ContextConflict,
    /// More than 8 flowers.
    FlowerCount,
    /// An enum value outside its range, or a required value left unspecified.
    ValueInvalid,
    /// Hand notation that cannot be parsed.
    NotationSyntax,
    /// A seat that is not at the table (or left unspecified where one is required).
    SeatInvalid,
    /// An infraction that is not in the penalty catalogue (or left unspecified).
    InfractionUnknown,
    /// A referee-graded penalty amount outside the ruleset's range (5–60).
    PenaltyAmountOutOfRange,
    /// A count or amount below zero (fan total, flowers, minutes, points, occurrence).
    ValueNegative,
    /// The winner and the discarder (or robbed player) are the same seat.
    WinnerIsPayer,
    /// The winner lost the right to win this hand (停和) or was disqualified by a penalty of
    /// the same hand.
    WinnerBarred,
    /// Claims on one discard that cannot be resolved: none, the discarder's own, a claimant
    /// listed twice, or a named winner who is not the first claimant in turn order.
    ClaimInvalid,
    /// A penalty outside the scope of the request (late arrival in a hand: it belongs to the
    /// session total).
    PenaltyOutOfScope,
    /// A win without its value (the fan total or the hand to score).
    WinValueMissing,
    /// A value given for a hand that ended without a win (荒牌).
    WinValueForDraw,
}

impl ViolationCode {
    /// Every code, for documentation and tests.
    pub const ALL: [ViolationCode; 25] = [
        ViolationCode::TileCountWrong,
        ViolationCode::TooManyCopies,
        ViolationCode::TooManyMelds,
        ViolationCode::MeldTileCount,
        ViolationCode::ChowInvalid,
        ViolationCode::ChowNotFromLeft,
        ViolationCode::PungInvalid,
        ViolationCode::KongInvalid,
        ViolationCode::ConcealedKongClaimed,
        ViolationCode::WinningTileMissing,
        ViolationCode::TileUnknown,
        ViolationCode::ContextConflict,
        ViolationCode::FlowerCount,
        ViolationCode::ValueInvalid,
        ViolationCode::NotationSyntax,
        ViolationCode::SeatInvalid,
        ViolationCode::InfractionUnknown,
        ViolationCode::PenaltyAmountOutOfRange,
        ViolationCode::ValueNegative,
        ViolationCode::WinnerIsPayer,
        ViolationCode::WinnerBarred,
        ViolationCode::ClaimInvalid,
        ViolationCode::PenaltyOutOfScope,
        ViolationCode::WinValueMissing,
        ViolationCode::WinValueForDraw,
    ];

    /// The stable `UPPER_SNAKE_CASE` code.
    pub const fn as_str(self) -> &'static str {
        match self {
            ViolationCode::TileCountWrong => "TILE_COUNT_WRONG",
            ViolationCode::TooManyCopies => "TILE_COPIES_EXCEEDED",
            ViolationCode::TooManyMelds => "MELDS_TOO_MANY",
            ViolationCode::MeldTileCount => "MELD_TILE_COUNT",
            ViolationCode::ChowInvalid => "CHOW_INVALID",
            ViolationCode::ChowNotFromLeft => "CHOW_NOT_FROM_LEFT",
            ViolationCode::PungInvalid => "PUNG_INVALID",
            ViolationCode::KongInvalid => "KONG_INVALID",
            ViolationCode::ConcealedKongClaimed => "CONCEALED_KONG_CLAIMED",
            ViolationCode::WinningTileMissing => "WINNING_TILE_MISSING",
            ViolationCode::TileUnknown => "TILE_UNKNOWN",
            ViolationCode::ContextConflict => "CONTEXT_CONFLICT",
            ViolationCode::FlowerCount => "FLOWER_COUNT_INVALID",
            ViolationCode::ValueInvalid => "VALUE_INVALID",
            ViolationCode::NotationSyntax => "NOTATION_SYNTAX",
            ViolationCode::SeatInvalid => "SEAT_INVALID",
            ViolationCode::InfractionUnknown => "INFRACTION_UNKNOWN",
            ViolationCode::PenaltyAmountOutOfRange => "PENALTY_AMOUNT_OUT_OF_RANGE",
            ViolationCode::ValueNegative => "VALUE_NEGATIVE",
            ViolationCode::WinnerIsPayer => "WINNER_IS_PAYER",
            ViolationCode::WinnerBarred => "WINNER_BARRED",
            ViolationCode::ClaimInvalid => "CLAIM_INVALID",
            ViolationCode::PenaltyOutOfScope => "PENALTY_OUT_OF_SCOPE",
            ViolationCode::WinValueMissing => "WIN_VALUE_MISSING",
            ViolationCode::WinValueForDraw => "WIN_VALUE_FOR_DRAW",
        }
    }
}

impl fmt::Display for ViolationCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One problem with the input: a stable code, the field it concerns, and a message for people.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Violation {
    /// Stable machine code.
    pub code: ViolationCode,
    /// Path of the offending field (`hand.melds[2].tiles`, `context.robbing_kong`, `notation`).
    pub field: String,
    /// An English sentence a person understands.
    pub message: String,
}

impl Violation {
    /// A violation.
    pub fn new(code: ViolationCode, field: String, message: String) -> Self {
        Violation {
            code,
            field,
            message,
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}: {}", self.code, self.field, self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_upper_snake_case() {
        let mut seen = std::collections::HashSet::new();
        for code in ViolationCode::ALL {
            let s = code.as_str();
            assert!(seen.insert(s), "{s} is used twice");
            assert!(
                s.chars().all(|c| c.is_ascii_uppercase() || c == '_'),
                "{s} is not UPPER_SNAKE_CASE"
            );
            assert_eq!(code.to_string(), s);
        }
        assert_eq!(ViolationCode::SeatInvalid.as_str(), "SEAT_INVALID");
        assert_eq!(
            ViolationCode::WinValueForDraw.as_str(),
            "WIN_VALUE_FOR_DRAW"
        );
    }
}
