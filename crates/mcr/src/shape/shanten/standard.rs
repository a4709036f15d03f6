//! The standard shape (sets and a pair): its distance from four table look-ups, two of
//! groups joined and one join, and the kinds whose drawing lowers it from one look-up each.

use super::search;
use super::table::{self, Distances, Entry, Keeping, combine, combine_up_to, missing_with};
use super::useful::useful_kinds;
use crate::tile::{Counts, Tile, TileSet, drawing};

/// A hand's four groups (three suits and the honours) as table entries.
pub(super) struct StandardParts {
    groups: [Entry; 4],
    needed_sets: usize,
    /// The first two groups together, and the last two.
    halves: [Distances; 2],
    /// The tiles missing from the nearest complete shape.
    missing: u8,
    /// The distance of the whole hand (−1 complete).
    pub(super) distance: i8,
}

/// The kinds of group `g` (0–2 the suits, 3 the honours).
fn group_kinds(g: usize) -> std::ops::Range<usize> {
    if g == 3 { 27..34 } else { 9 * g..9 * g + 9 }
}

fn to_distance(missing: u8) -> i8 {
    i8::try_from(missing).unwrap_or(i8::MAX) - 1
}

/// [`combine`] as far as `needed_sets` sets (one at most beside a knitted straight).
fn join(a: Distances, b: Distances, needed_sets: usize) -> Distances {
    if needed_sets <= 1 {
        combine_up_to::<1>(a, b)
    } else {
        combine(a, b)
    }
}

impl StandardParts {
    /// The parts of `counts` with `needed_sets` sets to make; `None` where a group is past
    /// the tables (more than four copies of a kind or 14 tiles).
    pub(super) fn of(counts: &Counts, needed_sets: usize) -> Option<StandardParts> {
        Some(StandardParts::from_groups(
            [
                table::group(counts, 0)?,
                table::group(counts, 1)?,
                table::group(counts, 2)?,
                table::group(counts, 3)?,
            ],
            needed_sets,
        ))
    }

    /// The parts of the four groups' entries.
    pub(super) fn from_groups(groups: [Entry; 4], needed_sets: usize) -> StandardParts {
        let halves = [
            table::pair(&groups[0], &groups[1]),
            table::pair(&groups[2], &groups[3]),
        ];
        let missing = missing_with(halves[0], halves[1], needed_sets);
        StandardParts {
            groups,
            needed_sets,
            halves,
            missing,
            distance: to_distance(missing),
        }
    }

    /// For each group, the other three together.
    fn others(&self) -> [Distances; 4] {
        let (g, n) = (self.groups.map(|e| e.distances), self.needed_sets);
        let [low, high] = self.halves;
        [
            join(g[1], high, n),
            join(g[0], high, n),
            join(low, g[3], n),
            join(low, g[2], n),
        ]
    }

    /// The kinds whose drawing lowers the distance (see [`useful_kinds`]): a draw lowers
    /// it exactly when it lowers its group's part of a nearest split of the sets and the
    /// pair, which the tables list.
    pub(super) fn useful(&self, counts: &Counts) -> TileSet {
        let others = self.others();
        let n = self.needed_sets;
        let mut useful = TileSet::default();
        for (g, (entry, rest)) in self.groups.iter().zip(others).enumerate() {
            let kinds = group_kinds(g);
            let Some(lowering) = entry.lowering else {
                // A group of 14 tiles: its next tile is past the tables.
                let searched = useful_kinds(counts, self.distance, |t| {
                    if kinds.contains(&t.index()) {
                        search::standard_distance(&drawing(counts, t), n)
                    } else {
                        self.distance
                    }
                });
                useful = useful.union(searched);
                continue;
            };
            let mut places = 0u16;
            for m in 0..=n {
                for p in 0..=1 {
                    if entry.distances.get(m, p) + rest.get(n - m, 1 - p) == self.missing {
                        places |= lowering.places(m, p);
                    }
                }
            }
            while places != 0 {
                let place = places.trailing_zeros() as usize;
                places &= places - 1;
                useful.insert(Tile::ALL[kinds.start + place]);
            }
        }
        // A kind held four times completes a ready hand only formally (the tables stop at
        // four copies).
        if self.distance == 0 {
            for t in Tile::ALL {
                if counts[t.index()] >= 4 && fifth_completes(counts, t, n) {
                    useful.insert(t);
                }
            }
        }
        useful
    }

    /// The tiles missing from `needed_sets` sets and no pair.
    fn missing_without_pair(&self) -> u8 {
        let [low, high] = self.halves;
        (0..=self.needed_sets)
            .map(|m| low.get(m, 0) + high.get(self.needed_sets - m, 0))
            .min()
            .unwrap_or(u8::MAX)
    }
}

/// Whether a fifth copy of `tile`, held four times in `counts`, completes `needed_sets` sets
/// and a pair, from the tables: the five copies are a pung and a pair, or a pung and two
/// chows (a pung beside the rest), or a pair and three chows (a pair beside sets of the rest);
/// five chows are too many.
fn fifth_completes(counts: &Counts, tile: Tile, needed_sets: usize) -> bool {
    let i = tile.index();
    let mut rest = *counts;
    rest[i] = 2;
    let with_pung = needed_sets > 0
        && match StandardParts::of(&rest, needed_sets - 1) {
            Some(parts) => parts.missing == 0,
            None => search::standard_distance(&rest, needed_sets - 1) < 0,
        };
    rest[i] = 3;
    with_pung
        || match StandardParts::of(&rest, needed_sets) {
            Some(parts) => parts.missing_without_pair() == 0,
            None => search::standard_distance(&drawing(counts, tile), needed_sets) < 0,
        }
}

/// The kinds of `counts` whose discard leaves a hand at most one tile short of
/// `needed_sets` sets and a pair (distance 0 or less). `None` where a group is past the
/// tables.
///
/// A discard raises the tiles missing by at most one, so from a complete hand every discard
/// leaves it ready, and from a hand one tile short exactly the discards that keep its
/// group's part of some nearest split of the sets and the pair: for a suit the table's
/// keeping places of those splits, for the honours one look-up a kind held.
pub(super) fn ready_after_discard(counts: &Counts, needed_sets: usize) -> Option<TileSet> {
    let suits = [
        table::suit_keeping(counts, 0)?,
        table::suit_keeping(counts, 1)?,
        table::suit_keeping(counts, 2)?,
    ];
    let parts = StandardParts::from_groups(
        [suits[0].0, suits[1].0, suits[2].0, table::group(counts, 3)?],
        needed_sets,
    );
    let mut ready = 0u64;
    match parts.missing {
        0 => {
            for (i, &n) in counts.iter().enumerate() {
                ready |= u64::from(n > 0) << i;
            }
        }
        1 => {
            let others = parts.others();
            let n = needed_sets;
            for (s, ((entry, keeping), rest)) in suits.iter().zip(others).enumerate() {
                let mut places = 0u16;
                for m in 0..=n {
                    for p in 0..=1 {
                        if entry.distances.get(m, p) + rest.get(n - m, 1 - p) == 1 {
                            places |= keeping.places(m, p);
                        }
                    }
                }
                ready |= u64::from(places) << (9 * s);
            }
            ready |= honors_keeping(counts, others[3], n)?;
        }
        // Two or more tiles short: a discard never lowers the distance.
        _ => {}
    }
    Some(TileSet::from_mask(ready))
}

/// The parts of a hand of 3·n + 1 tiles kept for its draws, each of which makes it 3·n + 2
/// tiles: its four groups' entries (the suits' with their keeping places) and the joins of
/// every two and every three of them. A draw changes one group, so the parts of the hand
/// with the draw are that group's look-up and the joins kept here: one look-up and at most
/// three joins a draw instead of four look-ups and six joins.
pub(super) struct DrawParts {
    suits: [(Entry, Keeping); 3],
    honors: Entry,
    /// `pairs[a][b]`: groups `a` and `b` joined (`a ≠ b`).
    pairs: [[Distances; 4]; 4],
    /// `triples[g]`: the three groups other than `g` joined.
    triples: [Distances; 4],
    needed_sets: usize,
}

impl DrawParts {
    /// The parts of `counts`; `None` where a group is past the tables.
    pub(super) fn of(counts: &Counts, needed_sets: usize) -> Option<DrawParts> {
        let suits = [
            table::suit_keeping(counts, 0)?,
            table::suit_keeping(counts, 1)?,
            table::suit_keeping(counts, 2)?,
        ];
        let honors = table::group(counts, 3)?;
        let e = [suits[0].0, suits[1].0, suits[2].0, honors];
        let d = e.map(|e| e.distances);
        let n = needed_sets;
        let mut pairs = [d; 4];
        for a in 0..4 {
            for b in a + 1..4 {
                pairs[a][b] = table::pair(&e[a], &e[b]);
                pairs[b][a] = pairs[a][b];
            }
        }
        let triples = [
            join(d[1], pairs[2][3], n),
            join(d[0], pairs[2][3], n),
            join(d[3], pairs[0][1], n),
            join(d[2], pairs[0][1], n),
        ];
        Some(DrawParts {
            suits,
            honors,
            pairs,
            triples,
            needed_sets,
        })
    }

    /// [`ready_after_discard`] of `with_draw`: the counts of the parts' hand with one more
    /// tile of kind `drawn`. `None` where a group is past the tables.
    pub(super) fn ready_after_discard(&self, with_draw: &Counts, drawn: usize) -> Option<TileSet> {
        let n = self.needed_sets;
        let taking = if drawn >= 27 { 3 } else { drawn / 9 };
        let drawn_group = match taking {
            3 => (table::group(with_draw, 3)?, None),
            s => {
                let (entry, keeping) = table::suit_keeping(with_draw, s)?;
                (entry, Some(keeping))
            }
        };
        let missing = missing_with(drawn_group.0.distances, self.triples[taking], n);
        let mut ready = 0u64;
        match missing {
            0 => {
                for (i, &k) in with_draw.iter().enumerate() {
                    ready |= u64::from(k > 0) << i;
                }
            }
            1 => {
                for g in 0..4 {
                    let ((entry, keeping), rest) = if g == taking {
                        (drawn_group, self.triples[taking])
                    } else {
                        // The two groups neither `g` nor the drawn tile's.
                        let mut others = (0..4).filter(|&o| o != g && o != taking);
                        let (a, b) = (others.next()?, others.next()?);
                        let here = match g {
                            3 => (self.honors, None),
                            s => (self.suits[s].0, Some(self.suits[s].1)),
                        };
                        (here, join(drawn_group.0.distances, self.pairs[a][b], n))
                    };
                    ready |= match keeping {
                        Some(keeping) => {
                            let mut places = 0u16;
                            for m in 0..=n {
                                for p in 0..=1 {
                                    if entry.distances.get(m, p) + rest.get(n - m, 1 - p) == 1 {
                                        places |= keeping.places(m, p);
                                    }
                                }
                            }
                            u64::from(places) << (9 * g)
                        }
                        None => honors_keeping(with_draw, rest, n)?,
                    };
                }
            }
            // Two or more tiles short: a discard never lowers the distance.
            _ => {}
        }
        Some(TileSet::from_mask(ready))
    }
}

/// The honour kinds of `counts` whose discard keeps the tiles missing at most 1, beside the
/// other groups' `rest`: one look-up a kind held (the honours have no keeping places).
fn honors_keeping(counts: &Counts, rest: Distances, needed_sets: usize) -> Option<u64> {
    let mut ready = 0;
    let mut less = *counts;
    for i in group_kinds(3).filter(|&i| counts[i] > 0) {
        less[i] -= 1;
        let entry = table::group(&less, 3)?;
        less[i] += 1;
        if missing_with(entry.distances, rest, needed_sets) <= 1 {
            ready |= 1 << i;
        }
    }
    Some(ready)
}

/// The kinds that complete `counts` (3·n + 1 tiles) into sets and a pair, as a mask over
/// the tile indices, read from the tables: the per-suit wait tables are the distance
/// tables themselves, since one tile completes a group exactly where it lowers a distance of
/// 1 to 0. `None` where a group is past the tables, or where the group that takes the tile
/// holds four copies of a kind (a formal fifth copy, which the tables never count): the
/// caller's completion test answers then.
///
/// Each group's tiles modulo 3 say what it must become: with one group at 1 that group
/// takes the tile and the pair, every other group sets only; with two groups at 2 one takes
/// the tile as sets only and the other keeps the pair.
pub(super) fn waits(counts: &Counts) -> Option<u64> {
    let entries = [
        table::group(counts, 0)?,
        table::group(counts, 1)?,
        table::group(counts, 2)?,
        table::group(counts, 3)?,
    ];
    let tiles: [usize; 4] =
        std::array::from_fn(|g| group_kinds(g).map(|i| usize::from(counts[i])).sum());
    let sets = |g: usize| tiles[g] / 3;
    let (mut ones, mut twos) = (0usize, 0usize);
    for (g, &t) in tiles.iter().enumerate() {
        match t % 3 {
            1 => ones |= 1 << g,
            2 => twos |= 1 << g,
            _ => {}
        }
    }
    let sound = |g: usize, pair: usize| entries[g].distances.get(sets(g), pair) == 0;
    // Every group not in `taking` is sound as sets only.
    let rest_sound = |taking: usize| (0..4).all(|g| taking >> g & 1 == 1 || sound(g, 0));
    // The places of group `g` where one tile completes `m` sets and `p` pairs.
    let completing = |g: usize, m: usize, p: usize| -> Option<u64> {
        let entry = entries[g];
        if entry.distances.get(m, p) != 1 {
            return Some(0);
        }
        if group_kinds(g).any(|i| counts[i] >= 4) {
            return None;
        }
        Some(u64::from(entry.lowering?.places(m, p)) << group_kinds(g).start)
    };
    match (ones.count_ones(), twos.count_ones()) {
        (1, 0) => {
            let g = ones.trailing_zeros() as usize;
            if rest_sound(ones) {
                completing(g, sets(g), 1)
            } else {
                Some(0)
            }
        }
        (0, 2) => {
            if !rest_sound(twos) {
                return Some(0);
            }
            let a = twos.trailing_zeros() as usize;
            let b = (twos & (twos - 1)).trailing_zeros() as usize;
            let mut waits = 0;
            for (taking, keeping) in [(a, b), (b, a)] {
                if sound(keeping, 1) {
                    waits |= completing(taking, sets(taking) + 1, 0)?;
                }
            }
            Some(waits)
        }
        _ => Some(0),
    }
}

/// The distance to `needed_sets` sets and a pair (each count at most five).
pub(super) fn distance(counts: &Counts, needed_sets: usize) -> i8 {
    match StandardParts::of(counts, needed_sets) {
        Some(parts) => parts.distance,
        None => search::standard_distance(counts, needed_sets),
    }
}

/// The distance and the useful kinds of the standard shape.
pub(super) fn distance_and_useful(counts: &Counts, needed_sets: usize) -> (i8, TileSet) {
    if let Some(parts) = StandardParts::of(counts, needed_sets) {
        (parts.distance, parts.useful(counts))
    } else {
        let distance = search::standard_distance(counts, needed_sets);
        let useful = useful_kinds(counts, distance, |t| {
            search::standard_distance(&drawing(counts, t), needed_sets)
        });
        (distance, useful)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::notation::test_counts as counts;

    /// A fifth copy completes the hand as the search says.
    #[test]
    fn fifth_copies_agree_with_the_search() {
        for (hand, sets) in [
            ("1111234567899m", 4),
            ("1111m234p567s99sEE", 4),
            ("1111222333m", 3),
            ("1111234m", 2),
            ("11112m", 1),
            ("1111m", 1),
            ("EEEE", 1),
            ("2222345m678p99s", 4),
            ("1111m", 0),
        ] {
            let c = counts(hand);
            for t in Tile::ALL.into_iter().filter(|t| c[t.index()] == 4) {
                assert_eq!(
                    fifth_completes(&c, t, sets),
                    search::standard_distance(&drawing(&c, t), sets) < 0,
                    "{hand} + {t}"
                );
            }
        }
    }

    #[test]
    fn an_empty_hand_misses_every_tile() {
        let parts = StandardParts::of(&[0; 34], 4).expect("in the tables");
        // Four sets and a pair, nothing held: 14 missing, distance 13.
        assert_eq!(parts.distance, 13);
        // A kind held five times is past the tables.
        let mut five = [0; 34];
        five[0] = 5;
        assert!(StandardParts::of(&five, 4).is_none());
    }
}
