//! Range checks: every value of the overrides out of its range, with its field.

use super::overrides::{
    LateArrivalOverride, MAX_FAN_POINTS, MAX_FIGURE, MAX_SCALE_LENGTH, RuleOverrides,
};
use crate::fan::Fan;
use crate::violation::{FieldPath, Violation, ViolationCode};

fn out_of_range(v: &mut Vec<Violation>, path: FieldPath, what: &str, max: u32, found: u32) {
    v.push(Violation::new(
        ViolationCode::ValueInvalid,
        path,
        format!("{what} must be between 0 and {max}, found {found}"),
    ));
}

fn check_at_most(
    v: &mut Vec<Violation>,
    path: FieldPath,
    what: &str,
    max: u32,
    value: Option<u32>,
) {
    if let Some(found) = value
        && found > max
    {
        out_of_range(v, path, what, max, found);
    }
}

fn invalid(v: &mut Vec<Violation>, path: FieldPath, message: String) {
    v.push(Violation::new(ViolationCode::ValueInvalid, path, message));
}

/// Every value of `o` out of its range, added to `v` (paths relative to the overrides).
pub(super) fn check_overrides(o: &RuleOverrides, v: &mut Vec<Violation>) {
    check_at_most(
        v,
        FieldPath::of("minimum_fan"),
        "the minimum fan",
        MAX_FAN_POINTS,
        o.minimum_fan,
    );
    check_at_most(
        v,
        FieldPath::of("base_points"),
        "the base points",
        MAX_FIGURE,
        o.base_points,
    );
    check_at_most(
        v,
        FieldPath::of("flower_points"),
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
                FieldPath::of("fan_points").index(i).field("fan"),
                "the points of flowers are set with `flower_points`".to_owned(),
            );
        }
        if o.fan_points[..i].iter().any(|(f, _)| *f == fan) {
            invalid(
                v,
                FieldPath::of("fan_points").index(i).field("fan"),
                format!("{} is given points twice", fan.spec().name_en),
            );
        }
        if points > MAX_FAN_POINTS {
            out_of_range(
                v,
                FieldPath::of("fan_points").index(i).field("points"),
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
                    FieldPath::of(name).index(i),
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
                FieldPath::of("apply_exclusions").index(i),
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
        check_at_most(v, FieldPath::of(field), what, MAX_FIGURE, value);
    }
    if let (Some(min), Some(max)) = (o.graded_min, o.graded_max)
        && min > max
    {
        invalid(
            v,
            FieldPath::of("graded_min"),
            format!("the smallest victim amount {min} is above the largest {max}"),
        );
    }
    if let Some(grades) = &o.grades {
        check_amounts(v, FieldPath::of("grades").field("points"), grades);
    }
    if let Some(e) = &o.repeat_offences {
        check_amounts(v, FieldPath::of("repeat_offences").field("steps"), &e.steps);
        if !(1..=MAX_FIGURE).contains(&e.cap) {
            invalid(
                v,
                FieldPath::of("repeat_offences").field("cap"),
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
fn check_amounts(v: &mut Vec<Violation>, list: FieldPath, amounts: &[u32]) {
    if amounts.is_empty() || amounts.len() > MAX_SCALE_LENGTH {
        invalid(
            v,
            list,
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
                list.index(i),
                format!("an amount must be between 1 and {MAX_FIGURE}, found {a}"),
            );
        } else if i > 0 && a <= amounts[i - 1] {
            invalid(
                v,
                list.index(i),
                format!("amounts must increase: {a} follows {}", amounts[i - 1]),
            );
        }
    }
}

fn check_late_arrival(v: &mut Vec<Violation>, l: &LateArrivalOverride) {
    if l.tiers.len() > MAX_SCALE_LENGTH {
        invalid(
            v,
            FieldPath::of("late_arrival").field("tiers"),
            format!(
                "give at most {MAX_SCALE_LENGTH} tiers, found {}",
                l.tiers.len()
            ),
        );
        return;
    }
    for (i, t) in l.tiers.iter().enumerate() {
        let tier = FieldPath::of("late_arrival").field("tiers").index(i);
        check_at_most(
            v,
            tier.field("up_to_minutes"),
            "the minutes of a tier",
            MAX_FIGURE,
            Some(t.up_to_minutes),
        );
        check_at_most(
            v,
            tier.field("points"),
            "the points of a tier",
            MAX_FIGURE,
            Some(t.points),
        );
        if i > 0 && t.up_to_minutes <= l.tiers[i - 1].up_to_minutes {
            invalid(
                v,
                tier.field("up_to_minutes"),
                "tiers must be given in increasing minutes".to_owned(),
            );
        }
    }
    check_at_most(
        v,
        FieldPath::of("late_arrival").field("forfeit_after_minutes"),
        "the forfeit minutes",
        MAX_FIGURE,
        Some(l.forfeit_after_minutes),
    );
}

#[cfg(test)]
mod tests {
    use super::super::HouseRules;
    use super::*;
    use crate::ruleset::RulesetId;

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
        let fields: Vec<String> = errors.iter().map(|v| v.path.to_string()).collect();
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
}
