//! Field paths: where in a request a violation is, as a list of steps (`hand`,
//! `melds`, `[2]`, `tiles`, `[1]`) rendered in one place as `hand.melds[2].tiles[1]`, the
//! format of `google.rpc.BadRequest`.
//!
//! The engine names the parts of its own types (`hand.standing`, `end.declarer`,
//! `penalties[1].infraction.points`); a request names the fields of its message
//! (`hand.standing_tiles`, `winner`, `penalties[1].points`). Each request has one table of
//! [`Rename`]s from the first to the second, written in this same language, and applied by
//! [`FieldPath::renamed`]: no path is rewritten by string matching.

use std::fmt;

use mcr::Violation;

/// A `VALUE_INVALID` violation at `path` when the repeated field there holds `found`
/// elements, more than `max` (one of the maxima of [`crate::limits`]).
pub fn too_many(path: &FieldPath, found: usize, max: usize) -> Option<Violation> {
    (found > max).then(|| {
        Violation::new(
            mcr::ViolationCode::ValueInvalid,
            path.to_string(),
            format!("at most {max} elements are accepted here, found {found}"),
        )
    })
}

/// One step of a path: a field by name, or an element of a repeated field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// A field (`hand`, `standing_tiles`).
    Field(String),
    /// An element of the repeated field before it (`[2]`).
    Index(usize),
    /// In a [`Rename`] pattern only: any element (`[*]`), kept as it is.
    AnyIndex,
}

/// A path into a request, from its top-level message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldPath {
    steps: Vec<Step>,
}

impl FieldPath {
    /// Reads a path written as the engine and [`fmt::Display`] write it: fields joined by
    /// `.`, indices in brackets (`penalties[2].infraction`); `[*]` is [`Step::AnyIndex`]. A
    /// bracket that holds no number is read as part of the field name.
    pub fn parse(text: &str) -> FieldPath {
        let mut steps = Vec::new();
        for part in text.split('.').filter(|p| !p.is_empty()) {
            let (name, mut rest) = part.split_once('[').map_or((part, ""), |(n, r)| (n, r));
            if !name.is_empty() {
                steps.push(Step::Field(name.to_owned()));
            }
            while let Some((inside, after)) = rest.split_once(']') {
                match inside {
                    "*" => steps.push(Step::AnyIndex),
                    n => match n.parse() {
                        Ok(i) => steps.push(Step::Index(i)),
                        Err(_) => steps.push(Step::Field(format!("[{n}]"))),
                    },
                }
                rest = after.strip_prefix('[').unwrap_or(after);
            }
        }
        FieldPath { steps }
    }

    /// The path one field further down.
    #[must_use]
    pub fn field(mut self, name: &str) -> FieldPath {
        self.steps.push(Step::Field(name.to_owned()));
        self
    }

    /// The path to element `index` of this repeated field.
    #[must_use]
    pub fn index(mut self, index: usize) -> FieldPath {
        self.steps.push(Step::Index(index));
        self
    }

    /// This path below `prefix` (`hand.melds[0]` below `winning_hand`).
    #[must_use]
    pub fn under(self, prefix: &FieldPath) -> FieldPath {
        let mut steps = prefix.steps.clone();
        steps.extend(self.steps);
        FieldPath { steps }
    }

    /// The path with the first rule of `table` that matches it applied; unchanged when none
    /// does.
    #[must_use]
    pub fn renamed(self, table: &[Rename]) -> FieldPath {
        for rule in table {
            let from = FieldPath::parse(rule.from);
            let Some(kept) = self.match_prefix(&from) else {
                continue;
            };
            let below = self.steps.len() > from.steps.len();
            match rule.reach {
                Reach::Whole if below => continue,
                Reach::Below if !below => continue,
                Reach::Whole | Reach::Prefix | Reach::Below => {}
            }
            let mut kept = kept.into_iter();
            let mut steps: Vec<Step> = FieldPath::parse(rule.to)
                .steps
                .into_iter()
                .map(|s| match s {
                    Step::AnyIndex => kept.next().map_or(Step::AnyIndex, Step::Index),
                    other @ (Step::Field(_) | Step::Index(_)) => other,
                })
                .collect();
            steps.extend(self.steps[from.steps.len()..].iter().cloned());
            return FieldPath { steps };
        }
        self
    }

    /// The path with index `k` of the repeated field `name` at its start replaced by
    /// `map(k)` (when `map` gives one): the k-th element converted is the `map(k)`-th sent.
    #[must_use]
    pub fn reindexed(mut self, name: &str, map: impl Fn(usize) -> Option<usize>) -> FieldPath {
        if let [Step::Field(first), Step::Index(k), ..] = self.steps.as_mut_slice()
            && first == name
            && let Some(i) = map(*k)
        {
            *k = i;
        }
        self
    }

    /// The first `n` steps, and the rest.
    pub fn split_at(mut self, n: usize) -> (FieldPath, FieldPath) {
        let rest = self.steps.split_off(n.min(self.steps.len()));
        (self, FieldPath { steps: rest })
    }

    /// The name of the first step, when it is a field.
    pub fn first_field(&self) -> Option<&str> {
        match self.steps.first() {
            Some(Step::Field(name)) => Some(name),
            Some(Step::Index(_) | Step::AnyIndex) | None => None,
        }
    }

    /// The indices `pattern`'s [`Step::AnyIndex`] steps match, when it is a prefix of this
    /// path.
    fn match_prefix(&self, pattern: &FieldPath) -> Option<Vec<usize>> {
        if pattern.steps.len() > self.steps.len() {
            return None;
        }
        let mut kept = Vec::new();
        for (mine, theirs) in self.steps.iter().zip(&pattern.steps) {
            match (mine, theirs) {
                (Step::Index(i), Step::AnyIndex) => kept.push(*i),
                (Step::Field(a), Step::Field(b)) if a == b => {}
                (Step::Index(a), Step::Index(b)) if a == b => {}
                (Step::Field(_) | Step::Index(_) | Step::AnyIndex, _) => return None,
            }
        }
        Some(kept)
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, step) in self.steps.iter().enumerate() {
            match step {
                Step::Field(name) if i == 0 => f.write_str(name)?,
                Step::Field(name) => write!(f, ".{name}")?,
                Step::Index(index) => write!(f, "[{index}]")?,
                Step::AnyIndex => f.write_str("[*]")?,
            }
        }
        Ok(())
    }
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

/// One renaming from an engine path to a request path: `from` and `to` are paths, `[*]`
/// in `from` matches any index and is kept at the same place in `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rename {
    /// The engine's path.
    pub from: &'static str,
    /// The request's path; the steps below `from` follow unchanged.
    pub to: &'static str,
    /// Which paths the rule applies to.
    pub reach: Reach,
}

const fn rule(reach: Reach, from: &'static str, to: &'static str) -> Rename {
    Rename { from, to, reach }
}

/// A hand and its context (`ScoreHand`, `ValidateHand`, `BatchScoreHands`): the engine calls
/// the standing tiles `hand.standing`.
pub const HAND: &[Rename] = &[rule(Reach::Prefix, "hand.standing", "hand.standing_tiles")];

/// A winning hand of `SettleHand` and `AdjudicatePenalty`, relative to it: the context's
/// method is its `self_drawn` flag.
pub const WINNING_HAND: &[Rename] = &[
    rule(Reach::Whole, "context.method", "context.self_drawn"),
    rule(Reach::Prefix, "hand.standing", "hand.standing_tiles"),
];

/// An offence, relative to it: the engine nests the details under `infraction`, the
/// `Penalty` message has them flat; the engine's `minutes` is `late_minutes`.
pub const OFFENCE: &[Rename] = &[
    rule(Reach::Whole, "infraction.minutes", "late_minutes"),
    rule(Reach::Below, "infraction", ""),
];

/// A settlement (`SettleHand`): the end of the hand and its value. A hand given as tiles
/// is `winning_hand` ([`WINNING_HAND`] below it), offences `penalties[i]` ([`OFFENCE`]).
pub const SETTLEMENT: &[Rename] = &[
    rule(Reach::Whole, "end.declarer", "winner"),
    rule(Reach::Whole, "end.source.discarder", "discarder"),
    rule(Reach::Whole, "end.source.robbed", "discarder"),
    rule(Reach::Whole, "value", "win_value"),
    rule(Reach::Whole, "value.fan", "fan_count.fan_total"),
    rule(Reach::Whole, "value.flowers", "fan_count.flower_count"),
];

/// The path of a settlement violation in a `SettleHandRequest`.
pub fn settlement(field: &str) -> FieldPath {
    let path = FieldPath::parse(field);
    let renamed = path.clone().renamed(SETTLEMENT);
    if renamed != path {
        return renamed;
    }
    match path.first_field() {
        Some("value") => {
            let (_, rest) = path.split_at(1);
            winning_hand(rest, &FieldPath::parse("winning_hand"))
        }
        Some("penalties") => {
            let (at, detail) = path.split_at(2);
            offence(detail, &at)
        }
        Some(_) | None => path,
    }
}

/// The path of a violation about a winning hand or its context, below `prefix`.
pub fn winning_hand(path: FieldPath, prefix: &FieldPath) -> FieldPath {
    path.renamed(WINNING_HAND).under(prefix)
}

/// The path of a violation about an offence (`detail`, relative to the offence, as the
/// engine has it) in the request's offence at `at` ([`OFFENCE`]).
pub fn offence(detail: FieldPath, at: &FieldPath) -> FieldPath {
    detail.renamed(OFFENCE).under(at)
}

/// A violation of the engine with its path renamed by `rename`.
pub fn renamed_violation(
    mut v: Violation,
    rename: impl FnOnce(FieldPath) -> FieldPath,
) -> Violation {
    v.field = rename(FieldPath::parse(&v.field)).to_string();
    v
}

/// A violation of the engine about a hand with its context, with the request's path
/// ([`HAND`]).
pub fn hand_violation(v: Violation) -> Violation {
    renamed_violation(v, |p| p.renamed(HAND))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_and_render_back() {
        for text in [
            "hand",
            "hand.melds[2].tiles[1]",
            "penalties[0][1].x",
            "players[1].sessions[0].late_minutes",
        ] {
            assert_eq!(FieldPath::parse(text).to_string(), text);
        }
        let built = FieldPath::default().field("hand").field("melds").index(2);
        assert_eq!(built.to_string(), "hand.melds[2]");
    }

    #[test]
    fn only_standing_paths_are_renamed() {
        let v = |f: &str| {
            Violation::new(
                mcr::ViolationCode::TileCountWrong,
                f.to_owned(),
                String::new(),
            )
        };
        assert_eq!(
            hand_violation(v("hand.standing")).field,
            "hand.standing_tiles"
        );
        assert_eq!(
            hand_violation(v("hand.standing[3]")).field,
            "hand.standing_tiles[3]"
        );
        assert_eq!(
            hand_violation(v("hand.standing_tiles")).field,
            "hand.standing_tiles"
        );
        assert_eq!(hand_violation(v("hand.melds[0]")).field, "hand.melds[0]");
    }

    #[test]
    fn settlement_paths_are_the_request_fields() {
        let path = |field: &str| settlement(field).to_string();
        assert_eq!(path("end.declarer"), "winner");
        assert_eq!(path("end.source.robbed"), "discarder");
        assert_eq!(path("value"), "win_value");
        assert_eq!(path("value.flowers"), "fan_count.flower_count");
        assert_eq!(
            path("value.hand.standing[2]"),
            "winning_hand.hand.standing_tiles[2]"
        );
        assert_eq!(
            path("value.context.method"),
            "winning_hand.context.self_drawn"
        );
        assert_eq!(
            path("penalties[3].infraction.minutes"),
            "penalties[3].late_minutes"
        );
        assert_eq!(
            path("penalties[3].infraction.points"),
            "penalties[3].points"
        );
        assert_eq!(path("penalties[3].infraction"), "penalties[3].infraction");
        assert_eq!(
            FieldPath::parse("penalties[1].offender")
                .reindexed("penalties", |k| [4, 7].get(k).copied())
                .to_string(),
            "penalties[7].offender"
        );
    }
}
