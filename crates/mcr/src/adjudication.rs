//! Judging declarations of 和: several claims on one discard (截和), and whether a declared
//! hand is a win or which false declaration it is (docs/rules/penalties.md#false-declarations).
//!
//! A declared hand is the thirteen tiles held before the declared tile (declared melds and
//! standing tiles) plus the declared tile. [`decide_declared_win`] decides:
//!
//! | the fourteen tiles | the thirteen before | verdict |
//! |---|---|---|
//! | a winning shape of 8 fan or more (flowers excluded) | — | valid win |
//! | a winning shape under 8 fan | — | 错和 ([`FalseDeclaration::FalseWin`]) |
//! | not a winning shape | ready (distance 0) | 和错牌 ([`FalseDeclaration::WrongWinningTile`]) |
//! | not a winning shape | one tile short of ready (distance 1) | 诈和 ([`FalseDeclaration::NotReadyWin`]) |
//! | not a winning shape | two or more short (distance ≥ 2) | 有意诈和 ([`FalseDeclaration::DeliberateFalseWin`]) |
//!
//! The distance is [`crate::shape::shanten::shanten`] over every shape.

use crate::declaration::{Declaration, WinSource};
use crate::hand::{Hand, HandInput, WinContext};
use crate::payments::Payments;
use crate::penalty::{FalseDeclaration, Offence, Ruling, rule};
use crate::ruleset::Ruleset;
use crate::score::{Outcome, Scoring, score};
use crate::seat::Seat;
use crate::shape::shanten::shanten;
use crate::violation::{FieldPath, Violation, ViolationCode};

/// Several players declared 和 on one discard: who wins.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClaimResolution {
    /// The claimant first in turn order after the discarder.
    pub winner: Seat,
    /// The other claimants, in turn order: their 和 is intercepted (截和) and gets nothing.
    pub intercepted: Vec<Seat>,
}

/// Resolves several declarations of 和 on one discard: the first claimant in turn order
/// after the discarder (East → South → West → North → East) wins; the others are intercepted
/// (截和) [R98 §8-3; GB §3.7.2.4]. Every problem is reported: no claimant, the discarder
/// claiming his own discard, a claimant listed twice.
pub fn resolve_win_claims(
    discarder: Seat,
    claimants: &[Seat],
) -> Result<ClaimResolution, Vec<Violation>> {
    let mut violations = Vec::new();
    if claimants.is_empty() {
        violations.push(Violation::new(
            ViolationCode::ClaimInvalid,
            FieldPath::of("claimants"),
            "at least one player must claim the discard".to_owned(),
        ));
    }
    for (i, &c) in claimants.iter().enumerate() {
        if c == discarder {
            violations.push(Violation::new(
                ViolationCode::ClaimInvalid,
                FieldPath::of("claimants").index(i),
                format!("{c} discarded the tile and cannot claim it to win"),
            ));
        }
        if claimants[..i].contains(&c) {
            violations.push(Violation::new(
                ViolationCode::ClaimInvalid,
                FieldPath::of("claimants").index(i),
                format!("{c} is listed more than once"),
            ));
        }
    }
    let mut order: Vec<Seat> = discarder
        .others()
        .into_iter()
        .filter(|s| claimants.contains(s))
        .collect();
    if !violations.is_empty() || order.is_empty() {
        return Err(violations);
    }
    let winner = order.remove(0);
    Ok(ClaimResolution {
        winner,
        intercepted: order,
    })
}

/// Whether a declared win stands, and if not, which false declaration it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinVerdict {
    /// A winning shape of at least 8 fan: settle the win.
    Valid,
    /// A false declaration, ruled as a penalty.
    False(FalseDeclaration),
}

impl WinVerdict {
    /// The verdict from the engine's outcome for the fourteen tiles and the distance to
    /// ready of the thirteen before the declared tile.
    pub const fn decide(outcome: Outcome, distance_before: i8) -> WinVerdict {
        match outcome {
            Outcome::Win => WinVerdict::Valid,
            Outcome::BelowMinimum => WinVerdict::False(FalseDeclaration::FalseWin),
            Outcome::NotWinningShape => WinVerdict::False(match distance_before {
                i8::MIN..=0 => FalseDeclaration::WrongWinningTile,
                1 => FalseDeclaration::NotReadyWin,
                2..=i8::MAX => FalseDeclaration::DeliberateFalseWin,
            }),
        }
    }
}

/// The judgement of a declared win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WinDecision {
    /// Valid, or which false declaration.
    pub verdict: WinVerdict,
    /// The fourteen tiles, validated: the hand `scoring` is of.
    pub hand: Hand,
    /// The engine's scoring of the fourteen tiles.
    pub scoring: Scoring,
    /// Distance to ready (shanten) of the thirteen tiles before the declared tile: 0 ready,
    /// 1 one tile short, …
    pub distance: i8,
    /// The ruling on a false declaration; `None` for a valid win.
    pub ruling: Option<Ruling>,
    /// The points: the win's payments, or the false declaration's penalty.
    pub payments: Payments,
}

/// Judges a declared win from the hand itself. The context must agree with the
/// declaration (self-drawn or not, robbing a kong or not); the hand must be well formed.
/// Every problem is reported.
pub fn decide_declared_win(
    declaration: &Declaration,
    hand: &HandInput,
    context: &WinContext,
    rules: &Ruleset,
) -> Result<WinDecision, Vec<Violation>> {
    decide(
        *declaration,
        hand,
        *context,
        rules,
        declaration.violations(FieldPath::of("declaration")),
    )
}

/// [`decide_declared_win`] after the caller has checked the declaration itself (`violations`
/// holds what it found).
pub(crate) fn decide(
    declaration: Declaration,
    hand: &HandInput,
    context: WinContext,
    rules: &Ruleset,
    mut violations: Vec<Violation>,
) -> Result<WinDecision, Vec<Violation>> {
    if context.method != declaration.source.method() {
        violations.push(Violation::new(
            ViolationCode::ContextConflict,
            FieldPath::of("context").field("method"),
            format!(
                "the context says {:?} but the declaration's tile came from {:?}",
                context.method, declaration.source
            ),
        ));
    }
    let robbing = matches!(declaration.source, WinSource::RobbingKong { .. });
    if context.robbing_kong != robbing {
        violations.push(Violation::new(
            ViolationCode::ContextConflict,
            FieldPath::of("context").field("robbing_kong"),
            format!(
                "the context's robbing-a-kong flag is {} but the declaration's tile came from {:?}",
                context.robbing_kong, declaration.source
            ),
        ));
    }
    let validated = hand.validate(&context);
    let hand = match validated {
        Ok(h) if violations.is_empty() => h,
        Ok(_) => return Err(violations),
        Err(v) => {
            violations.extend(v);
            return Err(violations);
        }
    };
    let scoring = score(&hand, &context, rules);
    let mut before = [0u8; 34];
    for t in hand.standing() {
        before[t.index()] = before[t.index()].saturating_add(1);
    }
    let distance = shanten(&before, hand.melds().len());
    let verdict = WinVerdict::decide(scoring.outcome, distance);
    let (ruling, payments) = match verdict {
        WinVerdict::Valid => (
            None,
            Payments::for_win(
                &declaration,
                i64::from(rules.base_points),
                i64::from(scoring.total),
            ),
        ),
        WinVerdict::False(kind) => {
            let ruling = rule(
                &Offence {
                    offender: declaration.declarer,
                    infraction: kind.infraction(),
                },
                1,
                rules,
            )?;
            let payments = ruling.payments();
            (Some(ruling), payments)
        }
    };
    Ok(WinDecision {
        verdict,
        hand,
        scoring,
        distance,
        ruling,
        payments,
    })
}
