//! Strategies for `mahjong.v1` scoring requests: mostly valid numbers, some out of range,
//! some anywhere in `i32`; structured hands, notation and no hand at all.

use mahjong_referee::api::pb;
use pb::score_hand_request::HandInput;
use proptest::prelude::*;

/// A number mostly in `valid`, sometimes a little outside, sometimes anywhere.
pub fn number(valid: std::ops::RangeInclusive<i32>) -> impl Strategy<Value = i32> {
    prop_oneof![
        12 => valid,
        1 => -3..60i32,
        1 => any::<i32>(),
    ]
}

/// A meld.
pub fn meld() -> impl Strategy<Value = pb::Meld> {
    (
        number(1..=4),
        prop::collection::vec(number(1..=34), 0..6),
        number(0..=3),
        any::<bool>(),
        // Mostly not stated, as most callers send it.
        prop_oneof![6 => Just(0), 1 => number(0..=34)],
    )
        .prop_map(
            |(kind, tiles, claimed_from, promoted, claimed_tile)| pb::Meld {
                kind,
                tiles,
                claimed_from,
                promoted,
                claimed_tile,
            },
        )
}

/// A structured hand.
pub fn hand() -> impl Strategy<Value = pb::Hand> {
    (
        prop::collection::vec(meld(), 0..6),
        prop::collection::vec(number(1..=34), 0..16),
        number(0..=34),
    )
        .prop_map(|(melds, standing_tiles, winning_tile)| pb::Hand {
            melds,
            standing_tiles,
            winning_tile,
        })
}

/// A context.
pub fn context() -> impl Strategy<Value = pb::WinContext> {
    (
        any::<[bool; 5]>(),
        number(0..=4),
        number(0..=4),
        prop_oneof![0..=9u32, any::<u32>()],
    )
        .prop_map(|(flags, seat_wind, prevalent_wind, flower_count)| {
            let [
                self_drawn,
                robbing_kong,
                replacement_draw,
                last_tile,
                last_copy,
            ] = flags;
            pb::WinContext {
                self_drawn,
                robbing_kong,
                replacement_draw,
                last_tile,
                last_copy,
                seat_wind,
                prevalent_wind,
                flower_count,
            }
        })
}

/// House rules: a few switches, some out of range.
pub fn overrides() -> impl Strategy<Value = pb::RuleOverrides> {
    (
        prop::option::of(0u32..=100),
        prop::option::of(0u32..=3),
        prop::option::of(any::<bool>()),
        prop::option::of(number(0..=3)),
        prop::collection::vec((number(0..=83), 0u32..=100), 0..3),
    )
        .prop_map(|(minimum_fan, flower_points, formal_waits, ties, points)| {
            pb::RuleOverrides {
                minimum_fan,
                flower_points,
                wait_counts_exhausted_tiles: formal_waits,
                standard_point_ties: ties,
                fan_points: points
                    .into_iter()
                    .map(|(fan, points)| pb::FanPoints { fan, points })
                    .collect(),
                ..pb::RuleOverrides::default()
            }
        })
}

/// A `ScoreHand` request: mostly a structured hand, some notation, some none.
pub fn request() -> impl Strategy<Value = pb::ScoreHandRequest> {
    let hand_input = prop_oneof![
        8 => hand().prop_map(|h| Some(HandInput::Hand(h))),
        1 => "[0-9mpsESWNCFP\\[\\]]{0,20}".prop_map(|n| Some(HandInput::Notation(n))),
        1 => Just(None),
    ];
    (
        hand_input,
        prop::option::of(context()),
        number(0..=3),
        number(0..=2),
        prop::option::weighted(0.1, overrides()),
    )
        .prop_map(
            |(hand_input, context, ruleset, view, overrides)| pb::ScoreHandRequest {
                hand_input,
                context,
                ruleset,
                view,
                overrides: overrides.map(Box::new),
            },
        )
}

/// A batch of up to 7 requests.
pub fn batch() -> impl Strategy<Value = pb::BatchScoreHandsRequest> {
    (
        prop::collection::vec(request(), 0..8),
        number(0..=3),
        number(0..=2),
        prop::option::weighted(0.1, overrides()),
    )
        .prop_map(
            |(requests, default_ruleset, default_view, default_overrides)| {
                pb::BatchScoreHandsRequest {
                    requests,
                    default_ruleset,
                    default_view,
                    default_overrides,
                }
            },
        )
}
