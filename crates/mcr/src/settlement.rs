//! Settling a hand (盘分, docs/rules/scoring-and-payments.md#payments): who pays whom, itemised.
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
//! the engine is judged fully ([`crate::adjudication::decide_declared_win`]): 错和, 和错牌,
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

pub use crate::declaration::{Declaration, WinSource};
pub use crate::payments::{Line, LineKind, Payments};
pub use crate::ruleset::BASE_POINTS;

use crate::adjudication::{WinVerdict, decide};
use crate::fan::Fan;
use crate::hand::{Hand, HandInput, WinContext};
use crate::penalty::{
    FalseDeclaration, InfractionKind, Occurrences, Offence, Ruling, rule, rule_at,
};
use crate::ruleset::Ruleset;
use crate::score::Scoring;
use crate::seat::{BySeat, Seat};
use crate::violation::{FieldPath, Violation, ViolationCode};

/// The largest fan total accepted as input. No hand comes near it (the richest hands score a
/// few hundred); larger figures are input errors, which keeps every sum exact.
pub const MAX_FAN_TOTAL: i64 = 10_000;

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
    /// The validated hand `scoring` is of, when the hand was given as tiles: with it a
    /// front end writes the score sheet without scoring the hand again.
    pub hand: Option<Hand>,
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
            violations.extend(d.violations(FieldPath::of("end")));
            Some(d)
        }
        HandEnd::DrawGame => None,
    };
    for (i, o) in record.penalties.iter().enumerate() {
        if o.infraction.kind() == InfractionKind::LateArrival {
            violations.push(Violation::new(
                ViolationCode::PenaltyOutOfScope,
                FieldPath::of("penalties").index(i).field("infraction"),
                "late arrival is deducted from the session total (局分), not settled in a hand"
                    .to_owned(),
            ));
        }
    }
    // Every offence is ruled, so that one invalid offence does not hide another's effect
    // on the winner.
    let mut rulings = Vec::with_capacity(record.penalties.len());
    let mut ruled = Vec::with_capacity(record.penalties.len());
    let mut occurrences = Occurrences::default();
    for (i, offence) in record.penalties.iter().enumerate() {
        let occurrence = occurrences.count(offence);
        match rule_at(
            offence,
            occurrence,
            rules,
            FieldPath::of("penalties").index(i),
        ) {
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
                    FieldPath::of("end").field("declarer"),
                    format!(
                        "{} may not win this hand: penalties[{i}] ({}) took away the right to win; a player without the right to win does not claim, so leave them out of the claimants (截和): the next claimant in turn order wins",
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
    let Some((result, scored)) = valued else {
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
            i64::from(rules.base_points),
            basic_points,
        )),
        HandResult::FalseDeclaration { declarer, kind } => {
            let offence = Offence {
                offender: declarer,
                infraction: kind.infraction(),
            };
            let occurrence = occurrences.next(&offence);
            rulings.push(rule(&offence, occurrence, rules)?);
        }
        HandResult::DrawGame => {}
    }
    for r in &rulings {
        r.add_payments(&mut payments);
    }
    let deltas = payments.deltas();
    let unpaid_penalties = payments.unpaid_penalties();
    let (hand, scoring) = scored.map_or((None, None), |(h, s)| (Some(h), Some(s)));
    Ok(Settlement {
        result,
        scoring,
        hand,
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
) -> Option<(HandResult, Option<(Hand, Scoring)>)> {
    let d = match (declaration, value) {
        (None, None) => return Some((HandResult::DrawGame, None)),
        (None, Some(_)) => {
            violations.push(Violation::new(
                ViolationCode::WinValueForDraw,
                FieldPath::of("value"),
                "a draw game (荒牌) has no winning hand to value".to_owned(),
            ));
            return None;
        }
        (Some(_), None) => {
            violations.push(Violation::new(
                ViolationCode::WinValueMissing,
                FieldPath::of("value"),
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
                    FieldPath::of("value").field("fan"),
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
                    FieldPath::of("value").field("flowers"),
                    format!("the number of flowers must be between 0 and 8, found {flowers}"),
                ));
            }
            if !ok {
                return None;
            }
            let result = if *fan < i64::from(rules.minimum_fan) {
                false_declaration(FalseDeclaration::FalseWin)
            } else {
                HandResult::Win {
                    winner: d.declarer,
                    source: d.source,
                    basic_points: fan + flowers * i64::from(rules.points(Fan::FlowerTiles)),
                }
            };
            Some((result, None))
        }
        Some(WinValue::Hand { hand, context }) => {
            // The declaration itself was checked with the end of the hand.
            match decide(d, hand, *context, rules, Vec::new()) {
                Ok(j) => {
                    let result = match j.verdict {
                        WinVerdict::Valid => HandResult::Win {
                            winner: d.declarer,
                            source: d.source,
                            basic_points: i64::from(j.scoring.total),
                        },
                        WinVerdict::False(kind) => false_declaration(kind),
                    };
                    Some((result, Some((j.hand, j.scoring))))
                }
                Err(v) => {
                    violations.extend(v.into_iter().map(|mut v| {
                        *v.path = v.path.under(FieldPath::of("value"));
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
