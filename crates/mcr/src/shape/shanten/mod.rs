//! Distance to ready (向听数) over every winning shape.
//!
//! The distance of a group of concealed tiles `H`, given how many melds are declared, is
//!
//! > min over the complete shapes `C` the concealed part could become, of `|C| − |H ∩ C|`, minus one,
//!
//! where `C` has `14 − 3 × melds` tiles and `H ∩ C` is the multiset intersection: the
//! number of tiles still missing from the nearest complete shape, less the one that wins.
//! For the usual sizes this is the familiar number:
//!
//! | tiles | −1 | 0 | 1 | k |
//! |---|---|---|---|---|
//! | 14 − 3·melds (after drawing) | complete | one exchange from complete | two | k + 1 |
//! | 13 − 3·melds (waiting) | — | ready (听牌) | one exchange from ready | k exchanges |
//!
//! The shapes are those of docs/rules/winning-shapes.md: four sets and a pair (with the declared melds as
//! sets); with no declared meld also seven pairs (four of a kind counts as two pairs),
//! thirteen orphans and honours-and-knitted (全不靠); with at most one declared meld the
//! knitted straight (组合龙) with one more set and a pair.
//!
//! Copies are not limited to four in the shape being completed: a hand waiting on a kind
//! whose four copies it holds is still ready, as every ruleset's formal waits count it.
//! Counts above four in the input are read as four (no valid hand holds a fifth copy).
//!
//! The standard shape's distance comes from per-group tables built once ([`table`]); the
//! search over sets and partial sets (`search`) is kept as their test oracle and for
//! counts the tables do not cover. [`useful_by_shape`] adds each shape's useful kinds: those
//! whose drawing lowers its distance.
//!
//! ```
//! use mcr::notation::parse_tiles;
//! use mcr::shape::shanten::shanten;
//! let mut counts = [0u8; 34];
//! for t in parse_tiles("19m19p19sESWNCFP").unwrap() {
//!     counts[t.index()] += 1;
//! }
//! assert_eq!(shanten(&counts, 0), 0); // thirteen orphans, waiting on any of the thirteen
//! ```

mod search;
mod shapes;
mod standard;
pub mod table;
mod useful;

use crate::tile::{Counts, Tile, TileSet};

/// The most sets a shape needs besides the declared melds.
const MAX_SETS: usize = 4;

/// The distance of each shape; `None` where the declared melds rule the shape out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShantenByShape {
    /// Four sets and a pair (the declared melds count as sets).
    pub standard: i8,
    /// 七对 (no declared meld).
    pub seven_pairs: Option<i8>,
    /// 十三幺 (no declared meld).
    pub thirteen_orphans: Option<i8>,
    /// 全不靠 / 七星不靠 (no declared meld).
    pub honors_and_knitted: Option<i8>,
    /// 组合龙 with one set and a pair (at most one declared meld).
    pub knitted_straight: Option<i8>,
}

impl ShantenByShape {
    /// The smallest distance over all shapes.
    pub fn best(&self) -> i8 {
        [
            self.seven_pairs,
            self.thirteen_orphans,
            self.honors_and_knitted,
            self.knitted_straight,
        ]
        .into_iter()
        .flatten()
        .fold(self.standard, i8::min)
    }
}

/// A shape's distance and the kinds whose drawing lowers it. A kind held four times is only
/// a formal wait: it is listed where it completes a ready hand (that wait can never be won),
/// never as a step towards ready.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShapeUseful {
    /// The distance (−1 complete, 0 ready).
    pub shanten: i8,
    /// The useful kinds.
    pub useful: TileSet,
}

/// Each shape's distance and useful kinds; `None` where the declared melds rule it out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UsefulByShape {
    /// Four sets and a pair.
    pub standard: ShapeUseful,
    /// 七对.
    pub seven_pairs: Option<ShapeUseful>,
    /// 十三幺.
    pub thirteen_orphans: Option<ShapeUseful>,
    /// 全不靠 / 七星不靠.
    pub honors_and_knitted: Option<ShapeUseful>,
    /// 组合龙 with one set and a pair.
    pub knitted_straight: Option<ShapeUseful>,
}

impl UsefulByShape {
    /// The five shapes in the order above.
    pub fn shapes(&self) -> [Option<ShapeUseful>; 5] {
        [
            Some(self.standard),
            self.seven_pairs,
            self.thirteen_orphans,
            self.honors_and_knitted,
            self.knitted_straight,
        ]
    }
}

/// The distance to ready over every shape (−1 complete, 0 ready, …) of the concealed tiles
/// `concealed` next to `declared_melds` declared melds (kongs included).
pub fn shanten(concealed: &Counts, declared_melds: usize) -> i8 {
    let c = clamp(concealed);
    let mut best = standard::distance(&c, needed_sets(declared_melds));
    if declared_melds == 0 {
        best = best
            .min(shapes::seven_pairs(&c))
            .min(shapes::thirteen_orphans(&c))
            .min(shapes::honors_and_knitted(&c));
    }
    // The knitted straight is looked at only where it could be nearer.
    if declared_melds <= 1 && shapes::knitted_straight_at_least(&c) < best {
        best = best.min(shapes::knitted_straight(&c, 1 - declared_melds));
    }
    best
}

/// The kinds of `concealed` (one tile more than a waiting hand beside `declared_melds`
/// declared melds) whose discard leaves a ready hand: [`shanten`] of the tiles left is 0.
///
/// A discard never lowers a shape's distance, so only the shapes already at distance 0 or
/// less are asked about the discards; the standard shape answers from one table look-up a
/// suit (the keeping places) and one an honour kind held, seven pairs, thirteen orphans and
/// honours-and-knitted from their counts in one pass, the knitted straight from the parts of
/// its straights at distance 0 or less.
pub fn ready_after_discard(concealed: &Counts, declared_melds: usize) -> TileSet {
    let c = clamp(concealed);
    let standard = standard::ready_after_discard(&c, needed_sets(declared_melds));
    ready_after_discard_with(&c, declared_melds, standard)
}

/// [`ready_after_discard`] of the clamped `c`, given the standard shape's answer from the
/// tables (`None`: past the tables, asked here by search).
fn ready_after_discard_with(
    c: &Counts,
    declared_melds: usize,
    standard: Option<TileSet>,
) -> TileSet {
    let sets = needed_sets(declared_melds);
    let held = || Tile::ALL.into_iter().filter(|t| c[t.index()] > 0);
    let left = |t: Tile| {
        let mut left = *c;
        left[t.index()] -= 1;
        left
    };
    let mut ready = standard.unwrap_or_else(|| {
        held()
            .filter(|&t| standard::distance(&left(t), sets) <= 0)
            .collect()
    });
    if declared_melds == 0 {
        ready = ready.union(TileSet::from_mask(
            shapes::seven_pairs_ready_after_discard(c)
                | shapes::thirteen_orphans_ready_after_discard(c)
                | shapes::honors_and_knitted_ready_after_discard(c),
        ));
    }
    if declared_melds <= 1 && shapes::knitted_straight_at_least(c) <= 0 {
        ready = ready.union(TileSet::from_mask(
            shapes::knitted_straight_ready_after_discard(c, 1 - declared_melds, ready.mask()),
        ));
    }
    ready
}

/// A hand of 13 − 3·melds tiles prepared for its draws: [`Draws::ready_after_discard`]
/// answers [`ready_after_discard`] of the hand with one more tile from the parts of the
/// hand kept here (the discard table asks it of every useful draw of a row).
pub(crate) struct Draws {
    counts: Counts,
    declared_melds: usize,
    standard: Option<standard::DrawParts>,
}

impl Draws {
    /// The parts of `concealed` beside `declared_melds` declared melds.
    pub fn new(concealed: &Counts, declared_melds: usize) -> Draws {
        let counts = clamp(concealed);
        Draws {
            counts,
            declared_melds,
            standard: standard::DrawParts::of(&counts, needed_sets(declared_melds)),
        }
    }

    /// The kinds whose discard leaves the hand with `drawn` ready (see
    /// [`ready_after_discard`]).
    pub fn ready_after_discard(&self, drawn: Tile) -> TileSet {
        let mut with_draw = self.counts;
        with_draw[drawn.index()] = (with_draw[drawn.index()] + 1).min(4);
        let standard = match &self.standard {
            Some(parts) => parts.ready_after_discard(&with_draw, drawn.index()),
            None => standard::ready_after_discard(&with_draw, needed_sets(self.declared_melds)),
        };
        ready_after_discard_with(&with_draw, self.declared_melds, standard)
    }
}

/// The waits of a ready hand (`concealed`, 13 − 3 × `declared_melds` tiles at distance 0
/// in some shape): the kinds that complete it into any shape, a formal fifth copy included,
/// which are the useful kinds of its shapes at distance 0 ([`useful_by_shape`], the oracle
/// of the tests). The standard shape answers from the distance tables (`standard::waits`,
/// the completion test `wait::waits` for a formal fifth copy), seven pairs from the odd
/// counts; the other shapes are asked only where their cheap bound allows distance 0.
pub(crate) fn ready_waits(concealed: &Counts, declared_melds: usize) -> TileSet {
    let c = clamp(concealed);
    let standard = standard::waits(&c).unwrap_or_else(|| super::wait::waits(&c, &c, true));
    let mut waits = TileSet::from_mask(standard | shapes::seven_pairs_wait(&c));
    let mut add = |(distance, useful): (i8, TileSet)| {
        if distance == 0 {
            waits = waits.union(useful);
        }
    };
    if declared_melds == 0 {
        if shapes::thirteen_orphans(&c) == 0 {
            add(shapes::thirteen_orphans_useful(&c));
        }
        if shapes::honors_and_knitted(&c) == 0 {
            add(shapes::honors_and_knitted_useful(&c));
        }
    }
    if declared_melds <= 1 && shapes::knitted_straight_at_least(&c) <= 0 {
        add(shapes::knitted_straight_useful(&c, 1 - declared_melds));
    }
    waits
}

/// The distance of each shape separately.
pub fn shanten_by_shape(concealed: &Counts, declared_melds: usize) -> ShantenByShape {
    let c = clamp(concealed);
    let no_melds = declared_melds == 0;
    ShantenByShape {
        standard: standard::distance(&c, needed_sets(declared_melds)),
        seven_pairs: no_melds.then(|| shapes::seven_pairs(&c)),
        thirteen_orphans: no_melds.then(|| shapes::thirteen_orphans(&c)),
        honors_and_knitted: no_melds.then(|| shapes::honors_and_knitted(&c)),
        knitted_straight: (declared_melds <= 1)
            .then(|| shapes::knitted_straight(&c, 1 - declared_melds)),
    }
}

/// Each shape's distance and useful kinds (see [`ShapeUseful`]).
pub fn useful_by_shape(concealed: &Counts, declared_melds: usize) -> UsefulByShape {
    let c = clamp(concealed);
    let no_melds = declared_melds == 0;
    let shape = |(shanten, useful)| ShapeUseful { shanten, useful };
    UsefulByShape {
        standard: shape(standard::distance_and_useful(
            &c,
            needed_sets(declared_melds),
        )),
        seven_pairs: no_melds.then(|| shape(shapes::seven_pairs_useful(&c))),
        thirteen_orphans: no_melds.then(|| shape(shapes::thirteen_orphans_useful(&c))),
        honors_and_knitted: no_melds.then(|| shape(shapes::honors_and_knitted_useful(&c))),
        knitted_straight: (declared_melds <= 1)
            .then(|| shape(shapes::knitted_straight_useful(&c, 1 - declared_melds))),
    }
}

/// The distance to four sets and a pair (the declared melds counting as sets).
pub fn standard_shanten(concealed: &Counts, declared_melds: usize) -> i8 {
    standard::distance(&clamp(concealed), needed_sets(declared_melds))
}

/// The distance to seven pairs (a kind held four times counts as two pairs).
pub fn seven_pairs_shanten(concealed: &Counts) -> i8 {
    shapes::seven_pairs(&clamp(concealed))
}

/// The distance to thirteen orphans.
pub fn thirteen_orphans_shanten(concealed: &Counts) -> i8 {
    shapes::thirteen_orphans(&clamp(concealed))
}

/// The distance to honours and knitted tiles (全不靠, 七星不靠).
pub fn honors_and_knitted_shanten(concealed: &Counts) -> i8 {
    shapes::honors_and_knitted(&clamp(concealed))
}

/// The distance to a knitted straight with one set and a pair; `None` with more than one
/// declared meld.
pub fn knitted_straight_shanten(concealed: &Counts, declared_melds: usize) -> Option<i8> {
    (declared_melds <= 1).then(|| shapes::knitted_straight(&clamp(concealed), 1 - declared_melds))
}

/// The standard distance by search, without the tables (the oracle of the tables' tests).
pub fn standard_shanten_by_search(concealed: &Counts, declared_melds: usize) -> i8 {
    search::standard_distance(&clamp(concealed), needed_sets(declared_melds))
}

fn needed_sets(declared_melds: usize) -> usize {
    MAX_SETS.saturating_sub(declared_melds)
}

fn clamp(c: &Counts) -> Counts {
    c.map(|n| n.min(4))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{KNITTED_STRAIGHTS, is_orphan};

    /// The union of the useful kinds of the shapes at distance 0: what [`ready_waits`]
    /// answers, the long way.
    fn useful_at_distance_0(c: &Counts, melds: usize) -> TileSet {
        useful_by_shape(c, melds)
            .shapes()
            .into_iter()
            .flatten()
            .filter(|s| s.shanten == 0)
            .fold(TileSet::default(), |w, s| w.union(s.useful))
    }

    /// A complete hand of `shape` (0 four sets and a pair with 0 to 4 declared melds, 1 seven
    /// pairs, 2 thirteen orphans, 3 honours and knitted, 4 the knitted straight with 0 or 1
    /// declared meld), and its declared melds; `next(n)` draws below `n`.
    fn complete_hand(shape: usize, next: &mut impl FnMut(usize) -> usize) -> (Counts, usize) {
        let mut c = [0u8; 34];
        let mut melds = 0;
        let span = 9 + next(26);
        // Adds a tile kind if a copy is left.
        let put = |c: &mut Counts, i: usize, n: u8| {
            let fits = c[i] + n <= 4;
            if fits {
                c[i] += n;
            }
            fits
        };
        match shape {
            0 => {
                melds = next(5);
                let mut placed = 0;
                while placed < 4 - melds {
                    let i = next(span);
                    let chow = i < 27 && i % 9 <= 6 && next(2) == 0;
                    if chow {
                        if (i..i + 3).all(|k| c[k] < 4) {
                            (i..i + 3).for_each(|k| c[k] += 1);
                            placed += 1;
                        }
                    } else if put(&mut c, i, 3) {
                        placed += 1;
                    }
                }
                while !put(&mut c, next(span), 2) {}
            }
            1 => {
                let mut pairs = 0;
                while pairs < 7 {
                    if put(&mut c, next(span), 2) {
                        pairs += 1;
                    }
                }
            }
            2 => {
                let orphans: Vec<usize> = (0..34).filter(|&i| is_orphan(i)).collect();
                for &i in &orphans {
                    c[i] = 1;
                }
                c[orphans[next(orphans.len())]] += 1;
            }
            3 => {
                let knitted = KNITTED_STRAIGHTS[next(6)];
                let mut kinds: Vec<usize> = knitted.iter().map(|t| t.index()).collect();
                kinds.extend(27..34);
                for _ in 0..2 {
                    kinds.remove(next(kinds.len()));
                }
                for &i in &kinds {
                    c[i] = 1;
                }
            }
            _ => {
                melds = next(2);
                KNITTED_STRAIGHTS[next(6)]
                    .iter()
                    .for_each(|t| c[t.index()] = 1);
                if melds == 0 {
                    let i = next(span);
                    if i < 27 && i % 9 <= 6 && next(2) == 0 {
                        (i..i + 3).for_each(|k| c[k] += 1);
                    } else {
                        c[i] += 3;
                    }
                }
                c[next(span)] += 2;
            }
        }
        (c, melds)
    }

    /// A hand's kept parts answer for each draw what the hand with the draw answers.
    #[test]
    fn draws_agree_with_ready_after_discard() {
        let mut seed = 0x5851_f42d_4c95_7f2d_u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            usize::try_from(seed % u64::try_from(n).unwrap_or(1)).unwrap_or(0)
        };
        let mut ready = 0;
        for round in 0..6_000 {
            let (mut c, melds) = complete_hand(round % 5, &mut next);
            // One tile out and often one moved: hands at, near and past one from ready.
            let held: Vec<usize> = (0..34).filter(|&i| c[i] > 0).collect();
            c[held[next(held.len())]] -= 1;
            if next(2) == 0 {
                let held: Vec<usize> = (0..34).filter(|&i| c[i] > 0).collect();
                c[held[next(held.len())]] -= 1;
                c[next(34)] += 1;
            }
            if c.iter().any(|&n| n > 4) {
                continue;
            }
            let draws = Draws::new(&c, melds);
            for t in Tile::ALL.into_iter().filter(|t| c[t.index()] < 4) {
                let with_draw = crate::tile::drawing(&c, t);
                let expected = ready_after_discard(&with_draw, melds);
                assert_eq!(
                    draws.ready_after_discard(t),
                    expected,
                    "{c:?} + {t}, {melds} melds"
                );
                ready += usize::from(!expected.is_empty());
            }
        }
        assert!(ready > 5_000, "{ready}");
    }

    /// Complete hands of every shape ([`complete_hand`]), less one tile and often with one
    /// more tile moved: every one that is ready has the waits of the long way.
    #[test]
    fn ready_waits_agree_with_the_useful_kinds_at_distance_0() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            usize::try_from(seed % u64::try_from(n).unwrap_or(1)).unwrap_or(0)
        };
        let mut ready = [0usize; 5];
        for round in 0..30_000 {
            let shape = round % 5;
            let (mut c, melds) = complete_hand(shape, &mut next);
            // One tile out (the wait), and sometimes another moved.
            let held: Vec<usize> = (0..34).filter(|&i| c[i] > 0).collect();
            c[held[next(held.len())]] -= 1;
            if next(3) == 0 {
                let held: Vec<usize> = (0..34).filter(|&i| c[i] > 0).collect();
                c[held[next(held.len())]] -= 1;
                c[next(34)] += 1;
            }
            if c.iter().any(|&n| n > 4) {
                continue;
            }
            let by_shape = shanten_by_shape(&c, melds);
            if shanten(&c, melds) != 0 {
                continue;
            }
            assert_eq!(
                ready_waits(&c, melds),
                useful_at_distance_0(&c, melds),
                "{c:?}, {melds} melds, {by_shape:?}"
            );
            ready[shape] += 1;
        }
        // Every shape's generator reaches ready hands.
        assert!(ready.iter().all(|&n| n > 500), "{ready:?}");
    }
}
