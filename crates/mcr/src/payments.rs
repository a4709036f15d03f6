//! Itemised payments of a hand: what each seat pays or receives, line by line (docs/rules/scoring-and-payments.md#payments),
//! for a win and for the rulings on offences.

use crate::declaration::Declaration;
use crate::penalty::{InfractionKind, Ruling, Sanction};
use crate::seat::{BySeat, Seat};

/// What an itemised line is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineKind {
    /// 底分: what every non-winner pays (the ruleset's `base_points`, 8 in the three rulesets).
    Base,
    /// 基本分: the fan points (flowers included) the discarder, or every player on a
    /// self-drawn win, pays.
    FanPoints,
    /// A penalty.
    Penalty(InfractionKind),
}

/// One itemised amount in a seat's account.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Line {
    /// What it is for.
    pub kind: LineKind,
    /// Points received (positive) or paid (negative).
    pub amount: i64,
    /// Who paid or received them; `None` for a deduction nobody receives.
    pub counterparty: Option<Seat>,
}

/// Itemised points of a hand, per seat.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Payments {
    /// Each seat's lines, in the order they arose.
    pub lines: BySeat<Vec<Line>>,
}

impl Payments {
    /// `from` pays `to` `amount` points: a line on each side.
    pub fn transfer(&mut self, kind: LineKind, from: Seat, to: Seat, amount: i64) {
        self.lines[from].push(Line {
            kind,
            amount: amount.saturating_neg(),
            counterparty: Some(to),
        });
        self.lines[to].push(Line {
            kind,
            amount,
            counterparty: Some(from),
        });
    }

    /// `amount` points are taken from `seat`; nobody receives them.
    pub fn deduct(&mut self, kind: LineKind, seat: Seat, amount: i64) {
        self.lines[seat].push(Line {
            kind,
            amount: amount.saturating_neg(),
            counterparty: None,
        });
    }

    /// The payments of a win worth `basic_points` (基本分, flowers included), each non-winner
    /// paying `base_points` (底分) besides.
    pub fn for_win(declaration: &Declaration, base_points: i64, basic_points: i64) -> Payments {
        let mut p = Payments::default();
        let winner = declaration.declarer;
        let payer = declaration.source.payer();
        for other in winner.others() {
            p.transfer(LineKind::Base, other, winner, base_points);
            if payer.is_none_or(|s| s == other) {
                p.transfer(LineKind::FanPoints, other, winner, basic_points);
            }
        }
        p
    }

    /// Appends every line of `other`.
    pub fn extend(&mut self, other: Payments) {
        for (mine, theirs) in self.lines.iter_mut().zip(other.lines) {
            mine.extend(theirs);
        }
    }

    /// The net points of each seat (saturating at the limits of `i64`).
    pub fn deltas(&self) -> BySeat<i64> {
        self.lines.as_ref().map(|lines| {
            lines
                .iter()
                .fold(0i64, |acc, l| acc.saturating_add(l.amount))
        })
    }

    /// The points deducted that nobody receives (0 or more for deductions of 0 or more).
    pub fn unpaid_penalties(&self) -> i64 {
        self.lines
            .iter()
            .flatten()
            .filter(|l| l.counterparty.is_none())
            .fold(0i64, |acc, l| acc.saturating_sub(l.amount))
    }
}

impl Ruling {
    /// The points moved in the hand by this ruling, itemised per seat.
    pub fn payments(&self) -> Payments {
        let mut payments = Payments::default();
        self.add_payments(&mut payments);
        payments
    }

    /// Adds this ruling's points to `payments`.
    pub fn add_payments(&self, payments: &mut Payments) {
        let kind = LineKind::Penalty(self.infraction.kind());
        for s in &self.sanctions {
            match *s {
                Sanction::Deduction(points) => payments.deduct(kind, self.offender, points),
                Sanction::PayEachOther(points) => {
                    for other in self.offender.others() {
                        payments.transfer(kind, self.offender, other, points);
                    }
                }
                Sanction::PayTo { seat, points } => {
                    payments.transfer(kind, self.offender, seat, points);
                }
                Sanction::Warning
                | Sanction::LoseRightToWin
                | Sanction::DiscardExposedTiles(_)
                | Sanction::Disqualification
                | Sanction::SessionDeduction(_)
                | Sanction::Forfeit => {}
            }
        }
    }
}
