//! Every enum and scalar of the contract mapped to the domain and back: tiles, winds,
//! rulesets, views, melds and claims, fans and outcomes, seats, infractions, verdicts, and
//! the saturating conversions of points and counts. An unknown or unspecified number
//! becomes a violation at the path given.

use mcr::adjudication::WinVerdict;
use mcr::penalty::{FalseDeclaration, InfractionKind};
use mcr::play::{Consequence, NextPhase, ReplayEnd};
use mcr::ruleset::{
    AddedKongTile, LastDiscardClaims, NineGatesTerminalPungs, StandardPointTies, StandardPoints,
    ThreeKongsRule, WallRule,
};
use mcr::settlement::WinSource;
use mcr::standings::Rational;
use mcr::violation::FieldPath;
use mcr::{
    Claim, ElementKind, Fan, MeldKind, Outcome, RulesetId, Seat, Shape, Tile, Violation,
    ViolationCode, Wind,
};

use crate::api::pb;
use crate::assessment::Detail;
use crate::limits::Shown;

/// The tile with this proto number (1..=34), if any.
pub fn tile_from_pb(number: i32) -> Option<Tile> {
    let index = number.checked_sub(1)?;
    Tile::from_index(u8::try_from(index).ok()?)
}

/// The proto number of a tile (its dense index plus one).
pub fn tile_to_pb(tile: Tile) -> i32 {
    // A tile index is below 34, so this never falls back.
    i32::try_from(tile.index() + 1).unwrap_or(0)
}

/// A proto tile as a domain tile, or a `TILE_UNKNOWN` violation at `path`.
pub(crate) fn tile_or_violation(number: i32, path: FieldPath) -> Result<Tile, Violation> {
    tile_from_pb(number).ok_or_else(|| {
        let what = if number == pb::Tile::Unspecified as i32 {
            "a tile is required here (TILE_UNSPECIFIED given)".to_owned()
        } else {
            format!("{number} is not a tile number (expected 1..34, TILE_1M..TILE_WHITE)")
        };
        Violation::new(ViolationCode::TileUnknown, path, what)
    })
}

pub(crate) fn value_invalid(path: FieldPath, message: String) -> Violation {
    Violation::new(ViolationCode::ValueInvalid, path, message)
}

/// A proto wind; unspecified is East.
pub fn wind_from_pb(number: i32, path: FieldPath) -> Result<Wind, Violation> {
    match pb::Wind::try_from(number) {
        Ok(pb::Wind::Unspecified | pb::Wind::East) => Ok(Wind::East),
        Ok(pb::Wind::South) => Ok(Wind::South),
        Ok(pb::Wind::West) => Ok(Wind::West),
        Ok(pb::Wind::North) => Ok(Wind::North),
        Err(_) => Err(value_invalid(
            path,
            format!("{number} is not a wind (expected WIND_EAST..WIND_NORTH)"),
        )),
    }
}

/// A domain wind as proto.
pub fn wind_to_pb(wind: Wind) -> pb::Wind {
    match wind {
        Wind::East => pb::Wind::East,
        Wind::South => pb::Wind::South,
        Wind::West => pb::Wind::West,
        Wind::North => pb::Wind::North,
    }
}

/// A proto ruleset; unspecified is Chinese Official 1998.
pub fn ruleset_from_pb(number: i32) -> Result<RulesetId, Violation> {
    match pb::Ruleset::try_from(number) {
        Ok(pb::Ruleset::Unspecified | pb::Ruleset::ChineseOfficial1998) => {
            Ok(RulesetId::ChineseOfficial1998)
        }
        Ok(pb::Ruleset::Mil) => Ok(RulesetId::Mil),
        Ok(pb::Ruleset::GreenBook2006) => Ok(RulesetId::GreenBook2006),
        Err(_) => Err(value_invalid(
            FieldPath::of("ruleset"),
            format!(
                "{number} is not a ruleset (expected RULESET_CHINESE_OFFICIAL_1998, RULESET_MIL or RULESET_GREEN_BOOK_2006)"
            ),
        )),
    }
}

/// A domain ruleset as proto.
pub fn ruleset_to_pb(id: RulesetId) -> pb::Ruleset {
    match id {
        RulesetId::ChineseOfficial1998 => pb::Ruleset::ChineseOfficial1998,
        RulesetId::Mil => pb::Ruleset::Mil,
        RulesetId::GreenBook2006 => pb::Ruleset::GreenBook2006,
    }
}

/// The meld kind with this proto number; `None` for unspecified and unknown numbers.
pub fn meld_kind_of(number: i32) -> Option<MeldKind> {
    match pb::MeldKind::try_from(number).ok()? {
        pb::MeldKind::Chow => Some(MeldKind::Chow),
        pb::MeldKind::Pung => Some(MeldKind::Pung),
        pb::MeldKind::Kong => Some(MeldKind::Kong),
        pb::MeldKind::ConcealedKong => Some(MeldKind::ConcealedKong),
        pb::MeldKind::Unspecified => None,
    }
}

/// A proto score view; unspecified is the full sheet.
pub fn view_from_pb(number: i32, path: FieldPath) -> Result<pb::ScoreView, Violation> {
    match pb::ScoreView::try_from(number) {
        Ok(pb::ScoreView::Unspecified | pb::ScoreView::Full) => Ok(pb::ScoreView::Full),
        Ok(pb::ScoreView::Basic) => Ok(pb::ScoreView::Basic),
        Err(_) => Err(value_invalid(
            path,
            format!("{number} is not a score view (expected SCORE_VIEW_BASIC or SCORE_VIEW_FULL)"),
        )),
    }
}

/// A proto meld kind; unspecified is a violation.
pub fn meld_kind_from_pb(number: i32, path: FieldPath) -> Result<MeldKind, Violation> {
    meld_kind_of(number).ok_or_else(|| {
        value_invalid(
            path,
            if number == pb::MeldKind::Unspecified as i32 {
                "the meld kind is required (MELD_KIND_UNSPECIFIED given)".to_owned()
            } else {
                format!(
                    "{number} is not a meld kind (expected MELD_KIND_CHOW..MELD_KIND_CONCEALED_KONG)"
                )
            },
        )
    })
}

/// A domain meld kind as proto.
pub fn meld_kind_to_pb(kind: MeldKind) -> pb::MeldKind {
    match kind {
        MeldKind::Chow => pb::MeldKind::Chow,
        MeldKind::Pung => pb::MeldKind::Pung,
        MeldKind::Kong => pb::MeldKind::Kong,
        MeldKind::ConcealedKong => pb::MeldKind::ConcealedKong,
    }
}

/// The claim source with this proto number (`None`: not stated); the number back when it
/// is unknown.
pub fn claim_of(number: i32) -> Result<Option<Claim>, i32> {
    match pb::ClaimSource::try_from(number).map_err(|_| number)? {
        pb::ClaimSource::Unspecified => Ok(None),
        pb::ClaimSource::Left => Ok(Some(Claim::Left)),
        pb::ClaimSource::Opposite => Ok(Some(Claim::Opposite)),
        pb::ClaimSource::Right => Ok(Some(Claim::Right)),
    }
}

/// A proto claim source; unspecified is "not stated".
pub fn claim_from_pb(number: i32, path: FieldPath) -> Result<Option<Claim>, Violation> {
    claim_of(number).map_err(|number| {
        value_invalid(
            path,
            format!(
                "{number} is not a claim source (expected CLAIM_SOURCE_LEFT, CLAIM_SOURCE_OPPOSITE or CLAIM_SOURCE_RIGHT)"
            ),
        )
    })
}

/// A domain claim source as proto.
pub fn claim_to_pb(claim: Option<Claim>) -> pb::ClaimSource {
    match claim {
        None => pb::ClaimSource::Unspecified,
        Some(Claim::Left) => pb::ClaimSource::Left,
        Some(Claim::Opposite) => pb::ClaimSource::Opposite,
        Some(Claim::Right) => pb::ClaimSource::Right,
    }
}

/// How much of the score sheet a view shows (unspecified is the full sheet).
pub fn detail_of(view: pb::ScoreView) -> Detail {
    match view {
        pb::ScoreView::Basic => Detail::Totals,
        pb::ScoreView::Unspecified | pb::ScoreView::Full => Detail::Sheet,
    }
}

/// A violation as an answer lists it ([`crate::limits::shown_violations`]), as proto.
pub(crate) fn shown_to_pb(v: Shown<'_>) -> pb::Violation {
    let Shown {
        code,
        field,
        message,
    } = v;
    pb::Violation {
        code: code.as_str().to_owned(),
        field,
        message: message.into_owned(),
    }
}

/// A domain violation as proto, its path written.
pub fn violation_to_pb(v: &Violation) -> pb::Violation {
    let Violation {
        code,
        path,
        message,
    } = v;
    pb::Violation {
        code: code.as_str().to_owned(),
        field: path.to_string(),
        message: message.clone(),
    }
}

/// A domain outcome as proto.
pub fn outcome_to_pb(outcome: Outcome) -> pb::Outcome {
    match outcome {
        Outcome::Win => pb::Outcome::Win,
        Outcome::BelowMinimum => pb::Outcome::BelowMinimum,
        Outcome::NotWinningShape => pb::Outcome::NotWinningShape,
    }
}

/// A fan as proto (the enum number is the fan id).
pub fn fan_to_pb(fan: Fan) -> i32 {
    i32::from(fan.id())
}

/// The fan with this proto number, if any.
pub fn fan_from_pb(number: i32) -> Option<Fan> {
    Fan::from_id(u8::try_from(number).ok()?)
}

/// A domain shape as proto.
pub fn shape_to_pb(shape: Shape) -> pb::Shape {
    match shape {
        Shape::Standard => pb::Shape::Standard,
        Shape::SevenPairs => pb::Shape::SevenPairs,
        Shape::ThirteenOrphans => pb::Shape::ThirteenOrphans,
        Shape::HonorsAndKnitted => pb::Shape::HonorsAndKnitted,
        Shape::KnittedStraight => pb::Shape::KnittedStraight,
    }
}

/// A domain element kind as proto.
pub fn element_kind_to_pb(kind: ElementKind) -> pb::ElementKind {
    match kind {
        ElementKind::Chow => pb::ElementKind::Chow,
        ElementKind::Pung => pb::ElementKind::Pung,
        ElementKind::Kong => pb::ElementKind::Kong,
        ElementKind::Pair => pb::ElementKind::Pair,
        ElementKind::KnittedStraight => pb::ElementKind::KnittedStraight,
        ElementKind::Single => pb::ElementKind::Single,
    }
}

/// The `ErrorInfo` reason of a malformed hand, in a `ScoreHand` status and in a batch's
/// error results alike.
pub const INVALID_HAND: &str = "INVALID_HAND";

/// An `i64` as `int32`, saturating (the domain keeps every figure far inside the range).
pub(crate) fn to_i32(n: i64) -> i32 {
    i32::try_from(n).unwrap_or(if n < 0 { i32::MIN } else { i32::MAX })
}

/// A `usize` or `u32` count as `uint32`, saturating.
pub(crate) fn to_u32(n: impl TryInto<u32>) -> u32 {
    n.try_into().unwrap_or(u32::MAX)
}

/// The seat with this proto number (1 East … 4 North), if any.
pub fn seat_from_pb(number: i32) -> Option<Seat> {
    match pb::Seat::try_from(number) {
        Ok(pb::Seat::East) => Some(Seat::East),
        Ok(pb::Seat::South) => Some(Seat::South),
        Ok(pb::Seat::West) => Some(Seat::West),
        Ok(pb::Seat::North) => Some(Seat::North),
        Ok(pb::Seat::Unspecified) | Err(_) => None,
    }
}

/// A domain seat as proto.
pub fn seat_to_pb(seat: Seat) -> pb::Seat {
    match seat {
        Seat::East => pb::Seat::East,
        Seat::South => pb::Seat::South,
        Seat::West => pb::Seat::West,
        Seat::North => pb::Seat::North,
    }
}

pub(crate) fn seat_number(seat: Option<Seat>) -> i32 {
    seat.map_or(pb::Seat::Unspecified, seat_to_pb) as i32
}

/// A required seat: unspecified or outside the enum is `SEAT_INVALID` at `path`.
pub(crate) fn required_seat(number: i32, path: FieldPath) -> Result<Seat, Violation> {
    seat_from_pb(number).ok_or_else(|| {
        let message = if number == pb::Seat::Unspecified as i32 {
            "a seat is required here (SEAT_UNSPECIFIED given)".to_owned()
        } else {
            format!(
                "{number} is not a seat (expected SEAT_EAST, SEAT_SOUTH, SEAT_WEST or SEAT_NORTH)"
            )
        };
        Violation::new(ViolationCode::SeatInvalid, path, message)
    })
}

/// An optional seat: unspecified is `None`; outside the enum is `SEAT_INVALID` at `path`.
pub(crate) fn optional_seat(number: i32, path: FieldPath) -> Result<Option<Seat>, Violation> {
    if number == pb::Seat::Unspecified as i32 {
        Ok(None)
    } else {
        required_seat(number, path).map(Some)
    }
}

/// A proto infraction as a domain kind; unspecified or unknown is `INFRACTION_UNKNOWN`.
pub fn infraction_kind_from_pb(number: i32, path: FieldPath) -> Result<InfractionKind, Violation> {
    let kind = match pb::Infraction::try_from(number) {
        Ok(pb::Infraction::Cheating) => InfractionKind::Cheating,
        Ok(pb::Infraction::WrongChow) => InfractionKind::WrongChow,
        Ok(pb::Infraction::WrongPung) => InfractionKind::WrongPung,
        Ok(pb::Infraction::WrongKong) => InfractionKind::WrongKong,
        Ok(pb::Infraction::EmptyChow) => InfractionKind::EmptyChow,
        Ok(pb::Infraction::EmptyPung) => InfractionKind::EmptyPung,
        Ok(pb::Infraction::EmptyKong) => InfractionKind::EmptyKong,
        Ok(pb::Infraction::EarlyDraw) => InfractionKind::EarlyDraw,
        Ok(pb::Infraction::LatePung) => InfractionKind::LatePung,
        Ok(pb::Infraction::FalseWin) => InfractionKind::FalseWin,
        Ok(pb::Infraction::WrongWinningTile) => InfractionKind::WrongWinningTile,
        Ok(pb::Infraction::NotReadyWin) => InfractionKind::NotReadyWin,
        Ok(pb::Infraction::DeliberateFalseWin) => InfractionKind::DeliberateFalseWin,
        Ok(pb::Infraction::ExposingOwnTiles) => InfractionKind::ExposingOwnTiles,
        Ok(pb::Infraction::LayingDownHand) => InfractionKind::LayingDownHand,
        Ok(pb::Infraction::ExposingOthersTiles) => InfractionKind::ExposingOthersTiles,
        Ok(pb::Infraction::NamingDiscard) => InfractionKind::NamingDiscard,
        Ok(pb::Infraction::MisleadingDiscardName) => InfractionKind::MisleadingDiscardName,
        Ok(pb::Infraction::WrongTileCount) => InfractionKind::WrongTileCount,
        Ok(pb::Infraction::IllegalSignals) => InfractionKind::IllegalSignals,
        Ok(pb::Infraction::SeriousDisturbance) => InfractionKind::SeriousDisturbance,
        Ok(pb::Infraction::LateArrival) => InfractionKind::LateArrival,
        Ok(pb::Infraction::Unspecified) => {
            return Err(Violation::new(
                ViolationCode::InfractionUnknown,
                path,
                "the infraction is required (INFRACTION_UNSPECIFIED given)".to_owned(),
            ));
        }
        Err(_) => {
            return Err(Violation::new(
                ViolationCode::InfractionUnknown,
                path,
                format!(
                    "{number} is not an infraction (expected INFRACTION_CHEATING..INFRACTION_LATE_ARRIVAL)"
                ),
            ));
        }
    };
    Ok(kind)
}

/// A domain infraction kind as proto.
pub fn infraction_kind_to_pb(kind: InfractionKind) -> pb::Infraction {
    match kind {
        InfractionKind::Cheating => pb::Infraction::Cheating,
        InfractionKind::WrongChow => pb::Infraction::WrongChow,
        InfractionKind::WrongPung => pb::Infraction::WrongPung,
        InfractionKind::WrongKong => pb::Infraction::WrongKong,
        InfractionKind::EmptyChow => pb::Infraction::EmptyChow,
        InfractionKind::EmptyPung => pb::Infraction::EmptyPung,
        InfractionKind::EmptyKong => pb::Infraction::EmptyKong,
        InfractionKind::EarlyDraw => pb::Infraction::EarlyDraw,
        InfractionKind::LatePung => pb::Infraction::LatePung,
        InfractionKind::FalseWin => pb::Infraction::FalseWin,
        InfractionKind::WrongWinningTile => pb::Infraction::WrongWinningTile,
        InfractionKind::NotReadyWin => pb::Infraction::NotReadyWin,
        InfractionKind::DeliberateFalseWin => pb::Infraction::DeliberateFalseWin,
        InfractionKind::ExposingOwnTiles => pb::Infraction::ExposingOwnTiles,
        InfractionKind::LayingDownHand => pb::Infraction::LayingDownHand,
        InfractionKind::ExposingOthersTiles => pb::Infraction::ExposingOthersTiles,
        InfractionKind::NamingDiscard => pb::Infraction::NamingDiscard,
        InfractionKind::MisleadingDiscardName => pb::Infraction::MisleadingDiscardName,
        InfractionKind::WrongTileCount => pb::Infraction::WrongTileCount,
        InfractionKind::IllegalSignals => pb::Infraction::IllegalSignals,
        InfractionKind::SeriousDisturbance => pb::Infraction::SeriousDisturbance,
        InfractionKind::LateArrival => pb::Infraction::LateArrival,
    }
}

/// A proto false declaration; unspecified or unknown is `VALUE_INVALID` at `path`.
pub fn false_declaration_from_pb(
    number: i32,
    path: FieldPath,
) -> Result<FalseDeclaration, Violation> {
    match pb::FalseDeclaration::try_from(number) {
        Ok(pb::FalseDeclaration::FalseWin) => Ok(FalseDeclaration::FalseWin),
        Ok(pb::FalseDeclaration::WrongWinningTile) => Ok(FalseDeclaration::WrongWinningTile),
        Ok(pb::FalseDeclaration::NotReadyWin) => Ok(FalseDeclaration::NotReadyWin),
        Ok(pb::FalseDeclaration::DeliberateFalseWin) => Ok(FalseDeclaration::DeliberateFalseWin),
        Ok(pb::FalseDeclaration::Unspecified) => Err(Violation::new(
            ViolationCode::ValueInvalid,
            path,
            "the false declaration is required (FALSE_DECLARATION_UNSPECIFIED given)".to_owned(),
        )),
        Err(_) => Err(Violation::new(
            ViolationCode::ValueInvalid,
            path,
            format!(
                "{number} is not a false declaration (expected FALSE_DECLARATION_FALSE_WIN..FALSE_DECLARATION_DELIBERATE_FALSE_WIN)"
            ),
        )),
    }
}

/// A domain false declaration as proto.
pub fn false_declaration_to_pb(kind: FalseDeclaration) -> pb::FalseDeclaration {
    match kind {
        FalseDeclaration::FalseWin => pb::FalseDeclaration::FalseWin,
        FalseDeclaration::WrongWinningTile => pb::FalseDeclaration::WrongWinningTile,
        FalseDeclaration::NotReadyWin => pb::FalseDeclaration::NotReadyWin,
        FalseDeclaration::DeliberateFalseWin => pb::FalseDeclaration::DeliberateFalseWin,
    }
}

pub(crate) fn win_source_to_pb(source: WinSource) -> (pb::WinSource, Option<Seat>) {
    match source {
        WinSource::SelfDrawn => (pb::WinSource::SelfDrawn, None),
        WinSource::Discard { discarder } => (pb::WinSource::Discard, Some(discarder)),
        WinSource::RobbingKong { robbed } => (pb::WinSource::RobbingKong, Some(robbed)),
    }
}

pub(crate) fn verdict_to_pb(verdict: WinVerdict) -> pb::WinVerdict {
    match verdict {
        WinVerdict::Valid => pb::WinVerdict::Valid,
        WinVerdict::False(FalseDeclaration::FalseWin) => pb::WinVerdict::FalseWin,
        WinVerdict::False(FalseDeclaration::WrongWinningTile) => pb::WinVerdict::WrongWinningTile,
        WinVerdict::False(FalseDeclaration::NotReadyWin) => pb::WinVerdict::NotReadyWin,
        WinVerdict::False(FalseDeclaration::DeliberateFalseWin) => {
            pb::WinVerdict::DeliberateFalseWin
        }
    }
}

/// A proto standard-points method; unspecified is `None` (the ruleset's).
pub(crate) fn method_from_pb(number: i32) -> Result<Option<StandardPoints>, Violation> {
    match pb::StandardPointsMethod::try_from(number) {
        Ok(pb::StandardPointsMethod::Unspecified) => Ok(None),
        Ok(pb::StandardPointsMethod::GroupFormula) => Ok(Some(StandardPoints::GroupFormula)),
        Ok(pb::StandardPointsMethod::Table4210) => Ok(Some(StandardPoints::Table4210)),
        Err(_) => Err(Violation::new(
            ViolationCode::ValueInvalid,
            FieldPath::of("standard_points_method"),
            format!(
                "{number} is not a standard-points method (expected STANDARD_POINTS_METHOD_GROUP_FORMULA or STANDARD_POINTS_METHOD_TABLE_4210)"
            ),
        )),
    }
}

pub(crate) fn method_to_pb(method: StandardPoints) -> pb::StandardPointsMethod {
    match method {
        StandardPoints::GroupFormula => pb::StandardPointsMethod::GroupFormula,
        StandardPoints::Table4210 => pb::StandardPointsMethod::Table4210,
    }
}

/// An exact fraction as proto.
pub fn fraction_to_pb(r: Rational) -> pb::Fraction {
    pb::Fraction {
        numerator: to_i32(r.numer()),
        denominator: to_i32(r.denom()),
    }
}

/// The house rules' `three_kongs` switch (`None`: unset, unspecified or outside the enum).
pub fn three_kongs_of(number: i32) -> Option<ThreeKongsRule> {
    match pb::ThreeKongsRule::try_from(number).ok()? {
        pb::ThreeKongsRule::Unspecified => None,
        pb::ThreeKongsRule::FamilyOfEach => Some(ThreeKongsRule::FamilyOfEach),
        pb::ThreeKongsRule::ConcealedKongAdds => Some(ThreeKongsRule::ConcealedKongAdds),
    }
}

/// The house rules' `nine_gates_terminal_pungs` switch (`None`: unset, unspecified or outside the enum).
pub fn nine_gates_terminal_pungs_of(number: i32) -> Option<NineGatesTerminalPungs> {
    match pb::NineGatesTerminalPungs::try_from(number).ok()? {
        pb::NineGatesTerminalPungs::Unspecified => None,
        pb::NineGatesTerminalPungs::OneFewer => Some(NineGatesTerminalPungs::OneFewer),
        pb::NineGatesTerminalPungs::None => Some(NineGatesTerminalPungs::None),
    }
}

/// The house rules' `standard_point_ties` switch (`None`: unset, unspecified or outside the enum).
pub fn standard_point_ties_of(number: i32) -> Option<StandardPointTies> {
    match pb::StandardPointTies::try_from(number).ok()? {
        pb::StandardPointTies::Unspecified => None,
        pb::StandardPointTies::SharePlaces => Some(StandardPointTies::SharePlaces),
        pb::StandardPointTies::SamePlace => Some(StandardPointTies::SamePlace),
    }
}

/// The house rules' `wall` switch (`None`: unset, unspecified or outside the enum).
pub fn wall_of(number: i32) -> Option<WallRule> {
    match pb::Wall::try_from(number).ok()? {
        pb::Wall::Unspecified => None,
        pb::Wall::Shared136 => Some(WallRule::Shared136),
        pb::Wall::Shared144 => Some(WallRule::Shared144),
        pb::Wall::Botzone => Some(WallRule::Botzone),
    }
}

/// The house rules' `last_discard_claims` switch (`None`: unset, unspecified or outside the enum).
pub fn last_discard_claims_of(number: i32) -> Option<LastDiscardClaims> {
    match pb::LastDiscardClaims::try_from(number).ok()? {
        pb::LastDiscardClaims::Unspecified => None,
        pb::LastDiscardClaims::WinsOnly => Some(LastDiscardClaims::WinsOnly),
        pb::LastDiscardClaims::All => Some(LastDiscardClaims::All),
    }
}

/// The house rules' `added_kong_tile` switch (`None`: unset, unspecified or outside the enum).
pub fn added_kong_tile_of(number: i32) -> Option<AddedKongTile> {
    match pb::AddedKongTile::try_from(number).ok()? {
        pb::AddedKongTile::Unspecified => None,
        pb::AddedKongTile::JustDrawn => Some(AddedKongTile::JustDrawn),
        pb::AddedKongTile::AnyHeld => Some(AddedKongTile::AnyHeld),
    }
}

/// The consequence of a play finding.
pub fn consequence_to_pb(c: Consequence) -> pb::Consequence {
    match c {
        Consequence::Noted => pb::Consequence::Noted,
        Consequence::Corrected => pb::Consequence::Corrected,
        Consequence::Void => pb::Consequence::Void,
        Consequence::LosesRightToWin => pb::Consequence::LosesRightToWin,
        Consequence::Stops => pb::Consequence::Stops,
    }
}

/// How a replayed hand ended.
pub fn replay_outcome_to_pb(end: &ReplayEnd) -> pb::ReplayOutcome {
    match end {
        ReplayEnd::Win(_) => pb::ReplayOutcome::Win,
        ReplayEnd::DrawGame => pb::ReplayOutcome::DrawGame,
        ReplayEnd::NoResult => pb::ReplayOutcome::NoResult,
    }
}

/// The moment of a hand in progress.
pub fn next_phase_to_pb(phase: NextPhase) -> pb::NextPhase {
    match phase {
        NextPhase::Draw => pb::NextPhase::Draw,
        NextPhase::Act => pb::NextPhase::Act,
        NextPhase::Claim => pb::NextPhase::Claim,
        NextPhase::Over => pb::NextPhase::Over,
    }
}
