//! The standard shape (sets and a pair): its distance from four table look-ups, and the
//! kinds whose drawing lowers it from one look-up each.

use super::search;
use super::table::{self, Distances, Entry, combine, missing_with};
use super::useful::useful_kinds;
use crate::tile::{Counts, Tile, TileSet, drawing};

/// A hand's four groups (three suits and the honours) as table entries.
pub(super) struct StandardParts {
    groups: [Entry; 4],
    needed_sets: usize,
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
        let d = groups.map(|e| e.distances);
        let rest = combine(combine(d[1], d[2], needed_sets), d[3], needed_sets);
        let missing = missing_with(d[0], rest, needed_sets);
        StandardParts {
            groups,
            needed_sets,
            missing,
            distance: to_distance(missing),
        }
    }

    /// For each group, the other three together.
    fn others(&self) -> [Distances; 4] {
        let (g, n) = (self.groups.map(|e| e.distances), self.needed_sets);
        let low = combine(g[0], g[1], n);
        let high = combine(g[2], g[3], n);
        [
            combine(g[1], high, n),
            combine(g[0], high, n),
            combine(low, g[3], n),
            combine(low, g[2], n),
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
                    let split = entry
                        .distances
                        .get(m, p)
                        .saturating_add(rest.get(n - m, 1 - p));
                    if split == self.missing {
                        places |= lowering.places(m, p);
                    }
                }
            }
            for (place, i) in kinds.enumerate() {
                if places & (1 << place) != 0 {
                    useful.insert(Tile::ALL[i]);
                }
            }
        }
        // A kind held four times completes a ready hand only formally (the tables stop at
        // four copies).
        if self.distance == 0 {
            for t in Tile::ALL {
                if counts[t.index()] >= 4 && search::standard_distance(&drawing(counts, t), n) < 0 {
                    useful.insert(t);
                }
            }
        }
        useful
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
