//! Penalties (罚则, RULES.md §5): the catalogue of infractions and the ruling each receives.
//!
//! An [`Offence`] is an [`Infraction`] by one seat. [`rule`] turns one offence into a
//! [`Ruling`]: a list of [`Sanction`]s (a warning, points deducted that nobody receives,
//! points paid to each other player or to one player, loss of the right to win this hand
//! (停和), exposed tiles that must be discarded, disqualification, or a deduction from the
//! session total). [`adjudicate`] rules every offence of one hand in order, counting repeated
//! offences so that the escalation of RULES.md §5.1 (warning, 5, 10, 20, …) applies.
//!
//! Every figure comes from the [`Ruleset`]: [`PenaltyFigures`], [`Escalation`] and
//! [`LateArrivalScale`] are its penalty switches (RULES.md Part A).
//!
//! ```
//! use mcr::penalty::{adjudicate, Infraction, Offence, Sanction};
//! use mcr::{Ruleset, Seat};
//! let empty_pung = Offence { offender: Seat::West, infraction: Infraction::EmptyPung };
//! let rulings = adjudicate(&[empty_pung.clone(), empty_pung.clone(), empty_pung],
//!     &Ruleset::CHINESE_OFFICIAL_1998).unwrap();
//! assert_eq!(rulings[0].sanctions, [Sanction::Warning]);
//! assert_eq!(rulings[1].sanctions, [Sanction::Deduction(5)]);
//! assert_eq!(rulings[2].sanctions, [Sanction::Deduction(10)]);
//! ```

use std::fmt;
use std::str::FromStr;

use crate::ruleset::Ruleset;
use crate::seat::Seat;
use crate::settlement::{LineKind, Payments};
use crate::tile::Tile;
use crate::violation::{Violation, ViolationCode};

/// Penalty figures of a ruleset for false declarations and referee-graded infringements.
#[allow(clippy::struct_excessive_bools)] // each bool is one yes/no question of the rulebooks
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PenaltyFigures {
    /// 错和 (under 8 fan) and 和错牌 (wrong winning tile): points paid to each other player.
    pub false_win_each: u32,
    /// 诈和 (declared while one tile short of ready): points paid to each other player.
    pub not_ready_win_each: u32,
    /// A false declaration also costs the right to win this hand (停和).
    pub false_win_loses_right_to_win: bool,
    /// 有意诈和 (two or more tiles short of ready) disqualifies; otherwise it is ruled as 诈和.
    pub deliberate_false_win_disqualifies: bool,
    /// The smallest referee-graded amount (exposing another's tiles, naming a discard,
    /// illegal signals).
    pub graded_min: u32,
    /// The largest referee-graded amount.
    pub graded_max: u32,
    /// The grades the rulebook names (informative; any amount in range is accepted).
    pub grades: &'static [u32],
}

/// Points for a repeated offence within one hand (空吃/空碰/空杠, drawing early, a late pung).
///
/// Occurrence 1 is a warning when `first_is_warning`; the following occurrences take
/// `steps` in order; past the end of `steps` each occurrence doubles the previous amount
/// ("以此类推"); no amount exceeds `cap`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Escalation {
    /// The first occurrence is a warning without points.
    pub first_is_warning: bool,
    /// The points of the following occurrences.
    pub steps: &'static [u32],
    /// The highest amount of a single occurrence.
    pub cap: u32,
}

impl Escalation {
    /// The points of occurrence `occurrence` (1 for the first); `None` for a warning.
    /// Occurrence 0 is read as 1.
    pub fn points(&self, occurrence: u32) -> Option<u32> {
        let occurrence = occurrence.max(1);
        let index = if self.first_is_warning {
            if occurrence == 1 {
                return None;
            }
            occurrence - 2
        } else {
            occurrence - 1
        };
        let index = usize::try_from(index).unwrap_or(usize::MAX);
        if let Some(&p) = self.steps.get(index) {
            return Some(p.min(self.cap));
        }
        let mut points = self.steps.last().copied().unwrap_or(self.cap).min(self.cap);
        for _ in self.steps.len()..=index {
            let doubled = points.saturating_mul(2).min(self.cap);
            if doubled == points {
                break;
            }
            points = doubled;
        }
        Some(points)
    }
}

/// One tier of the late-arrival scale: arriving at most `up_to_minutes` late.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LateTier {
    /// The tier covers lateness up to and including this many minutes.
    pub up_to_minutes: u32,
    /// Points deducted from the session total (局分).
    pub points: u32,
    /// A warning is given as well.
    pub warning: bool,
}

/// Sanctions for arriving late at a session (局), deducted when the session total is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LateArrivalScale {
    /// Tiers in increasing order of minutes.
    pub tiers: &'static [LateTier],
    /// More minutes late than this forfeits the session: its total (局分) is 0.
    pub forfeit_after_minutes: u32,
}

/// The sanction for one late arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct LateArrivalRuling {
    /// A warning is given.
    pub warning: bool,
    /// Points deducted from the session total.
    pub points: u32,
    /// The session is forfeited: its total is 0.
    pub forfeit: bool,
}

impl LateArrivalScale {
    /// The sanction for arriving `minutes` late (whole minutes, rounded up by the caller).
    pub fn ruling(&self, minutes: u32) -> LateArrivalRuling {
        if minutes == 0 {
            return LateArrivalRuling::default();
        }
        if minutes > self.forfeit_after_minutes {
            return LateArrivalRuling {
                warning: false,
                points: 0,
                forfeit: true,
            };
        }
        let tier = self
            .tiers
            .iter()
            .find(|t| minutes <= t.up_to_minutes)
            .or(self.tiers.last());
        tier.map_or_else(LateArrivalRuling::default, |t| LateArrivalRuling {
            warning: t.warning,
            points: t.points,
            forfeit: false,
        })
    }
}

/// A false declaration of 和 (RULES.md §5.1 row 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FalseDeclaration {
    /// 错和: a winning shape under 8 fan (flowers excluded).
    FalseWin,
    /// 和错牌: ready, but the declared tile does not complete the hand.
    WrongWinningTile,
    /// 诈和: one tile short of ready.
    NotReadyWin,
    /// 有意诈和: two or more tiles short of ready.
    DeliberateFalseWin,
}

impl FalseDeclaration {
    /// The infraction.
    pub const fn infraction(self) -> Infraction {
        match self {
            FalseDeclaration::FalseWin => Infraction::FalseWin,
            FalseDeclaration::WrongWinningTile => Infraction::WrongWinningTile,
            FalseDeclaration::NotReadyWin => Infraction::NotReadyWin,
            FalseDeclaration::DeliberateFalseWin => Infraction::DeliberateFalseWin,
        }
    }
}

/// The referee's choice for illegal signals: points or 停和 (RULES.md §5.1 row 10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SignalSanction {
    /// Graded points deducted.
    Points(i64),
    /// Loss of the right to win this hand.
    LoseRightToWin,
}

/// Every infraction of RULES.md §5.1 (§14 of the 1998 rules), with the details its ruling
/// needs. Amounts given by the referee are `i64` so that impossible values from a caller
/// (negative, out of range) are reported as violations rather than lost in a conversion.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Infraction {
    /// 换牌/偷牌/藏牌/夹带 or other cheating (row 1): disqualification.
    Cheating,
    /// 错吃 (row 2): 停和.
    WrongChow,
    /// 错碰 (row 2): 停和.
    WrongPung,
    /// 错杠 (row 2): 停和.
    WrongKong,
    /// 空吃: calling chow without the tiles, or not completing it (row 3): escalating.
    EmptyChow,
    /// 空碰 (row 3): escalating.
    EmptyPung,
    /// 空杠 (row 3): escalating.
    EmptyKong,
    /// 摸牌: drawing before the player on the left has discarded (row 4): escalating.
    EarlyDraw,
    /// Calling pung more than 3 seconds after the discard (row 5): escalating.
    LatePung,
    /// 错和 (row 6a).
    FalseWin,
    /// 和错牌 (row 6c): as 错和.
    WrongWinningTile,
    /// 诈和 (row 6b).
    NotReadyWin,
    /// 有意诈和 (row 6d).
    DeliberateFalseWin,
    /// Exposing one's own tiles during play (row 7a): they must be discarded (罚张).
    ExposingOwnTiles {
        /// The exposed tiles.
        tiles: Vec<Tile>,
    },
    /// Laying one's hand down when another player declares 和 (row 7b).
    LayingDownHand {
        /// Whether the other player's 和 stood.
        declared_win_valid: bool,
        /// The exposed tiles.
        tiles: Vec<Tile>,
    },
    /// Exposing another player's tiles (row 7c): graded points paid to that player.
    ExposingOthersTiles {
        /// The player whose tiles were exposed.
        victim: Seat,
        /// The referee's amount (graded range of the ruleset, 5–60).
        points: i64,
    },
    /// Naming a discard aloud (row 8): graded points deducted.
    NamingDiscard {
        /// The referee's amount.
        points: i64,
    },
    /// A wrongly named discard that led another player into a false declaration (row 8): the
    /// misnamer pays what the misled player would have paid, and the misled player is not
    /// sanctioned. (Naming the discard at all may be ruled separately as
    /// [`Infraction::NamingDiscard`].)
    MisleadingDiscardName {
        /// The player who declared 和 because of the wrong name.
        misled: Seat,
        /// What the declaration was (not [`FalseDeclaration::DeliberateFalseWin`]).
        misled_into: FalseDeclaration,
    },
    /// 相公: too many or too few tiles (row 9): no right to win.
    WrongTileCount,
    /// Signals, hints or expressions to other players (row 10).
    IllegalSignals(SignalSanction),
    /// Serious, persistent disturbance of the game (row 11): disqualification.
    SeriousDisturbance,
    /// Arriving late at a session (§13): settled on the session total, not in a hand.
    LateArrival {
        /// Whole minutes late, rounded up.
        minutes: i64,
    },
}

/// The kind of an infraction without its details, with a stable machine code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum InfractionKind {
    /// [`Infraction::Cheating`].
    Cheating,
    /// [`Infraction::WrongChow`].
    WrongChow,
    /// [`Infraction::WrongPung`].
    WrongPung,
    /// [`Infraction::WrongKong`].
    WrongKong,
    /// [`Infraction::EmptyChow`].
    EmptyChow,
    /// [`Infraction::EmptyPung`].
    EmptyPung,
    /// [`Infraction::EmptyKong`].
    EmptyKong,
    /// [`Infraction::EarlyDraw`].
    EarlyDraw,
    /// [`Infraction::LatePung`].
    LatePung,
    /// [`Infraction::FalseWin`].
    FalseWin,
    /// [`Infraction::WrongWinningTile`].
    WrongWinningTile,
    /// [`Infraction::NotReadyWin`].
    NotReadyWin,
    /// [`Infraction::DeliberateFalseWin`].
    DeliberateFalseWin,
    /// [`Infraction::ExposingOwnTiles`].
    ExposingOwnTiles,
    /// [`Infraction::LayingDownHand`].
    LayingDownHand,
    /// [`Infraction::ExposingOthersTiles`].
    ExposingOthersTiles,
    /// [`Infraction::NamingDiscard`].
    NamingDiscard,
    /// [`Infraction::MisleadingDiscardName`].
    MisleadingDiscardName,
    /// [`Infraction::WrongTileCount`].
    WrongTileCount,
    /// [`Infraction::IllegalSignals`].
    IllegalSignals,
    /// [`Infraction::SeriousDisturbance`].
    SeriousDisturbance,
    /// [`Infraction::LateArrival`].
    LateArrival,
}

impl InfractionKind {
    /// Every kind, in catalogue order.
    pub const ALL: [InfractionKind; 22] = [
        InfractionKind::Cheating,
        InfractionKind::WrongChow,
        InfractionKind::WrongPung,
        InfractionKind::WrongKong,
        InfractionKind::EmptyChow,
        InfractionKind::EmptyPung,
        InfractionKind::EmptyKong,
        InfractionKind::EarlyDraw,
        InfractionKind::LatePung,
        InfractionKind::FalseWin,
        InfractionKind::WrongWinningTile,
        InfractionKind::NotReadyWin,
        InfractionKind::DeliberateFalseWin,
        InfractionKind::ExposingOwnTiles,
        InfractionKind::LayingDownHand,
        InfractionKind::ExposingOthersTiles,
        InfractionKind::NamingDiscard,
        InfractionKind::MisleadingDiscardName,
        InfractionKind::WrongTileCount,
        InfractionKind::IllegalSignals,
        InfractionKind::SeriousDisturbance,
        InfractionKind::LateArrival,
    ];

    /// The stable `UPPER_SNAKE_CASE` code.
    pub const fn code(self) -> &'static str {
        match self {
            InfractionKind::Cheating => "CHEATING",
            InfractionKind::WrongChow => "WRONG_CHOW",
            InfractionKind::WrongPung => "WRONG_PUNG",
            InfractionKind::WrongKong => "WRONG_KONG",
            InfractionKind::EmptyChow => "EMPTY_CHOW",
            InfractionKind::EmptyPung => "EMPTY_PUNG",
            InfractionKind::EmptyKong => "EMPTY_KONG",
            InfractionKind::EarlyDraw => "EARLY_DRAW",
            InfractionKind::LatePung => "LATE_PUNG",
            InfractionKind::FalseWin => "FALSE_WIN",
            InfractionKind::WrongWinningTile => "WRONG_WINNING_TILE",
            InfractionKind::NotReadyWin => "NOT_READY_WIN",
            InfractionKind::DeliberateFalseWin => "DELIBERATE_FALSE_WIN",
            InfractionKind::ExposingOwnTiles => "EXPOSING_OWN_TILES",
            InfractionKind::LayingDownHand => "LAYING_DOWN_HAND",
            InfractionKind::ExposingOthersTiles => "EXPOSING_OTHERS_TILES",
            InfractionKind::NamingDiscard => "NAMING_DISCARD",
            InfractionKind::MisleadingDiscardName => "MISLEADING_DISCARD_NAME",
            InfractionKind::WrongTileCount => "WRONG_TILE_COUNT",
            InfractionKind::IllegalSignals => "ILLEGAL_SIGNALS",
            InfractionKind::SeriousDisturbance => "SERIOUS_DISTURBANCE",
            InfractionKind::LateArrival => "LATE_ARRIVAL",
        }
    }

    /// The rulebook's Chinese name.
    pub const fn name_zh(self) -> &'static str {
        match self {
            InfractionKind::Cheating => "作弊",
            InfractionKind::WrongChow => "错吃",
            InfractionKind::WrongPung => "错碰",
            InfractionKind::WrongKong => "错杠",
            InfractionKind::EmptyChow => "空吃",
            InfractionKind::EmptyPung => "空碰",
            InfractionKind::EmptyKong => "空杠",
            InfractionKind::EarlyDraw => "摸牌",
            InfractionKind::LatePung => "碰牌超时",
            InfractionKind::FalseWin => "错和",
            InfractionKind::WrongWinningTile => "和错牌",
            InfractionKind::NotReadyWin => "诈和",
            InfractionKind::DeliberateFalseWin => "有意诈和",
            InfractionKind::ExposingOwnTiles => "暴露己牌",
            InfractionKind::LayingDownHand => "推倒手牌",
            InfractionKind::ExposingOthersTiles => "暴露他人牌",
            InfractionKind::NamingDiscard => "出牌报牌名",
            InfractionKind::MisleadingDiscardName => "报错牌名致误和",
            InfractionKind::WrongTileCount => "相公",
            InfractionKind::IllegalSignals => "非法信息",
            InfractionKind::SeriousDisturbance => "严重干扰比赛",
            InfractionKind::LateArrival => "迟到",
        }
    }

    /// The English name, in lower case (`empty pung`, `false win`).
    pub const fn name_en(self) -> &'static str {
        match self {
            InfractionKind::Cheating => "cheating",
            InfractionKind::WrongChow => "wrong chow",
            InfractionKind::WrongPung => "wrong pung",
            InfractionKind::WrongKong => "wrong kong",
            InfractionKind::EmptyChow => "empty chow",
            InfractionKind::EmptyPung => "empty pung",
            InfractionKind::EmptyKong => "empty kong",
            InfractionKind::EarlyDraw => "drawing out of turn",
            InfractionKind::LatePung => "late pung",
            InfractionKind::FalseWin => "false win",
            InfractionKind::WrongWinningTile => "wrong winning tile",
            InfractionKind::NotReadyWin => "win declared while not ready",
            InfractionKind::DeliberateFalseWin => "deliberate false win",
            InfractionKind::ExposingOwnTiles => "exposing own tiles",
            InfractionKind::LayingDownHand => "laying down the hand",
            InfractionKind::ExposingOthersTiles => "exposing another player's tiles",
            InfractionKind::NamingDiscard => "naming a discard",
            InfractionKind::MisleadingDiscardName => "misleading discard name",
            InfractionKind::WrongTileCount => "wrong number of tiles",
            InfractionKind::IllegalSignals => "illegal signals",
            InfractionKind::SeriousDisturbance => "serious disturbance",
            InfractionKind::LateArrival => "late arrival",
        }
    }

    /// Reads a code (`EMPTY_PUNG`, …); an unknown code is a
    /// [`ViolationCode::InfractionUnknown`] at `field`.
    pub fn from_code(code: &str, field: &str) -> Result<InfractionKind, Violation> {
        InfractionKind::ALL
            .into_iter()
            .find(|k| k.code() == code)
            .ok_or_else(|| {
                Violation::new(
                    ViolationCode::InfractionUnknown,
                    field.to_owned(),
                    format!(
                        "unknown infraction `{code}` (expected one of {})",
                        InfractionKind::ALL.map(InfractionKind::code).join(", ")
                    ),
                )
            })
    }

    /// The repeated-offence family of this kind, if it escalates within a hand.
    pub const fn repeated_offence(self) -> Option<RepeatedOffence> {
        match self {
            InfractionKind::EmptyChow | InfractionKind::EmptyPung | InfractionKind::EmptyKong => {
                Some(RepeatedOffence::EmptyCall)
            }
            InfractionKind::EarlyDraw => Some(RepeatedOffence::EarlyDraw),
            InfractionKind::LatePung => Some(RepeatedOffence::LatePung),
            InfractionKind::Cheating
            | InfractionKind::WrongChow
            | InfractionKind::WrongPung
            | InfractionKind::WrongKong
            | InfractionKind::FalseWin
            | InfractionKind::WrongWinningTile
            | InfractionKind::NotReadyWin
            | InfractionKind::DeliberateFalseWin
            | InfractionKind::ExposingOwnTiles
            | InfractionKind::LayingDownHand
            | InfractionKind::ExposingOthersTiles
            | InfractionKind::NamingDiscard
            | InfractionKind::MisleadingDiscardName
            | InfractionKind::WrongTileCount
            | InfractionKind::IllegalSignals
            | InfractionKind::SeriousDisturbance
            | InfractionKind::LateArrival => None,
        }
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
        InfractionKind::from_code(s, "infraction")
    }
}

/// The families of offences whose occurrences within one hand are counted together for the
/// escalation (RULES.md §5.1 rows 3–5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RepeatedOffence {
    /// 空吃/空碰/空杠 (one row of the rulebook: they count together).
    EmptyCall,
    /// 摸牌.
    EarlyDraw,
    /// A pung called too late.
    LatePung,
}

impl Infraction {
    /// The kind, without details.
    pub const fn kind(&self) -> InfractionKind {
        match self {
            Infraction::Cheating => InfractionKind::Cheating,
            Infraction::WrongChow => InfractionKind::WrongChow,
            Infraction::WrongPung => InfractionKind::WrongPung,
            Infraction::WrongKong => InfractionKind::WrongKong,
            Infraction::EmptyChow => InfractionKind::EmptyChow,
            Infraction::EmptyPung => InfractionKind::EmptyPung,
            Infraction::EmptyKong => InfractionKind::EmptyKong,
            Infraction::EarlyDraw => InfractionKind::EarlyDraw,
            Infraction::LatePung => InfractionKind::LatePung,
            Infraction::FalseWin => InfractionKind::FalseWin,
            Infraction::WrongWinningTile => InfractionKind::WrongWinningTile,
            Infraction::NotReadyWin => InfractionKind::NotReadyWin,
            Infraction::DeliberateFalseWin => InfractionKind::DeliberateFalseWin,
            Infraction::ExposingOwnTiles { .. } => InfractionKind::ExposingOwnTiles,
            Infraction::LayingDownHand { .. } => InfractionKind::LayingDownHand,
            Infraction::ExposingOthersTiles { .. } => InfractionKind::ExposingOthersTiles,
            Infraction::NamingDiscard { .. } => InfractionKind::NamingDiscard,
            Infraction::MisleadingDiscardName { .. } => InfractionKind::MisleadingDiscardName,
            Infraction::WrongTileCount => InfractionKind::WrongTileCount,
            Infraction::IllegalSignals(_) => InfractionKind::IllegalSignals,
            Infraction::SeriousDisturbance => InfractionKind::SeriousDisturbance,
            Infraction::LateArrival { .. } => InfractionKind::LateArrival,
        }
    }
}

/// An infraction committed by one seat.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Offence {
    /// Who committed it.
    pub offender: Seat,
    /// What it was.
    pub infraction: Infraction,
}

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
    /// ([`RepeatedOffence`]) count their family together, other infractions their kind.
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

/// Rules one offence, the `occurrence`-th of its family in this hand (1 for the first).
pub fn rule(offence: &Offence, occurrence: u32, rules: &Ruleset) -> Result<Ruling, Vec<Violation>> {
    rule_at(offence, occurrence, rules, "offence").map_err(|v| vec![v])
}

/// Rules every offence of one hand in order, counting occurrences per offender: the
/// families of [`RepeatedOffence`] escalate (warning, 5, 10, 20, … per the ruleset). Every
/// problem of every offence is reported, at `offences[i]…`.
pub fn adjudicate(offences: &[Offence], rules: &Ruleset) -> Result<Vec<Ruling>, Vec<Violation>> {
    adjudicate_at(offences, rules, "offences")
}

/// [`adjudicate`] with violations reported at `{prefix}[i]`.
pub(crate) fn adjudicate_at(
    offences: &[Offence],
    rules: &Ruleset,
    prefix: &str,
) -> Result<Vec<Ruling>, Vec<Violation>> {
    let mut rulings = Vec::with_capacity(offences.len());
    let mut violations = Vec::new();
    for (i, offence) in offences.iter().enumerate() {
        let occurrence = occurrence_of(&offences[..i], offence);
        match rule_at(offence, occurrence, rules, &format!("{prefix}[{i}]")) {
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

/// How many times the offender has committed this offence's family, this one included.
pub(crate) fn occurrence_of(earlier: &[Offence], offence: &Offence) -> u32 {
    let kind = offence.infraction.kind();
    let family = kind.repeated_offence();
    let same = |o: &&Offence| {
        let k = o.infraction.kind();
        o.offender == offence.offender
            && match family {
                Some(f) => k.repeated_offence() == Some(f),
                None => k == kind,
            }
    };
    u32::try_from(earlier.iter().filter(same).count())
        .unwrap_or(u32::MAX - 1)
        .saturating_add(1)
}

fn invalid(field: String, message: String) -> Violation {
    Violation::new(ViolationCode::ValueInvalid, field, message)
}

/// A referee-graded amount, checked against the ruleset's range: below zero is
/// [`ViolationCode::ValueNegative`], outside the range [`ViolationCode::PenaltyAmountOutOfRange`].
/// `field` names the infraction.
fn graded(points: i64, field: &str, rules: &Ruleset) -> Result<i64, Violation> {
    let (min, max) = (
        i64::from(rules.penalties.graded_min),
        i64::from(rules.penalties.graded_max),
    );
    if (min..=max).contains(&points) {
        Ok(points)
    } else if points < 0 {
        Err(Violation::new(
            ViolationCode::ValueNegative,
            format!("{field}.points"),
            format!("the referee's amount cannot be negative, found {points}"),
        ))
    } else {
        Err(Violation::new(
            ViolationCode::PenaltyAmountOutOfRange,
            format!("{field}.points"),
            format!(
                "the referee's amount must be between {min} and {max} points under {}, found {points}",
                rules.name
            ),
        ))
    }
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

/// [`rule`] with violations reported at `{field}.infraction…`.
pub(crate) fn rule_at(
    offence: &Offence,
    occurrence: u32,
    rules: &Ruleset,
    field: &str,
) -> Result<Ruling, Violation> {
    Ok(Ruling {
        offender: offence.offender,
        infraction: offence.infraction.clone(),
        occurrence: occurrence.max(1),
        sanctions: sanctions(offence, occurrence, rules, &format!("{field}.infraction"))?,
    })
}

/// The sanctions of one offence; `field` names the infraction for violations.
fn sanctions(
    offence: &Offence,
    occurrence: u32,
    rules: &Ruleset,
    field: &str,
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
                    format!("{field}.tiles"),
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
                    format!("{field}.victim"),
                    format!("{offender} cannot expose another player's tiles and be that player"),
                ));
            }
            vec![Sanction::PayTo {
                seat: *victim,
                points: graded(*points, field, rules)?,
            }]
        }
        Infraction::NamingDiscard { points }
        | Infraction::IllegalSignals(SignalSanction::Points(points)) => {
            vec![Sanction::Deduction(graded(*points, field, rules)?)]
        }
        Infraction::MisleadingDiscardName {
            misled,
            misled_into,
        } => misleading(offender, *misled, *misled_into, rules, field)?,
        Infraction::LateArrival { minutes } => late_arrival(*minutes, rules, field)?,
    })
}

/// Row 8: the misnamer pays each other player what the misled player would have paid.
fn misleading(
    offender: Seat,
    misled: Seat,
    misled_into: FalseDeclaration,
    rules: &Ruleset,
    field: &str,
) -> Result<Vec<Sanction>, Violation> {
    if misled == offender {
        return Err(Violation::new(
            ViolationCode::ContextConflict,
            format!("{field}.misled"),
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
            format!("{field}.misled_into"),
            "a deliberate false win (有意诈和) is not a mistake a wrongly named discard can cause"
                .to_owned(),
        )),
    }
}

/// §13: late arrival, settled on the session total.
fn late_arrival(minutes: i64, rules: &Ruleset, field: &str) -> Result<Vec<Sanction>, Violation> {
    if minutes < 0 {
        return Err(Violation::new(
            ViolationCode::ValueNegative,
            format!("{field}.minutes"),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escalation_follows_part_a() {
        let e = Ruleset::CHINESE_OFFICIAL_1998.repeat_offences;
        let got: Vec<_> = (1..=8).map(|n| e.points(n)).collect();
        assert_eq!(
            got,
            [
                None,
                Some(5),
                Some(10),
                Some(20),
                Some(40),
                Some(60),
                Some(60),
                Some(60)
            ]
        );
        assert_eq!(e.points(u32::MAX), Some(60));
        let flat = Escalation {
            first_is_warning: false,
            steps: &[],
            cap: 0,
        };
        assert_eq!(flat.points(u32::MAX), Some(0));
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
