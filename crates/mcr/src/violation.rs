//! Input violations: every problem found in a hand or a context, each with a stable code and
//! the path of its field. Paths are typed ([`FieldPath`]: fields and indices, built without
//! text); whoever answers writes them (`hand.melds[2].tiles[1]`), once.

use std::fmt;

/// The stable machine code of a violation. Codes never change meaning; new ones may be added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ViolationCode {
    /// The number of standing tiles does not fit the declared melds.
    TileCountWrong,
    /// A tile appears more than four times.
    TooManyCopies,
    /// More than four declared melds.
    TooManyMelds,
    /// A meld has the wrong number of tiles for its kind.
    MeldTileCount,
    /// A chow that is not three consecutive numbered tiles of one suit.
    ChowInvalid,
    /// A chow claimed from someone other than the player on the left.
    ChowNotFromLeft,
    /// A pung whose tiles are not identical.
    PungInvalid,
    /// A kong whose tiles are not identical.
    KongInvalid,
    /// A concealed kong with a claimed tile.
    ConcealedKongClaimed,
    /// No winning tile.
    WinningTileMissing,
    /// A tile that is not one of the 34 kinds.
    TileUnknown,
    /// Circumstances of the win that cannot happen together.
    ContextConflict,
    /// More than 8 flowers.
    FlowerCount,
    /// An enum value outside its range, or a required value left unspecified.
    ValueInvalid,
    /// Hand notation that cannot be parsed.
    NotationSyntax,
    /// A seat that is not at the table (or left unspecified where one is required).
    SeatInvalid,
    /// An infraction that is not in the penalty catalogue (or left unspecified).
    InfractionUnknown,
    /// A referee-graded penalty amount outside the ruleset's range (5–60).
    PenaltyAmountOutOfRange,
    /// A count or amount below zero (fan total, flowers, minutes, points, occurrence).
    ValueNegative,
    /// The winner and the discarder (or robbed player) are the same seat.
    WinnerIsPayer,
    /// The winner lost the right to win this hand (停和) or was disqualified by a penalty of
    /// the same hand.
    WinnerBarred,
    /// Claims on one discard that cannot be resolved: none, the discarder's own, a claimant
    /// listed twice, or a named winner who is not the first claimant in turn order.
    ClaimInvalid,
    /// A penalty outside the scope of the request (late arrival in a hand: it belongs to the
    /// session total).
    PenaltyOutOfScope,
    /// A win without its value (the fan total or the hand to score).
    WinValueMissing,
    /// A value given for a hand that ended without a win (荒牌).
    WinValueForDraw,
}

impl ViolationCode {
    /// Every code, for documentation and tests.
    pub const ALL: [ViolationCode; 25] = [
        ViolationCode::TileCountWrong,
        ViolationCode::TooManyCopies,
        ViolationCode::TooManyMelds,
        ViolationCode::MeldTileCount,
        ViolationCode::ChowInvalid,
        ViolationCode::ChowNotFromLeft,
        ViolationCode::PungInvalid,
        ViolationCode::KongInvalid,
        ViolationCode::ConcealedKongClaimed,
        ViolationCode::WinningTileMissing,
        ViolationCode::TileUnknown,
        ViolationCode::ContextConflict,
        ViolationCode::FlowerCount,
        ViolationCode::ValueInvalid,
        ViolationCode::NotationSyntax,
        ViolationCode::SeatInvalid,
        ViolationCode::InfractionUnknown,
        ViolationCode::PenaltyAmountOutOfRange,
        ViolationCode::ValueNegative,
        ViolationCode::WinnerIsPayer,
        ViolationCode::WinnerBarred,
        ViolationCode::ClaimInvalid,
        ViolationCode::PenaltyOutOfScope,
        ViolationCode::WinValueMissing,
        ViolationCode::WinValueForDraw,
    ];

    /// The stable `UPPER_SNAKE_CASE` code.
    pub const fn as_str(self) -> &'static str {
        match self {
            ViolationCode::TileCountWrong => "TILE_COUNT_WRONG",
            ViolationCode::TooManyCopies => "TILE_COPIES_EXCEEDED",
            ViolationCode::TooManyMelds => "MELDS_TOO_MANY",
            ViolationCode::MeldTileCount => "MELD_TILE_COUNT",
            ViolationCode::ChowInvalid => "CHOW_INVALID",
            ViolationCode::ChowNotFromLeft => "CHOW_NOT_FROM_LEFT",
            ViolationCode::PungInvalid => "PUNG_INVALID",
            ViolationCode::KongInvalid => "KONG_INVALID",
            ViolationCode::ConcealedKongClaimed => "CONCEALED_KONG_CLAIMED",
            ViolationCode::WinningTileMissing => "WINNING_TILE_MISSING",
            ViolationCode::TileUnknown => "TILE_UNKNOWN",
            ViolationCode::ContextConflict => "CONTEXT_CONFLICT",
            ViolationCode::FlowerCount => "FLOWER_COUNT_INVALID",
            ViolationCode::ValueInvalid => "VALUE_INVALID",
            ViolationCode::NotationSyntax => "NOTATION_SYNTAX",
            ViolationCode::SeatInvalid => "SEAT_INVALID",
            ViolationCode::InfractionUnknown => "INFRACTION_UNKNOWN",
            ViolationCode::PenaltyAmountOutOfRange => "PENALTY_AMOUNT_OUT_OF_RANGE",
            ViolationCode::ValueNegative => "VALUE_NEGATIVE",
            ViolationCode::WinnerIsPayer => "WINNER_IS_PAYER",
            ViolationCode::WinnerBarred => "WINNER_BARRED",
            ViolationCode::ClaimInvalid => "CLAIM_INVALID",
            ViolationCode::PenaltyOutOfScope => "PENALTY_OUT_OF_SCOPE",
            ViolationCode::WinValueMissing => "WIN_VALUE_MISSING",
            ViolationCode::WinValueForDraw => "WIN_VALUE_FOR_DRAW",
        }
    }
}

impl fmt::Display for ViolationCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The most steps a [`FieldPath`] holds (the deepest path the service writes has 7:
/// `declared_win.winning_hand.hand.melds[0].tiles[1]`). A step beyond is left out, and the
/// path ends in `…` when written.
pub const MAX_DEPTH: usize = 10;

/// One step of a [`FieldPath`]: a field by name, or an element of a repeated field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// A field (`hand`, `melds`).
    Field(&'static str),
    /// An element of the repeated field before it (`[2]`).
    Index(usize),
}

/// Where a violation is: a list of steps from the top of the input (`hand`, `melds`, `[2]`,
/// `tiles`), written `hand.melds[2].tiles` ([`fmt::Display`]). Built without allocating and
/// copied freely; a path may be a `const`.
#[derive(Clone, Copy)]
pub struct FieldPath {
    steps: [Step; MAX_DEPTH],
    len: usize,
    /// Steps were left out beyond [`MAX_DEPTH`].
    cut: bool,
}

impl FieldPath {
    /// The empty path: the input itself.
    pub const ROOT: FieldPath = FieldPath {
        steps: [Step::Index(0); MAX_DEPTH],
        len: 0,
        cut: false,
    };

    /// The path of the field `name` at the top of the input.
    pub const fn of(name: &'static str) -> FieldPath {
        FieldPath::ROOT.field(name)
    }

    /// The path of the steps `steps`.
    pub const fn from_steps(steps: &[Step]) -> FieldPath {
        FieldPath::ROOT.join(steps)
    }

    /// The path one field further down.
    #[must_use]
    pub const fn field(self, name: &'static str) -> FieldPath {
        self.step(Step::Field(name))
    }

    /// The path to element `index` of this repeated field.
    #[must_use]
    pub const fn index(self, index: usize) -> FieldPath {
        self.step(Step::Index(index))
    }

    /// The path one step further down.
    #[must_use]
    pub const fn step(mut self, step: Step) -> FieldPath {
        if self.len < MAX_DEPTH {
            self.steps[self.len] = step;
            self.len += 1;
        } else {
            self.cut = true;
        }
        self
    }

    /// This path followed by `steps`.
    #[must_use]
    pub const fn join(mut self, steps: &[Step]) -> FieldPath {
        let mut i = 0;
        while i < steps.len() {
            self = self.step(steps[i]);
            i += 1;
        }
        self
    }

    /// This path below `prefix` (`melds[0]` below `hand` is `hand.melds[0]`).
    #[must_use]
    pub const fn under(self, prefix: FieldPath) -> FieldPath {
        let mut path = prefix.join(self.steps());
        path.cut = path.cut || self.cut;
        path
    }

    /// The steps, from the top.
    pub const fn steps(&self) -> &[Step] {
        self.steps.split_at(self.len).0
    }
}

impl PartialEq for FieldPath {
    fn eq(&self, other: &FieldPath) -> bool {
        self.steps() == other.steps() && self.cut == other.cut
    }
}

impl Eq for FieldPath {}

impl std::hash::Hash for FieldPath {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.steps().hash(state);
        self.cut.hash(state);
    }
}

impl Default for FieldPath {
    fn default() -> FieldPath {
        FieldPath::ROOT
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, step) in self.steps().iter().enumerate() {
            match step {
                Step::Field(name) if i == 0 => f.write_str(name)?,
                Step::Field(name) => write!(f, ".{name}")?,
                Step::Index(index) => write!(f, "[{index}]")?,
            }
        }
        if self.cut {
            f.write_str("…")?;
        }
        Ok(())
    }
}

impl fmt::Debug for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FieldPath({self})")
    }
}

/// One problem with the input: a stable code, the field it concerns, and a message for people.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Violation {
    /// Stable machine code.
    pub code: ViolationCode,
    /// The offending field (`hand.melds[2].tiles`, `context.robbing_kong`, `notation`), boxed
    /// so that a `Result` with a violation stays small.
    pub path: Box<FieldPath>,
    /// An English sentence a person understands.
    pub message: String,
}

impl Violation {
    /// A violation.
    pub fn new(code: ViolationCode, path: FieldPath, message: String) -> Self {
        Violation {
            code,
            path: Box::new(path),
            message,
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}: {}", self.code, self.path, self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_upper_snake_case() {
        let mut seen = std::collections::HashSet::new();
        for code in ViolationCode::ALL {
            let s = code.as_str();
            assert!(seen.insert(s), "{s} is used twice");
            assert!(
                s.chars().all(|c| c.is_ascii_uppercase() || c == '_'),
                "{s} is not UPPER_SNAKE_CASE"
            );
            assert_eq!(code.to_string(), s);
        }
        assert_eq!(ViolationCode::SeatInvalid.as_str(), "SEAT_INVALID");
        assert_eq!(
            ViolationCode::WinValueForDraw.as_str(),
            "WIN_VALUE_FOR_DRAW"
        );
    }

    #[test]
    fn paths_are_written_as_fields_and_indices() {
        const MELD: FieldPath = FieldPath::of("hand").field("melds").index(2);
        assert_eq!(
            MELD.field("tiles").index(1).to_string(),
            "hand.melds[2].tiles[1]"
        );
        assert_eq!(FieldPath::of("notation").to_string(), "notation");
        assert_eq!(FieldPath::ROOT.to_string(), "");
        assert_eq!(FieldPath::ROOT.index(3).field("x").to_string(), "[3].x");
        assert_eq!(
            FieldPath::of("tiles").index(0).under(MELD).to_string(),
            "hand.melds[2].tiles[0]"
        );
        assert_eq!(
            FieldPath::from_steps(MELD.steps()).join(&[Step::Field("kind")]),
            MELD.field("kind")
        );
        assert_eq!(
            MELD.steps(),
            [Step::Field("hand"), Step::Field("melds"), Step::Index(2)]
        );
        let v = Violation::new(ViolationCode::ChowInvalid, MELD, "no".to_owned());
        assert_eq!(v.to_string(), "CHOW_INVALID at hand.melds[2]: no");
    }

    #[test]
    fn a_path_deeper_than_the_limit_is_cut_and_says_so() {
        let mut path = FieldPath::ROOT;
        for _ in 0..MAX_DEPTH {
            path = path.field("a");
        }
        let full = path;
        assert_eq!(full.steps().len(), MAX_DEPTH);
        assert!(!full.to_string().ends_with('…'));
        let cut = full.index(7);
        assert_eq!(cut.steps(), full.steps());
        assert_ne!(cut, full);
        assert!(cut.to_string().ends_with("a.a…"), "{cut}");
        assert!(FieldPath::of("b").under(cut).to_string().ends_with('…'));
        assert!(cut.under(FieldPath::ROOT).to_string().ends_with('…'));
    }
}
