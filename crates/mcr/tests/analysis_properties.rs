//! Properties of the hand analysis: the distance tables agree with the search they replace;
//! a kind is useful exactly when drawing it lowers its shape's distance; the waits listed are
//! exactly the tiles that complete the hand, each scored as the engine scores that hand.

mod hand_strategies;

use hand_strategies::{complete_hand, counts_of};
use mcr::analysis::{Analysis, InPlay, analyze};
use mcr::shape::shanten::{
    ShantenByShape, ShapeUseful, UsefulByShape, ready_after_discard, shanten, shanten_by_shape,
    standard_shanten, standard_shanten_by_search, useful_by_shape,
};
use mcr::tile::Counts;
use mcr::{HandInput, MeldInput, MeldKind, Outcome, Ruleset, Tile, WinContext, WinMethod, score};
use proptest::prelude::*;

fn tile(index: usize) -> Tile {
    Tile::ALL[index]
}

/// Any counts of at most 14 tiles, at most four of a kind; some with long runs of one suit.
fn counts() -> impl Strategy<Value = Counts> {
    let any = proptest::collection::vec(0usize..34, 0..=14);
    let one_suit = proptest::collection::vec(0usize..9, 0..=14);
    prop_oneof![any, one_suit].prop_map(|tiles| {
        let mut c = [0u8; 34];
        for i in tiles {
            if c[i] < 4 {
                c[i] += 1;
            }
        }
        c
    })
}

fn by_shape(s: &ShantenByShape) -> [Option<i8>; 5] {
    [
        Some(s.standard),
        s.seven_pairs,
        s.thirteen_orphans,
        s.honors_and_knitted,
        s.knitted_straight,
    ]
}

fn useful_by(u: &UsefulByShape) -> [Option<ShapeUseful>; 5] {
    [
        Some(u.standard),
        u.seven_pairs,
        u.thirteen_orphans,
        u.honors_and_knitted,
        u.knitted_straight,
    ]
}

/// A complete hand less one tile, with up to two tiles exchanged, as concealed tiles.
fn thirteen() -> impl Strategy<Value = Vec<usize>> {
    (
        complete_hand(),
        0usize..14,
        proptest::collection::vec((0usize..13, 0usize..34), 0..3),
    )
        .prop_map(|(mut hand, drop, swaps)| {
            hand.remove(drop);
            for (at, new) in swaps {
                hand[at] = new;
            }
            hand
        })
        .prop_filter("at most four copies", |t| {
            counts_of(t).iter().all(|&n| n <= 4)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The tables give the distance the search gives, for every number of declared melds;
    /// the nearest shape's distance (which skips far knitted straights) is the least of all.
    #[test]
    fn tables_agree_with_the_search(c in counts(), melds in 0usize..=4) {
        prop_assert_eq!(standard_shanten(&c, melds), standard_shanten_by_search(&c, melds));
        prop_assert_eq!(shanten(&c, melds), shanten_by_shape(&c, melds).best());
    }

    /// The discards that leave a ready hand, from the tables, are those after which the
    /// distance over every shape is 0 (the test of the discard table's scoring draws).
    #[test]
    fn ready_after_discard_is_what_leaves_a_ready_hand(
        tiles in thirteen(),
        drawn in 0usize..34,
        melds in 0usize..=2,
    ) {
        // Three tiles stand for each declared meld; the drawn tile makes one more.
        let mut c = counts_of(&tiles[3 * melds..]);
        prop_assume!(c[drawn] < 4);
        c[drawn] += 1;
        let ready = ready_after_discard(&c, melds);
        for t in Tile::ALL {
            let mut left = c;
            let held = left[t.index()] > 0;
            if held {
                left[t.index()] -= 1;
            }
            prop_assert_eq!(
                ready.contains(t),
                held && shanten(&left, melds) == 0,
                "discard {}", t
            );
        }
    }

    /// Each shape's useful kinds are exactly those whose drawing lowers its distance; a
    /// kind held four times is listed only where it completes a ready shape.
    #[test]
    fn useful_is_what_lowers_the_distance(tiles in thirteen(), melds in 0usize..=1) {
        // With one declared meld, three of the thirteen tiles stand for it.
        let c = counts_of(&tiles[3 * melds..]);
        let base = by_shape(&shanten_by_shape(&c, melds));
        let useful = useful_by(&useful_by_shape(&c, melds));
        for (shape, (before, listed)) in base.iter().zip(useful).enumerate() {
            prop_assert_eq!(*before, listed.map(|u| u.shanten), "shape {}", shape);
            let (Some(before), Some(listed)) = (before, listed) else { continue };
            for t in Tile::ALL {
                if c[t.index()] >= 4 {
                    if listed.useful.contains(t) {
                        prop_assert_eq!(*before, 0, "held four {} in shape {}", t, shape);
                    }
                    continue;
                }
                let mut drawn = c;
                drawn[t.index()] += 1;
                let after = by_shape(&shanten_by_shape(&drawn, melds))[shape];
                prop_assert_eq!(
                    listed.useful.contains(t),
                    after.is_some_and(|a| a < *before),
                    "tile {} shape {}", t, shape
                );
            }
        }
    }

    /// The waits of a waiting hand are exactly the tiles that complete it, each scored as
    /// the engine scores the completed hand; without a wait the hand is not ready.
    #[test]
    fn waits_are_exactly_the_completing_tiles(tiles in thirteen(), chow in any::<bool>()) {
        // Optionally the first three tiles as a declared chow, when they make one.
        let mut sorted = tiles[..3].to_vec();
        sorted.sort_unstable();
        let declared = chow
            && sorted[0] < 27
            && sorted[0] % 9 <= 6
            && sorted[1] == sorted[0] + 1
            && sorted[2] == sorted[0] + 2;
        let (melds, standing) = if declared {
            (
                vec![MeldInput {
                    kind: MeldKind::Chow,
                    tiles: sorted.iter().map(|&i| tile(i)).collect(),
                    claimed_from: None,
                    promoted: false,
                    claimed_tile: None,
                }],
                &tiles[3..],
            )
        } else {
            (Vec::new(), &tiles[..])
        };
        let input = HandInput {
            melds,
            standing: standing.iter().map(|&i| tile(i)).collect(),
            winning_tile: None,
        };
        let hand = InPlay::new(&input, &[]).expect("valid");
        let Analysis::Waiting(analysis) = analyze(&hand, &WinContext::default(), &Ruleset::MIL)
        else {
            panic!("thirteen tiles wait");
        };
        let all = counts_of(&tiles);
        for t in Tile::ALL {
            let listed = analysis.waits.iter().find(|w| w.tile == t);
            if all[t.index()] >= 4 {
                // A fifth copy can only be a dead wait.
                prop_assert!(listed.is_none_or(|w| w.scores.is_none() && w.remaining == 0));
                continue;
            }
            let won = HandInput {
                winning_tile: Some(t),
                ..input.clone()
            };
            let context = WinContext::default();
            let complete = won.validate(&context).expect("valid with the wait");
            let scored = score(&complete, &context, &Ruleset::MIL);
            let completes = scored.outcome != Outcome::NotWinningShape;
            prop_assert_eq!(listed.is_some(), completes, "tile {}", t);
            if let Some(w) = listed {
                let s = w.scores.as_ref().expect("a live wait is scored");
                prop_assert_eq!(&s.hand, &complete);
                prop_assert_eq!(&s.on_discard.scoring, &scored);
                let self_drawn = WinContext { method: WinMethod::SelfDrawn, ..context };
                prop_assert_eq!(
                    &s.on_self_drawn.scoring,
                    &score(&complete, &self_drawn, &Ruleset::MIL)
                );
                prop_assert_eq!(w.remaining, 4 - all[t.index()]);
            }
        }
        prop_assert_eq!(analysis.distance.shanten == 0, !analysis.waits.is_empty());
        prop_assert_eq!(
            analysis.ready_to_win,
            analysis.waits.iter().any(|w| w.remaining > 0
                && w.scores.as_ref().is_some_and(|s| s.on_discard.scoring.outcome == Outcome::Win
                    || s.on_self_drawn.scoring.outcome == Outcome::Win))
        );
    }
}
