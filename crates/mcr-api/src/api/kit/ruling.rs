//! Rulings and offences, domain → proto: what `AdjudicatePenalty`, `SettleHand` and the play
//! calls write of a penalty ruled.

use mcr::Tile;
use mcr::penalty::{Infraction, Offence, Ruling, Sanction, SignalSanction};

use super::values::{
    false_declaration_to_pb, infraction_kind_to_pb, seat_to_pb, tile_to_pb, to_i32,
};
use crate::api::pb;

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
    let tiles = |tiles: &[Tile]| tiles.iter().map(|&t| tile_to_pb(t)).collect();
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

/// A domain sanction as proto; `graded` marks points the referee fixed.
pub fn sanction_to_pb(sanction: &Sanction, graded: bool) -> pb::Sanction {
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
            s.tiles = tiles.iter().map(|&t| tile_to_pb(t)).collect();
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
pub fn referee_graded(infraction: &Infraction) -> bool {
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
        infraction_name_zh_hant: kind.name_zh_hant().to_owned(),
        occurrence: *occurrence,
        sanctions: sanctions
            .iter()
            .map(|s| sanction_to_pb(s, graded))
            .collect(),
    }
}
