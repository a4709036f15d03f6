//! Where the engine's violations are in a request.
//!
//! Paths are typed ([`mcr::violation::FieldPath`]: fields and indices) from the engine to
//! the edge, where the server and the responses write them (`hand.melds[2].tiles[1]`, the
//! format of `google.rpc.BadRequest`). The engine names the parts of its own types
//! (`hand.standing`, `end.declarer`, `penalties[1].infraction.points`); a request names the
//! fields of its message (`hand.standing_tiles`, `winner`, `penalties[1].points`). Each
//! request has one table of [`Rename`]s from the first to the second, applied by
//! [`renamed`]: no path is rewritten as text.

use mcr::Violation;
use mcr::violation::{FieldPath, Step};

/// A `VALUE_INVALID` violation at `path` when the repeated field there holds `found`
/// elements, more than `max` (one of the maxima of [`crate::limits`]).
pub fn too_many(path: FieldPath, found: usize, max: usize) -> Option<Violation> {
    (found > max).then(|| {
        Violation::new(
            mcr::ViolationCode::ValueInvalid,
            path,
            format!("at most {max} elements are accepted here, found {found}"),
        )
    })
}

/// How much of a path a [`Rename`] matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// The whole path, nothing below it.
    Whole,
    /// The path and everything below it.
    Prefix,
    /// Only what lies below the path, not the path itself.
    Below,
}

/// One renaming from an engine path to a request path, both fields only (no index).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rename {
    /// The engine's fields, from the top.
    pub from: &'static [&'static str],
    /// The request's fields in their place; the steps below `from` follow unchanged.
    pub to: &'static [&'static str],
    /// Which paths the rule applies to.
    pub reach: Reach,
}

const fn rule(reach: Reach, from: &'static [&'static str], to: &'static [&'static str]) -> Rename {
    Rename { from, to, reach }
}

/// A hand and its context (`ScoreHand`, `ValidateHand`, `BatchScoreHands`): the engine calls
/// the standing tiles `hand.standing`.
pub const HAND: &[Rename] = &[rule(
    Reach::Prefix,
    &["hand", "standing"],
    &["hand", "standing_tiles"],
)];

/// A winning hand of `SettleHand` and `AdjudicatePenalty`, relative to it: the context's
/// method is its `self_drawn` flag.
pub const WINNING_HAND: &[Rename] = &[
    rule(
        Reach::Whole,
        &["context", "method"],
        &["context", "self_drawn"],
    ),
    rule(
        Reach::Prefix,
        &["hand", "standing"],
        &["hand", "standing_tiles"],
    ),
];

/// An offence, relative to it: the engine nests the details under `infraction`, the
/// `Penalty` message has them flat; the engine's `minutes` is `late_minutes`.
pub const OFFENCE: &[Rename] = &[
    rule(Reach::Whole, &["infraction", "minutes"], &["late_minutes"]),
    rule(Reach::Below, &["infraction"], &[]),
];

/// A settlement (`SettleHand`): the end of the hand and its value. A hand given as tiles
/// is `winning_hand` ([`WINNING_HAND`] below it), offences `penalties[i]` ([`OFFENCE`]).
pub const SETTLEMENT: &[Rename] = &[
    rule(Reach::Whole, &["end", "declarer"], &["winner"]),
    rule(
        Reach::Whole,
        &["end", "source", "discarder"],
        &["discarder"],
    ),
    rule(Reach::Whole, &["end", "source", "robbed"], &["discarder"]),
    rule(Reach::Whole, &["value"], &["win_value"]),
    rule(Reach::Whole, &["value", "fan"], &["fan_count", "fan_total"]),
    rule(
        Reach::Whole,
        &["value", "flowers"],
        &["fan_count", "flower_count"],
    ),
];

/// The steps of `path` below the fields `from`, when it starts with them.
fn below<'p>(path: &'p FieldPath, from: &[&str]) -> Option<&'p [Step]> {
    let steps = path.steps();
    if steps.len() < from.len() {
        return None;
    }
    let (head, rest) = steps.split_at(from.len());
    let matches = head.iter().zip(from).all(|(step, name)| match step {
        Step::Field(field) => field == name,
        Step::Index(_) => false,
    });
    matches.then_some(rest)
}

/// `path` with the first rule of `table` that matches it applied; unchanged when none does.
pub fn renamed(path: FieldPath, table: &[Rename]) -> FieldPath {
    for rule in table {
        let Some(rest) = below(&path, rule.from) else {
            continue;
        };
        let applies = match rule.reach {
            Reach::Whole => rest.is_empty(),
            Reach::Prefix => true,
            Reach::Below => !rest.is_empty(),
        };
        if applies {
            let mut to = FieldPath::ROOT;
            for name in rule.to {
                to = to.field(name);
            }
            return to.join(rest);
        }
    }
    path
}

/// `path` with index `k` of the repeated field `name` at its start replaced by `map(k)`
/// (when `map` gives one): the k-th element converted is the `map(k)`-th sent.
pub fn reindexed(path: FieldPath, name: &str, map: impl Fn(usize) -> Option<usize>) -> FieldPath {
    match path.steps() {
        [Step::Field(first), Step::Index(k), rest @ ..] if *first == name => match map(*k) {
            Some(i) => FieldPath::of(first).index(i).join(rest),
            None => path,
        },
        _ => path,
    }
}

/// The path of a settlement violation in a `SettleHandRequest`.
pub fn settlement(path: FieldPath) -> FieldPath {
    let renamed_path = renamed(path, SETTLEMENT);
    if renamed_path != path {
        return renamed_path;
    }
    match path.steps() {
        [Step::Field("value"), rest @ ..] => {
            winning_hand(FieldPath::from_steps(rest), FieldPath::of("winning_hand"))
        }
        [Step::Field("penalties"), Step::Index(i), rest @ ..] => {
            offence(rest, FieldPath::of("penalties").index(*i))
        }
        _ => path,
    }
}

/// The path of a violation of [`mcr::penalty::rule`] (at `offence.…`) or of
/// [`mcr::penalty::adjudicate`] (at `offences[k].…`) in an `AdjudicatePenaltyRequest`, where
/// the offences are `offences[k]` ([`OFFENCE`]); the index is the engine's.
pub fn adjudication(path: FieldPath) -> FieldPath {
    let offences = FieldPath::of("offences");
    match path.steps() {
        [Step::Field("offence"), detail @ ..] => offence(detail, offences.index(0)),
        [Step::Field("offences"), Step::Index(k), detail @ ..] => {
            offence(detail, offences.index(*k))
        }
        _ => path,
    }
}

/// The path of a violation of [`mcr::decide_declared_win`] in an `AdjudicatePenaltyRequest`:
/// the declaration's source (its discarder or robbed player) is `declared_win.discarder`,
/// the hand and its context are in `declared_win.winning_hand` ([`WINNING_HAND`]).
pub fn declared_win(path: FieldPath) -> FieldPath {
    let declared_win = FieldPath::of("declared_win");
    match path.steps() {
        [Step::Field("declaration"), Step::Field("source"), _, ..] => {
            declared_win.field("discarder")
        }
        _ => winning_hand(path, declared_win.field("winning_hand")),
    }
}

/// The path of a violation about a winning hand or its context, below `prefix`.
pub fn winning_hand(path: FieldPath, prefix: FieldPath) -> FieldPath {
    renamed(path, WINNING_HAND).under(prefix)
}

/// The path of a violation about an offence (`detail`, relative to the offence, as the
/// engine has it) in the request's offence at `at` ([`OFFENCE`]).
pub fn offence(detail: &[Step], at: FieldPath) -> FieldPath {
    renamed(FieldPath::from_steps(detail), OFFENCE).under(at)
}

/// A violation of the engine with its path renamed by `rename`.
pub fn renamed_violation(
    mut v: Violation,
    rename: impl FnOnce(FieldPath) -> FieldPath,
) -> Violation {
    *v.path = rename(*v.path);
    v
}

/// A violation of the engine about a hand with its context, with the request's path
/// ([`HAND`]).
pub fn hand_violation(v: Violation) -> Violation {
    renamed_violation(v, |p| renamed(p, HAND))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_standing_paths_are_renamed() {
        let v = |p: FieldPath| {
            hand_violation(Violation::new(
                mcr::ViolationCode::TileCountWrong,
                p,
                String::new(),
            ))
            .path
            .to_string()
        };
        let hand = FieldPath::of("hand");
        assert_eq!(v(hand.field("standing")), "hand.standing_tiles");
        assert_eq!(v(hand.field("standing").index(3)), "hand.standing_tiles[3]");
        assert_eq!(v(hand.field("standing_tiles")), "hand.standing_tiles");
        assert_eq!(v(hand.field("melds").index(0)), "hand.melds[0]");
        assert_eq!(v(FieldPath::of("standing")), "standing");
        assert_eq!(v(hand), "hand");
    }

    #[test]
    fn settlement_paths_are_the_request_fields() {
        let at = |p: FieldPath| settlement(p).to_string();
        let (end, value) = (FieldPath::of("end"), FieldPath::of("value"));
        let penalty = FieldPath::of("penalties").index(3);
        assert_eq!(at(end.field("declarer")), "winner");
        assert_eq!(at(end.field("declarer").field("x")), "end.declarer.x");
        assert_eq!(at(end.field("source").field("robbed")), "discarder");
        assert_eq!(at(value), "win_value");
        assert_eq!(at(value.field("flowers")), "fan_count.flower_count");
        assert_eq!(
            at(value.field("hand").field("standing").index(2)),
            "winning_hand.hand.standing_tiles[2]"
        );
        assert_eq!(
            at(value.field("context").field("method")),
            "winning_hand.context.self_drawn"
        );
        assert_eq!(
            at(penalty.field("infraction").field("minutes")),
            "penalties[3].late_minutes"
        );
        assert_eq!(
            at(penalty.field("infraction").field("points")),
            "penalties[3].points"
        );
        assert_eq!(at(penalty.field("infraction")), "penalties[3].infraction");
        let offender = |k| FieldPath::of("penalties").index(k).field("offender");
        let renumber = |k| reindexed(offender(k), "penalties", |k| [4, 7].get(k).copied());
        assert_eq!(renumber(1).to_string(), "penalties[7].offender");
        assert_eq!(renumber(2).to_string(), "penalties[2].offender");
    }

    #[test]
    fn adjudication_paths_are_the_request_fields() {
        let (offence, offences) = (FieldPath::of("offence"), FieldPath::of("offences"));
        let at = |p: FieldPath| adjudication(p).to_string();
        assert_eq!(
            at(offence.field("infraction").field("points")),
            "offences[0].points"
        );
        assert_eq!(
            at(offences.index(2).field("infraction").field("minutes")),
            "offences[2].late_minutes"
        );
        assert_eq!(
            at(offences.index(2).field("infraction")),
            "offences[2].infraction"
        );
        let declared = |p: FieldPath| declared_win(p).to_string();
        let source = FieldPath::of("declaration").field("source");
        assert_eq!(declared(source.field("robbed")), "declared_win.discarder");
        assert_eq!(
            declared(source.field("discarder")),
            "declared_win.discarder"
        );
        assert_eq!(
            declared(FieldPath::of("hand").field("standing").index(1)),
            "declared_win.winning_hand.hand.standing_tiles[1]"
        );
        assert_eq!(
            declared(FieldPath::of("context").field("method")),
            "declared_win.winning_hand.context.self_drawn"
        );
    }
}
