//! Accounting over the `mahjong.v1` contract (`accounting.proto`): settling a hand
//! ([`settle_hand`]), ruling penalties and judging declared wins ([`adjudicate_penalty`]),
//! and session standings ([`compute_standings`]).
//!
//! Proto → domain collects *every* violation, with the request's field paths
//! (`penalties[2].offender`, `winning_hand.hand.melds[0].tiles[1]`, `players[1].sessions[0].late_minutes`):
//!
//! - seats unspecified where required, or outside the enum: `SEAT_INVALID`;
//! - infractions unspecified or outside the enum: `INFRACTION_UNKNOWN`;
//! - other enums outside their range, or unspecified where required: `VALUE_INVALID`;
//! - negative counts and amounts: `VALUE_NEGATIVE`;
//! - details given to an infraction that does not use them, a seat given where none
//!   belongs: `CONTEXT_CONFLICT`;
//! - then the domain's own checks ([`mcr::settle`], [`mcr::penalty::adjudicate`],
//!   [`mcr::judge_declared_win`], [`mcr::standings`]), run on whatever converted, so that a
//!   bad seat in one place does not hide a bad amount in another.
//!
//! Every prost struct is destructured exhaustively and every domain enum is matched without
//! a wildcard, so a new field or variant is a compile error here until it is handled.
//!
//! Domain → proto: points are `int32` (proto3 JSON writes 64-bit integers as strings); the
//! domain bounds every figure far below that range, and conversions saturate regardless.

use mcr::adjudication::{ClaimResolution, WinVerdict};
use mcr::penalty::{
    FalseDeclaration, Infraction, InfractionKind, Offence, Ruling, Sanction, SignalSanction,
};
use mcr::ruleset::StandardPoints;
use mcr::settlement::{
    Declaration, HandEnd, HandRecord, HandResult, Line, LineKind, Payments, WinSource, WinValue,
};
use mcr::standings::{
    Rational, SessionResult, SessionScore, Standing, group_standard_points, rank_players,
    session_score, standard_points,
};
use mcr::{
    HandInput, Ruleset, RulesetId, Seat, Tile, Violation, ViolationCode, WinContext, WinMethod,
};

use super::convert;
use super::json::{self, JsonError};
use super::pb;
use crate::referee;

// ---------------------------------------------------------------------------------------------
// Small helpers

/// Collects violations while a request is converted.
#[derive(Debug, Default)]
struct Violations(Vec<Violation>);

impl Violations {
    fn push(&mut self, code: ViolationCode, field: impl Into<String>, message: impl Into<String>) {
        self.0
            .push(Violation::new(code, field.into(), message.into()));
    }

    /// The value of `result`, or `None` after recording its violation.
    fn take<T>(&mut self, result: Result<T, Violation>) -> Option<T> {
        result.map_err(|v| self.0.push(v)).ok()
    }
}

/// An `i64` as `int32`, saturating (the domain keeps every figure far inside the range).
fn to_i32(n: i64) -> i32 {
    i32::try_from(n).unwrap_or(if n < 0 { i32::MIN } else { i32::MAX })
}

/// A `usize` or `u32` count as `uint32`, saturating.
fn to_u32(n: impl TryInto<u32>) -> u32 {
    n.try_into().unwrap_or(u32::MAX)
}

/// Prefixes a violation's field with `prefix.`.
fn prefixed(prefix: &str, mut v: Violation) -> Violation {
    v.field = format!("{prefix}.{}", v.field);
    v
}

// ---------------------------------------------------------------------------------------------
// Seats

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

fn seat_number(seat: Option<Seat>) -> i32 {
    seat.map_or(pb::Seat::Unspecified, seat_to_pb) as i32
}

/// A required seat: unspecified or outside the enum is `SEAT_INVALID` at `field`.
fn required_seat(number: i32, field: &str) -> Result<Seat, Violation> {
    seat_from_pb(number).ok_or_else(|| {
        let message = if number == pb::Seat::Unspecified as i32 {
            "a seat is required here (SEAT_UNSPECIFIED given)".to_owned()
        } else {
            format!(
                "{number} is not a seat (expected SEAT_EAST, SEAT_SOUTH, SEAT_WEST or SEAT_NORTH)"
            )
        };
        Violation::new(ViolationCode::SeatInvalid, field.to_owned(), message)
    })
}

/// An optional seat: unspecified is `None`; outside the enum is `SEAT_INVALID` at `field`.
fn optional_seat(number: i32, field: &str) -> Result<Option<Seat>, Violation> {
    if number == pb::Seat::Unspecified as i32 {
        Ok(None)
    } else {
        required_seat(number, field).map(Some)
    }
}

// ---------------------------------------------------------------------------------------------
// Infractions and offences

/// A proto infraction as a domain kind; unspecified or unknown is `INFRACTION_UNKNOWN`.
pub fn infraction_kind_from_pb(number: i32, field: &str) -> Result<InfractionKind, Violation> {
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
                field.to_owned(),
                "the infraction is required (INFRACTION_UNSPECIFIED given)".to_owned(),
            ));
        }
        Err(_) => {
            return Err(Violation::new(
                ViolationCode::InfractionUnknown,
                field.to_owned(),
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

/// A proto false declaration; unspecified or unknown is `VALUE_INVALID` at `field`.
pub fn false_declaration_from_pb(number: i32, field: &str) -> Result<FalseDeclaration, Violation> {
    match pb::FalseDeclaration::try_from(number) {
        Ok(pb::FalseDeclaration::FalseWin) => Ok(FalseDeclaration::FalseWin),
        Ok(pb::FalseDeclaration::WrongWinningTile) => Ok(FalseDeclaration::WrongWinningTile),
        Ok(pb::FalseDeclaration::NotReadyWin) => Ok(FalseDeclaration::NotReadyWin),
        Ok(pb::FalseDeclaration::DeliberateFalseWin) => Ok(FalseDeclaration::DeliberateFalseWin),
        Ok(pb::FalseDeclaration::Unspecified) => Err(Violation::new(
            ViolationCode::ValueInvalid,
            field.to_owned(),
            "the false declaration is required (FALSE_DECLARATION_UNSPECIFIED given)".to_owned(),
        )),
        Err(_) => Err(Violation::new(
            ViolationCode::ValueInvalid,
            field.to_owned(),
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

/// The details of a `Penalty` message an infraction uses.
#[allow(clippy::struct_excessive_bools)] // one yes/no per detail field
#[derive(Debug, Clone, Copy, Default)]
struct Uses {
    tiles: bool,
    declared_win_valid: bool,
    victim: bool,
    points: bool,
    lose_right_to_win: bool,
    misled: bool,
    late_minutes: bool,
}

impl Uses {
    fn of(kind: InfractionKind) -> Uses {
        let none = Uses::default();
        match kind {
            InfractionKind::Cheating
            | InfractionKind::WrongChow
            | InfractionKind::WrongPung
            | InfractionKind::WrongKong
            | InfractionKind::EmptyChow
            | InfractionKind::EmptyPung
            | InfractionKind::EmptyKong
            | InfractionKind::EarlyDraw
            | InfractionKind::LatePung
            | InfractionKind::FalseWin
            | InfractionKind::WrongWinningTile
            | InfractionKind::NotReadyWin
            | InfractionKind::DeliberateFalseWin
            | InfractionKind::WrongTileCount
            | InfractionKind::SeriousDisturbance => none,
            InfractionKind::ExposingOwnTiles => Uses {
                tiles: true,
                ..none
            },
            InfractionKind::LayingDownHand => Uses {
                tiles: true,
                declared_win_valid: true,
                ..none
            },
            InfractionKind::ExposingOthersTiles => Uses {
                victim: true,
                points: true,
                ..none
            },
            InfractionKind::NamingDiscard => Uses {
                points: true,
                ..none
            },
            InfractionKind::MisleadingDiscardName => Uses {
                misled: true,
                ..none
            },
            InfractionKind::IllegalSignals => Uses {
                points: true,
                lose_right_to_win: true,
                ..none
            },
            InfractionKind::LateArrival => Uses {
                late_minutes: true,
                ..none
            },
        }
    }
}

/// Records a `CONTEXT_CONFLICT` for every detail of `penalty` set although `kind` does not
/// use it.
fn check_unused_details(
    penalty: &pb::Penalty,
    kind: InfractionKind,
    field: &str,
    v: &mut Violations,
) {
    let uses = Uses::of(kind);
    let code = infraction_kind_to_pb(kind).as_str_name();
    let unset = pb::Seat::Unspecified as i32;
    for (used, set, name) in [
        (uses.tiles, !penalty.tiles.is_empty(), "tiles"),
        (
            uses.declared_win_valid,
            penalty.declared_win_valid,
            "declared_win_valid",
        ),
        (uses.victim, penalty.victim != unset, "victim"),
        (uses.points, penalty.points != 0, "points"),
        (
            uses.lose_right_to_win,
            penalty.lose_right_to_win,
            "lose_right_to_win",
        ),
        (uses.misled, penalty.misled != unset, "misled"),
        (
            uses.misled,
            penalty.misled_into != pb::FalseDeclaration::Unspecified as i32,
            "misled_into",
        ),
        (uses.late_minutes, penalty.late_minutes != 0, "late_minutes"),
    ] {
        if set && !used {
            v.push(
                ViolationCode::ContextConflict,
                format!("{field}.{name}"),
                format!("`{name}` does not apply to {code}: leave it unset"),
            );
        }
    }
}

/// Proto tiles at `field` (`penalties[0].tiles`); each unknown one is a `TILE_UNKNOWN`.
fn tiles_from_pb(tiles: &[i32], field: &str, v: &mut Violations) -> Vec<Tile> {
    let mut out = Vec::with_capacity(tiles.len());
    for (j, &t) in tiles.iter().enumerate() {
        if let Some(t) = convert::tile_from_pb(t) {
            out.push(t);
        } else {
            v.push(
                ViolationCode::TileUnknown,
                format!("{field}[{j}]"),
                format!("{t} is not a tile (expected TILE_1M..TILE_WHITE)"),
            );
        }
    }
    out
}

/// Converts a proto penalty at `field` (`penalties[2]`), recording every violation.
fn offence_from_pb(
    penalty: &pb::Penalty,
    field: &str,
    rules: &Ruleset,
    v: &mut Violations,
) -> Option<Offence> {
    let pb::Penalty {
        offender,
        infraction,
        tiles,
        declared_win_valid,
        victim,
        points,
        lose_right_to_win,
        misled,
        misled_into,
        late_minutes,
    } = penalty;
    let offender = v.take(required_seat(*offender, &format!("{field}.offender")));
    let kind = v.take(infraction_kind_from_pb(
        *infraction,
        &format!("{field}.infraction"),
    ))?;
    let uses = Uses::of(kind);
    check_unused_details(penalty, kind, field, v);
    let tiles_before = v.0.len();
    let decoded_tiles = if uses.tiles {
        tiles_from_pb(tiles, &format!("{field}.tiles"), v)
    } else {
        Vec::new()
    };
    let tiles_ok = v.0.len() == tiles_before;
    let points = i64::from(*points);
    let infraction = match kind {
        InfractionKind::Cheating => Infraction::Cheating,
        InfractionKind::WrongChow => Infraction::WrongChow,
        InfractionKind::WrongPung => Infraction::WrongPung,
        InfractionKind::WrongKong => Infraction::WrongKong,
        InfractionKind::EmptyChow => Infraction::EmptyChow,
        InfractionKind::EmptyPung => Infraction::EmptyPung,
        InfractionKind::EmptyKong => Infraction::EmptyKong,
        InfractionKind::EarlyDraw => Infraction::EarlyDraw,
        InfractionKind::LatePung => Infraction::LatePung,
        InfractionKind::FalseWin => Infraction::FalseWin,
        InfractionKind::WrongWinningTile => Infraction::WrongWinningTile,
        InfractionKind::NotReadyWin => Infraction::NotReadyWin,
        InfractionKind::DeliberateFalseWin => Infraction::DeliberateFalseWin,
        InfractionKind::WrongTileCount => Infraction::WrongTileCount,
        InfractionKind::SeriousDisturbance => Infraction::SeriousDisturbance,
        InfractionKind::ExposingOwnTiles => Infraction::ExposingOwnTiles {
            tiles: decoded_tiles,
        },
        InfractionKind::LayingDownHand => Infraction::LayingDownHand {
            declared_win_valid: *declared_win_valid,
            tiles: decoded_tiles,
        },
        InfractionKind::ExposingOthersTiles => Infraction::ExposingOthersTiles {
            victim: v.take(required_seat(*victim, &format!("{field}.victim")))?,
            points,
        },
        InfractionKind::NamingDiscard => Infraction::NamingDiscard { points },
        InfractionKind::MisleadingDiscardName => {
            let misled = v.take(required_seat(*misled, &format!("{field}.misled")));
            let misled_into = v.take(false_declaration_from_pb(
                *misled_into,
                &format!("{field}.misled_into"),
            ));
            Infraction::MisleadingDiscardName {
                misled: misled?,
                misled_into: misled_into?,
            }
        }
        InfractionKind::IllegalSignals => {
            if *lose_right_to_win {
                if points != 0 {
                    v.push(
                        ViolationCode::ContextConflict,
                        format!("{field}.points"),
                        "illegal signals are sanctioned with points or with the loss of the right to win (lose_right_to_win), not both",
                    );
                }
                Infraction::IllegalSignals(SignalSanction::LoseRightToWin)
            } else {
                Infraction::IllegalSignals(SignalSanction::Points(points))
            }
        }
        InfractionKind::LateArrival => Infraction::LateArrival {
            minutes: i64::from(*late_minutes),
        },
    };
    if !tiles_ok {
        return None;
    }
    if let Some(offender) = offender {
        return Some(Offence {
            offender,
            infraction,
        });
    }
    check_without_offender(infraction, field, rules, v);
    None
}

/// Checks the details of an infraction whose offender is unknown (already reported), with a
/// stand-in offender they cannot conflict with.
fn check_without_offender(
    infraction: Infraction,
    field: &str,
    rules: &Ruleset,
    v: &mut Violations,
) {
    let taken = if let Infraction::ExposingOthersTiles { victim, .. } = &infraction {
        Some(*victim)
    } else if let Infraction::MisleadingDiscardName { misled, .. } = &infraction {
        Some(*misled)
    } else {
        None
    };
    let stand_in = Seat::ALL
        .into_iter()
        .find(|&s| Some(s) != taken)
        .unwrap_or(Seat::East);
    let offence = Offence {
        offender: stand_in,
        infraction,
    };
    if let Err(errors) = mcr::penalty::rule(&offence, 1, rules) {
        v.0.extend(errors.into_iter().map(|mut e| {
            let nested = match e.field.strip_prefix("offence") {
                Some(rest) => format!("{field}{rest}"),
                None => e.field,
            };
            e.field = offence_path(&nested);
            e
        }));
    }
}

/// A domain offence as a proto penalty.
pub fn offence_to_pb(offence: &Offence) -> pb::Penalty {
    let Offence {
        offender,
        infraction,
    } = offence;
    let mut p = pb::Penalty {
        offender: seat_to_pb(*offender) as i32,
        infraction: infraction_kind_to_pb(infraction.kind()) as i32,
        ..pb::Penalty::default()
    };
    let tiles = |tiles: &[Tile]| tiles.iter().map(|&t| convert::tile_to_pb(t)).collect();
    match infraction {
        Infraction::Cheating
        | Infraction::WrongChow
        | Infraction::WrongPung
        | Infraction::WrongKong
        | Infraction::EmptyChow
        | Infraction::EmptyPung
        | Infraction::EmptyKong
        | Infraction::EarlyDraw
        | Infraction::LatePung
        | Infraction::FalseWin
        | Infraction::WrongWinningTile
        | Infraction::NotReadyWin
        | Infraction::DeliberateFalseWin
        | Infraction::WrongTileCount
        | Infraction::SeriousDisturbance => {}
        Infraction::ExposingOwnTiles { tiles: t } => p.tiles = tiles(t),
        Infraction::LayingDownHand {
            declared_win_valid,
            tiles: t,
        } => {
            p.declared_win_valid = *declared_win_valid;
            p.tiles = tiles(t);
        }
        Infraction::ExposingOthersTiles { victim, points } => {
            p.victim = seat_to_pb(*victim) as i32;
            p.points = to_i32(*points);
        }
        Infraction::NamingDiscard { points }
        | Infraction::IllegalSignals(SignalSanction::Points(points)) => p.points = to_i32(*points),
        Infraction::MisleadingDiscardName {
            misled,
            misled_into,
        } => {
            p.misled = seat_to_pb(*misled) as i32;
            p.misled_into = false_declaration_to_pb(*misled_into) as i32;
        }
        Infraction::IllegalSignals(SignalSanction::LoseRightToWin) => p.lose_right_to_win = true,
        Infraction::LateArrival { minutes } => p.late_minutes = to_i32(*minutes),
    }
    p
}

/// The proto path of a domain violation about an offence: the domain nests the details
/// under `infraction` (`penalties[1].infraction.points`), the proto message has them flat
/// (`penalties[1].points`); the domain's `minutes` is `late_minutes`.
fn offence_path(field: &str) -> String {
    match field.split_once(".infraction.") {
        Some((head, detail)) => {
            let detail = match detail {
                "minutes" => "late_minutes",
                other => other,
            };
            format!("{head}.{detail}")
        }
        None => field.to_owned(),
    }
}

// ---------------------------------------------------------------------------------------------
// Rulings, sanctions, payments: domain → proto

/// A domain sanction as proto; `graded` marks points the referee fixed.
fn sanction_to_pb(sanction: &Sanction, graded: bool) -> pb::Sanction {
    let mut s = pb::Sanction::default();
    let kind = match sanction {
        Sanction::Warning => pb::SanctionKind::Warning,
        Sanction::Deduction(points) => {
            s.points = to_i32(*points);
            s.referee_graded = graded;
            pb::SanctionKind::Deduction
        }
        Sanction::PayEachOther(points) => {
            s.points = to_i32(*points);
            pb::SanctionKind::PayEachOther
        }
        Sanction::PayTo { seat, points } => {
            s.points = to_i32(*points);
            s.seat = seat_to_pb(*seat) as i32;
            s.referee_graded = graded;
            pb::SanctionKind::PayTo
        }
        Sanction::LoseRightToWin => pb::SanctionKind::LoseRightToWin,
        Sanction::DiscardExposedTiles(tiles) => {
            s.tiles = tiles.iter().map(|&t| convert::tile_to_pb(t)).collect();
            pb::SanctionKind::DiscardExposedTiles
        }
        Sanction::Disqualification => pb::SanctionKind::Disqualification,
        Sanction::SessionDeduction(points) => {
            s.points = to_i32(*points);
            pb::SanctionKind::SessionDeduction
        }
        Sanction::Forfeit => pb::SanctionKind::Forfeit,
    };
    s.kind = kind as i32;
    s
}

/// Whether the points of an infraction are graded by the referee (rows 7c, 8, 10).
fn referee_graded(infraction: &Infraction) -> bool {
    match infraction {
        Infraction::ExposingOthersTiles { .. }
        | Infraction::NamingDiscard { .. }
        | Infraction::IllegalSignals(_) => true,
        Infraction::Cheating
        | Infraction::WrongChow
        | Infraction::WrongPung
        | Infraction::WrongKong
        | Infraction::EmptyChow
        | Infraction::EmptyPung
        | Infraction::EmptyKong
        | Infraction::EarlyDraw
        | Infraction::LatePung
        | Infraction::FalseWin
        | Infraction::WrongWinningTile
        | Infraction::NotReadyWin
        | Infraction::DeliberateFalseWin
        | Infraction::ExposingOwnTiles { .. }
        | Infraction::LayingDownHand { .. }
        | Infraction::MisleadingDiscardName { .. }
        | Infraction::WrongTileCount
        | Infraction::SeriousDisturbance
        | Infraction::LateArrival { .. } => false,
    }
}

/// A domain ruling as proto.
pub fn ruling_to_pb(ruling: &Ruling) -> pb::Ruling {
    let Ruling {
        offender,
        infraction,
        occurrence,
        sanctions,
    } = ruling;
    let kind = infraction.kind();
    let graded = referee_graded(infraction);
    pb::Ruling {
        offence: Some(offence_to_pb(&Offence {
            offender: *offender,
            infraction: infraction.clone(),
        })),
        infraction_name_zh: kind.name_zh().to_owned(),
        infraction_name_en: kind.name_en().to_owned(),
        occurrence: *occurrence,
        sanctions: sanctions
            .iter()
            .map(|s| sanction_to_pb(s, graded))
            .collect(),
    }
}

/// A payment line as proto.
fn line_to_pb(line: &Line) -> pb::PaymentLine {
    let Line {
        kind,
        amount,
        counterparty,
    } = line;
    let (kind, infraction) = match kind {
        LineKind::Base => (pb::LineKind::Base, pb::Infraction::Unspecified),
        LineKind::FanPoints => (pb::LineKind::FanPoints, pb::Infraction::Unspecified),
        LineKind::Penalty(k) => (pb::LineKind::Penalty, infraction_kind_to_pb(*k)),
    };
    pb::PaymentLine {
        kind: kind as i32,
        infraction: infraction as i32,
        amount: to_i32(*amount),
        counterparty: seat_number(*counterparty),
    }
}

/// The four seats' accounts of `payments`, in turn order.
pub fn accounts_to_pb(payments: &Payments) -> Vec<pb::SeatAccount> {
    let deltas = payments.deltas();
    Seat::ALL
        .into_iter()
        .map(|seat| pb::SeatAccount {
            seat: seat_to_pb(seat) as i32,
            lines: payments.lines[seat].iter().map(line_to_pb).collect(),
            delta: to_i32(deltas[seat]),
        })
        .collect()
}

fn win_source_to_pb(source: WinSource) -> (pb::WinSource, Option<Seat>) {
    match source {
        WinSource::SelfDrawn => (pb::WinSource::SelfDrawn, None),
        WinSource::Discard { discarder } => (pb::WinSource::Discard, Some(discarder)),
        WinSource::RobbingKong { robbed } => (pb::WinSource::RobbingKong, Some(robbed)),
    }
}

fn hand_result_to_pb(result: &HandResult) -> pb::HandResult {
    match *result {
        HandResult::Win {
            winner,
            source,
            basic_points,
        } => {
            let (source, payer) = win_source_to_pb(source);
            pb::HandResult {
                outcome: pb::HandOutcome::Win as i32,
                declarer: seat_to_pb(winner) as i32,
                source: source as i32,
                payer: seat_number(payer),
                basic_points: to_i32(basic_points),
                false_declaration: pb::FalseDeclaration::Unspecified as i32,
            }
        }
        HandResult::FalseDeclaration { declarer, kind } => pb::HandResult {
            outcome: pb::HandOutcome::FalseDeclaration as i32,
            declarer: seat_to_pb(declarer) as i32,
            false_declaration: false_declaration_to_pb(kind) as i32,
            ..pb::HandResult::default()
        },
        HandResult::DrawGame => pb::HandResult {
            outcome: pb::HandOutcome::DrawGame as i32,
            ..pb::HandResult::default()
        },
    }
}

fn claim_resolution_to_pb(r: &ClaimResolution) -> pb::ClaimResolution {
    let ClaimResolution {
        winner,
        intercepted,
    } = r;
    pb::ClaimResolution {
        winner: seat_to_pb(*winner) as i32,
        intercepted: intercepted.iter().map(|&s| seat_to_pb(s) as i32).collect(),
    }
}

fn verdict_to_pb(verdict: WinVerdict) -> pb::WinVerdict {
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

// ---------------------------------------------------------------------------------------------
// Winning hands

/// A winning hand converted: the hand as declared and its context.
struct WinningHand {
    hand: HandInput,
    context: WinContext,
}

/// Converts a proto winning hand at `field` (`winning_hand`). The context's method and
/// robbing-a-kong flag are completed from `source`; an unspecified seat wind is the
/// declarer's, a given one must be the declarer's.
fn winning_hand_from_pb(
    w: &pb::WinningHand,
    field: &str,
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
                format!("{field}.hand_input"),
                "the winning hand is required: set `notation` or `hand`",
            );
            None
        }
        Some(pb::winning_hand::HandInput::Notation(text)) => match referee::parse_notation(text) {
            Ok(h) => Some(h),
            Err(e) => {
                v.0.push(prefixed(field, e));
                None
            }
        },
        Some(pb::winning_hand::HandInput::Hand(h)) => match convert::hand_from_pb(h) {
            Ok(h) => Some(h),
            Err(errors) => {
                v.0.extend(errors.into_iter().map(|e| prefixed(field, e)));
                None
            }
        },
    };
    let mut ctx = match convert::context_from_pb(context.as_ref()) {
        Ok(c) => Some(c),
        Err(errors) => {
            v.0.extend(errors.into_iter().map(|e| prefixed(field, e)));
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
                format!("{field}.context.seat_wind"),
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

/// The proto path of a domain violation about a winning hand or its context, under
/// `prefix` (`winning_hand`): the domain's `context.method` is `context.self_drawn`, its
/// `hand.standing` is `hand.standing_tiles`.
fn winning_hand_path(prefix: &str, field: &str) -> String {
    let field = match field {
        "context.method" => "context.self_drawn".to_owned(),
        other => {
            referee::api_field_path(Violation::new(
                ViolationCode::ValueInvalid,
                other.to_owned(),
                String::new(),
            ))
            .field
        }
    };
    format!("{prefix}.{field}")
}

/// The score sheet of a hand already judged valid by the domain.
fn score_sheet(w: &WinningHand, ruleset: RulesetId) -> pb::ScoreHandResponse {
    let judgement = referee::judge(&w.hand, &w.context, ruleset);
    convert::score_response(
        &judgement,
        convert::ruleset_to_pb(ruleset) as i32,
        pb::ScoreView::Full,
    )
}

// ---------------------------------------------------------------------------------------------
// SettleHand

/// The domain path of a settlement violation, as a request path.
fn settle_path(field: &str) -> String {
    match field {
        "end.declarer" => return "winner".to_owned(),
        "end.source.discarder" | "end.source.robbed" => return "discarder".to_owned(),
        "value" => return "win_value".to_owned(),
        "value.fan" => return "fan_count.fan_total".to_owned(),
        "value.flowers" => return "fan_count.flower_count".to_owned(),
        _ => {}
    }
    if let Some(rest) = field.strip_prefix("value.") {
        return winning_hand_path("winning_hand", rest);
    }
    offence_path(field)
}

/// The ruleset of a request: unknown numbers are a violation, and the default rules stand
/// in so that the rest of the request is still checked.
fn ruleset_of(number: i32, v: &mut Violations) -> RulesetId {
    v.take(convert::ruleset_from_pb(number)).unwrap_or_default()
}

/// How a hand ended, as far as it converted.
#[derive(Debug, Clone, Copy)]
struct Ending {
    /// The end as given; `None` when unspecified or unknown (already reported).
    end: Option<pb::HandEnd>,
    /// The hand ended with a declaration of 和.
    is_win: bool,
    /// Where the winning tile came from; `None` for a draw game or when unknown.
    source: Option<WinSource>,
}

/// Converts how the hand ended, with the winner and discarder fields that go with it.
fn ending_from_pb(end: i32, winner: i32, discarder: i32, v: &mut Violations) -> Ending {
    let end = match pb::HandEnd::try_from(end) {
        Ok(pb::HandEnd::Unspecified) => {
            v.push(
                ViolationCode::ValueInvalid,
                "end",
                "how the hand ended is required (HAND_END_UNSPECIFIED given)",
            );
            None
        }
        Ok(e) => Some(e),
        Err(_) => {
            v.push(
                ViolationCode::ValueInvalid,
                "end",
                format!(
                    "{end} is not a hand end (expected HAND_END_SELF_DRAWN..HAND_END_DRAW_GAME)"
                ),
            );
            None
        }
    };
    let winner_given = winner != pb::Seat::Unspecified as i32;
    let discarder_given = discarder != pb::Seat::Unspecified as i32;
    let discarder = v.take(optional_seat(discarder, "discarder")).flatten();
    let source = match end {
        None | Some(pb::HandEnd::Unspecified) => None,
        Some(pb::HandEnd::DrawGame) => {
            if winner_given {
                v.push(
                    ViolationCode::ContextConflict,
                    "winner",
                    "a draw game (荒牌) has no winner",
                );
            }
            if discarder_given {
                v.push(
                    ViolationCode::ContextConflict,
                    "discarder",
                    "a draw game (荒牌) has no discarder",
                );
            }
            None
        }
        Some(pb::HandEnd::SelfDrawn) => {
            if discarder_given {
                v.push(
                    ViolationCode::ContextConflict,
                    "discarder",
                    "a self-drawn win has no discarder",
                );
            }
            Some(WinSource::SelfDrawn)
        }
        Some(e @ (pb::HandEnd::Discard | pb::HandEnd::RobbingKong)) => {
            if !discarder_given {
                v.push(
                    ViolationCode::SeatInvalid,
                    "discarder",
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
fn declarer_from_pb(
    ending: Ending,
    winner: i32,
    claimants: &[i32],
    v: &mut Violations,
) -> (Option<Seat>, Option<ClaimResolution>) {
    let winner_given = winner != pb::Seat::Unspecified as i32;
    let winner = v.take(optional_seat(winner, "winner")).flatten();
    let mut seats = Vec::with_capacity(claimants.len());
    let mut index = Vec::with_capacity(claimants.len());
    for (i, &c) in claimants.iter().enumerate() {
        if let Some(seat) = v.take(required_seat(c, &format!("claimants[{i}]"))) {
            seats.push(seat);
            index.push(i);
        }
    }
    if claimants.is_empty() {
        if ending.is_win && !winner_given {
            v.push(
                ViolationCode::SeatInvalid,
                "winner",
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
                "claimants",
                "several claims are only resolved on a discard or a robbed kong",
            );
            if ending.is_win && !winner_given {
                v.push(
                    ViolationCode::SeatInvalid,
                    "winner",
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
                    "winner",
                    format!(
                        "{w} is intercepted (截和) or did not claim: {} is the first claimant after {payer}",
                        r.winner
                    ),
                );
            }
            (Some(r.winner), Some(r))
        }
        Err(errors) => {
            v.0.extend(errors.into_iter().map(|mut e| {
                e.field = renumbered(e.field, "claimants", &index);
                e
            }));
            (winner, None)
        }
    }
}

/// The value of a win, and the winning hand when the value is a hand.
fn win_value_from_pb(
    ending: Ending,
    win_value: Option<&pb::settle_hand_request::WinValue>,
    declarer: Option<Seat>,
    v: &mut Violations,
) -> (Option<WinValue>, Option<WinningHand>) {
    match (ending.is_win, win_value) {
        (true, None) => {
            v.push(
                ViolationCode::WinValueMissing,
                "win_value",
                "a win needs its value: `fan_count` or `winning_hand`",
            );
            (None, None)
        }
        (false, None) => (None, None),
        (false, Some(_)) => {
            if ending.end.is_some() {
                v.push(
                    ViolationCode::WinValueForDraw,
                    "win_value",
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
            let hand = winning_hand_from_pb(w, "winning_hand", declarer, ending.source, v);
            let value = hand.as_ref().map(|w| WinValue::Hand {
                hand: w.hand.clone(),
                context: w.context,
            });
            (value, hand)
        }
    }
}

/// Converts a list of proto penalties at `prefix` (`penalties`): the offences that
/// converted, and the request index of each.
fn offences_from_pb(
    penalties: &[pb::Penalty],
    prefix: &str,
    rules: &Ruleset,
    v: &mut Violations,
) -> (Vec<Offence>, Vec<usize>) {
    let mut offences = Vec::with_capacity(penalties.len());
    let mut index = Vec::with_capacity(penalties.len());
    for (i, p) in penalties.iter().enumerate() {
        if let Some(o) = offence_from_pb(p, &format!("{prefix}[{i}]"), rules, v) {
            offences.push(o);
            index.push(i);
        }
    }
    (offences, index)
}

/// A path `{prefix}[k]…` of the k-th converted offence, as the request index `index[k]`.
fn renumbered(field: String, prefix: &str, index: &[usize]) -> String {
    if let Some(rest) = field.strip_prefix(prefix)
        && let Some(rest) = rest.strip_prefix('[')
        && let Some((k, tail)) = rest.split_once(']')
        && let Ok(k) = k.parse::<usize>()
        && let Some(&i) = index.get(k)
    {
        return format!("{prefix}[{i}]{tail}");
    }
    field
}

/// Settles one hand: the `SettleHand` call. Every violation of the request is reported.
pub fn settle_hand(
    request: &pb::SettleHandRequest,
) -> Result<pb::SettleHandResponse, Vec<Violation>> {
    let pb::SettleHandRequest {
        end,
        winner,
        discarder,
        claimants,
        win_value,
        penalties,
        ruleset,
    } = request;
    let mut v = Violations::default();
    let ruleset = ruleset_of(*ruleset, &mut v);
    let ending = ending_from_pb(*end, *winner, *discarder, &mut v);
    let (declarer, resolution) = declarer_from_pb(ending, *winner, claimants, &mut v);
    let (value, hand) = win_value_from_pb(ending, win_value.as_ref(), declarer, &mut v);
    let (offences, index) = offences_from_pb(penalties, "penalties", Ruleset::get(ruleset), &mut v);

    // The domain settles what converted; where a part did not, a stand-in that raises no
    // violation of its own takes its place, so that the rest is still checked.
    let converted = v.0.is_empty();
    let record_end = match (ending.source, declarer) {
        (Some(source), Some(declarer)) => HandEnd::Win(Declaration { declarer, source }),
        _ => HandEnd::DrawGame,
    };
    let record_value = match record_end {
        HandEnd::DrawGame => {
            if let Some(w) = &hand
                && let Err(errors) = w.hand.validate(&w.context)
            {
                v.0.extend(errors.into_iter().map(|mut e| {
                    e.field = winning_hand_path("winning_hand", &e.field);
                    e
                }));
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
    let settlement = match mcr::settle(&record, Ruleset::get(ruleset)) {
        Ok(s) if converted => s,
        Ok(_) => return Err(v.0),
        Err(errors) => {
            v.0.extend(errors.into_iter().map(|mut e| {
                e.field = renumbered(settle_path(&e.field), "penalties", &index);
                e
            }));
            return Err(v.0);
        }
    };
    Ok(pb::SettleHandResponse {
        result: Some(hand_result_to_pb(&settlement.result)),
        accounts: accounts_to_pb(&settlement.payments),
        rulings: settlement.rulings.iter().map(ruling_to_pb).collect(),
        score_sheet: hand.as_ref().map(|w| score_sheet(w, ruleset)),
        unpaid_penalties: to_i32(settlement.unpaid_penalties),
        unbalanced_by: to_i32(settlement.unbalanced_by),
        claim_resolution: resolution.as_ref().map(claim_resolution_to_pb),
        ruleset: convert::ruleset_to_pb(ruleset) as i32,
    })
}

// ---------------------------------------------------------------------------------------------
// AdjudicatePenalty

/// The explicit occurrence of a single offence; 0 is `None` (count from the list).
fn occurrence_from_pb(occurrence: i32, offences: usize, v: &mut Violations) -> Option<u32> {
    match u32::try_from(occurrence) {
        Err(_) => {
            v.push(
                ViolationCode::ValueNegative,
                "occurrence",
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
                    "occurrence",
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
) -> Result<pb::AdjudicatePenaltyResponse, Vec<Violation>> {
    let pb::AdjudicatePenaltyRequest {
        offences,
        occurrence,
        declared_win,
        ruleset,
    } = request;
    let mut v = Violations::default();
    let ruleset = ruleset_of(*ruleset, &mut v);
    let rules = Ruleset::get(ruleset);
    match (offences.is_empty(), declared_win) {
        (true, None) => v.push(
            ViolationCode::ValueInvalid,
            "offences",
            "give the offences to rule or the declared win to judge",
        ),
        (false, Some(_)) => v.push(
            ViolationCode::ContextConflict,
            "declared_win",
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
        v.0.extend(errors.into_iter().map(|mut e| {
            // `rule` reports at `offence.…`, `adjudicate` at `offences[k].…`.
            let field = match e.field.strip_prefix("offence.") {
                Some(rest) => format!("offences[0].{rest}"),
                None => e.field,
            };
            e.field = renumbered(offence_path(&field), "offences", &index);
            e
        }));
    })
    .unwrap_or_default();

    let judged = declared_win
        .as_ref()
        .and_then(|d| judge_declared(d, ruleset, rules, &mut v));
    if !v.0.is_empty() {
        return Err(v.0);
    }
    let (judgement, payments) = if let Some((judgement, pb_judgement)) = judged {
        rulings.extend(judgement.ruling.iter().cloned());
        (Some(pb_judgement), judgement.payments)
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
        ruleset: convert::ruleset_to_pb(ruleset) as i32,
    })
}

/// Judges a declared win at `declared_win`, recording every violation.
fn judge_declared(
    d: &pb::DeclaredWin,
    ruleset: RulesetId,
    rules: &Ruleset,
    v: &mut Violations,
) -> Option<(mcr::adjudication::Judgement, pb::WinJudgement)> {
    let pb::DeclaredWin {
        declarer,
        source,
        discarder,
        winning_hand,
    } = d;
    let declarer = v.take(required_seat(*declarer, "declared_win.declarer"));
    let discarder_given = *discarder != pb::Seat::Unspecified as i32;
    let discarder = v
        .take(optional_seat(*discarder, "declared_win.discarder"))
        .flatten();
    let source = match pb::WinSource::try_from(*source) {
        Ok(pb::WinSource::SelfDrawn) => {
            if discarder_given {
                v.push(
                    ViolationCode::ContextConflict,
                    "declared_win.discarder",
                    "a self-drawn tile has no discarder",
                );
            }
            Some(WinSource::SelfDrawn)
        }
        Ok(s @ (pb::WinSource::Discard | pb::WinSource::RobbingKong)) => {
            if !discarder_given {
                v.push(
                    ViolationCode::SeatInvalid,
                    "declared_win.discarder",
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
                "declared_win.source",
                "where the declared tile came from is required (WIN_SOURCE_UNSPECIFIED given)",
            );
            None
        }
        Err(_) => {
            v.push(
                ViolationCode::ValueInvalid,
                "declared_win.source",
                format!("{source} is not a win source (expected WIN_SOURCE_SELF_DRAWN..WIN_SOURCE_ROBBING_KONG)"),
            );
            None
        }
    };
    let hand = match winning_hand {
        None => {
            v.push(
                ViolationCode::ValueInvalid,
                "declared_win.winning_hand",
                "the declared hand is required",
            );
            None
        }
        Some(w) => winning_hand_from_pb(w, "declared_win.winning_hand", declarer, source, v),
    };
    let (Some(declarer), Some(source), Some(hand)) = (declarer, source, hand) else {
        return None;
    };
    let declaration = Declaration { declarer, source };
    match mcr::judge_declared_win(&declaration, &hand.hand, &hand.context, rules) {
        Err(errors) => {
            v.0.extend(errors.into_iter().map(|mut e| {
                e.field = match e.field.strip_prefix("declaration.source.") {
                    Some(_) => "declared_win.discarder".to_owned(),
                    None => winning_hand_path("declared_win.winning_hand", &e.field),
                };
                e
            }));
            None
        }
        Ok(j) => {
            let judgement = pb::WinJudgement {
                verdict: verdict_to_pb(j.verdict) as i32,
                shanten: i32::from(j.distance),
                score_sheet: Some(score_sheet(&hand, ruleset)),
            };
            Some((j, judgement))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// ComputeStandings

/// A proto standard-points method; unspecified is `None` (the ruleset's).
fn method_from_pb(number: i32) -> Result<Option<StandardPoints>, Violation> {
    match pb::StandardPointsMethod::try_from(number) {
        Ok(pb::StandardPointsMethod::Unspecified) => Ok(None),
        Ok(pb::StandardPointsMethod::GroupFormula) => Ok(Some(StandardPoints::GroupFormula)),
        Ok(pb::StandardPointsMethod::Table4210) => Ok(Some(StandardPoints::Table4210)),
        Err(_) => Err(Violation::new(
            ViolationCode::ValueInvalid,
            "standard_points_method".to_owned(),
            format!(
                "{number} is not a standard-points method (expected STANDARD_POINTS_METHOD_GROUP_FORMULA or STANDARD_POINTS_METHOD_TABLE_4210)"
            ),
        )),
    }
}

fn method_to_pb(method: StandardPoints) -> pb::StandardPointsMethod {
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

/// Every player's session totals (局分); `None` for a session with a violation.
fn session_scores(
    players: &[pb::PlayerRecord],
    rules: &Ruleset,
    v: &mut Violations,
) -> Vec<Vec<Option<SessionScore>>> {
    let session_count = players.first().map_or(0, |p| p.sessions.len());
    let mut scores = Vec::with_capacity(players.len());
    for (i, player) in players.iter().enumerate() {
        let pb::PlayerRecord { name: _, sessions } = player;
        if sessions.len() != session_count {
            v.push(
                ViolationCode::ValueInvalid,
                format!("players[{i}].sessions"),
                format!(
                    "every player has the same number of sessions: players[0] has {session_count}, this player {}",
                    sessions.len()
                ),
            );
        }
        let mut row = Vec::with_capacity(sessions.len());
        for (j, session) in sessions.iter().enumerate() {
            let pb::SessionRecord {
                hand_results,
                late_minutes,
                table: _,
            } = session;
            let field = format!("players[{i}].sessions[{j}]");
            let results: Vec<i64> = hand_results.iter().map(|&r| i64::from(r)).collect();
            match session_score(&results, i64::from(*late_minutes), rules) {
                Ok(s) if i32::try_from(s.score).is_err() => {
                    v.push(
                        ViolationCode::ValueInvalid,
                        format!("{field}.hand_results"),
                        "the hand results add up beyond any possible session total",
                    );
                    row.push(None);
                }
                Ok(s) => row.push(Some(s)),
                Err(errors) => {
                    v.0.extend(errors.into_iter().map(|e| prefixed(&field, e)));
                    row.push(None);
                }
            }
        }
        scores.push(row);
    }
    scores
}

/// The groups of players (indices) ranked together in session `j`: everyone under the group
/// formula, each table under 4/2/1/0 (a table without exactly four players is a violation).
fn session_groups(
    players: &[pb::PlayerRecord],
    j: usize,
    method: StandardPoints,
    v: &mut Violations,
) -> Vec<Vec<usize>> {
    match method {
        StandardPoints::GroupFormula => vec![(0..players.len()).collect()],
        StandardPoints::Table4210 => {
            // The players of each table, in order of first appearance.
            let mut tables: Vec<(u32, Vec<usize>)> = Vec::new();
            for (i, player) in players.iter().enumerate() {
                let Some(session) = player.sessions.get(j) else {
                    continue;
                };
                match tables.iter_mut().find(|(t, _)| *t == session.table) {
                    Some((_, seated)) => seated.push(i),
                    None => tables.push((session.table, vec![i])),
                }
            }
            let mut groups = Vec::with_capacity(tables.len());
            for (table, seated) in tables {
                if seated.len() == 4 {
                    groups.push(seated);
                } else {
                    v.push(
                        ViolationCode::ValueInvalid,
                        format!("players[{}].sessions[{j}].table", seated[0]),
                        format!(
                            "table {table} of session {} seats {} player{}; standard points 4/2/1/0 need four at each table",
                            j + 1,
                            seated.len(),
                            if seated.len() == 1 { "" } else { "s" }
                        ),
                    );
                }
            }
            groups
        }
    }
}

/// Standard points of every player in session `j` (zero where a session is invalid, which
/// is reported already).
fn session_standard_points(
    scores: &[Vec<Option<SessionScore>>],
    groups: &[Vec<usize>],
    j: usize,
    method: StandardPoints,
) -> Vec<Rational> {
    let mut out = vec![Rational::ZERO; scores.len()];
    for group in groups {
        let group_scores: Option<Vec<i64>> = group
            .iter()
            .map(|&i| scores.get(i)?.get(j).copied().flatten().map(|s| s.score))
            .collect();
        let Some(group_scores) = group_scores else {
            continue;
        };
        let shared = match method {
            StandardPoints::GroupFormula => group_standard_points(&group_scores),
            StandardPoints::Table4210 => standard_points(&group_scores, method).unwrap_or_default(),
        };
        for (&i, p) in group.iter().zip(shared) {
            out[i] = p;
        }
    }
    out
}

/// Computes session totals, standard points and the ranking: the `ComputeStandings` call.
/// Every violation of the request is reported.
pub fn compute_standings(
    request: &pb::ComputeStandingsRequest,
) -> Result<pb::ComputeStandingsResponse, Vec<Violation>> {
    let pb::ComputeStandingsRequest {
        players,
        standard_points_method,
        ruleset,
    } = request;
    let mut v = Violations::default();
    let ruleset = ruleset_of(*ruleset, &mut v);
    let rules = Ruleset::get(ruleset);
    let method = v
        .take(method_from_pb(*standard_points_method))
        .flatten()
        .unwrap_or(rules.standard_points);
    if players.is_empty() {
        v.push(
            ViolationCode::ValueInvalid,
            "players",
            "at least one player is required",
        );
    }
    let session_count = players.first().map_or(0, |p| p.sessions.len());
    let scores = session_scores(players, rules, &mut v);
    // by_session[j][i]: player i's standard points in session j.
    let by_session: Vec<Vec<Rational>> = (0..session_count)
        .map(|j| {
            let groups = session_groups(players, j, method, &mut v);
            session_standard_points(&scores, &groups, j, method)
        })
        .collect();
    if !v.0.is_empty() {
        return Err(v.0);
    }
    let points: Vec<Vec<Rational>> = (0..players.len())
        .map(|i| by_session.iter().map(|col| col[i]).collect())
        .collect();
    let results: Vec<Vec<SessionResult>> = scores
        .iter()
        .zip(&points)
        .map(|(row, pts)| {
            row.iter()
                .zip(pts)
                .map(|(s, &p)| SessionResult {
                    standard_points: p,
                    score: s.map_or(0, |s| s.score),
                })
                .collect()
        })
        .collect();
    let standings = rank_players(&results)
        .into_iter()
        .map(|st| standing_to_pb(&st, players, &scores, &points))
        .collect();
    Ok(pb::ComputeStandingsResponse {
        standings,
        standard_points_method: method_to_pb(method) as i32,
        ruleset: convert::ruleset_to_pb(ruleset) as i32,
    })
}

fn standing_to_pb(
    st: &Standing,
    players: &[pb::PlayerRecord],
    scores: &[Vec<Option<SessionScore>>],
    points: &[Vec<Rational>],
) -> pb::PlayerStanding {
    let Standing {
        player,
        place,
        standard_points,
        total_score,
        best_session,
        top_results,
    } = *st;
    let sessions = scores
        .get(player)
        .into_iter()
        .flatten()
        .zip(points.get(player).into_iter().flatten())
        .map(|(s, &p)| {
            let s = s.unwrap_or(SessionScore {
                hand_total: 0,
                late: mcr::penalty::LateArrivalRuling::default(),
                score: 0,
            });
            pb::SessionScore {
                hand_total: to_i32(s.hand_total),
                late_warning: s.late.warning,
                late_points: to_i32(i64::from(s.late.points)),
                forfeit: s.late.forfeit,
                score: to_i32(s.score),
                standard_points: Some(fraction_to_pb(p)),
            }
        })
        .collect();
    pb::PlayerStanding {
        place: to_u32(place),
        player_index: to_u32(player),
        name: players
            .get(player)
            .map(|p| p.name.clone())
            .unwrap_or_default(),
        standard_points: Some(fraction_to_pb(standard_points)),
        total_score: to_i32(total_score),
        best_session: best_session.map(fraction_to_pb),
        top_results: to_u32(top_results),
        sessions,
    }
}

// ---------------------------------------------------------------------------------------------
// proto3 JSON

/// Reads a `SettleHandRequest` from proto3 JSON.
pub fn settle_request_from_json(text: &str) -> Result<pb::SettleHandRequest, JsonError> {
    json::from_json("SettleHandRequest", text)
}

/// Reads an `AdjudicatePenaltyRequest` from proto3 JSON.
pub fn penalty_request_from_json(text: &str) -> Result<pb::AdjudicatePenaltyRequest, JsonError> {
    json::from_json("AdjudicatePenaltyRequest", text)
}

/// Reads a `ComputeStandingsRequest` from proto3 JSON.
pub fn standings_request_from_json(text: &str) -> Result<pb::ComputeStandingsRequest, JsonError> {
    json::from_json("ComputeStandingsRequest", text)
}

/// Writes a `SettleHandResponse` as proto3 JSON (one line, or indented when `pretty`).
pub fn settle_response_to_json(
    response: &pb::SettleHandResponse,
    pretty: bool,
) -> Result<String, JsonError> {
    json::to_json("SettleHandResponse", response, pretty)
}

/// Writes an `AdjudicatePenaltyResponse` as proto3 JSON (one line, or indented when `pretty`).
pub fn penalty_response_to_json(
    response: &pb::AdjudicatePenaltyResponse,
    pretty: bool,
) -> Result<String, JsonError> {
    json::to_json("AdjudicatePenaltyResponse", response, pretty)
}

/// Writes a `ComputeStandingsResponse` as proto3 JSON (one line, or indented when `pretty`).
pub fn standings_response_to_json(
    response: &pb::ComputeStandingsResponse,
    pretty: bool,
) -> Result<String, JsonError> {
    json::to_json("ComputeStandingsResponse", response, pretty)
}
