//! Distance to ready (shanten): unit cases per shape, a brute-force check on small hands, and
//! consistency with the scoring engine on hands built around complete shapes.
//!
//! Expected distances in the unit cases are worked out by hand in the comments.

use std::sync::OnceLock;

mod hand_strategies;

use hand_strategies::{complete_hand, counts_of};
use mcr::notation::parse_tiles;
use mcr::shape::shanten::{
    honors_and_knitted_shanten, knitted_straight_shanten, seven_pairs_shanten, shanten,
    shanten_by_shape, standard_shanten, thirteen_orphans_shanten,
};
use mcr::tile::Counts;
use mcr::{HandInput, Outcome, Ruleset, Tile, WinContext, score};
use proptest::prelude::*;
use proptest::sample::select;

fn counts(tiles: &str) -> Counts {
    let mut c = [0u8; 34];
    for t in parse_tiles(tiles).expect("test tiles parse") {
        c[t.index()] += 1;
    }
    c
}

fn tile(index: usize) -> Tile {
    Tile::from_index(u8::try_from(index).expect("index")).expect("index below 34")
}

// ---------------------------------------------------------------------------------------------
// Unit cases
// ---------------------------------------------------------------------------------------------

#[test]
fn thirteen_orphans() {
    // All thirteen once: waiting on any of them (13-sided wait).
    assert_eq!(thirteen_orphans_shanten(&counts("19m19p19sESWNCFP")), 0);
    assert_eq!(shanten(&counts("19m19p19sESWNCFP"), 0), 0);
    // Complete with the white dragon doubled.
    assert_eq!(shanten(&counts("19m19p19sESWNCFPP"), 0), -1);
    // Twelve kinds and a pair: ready on the missing kind.
    assert_eq!(thirteen_orphans_shanten(&counts("19m19p19sESWNCFF")), 0);
    // Eleven kinds, no pair, two middle tiles: 13 − 11 = 2.
    assert_eq!(thirteen_orphans_shanten(&counts("19m19p19sESWNC55m")), 2);
    // Declared melds rule the shape out.
    assert_eq!(
        shanten_by_shape(&counts("19m19p19sE"), 1).thirteen_orphans,
        None
    );
}

#[test]
fn seven_pairs() {
    // Six pairs and a single: ready.
    assert_eq!(seven_pairs_shanten(&counts("1122m3344p5566sE")), 0);
    assert_eq!(shanten(&counts("1122m3344p5566sEE"), 0), -1);
    // Four of a kind counts as two pairs: 1111m 22p 33p 44s 55s + 6s is ready on 6s.
    assert_eq!(seven_pairs_shanten(&counts("1111m2233p4455s6s")), 0);
    // Three pairs and seven singles: 6 − 3 = 3.
    assert_eq!(seven_pairs_shanten(&counts("1133m5p7p9p2s4s6sEES")), 3);
    assert_eq!(
        shanten_by_shape(&counts("1122m3344p5s"), 1).seven_pairs,
        None
    );
}

#[test]
fn honours_and_knitted() {
    // 147m 258p 369s and five honours: fourteen distinct tiles, complete (全不靠).
    assert_eq!(honors_and_knitted_shanten(&counts("147m258p369sESWNC")), -1);
    assert_eq!(shanten(&counts("147m258p369sESWNC"), 0), -1);
    // Thirteen of them: ready.
    assert_eq!(shanten(&counts("147m258p369sESWN"), 0), 0);
    // 七星不靠: seven honours and seven knitted tiles.
    assert_eq!(honors_and_knitted_shanten(&counts("14m25p369sESWNCFP")), -1);
    // 147m 258p 369p: at best six knitted tiles of one pattern + four honours = 10 → 3.
    assert_eq!(honors_and_knitted_shanten(&counts("147m258p369pESWN")), 3);
}

#[test]
fn knitted_straight_with_set_and_pair() {
    // 组合龙 + 123m + EE: complete; without one E: ready.
    assert_eq!(
        knitted_straight_shanten(&counts("147m258p369s123mEE"), 0),
        Some(-1)
    );
    assert_eq!(
        knitted_straight_shanten(&counts("147m258p369s123mE"), 0),
        Some(0)
    );
    assert_eq!(shanten(&counts("147m258p369s123mE"), 0), 0);
    // With one declared meld the knitted tiles and a pair are the rest.
    assert_eq!(
        knitted_straight_shanten(&counts("147m258p369sEE"), 1),
        Some(-1)
    );
    assert_eq!(
        knitted_straight_shanten(&counts("147m258p369sE"), 1),
        Some(0)
    );
    // One knitted tile missing (no 9s), 123m and EE complete: 1 + (−1) = 0, waiting on 9s.
    assert_eq!(
        knitted_straight_shanten(&counts("147m258p36s123mEE"), 0),
        Some(0)
    );
    // One knitted tile missing, 123m and two single honours (the pair half formed): 1 + 0.
    assert_eq!(
        knitted_straight_shanten(&counts("147m258p36s123mES"), 0),
        Some(1)
    );
    // Two declared melds rule it out.
    assert_eq!(knitted_straight_shanten(&counts("147m258p36s"), 2), None);
}

#[test]
fn standard_with_declared_melds() {
    // Four melds + one tile: a single wait (单钓).
    assert_eq!(standard_shanten(&counts("5m"), 4), 0);
    // Four melds + 5m 5m: complete.
    assert_eq!(standard_shanten(&counts("55m"), 4), -1);
    // Three melds + 5m alone (a short hand): a set and a pair need four more tiles, 5 − 1 − 1.
    assert_eq!(standard_shanten(&counts("5m"), 3), 3);
    // Two melds + 23456m EE: ready on 1m 4m 7m.
    assert_eq!(shanten(&counts("23456mEE"), 2), 0);
    // Three melds + 2m 5m 7s 9s (k_nearmiss-002800 before the declared tile): one set and a
    // pair needed; 79s is a partial, there is no pair: 2·1 − 1 = 1.
    assert_eq!(shanten(&counts("25m79s"), 3), 1);
    // No melds: 123 456 789m + 1p 5p 9p E: three sets, four singles → 2.
    assert_eq!(shanten(&counts("123456789m159pE"), 0), 2);
    // Four melds and no tile: a pair is still missing, two tiles → 1.
    assert_eq!(standard_shanten(&[0; 34], 4), 1);
    // Thirteen isolated tiles: 8.
    assert_eq!(standard_shanten(&counts("147m258p369sESWN"), 0), 8);
}

#[test]
fn counts_above_four_are_read_as_four() {
    let mut c = [0u8; 34];
    c[4] = 200; // 5m
    assert_eq!(shanten(&c, 3), shanten(&counts("5555m"), 3));
}

// ---------------------------------------------------------------------------------------------
// Brute force on small hands (one or two sets and a pair needed)
// ---------------------------------------------------------------------------------------------

/// Every complete concealed part of `needed` sets and a pair, over all 34 kinds, with no
/// limit on copies (formal waits).
fn complete_shapes(needed: usize) -> &'static [Counts] {
    static ONE: OnceLock<Vec<Counts>> = OnceLock::new();
    static TWO: OnceLock<Vec<Counts>> = OnceLock::new();
    let build = || {
        let mut sets: Vec<Counts> = Vec::new();
        for i in 0..34 {
            let mut pung = [0u8; 34];
            pung[i] = 3;
            sets.push(pung);
            if i < 27 && i % 9 <= 6 {
                let mut chow = [0u8; 34];
                chow[i] = 1;
                chow[i + 1] = 1;
                chow[i + 2] = 1;
                sets.push(chow);
            }
        }
        let mut groups: Vec<Counts> = vec![[0; 34]];
        for _ in 0..needed {
            let mut next = Vec::new();
            for g in &groups {
                for s in &sets {
                    let mut c = *g;
                    for (a, b) in c.iter_mut().zip(s) {
                        *a += b;
                    }
                    next.push(c);
                }
            }
            groups = next;
        }
        let mut out = Vec::new();
        for g in &groups {
            for p in 0..34 {
                let mut c = *g;
                c[p] += 2;
                out.push(c);
            }
        }
        out
    };
    match needed {
        1 => ONE.get_or_init(build),
        _ => TWO.get_or_init(build),
    }
}

/// Tiles still missing from the nearest complete shape, minus one.
fn brute_force(hand: &Counts, needed: usize) -> i64 {
    let size = i64::try_from(3 * needed + 2).expect("small");
    // Only kinds in the hand can be shared.
    let held: Vec<usize> = (0..34).filter(|&i| hand[i] > 0).collect();
    complete_shapes(needed)
        .iter()
        .map(|c| {
            let shared: i64 = held.iter().map(|&i| i64::from(c[i].min(hand[i]))).sum();
            size - shared - 1
        })
        .min()
        .unwrap_or(i64::MAX)
}

/// Small palettes, so that random hands have structure: a run of one suit and two honours,
/// two suits' middles, or every tile.
fn palette() -> impl Strategy<Value = Vec<usize>> {
    prop_oneof![
        (0usize..3, 0usize..5).prop_map(|(suit, low)| {
            let mut p: Vec<usize> = (suit * 9 + low..suit * 9 + low + 5).collect();
            p.extend([27, 31]);
            p
        }),
        Just((2..7).chain(11..16).collect()),
        Just((0..34).collect()),
    ]
}

fn small_hand() -> impl Strategy<Value = (Counts, usize)> {
    (
        palette(),
        prop_oneof![Just(4usize), Just(5), Just(7), Just(8)],
    )
        .prop_flat_map(|(p, n)| (proptest::collection::vec(select(p), n), Just(n)))
        .prop_filter_map("at most four copies", |(tiles, n)| {
            let mut c = [0u8; 34];
            for i in tiles {
                c[i] += 1;
            }
            c.iter().all(|&k| k <= 4).then_some((c, n))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// With three or two declared melds only the standard shape applies: the distance equals
    /// the brute-force minimum over every complete shape.
    #[test]
    fn agrees_with_brute_force((hand, n) in small_hand()) {
        let needed = if n <= 5 { 1 } else { 2 };
        let melds = 4 - needed;
        let want = brute_force(&hand, needed);
        prop_assert_eq!(i64::from(standard_shanten(&hand, melds)), want);
        prop_assert_eq!(i64::from(shanten(&hand, melds)), want);
    }
}

// ---------------------------------------------------------------------------------------------
// Full hands built around complete shapes, checked against the scoring engine
// ---------------------------------------------------------------------------------------------

/// The engine's verdict on thirteen concealed tiles and a winning tile.
fn engine_wins(standing: &[usize], winning: usize) -> Option<bool> {
    let input = HandInput {
        melds: Vec::new(),
        standing: standing.iter().map(|&i| tile(i)).collect(),
        winning_tile: Some(tile(winning)),
    };
    let ctx = WinContext::default();
    let hand = input.validate(&ctx).ok()?;
    Some(score(&hand, &ctx, &Ruleset::MIL).outcome != Outcome::NotWinningShape)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// A complete hand is at −1 and the engine finds a winning shape; any thirteen of its
    /// tiles are ready.
    #[test]
    fn complete_hands_and_their_waits(hand in complete_hand(), drop in 0usize..14) {
        prop_assert_eq!(shanten(&counts_of(&hand), 0), -1);
        let mut standing = hand.clone();
        let winning = standing.remove(drop);
        prop_assert_eq!(engine_wins(&standing, winning), Some(true));
        prop_assert_eq!(shanten(&counts_of(&standing), 0), 0);
    }

    /// After exchanging tiles of a complete hand: one more tile lowers the distance by at
    /// most one; the thirteen are ready exactly when some tile completes them (copies ≤ 3, so
    /// every completion is physical); and a completion is exactly what the engine accepts.
    #[test]
    fn drawing_a_tile_moves_the_distance_by_at_most_one(
        hand in complete_hand(),
        drop in 0usize..14,
        swaps in proptest::collection::vec((0usize..13, 0usize..34), 0..3),
    ) {
        let mut standing = hand;
        standing.remove(drop);
        for (at, new) in swaps {
            standing[at] = new;
        }
        let c = counts_of(&standing);
        prop_assume!(c.iter().all(|&n| n <= 4));
        let before = shanten(&c, 0);
        let mut completes = false;
        for t in 0..34 {
            if c[t] >= 4 {
                continue;
            }
            let mut with = c;
            with[t] += 1;
            let after = shanten(&with, 0);
            prop_assert!(after == before || after == before - 1, "{before} -> {after} with {t}");
            prop_assert_eq!(engine_wins(&standing, t), Some(after == -1), "tile {}", t);
            completes |= after == -1;
        }
        if c.iter().all(|&n| n <= 3) {
            prop_assert_eq!(before == 0, completes);
        }
    }
}
