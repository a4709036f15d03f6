//! Offences (`Penalty` messages) proto → domain, checking the details each infraction
//! uses (domain → proto: [`crate::api::kit::ruling`]).

use crate::api::kit::values::{
    false_declaration_from_pb, infraction_kind_from_pb, infraction_kind_to_pb, required_seat,
    tile_from_pb,
};
use crate::api::kit::violations::Violations;
use mcr::penalty::{Infraction, InfractionKind, Offence, SignalSanction};
use mcr::violation::{FieldPath, Step};
use mcr::{Ruleset, Seat, Tile, ViolationCode};

use crate::api::kit::path;
use crate::api::pb;

/// The details of a `Penalty` message an infraction uses.
#[allow(clippy::struct_excessive_bools)] // one yes/no per detail field
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Uses {
    pub(crate) tiles: bool,
    pub(crate) declared_win_valid: bool,
    pub(crate) victim: bool,
    pub(crate) points: bool,
    pub(crate) lose_right_to_win: bool,
    pub(crate) misled: bool,
    pub(crate) late_minutes: bool,
}

impl Uses {
    pub(crate) fn of(kind: InfractionKind) -> Uses {
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
pub(crate) fn check_unused_details(
    penalty: &pb::Penalty,
    kind: InfractionKind,
    at: FieldPath,
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
                at.field(name),
                format!("`{name}` does not apply to {code}: leave it unset"),
            );
        }
    }
}

/// Proto tiles at `list` (`penalties[0].tiles`); each unknown one is a `TILE_UNKNOWN`.
pub(crate) fn tiles_from_pb(tiles: &[i32], list: FieldPath, v: &mut Violations) -> Vec<Tile> {
    let mut out = Vec::with_capacity(tiles.len());
    for (j, &t) in tiles.iter().enumerate() {
        if let Some(t) = tile_from_pb(t) {
            out.push(t);
        } else {
            v.push(
                ViolationCode::TileUnknown,
                list.index(j),
                format!("{t} is not a tile (expected TILE_1M..TILE_WHITE)"),
            );
        }
    }
    out
}

/// Converts a proto penalty at `at` (`penalties[2]`), recording every violation.
pub(crate) fn offence_from_pb(
    penalty: &pb::Penalty,
    at: FieldPath,
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
    let offender = v.take(required_seat(*offender, at.field("offender")));
    let kind = v.take(infraction_kind_from_pb(*infraction, at.field("infraction")))?;
    let uses = Uses::of(kind);
    check_unused_details(penalty, kind, at, v);
    let tiles_before = v.len();
    let decoded_tiles = if uses.tiles {
        tiles_from_pb(tiles, at.field("tiles"), v)
    } else {
        Vec::new()
    };
    let tiles_ok = v.len() == tiles_before;
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
            victim: v.take(required_seat(*victim, at.field("victim")))?,
            points,
        },
        InfractionKind::NamingDiscard => Infraction::NamingDiscard { points },
        InfractionKind::MisleadingDiscardName => {
            let misled = v.take(required_seat(*misled, at.field("misled")));
            let misled_into = v.take(false_declaration_from_pb(
                *misled_into,
                at.field("misled_into"),
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
                        at.field("points"),
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
    check_without_offender(infraction, at, rules, v);
    None
}

/// Checks the details of an infraction whose offender is unknown (already reported), with a
/// stand-in offender they cannot conflict with.
pub(crate) fn check_without_offender(
    infraction: Infraction,
    at: FieldPath,
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
        v.extend(errors.into_iter().map(|e| {
            path::renamed_violation(e, |p| match p.steps() {
                // `rule` reports at `offence.…`.
                [Step::Field("offence"), detail @ ..] => path::offence(detail, at),
                _ => p.under(at),
            })
        }));
    }
}

/// Converts a list of proto penalties at `name` (`penalties`): the offences that
/// converted, and the request index of each.
pub(crate) fn offences_from_pb(
    penalties: &[pb::Penalty],
    name: &'static str,
    rules: &Ruleset,
    v: &mut Violations,
) -> (Vec<Offence>, Vec<usize>) {
    let mut offences = Vec::with_capacity(penalties.len());
    let mut index = Vec::with_capacity(penalties.len());
    for (i, p) in penalties.iter().enumerate() {
        if let Some(o) = offence_from_pb(p, FieldPath::of(name).index(i), rules, v) {
            offences.push(o);
            index.push(i);
        }
    }
    (offences, index)
}
