//! An infraction with the details its ruling needs, and an offence: an infraction by a seat.

use super::table::InfractionKind;
use crate::seat::Seat;
use crate::tile::Tile;

/// A false declaration of 和 (docs/rules/penalties.md#false-declarations).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FalseDeclaration {
    /// 错和: a winning shape under 8 fan (flowers excluded).
    FalseWin,
    /// 和错牌: ready, but the declared tile does not complete the hand.
    WrongWinningTile,
    /// 诈和: one tile short of ready.
    NotReadyWin,
    /// 有意诈和: two or more tiles short of ready.
    DeliberateFalseWin,
}

impl FalseDeclaration {
    /// The infraction.
    pub const fn infraction(self) -> Infraction {
        match self {
            FalseDeclaration::FalseWin => Infraction::FalseWin,
            FalseDeclaration::WrongWinningTile => Infraction::WrongWinningTile,
            FalseDeclaration::NotReadyWin => Infraction::NotReadyWin,
            FalseDeclaration::DeliberateFalseWin => Infraction::DeliberateFalseWin,
        }
    }
}

/// The referee's choice for illegal signals: points or 停和 (docs/rules/penalties.md#catalogue, R98 §14-10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SignalSanction {
    /// Graded points deducted.
    Points(i64),
    /// Loss of the right to win this hand.
    LoseRightToWin,
}

/// Every infraction of docs/rules/penalties.md#catalogue (§14 of the 1998 rules), with the details its ruling
/// needs. Amounts given by the referee are `i64` so that impossible values from a caller
/// (negative, out of range) are reported as violations rather than lost in a conversion.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Infraction {
    /// 换牌/偷牌/藏牌/夹带 or other cheating (row 1): disqualification.
    Cheating,
    /// 错吃 (row 2): 停和.
    WrongChow,
    /// 错碰 (row 2): 停和.
    WrongPung,
    /// 错杠 (row 2): 停和.
    WrongKong,
    /// 空吃: calling chow without the tiles, or not completing it (row 3): escalating.
    EmptyChow,
    /// 空碰 (row 3): escalating.
    EmptyPung,
    /// 空杠 (row 3): escalating.
    EmptyKong,
    /// 摸牌: drawing before the player on the left has discarded (row 4): escalating.
    EarlyDraw,
    /// Calling pung more than 3 seconds after the discard (row 5): escalating.
    LatePung,
    /// 错和 (row 6a).
    FalseWin,
    /// 和错牌 (row 6c): as 错和.
    WrongWinningTile,
    /// 诈和 (row 6b).
    NotReadyWin,
    /// 有意诈和 (row 6d).
    DeliberateFalseWin,
    /// Exposing one's own tiles during play (row 7a): they must be discarded (罚张).
    ExposingOwnTiles {
        /// The exposed tiles.
        tiles: Vec<Tile>,
    },
    /// Laying one's hand down when another player declares 和 (row 7b).
    LayingDownHand {
        /// Whether the other player's 和 stood.
        declared_win_valid: bool,
        /// The exposed tiles.
        tiles: Vec<Tile>,
    },
    /// Exposing another player's tiles (row 7c): graded points paid to that player.
    ExposingOthersTiles {
        /// The player whose tiles were exposed.
        victim: Seat,
        /// The referee's amount (graded range of the ruleset, 5–60).
        points: i64,
    },
    /// Naming a discard aloud (row 8): graded points deducted.
    NamingDiscard {
        /// The referee's amount.
        points: i64,
    },
    /// A wrongly named discard that led another player into a false declaration (row 8): the
    /// misnamer pays what the misled player would have paid, and the misled player is not
    /// sanctioned. (Naming the discard at all may be ruled separately as
    /// [`Infraction::NamingDiscard`].)
    MisleadingDiscardName {
        /// The player who declared 和 because of the wrong name.
        misled: Seat,
        /// What the declaration was (not [`FalseDeclaration::DeliberateFalseWin`]).
        misled_into: FalseDeclaration,
    },
    /// 相公: too many or too few tiles (row 9): no right to win.
    WrongTileCount,
    /// Signals, hints or expressions to other players (row 10).
    IllegalSignals(SignalSanction),
    /// Serious, persistent disturbance of the game (row 11): disqualification.
    SeriousDisturbance,
    /// Arriving late at a session (§13): settled on the session total, not in a hand.
    LateArrival {
        /// Whole minutes late, rounded up.
        minutes: i64,
    },
}

impl Infraction {
    /// The kind, without details.
    pub const fn kind(&self) -> InfractionKind {
        match self {
            Infraction::Cheating => InfractionKind::Cheating,
            Infraction::WrongChow => InfractionKind::WrongChow,
            Infraction::WrongPung => InfractionKind::WrongPung,
            Infraction::WrongKong => InfractionKind::WrongKong,
            Infraction::EmptyChow => InfractionKind::EmptyChow,
            Infraction::EmptyPung => InfractionKind::EmptyPung,
            Infraction::EmptyKong => InfractionKind::EmptyKong,
            Infraction::EarlyDraw => InfractionKind::EarlyDraw,
            Infraction::LatePung => InfractionKind::LatePung,
            Infraction::FalseWin => InfractionKind::FalseWin,
            Infraction::WrongWinningTile => InfractionKind::WrongWinningTile,
            Infraction::NotReadyWin => InfractionKind::NotReadyWin,
            Infraction::DeliberateFalseWin => InfractionKind::DeliberateFalseWin,
            Infraction::ExposingOwnTiles { .. } => InfractionKind::ExposingOwnTiles,
            Infraction::LayingDownHand { .. } => InfractionKind::LayingDownHand,
            Infraction::ExposingOthersTiles { .. } => InfractionKind::ExposingOthersTiles,
            Infraction::NamingDiscard { .. } => InfractionKind::NamingDiscard,
            Infraction::MisleadingDiscardName { .. } => InfractionKind::MisleadingDiscardName,
            Infraction::WrongTileCount => InfractionKind::WrongTileCount,
            Infraction::IllegalSignals(_) => InfractionKind::IllegalSignals,
            Infraction::SeriousDisturbance => InfractionKind::SeriousDisturbance,
            Infraction::LateArrival { .. } => InfractionKind::LateArrival,
        }
    }
}

/// An infraction committed by one seat.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Offence {
    /// Who committed it.
    pub offender: Seat,
    /// What it was.
    pub infraction: Infraction,
}
