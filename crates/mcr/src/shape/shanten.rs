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
//! The shapes are those of RULES.md §1.3: four sets and a pair (with the declared melds as
//! sets); with no declared meld also seven pairs (four of a kind counts as two pairs),
//! thirteen orphans and honours-and-knitted (全不靠); with at most one declared meld the
//! knitted straight (组合龙) with one more set and a pair.
//!
//! Copies are not limited to four in the shape being completed: a hand waiting on a kind
//! whose four copies it holds is still ready, as every ruleset's formal waits count it.
//! Counts above four in the input are read as four (no valid hand holds a fifth copy).
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

use crate::tile::Counts;

/// The most sets a shape needs besides the declared melds.
const MAX_SETS: usize = 4;
/// Partial sets (two tiles of a set) are never useful beyond this many.
const MAX_PARTIALS: usize = 7;

/// The tile indices of the thirteen terminals and honours.
const ORPHANS: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

/// The tile indices of the six knitted straights: ranks 147, 258 and 369 each in its own suit.
const KNITTED: [[usize; 9]; 6] = {
    // The suit (0 characters, 1 dots, 2 bamboo) of ranks 147, 258 and 369.
    const SUITS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut out = [[0; 9]; 6];
    let mut k = 0;
    while k < 6 {
        let mut n = 0;
        let mut start = 0;
        while start < 3 {
            let mut step = 0;
            while step < 3 {
                out[k][n] = SUITS[k][start] * 9 + start + 3 * step;
                n += 1;
                step += 1;
            }
            start += 1;
        }
        k += 1;
    }
    out
};

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

/// The distance to ready over every shape (−1 complete, 0 ready, …) of the concealed tiles
/// `concealed` next to `declared_melds` declared melds (kongs included).
pub fn shanten(concealed: &Counts, declared_melds: usize) -> i8 {
    shanten_by_shape(concealed, declared_melds).best()
}

/// The distance of each shape separately.
pub fn shanten_by_shape(concealed: &Counts, declared_melds: usize) -> ShantenByShape {
    by_shape(&clamp(concealed), declared_melds)
}

/// The distance of each shape of tiles that may hold a fifth copy of one kind: the hand
/// after drawing a kind it holds four of (a formal wait on that kind, never to be won).
/// Counts above five are read as five.
pub(crate) fn shanten_by_shape_with_fifth_copy(
    concealed: &Counts,
    declared_melds: usize,
) -> ShantenByShape {
    by_shape(&concealed.map(|n| n.min(5)), declared_melds)
}

/// [`shanten_by_shape`] of counts already clamped (each at most five).
fn by_shape(c: &Counts, declared_melds: usize) -> ShantenByShape {
    let c = *c;
    let no_melds = declared_melds == 0;
    ShantenByShape {
        standard: standard_distance(&c, MAX_SETS.saturating_sub(declared_melds)),
        seven_pairs: no_melds.then(|| seven_pairs_distance(&c)),
        thirteen_orphans: no_melds.then(|| thirteen_orphans_distance(&c)),
        honors_and_knitted: no_melds.then(|| honors_and_knitted_distance(&c)),
        knitted_straight: (declared_melds <= 1)
            .then(|| knitted_straight_distance(&c, 1 - declared_melds)),
    }
}

/// The distance to four sets and a pair (the declared melds counting as sets).
pub fn standard_shanten(concealed: &Counts, declared_melds: usize) -> i8 {
    standard_distance(&clamp(concealed), MAX_SETS.saturating_sub(declared_melds))
}

/// The distance to seven pairs (a kind held four times counts as two pairs).
pub fn seven_pairs_shanten(concealed: &Counts) -> i8 {
    seven_pairs_distance(&clamp(concealed))
}

/// The distance to thirteen orphans.
pub fn thirteen_orphans_shanten(concealed: &Counts) -> i8 {
    thirteen_orphans_distance(&clamp(concealed))
}

/// The distance to honours and knitted tiles (全不靠, 七星不靠).
pub fn honors_and_knitted_shanten(concealed: &Counts) -> i8 {
    honors_and_knitted_distance(&clamp(concealed))
}

/// The distance to a knitted straight with one set and a pair; `None` with more than one
/// declared meld.
pub fn knitted_straight_shanten(concealed: &Counts, declared_melds: usize) -> Option<i8> {
    (declared_melds <= 1).then(|| knitted_straight_distance(&clamp(concealed), 1 - declared_melds))
}

fn clamp(c: &Counts) -> Counts {
    c.map(|n| n.min(4))
}

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

fn seven_pairs_distance(c: &Counts) -> i8 {
    let pairs = c.iter().map(|&n| usize::from(n / 2)).sum::<usize>().min(7);
    // Each missing pair can take one more tile of the hand as its first half.
    let shared = 2 * pairs + (total(c) - 2 * pairs).min(7 - pairs);
    distance(14, shared)
}

fn thirteen_orphans_distance(c: &Counts) -> i8 {
    let kinds = ORPHANS.iter().filter(|&&i| c[i] > 0).count();
    let duplicate = ORPHANS.iter().any(|&i| c[i] >= 2);
    distance(14, kinds + usize::from(duplicate))
}

fn honors_and_knitted_distance(c: &Counts) -> i8 {
    let honors = c[27..34].iter().filter(|&&n| n > 0).count();
    let best_knitted = KNITTED
        .iter()
        .map(|k| k.iter().filter(|&&i| c[i] > 0).count())
        .max()
        .unwrap_or(0);
    distance(14, (honors + best_knitted).min(14))
}

fn knitted_straight_distance(c: &Counts, needed_sets: usize) -> i8 {
    KNITTED
        .iter()
        .map(|k| {
            let mut rest = *c;
            let mut present = 0;
            for &i in k {
                if rest[i] > 0 {
                    rest[i] -= 1;
                    present += 1;
                }
            }
            // The knitted tiles are nine distinct kinds: the intersection splits into the
            // knitted part and the rest.
            to_i8(9 - present) + standard_distance(&rest, needed_sets)
        })
        .min()
        .unwrap_or(i8::MAX)
}

/// Sets of achievable `(sets, partials, pair)` triples, one bit each: bit `m·16 + t·2 + p`
/// for `m ≤ 4` sets, `t ≤ 7` partial sets (two tiles of a set) and `p ≤ 1` pair.
type Triples = u128;

const fn triple_bit(m: usize, t: usize, p: usize) -> Triples {
    1 << (m * 16 + t * 2 + p)
}

/// Every triple of `set` plus `(dm, dt, dp)`, dropping those beyond the limits.
fn shifted(set: Triples, dm: usize, dt: usize, dp: usize) -> Triples {
    let mut out = 0;
    let mut bits = set;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let (m, t, p) = (i / 16 + dm, (i % 16) / 2 + dt, i % 2 + dp);
        if m <= MAX_SETS && t <= MAX_PARTIALS && p <= 1 {
            out |= triple_bit(m, t, p);
        }
    }
    out
}

/// The triples of two disjoint groups of tiles taken together.
fn combined(a: Triples, b: Triples) -> Triples {
    let mut out = 0;
    let mut bits = b;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        out |= shifted(a, i / 16, (i % 16) / 2, i % 2);
    }
    out
}

/// One suit (nine ranks, sequences allowed) or the honours (seven kinds, no sequences).
struct Group<'a> {
    counts: &'a [u8],
    sequences: bool,
    memo: [[[Option<Triples>; 6]; 6]; 9],
}

impl Group<'_> {
    /// The triples achievable from rank `i` on, with `a` tiles left at `i` and `b` at `i + 1`.
    fn from(&mut self, i: usize, a: u8, b: u8) -> Triples {
        let len = self.counts.len();
        if i >= len {
            return triple_bit(0, 0, 0);
        }
        let (ai, bi) = (usize::from(a.min(5)), usize::from(b.min(5)));
        if let Some(t) = self.memo[i][ai][bi] {
            return t;
        }
        let c2 = self.counts.get(i + 2).copied().unwrap_or(0);
        let chows = self.sequences && i + 2 < len;
        let adjacent = self.sequences && i + 1 < len;
        let mut out = 0;
        for pungs in 0..=a / 3 {
            let after_pungs = a - 3 * pungs;
            for pair in 0..=(after_pungs / 2).min(1) {
                let after_pair = after_pungs - 2 * pair;
                for twins in 0..=after_pair / 2 {
                    let free = after_pair - 2 * twins;
                    let max_chows = if chows { free.min(b).min(c2) } else { 0 };
                    for runs in 0..=max_chows {
                        let max_adjacent = if adjacent {
                            (free - runs).min(b - runs)
                        } else {
                            0
                        };
                        for adj in 0..=max_adjacent {
                            let max_gaps = if chows {
                                (free - runs - adj).min(c2 - runs)
                            } else {
                                0
                            };
                            for gaps in 0..=max_gaps {
                                let next = self.from(i + 1, b - runs - adj, c2 - runs - gaps);
                                out |= shifted(
                                    next,
                                    usize::from(pungs + runs),
                                    usize::from(twins + adj + gaps),
                                    usize::from(pair),
                                );
                            }
                        }
                    }
                }
            }
        }
        self.memo[i][ai][bi] = Some(out);
        out
    }
}

fn group_triples(counts: &[u8], sequences: bool) -> Triples {
    let mut g = Group {
        counts,
        sequences,
        memo: [[[None; 6]; 6]; 9],
    };
    let first = counts.first().copied().unwrap_or(0);
    let second = counts.get(1).copied().unwrap_or(0);
    g.from(0, first, second)
}

/// The distance to `needed_sets` sets and a pair, from the tiles `c` (each count ≤ 5).
fn standard_distance(counts: &Counts, needed_sets: usize) -> i8 {
    let needed_sets = needed_sets.min(MAX_SETS);
    let triples = combined(
        combined(
            group_triples(&counts[0..9], true),
            group_triples(&counts[9..18], true),
        ),
        combined(
            group_triples(&counts[18..27], true),
            group_triples(&counts[27..34], false),
        ),
    );
    let tiles = total(counts);
    let size = 3 * needed_sets + 2;
    let mut best_shared = 0;
    let mut bits = triples;
    while bits != 0 {
        let bit = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let (sets, partials, pair) = (bit / 16, (bit % 16) / 2, bit % 2);
        if sets + partials > needed_sets {
            continue;
        }
        let used = 3 * sets + 2 * partials + 2 * pair;
        // Every block of the shape not yet started can take one leftover tile.
        let open_blocks = (needed_sets - sets - partials) + (1 - pair);
        let shared = used + tiles.saturating_sub(used).min(open_blocks);
        best_shared = best_shared.max(shared);
    }
    distance(size, best_shared)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(tiles: &str) -> Counts {
        let mut c = [0; 34];
        for t in crate::notation::parse_tiles(tiles).unwrap_or_default() {
            c[t.index()] += 1;
        }
        c
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

    #[test]
    fn triples_of_a_run() {
        let t = group_triples(&[1, 1, 1, 0, 0, 0, 0, 0, 0], true);
        assert_ne!(t & triple_bit(1, 0, 0), 0);
        assert_ne!(t & triple_bit(0, 1, 0), 0);
        assert_eq!(t & triple_bit(0, 0, 1), 0);
    }

    #[test]
    fn standard_examples() {
        assert_eq!(standard_distance(&counts("123m456p789sEEESS"), 4), -1);
        assert_eq!(standard_distance(&counts("123m456p789sEEES"), 4), 0);
        assert_eq!(standard_distance(&counts("1m"), 0), 0);
        assert_eq!(standard_distance(&counts(""), 0), 1);
        assert_eq!(standard_distance(&counts("147m258p369sESW"), 4), 8);
    }
}
