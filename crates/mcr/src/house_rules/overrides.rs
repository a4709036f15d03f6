//! What a house rule may replace: the overrides of one request and the bounds of their
//! values.

use crate::fan::Fan;
use crate::ruleset::{
    AddedKongTile, LastDiscardClaims, LateTier, NineGatesTerminalPungs, StandardPointTies,
    StandardPoints, ThreeKongsRule, WallRule,
};

/// The largest minimum, fan value and flower value a house rule may set (no fan is worth more).
pub const MAX_FAN_POINTS: u32 = 88;
/// The largest figure (points or minutes) a house rule may set elsewhere.
pub const MAX_FIGURE: u32 = 1000;
/// The most steps of a repeated-offence scale, tiers of a late-arrival scale, or grades.
pub const MAX_SCALE_LENGTH: usize = 16;

/// Switches that replace a ruleset's own; `None` (or an empty list) keeps the ruleset's.
#[allow(clippy::struct_excessive_bools)]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleOverrides {
    /// The minimum a win must score, flowers excluded: 0–88.
    pub minimum_fan: Option<u32>,
    /// 底分, paid by each loser besides the fan points: 0–1000.
    pub base_points: Option<u32>,
    /// Points of each flower: 0–88.
    pub flower_points: Option<u32>,
    /// Fans given other points (0–88 each); each fan at most once, flowers excepted.
    pub fan_points: Vec<(Fan, u32)>,
    /// Exclusions of the fan table not applied (each must be one of the table's).
    pub lift_exclusions: Vec<(Fan, Fan)>,
    /// Exclusions the ruleset lifts, applied again (each must be one of the table's).
    pub apply_exclusions: Vec<(Fan, Fan)>,
    /// Three kongs with concealed kongs.
    pub three_kongs: Option<ThreeKongsRule>,
    /// 九莲宝灯 and 幺九刻.
    pub nine_gates_terminal_pungs: Option<NineGatesTerminalPungs>,
    /// Formal waits.
    pub wait_counts_exhausted_tiles: Option<bool>,
    /// Four honours in seven pairs score 四归一.
    pub seven_pairs_honor_tile_hog: Option<bool>,
    /// 全不靠 with the nine knitted tiles also scores 组合龙.
    pub lesser_honors_knitted_straight: Option<bool>,
    /// The knitted-straight form may score 平和.
    pub knitted_straight_all_chows: Option<bool>,
    /// 标准分 method.
    pub standard_points: Option<StandardPoints>,
    /// How ties read the standard points.
    pub standard_point_ties: Option<StandardPointTies>,
    /// 错和 / 和错牌, paid to each other player: 0–1000.
    pub false_win_each: Option<u32>,
    /// 诈和, paid to each other player: 0–1000.
    pub not_ready_win_each: Option<u32>,
    /// A false declaration also costs the right to win.
    pub false_win_loses_right_to_win: Option<bool>,
    /// 有意诈和 disqualifies.
    pub deliberate_false_win_disqualifies: Option<bool>,
    /// The smallest amount paid to a victim (§14-7(3)): 0–1000, at most `graded_max`.
    pub graded_min: Option<u32>,
    /// The largest amount paid to a victim: 0–1000.
    pub graded_max: Option<u32>,
    /// The graded deductions (§13-2(2)): 1–16 amounts, increasing, each 1–1000.
    pub grades: Option<Vec<u32>>,
    /// The repeated-offence scale.
    pub repeat_offences: Option<EscalationOverride>,
    /// The late-arrival scale.
    pub late_arrival: Option<LateArrivalOverride>,
    /// The wall hands are played from.
    pub wall: Option<WallRule>,
    /// What may be claimed on the last discard.
    pub last_discard_claims: Option<LastDiscardClaims>,
    /// Which tile an added kong may add.
    pub added_kong_tile: Option<AddedKongTile>,
}

/// A repeated-offence scale given by a house rule (see [`Escalation`](crate::ruleset::Escalation)).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EscalationOverride {
    /// The first occurrence is a warning without points.
    pub first_is_warning: bool,
    /// 1–16 amounts, each 1–1000.
    pub steps: Vec<u32>,
    /// The highest amount of one occurrence: 1–1000.
    pub cap: u32,
}

/// A late-arrival scale given by a house rule (see [`LateArrivalScale`](crate::ruleset::LateArrivalScale)).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LateArrivalOverride {
    /// 0–16 tiers, minutes increasing, each minutes and points 0–1000.
    pub tiers: Vec<LateTier>,
    /// More minutes late forfeits the session: 0–1000.
    pub forfeit_after_minutes: u32,
}

impl RuleOverrides {
    /// Whether no switch is replaced.
    pub fn is_empty(&self) -> bool {
        *self == RuleOverrides::default()
    }
}
