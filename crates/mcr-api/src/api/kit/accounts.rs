//! Accounts: payments, hand results and claim resolutions, domain → proto (settling,
//! rulings and replays all answer with them).

use super::values::{
    false_declaration_to_pb, infraction_kind_to_pb, seat_number, seat_to_pb, to_i32,
    win_source_to_pb,
};
use mcr::Seat;
use mcr::adjudication::ClaimResolution;
use mcr::settlement::{HandResult, Line, LineKind, Payments};

use crate::api::pb;

/// A payment line as proto.
pub fn line_to_pb(line: &Line) -> pb::PaymentLine {
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

pub fn hand_result_to_pb(result: &HandResult) -> pb::HandResult {
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

pub fn claim_resolution_to_pb(r: &ClaimResolution) -> pb::ClaimResolution {
    let ClaimResolution {
        winner,
        intercepted,
    } = r;
    pb::ClaimResolution {
        winner: seat_to_pb(*winner) as i32,
        intercepted: intercepted.iter().map(|&s| seat_to_pb(s) as i32).collect(),
    }
}
