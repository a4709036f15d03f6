//! The catalogue of infractions (docs/rules/penalties.md#catalogue): one row per kind, with its stable code,
//! its names and whether it escalates within a hand, as the fan table is for fans.

use std::fmt;
use std::str::FromStr;

use crate::violation::{FieldPath, Violation, ViolationCode};

/// The kind of an infraction without its details, with a stable machine code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum InfractionKind {
    /// [`Infraction::Cheating`](super::Infraction::Cheating).
    Cheating,
    /// [`Infraction::WrongChow`](super::Infraction::WrongChow).
    WrongChow,
    /// [`Infraction::WrongPung`](super::Infraction::WrongPung).
    WrongPung,
    /// [`Infraction::WrongKong`](super::Infraction::WrongKong).
    WrongKong,
    /// [`Infraction::EmptyChow`](super::Infraction::EmptyChow).
    EmptyChow,
    /// [`Infraction::EmptyPung`](super::Infraction::EmptyPung).
    EmptyPung,
    /// [`Infraction::EmptyKong`](super::Infraction::EmptyKong).
    EmptyKong,
    /// [`Infraction::EarlyDraw`](super::Infraction::EarlyDraw).
    EarlyDraw,
    /// [`Infraction::LatePung`](super::Infraction::LatePung).
    LatePung,
    /// [`Infraction::FalseWin`](super::Infraction::FalseWin).
    FalseWin,
    /// [`Infraction::WrongWinningTile`](super::Infraction::WrongWinningTile).
    WrongWinningTile,
    /// [`Infraction::NotReadyWin`](super::Infraction::NotReadyWin).
    NotReadyWin,
    /// [`Infraction::DeliberateFalseWin`](super::Infraction::DeliberateFalseWin).
    DeliberateFalseWin,
    /// [`Infraction::ExposingOwnTiles`](super::Infraction::ExposingOwnTiles).
    ExposingOwnTiles,
    /// [`Infraction::LayingDownHand`](super::Infraction::LayingDownHand).
    LayingDownHand,
    /// [`Infraction::ExposingOthersTiles`](super::Infraction::ExposingOthersTiles).
    ExposingOthersTiles,
    /// [`Infraction::NamingDiscard`](super::Infraction::NamingDiscard).
    NamingDiscard,
    /// [`Infraction::MisleadingDiscardName`](super::Infraction::MisleadingDiscardName).
    MisleadingDiscardName,
    /// [`Infraction::WrongTileCount`](super::Infraction::WrongTileCount).
    WrongTileCount,
    /// [`Infraction::IllegalSignals`](super::Infraction::IllegalSignals).
    IllegalSignals,
    /// [`Infraction::SeriousDisturbance`](super::Infraction::SeriousDisturbance).
    SeriousDisturbance,
    /// [`Infraction::LateArrival`](super::Infraction::LateArrival).
    LateArrival,
}

/// One row of the infraction catalogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InfractionSpec {
    /// The kind this row describes (the row's index is `kind as usize`).
    pub kind: InfractionKind,
    /// The stable `UPPER_SNAKE_CASE` code.
    pub code: &'static str,
    /// The rulebook's Chinese name.
    pub name_zh: &'static str,
    /// The same name in Traditional characters (繁體), written by hand (杠 is 槓).
    pub name_zh_hant: &'static str,
    /// The English name, in lower case (`empty pung`, `false win`).
    pub name_en: &'static str,
    /// The repeated-offence family, if the kind escalates within a hand.
    pub repeated: Option<RepeatedOffence>,
    /// How the referee's amount is checked, if the referee grades one.
    pub graded: Option<GradedAmount>,
}

/// What a referee-graded amount may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GradedAmount {
    /// A deduction graded as R98 §13-2(2) grades them: one of the ruleset's
    /// [`grades`](crate::ruleset::PenaltyFigures::grades) (5, 10, 20, 30, 40, 50, 60).
    Grade,
    /// An amount paid to a victim, which the infraction's own rule gives as a range
    /// (R98 §14-7(3): 5–60): any whole number from the ruleset's
    /// [`graded_min`](crate::ruleset::PenaltyFigures::graded_min) to
    /// [`graded_max`](crate::ruleset::PenaltyFigures::graded_max).
    VictimRange,
}

/// The number of infraction kinds.
pub const INFRACTION_COUNT: usize = 22;

/// The infraction catalogue, in the order of [`InfractionKind`].
pub const INFRACTION_TABLE: [InfractionSpec; INFRACTION_COUNT] = [
    InfractionSpec {
        kind: InfractionKind::Cheating,
        code: "CHEATING",
        name_zh: "作弊",
        name_zh_hant: "作弊",
        name_en: "cheating",
        repeated: None,
        graded: None,
    },
    InfractionSpec {
        kind: InfractionKind::WrongChow,
        code: "WRONG_CHOW",
        name_zh: "错吃",
        name_zh_hant: "錯吃",
        name_en: "wrong chow",
        repeated: None,
        graded: None,
    },
    InfractionSpec {
        kind: InfractionKind::WrongPung,
        code: "WRONG_PUNG",
        name_zh: "错碰",
        name_zh_hant: "錯碰",
        name_en: "wrong pung",
        repeated: None,
        graded: None,
    },
    InfractionSpec {
        kind: InfractionKind::WrongKong,
        code: "WRONG_KONG",
        name_zh: "错杠",
        name_zh_hant: "錯槓",
        name_en: "wrong kong",
        repeated: None,
        graded: None,
    },
    InfractionSpec {
        kind: InfractionKind::EmptyChow,
        code: "EMPTY_CHOW",
        name_zh: "空吃",
        name_zh_hant: "空吃",
        name_en: "empty chow",
        repeated: Some(RepeatedOffence::EmptyCall),
        graded: None,
    },
    InfractionSpec {
        kind: InfractionKind::EmptyPung,
        code: "EMPTY_PUNG",
        name_zh: "空碰",
        name_zh_hant: "空碰",
        name_en: "empty pung",
        repeated: Some(RepeatedOffence::EmptyCall),
        graded: None,
    },
    InfractionSpec {
        kind: InfractionKind::EmptyKong,
        code: "EMPTY_KONG",
        name_zh: "空杠",
        name_zh_hant: "空槓",
        name_en: "empty kong",
        repeated: Some(RepeatedOffence::EmptyCall),
        graded: None,
    },
    InfractionSpec {
        kind: InfractionKind::EarlyDraw,
        code: "EARLY_DRAW",
        name_zh: "摸牌",
        name_zh_hant: "摸牌",
        name_en: "drawing out of turn",
        repeated: Some(RepeatedOffence::EarlyDraw),
        graded: None,
    },
    InfractionSpec {
        kind: InfractionKind::LatePung,
        code: "LATE_PUNG",
        name_zh: "碰牌超时",
        name_zh_hant: "碰牌超時",
        name_en: "late pung",
        repeated: Some(RepeatedOffence::LatePung),
        graded: None,
    },
    InfractionSpec {
        kind: InfractionKind::FalseWin,
        code: "FALSE_WIN",
        name_zh: "错和",
        name_zh_hant: "錯和",
        name_en: "false win",
        repeated: None,
        graded: None,
    },
    InfractionSpec {
        kind: InfractionKind::WrongWinningTile,
        code: "WRONG_WINNING_TILE",
        name_zh: "和错牌",
        name_zh_hant: "和錯牌",
        name_en: "wrong winning tile",
        repeated: None,
        graded: None,
    },
    InfractionSpec {
        kind: InfractionKind::NotReadyWin,
        code: "NOT_READY_WIN",
        name_zh: "诈和",
        name_zh_hant: "詐和",
        name_en: "win declared while not ready",
        repeated: None,
        graded: None,
    },
    InfractionSpec {
        kind: InfractionKind::DeliberateFalseWin,
        code: "DELIBERATE_FALSE_WIN",
        name_zh: "有意诈和",
        name_zh_hant: "有意詐和",
        name_en: "deliberate false win",
        repeated: None,
        graded: None,
    },
    InfractionSpec {
        kind: InfractionKind::ExposingOwnTiles,
        code: "EXPOSING_OWN_TILES",
        name_zh: "暴露己牌",
        name_zh_hant: "暴露己牌",
        name_en: "exposing own tiles",
        repeated: None,
        graded: None,
    },
    InfractionSpec {
        kind: InfractionKind::LayingDownHand,
        code: "LAYING_DOWN_HAND",
        name_zh: "推倒手牌",
        name_zh_hant: "推倒手牌",
        name_en: "laying down the hand",
        repeated: None,
        graded: None,
    },
    InfractionSpec {
        kind: InfractionKind::ExposingOthersTiles,
        code: "EXPOSING_OTHERS_TILES",
        name_zh: "暴露他人牌",
        name_zh_hant: "暴露他人牌",
        name_en: "exposing another player's tiles",
        repeated: None,
        graded: Some(GradedAmount::VictimRange),
    },
    InfractionSpec {
        kind: InfractionKind::NamingDiscard,
        code: "NAMING_DISCARD",
        name_zh: "出牌报牌名",
        name_zh_hant: "出牌報牌名",
        name_en: "naming a discard",
        repeated: None,
        graded: Some(GradedAmount::Grade),
    },
    InfractionSpec {
        kind: InfractionKind::MisleadingDiscardName,
        code: "MISLEADING_DISCARD_NAME",
        name_zh: "报错牌名致误和",
        name_zh_hant: "報錯牌名致誤和",
        name_en: "misleading discard name",
        repeated: None,
        graded: None,
    },
    InfractionSpec {
        kind: InfractionKind::WrongTileCount,
        code: "WRONG_TILE_COUNT",
        name_zh: "相公",
        name_zh_hant: "相公",
        name_en: "wrong number of tiles",
        repeated: None,
        graded: None,
    },
    InfractionSpec {
        kind: InfractionKind::IllegalSignals,
        code: "ILLEGAL_SIGNALS",
        name_zh: "非法信息",
        name_zh_hant: "非法信息",
        name_en: "illegal signals",
        repeated: None,
        graded: Some(GradedAmount::Grade),
    },
    InfractionSpec {
        kind: InfractionKind::SeriousDisturbance,
        code: "SERIOUS_DISTURBANCE",
        name_zh: "严重干扰比赛",
        name_zh_hant: "嚴重干擾比賽",
        name_en: "serious disturbance",
        repeated: None,
        graded: None,
    },
    InfractionSpec {
        kind: InfractionKind::LateArrival,
        code: "LATE_ARRIVAL",
        name_zh: "迟到",
        name_zh_hant: "遲到",
        name_en: "late arrival",
        repeated: None,
        graded: None,
    },
];

impl InfractionKind {
    /// Every kind, in catalogue order.
    pub const ALL: [InfractionKind; INFRACTION_COUNT] = {
        let mut all = [InfractionKind::Cheating; INFRACTION_COUNT];
        let mut i = 0;
        while i < INFRACTION_COUNT {
            all[i] = INFRACTION_TABLE[i].kind;
            i += 1;
        }
        all
    };

    /// This kind's row of [`INFRACTION_TABLE`].
    pub const fn spec(self) -> &'static InfractionSpec {
        &INFRACTION_TABLE[self as usize]
    }

    /// The stable `UPPER_SNAKE_CASE` code.
    pub const fn code(self) -> &'static str {
        self.spec().code
    }

    /// The rulebook's Chinese name.
    pub const fn name_zh(self) -> &'static str {
        self.spec().name_zh
    }

    /// The Chinese name in Traditional characters (空碰, 錯和).
    pub const fn name_zh_hant(self) -> &'static str {
        self.spec().name_zh_hant
    }

    /// The English name, in lower case (`empty pung`, `false win`).
    pub const fn name_en(self) -> &'static str {
        self.spec().name_en
    }

    /// Reads a code (`EMPTY_PUNG`, …); an unknown code is a
    /// [`ViolationCode::InfractionUnknown`] at `path`.
    pub fn from_code(code: &str, path: FieldPath) -> Result<InfractionKind, Violation> {
        InfractionKind::ALL
            .into_iter()
            .find(|k| k.code() == code)
            .ok_or_else(|| {
                Violation::new(
                    ViolationCode::InfractionUnknown,
                    path,
                    format!(
                        "unknown infraction `{code}` (expected one of {})",
                        InfractionKind::ALL.map(InfractionKind::code).join(", ")
                    ),
                )
            })
    }

    /// The repeated-offence family of this kind, if it escalates within a hand.
    pub const fn repeated_offence(self) -> Option<RepeatedOffence> {
        self.spec().repeated
    }
}

impl fmt::Display for InfractionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for InfractionKind {
    type Err = Violation;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        InfractionKind::from_code(s, FieldPath::of("infraction"))
    }
}

/// The families of offences whose occurrences within one hand are counted together for the
/// escalation (docs/rules/penalties.md#repeated-offences).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RepeatedOffence {
    /// 空吃/空碰/空杠 (one row of the rulebook: they count together).
    EmptyCall,
    /// 摸牌.
    EarlyDraw,
    /// A pung called too late.
    LatePung,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_rows_are_in_kind_order() {
        for (i, spec) in INFRACTION_TABLE.iter().enumerate() {
            assert_eq!(spec.kind as usize, i, "row {i} is {:?}", spec.kind);
        }
    }

    #[test]
    fn every_kind_has_a_distinct_code_that_reads_back() {
        for k in InfractionKind::ALL {
            assert_eq!(k.code().parse::<InfractionKind>(), Ok(k));
        }
        let v = "BRIBERY".parse::<InfractionKind>().unwrap_err();
        assert_eq!(v.code, ViolationCode::InfractionUnknown);
        assert!(v.message.contains("BRIBERY"));
    }
}
