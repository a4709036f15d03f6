//! Ruling offences: the sanctions of each infraction under a ruleset, and the escalation of
//! repeated offences within a hand.

use std::collections::HashMap;

use super::infraction::{FalseDeclaration, Infraction, Offence, SignalSanction};
use super::table::{GradedAmount, InfractionKind};
use crate::ruleset::Ruleset;
use crate::seat::Seat;
use crate::tile::Tile;
use crate::violation::{FieldPath, Violation, ViolationCode};

/// One consequence of a ruling.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Sanction {
    /// 警告.
    Warning,
    /// Points deducted from the offender's score of this hand; nobody receives them.
    Deduction(i64),
    /// Points paid by the offender to each of the other three players.
    PayEachOther(i64),
    /// Points paid by the offender to one player.
    PayTo {
        /// The player who receives them.
        seat: Seat,
        /// The points.
        points: i64,
    },
    /// 停和: the offender may not win this hand; plays on and pays if another wins.
    LoseRightToWin,
    /// 罚张: these exposed tiles must be discarded at the offender's next turns.
    DiscardExposedTiles(Vec<Tile>),
    /// 停赛 / 取消比赛资格: disqualified from the rest of the event.
    Disqualification,
    /// Points deducted from the session total (局分), for late arrival.
    SessionDeduction(i64),
    /// The session is forfeited: its total (局分) is 0.
    Forfeit,
}

/// The decision on one offence.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ruling {
    /// Who committed the offence.
    pub offender: Seat,
    /// What it was.
    pub infraction: Infraction,
    /// Which occurrence within the hand this is (1 for the first); repeated offences
    /// ([`super::RepeatedOffence`]) count their family together, other infractions their kind.
    pub occurrence: u32,
    /// The consequences, in order.
    pub sanctions: Vec<Sanction>,
}

impl Ruling {
    /// The offender loses the right to win this hand (停和).
    pub fn loses_right_to_win(&self) -> bool {
        self.sanctions
            .iter()
            .any(|s| matches!(s, Sanction::LoseRightToWin))
    }

    /// The offender is disqualified.
    pub fn disqualifies(&self) -> bool {
        self.sanctions
            .iter()
            .any(|s| matches!(s, Sanction::Disqualification))
    }
}

/// Rules one offence, the `occurrence`-th of its family in this hand (1 for the first).
pub fn rule(offence: &Offence, occurrence: u32, rules: &Ruleset) -> Result<Ruling, Vec<Violation>> {
    rule_at(offence, occurrence, rules, FieldPath::of("offence")).map_err(|v| vec![v])
}

/// Rules every offence of one hand in order, counting occurrences per offender: the
/// families of [`super::RepeatedOffence`] escalate (warning, 5, 10, 20, … per the ruleset). Every
/// problem of every offence is reported, at `offences[i]…`.
pub fn adjudicate(offences: &[Offence], rules: &Ruleset) -> Result<Vec<Ruling>, Vec<Violation>> {
    adjudicate_at(offences, rules, FieldPath::of("offences"))
}

/// [`adjudicate`] with violations reported at `{list}[i]`.
fn adjudicate_at(
    offences: &[Offence],
    rules: &Ruleset,
    list: FieldPath,
) -> Result<Vec<Ruling>, Vec<Violation>> {
    let mut rulings = Vec::with_capacity(offences.len());
    let mut violations = Vec::new();
    let mut occurrences = Occurrences::default();
    for (i, offence) in offences.iter().enumerate() {
        let occurrence = occurrences.count(offence);
        match rule_at(offence, occurrence, rules, list.index(i)) {
            Ok(r) => rulings.push(r),
            Err(v) => violations.push(v),
        }
    }
    if violations.is_empty() {
        Ok(rulings)
    } else {
        Err(violations)
    }
}

/// What the occurrences of an offence are counted by: its family for a
/// [`super::RepeatedOffence`], its kind otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Family {
    Repeated(super::RepeatedOffence),
    Kind(super::InfractionKind),
}

/// The offences of one hand counted per offender and [`Family`], one at a time: each offence
/// costs one look-up, so ruling `n` offences is linear in `n`.
#[derive(Debug, Default)]
pub(crate) struct Occurrences(HashMap<(Seat, Family), u32>);

impl Occurrences {
    fn key(offence: &Offence) -> (Seat, Family) {
        let kind = offence.infraction.kind();
        let family = kind
            .repeated_offence()
            .map_or(Family::Kind(kind), Family::Repeated);
        (offence.offender, family)
    }

    /// Counts `offence`: how many times its offender has now committed its family, this one
    /// included (1 for the first).
    pub(crate) fn count(&mut self, offence: &Offence) -> u32 {
        let seen = self.0.entry(Self::key(offence)).or_insert(0);
        *seen = seen.saturating_add(1);
        *seen
    }

    /// The occurrence `offence` would have after those counted, without counting it.
    pub(crate) fn next(&self, offence: &Offence) -> u32 {
        self.0
            .get(&Self::key(offence))
            .copied()
            .unwrap_or(0)
            .saturating_add(1)
    }
}

fn invalid(path: FieldPath, message: String) -> Violation {
    Violation::new(ViolationCode::ValueInvalid, path, message)
}

/// A referee-graded amount, checked as the infraction's row of the catalogue says
/// ([`GradedAmount`]): one of the ruleset's grades (R98 §13-2(2)), or, for an amount paid to a
/// victim, any amount in the ruleset's range (§14-7(3)). Below zero is
/// [`ViolationCode::ValueNegative`], anything else refused
/// [`ViolationCode::PenaltyAmountOutOfRange`]. `infraction` is the path of the infraction.
fn graded(
    points: i64,
    kind: InfractionKind,
    infraction: FieldPath,
    rules: &Ruleset,
) -> Result<i64, Violation> {
    let figures = &rules.penalties;
    let (min, max) = (i64::from(figures.graded_min), i64::from(figures.graded_max));
    let allowed = match kind.spec().graded {
        Some(GradedAmount::VictimRange) => (min..=max).contains(&points),
        Some(GradedAmount::Grade) | None => figures.grades.iter().any(|&g| i64::from(g) == points),
    };
    if allowed {
        Ok(points)
    } else if points < 0 {
        Err(Violation::new(
            ViolationCode::ValueNegative,
            infraction.field("points"),
            format!("the referee's amount cannot be negative, found {points}"),
        ))
    } else {
        let message = match kind.spec().graded {
            Some(GradedAmount::VictimRange) => format!(
                "the amount paid to the victim must be between {min} and {max} points under {}, found {points}",
                rules.name
            ),
            Some(GradedAmount::Grade) | None => format!(
                "a graded deduction must be one of {} points under {} (R98 §13-2(2)), found {points}",
                grade_list(figures.grades),
                rules.name
            ),
        };
        Err(Violation::new(
            ViolationCode::PenaltyAmountOutOfRange,
            infraction.field("points"),
            message,
        ))
    }
}

/// `5, 10, 20, 30, 40, 50 or 60`.
fn grade_list(grades: &[u32]) -> String {
    let mut out = String::new();
    for (i, g) in grades.iter().enumerate() {
        if i > 0 {
            out.push_str(if i + 1 == grades.len() { " or " } else { ", " });
        }
        out.push_str(&g.to_string());
    }
    out
}

/// The sanctions of a false declaration under `rules`.
pub fn false_declaration_sanctions(kind: FalseDeclaration, rules: &Ruleset) -> Vec<Sanction> {
    let figures = &rules.penalties;
    let each = match kind {
        FalseDeclaration::FalseWin | FalseDeclaration::WrongWinningTile => figures.false_win_each,
        FalseDeclaration::NotReadyWin => figures.not_ready_win_each,
        FalseDeclaration::DeliberateFalseWin => {
            if figures.deliberate_false_win_disqualifies {
                return vec![Sanction::Disqualification];
            }
            figures.not_ready_win_each
        }
    };
    let mut sanctions = Vec::with_capacity(2);
    if figures.false_win_loses_right_to_win {
        sanctions.push(Sanction::LoseRightToWin);
    }
    sanctions.push(Sanction::PayEachOther(i64::from(each)));
    sanctions
}

/// [`rule`] with violations reported at `{at}.infraction…`.
pub(crate) fn rule_at(
    offence: &Offence,
    occurrence: u32,
    rules: &Ruleset,
    at: FieldPath,
) -> Result<Ruling, Violation> {
    Ok(Ruling {
        offender: offence.offender,
        infraction: offence.infraction.clone(),
        occurrence: occurrence.max(1),
        sanctions: sanctions(offence, occurrence, rules, at.field("infraction"))?,
    })
}

/// The sanctions of one offence; `infraction` is the path of the infraction for violations.
fn sanctions(
    offence: &Offence,
    occurrence: u32,
    rules: &Ruleset,
    infraction: FieldPath,
) -> Result<Vec<Sanction>, Violation> {
    let offender = offence.offender;
    Ok(match &offence.infraction {
        Infraction::Cheating | Infraction::SeriousDisturbance => vec![Sanction::Disqualification],
        Infraction::WrongChow
        | Infraction::WrongPung
        | Infraction::WrongKong
        | Infraction::WrongTileCount
        | Infraction::IllegalSignals(SignalSanction::LoseRightToWin) => {
            vec![Sanction::LoseRightToWin]
        }
        Infraction::EmptyChow
        | Infraction::EmptyPung
        | Infraction::EmptyKong
        | Infraction::EarlyDraw
        | Infraction::LatePung => match rules.repeat_offences.points(occurrence) {
            None => vec![Sanction::Warning],
            Some(p) => vec![Sanction::Deduction(i64::from(p))],
        },
        Infraction::FalseWin => false_declaration_sanctions(FalseDeclaration::FalseWin, rules),
        Infraction::WrongWinningTile => {
            false_declaration_sanctions(FalseDeclaration::WrongWinningTile, rules)
        }
        Infraction::NotReadyWin => {
            false_declaration_sanctions(FalseDeclaration::NotReadyWin, rules)
        }
        Infraction::DeliberateFalseWin => {
            false_declaration_sanctions(FalseDeclaration::DeliberateFalseWin, rules)
        }
        Infraction::ExposingOwnTiles { tiles } => {
            if tiles.is_empty() {
                return Err(invalid(
                    infraction.field("tiles"),
                    "name the exposed tiles that must be discarded".to_owned(),
                ));
            }
            vec![Sanction::DiscardExposedTiles(tiles.clone())]
        }
        Infraction::LayingDownHand {
            declared_win_valid: true,
            ..
        } => vec![Sanction::Warning],
        Infraction::LayingDownHand {
            declared_win_valid: false,
            tiles,
        } => vec![
            Sanction::DiscardExposedTiles(tiles.clone()),
            Sanction::LoseRightToWin,
        ],
        Infraction::ExposingOthersTiles { victim, points } => {
            if *victim == offender {
                return Err(Violation::new(
                    ViolationCode::ContextConflict,
                    infraction.field("victim"),
                    format!("{offender} cannot expose another player's tiles and be that player"),
                ));
            }
            vec![Sanction::PayTo {
                seat: *victim,
                points: graded(
                    *points,
                    InfractionKind::ExposingOthersTiles,
                    infraction,
                    rules,
                )?,
            }]
        }
        Infraction::NamingDiscard { points }
        | Infraction::IllegalSignals(SignalSanction::Points(points)) => {
            vec![Sanction::Deduction(graded(
                *points,
                offence.infraction.kind(),
                infraction,
                rules,
            )?)]
        }
        Infraction::MisleadingDiscardName {
            misled,
            misled_into,
        } => misleading(offender, *misled, *misled_into, rules, infraction)?,
        Infraction::LateArrival { minutes } => late_arrival(*minutes, rules, infraction)?,
    })
}

/// Row 8: the misnamer pays each other player what the misled player would have paid.
fn misleading(
    offender: Seat,
    misled: Seat,
    misled_into: FalseDeclaration,
    rules: &Ruleset,
    infraction: FieldPath,
) -> Result<Vec<Sanction>, Violation> {
    if misled == offender {
        return Err(Violation::new(
            ViolationCode::ContextConflict,
            infraction.field("misled"),
            format!("{offender} cannot be misled by the name of a discard of his own"),
        ));
    }
    match misled_into {
        FalseDeclaration::FalseWin
        | FalseDeclaration::WrongWinningTile
        | FalseDeclaration::NotReadyWin => Ok(false_declaration_sanctions(misled_into, rules)
            .into_iter()
            .filter(|s| matches!(s, Sanction::PayEachOther(_)))
            .collect()),
        FalseDeclaration::DeliberateFalseWin => Err(invalid(
            infraction.field("misled_into"),
            "a deliberate false win (有意诈和) is not a mistake a wrongly named discard can cause"
                .to_owned(),
        )),
    }
}

/// §13: late arrival, settled on the session total.
fn late_arrival(
    minutes: i64,
    rules: &Ruleset,
    infraction: FieldPath,
) -> Result<Vec<Sanction>, Violation> {
    if minutes < 0 {
        return Err(Violation::new(
            ViolationCode::ValueNegative,
            infraction.field("minutes"),
            format!("minutes late must be 0 or more, found {minutes}"),
        ));
    }
    let minutes = u32::try_from(minutes).unwrap_or(u32::MAX);
    let late = rules.late_arrival.ruling(minutes);
    let mut s = Vec::new();
    if late.warning {
        s.push(Sanction::Warning);
    }
    if late.points > 0 {
        s.push(Sanction::SessionDeduction(i64::from(late.points)));
    }
    if late.forfeit {
        s.push(Sanction::Forfeit);
    }
    Ok(s)
}
