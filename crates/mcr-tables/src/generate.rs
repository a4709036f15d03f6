//! Generating the tables of one kind of group.

use crate::programme::Programme;
use crate::{MAX_TILES, Positions, SLOTS};

/// The tables of one kind of group, by [`Positions`] index.
///
/// A group's distances are one of few (165 in all): each group names its class, so that
/// a reader can keep a table by two classes (the distances of two groups joined) instead
/// of joining them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupTables {
    /// How many kinds a group has (9 for a suit, 7 for the honours).
    pub kinds: usize,
    /// Whether chows are sets (a suit).
    pub chows: bool,
    /// The distinct distances of the groups, in ascending order (110 for the suits, 55 for
    /// the honours): slot `2m + p` the tiles missing from the nearest `m` sets and `p` pairs.
    pub classes: Vec<[u8; SLOTS]>,
    /// Each group's distances, as their place in `classes`.
    pub class: Vec<u8>,
    /// Where one more tile lowers each distance: nine bits a slot (bit `9·slot + place` of
    /// a little-endian `u128`, kept as bytes so that the tables read back without a pass
    /// over them). A group of 14 tiles, or a place held four times, lowers nothing here.
    pub lowering: Vec<[u8; 16]>,
    /// Where one tile fewer keeps each distance, likewise, only places held; for the suits
    /// only (empty for the honours).
    pub keeping: Vec<[u8; 16]>,
}

/// The tables while they are generated: the places as numbers.
struct Work {
    kinds: usize,
    distances: Vec<[u8; SLOTS]>,
    lowering: Vec<u128>,
    keeping: Vec<u128>,
}

/// Generates the tables of groups of `kinds` kinds, with or without chows (keeping places
/// for the groups with chows only).
pub fn generate(kinds: usize, chows: bool) -> GroupTables {
    let positions = Positions::new(kinds);
    let mut tables = Work {
        kinds,
        distances: Vec::with_capacity(positions.len()),
        lowering: Vec::with_capacity(positions.len()),
        keeping: if chows {
            vec![0; positions.len()]
        } else {
            Vec::new()
        },
    };
    let mut stack = vec![Programme::start(); kinds + 1];
    walk(
        0,
        kinds,
        chows,
        MAX_TILES,
        &mut stack,
        &mut tables.distances,
    );
    let mut counts = [0u8; 9];
    fill_lowering(&positions, &mut tables, 0, MAX_TILES, &mut counts);
    let mut classes = tables.distances.clone();
    classes.sort_unstable();
    classes.dedup();
    let class = tables
        .distances
        .iter()
        .map(|d| {
            let at = classes.binary_search(d).unwrap_or(0);
            u8::try_from(at).expect("fewer than 256 distinct distances")
        })
        .collect();
    GroupTables {
        kinds,
        chows,
        classes,
        class,
        lowering: tables.lowering.iter().map(|b| b.to_le_bytes()).collect(),
        keeping: tables.keeping.iter().map(|b| b.to_le_bytes()).collect(),
    }
}

/// Every group of `kinds` kinds from position `rank` on, in index order, with at most `left`
/// tiles still to place; `stack[rank]` is the programme of the kinds before.
fn walk(
    rank: usize,
    kinds: usize,
    chows: bool,
    left: usize,
    stack: &mut [Programme],
    out: &mut Vec<[u8; SLOTS]>,
) {
    if rank == kinds {
        out.push(stack[rank].distances());
        return;
    }
    for v in 0..=left.min(4) {
        let next = stack[rank].step(u8::try_from(v).unwrap_or(4), rank, kinds, chows);
        stack[rank + 1] = next;
        walk(rank + 1, kinds, chows, left - v, stack, out);
    }
}

/// Appends the lowering places of every group from position `at` on, in index order, and
/// marks the same pairs of groups read the other way as keeping places (the distance of the
/// group with one more tile is that of the group: the tile can go).
fn fill_lowering(
    positions: &Positions,
    tables: &mut Work,
    at: usize,
    left: usize,
    counts: &mut [u8; 9],
) {
    let kinds = tables.kinds;
    if at == kinds {
        let v = &counts[..kinds];
        let here = positions.of(v).map(|i| tables.distances[i]);
        let keeps = !tables.keeping.is_empty();
        let mut bits = 0u128;
        for place in 0..kinds {
            let mut more = [0u8; 9];
            more[..kinds].copy_from_slice(v);
            more[place] += 1;
            let (Some(here), Some(next_at)) = (here, positions.of(&more[..kinds])) else {
                continue;
            };
            let next = tables.distances[next_at];
            for (i, (a, b)) in here.iter().zip(next).enumerate() {
                if b < *a {
                    bits |= 1 << (9 * i + place);
                } else if keeps {
                    // One tile more never raises a distance: here it keeps it.
                    tables.keeping[next_at] |= 1 << (9 * i + place);
                }
            }
        }
        tables.lowering.push(bits);
        return;
    }
    for n in 0..=left.min(4) {
        counts[at] = u8::try_from(n).unwrap_or(4);
        fill_lowering(positions, tables, at + 1, left - n, counts);
    }
    counts[at] = 0;
}

impl GroupTables {
    /// The distances of the group at `index`.
    pub fn distances(&self, index: usize) -> [u8; SLOTS] {
        self.classes[usize::from(self.class[index])]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{HONOURS, SUITS};

    #[test]
    fn classes_cover_every_group() {
        for ((kinds, chows), count) in [(SUITS, 110), (HONOURS, 55)] {
            let tables = generate(kinds, chows);
            assert_eq!(tables.classes.len(), count);
            assert_eq!(tables.class.len(), Positions::new(kinds).len());
            assert!(tables.classes.is_sorted());
            // No group of no tiles is complete: it misses 3m + 2p.
            assert_eq!(tables.distances(0), [0, 2, 3, 5, 6, 8, 9, 11, 12, 14]);
        }
    }
}
