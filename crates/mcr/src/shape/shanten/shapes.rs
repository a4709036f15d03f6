//! The special shapes: seven pairs, thirteen orphans, honours and knitted tiles, and the
//! knitted straight with one set and a pair. Each distance is `|C| − |H ∩ C| − 1` for the
//! nearest complete shape `C`; each comes with its useful kinds.

use super::standard::{self, StandardParts};
use super::table::{self, Entry};
#[cfg(test)]
use super::useful::useful_kinds;
use crate::shape::KNITTED_STRAIGHTS;
use crate::tile::{Counts, TileSet};

/// The tile indices of the thirteen terminals and honours.
const ORPHANS: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

/// The tile indices of the six knitted straights (`KNITTED_STRAIGHTS`, as indices).
pub(super) const KNITTED: [[usize; 9]; 6] = {
    let mut out = [[0; 9]; 6];
    let mut k = 0;
    while k < 6 {
        let mut n = 0;
        while n < 9 {
            out[k][n] = KNITTED_STRAIGHTS[k][n].index();
            n += 1;
        }
        k += 1;
    }
    out
};

fn to_i8(n: usize) -> i8 {
    i8::try_from(n).unwrap_or(i8::MAX)
}

fn total(c: &[u8]) -> usize {
    c.iter().map(|&n| usize::from(n)).sum()
}

/// `|C| − |H ∩ C| − 1` for a shape of `size` tiles sharing `shared` tiles with the hand.
fn distance(size: usize, shared: usize) -> i8 {
    // `shared ≤ size` always; the distance is at least −1.
    to_i8(size.saturating_sub(shared)) - 1
}

/// Seven pairs from the number of pairs held (a kind held four times counts two) and the
/// number of tiles.
fn seven_pairs_of(pairs: usize, tiles: usize) -> i8 {
    let pairs = pairs.min(7);
    // Each missing pair can take one more tile of the hand as its first half.
    distance(14, 2 * pairs + (tiles - 2 * pairs).min(7 - pairs))
}

fn pairs(c: &Counts) -> usize {
    c.iter().map(|&n| usize::from(n / 2)).sum()
}

pub(super) fn seven_pairs(c: &Counts) -> i8 {
    seven_pairs_of(pairs(c), total(c))
}

pub(super) fn seven_pairs_useful(c: &Counts) -> (i8, TileSet) {
    let (p, n) = (pairs(c), total(c));
    let d = seven_pairs_of(p, n);
    // Drawing a kind held an odd number of times makes one more pair: two distances answer
    // for every kind.
    let odd = mask(c, |k| k % 2 == 1);
    let mut useful = 0;
    // (Asked only with an odd count held, which bounds the pairs by the tiles.)
    if odd != 0 && seven_pairs_of(p + 1, n + 1) < d {
        useful |= odd;
    }
    if seven_pairs_of(p, n + 1) < d {
        useful |= !odd;
    }
    (d, held_four_rule(c, d, useful))
}

/// The kinds of `c` whose count passes `keep`, as a mask over the tile indices.
fn mask(c: &Counts, keep: impl Fn(u8) -> bool) -> u64 {
    c.iter()
        .enumerate()
        .fold(0, |m, (i, &n)| m | u64::from(keep(n)) << i)
}

/// The useful kinds of a mask, less the kinds held four times unless the shape is ready
/// (as `useful_kinds`: a fifth copy is only a formal wait).
fn held_four_rule(c: &Counts, distance: i8, useful: u64) -> TileSet {
    let fours = if distance == 0 {
        0
    } else {
        mask(c, |n| n >= 4)
    };
    TileSet::from_mask(useful & !fours)
}

/// The thirteen orphans as a mask over the tile indices.
const ORPHAN_MASK: u64 = {
    let mut m = 0;
    let mut k = 0;
    while k < ORPHANS.len() {
        m |= 1 << ORPHANS[k];
        k += 1;
    }
    m
};

/// The honours as a mask over the tile indices.
const HONOR_MASK: u64 = ((1 << 34) - 1) & !((1 << 27) - 1);

/// Each knitted straight as a mask over the tile indices.
const KNITTED_MASKS: [u64; 6] = {
    let mut out = [0; 6];
    let mut k = 0;
    while k < 6 {
        let mut n = 0;
        while n < 9 {
            out[k] |= 1 << KNITTED[k][n];
            n += 1;
        }
        k += 1;
    }
    out
};

/// The seven-pairs wait of thirteen tiles, as a mask: the one kind held an odd number of
/// times, when there is exactly one.
pub(super) fn seven_pairs_wait(c: &Counts) -> u64 {
    if total(c) != 13 {
        return 0;
    }
    let odd = c
        .iter()
        .enumerate()
        .fold(0u64, |odd, (i, &n)| odd | u64::from(n & 1) << i);
    if odd.is_power_of_two() { odd } else { 0 }
}

/// Thirteen orphans from the orphan kinds held and whether one of them is doubled.
fn thirteen_orphans_of(kinds: usize, doubled: bool) -> i8 {
    distance(14, kinds + usize::from(doubled))
}

fn orphans_held(c: &Counts) -> (usize, bool) {
    (
        ORPHANS.iter().filter(|&&i| c[i] > 0).count(),
        ORPHANS.iter().any(|&i| c[i] >= 2),
    )
}

pub(super) fn thirteen_orphans(c: &Counts) -> i8 {
    let (kinds, doubled) = orphans_held(c);
    thirteen_orphans_of(kinds, doubled)
}

pub(super) fn thirteen_orphans_useful(c: &Counts) -> (i8, TileSet) {
    let (kinds, doubled) = orphans_held(c);
    let d = thirteen_orphans_of(kinds, doubled);
    // An orphan kind not held adds a kind; one held doubles it: two distances answer.
    let held = mask(c, |n| n > 0);
    let mut useful = 0;
    if thirteen_orphans_of(kinds + 1, doubled) < d {
        useful |= ORPHAN_MASK & !held;
    }
    if thirteen_orphans_of(kinds, true) < d {
        useful |= ORPHAN_MASK & held;
    }
    (d, held_four_rule(c, d, useful))
}

/// Honours and knitted tiles from the honour kinds held and the most kinds of one knitted
/// straight held.
fn honors_and_knitted_of(honors: usize, knitted: usize) -> i8 {
    distance(14, (honors + knitted).min(14))
}

/// The kinds of each knitted straight held.
fn knitted_held(c: &Counts) -> [usize; 6] {
    KNITTED.map(|k| k.iter().filter(|&&i| c[i] > 0).count())
}

fn honor_kinds(c: &Counts) -> usize {
    c[27..34].iter().filter(|&&n| n > 0).count()
}

pub(super) fn honors_and_knitted(c: &Counts) -> i8 {
    let best = knitted_held(c).into_iter().max().unwrap_or(0);
    honors_and_knitted_of(honor_kinds(c), best)
}

pub(super) fn honors_and_knitted_useful(c: &Counts) -> (i8, TileSet) {
    let held = knitted_held(c);
    let honors = honor_kinds(c);
    let best = held.into_iter().max().unwrap_or(0);
    let d = honors_and_knitted_of(honors, best);
    // Only a kind not held helps: an honour adds a kind, a numbered tile one to the
    // straights that hold it, which raises the best only for a straight at the best.
    let held_mask = mask(c, |n| n > 0);
    let mut useful = 0;
    if honors_and_knitted_of(honors + 1, best) < d {
        useful |= HONOR_MASK & !held_mask;
    }
    if honors_and_knitted_of(honors, best + 1) < d {
        for (k, n) in KNITTED_MASKS.into_iter().zip(held) {
            if n == best {
                useful |= k & !held_mask;
            }
        }
    }
    (d, held_four_rule(c, d, useful))
}

/// The kinds held in `c` whose discard leaves a shape at distance 0 or less, given the
/// shape's distance after each discard (asked only about kinds held).
fn ready_after_discard(c: &Counts, mut after_discard: impl FnMut(usize) -> i8) -> u64 {
    let mut ready = 0;
    for (i, &n) in c.iter().enumerate() {
        if n > 0 && after_discard(i) <= 0 {
            ready |= 1 << i;
        }
    }
    ready
}

/// The kinds whose discard leaves seven pairs at distance 0 or less, as a mask over the
/// tile indices: a discard from an even count breaks a pair, from an odd count it does
/// not, so two distances answer for every kind (each asked only where such a count is held:
/// the counts of a hand bound them).
pub(super) fn seven_pairs_ready_after_discard(c: &Counts) -> u64 {
    let (p, n) = (pairs(c), total(c));
    if n == 0 || seven_pairs_of(p, n) > 0 {
        // A discard never lowers the distance.
        return 0;
    }
    let odd = c.iter().any(|&k| k % 2 == 1);
    let from_odd = if odd {
        seven_pairs_of(p, n - 1)
    } else {
        i8::MAX
    };
    let even = c.iter().any(|&k| k > 0 && k % 2 == 0);
    let from_even = if even {
        seven_pairs_of(p - 1, n - 1)
    } else {
        i8::MAX
    };
    ready_after_discard(c, |i| if c[i] % 2 == 1 { from_odd } else { from_even })
}

/// The kinds whose discard leaves thirteen orphans at distance 0 or less, as a mask: a
/// discard loses an orphan kind held once, or the doubling when it was the only pair.
pub(super) fn thirteen_orphans_ready_after_discard(c: &Counts) -> u64 {
    let (kinds, doubled) = orphans_held(c);
    if thirteen_orphans_of(kinds, doubled) > 0 {
        return 0;
    }
    let doubles = ORPHANS.iter().filter(|&&i| c[i] >= 2).count();
    ready_after_discard(c, |i| match (ORPHANS.contains(&i), c[i]) {
        (true, 1) => thirteen_orphans_of(kinds - 1, doubled),
        (true, 2) => thirteen_orphans_of(kinds, doubles > 1),
        _ => thirteen_orphans_of(kinds, doubled),
    })
}

/// The kinds whose discard leaves honours and knitted tiles at distance 0 or less, as a
/// mask: only a kind held once counts, an honour kind or a kind of the knitted straights
/// that hold it.
pub(super) fn honors_and_knitted_ready_after_discard(c: &Counts) -> u64 {
    let held = knitted_held(c);
    let honors = honor_kinds(c);
    let best = held.into_iter().max().unwrap_or(0);
    if honors_and_knitted_of(honors, best) > 0 {
        return 0;
    }
    ready_after_discard(c, |i| {
        if c[i] >= 2 {
            honors_and_knitted_of(honors, best)
        } else if i >= 27 {
            honors_and_knitted_of(honors - 1, best)
        } else {
            let without = KNITTED
                .iter()
                .zip(held)
                .map(|(k, n)| n - usize::from(k.contains(&i)))
                .max()
                .unwrap_or(0);
            honors_and_knitted_of(honors, without)
        }
    })
}

/// One knitted straight's part of a hand: the knitted kinds held, and the rest.
struct Knitted {
    pattern: &'static [usize; 9],
    present: usize,
    rest: Counts,
}

impl Knitted {
    fn of(c: &Counts, pattern: &'static [usize; 9]) -> Knitted {
        let mut rest = *c;
        let mut present = 0;
        for &i in pattern {
            if rest[i] > 0 {
                rest[i] -= 1;
                present += 1;
            }
        }
        Knitted {
            pattern,
            present,
            rest,
        }
    }

    /// The knitted tiles are nine distinct kinds: the shared tiles split into the knitted
    /// part and the rest.
    fn distance(&self, rest_distance: i8) -> i8 {
        to_i8(9 - self.present) + rest_distance
    }
}

/// The rest beside each knitted straight as table entries, looked up once each: a suit's
/// rest depends only on which third of its ranks (147, 258 or 369) the straight takes from
/// it, so nine suit look-ups serve the six straights.
struct KnittedRests {
    honors: Option<Entry>,
    suits: [[Lookup; 3]; 3],
    needed_sets: usize,
}

/// A table look-up made once, when first needed.
#[derive(Clone, Copy)]
enum Lookup {
    Pending,
    /// The entry, `None` past the tables.
    Done(Option<Entry>),
}

impl KnittedRests {
    fn new(c: &Counts, needed_sets: usize) -> KnittedRests {
        KnittedRests {
            honors: table::group(c, 3),
            suits: [[Lookup::Pending; 3]; 3],
            needed_sets,
        }
    }

    /// The standard parts of the rest beside `part`; `None` past the tables.
    fn rest(&mut self, part: &Knitted) -> Option<StandardParts> {
        let mut entries = [self.honors; 4];
        for (suit, entry) in entries[..3].iter_mut().enumerate() {
            // The third of the suit's ranks the straight takes (0 for 147, 1 for 258, 2 for 369).
            let third = part
                .pattern
                .iter()
                .find(|&&i| i / 9 == suit)
                .map_or(0, |&i| i % 3);
            let slot = &mut self.suits[suit][third];
            *entry = match *slot {
                Lookup::Done(found) => found,
                Lookup::Pending => {
                    let found = table::group(&part.rest, suit);
                    *slot = Lookup::Done(found);
                    found
                }
            };
        }
        match entries {
            [Some(a), Some(b), Some(c), Some(h)] => {
                Some(StandardParts::from_groups([a, b, c, h], self.needed_sets))
            }
            _ => None,
        }
    }

    /// The distance of the knitted straight `part` and its rest.
    fn distance(&mut self, part: &Knitted) -> i8 {
        let rest = self.rest(part).map_or_else(
            || standard::distance(&part.rest, self.needed_sets),
            |r| r.distance,
        );
        part.distance(rest)
    }
}

/// The six knitted straights, those with the most kinds held first, each with the least
/// its distance can be: the knitted kinds missing, less the one a complete rest would save.
fn nearest_first(c: &Counts) -> [(usize, i8); 6] {
    let held = knitted_held(c);
    let mut order = [0, 1, 2, 3, 4, 5].map(|k| (k, to_i8(9 - held[k]) - 1));
    order.sort_unstable_by_key(|&(k, at_least)| (at_least, k));
    order
}

/// The distance of each knitted straight that can be the nearest (`None` for the others,
/// whose least distance is past the nearest).
fn knitted_distances(c: &Counts, rests: &mut KnittedRests) -> [Option<i8>; 6] {
    let mut distances = [None; 6];
    let mut best = i8::MAX;
    for (k, at_least) in nearest_first(c) {
        if at_least > best {
            break;
        }
        let d = rests.distance(&Knitted::of(c, &KNITTED[k]));
        best = best.min(d);
        distances[k] = Some(d);
    }
    distances
}

pub(super) fn knitted_straight(c: &Counts, needed_sets: usize) -> i8 {
    let mut rests = KnittedRests::new(c, needed_sets);
    knitted_distances(c, &mut rests)
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(i8::MAX)
}

/// The kinds held in `c` whose discard leaves the knitted straight at distance 0 or less,
/// as a mask, leaving out the kinds of `known` (already found ready by another shape).
///
/// A discard never lowers a straight's distance, so only the straights at distance 0 or
/// less are asked, each from its parts: after a complete hand every discard is ready; a
/// kind of the straight held once leaves it one knitted tile short; any other discard
/// leaves the rest one tile fewer, whose distance is one look-up. One straight's rest a
/// discard, not the distance of the six straights.
pub(super) fn knitted_straight_ready_after_discard(
    c: &Counts,
    needed_sets: usize,
    known: u64,
) -> u64 {
    let mut rests = KnittedRests::new(c, needed_sets);
    let held = mask(c, |n| n > 0);
    let mut ready = 0;
    for (k, at_least) in nearest_first(c) {
        if at_least > 0 {
            break;
        }
        let part = Knitted::of(c, &KNITTED[k]);
        let d = rests.distance(&part);
        if d > 0 {
            continue;
        }
        let once = KNITTED_MASKS[k] & mask(c, |n| n == 1);
        let mut ask = held & !known & !ready;
        while ask != 0 {
            let i = ask.trailing_zeros() as usize;
            ask &= ask - 1;
            let after = if d < 0 {
                // One tile fewer than complete is at most one tile further.
                0
            } else if once >> i & 1 != 0 {
                d + 1
            } else {
                let mut rest = part.rest;
                rest[i] -= 1;
                part.distance(standard::distance(&rest, needed_sets))
            };
            if after <= 0 {
                ready |= 1 << i;
            }
        }
    }
    ready
}

/// A bound under the knitted straight's distance: the knitted kinds missing, less the one
/// a complete rest would save.
pub(super) fn knitted_straight_at_least(c: &Counts) -> i8 {
    let most = knitted_held(c).into_iter().max().unwrap_or(0);
    to_i8(9 - most) - 1
}

pub(super) fn knitted_straight_useful(c: &Counts, needed_sets: usize) -> (i8, TileSet) {
    let mut rests = KnittedRests::new(c, needed_sets);
    let mut d = i8::MAX;
    // The useful kinds of the straights at `d` so far: the knitted kinds missing, and the
    // rests' (the held-four rule applied once `d` is known). Each straight's rest is looked
    // up once, for its distance and its useful kinds both.
    let (mut knitted, mut rest_useful) = (TileSet::default(), TileSet::default());
    for (k, at_least) in nearest_first(c) {
        if at_least > d {
            break;
        }
        let part = Knitted::of(c, &KNITTED[k]);
        let rest = rests.rest(&part);
        let dk = part.distance(rest.as_ref().map_or_else(
            || standard::distance(&part.rest, needed_sets),
            |r| r.distance,
        ));
        if dk > d {
            continue;
        }
        if dk < d {
            // A draw lowers the distance by at most one, so only the nearest straights can
            // lower it.
            d = dk;
            (knitted, rest_useful) = (TileSet::default(), TileSet::default());
        }
        // A knitted kind not held completes one more knitted tile.
        knitted = knitted.union(TileSet::from_mask(KNITTED_MASKS[k] & !mask(c, |n| n > 0)));
        // Any other draw joins the rest.
        rest_useful = rest_useful.union(match rest {
            Some(r) => r.useful(&part.rest),
            None => standard::distance_and_useful(&part.rest, needed_sets).1,
        });
    }
    // The held-four rule applies to the whole hand, not to the rest alone.
    let rest_useful = if d == 0 || !c.contains(&4) {
        rest_useful
    } else {
        rest_useful.iter().filter(|t| c[t.index()] < 4).collect()
    };
    (d, knitted.union(rest_useful))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The useful kinds of each special shape, the long way: the distance after drawing
    /// each kind ([`useful_kinds`]).
    fn useful_the_long_way(c: &Counts) -> [(i8, TileSet); 3] {
        let by_kinds = |distance: fn(&Counts) -> i8| {
            let d = distance(c);
            (
                d,
                useful_kinds(c, d, |t| {
                    let mut more = *c;
                    more[t.index()] += 1;
                    distance(&more)
                }),
            )
        };
        [
            by_kinds(seven_pairs),
            by_kinds(thirteen_orphans),
            by_kinds(honors_and_knitted),
        ]
    }

    /// A repeatable run of pseudo-random numbers (xorshift from `seed`), each below its `n`.
    fn below(mut seed: u64) -> impl FnMut(u64) -> usize {
        move |n| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            usize::try_from(seed % n).unwrap_or(0)
        }
    }

    /// The kinds whose discard leaves `c` ready by `distance` (a ready `c` only), as a mask.
    fn ready_discards(c: &Counts, distance: impl Fn(&Counts) -> i8) -> u64 {
        (0..34)
            .filter(|&i| c[i] > 0)
            .filter(|&i| {
                let mut left = *c;
                left[i] -= 1;
                distance(c) <= 0 && distance(&left) <= 0
            })
            .fold(0u64, |m, i| m | 1 << i)
    }

    /// The masks of useful kinds agree with the distance after each draw.
    #[test]
    fn useful_masks_agree_with_the_distances() {
        let mut next = below(0x9E37_79B9_7F4A_7C15_u64);
        for round in 0..60_000 {
            let mut c = [0u8; 34];
            let kinds: Vec<usize> = match round % 3 {
                0 => (0..7).map(|_| next(34)).collect(),
                1 => ORPHANS.iter().copied().chain([next(34)]).collect(),
                _ => KNITTED[next(6)].iter().copied().chain(27..34).collect(),
            };
            for _ in 0..13 {
                let mut i = kinds[next(kinds.len() as u64)];
                while c[i] == 4 {
                    i = next(34);
                }
                c[i] += 1;
            }
            let got = [
                seven_pairs_useful(&c),
                thirteen_orphans_useful(&c),
                honors_and_knitted_useful(&c),
            ];
            assert_eq!(got, useful_the_long_way(&c), "{c:?}");
        }
    }

    type Distance = fn(&Counts) -> i8;
    type Mask = fn(&Counts) -> u64;

    /// The discard masks agree with each shape's distance after each discard.
    #[test]
    fn ready_after_discard_agrees_with_the_distances() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            usize::try_from(seed % n).unwrap_or(0)
        };
        let shapes: [(Distance, Mask); 3] = [
            (seven_pairs, seven_pairs_ready_after_discard),
            (thirteen_orphans, thirteen_orphans_ready_after_discard),
            (honors_and_knitted, honors_and_knitted_ready_after_discard),
        ];
        let mut ready = 0;
        for round in 0..60_000 {
            let mut c = [0u8; 34];
            // Fourteen tiles, often from few kinds so that the shapes come near.
            let kinds: Vec<usize> = match round % 3 {
                0 => (0..8).map(|_| next(34)).collect(),
                1 => ORPHANS.iter().copied().chain([next(34)]).collect(),
                _ => KNITTED[next(6)].iter().copied().chain(27..34).collect(),
            };
            // Fourteen draws, a kind held four times passing its turn to any kind.
            for _ in 0..14 {
                let mut i = kinds[next(kinds.len() as u64)];
                while c[i] == 4 {
                    i = next(34);
                }
                c[i] += 1;
            }
            for (distance, mask) in shapes {
                let expected = ready_discards(&c, distance);
                assert_eq!(mask(&c), expected, "{c:?}");
                ready += usize::from(expected != 0);
            }
        }
        assert!(ready > 1000, "{ready}");
    }

    /// The knitted straight's discard mask agrees with its distance after each discard.
    #[test]
    fn knitted_straight_ready_after_discard_agrees_with_the_distances() {
        let mut next = below(0x5851_f42d_4c95_7f2d_u64);
        let mut ready = 0;
        for round in 0..40_000 {
            let needed_sets = round % 2;
            let mut c = [0u8; 34];
            // A knitted straight less a kind or two, and the rest from a few kinds near it.
            let straight = KNITTED[next(6)];
            for &i in &straight {
                c[i] = 1;
            }
            for _ in 0..next(3) {
                c[straight[next(9)]] = 0;
            }
            let near: Vec<usize> = (0..4).map(|_| next(34)).collect();
            while total(&c) < 11 + 3 * needed_sets {
                let i = near[next(near.len() as u64)];
                if c[i] < 4 {
                    c[i] += 1;
                } else {
                    c[next(34)] += 1;
                }
            }
            if c.iter().any(|&n| n > 4) {
                continue;
            }
            let distance = |c: &Counts| knitted_straight(c, needed_sets);
            let expected = ready_discards(&c, distance);
            assert_eq!(
                knitted_straight_ready_after_discard(&c, needed_sets, 0),
                expected,
                "{c:?}, {needed_sets} sets"
            );
            // Kinds already known are left out.
            let known = 1u64 << next(34);
            assert_eq!(
                knitted_straight_ready_after_discard(&c, needed_sets, known),
                expected & !known
            );
            ready += usize::from(expected != 0);
        }
        assert!(ready > 1000, "{ready}");
    }

    #[test]
    fn knitted_straights_are_the_six_distinct_ones() {
        let mut seen = std::collections::BTreeSet::new();
        for k in KNITTED {
            let mut sorted = k;
            sorted.sort_unstable();
            assert!(seen.insert(sorted));
            let ranks: std::collections::BTreeSet<_> = k.iter().map(|i| i % 9).collect();
            let suits: std::collections::BTreeSet<_> = k.iter().map(|i| i / 9).collect();
            assert_eq!((ranks.len(), suits.len()), (9, 3));
        }
    }
}
