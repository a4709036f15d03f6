//! House rules (`house_rules.proto`): `RuleOverrides` → the domain's
//! [`mcr::RuleOverrides`] and the [`Rules`] a request applies, the fingerprint as written in
//! responses, and the switches `DescribeRuleset` lists.

use mcr::house_rules::{
    EscalationOverride, HouseRules, LateArrivalOverride, MAX_SCALE_LENGTH, RuleOverrides,
};
use mcr::penalty::LateTier;
use mcr::violation::FieldPath;
use mcr::{Fan, Rules, RulesetId, Violation};

use super::values::{
    added_kong_tile_of, fan_from_pb, last_discard_claims_of, nine_gates_terminal_pungs_of,
    ruleset_from_pb, ruleset_to_pb, standard_point_ties_of, three_kongs_of, value_invalid, wall_of,
};
use super::violations::Violations;
use crate::api::pb;
use prost::Message as _;
use std::hash::{DefaultHasher, Hash as _, Hasher as _};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// The most exclusions one list of the overrides may name.
pub const MAX_EXCLUSIONS: usize = 256;

/// The fingerprint as responses write it: 16 lower-case hex digits.
pub fn fingerprint_text(fingerprint: u64) -> String {
    mcr::house_rules::fingerprint_hex(fingerprint)
}

/// The rules of a request: its `ruleset` number and its overrides (absent: none), violations
/// at `ruleset` and below `prefix` (`overrides.minimum_fan`).
///
/// House rules built lately are kept in `kept` with what they were built from and served
/// again to the requests that ask for the same: a game sends its house rules with every
/// call, and building them costs more than scoring the hand.
pub fn rules_from_pb(
    ruleset: i32,
    overrides: Option<&pb::RuleOverrides>,
    prefix: FieldPath,
    kept: &KeptRules,
) -> Result<Rules, Vec<Violation>> {
    let Some(overrides) = overrides else {
        return build_rules(ruleset, None, prefix);
    };
    let key = Key::new(ruleset, overrides);
    if let Some(rules) = kept.lock().get(&key) {
        return Ok(rules);
    }
    let rules = build_rules(ruleset, Some(overrides), prefix)?;
    kept.lock().keep(key, rules.clone());
    Ok(rules)
}

/// The rules of a request, its ruleset and house rules (`overrides`): unknown numbers and
/// invalid overrides are violations, and the default rules stand in so that the rest of the
/// request is still checked.
pub fn rules_of(
    number: i32,
    overrides: Option<&pb::RuleOverrides>,
    kept: &KeptRules,
    v: &mut Violations,
) -> Rules {
    rules_from_pb(number, overrides, FieldPath::of("overrides"), kept).unwrap_or_else(|errors| {
        v.extend(errors);
        Rules::Standard(RulesetId::default())
    })
}

/// The house rules [`rules_from_pb`] built lately, shared by the calls of one referee (the
/// server's, or one command line run): only rules that were built are kept, not overrides
/// with violations.
#[derive(Debug, Default)]
pub struct KeptRules(Mutex<Kept>);

impl KeptRules {
    fn lock(&self) -> MutexGuard<'_, Kept> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// How many house rules [`KeptRules`] holds: the most recently asked for.
const KEPT_RULES: usize = 16;

/// What house rules are built from: the ruleset number and the overrides, encoded (equal
/// messages encode to equal bytes, and equal bytes decode to equal messages), with their
/// hash.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Key {
    hash: u64,
    ruleset: i32,
    overrides: Vec<u8>,
}

impl Key {
    fn new(ruleset: i32, overrides: &pb::RuleOverrides) -> Key {
        let overrides = overrides.encode_to_vec();
        let mut hasher = DefaultHasher::new();
        (ruleset, &overrides).hash(&mut hasher);
        Key {
            hash: hasher.finish(),
            ruleset,
            overrides,
        }
    }
}

/// House rules built, most recently asked for first, at most [`KEPT_RULES`]: a caller that
/// goes back and forth between a few sets of house rules finds each of them kept.
#[derive(Debug, Default)]
struct Kept(Vec<(Key, Rules)>);

impl Kept {
    /// The rules built from `key`, if kept (they become the most recently asked for).
    fn get(&mut self, key: &Key) -> Option<Rules> {
        let at = self.0.iter().position(|(k, _)| k == key)?;
        self.0[..=at].rotate_right(1);
        Some(self.0[0].1.clone())
    }

    /// Keeps `rules`, built from `key`; beyond [`KEPT_RULES`], the least recently asked for
    /// are dropped.
    fn keep(&mut self, key: Key, rules: Rules) {
        if let Some(at) = self.0.iter().position(|(k, _)| *k == key) {
            self.0.remove(at);
        }
        self.0.insert(0, (key, rules));
        self.0.truncate(KEPT_RULES);
    }
}

/// [`rules_from_pb`], built every time.
fn build_rules(
    ruleset: i32,
    overrides: Option<&pb::RuleOverrides>,
    prefix: FieldPath,
) -> Result<Rules, Vec<Violation>> {
    let id = ruleset_from_pb(ruleset);
    let overrides = overrides.map(|o| overrides_from_pb(o, prefix));
    match (id, overrides) {
        (Ok(id), None) => Ok(Rules::Standard(id)),
        (Ok(id), Some(Ok(o))) => house_rules_of(id, &o, prefix),
        (Ok(_), Some(Err(v))) => Err(v),
        (Err(v), None | Some(Ok(_))) => Err(vec![v]),
        (Err(v), Some(Err(mut more))) => {
            more.insert(0, v);
            Err(more)
        }
    }
}

/// The ruleset `id` with the domain overrides `o`, violations below `prefix`.
pub fn house_rules_of(
    id: RulesetId,
    o: &RuleOverrides,
    prefix: FieldPath,
) -> Result<Rules, Vec<Violation>> {
    HouseRules::new(id, o)
        .map(|house| Rules::House(Arc::new(house)))
        .map_err(|v| {
            v.into_iter()
                .map(|mut v| {
                    *v.path = v.path.under(prefix);
                    v
                })
                .collect()
        })
}

/// An enum of the overrides: unset or unspecified is `None`.
fn choice<T>(
    number: Option<i32>,
    path: FieldPath,
    expected: &str,
    of: impl Fn(i32) -> Option<T>,
    v: &mut Violations,
) -> Option<T> {
    let number = number.filter(|&n| n != 0)?;
    let value = of(number);
    if value.is_none() {
        v.add(value_invalid(
            path,
            format!("{number} is not a value of {path} (expected {expected})"),
        ));
    }
    value
}

fn fan_at(number: i32, path: FieldPath, v: &mut Violations) -> Option<Fan> {
    let fan = fan_from_pb(number);
    if fan.is_none() {
        v.add(value_invalid(
            path,
            format!("{number} is not a fan (expected a fan number 1 to 82)"),
        ));
    }
    fan
}

fn too_long(path: FieldPath, found: usize, max: usize, v: &mut Violations) -> bool {
    if found > max {
        v.add(value_invalid(
            path,
            format!("at most {max} entries, found {found}"),
        ));
    }
    found > max
}

/// Converts the overrides, with every problem of the conversion below `prefix`; the ranges
/// are the engine's to check ([`house_rules_of`]).
#[allow(clippy::too_many_lines)] // one statement per field of the message, destructured
pub fn overrides_from_pb(
    o: &pb::RuleOverrides,
    prefix: FieldPath,
) -> Result<RuleOverrides, Vec<Violation>> {
    let pb::RuleOverrides {
        minimum_fan,
        base_points,
        flower_points,
        fan_points,
        lift_exclusions,
        apply_exclusions,
        three_kongs,
        nine_gates_terminal_pungs,
        wait_counts_exhausted_tiles,
        seven_pairs_honor_tile_hog,
        lesser_honors_knitted_straight,
        knitted_straight_all_chows,
        standard_point_ties,
        false_win_each,
        not_ready_win_each,
        false_win_loses_right_to_win,
        deliberate_false_win_disqualifies,
        graded_min,
        graded_max,
        grades,
        repeat_offences,
        late_arrival,
        wall,
        last_discard_claims,
        added_kong_tile,
    } = o;
    let mut v = Violations::default();
    let at = |field: &'static str| prefix.field(field);
    let mut points = Vec::new();
    if !too_long(at("fan_points"), fan_points.len(), Fan::ALL.len(), &mut v) {
        for (i, p) in fan_points.iter().enumerate() {
            if let Some(fan) = fan_at(p.fan, at("fan_points").index(i).field("fan"), &mut v) {
                points.push((fan, p.points));
            }
        }
    }
    let exclusions = |list: &[pb::FanExclusion], name: &'static str, v: &mut Violations| {
        let mut out = Vec::new();
        if !too_long(at(name), list.len(), MAX_EXCLUSIONS, v) {
            for (i, e) in list.iter().enumerate() {
                let fan = fan_at(e.fan, at(name).index(i).field("fan"), v);
                let excluded = fan_at(e.excluded, at(name).index(i).field("excluded"), v);
                if let (Some(fan), Some(excluded)) = (fan, excluded) {
                    out.push((fan, excluded));
                }
            }
        }
        out
    };
    let lift = exclusions(lift_exclusions, "lift_exclusions", &mut v);
    let apply = exclusions(apply_exclusions, "apply_exclusions", &mut v);
    let three_kongs = choice(
        *three_kongs,
        at("three_kongs"),
        "THREE_KONGS_RULE_FAMILY_OF_EACH or THREE_KONGS_RULE_CONCEALED_KONG_ADDS",
        three_kongs_of,
        &mut v,
    );
    let nine_gates_terminal_pungs = choice(
        *nine_gates_terminal_pungs,
        at("nine_gates_terminal_pungs"),
        "NINE_GATES_TERMINAL_PUNGS_ONE_FEWER or NINE_GATES_TERMINAL_PUNGS_NONE",
        nine_gates_terminal_pungs_of,
        &mut v,
    );
    let standard_point_ties = choice(
        *standard_point_ties,
        at("standard_point_ties"),
        "STANDARD_POINT_TIES_SHARE_PLACES or STANDARD_POINT_TIES_SAME_PLACE",
        standard_point_ties_of,
        &mut v,
    );
    let wall = choice(
        *wall,
        at("wall"),
        "WALL_SHARED_136, WALL_SHARED_144 or WALL_BOTZONE",
        wall_of,
        &mut v,
    );
    let last_discard_claims = choice(
        *last_discard_claims,
        at("last_discard_claims"),
        "LAST_DISCARD_CLAIMS_WINS_ONLY or LAST_DISCARD_CLAIMS_ALL",
        last_discard_claims_of,
        &mut v,
    );
    let added_kong_tile = choice(
        *added_kong_tile,
        at("added_kong_tile"),
        "ADDED_KONG_TILE_JUST_DRAWN or ADDED_KONG_TILE_ANY_HELD",
        added_kong_tile_of,
        &mut v,
    );
    let grades = grades.as_ref().and_then(|g| {
        (!too_long(
            at("grades").field("points"),
            g.points.len(),
            MAX_SCALE_LENGTH,
            &mut v,
        ))
        .then(|| g.points.clone())
    });
    let repeat_offences = repeat_offences.as_ref().and_then(|e| {
        (!too_long(
            at("repeat_offences").field("steps"),
            e.steps.len(),
            MAX_SCALE_LENGTH,
            &mut v,
        ))
        .then(|| EscalationOverride {
            first_is_warning: e.first_is_warning,
            steps: e.steps.clone(),
            cap: e.cap,
        })
    });
    let late_arrival = late_arrival.as_ref().and_then(|l| {
        (!too_long(
            at("late_arrival").field("tiers"),
            l.tiers.len(),
            MAX_SCALE_LENGTH,
            &mut v,
        ))
        .then(|| LateArrivalOverride {
            tiers: l
                .tiers
                .iter()
                .map(|t| LateTier {
                    up_to_minutes: t.up_to_minutes,
                    points: t.points,
                    warning: t.warning,
                })
                .collect(),
            forfeit_after_minutes: l.forfeit_after_minutes,
        })
    });
    v.or_value(RuleOverrides {
        minimum_fan: *minimum_fan,
        base_points: *base_points,
        flower_points: *flower_points,
        fan_points: points,
        lift_exclusions: lift,
        apply_exclusions: apply,
        three_kongs,
        nine_gates_terminal_pungs,
        wait_counts_exhausted_tiles: *wait_counts_exhausted_tiles,
        seven_pairs_honor_tile_hog: *seven_pairs_honor_tile_hog,
        lesser_honors_knitted_straight: *lesser_honors_knitted_straight,
        knitted_straight_all_chows: *knitted_straight_all_chows,
        standard_points: None,
        standard_point_ties,
        false_win_each: *false_win_each,
        not_ready_win_each: *not_ready_win_each,
        false_win_loses_right_to_win: *false_win_loses_right_to_win,
        deliberate_false_win_disqualifies: *deliberate_false_win_disqualifies,
        graded_min: *graded_min,
        graded_max: *graded_max,
        grades,
        repeat_offences,
        late_arrival,
        wall,
        last_discard_claims,
        added_kong_tile,
    })
}

/// Handles a `DescribeRuleset` call: every switch in effect with its meaning.
///
/// # Errors
/// A ruleset outside the enum and every invalid override.
pub fn describe_ruleset(
    request: &pb::DescribeRulesetRequest,
    kept: &KeptRules,
) -> Result<pb::DescribeRulesetResponse, Vec<Violation>> {
    let pb::DescribeRulesetRequest { ruleset, overrides } = request;
    let rules = rules_from_pb(
        *ruleset,
        overrides.as_ref(),
        FieldPath::of("overrides"),
        kept,
    )?;
    let switches = mcr::house_rules::describe(&rules.ruleset())
        .into_iter()
        .map(|s| pb::RulesetSwitch {
            name: s.name.to_owned(),
            value: s.value,
            meaning: s.meaning.to_owned(),
        })
        .collect();
    Ok(pb::DescribeRulesetResponse {
        ruleset: ruleset_to_pb(rules.id()) as i32,
        rules_fingerprint: fingerprint_text(rules.fingerprint()),
        switches,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// MIL with its minimum replaced: built, with its key.
    fn house(minimum_fan: u32) -> (Key, Rules) {
        let o = pb::RuleOverrides {
            minimum_fan: Some(minimum_fan),
            ..pb::RuleOverrides::default()
        };
        let mil = pb::Ruleset::Mil as i32;
        let rules =
            build_rules(mil, Some(&o), FieldPath::of("overrides")).expect("valid overrides");
        (Key::new(mil, &o), rules)
    }

    /// Whether `kept` is `built` itself, not a copy.
    fn is(kept: &Rules, built: &Rules) -> bool {
        match (kept, built) {
            (Rules::House(a), Rules::House(b)) => Arc::ptr_eq(a, b),
            (Rules::Standard(_), Rules::Standard(_) | Rules::House(_))
            | (Rules::House(_), Rules::Standard(_)) => false,
        }
    }

    #[test]
    fn a_key_is_the_ruleset_and_the_overrides() {
        let o = |minimum_fan| pb::RuleOverrides {
            minimum_fan: Some(minimum_fan),
            ..pb::RuleOverrides::default()
        };
        assert_eq!(Key::new(1, &o(6)), Key::new(1, &o(6)));
        assert_ne!(Key::new(1, &o(6)), Key::new(2, &o(6)));
        assert_ne!(Key::new(1, &o(6)), Key::new(1, &o(7)));
        assert_ne!(
            Key::new(1, &o(0)),
            Key::new(1, &pb::RuleOverrides::default())
        );
    }

    #[test]
    fn house_rules_asked_in_turn_are_all_served_kept() {
        let mut kept = Kept::default();
        let sets: Vec<(Key, Rules)> = (0..4).map(house).collect();
        for (key, rules) in &sets {
            assert!(kept.get(key).is_none());
            kept.keep(key.clone(), rules.clone());
        }
        for _ in 0..3 {
            for (key, rules) in &sets {
                let served = kept.get(key).expect("kept");
                assert!(is(&served, rules));
            }
        }
        assert_eq!(kept.0.len(), sets.len());
    }

    #[test]
    fn beyond_the_bound_the_least_recently_asked_go() {
        let mut kept = Kept::default();
        let sets: Vec<(Key, Rules)> = (0..=16).map(house).collect();
        assert_eq!(sets.len(), KEPT_RULES + 1);
        for (key, rules) in &sets[..KEPT_RULES] {
            kept.keep(key.clone(), rules.clone());
        }
        // The first kept is asked again: the second is now the least recently asked.
        assert!(kept.get(&sets[0].0).is_some());
        let (key, rules) = &sets[KEPT_RULES];
        kept.keep(key.clone(), rules.clone());
        assert_eq!(kept.0.len(), KEPT_RULES);
        assert!(kept.get(&sets[1].0).is_none());
        for (key, rules) in sets.iter().take(1).chain(&sets[2..]) {
            assert!(is(&kept.get(key).expect("kept"), rules));
        }
        // Kept again, the same rules stay one entry.
        kept.keep(sets[0].0.clone(), sets[0].1.clone());
        assert_eq!(kept.0.len(), KEPT_RULES);
    }
}
