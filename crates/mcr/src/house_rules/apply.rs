//! Applying overrides: a ruleset with some of its switches replaced ([`HouseRules`]).

use super::check::check_overrides;
use super::overrides::{MAX_FAN_POINTS, RuleOverrides};
use super::switches::fingerprint;
use crate::fan::Fan;
use crate::ruleset::{Escalation, LateArrivalScale, LateTier, PenaltyFigures, Ruleset, RulesetId};
use crate::violation::Violation;

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

    /// The ruleset the house rules start from.
    pub(super) fn id(&self) -> RulesetId {
        self.scalars.id
    }
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
    set(&mut scalars.play.wall, o.wall);
    set(&mut scalars.play.last_discard_claims, o.last_discard_claims);
    set(&mut scalars.play.added_kong_tile, o.added_kong_tile);
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
