//! House rules: a ruleset with some of its switches replaced for one request
//! ([`RuleOverrides`] → [`HouseRules`]), every switch described in words
//! ([`describe`]) and the fingerprint of the switches in effect ([`fingerprint`]).
//!
//! The fingerprint is FNV-1a (64 bits) over a canonical text: the line `mcr-rules/1`, then
//! one line `name=value` per switch of [`SWITCHES`], in that order, each ending in `\n`
//! (values as [`describe`] writes them). It depends only on the switches in effect, not on
//! the ruleset named nor on how the overrides were written, and not on the build or the
//! platform: the same switches always give the same 16 hex digits.

use std::fmt::Write as _;
use std::sync::OnceLock;

use crate::fan::{FAN_TABLE, Fan};
use crate::ruleset::{Escalation, LateArrivalScale, LateTier, PenaltyFigures};
use crate::ruleset::{
    NineGatesTerminalPungs, Ruleset, RulesetId, StandardPointTies, StandardPoints, ThreeKongsRule,
};
use crate::violation::{Violation, ViolationCode};

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
}

/// A repeated-offence scale given by a house rule (see [`Escalation`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EscalationOverride {
    /// The first occurrence is a warning without points.
    pub first_is_warning: bool,
    /// 1–16 amounts, each 1–1000.
    pub steps: Vec<u32>,
    /// The highest amount of one occurrence: 1–1000.
    pub cap: u32,
}

/// A late-arrival scale given by a house rule (see [`LateArrivalScale`]).
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

/// A ruleset with house rules applied: owns the lists its [`Ruleset`] borrows.
#[derive(Clone, Debug)]
pub struct HouseRules {
    /// The switches that are not lists.
    scalars: Ruleset<'static>,
    point_overrides: Vec<(Fan, u16)>,
    lifted_exclusions: Vec<(Fan, Fan)>,
    grades: Vec<u32>,
    steps: Vec<u32>,
    tiers: Vec<LateTier>,
    fingerprint: u64,
}

impl HouseRules {
    /// The ruleset `id` with `overrides` applied, or every out-of-range value (paths relative
    /// to the overrides, e.g. `minimum_fan`, `fan_points[2].points`).
    pub fn new(id: RulesetId, overrides: &RuleOverrides) -> Result<HouseRules, Vec<Violation>> {
        let mut v = Vec::new();
        check_overrides(overrides, &mut v);
        if !v.is_empty() {
            return Err(v);
        }
        Ok(apply(Ruleset::get(id), overrides))
    }

    /// The ruleset in effect.
    pub fn ruleset(&self) -> Ruleset<'_> {
        let s = &self.scalars;
        Ruleset {
            point_overrides: &self.point_overrides,
            lifted_exclusions: &self.lifted_exclusions,
            penalties: PenaltyFigures {
                grades: &self.grades,
                ..s.penalties
            },
            repeat_offences: Escalation {
                steps: &self.steps,
                ..s.repeat_offences
            },
            late_arrival: LateArrivalScale {
                tiers: &self.tiers,
                ..s.late_arrival
            },
            ..*s
        }
    }

    /// The fingerprint of the switches in effect.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }
}

/// The rules a request applies: one of the three rulesets, or one with house rules.
#[derive(Clone, Debug)]
pub enum Rules {
    /// A ruleset as it stands.
    Standard(RulesetId),
    /// A ruleset with house rules.
    House(Box<HouseRules>),
}

impl Rules {
    /// The ruleset `id`, with `overrides` applied when there are any.
    pub fn new(id: RulesetId, overrides: Option<&RuleOverrides>) -> Result<Rules, Vec<Violation>> {
        match overrides {
            None => Ok(Rules::Standard(id)),
            Some(o) => Ok(Rules::House(Box::new(HouseRules::new(id, o)?))),
        }
    }

    /// The ruleset in effect.
    pub fn ruleset(&self) -> Ruleset<'_> {
        match self {
            Rules::Standard(id) => *Ruleset::get(*id),
            Rules::House(house) => house.ruleset(),
        }
    }

    /// The ruleset the rules start from.
    pub fn id(&self) -> RulesetId {
        match self {
            Rules::Standard(id) => *id,
            Rules::House(house) => house.scalars.id,
        }
    }

    /// The fingerprint of the switches in effect (of the three rulesets: worked out once).
    pub fn fingerprint(&self) -> u64 {
        match self {
            Rules::Standard(id) => standard_fingerprint(*id),
            Rules::House(house) => house.fingerprint,
        }
    }
}

/// The fingerprint of one of the three rulesets, worked out on first use.
pub fn standard_fingerprint(id: RulesetId) -> u64 {
    static FINGERPRINTS: OnceLock<[u64; 3]> = OnceLock::new();
    let all = FINGERPRINTS.get_or_init(|| RulesetId::ALL.map(|id| fingerprint(Ruleset::get(id))));
    let index = match id {
        RulesetId::ChineseOfficial1998 => 0,
        RulesetId::Mil => 1,
        RulesetId::GreenBook2006 => 2,
    };
    all[index]
}

fn apply(base: &Ruleset<'static>, o: &RuleOverrides) -> HouseRules {
    let mut scalars = *base;
    set(&mut scalars.minimum_fan, o.minimum_fan);
    set(&mut scalars.base_points, o.base_points);
    set(&mut scalars.three_kongs, o.three_kongs);
    set(
        &mut scalars.nine_gates_terminal_pungs,
        o.nine_gates_terminal_pungs,
    );
    set(
        &mut scalars.wait_counts_exhausted_tiles,
        o.wait_counts_exhausted_tiles,
    );
    set(
        &mut scalars.seven_pairs_honor_tile_hog,
        o.seven_pairs_honor_tile_hog,
    );
    set(
        &mut scalars.lesser_honors_knitted_straight,
        o.lesser_honors_knitted_straight,
    );
    set(
        &mut scalars.knitted_straight_all_chows,
        o.knitted_straight_all_chows,
    );
    set(&mut scalars.standard_points, o.standard_points);
    set(&mut scalars.standard_point_ties, o.standard_point_ties);
    let p = &mut scalars.penalties;
    set(&mut p.false_win_each, o.false_win_each);
    set(&mut p.not_ready_win_each, o.not_ready_win_each);
    set(
        &mut p.false_win_loses_right_to_win,
        o.false_win_loses_right_to_win,
    );
    set(
        &mut p.deliberate_false_win_disqualifies,
        o.deliberate_false_win_disqualifies,
    );
    set(&mut p.graded_min, o.graded_min);
    set(&mut p.graded_max, o.graded_max);
    if let Some(e) = &o.repeat_offences {
        scalars.repeat_offences.first_is_warning = e.first_is_warning;
        scalars.repeat_offences.cap = e.cap;
    }
    if let Some(l) = &o.late_arrival {
        scalars.late_arrival.forfeit_after_minutes = l.forfeit_after_minutes;
    }
    let mut house = lists(base, o, scalars);
    house.fingerprint = fingerprint(&house.ruleset());
    house
}

/// A switch replaced by its override, when there is one.
fn set<T>(switch: &mut T, replaced: Option<T>) {
    if let Some(value) = replaced {
        *switch = value;
    }
}

/// The house rules with their lists: the ruleset's, with the overrides' in place.
fn lists(base: &Ruleset<'static>, o: &RuleOverrides, scalars: Ruleset<'static>) -> HouseRules {
    let mut point_overrides: Vec<(Fan, u16)> = base
        .point_overrides
        .iter()
        .filter(|(fan, _)| {
            let given = o.fan_points.iter().any(|(f, _)| f == fan);
            let flowers = o.flower_points.is_some() && *fan == Fan::FlowerTiles;
            !given && !flowers
        })
        .copied()
        .collect();
    let points = |p: u32| u16::try_from(p.min(MAX_FAN_POINTS)).unwrap_or(u16::MAX);
    point_overrides.extend(o.fan_points.iter().map(|&(f, p)| (f, points(p))));
    if let Some(p) = o.flower_points {
        point_overrides.push((Fan::FlowerTiles, points(p)));
    }
    let mut lifted_exclusions: Vec<(Fan, Fan)> = base
        .lifted_exclusions
        .iter()
        .filter(|pair| !o.apply_exclusions.contains(pair))
        .copied()
        .collect();
    for pair in &o.lift_exclusions {
        if !lifted_exclusions.contains(pair) {
            lifted_exclusions.push(*pair);
        }
    }
    let grades = o
        .grades
        .clone()
        .unwrap_or_else(|| base.penalties.grades.to_vec());
    let (steps, tiers) = (
        o.repeat_offences
            .as_ref()
            .map_or_else(|| base.repeat_offences.steps.to_vec(), |e| e.steps.clone()),
        o.late_arrival
            .as_ref()
            .map_or_else(|| base.late_arrival.tiers.to_vec(), |l| l.tiers.clone()),
    );
    HouseRules {
        scalars,
        point_overrides,
        lifted_exclusions,
        grades,
        steps,
        tiers,
        fingerprint: 0,
    }
}

fn out_of_range(v: &mut Vec<Violation>, field: String, what: &str, max: u32, found: u32) {
    v.push(Violation::new(
        ViolationCode::ValueInvalid,
        field,
        format!("{what} must be between 0 and {max}, found {found}"),
    ));
}

fn check_at_most(v: &mut Vec<Violation>, field: &str, what: &str, max: u32, value: Option<u32>) {
    if let Some(found) = value
        && found > max
    {
        out_of_range(v, field.to_owned(), what, max, found);
    }
}

fn invalid(v: &mut Vec<Violation>, field: String, message: String) {
    v.push(Violation::new(ViolationCode::ValueInvalid, field, message));
}

fn check_overrides(o: &RuleOverrides, v: &mut Vec<Violation>) {
    check_at_most(
        v,
        "minimum_fan",
        "the minimum fan",
        MAX_FAN_POINTS,
        o.minimum_fan,
    );
    check_at_most(
        v,
        "base_points",
        "the base points",
        MAX_FIGURE,
        o.base_points,
    );
    check_at_most(
        v,
        "flower_points",
        "the points of a flower",
        MAX_FAN_POINTS,
        o.flower_points,
    );
    check_fans(o, v);
    check_penalties(o, v);
}

/// The fans given points and the exclusions named.
fn check_fans(o: &RuleOverrides, v: &mut Vec<Violation>) {
    for (i, &(fan, points)) in o.fan_points.iter().enumerate() {
        if fan == Fan::FlowerTiles {
            invalid(
                v,
                format!("fan_points[{i}].fan"),
                "the points of flowers are set with `flower_points`".to_owned(),
            );
        }
        if o.fan_points[..i].iter().any(|(f, _)| *f == fan) {
            invalid(
                v,
                format!("fan_points[{i}].fan"),
                format!("{} is given points twice", fan.spec().name_en),
            );
        }
        if points > MAX_FAN_POINTS {
            out_of_range(
                v,
                format!("fan_points[{i}].points"),
                "the points of a fan",
                MAX_FAN_POINTS,
                points,
            );
        }
    }
    for (list, name) in [
        (&o.lift_exclusions, "lift_exclusions"),
        (&o.apply_exclusions, "apply_exclusions"),
    ] {
        for (i, &(fan, excluded)) in list.iter().enumerate() {
            if !fan.spec().excludes.contains(&excluded) {
                invalid(
                    v,
                    format!("{name}[{i}]"),
                    format!(
                        "{} does not exclude {} in the fan table",
                        fan.spec().name_en,
                        excluded.spec().name_en
                    ),
                );
            }
        }
    }
    for (i, pair) in o.apply_exclusions.iter().enumerate() {
        if o.lift_exclusions.contains(pair) {
            invalid(
                v,
                format!("apply_exclusions[{i}]"),
                "the same exclusion is both lifted and applied".to_owned(),
            );
        }
    }
}

/// The penalty figures and scales.
fn check_penalties(o: &RuleOverrides, v: &mut Vec<Violation>) {
    for (field, what, value) in [
        ("false_win_each", "the false-win figure", o.false_win_each),
        (
            "not_ready_win_each",
            "the not-ready-win figure",
            o.not_ready_win_each,
        ),
        ("graded_min", "the smallest victim amount", o.graded_min),
        ("graded_max", "the largest victim amount", o.graded_max),
    ] {
        check_at_most(v, field, what, MAX_FIGURE, value);
    }
    if let (Some(min), Some(max)) = (o.graded_min, o.graded_max)
        && min > max
    {
        invalid(
            v,
            "graded_min".to_owned(),
            format!("the smallest victim amount {min} is above the largest {max}"),
        );
    }
    if let Some(grades) = &o.grades {
        check_amounts(v, "grades.points", grades);
    }
    if let Some(e) = &o.repeat_offences {
        check_amounts(v, "repeat_offences.steps", &e.steps);
        if !(1..=MAX_FIGURE).contains(&e.cap) {
            invalid(
                v,
                "repeat_offences.cap".to_owned(),
                format!(
                    "the cap must be between 1 and {MAX_FIGURE}, found {}",
                    e.cap
                ),
            );
        }
    }
    if let Some(l) = &o.late_arrival {
        check_late_arrival(v, l);
    }
}

/// 1–16 increasing amounts, each 1–1000.
fn check_amounts(v: &mut Vec<Violation>, field: &str, amounts: &[u32]) {
    if amounts.is_empty() || amounts.len() > MAX_SCALE_LENGTH {
        invalid(
            v,
            field.to_owned(),
            format!(
                "give 1 to {MAX_SCALE_LENGTH} amounts, found {}",
                amounts.len()
            ),
        );
        return;
    }
    for (i, &a) in amounts.iter().enumerate() {
        if !(1..=MAX_FIGURE).contains(&a) {
            invalid(
                v,
                format!("{field}[{i}]"),
                format!("an amount must be between 1 and {MAX_FIGURE}, found {a}"),
            );
        } else if i > 0 && a <= amounts[i - 1] {
            invalid(
                v,
                format!("{field}[{i}]"),
                format!("amounts must increase: {a} follows {}", amounts[i - 1]),
            );
        }
    }
}

fn check_late_arrival(v: &mut Vec<Violation>, l: &LateArrivalOverride) {
    if l.tiers.len() > MAX_SCALE_LENGTH {
        invalid(
            v,
            "late_arrival.tiers".to_owned(),
            format!(
                "give at most {MAX_SCALE_LENGTH} tiers, found {}",
                l.tiers.len()
            ),
        );
        return;
    }
    for (i, t) in l.tiers.iter().enumerate() {
        check_at_most(
            v,
            &format!("late_arrival.tiers[{i}].up_to_minutes"),
            "the minutes of a tier",
            MAX_FIGURE,
            Some(t.up_to_minutes),
        );
        check_at_most(
            v,
            &format!("late_arrival.tiers[{i}].points"),
            "the points of a tier",
            MAX_FIGURE,
            Some(t.points),
        );
        if i > 0 && t.up_to_minutes <= l.tiers[i - 1].up_to_minutes {
            invalid(
                v,
                format!("late_arrival.tiers[{i}].up_to_minutes"),
                "tiers must be given in increasing minutes".to_owned(),
            );
        }
    }
    check_at_most(
        v,
        "late_arrival.forfeit_after_minutes",
        "the forfeit minutes",
        MAX_FIGURE,
        Some(l.forfeit_after_minutes),
    );
}

/// One switch of a ruleset: its name (the field of the overrides that sets it), what it
/// means, and how its value is written.
#[derive(Clone, Copy, Debug)]
pub struct SwitchSpec {
    /// The name, as the field of the overrides that sets it.
    pub name: &'static str,
    /// What the switch decides, in one line.
    pub meaning: &'static str,
    /// Writes the value in effect under a ruleset (the canonical form the fingerprint reads).
    pub write: fn(&Ruleset<'_>, &mut String),
}

/// One switch of a ruleset with its value in effect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Switch {
    /// The name, as the field of the overrides that sets it.
    pub name: &'static str,
    /// The value in effect, canonical form.
    pub value: String,
    /// What the switch decides, in one line.
    pub meaning: &'static str,
}

fn flag_text(out: &mut String, value: bool) {
    out.push_str(if value { "true" } else { "false" });
}

fn number(out: &mut String, value: u32) {
    let _ = write!(out, "{value}");
}

fn list(out: &mut String, values: &[u32]) {
    for (i, value) in values.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        number(out, *value);
    }
}

fn fan_points_text(r: &Ruleset<'_>, out: &mut String) {
    let mut first = true;
    for spec in &FAN_TABLE {
        let points = r.points(spec.fan);
        if spec.fan != Fan::FlowerTiles && points != spec.points {
            if !first {
                out.push(',');
            }
            first = false;
            let _ = write!(out, "{}:{points}", spec.fan.id());
        }
    }
}

fn lifted_text(r: &Ruleset<'_>, out: &mut String) {
    let mut first = true;
    for spec in &FAN_TABLE {
        for &excluded in spec.excludes {
            if !r.excludes(spec.fan, excluded) {
                if !first {
                    out.push(',');
                }
                first = false;
                let _ = write!(out, "{}>{}", spec.fan.id(), excluded.id());
            }
        }
    }
}

/// Every switch of a ruleset, in the order of the canonical text.
pub const SWITCHES: [SwitchSpec; 22] = [
    SwitchSpec {
        name: "minimum_fan",
        meaning: "the least a win must score, flowers excluded (起和分)",
        write: |r, out| number(out, r.minimum_fan),
    },
    SwitchSpec {
        name: "base_points",
        meaning: "底分: what each loser pays the winner besides the fan points",
        write: |r, out| number(out, r.base_points),
    },
    SwitchSpec {
        name: "flower_points",
        meaning: "points of each flower (花牌), added to the total, not to the minimum",
        write: |r, out| number(out, u32::from(r.points(Fan::FlowerTiles))),
    },
    SwitchSpec {
        name: "fan_points",
        meaning: "fans worth other points than in the 1998 table, as fan:points",
        write: fan_points_text,
    },
    SwitchSpec {
        name: "lifted_exclusions",
        meaning: "exclusions of the fan table not applied, as fan>excluded",
        write: lifted_text,
    },
    SwitchSpec {
        name: "three_kongs",
        meaning: "三杠 with one concealed kong also scores 暗杠 (concealed_kong_adds) or not (family_of_each)",
        write: |r, out| {
            out.push_str(match r.three_kongs {
                ThreeKongsRule::FamilyOfEach => "family_of_each",
                ThreeKongsRule::ConcealedKongAdds => "concealed_kong_adds",
            });
        },
    },
    SwitchSpec {
        name: "nine_gates_terminal_pungs",
        meaning: "幺九刻 counted beside 九莲宝灯: none, or one fewer than the reading shows",
        write: |r, out| {
            out.push_str(match r.nine_gates_terminal_pungs {
                NineGatesTerminalPungs::OneFewer => "one_fewer",
                NineGatesTerminalPungs::None => "none",
            });
        },
    },
    SwitchSpec {
        name: "wait_counts_exhausted_tiles",
        meaning: "a kind counts as a wait even when the winner holds all four copies (formal waits)",
        write: |r, out| flag_text(out, r.wait_counts_exhausted_tiles),
    },
    SwitchSpec {
        name: "seven_pairs_honor_tile_hog",
        meaning: "four identical honours in seven pairs score 四归一",
        write: |r, out| flag_text(out, r.seven_pairs_honor_tile_hog),
    },
    SwitchSpec {
        name: "lesser_honors_knitted_straight",
        meaning: "全不靠 holding all nine knitted tiles also scores 组合龙",
        write: |r, out| flag_text(out, r.lesser_honors_knitted_straight),
    },
    SwitchSpec {
        name: "knitted_straight_all_chows",
        meaning: "the 组合龙 + set + pair form may score 平和",
        write: |r, out| flag_text(out, r.knitted_straight_all_chows),
    },
    SwitchSpec {
        name: "standard_points",
        meaning: "标准分: the 1998 group formula N, N-2, …, 0 (group_formula) or 4/2/1/0 a table (table_4210)",
        write: |r, out| {
            out.push_str(match r.standard_points {
                StandardPoints::GroupFormula => "group_formula",
                StandardPoints::Table4210 => "table_4210",
            });
        },
    },
    SwitchSpec {
        name: "standard_point_ties",
        meaning: "tied players share the points of their places (share_places) or all take the best (same_place)",
        write: |r, out| {
            out.push_str(match r.standard_point_ties {
                StandardPointTies::SharePlaces => "share_places",
                StandardPointTies::SamePlace => "same_place",
            });
        },
    },
    SwitchSpec {
        name: "false_win_each",
        meaning: "错和 / 和错牌: points paid to each other player",
        write: |r, out| number(out, r.penalties.false_win_each),
    },
    SwitchSpec {
        name: "not_ready_win_each",
        meaning: "诈和 (one tile short of ready): points paid to each other player",
        write: |r, out| number(out, r.penalties.not_ready_win_each),
    },
    SwitchSpec {
        name: "false_win_loses_right_to_win",
        meaning: "a false declaration also costs the right to win the hand (停和)",
        write: |r, out| flag_text(out, r.penalties.false_win_loses_right_to_win),
    },
    SwitchSpec {
        name: "deliberate_false_win_disqualifies",
        meaning: "有意诈和 (two or more tiles short) disqualifies; otherwise it is ruled as 诈和",
        write: |r, out| flag_text(out, r.penalties.deliberate_false_win_disqualifies),
    },
    SwitchSpec {
        name: "graded_min",
        meaning: "the least a referee may make an offender pay a victim (R98 §14-7(3))",
        write: |r, out| number(out, r.penalties.graded_min),
    },
    SwitchSpec {
        name: "graded_max",
        meaning: "the most a referee may make an offender pay a victim (R98 §14-7(3))",
        write: |r, out| number(out, r.penalties.graded_max),
    },
    SwitchSpec {
        name: "grades",
        meaning: "the amounts a graded deduction may take (R98 §13-2(2))",
        write: |r, out| list(out, r.penalties.grades),
    },
    SwitchSpec {
        name: "repeat_offences",
        meaning: "repeated 空吃/空碰/空杠, early draws, late pungs: warning first or not, the steps, then doubling up to the cap",
        write: |r, out| {
            let e = &r.repeat_offences;
            out.push_str(if e.first_is_warning { "warning;" } else { "" });
            list(out, e.steps);
            let _ = write!(out, ";cap {}", e.cap);
        },
    },
    SwitchSpec {
        name: "late_arrival",
        meaning: "late arrival at a session: tiers as minutes:points(+warning), then the forfeit after so many minutes",
        write: |r, out| {
            let l = &r.late_arrival;
            for (i, t) in l.tiers.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let _ = write!(out, "{}:{}", t.up_to_minutes, t.points);
                if t.warning {
                    out.push_str("+warning");
                }
            }
            let _ = write!(out, ";forfeit after {}", l.forfeit_after_minutes);
        },
    },
];

/// Every switch of `rules` with its value in effect and its meaning, in [`SWITCHES`] order.
pub fn describe(rules: &Ruleset<'_>) -> Vec<Switch> {
    SWITCHES
        .iter()
        .map(|spec| {
            let mut value = String::new();
            (spec.write)(rules, &mut value);
            Switch {
                name: spec.name,
                value,
                meaning: spec.meaning,
            }
        })
        .collect()
}

/// The fingerprint of the switches in effect: FNV-1a 64 over the canonical text (module
/// documentation).
pub fn fingerprint(rules: &Ruleset<'_>) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut text = String::from("mcr-rules/1\n");
    for spec in &SWITCHES {
        text.push_str(spec.name);
        text.push('=');
        (spec.write)(rules, &mut text);
        text.push('\n');
    }
    text.bytes()
        .fold(OFFSET, |h, b| (h ^ u64::from(b)).wrapping_mul(PRIME))
}

/// The fingerprint as written in responses: 16 lower-case hex digits.
pub fn fingerprint_hex(fingerprint: u64) -> String {
    format!("{fingerprint:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fingerprint_is_pinned() {
        // FNV-1a 64 of the empty string, then of "a": the published test vectors.
        let fnv = |s: &str| {
            s.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
            })
        };
        assert_eq!(fnv(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv("a"), 0xaf63_dc4c_8601_ec8c);
        // Pinned: the fingerprint is part of the contract (logged by game servers), so a
        // change of the canonical text must be deliberate (a new `mcr-rules/N` line).
        let all = RulesetId::ALL.map(|id| fingerprint_hex(fingerprint(Ruleset::get(id))));
        assert_eq!(
            all,
            ["82160c1ef944b8cb", "0be21bdad1bd6f45", "fca2cad3ce7711a1"]
        );
    }

    #[test]
    fn overrides_that_change_nothing_keep_the_fingerprint() {
        let same = RuleOverrides {
            minimum_fan: Some(8),
            fan_points: vec![(Fan::MeldedAndConcealedKongs, 5)],
            ..RuleOverrides::default()
        };
        let house = HouseRules::new(RulesetId::Mil, &same).unwrap();
        assert_eq!(house.fingerprint(), standard_fingerprint(RulesetId::Mil));
        assert_eq!(house.ruleset().points(Fan::MeldedAndConcealedKongs), 5);
        let other = RuleOverrides {
            minimum_fan: Some(6),
            ..RuleOverrides::default()
        };
        let house = HouseRules::new(RulesetId::Mil, &other).unwrap();
        assert_ne!(house.fingerprint(), standard_fingerprint(RulesetId::Mil));
    }

    #[test]
    fn out_of_range_values_name_their_field() {
        let bad = RuleOverrides {
            minimum_fan: Some(89),
            fan_points: vec![(Fan::AllPungs, 100), (Fan::FlowerTiles, 2)],
            lift_exclusions: vec![(Fan::AllPungs, Fan::BigFourWinds)],
            grades: Some(vec![10, 5]),
            graded_min: Some(70),
            graded_max: Some(60),
            ..RuleOverrides::default()
        };
        let errors = HouseRules::new(RulesetId::ChineseOfficial1998, &bad).unwrap_err();
        let fields: Vec<&str> = errors.iter().map(|v| v.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "minimum_fan",
                "fan_points[0].points",
                "fan_points[1].fan",
                "lift_exclusions[0]",
                "graded_min",
                "grades.points[1]"
            ]
        );
    }

    #[test]
    fn every_switch_is_described_once() {
        let switches = describe(&Ruleset::CHINESE_OFFICIAL_1998);
        assert_eq!(switches.len(), SWITCHES.len());
        for (i, s) in switches.iter().enumerate() {
            assert!(!s.meaning.is_empty());
            assert!(switches[..i].iter().all(|t| t.name != s.name), "{}", s.name);
        }
        let gb = describe(&Ruleset::GREEN_BOOK_2006);
        let lifted = gb.iter().find(|s| s.name == "lifted_exclusions").unwrap();
        assert!(lifted.value.contains("3>"), "{}", lifted.value);
    }
}
