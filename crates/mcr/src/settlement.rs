//! Settling a hand (盘分, RULES.md §4): who pays whom, itemised.
//!
//! A [`HandRecord`] says how the hand ended ([`HandEnd`]), what the winning hand is worth
//! ([`WinValue`]: a fan total, or a hand for the engine to score) and which offences were
//! committed during the hand. [`settle`] returns a [`Settlement`]: per seat, the itemised
//! [`Line`]s (base 8, fan points, penalties, each with its counterparty) and the totals.
//!
//! Payments (R98 §10-1, GB §3.9.1): the 基本分 is the fan total *including flowers*.
//!
//! - self-drawn (自摸): each other player pays 8 + 基本分;
//! - on a discard (点和) or robbing a kong (抢杠和): the discarder (the robbed player) pays
//!   8 + 基本分, each of the other two pays 8;
//! - draw game (荒牌): nothing.
//!
//! A declared win under 8 fan (flowers excluded) is not settled as a win: it is a false
//! declaration (错和), ruled as in [`crate::penalty`], and the hand goes on. A hand given to
//! the engine is judged fully ([`crate::adjudication::judge_declared_win`]): 错和, 和错牌,
//! 诈和 or 有意诈和.
//!
//! The winner receives exactly what the others pay; penalty payments between players balance
//! too. Only deductions that nobody receives leave the hand unbalanced, by
//! [`Settlement::unpaid_penalties`].
//!
//! ```
//! use mcr::settlement::{settle, Declaration, HandEnd, HandRecord, WinSource, WinValue};
//! use mcr::{Ruleset, Seat};
//! // P2: a 13-fan hand with one flower, won on West's discard.
//! let record = HandRecord {
//!     end: HandEnd::Win(Declaration {
//!         declarer: Seat::South,
//!         source: WinSource::Discard { discarder: Seat::West },
//!     }),
//!     value: Some(WinValue::Counted { fan: 13, flowers: 1 }),
//!     penalties: Vec::new(),
//! };
//! let s = settle(&record, &Ruleset::CHINESE_OFFICIAL_1998).unwrap();
//! assert_eq!(s.deltas.into_array(), [-8, 38, -22, -8]);
//! ```

use crate::adjudication::{WinVerdict, judge};
use crate::hand::{HandInput, WinContext, WinMethod};
use crate::penalty::{
    FalseDeclaration, InfractionKind, Offence, Ruling, occurrence_of, rule, rule_at,
};
use crate::ruleset::Ruleset;
use crate::score::{MINIMUM_FAN, Scoring};
use crate::seat::{BySeat, Seat};
use crate::violation::{Violation, ViolationCode};

/// 底分: what every player who did not win pays the winner.
pub const BASE_POINTS: i64 = 8;

/// The largest fan total accepted as input. No hand comes near it (the richest hands score a
/// few hundred); larger figures are input errors, which keeps every sum exact.
pub const MAX_FAN_TOTAL: i64 = 10_000;

/// Where the winning tile came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinSource {
    /// 自摸: drawn by the winner (including a replacement draw after a kong or a flower).
    SelfDrawn,
    /// 点和: on another player's discard.
    Discard {
        /// The player who discarded the tile.
        discarder: Seat,
    },
    /// 抢杠和: on the tile another player added to a melded pung.
    RobbingKong {
        /// The player whose promoted kong was robbed; pays as a discarder.
        robbed: Seat,
    },
}

impl WinSource {
    /// The player who pays 8 + 基本分 alone (discarder or robbed player); `None` when
    /// self-drawn.
    pub const fn payer(self) -> Option<Seat> {
        match self {
            WinSource::SelfDrawn => None,
            WinSource::Discard { discarder } => Some(discarder),
            WinSource::RobbingKong { robbed } => Some(robbed),
        }
    }

    /// How the winning tile was obtained, in the terms of [`WinContext`].
    pub const fn method(self) -> WinMethod {
        match self {
            WinSource::SelfDrawn => WinMethod::SelfDrawn,
            WinSource::Discard { .. } | WinSource::RobbingKong { .. } => WinMethod::Discard,
        }
    }
}

/// A declaration of 和: who declared and on which tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Declaration {
    /// The player declaring 和.
    pub declarer: Seat,
    /// Where the declared tile came from.
    pub source: WinSource,
}

impl Declaration {
    /// Every problem with the declaration itself (a declarer paying himself), at `field`.
    pub fn violations(&self, field: &str) -> Vec<Violation> {
        let mut v = Vec::new();
        let (payer, role, who) = match self.source {
            WinSource::SelfDrawn => return v,
            WinSource::Discard { discarder } => (discarder, "discarder", "discarder"),
            WinSource::RobbingKong { robbed } => (robbed, "robbed", "player whose kong is robbed"),
        };
        if payer == self.declarer {
            v.push(Violation::new(
                ViolationCode::WinnerIsPayer,
                format!("{field}.source.{role}"),
                format!(
                    "{} cannot win on a tile of his own: the winner and the {who} are the same seat",
                    self.declarer
                ),
            ));
        }
        v
    }
}

/// How a hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HandEnd {
    /// A player declared 和.
    Win(Declaration),
    /// 荒牌: the wall ran out with no win.
    DrawGame,
}

/// What the declared winning hand is worth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WinValue {
    /// The table's count. Numbers are `i64` so that impossible input (negative counts) is
    /// reported, not lost in a conversion.
    Counted {
        /// Fan points without flowers (at least 8 for a win).
        fan: i64,
        /// Number of flowers, 0..=8 (one point each, not counted toward the 8).
        flowers: i64,
    },
    /// The hand, to be judged and scored by the engine. Its context must agree with the
    /// declaration's source (method and robbing-a-kong flag).
    Hand {
        /// The declared hand: melds, standing tiles and the declared tile.
        hand: HandInput,
        /// The circumstances of the win, flowers included.
        context: WinContext,
    },
}

/// Everything needed to settle one hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandRecord {
    /// How the hand ended.
    pub end: HandEnd,
    /// The winning hand's value; required for a win, absent for a draw game.
    pub value: Option<WinValue>,
    /// Offences committed during this hand, in the order they happened (repeated offences
    /// escalate in that order). Late arrival belongs to the session total, not here.
    pub penalties: Vec<Offence>,
}

/// What an itemised line is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineKind {
    /// 底分: the 8 every non-winner pays.
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

    /// The payments of a win worth `basic_points` (基本分, flowers included).
    pub fn for_win(declaration: &Declaration, basic_points: i64) -> Payments {
        let mut p = Payments::default();
        let winner = declaration.declarer;
        let payer = declaration.source.payer();
        for other in winner.others() {
            p.transfer(LineKind::Base, other, winner, BASE_POINTS);
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

/// What the hand came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HandResult {
    /// A valid win, settled.
    Win {
        /// The winner.
        winner: Seat,
        /// Where the winning tile came from.
        source: WinSource,
        /// 基本分: fan points including flowers.
        basic_points: i64,
    },
    /// The declaration was false: it is ruled as a penalty and the hand goes on (unless the
    /// declaration disqualifies).
    FalseDeclaration {
        /// Who declared.
        declarer: Seat,
        /// Which false declaration.
        kind: FalseDeclaration,
    },
    /// 荒牌: no win, no win payments.
    DrawGame,
}

/// The settled hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settlement {
    /// What the hand came to.
    pub result: HandResult,
    /// The engine's scoring, when the hand was given as tiles.
    pub scoring: Option<Scoring>,
    /// The ruling of every offence, in input order, then the ruling of a false declaration.
    pub rulings: Vec<Ruling>,
    /// Every seat's itemised lines: win payments first, then penalties.
    pub payments: Payments,
    /// Net points per seat (盘分).
    pub deltas: BySeat<i64>,
    /// Points deducted that nobody receives (≥ 0).
    pub unpaid_penalties: i64,
    /// The sum of the four deltas: 0, or `−unpaid_penalties`.
    pub unbalanced_by: i64,
}

/// Settles one hand under `rules`, or reports every problem with the record.
pub fn settle(record: &HandRecord, rules: &Ruleset) -> Result<Settlement, Vec<Violation>> {
    let mut violations = Vec::new();
    let declaration = match record.end {
        HandEnd::Win(d) => {
            violations.extend(d.violations("end"));
            Some(d)
        }
        HandEnd::DrawGame => None,
    };
    for (i, o) in record.penalties.iter().enumerate() {
        if o.infraction.kind() == InfractionKind::LateArrival {
            violations.push(Violation::new(
                ViolationCode::PenaltyOutOfScope,
                format!("penalties[{i}].infraction"),
                "late arrival is deducted from the session total (局分), not settled in a hand"
                    .to_owned(),
            ));
        }
    }
    // Every offence is ruled, so that one invalid offence does not hide another's effect
    // on the winner.
    let mut rulings = Vec::with_capacity(record.penalties.len());
    let mut ruled = Vec::with_capacity(record.penalties.len());
    for (i, offence) in record.penalties.iter().enumerate() {
        let occurrence = occurrence_of(&record.penalties[..i], offence);
        match rule_at(offence, occurrence, rules, &format!("penalties[{i}]")) {
            Ok(r) => {
                rulings.push(r);
                ruled.push(i);
            }
            Err(v) => violations.push(v),
        }
    }
    if let Some(d) = declaration {
        for (&i, r) in ruled.iter().zip(&rulings) {
            if r.offender == d.declarer && (r.loses_right_to_win() || r.disqualifies()) {
                violations.push(Violation::new(
                    ViolationCode::WinnerBarred,
                    "end.declarer".to_owned(),
                    format!(
                        "{} may not win this hand: penalties[{i}] ({}) took away the right to win",
                        d.declarer,
                        r.infraction.kind()
                    ),
                ));
            }
        }
    }
    let valued = value_of(declaration, record.value.as_ref(), rules, &mut violations);
    if !violations.is_empty() {
        return Err(violations);
    }
    let Some((result, scoring)) = valued else {
        // `value_of` reports a violation whenever it returns `None`.
        return Err(violations);
    };

    let mut payments = Payments::default();
    match result {
        HandResult::Win {
            winner,
            source,
            basic_points,
        } => payments.extend(Payments::for_win(
            &Declaration {
                declarer: winner,
                source,
            },
            basic_points,
        )),
        HandResult::FalseDeclaration { declarer, kind } => {
            let offence = Offence {
                offender: declarer,
                infraction: kind.infraction(),
            };
            let occurrence = occurrence_of(&record.penalties, &offence);
            rulings.push(rule(&offence, occurrence, rules)?);
        }
        HandResult::DrawGame => {}
    }
    for r in &rulings {
        r.add_payments(&mut payments);
    }
    let deltas = payments.deltas();
    let unpaid_penalties = payments.unpaid_penalties();
    Ok(Settlement {
        result,
        scoring,
        rulings,
        deltas,
        unpaid_penalties,
        unbalanced_by: deltas.iter().fold(0i64, |acc, &d| acc.saturating_add(d)),
        payments,
    })
}

/// The result of the hand from its end and value; `None` after pushing a violation.
fn value_of(
    declaration: Option<Declaration>,
    value: Option<&WinValue>,
    rules: &Ruleset,
    violations: &mut Vec<Violation>,
) -> Option<(HandResult, Option<Scoring>)> {
    let d = match (declaration, value) {
        (None, None) => return Some((HandResult::DrawGame, None)),
        (None, Some(_)) => {
            violations.push(Violation::new(
                ViolationCode::WinValueForDraw,
                "value".to_owned(),
                "a draw game (荒牌) has no winning hand to value".to_owned(),
            ));
            return None;
        }
        (Some(_), None) => {
            violations.push(Violation::new(
                ViolationCode::WinValueMissing,
                "value".to_owned(),
                "a win needs its value: the fan total or the hand to score".to_owned(),
            ));
            return None;
        }
        (Some(d), Some(_)) => d,
    };
    let false_declaration = |kind| HandResult::FalseDeclaration {
        declarer: d.declarer,
        kind,
    };
    match value {
        None => None,
        Some(WinValue::Counted { fan, flowers }) => {
            let mut ok = true;
            if !(0..=MAX_FAN_TOTAL).contains(fan) {
                ok = false;
                violations.push(Violation::new(
                    if *fan < 0 {
                        ViolationCode::ValueNegative
                    } else {
                        ViolationCode::ValueInvalid
                    },
                    "value.fan".to_owned(),
                    format!("the fan total must be between 0 and {MAX_FAN_TOTAL}, found {fan}"),
                ));
            }
            if !(0..=8).contains(flowers) {
                ok = false;
                violations.push(Violation::new(
                    if *flowers < 0 {
                        ViolationCode::ValueNegative
                    } else {
                        ViolationCode::FlowerCount
                    },
                    "value.flowers".to_owned(),
                    format!("the number of flowers must be between 0 and 8, found {flowers}"),
                ));
            }
            if !ok {
                return None;
            }
            let result = if *fan < i64::from(MINIMUM_FAN) {
                false_declaration(FalseDeclaration::FalseWin)
            } else {
                HandResult::Win {
                    winner: d.declarer,
                    source: d.source,
                    basic_points: fan + flowers,
                }
            };
            Some((result, None))
        }
        Some(WinValue::Hand { hand, context }) => {
            // The declaration itself was checked with the end of the hand.
            match judge(d, hand, *context, rules, Vec::new()) {
                Ok(j) => {
                    let result = match j.verdict {
                        WinVerdict::Valid => HandResult::Win {
                            winner: d.declarer,
                            source: d.source,
                            basic_points: i64::from(j.scoring.total),
                        },
                        WinVerdict::False(kind) => false_declaration(kind),
                    };
                    Some((result, Some(j.scoring)))
                }
                Err(v) => {
                    violations.extend(v.into_iter().map(|mut v| {
                        v.field = format!("value.{}", v.field);
                        v
                    }));
                    None
                }
            }
        }
    }
}

/// Settles a win given as a fan total with no penalties: a convenience for the common case.
pub fn settle_win(
    declaration: Declaration,
    fan: i64,
    flowers: i64,
    rules: &Ruleset,
) -> Result<Settlement, Vec<Violation>> {
    settle(
        &HandRecord {
            end: HandEnd::Win(declaration),
            value: Some(WinValue::Counted { fan, flowers }),
            penalties: Vec::new(),
        },
        rules,
    )
}
