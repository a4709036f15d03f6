//! What the play referee finds wrong with a record: each finding has a stable code, the rule
//! it rests on, what it does to the hand, and a message for people.

use std::fmt;

use crate::seat::Seat;

/// The stable machine code of a finding in play. Codes never change meaning; new ones may be
/// added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayCode {
    /// A seat is dealt other than 13 tiles.
    DealSize,
    /// A fifth copy of a tile is dealt or drawn, or a flower a second time.
    TileCopiesExceeded,
    /// A seat's dealt tiles differ from what the seed deals it (compared as a multiset).
    DealNotFromSeed,
    /// A draw that is not the next tile of the wall the record gives.
    WallMismatch,
    /// An event by a seat whose turn it is not, or an action the seat cannot take now
    /// (including 摸牌 before the left-hand player has discarded).
    OutOfTurn,
    /// A draw when the wall holds no tile for it.
    DrawFromEmptyWall,
    /// An event after the hand ended.
    EventAfterEnd,
    /// The record ends before the hand does.
    HandNotEnded,
    /// A draw game (荒牌) declared while tiles remain or a claim may still be made.
    DrawGameEarly,
    /// A discard of a tile the seat does not hold.
    DiscardNotHeld,
    /// A flower shown that the seat does not hold.
    FlowerNotHeld,
    /// A seat acts while holding a flower it has not shown (补花 comes first).
    FlowerNotShown,
    /// A chow of a discard that was not made by the player on the claimer's left (错吃).
    ChowNotFromLeft,
    /// A chow that cannot contain the discard: an honour, or a middle tile not next to it.
    ChowInvalid,
    /// A chow without the two tiles it needs (空吃).
    ChowWithoutTiles,
    /// A pung without a concealed pair of the discard (空碰).
    PungWithoutPair,
    /// A kong without the three (exposed kong) or four (concealed kong) tiles it needs (空杠).
    KongWithoutTiles,
    /// An added kong without a melded pung of the tile, or without the tile in hand.
    AddedKongWithoutPung,
    /// An added kong with a tile other than the one just drawn (the ruleset asks for it).
    AddedKongNotDrawn,
    /// A kong right after a chow or pung, before the next draw (R98 §7-7).
    KongAfterClaim,
    /// A kong when the wall has no replacement tile left.
    KongOnEmptyWall,
    /// A chow, pung or kong of the last discard, when only a win may be claimed.
    ClaimOnLastDiscard,
    /// A claim of a tile that is not pending for the claimer (its own discard, or none).
    ClaimNotPending,
    /// A claim taken over one of higher priority, or over an equal one earlier in turn.
    ClaimPriority,
    /// A claim shown as overridden that could not have been made.
    OverriddenClaimInvalid,
    /// A declared win that is not one: not a winning shape, or under the minimum.
    FalseWin,
    /// A self-drawn win that names a tile other than the one drawn.
    WinTileMismatch,
    /// A win declared by a seat that lost its right to win this hand (停和).
    WinnerBarred,
    /// The record's fan total differs from the referee's.
    FanMismatch,
    /// The record's points differ from the referee's.
    ScoreMismatch,
    /// The record's circumstances of the win differ from the log's.
    CircumstancesMismatch,
}

impl PlayCode {
    /// Every code, for documentation and tests.
    pub const ALL: [PlayCode; 31] = [
        PlayCode::DealSize,
        PlayCode::TileCopiesExceeded,
        PlayCode::DealNotFromSeed,
        PlayCode::WallMismatch,
        PlayCode::OutOfTurn,
        PlayCode::DrawFromEmptyWall,
        PlayCode::EventAfterEnd,
        PlayCode::HandNotEnded,
        PlayCode::DrawGameEarly,
        PlayCode::DiscardNotHeld,
        PlayCode::FlowerNotHeld,
        PlayCode::FlowerNotShown,
        PlayCode::ChowNotFromLeft,
        PlayCode::ChowInvalid,
        PlayCode::ChowWithoutTiles,
        PlayCode::PungWithoutPair,
        PlayCode::KongWithoutTiles,
        PlayCode::AddedKongWithoutPung,
        PlayCode::AddedKongNotDrawn,
        PlayCode::KongAfterClaim,
        PlayCode::KongOnEmptyWall,
        PlayCode::ClaimOnLastDiscard,
        PlayCode::ClaimNotPending,
        PlayCode::ClaimPriority,
        PlayCode::OverriddenClaimInvalid,
        PlayCode::FalseWin,
        PlayCode::WinTileMismatch,
        PlayCode::WinnerBarred,
        PlayCode::FanMismatch,
        PlayCode::ScoreMismatch,
        PlayCode::CircumstancesMismatch,
    ];

    /// The stable `UPPER_SNAKE_CASE` code.
    pub const fn as_str(self) -> &'static str {
        match self {
            PlayCode::DealSize => "DEAL_SIZE",
            PlayCode::TileCopiesExceeded => "TILE_COPIES_EXCEEDED",
            PlayCode::DealNotFromSeed => "DEAL_NOT_FROM_SEED",
            PlayCode::WallMismatch => "WALL_MISMATCH",
            PlayCode::OutOfTurn => "OUT_OF_TURN",
            PlayCode::DrawFromEmptyWall => "DRAW_FROM_EMPTY_WALL",
            PlayCode::EventAfterEnd => "EVENT_AFTER_END",
            PlayCode::HandNotEnded => "HAND_NOT_ENDED",
            PlayCode::DrawGameEarly => "DRAW_GAME_EARLY",
            PlayCode::DiscardNotHeld => "DISCARD_NOT_HELD",
            PlayCode::FlowerNotHeld => "FLOWER_NOT_HELD",
            PlayCode::FlowerNotShown => "FLOWER_NOT_SHOWN",
            PlayCode::ChowNotFromLeft => "CHOW_NOT_FROM_LEFT",
            PlayCode::ChowInvalid => "CHOW_INVALID",
            PlayCode::ChowWithoutTiles => "CHOW_WITHOUT_TILES",
            PlayCode::PungWithoutPair => "PUNG_WITHOUT_PAIR",
            PlayCode::KongWithoutTiles => "KONG_WITHOUT_TILES",
            PlayCode::AddedKongWithoutPung => "ADDED_KONG_WITHOUT_PUNG",
            PlayCode::AddedKongNotDrawn => "ADDED_KONG_NOT_DRAWN",
            PlayCode::KongAfterClaim => "KONG_AFTER_CLAIM",
            PlayCode::KongOnEmptyWall => "KONG_ON_EMPTY_WALL",
            PlayCode::ClaimOnLastDiscard => "CLAIM_ON_LAST_DISCARD",
            PlayCode::ClaimNotPending => "CLAIM_NOT_PENDING",
            PlayCode::ClaimPriority => "CLAIM_PRIORITY",
            PlayCode::OverriddenClaimInvalid => "OVERRIDDEN_CLAIM_INVALID",
            PlayCode::FalseWin => "FALSE_WIN",
            PlayCode::WinTileMismatch => "WIN_TILE_MISMATCH",
            PlayCode::WinnerBarred => "WINNER_BARRED",
            PlayCode::FanMismatch => "FAN_MISMATCH",
            PlayCode::ScoreMismatch => "SCORE_MISMATCH",
            PlayCode::CircumstancesMismatch => "CIRCUMSTANCES_MISMATCH",
        }
    }

    /// The rule the check rests on: the section of the rules reference, `docs/rules/` (and of
    /// the rulebook it cites), or the ruleset switch where the rulebooks are silent.
    pub const fn rule(self) -> &'static str {
        match self {
            PlayCode::DealSize => {
                "docs/rules/tiles-and-play.md#hand-size (R98 §5-10): 13 tiles held"
            }
            PlayCode::TileCopiesExceeded => {
                "docs/rules/tiles-and-play.md#tiles: four copies of each tile, one of each flower"
            }
            PlayCode::DealNotFromSeed => {
                "docs/rules/tiles-and-play.md#deal (R98 §5-10), docs/deal.md: with a seed, each seat is dealt the tiles the seed deals it"
            }
            PlayCode::WallMismatch => {
                "docs/rules/tiles-and-play.md#wall (R98 §7-7): draws from the wall in order, replacements from its end"
            }
            PlayCode::OutOfTurn => {
                "docs/rules/tiles-and-play.md#turns, docs/rules/penalties.md#catalogue (R98 §14-4): play goes counter-clockwise from the dealer; no draw before the left-hand player has discarded"
            }
            PlayCode::DrawFromEmptyWall | PlayCode::DrawGameEarly => {
                "docs/rules/tiles-and-play.md#draw-game (R98 §5-30), switch `wall`: the hand is a draw game when the last tile is drawn and discarded with no win"
            }
            PlayCode::EventAfterEnd | PlayCode::HandNotEnded => {
                "docs/rules/tiles-and-play.md#draw-game: a hand ends with a win or a draw game"
            }
            PlayCode::DiscardNotHeld => {
                "docs/rules/tiles-and-play.md#hand-size: a seat discards a tile it holds"
            }
            PlayCode::FlowerNotHeld | PlayCode::FlowerNotShown => {
                "docs/rules/tiles-and-play.md#flowers: a drawn flower is shown and replaced (补花)"
            }
            PlayCode::ChowNotFromLeft => {
                "docs/rules/tiles-and-play.md#claims (R98 §5-17, §7-5, §14-2): chow only from the left (错吃: 停和)"
            }
            PlayCode::ChowInvalid => {
                "docs/rules/winning-shapes.md#standard-shape: a chow is three consecutive tiles of one suit"
            }
            PlayCode::ChowWithoutTiles | PlayCode::PungWithoutPair | PlayCode::KongWithoutTiles => {
                "docs/rules/tiles-and-play.md#claims, docs/rules/penalties.md#repeated-offences (R98 §14-3): a call needs the tiles it shows (空吃/空碰/空杠)"
            }
            PlayCode::AddedKongWithoutPung => {
                "docs/rules/tiles-and-play.md#kongs (R98 §7-7): a promoted kong adds the fourth tile to the seat's own melded pung"
            }
            PlayCode::AddedKongNotDrawn => {
                "docs/rules/tiles-and-play.md#kongs (R98 §7-7), switch `added_kong_tile`: the promoted kong adds the tile just drawn"
            }
            PlayCode::KongAfterClaim => {
                "docs/rules/tiles-and-play.md#kongs (R98 §7-7): after a chow or pung, discard; no kong before the next draw"
            }
            PlayCode::KongOnEmptyWall => {
                "docs/rules/tiles-and-play.md#last-tile: no kong once the last tile is drawn"
            }
            PlayCode::ClaimOnLastDiscard => {
                "docs/rules/tiles-and-play.md#last-tile, switch `last_discard_claims`: on the last discard only a win may be claimed"
            }
            PlayCode::ClaimNotPending => {
                "docs/rules/tiles-and-play.md#claims: claims are made on another seat's discard or added kong"
            }
            PlayCode::ClaimPriority | PlayCode::OverriddenClaimInvalid => {
                "docs/rules/tiles-and-play.md#claims-priority (R98 §7-6, §8-3), switch `multiple_winners`: 和 > 碰/杠 > 吃; among wins the first counter-clockwise from the discarder (截和)"
            }
            PlayCode::FalseWin => {
                "docs/rules/scoring-and-payments.md#minimum-and-flowers, docs/rules/penalties.md#false-declarations (R98 §14-6): a win is a winning shape of at least the minimum fan; a false one costs the right to win and points"
            }
            PlayCode::WinTileMismatch => {
                "docs/rules/tiles-and-play.md#declaring-a-win: a self-drawn win is on the tile just drawn"
            }
            PlayCode::WinnerBarred => {
                "docs/rules/tiles-and-play.md#declaring-a-win, docs/rules/penalties.md#sanctions (R98 §13, §14-2, §14-6): a seat that lost its right to win (停和) plays on only"
            }
            PlayCode::FanMismatch | PlayCode::ScoreMismatch | PlayCode::CircumstancesMismatch => {
                "docs/rules/fans.md#counting-principles, docs/rules/scoring-and-payments.md#payments: the score and payments of the win the log shows"
            }
        }
    }

    /// What the finding does to the hand.
    pub const fn consequence(self) -> Consequence {
        match self {
            PlayCode::ChowNotFromLeft | PlayCode::FalseWin => Consequence::LosesRightToWin,
            PlayCode::WinTileMismatch => Consequence::Corrected,
            PlayCode::WinnerBarred => Consequence::Void,
            PlayCode::FanMismatch
            | PlayCode::ScoreMismatch
            | PlayCode::CircumstancesMismatch
            | PlayCode::OverriddenClaimInvalid
            | PlayCode::HandNotEnded
            | PlayCode::EventAfterEnd => Consequence::Noted,
            PlayCode::DealSize
            | PlayCode::TileCopiesExceeded
            | PlayCode::DealNotFromSeed
            | PlayCode::WallMismatch
            | PlayCode::OutOfTurn
            | PlayCode::DrawFromEmptyWall
            | PlayCode::DrawGameEarly
            | PlayCode::DiscardNotHeld
            | PlayCode::FlowerNotHeld
            | PlayCode::FlowerNotShown
            | PlayCode::ChowInvalid
            | PlayCode::ChowWithoutTiles
            | PlayCode::PungWithoutPair
            | PlayCode::KongWithoutTiles
            | PlayCode::AddedKongWithoutPung
            | PlayCode::AddedKongNotDrawn
            | PlayCode::KongAfterClaim
            | PlayCode::KongOnEmptyWall
            | PlayCode::ClaimOnLastDiscard
            | PlayCode::ClaimNotPending
            | PlayCode::ClaimPriority => Consequence::Stops,
        }
    }
}

impl fmt::Display for PlayCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a finding does to the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Consequence {
    /// The record disagrees with the referee; play is as the log shows.
    Noted,
    /// The event is judged as the rules read it (a self-drawn win on the tile drawn).
    Corrected,
    /// The event has no effect; play goes on without it.
    Void,
    /// The seat loses its right to win this hand (停和) and plays on (陪打).
    LosesRightToWin,
    /// The state of the hand can no longer be known: the replay stops, and the hand has no
    /// result.
    Stops,
}

impl Consequence {
    /// The stable `UPPER_SNAKE_CASE` name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Consequence::Noted => "NOTED",
            Consequence::Corrected => "CORRECTED",
            Consequence::Void => "VOID",
            Consequence::LosesRightToWin => "LOSES_RIGHT_TO_WIN",
            Consequence::Stops => "STOPS",
        }
    }
}

/// Where in the record a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum At {
    /// The deal of a seat.
    Deal(Seat),
    /// The event of this index (0-based).
    Event(usize),
    /// The end of the record (it ends too early).
    End,
    /// The record's stated fan total.
    StatedFan,
    /// The record's stated points.
    StatedScores,
    /// The record's stated circumstances.
    StatedCircumstances,
}

/// One finding: where, what, and a sentence for people.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayFinding {
    /// Where in the record.
    pub at: At,
    /// Stable machine code; [`PlayCode::rule`] and [`PlayCode::consequence`] tell the rest.
    pub code: PlayCode,
    /// The seat concerned, when one is.
    pub seat: Option<Seat>,
    /// An English sentence a person understands.
    pub message: String,
}

impl PlayFinding {
    /// What the finding does to the hand.
    pub const fn consequence(&self) -> Consequence {
        self.code.consequence()
    }
}

impl fmt::Display for PlayFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {:?}: {}", self.code, self.at, self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_and_cite_a_section_of_the_rules_reference() {
        let mut seen = std::collections::HashSet::new();
        for code in PlayCode::ALL {
            assert!(seen.insert(code.as_str()), "{code} twice");
            assert!(
                code.rule().starts_with("docs/rules/") && code.rule().contains(".md#"),
                "{code}: {}",
                code.rule()
            );
            assert!(
                code.as_str()
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c == '_')
            );
        }
    }
}
