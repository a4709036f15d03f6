//! The standard shape's distance by search: every `(sets, partial sets, pair)` triple each
//! group can make, combined over the four groups. The test oracle of the tables, and the
//! fallback for counts the tables do not cover (a fifth copy, more than 14 tiles of a group).

use crate::tile::Counts;

/// The most sets a shape needs besides the declared melds.
const MAX_SETS: usize = 4;
/// Partial sets (two tiles of a set) are never useful beyond this many.
const MAX_PARTIALS: usize = 7;

fn total(c: &[u8]) -> usize {
    c.iter().map(|&n| usize::from(n)).sum()
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

/// The distance to `needed_sets` sets and a pair, from the tiles `counts` (each count ≤ 5).
pub(super) fn standard_distance(counts: &Counts, needed_sets: usize) -> i8 {
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
    // `best_shared ≤ size ≤ 14`: the distance is at least −1.
    i8::try_from(size - best_shared.min(size)).unwrap_or(i8::MAX) - 1
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::notation::test_counts as counts;

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
