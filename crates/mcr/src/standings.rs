//! Session totals (局分), standard points (标准分) and rankings (docs/rules/scoring-and-payments.md#session-total).
//!
//! - 局分 = 500 + the sum of the hand results (盘分) − late-arrival points; more than 15
//!   minutes late forfeits the session: 局分 0 ([`session_score`]).
//! - Standard points rank players by 局分: per table 4/2/1/0, or over a group of N players
//!   the 1998 formula N, N−2, N−3, …, 0 ([`standard_points`]). Ties follow the ruleset's
//!   [`StandardPointTies`]: tied players share the points of the places they occupy, exactly
//!   ([`Rational`]: two players tied for 2nd under 4/2/1/0 get 3/2 each), or all take the
//!   best of those places (2 each, the next player is 4th).
//! - The ranking orders players by total standard points, then total 局分, then best single
//!   session's standard points, then how many sessions reached that best ([`rank_players`],
//!   R98 §11).
//!
//! ```
//! use mcr::standings::{standard_points, Rational};
//! use mcr::ruleset::{StandardPointTies, StandardPoints};
//! let scores = [620, 480, 480, 420];
//! let p = standard_points(&scores, StandardPoints::Table4210, StandardPointTies::SharePlaces).unwrap();
//! assert_eq!(p, [Rational::integer(4), Rational::new(3, 2).unwrap(), Rational::new(3, 2).unwrap(), Rational::integer(0)]);
//! let p = standard_points(&scores, StandardPoints::Table4210, StandardPointTies::SamePlace).unwrap();
//! assert_eq!(p, [4, 2, 2, 0].map(Rational::integer));
//! ```

use std::cmp::Ordering;
use std::fmt;
use std::iter::Sum;
use std::ops::Add;

use crate::penalty::LateArrivalRuling;
use crate::ruleset::{Ruleset, StandardPointTies, StandardPoints};
use crate::seat::BySeat;
use crate::violation::{FieldPath, Violation, ViolationCode};

/// 基础比赛分: every player starts a session with 500 points of score cards.
pub const SESSION_START_POINTS: i64 = 500;

/// The table form of standard points, first place to fourth.
pub const TABLE_POINTS: [i64; 4] = [4, 2, 1, 0];

/// An exact fraction, always in lowest terms with a positive denominator.
///
/// Arithmetic is exact for any figures a tournament produces; a result too large for `i64`
/// saturates instead of panicking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rational {
    numer: i64,
    denom: i64,
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    a = a.abs();
    b = b.abs();
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn saturate(n: i128) -> i64 {
    i64::try_from(n).unwrap_or(if n < 0 { i64::MIN } else { i64::MAX })
}

impl Rational {
    /// Zero.
    pub const ZERO: Rational = Rational::integer(0);

    /// A whole number.
    pub const fn integer(n: i64) -> Rational {
        Rational { numer: n, denom: 1 }
    }

    /// `numer / denom` in lowest terms; `None` when `denom` is 0.
    pub fn new(numer: i64, denom: i64) -> Option<Rational> {
        (denom != 0).then(|| Rational::reduced(i128::from(numer), i128::from(denom)))
    }

    fn reduced(numer: i128, denom: i128) -> Rational {
        let g = gcd(numer, denom).max(1);
        let (mut n, mut d) = (numer / g, denom / g);
        if d < 0 {
            n = -n;
            d = -d;
        }
        Rational {
            numer: saturate(n),
            denom: saturate(d).max(1),
        }
    }

    /// The numerator (its sign is the sign of the number).
    pub const fn numer(self) -> i64 {
        self.numer
    }

    /// The denominator (≥ 1).
    pub const fn denom(self) -> i64 {
        self.denom
    }

    /// The value in halves, when it is a whole number of halves (1.5 → 3).
    pub const fn halves(self) -> Option<i64> {
        match self.denom {
            1 => self.numer.checked_mul(2),
            2 => Some(self.numer),
            _ => None,
        }
    }

    /// An approximation, for display only; compare [`Rational`]s exactly instead.
    #[allow(clippy::cast_precision_loss)] // display only
    pub fn to_f64(self) -> f64 {
        self.numer as f64 / self.denom as f64
    }
}

impl Default for Rational {
    fn default() -> Self {
        Rational::ZERO
    }
}

impl From<i64> for Rational {
    fn from(n: i64) -> Rational {
        Rational::integer(n)
    }
}

impl Add for Rational {
    type Output = Rational;

    fn add(self, other: Rational) -> Rational {
        let (a, b) = (i128::from(self.denom), i128::from(other.denom));
        Rational::reduced(
            i128::from(self.numer) * b + i128::from(other.numer) * a,
            a * b,
        )
    }
}

impl Sum for Rational {
    fn sum<I: Iterator<Item = Rational>>(iter: I) -> Rational {
        iter.fold(Rational::ZERO, Add::add)
    }
}

impl Ord for Rational {
    fn cmp(&self, other: &Rational) -> Ordering {
        (i128::from(self.numer) * i128::from(other.denom))
            .cmp(&(i128::from(other.numer) * i128::from(self.denom)))
    }
}

impl PartialOrd for Rational {
    fn partial_cmp(&self, other: &Rational) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Rational {
    /// `4`, `3/2`, `-7/3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.denom == 1 {
            write!(f, "{}", self.numer)
        } else {
            write!(f, "{}/{}", self.numer, self.denom)
        }
    }
}

/// A player's session total.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SessionScore {
    /// The sum of the hand results (盘分).
    pub hand_total: i64,
    /// The late-arrival sanction.
    pub late: LateArrivalRuling,
    /// 局分: 500 + `hand_total` − late points, or 0 after a forfeit.
    pub score: i64,
}

/// A player's 局分 from the results of the hands played (盘分, penalties of each hand
/// included) and the minutes late at the start (whole minutes, rounded up).
pub fn session_score(
    hand_results: &[i64],
    late_minutes: i64,
    rules: &Ruleset,
) -> Result<SessionScore, Vec<Violation>> {
    let mut violations = Vec::new();
    let minutes = u32::try_from(late_minutes).unwrap_or_else(|_| {
        if late_minutes < 0 {
            violations.push(Violation::new(
                ViolationCode::ValueNegative,
                FieldPath::of("late_minutes"),
                format!("minutes late must be 0 or more, found {late_minutes}"),
            ));
        }
        u32::MAX
    });
    let hand_total = hand_results
        .iter()
        .try_fold(0i64, |acc, &r| acc.checked_add(r));
    let total = hand_total.and_then(|t| t.checked_add(SESSION_START_POINTS));
    if total.is_none() {
        violations.push(Violation::new(
            ViolationCode::ValueInvalid,
            FieldPath::of("hand_results"),
            "the hand results add up beyond any possible session total".to_owned(),
        ));
    }
    let (Some(hand_total), Some(total)) = (hand_total, total) else {
        return Err(violations);
    };
    if !violations.is_empty() {
        return Err(violations);
    }
    let late = rules.late_arrival.ruling(minutes);
    let score = if late.forfeit {
        0
    } else {
        total.saturating_sub(i64::from(late.points))
    };
    Ok(SessionScore {
        hand_total,
        late,
        score,
    })
}

/// Points by place for tied scores: players are ranked by score, highest first; under
/// [`StandardPointTies::SharePlaces`] each group of tied players shares the points of the
/// places it occupies equally, under [`StandardPointTies::SamePlace`] each takes the points
/// of the best place the group occupies.
fn points_by_place(
    scores: &[i64],
    ties: StandardPointTies,
    place_points: impl Fn(usize) -> i64,
) -> Vec<Rational> {
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|&a, &b| scores[b].cmp(&scores[a]));
    let mut out = vec![Rational::ZERO; scores.len()];
    let mut start = 0;
    while start < order.len() {
        let score = scores[order[start]];
        let end = order[start..]
            .iter()
            .position(|&i| scores[i] != score)
            .map_or(order.len(), |n| start + n);
        let points = match ties {
            StandardPointTies::SharePlaces => {
                let sum: i64 = (start..end).map(|place| place_points(place + 1)).sum();
                let tied = i64::try_from(end - start).unwrap_or(i64::MAX);
                Rational::new(sum, tied).unwrap_or(Rational::ZERO)
            }
            StandardPointTies::SamePlace => Rational::integer(place_points(start + 1)),
        };
        for &i in &order[start..end] {
            out[i] = points;
        }
        start = end;
    }
    out
}

/// Standard points of one table under 4/2/1/0, ties read as `ties` says.
pub fn table_standard_points(scores: &BySeat<i64>, ties: StandardPointTies) -> BySeat<Rational> {
    let points = points_by_place(&scores.into_array(), ties, |place| {
        TABLE_POINTS.get(place - 1).copied().unwrap_or(0)
    });
    BySeat::new_with(|s| points[s.index()])
}

/// Standard points of a group of N players under the 1998 formula: first N, then
/// N − place (N−2, N−3, …, 0 for the last); ties read as `ties` says.
pub fn group_standard_points(scores: &[i64], ties: StandardPointTies) -> Vec<Rational> {
    let n = i64::try_from(scores.len()).unwrap_or(i64::MAX);
    points_by_place(scores, ties, |place| {
        let place = i64::try_from(place).unwrap_or(i64::MAX);
        if place == 1 { n } else { n - place }
    })
}

/// Standard points of the given 局分 under a scheme: the table form needs exactly four
/// players.
pub fn standard_points(
    scores: &[i64],
    scheme: StandardPoints,
    ties: StandardPointTies,
) -> Result<Vec<Rational>, Vec<Violation>> {
    match scheme {
        StandardPoints::GroupFormula => Ok(group_standard_points(scores, ties)),
        StandardPoints::Table4210 => match <[i64; 4]>::try_from(scores) {
            Ok(table) => Ok(table_standard_points(&BySeat::from_array(table), ties)
                .into_array()
                .to_vec()),
            Err(_) => Err(vec![Violation::new(
                ViolationCode::ValueInvalid,
                FieldPath::of("scores"),
                format!(
                    "table standard points (4/2/1/0) need the four players of a table, found {}",
                    scores.len()
                ),
            )]),
        },
    }
}

/// One session's result for a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SessionResult {
    /// Standard points of the session.
    pub standard_points: Rational,
    /// 局分 of the session.
    pub score: i64,
}

/// A player's place in the ranking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Standing {
    /// The player's index in the input.
    pub player: usize,
    /// 1 for the first; players equal on every tie-break share a place, and the next place
    /// skips accordingly (1, 2, 2, 4).
    pub place: usize,
    /// Total standard points.
    pub standard_points: Rational,
    /// Total 比赛分 (sum of 局分).
    pub total_score: i64,
    /// The best single session's standard points; `None` without sessions.
    pub best_session: Option<Rational>,
    /// How many sessions reached `best_session`.
    pub top_results: usize,
}

impl Standing {
    fn of(player: usize, sessions: &[SessionResult]) -> Standing {
        let best_session = sessions.iter().map(|s| s.standard_points).max();
        Standing {
            player,
            place: 0,
            standard_points: sessions.iter().map(|s| s.standard_points).sum(),
            total_score: sessions
                .iter()
                .fold(0i64, |acc, s| acc.saturating_add(s.score)),
            best_session,
            top_results: sessions
                .iter()
                .filter(|s| Some(s.standard_points) == best_session)
                .count(),
        }
    }

    /// Better first: R98 §11 and its three tie-breaks.
    fn order(&self, other: &Standing) -> Ordering {
        other
            .standard_points
            .cmp(&self.standard_points)
            .then(other.total_score.cmp(&self.total_score))
            .then(other.best_session.cmp(&self.best_session))
            .then(other.top_results.cmp(&self.top_results))
    }
}

/// Ranks players from their session results (one list per player): by total standard
/// points, then total 局分, then the best single session's standard points, then the number
/// of sessions reaching that best (R98 §11). Returned best first; totals saturate rather than
/// overflow.
pub fn rank_players(players: &[Vec<SessionResult>]) -> Vec<Standing> {
    let mut standings: Vec<Standing> = players
        .iter()
        .enumerate()
        .map(|(i, s)| Standing::of(i, s))
        .collect();
    standings.sort_by(|a, b| a.order(b).then(a.player.cmp(&b.player)));
    for i in 0..standings.len() {
        standings[i].place = if i > 0 && standings[i].order(&standings[i - 1]) == Ordering::Equal {
            standings[i - 1].place
        } else {
            i + 1
        };
    }
    standings
}
