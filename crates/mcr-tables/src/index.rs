//! The place of a group's counts in the tables.

use crate::MAX_TILES;

/// The index of a group's counts: the rank of its counts among all groups of its kinds
/// (each count at most 4, at most [`MAX_TILES`] in all), the first position the most
/// significant, in the order [`crate::generate`] lists them.
#[derive(Clone, Debug)]
pub struct Positions {
    /// `offsets[i][left][v]`: what a count of `v` at position `i` adds to the index when
    /// `left` tiles may still be placed from position `i` on.
    offsets: Vec<[[u32; 5]; MAX_TILES + 1]>,
    len: usize,
}

impl Positions {
    /// The index of groups of `kinds` kinds.
    pub fn new(kinds: usize) -> Positions {
        // below[len][left]: groups of `len` kinds with at most `left` tiles.
        let mut below = vec![[0u32; MAX_TILES + 1]; kinds + 1];
        below[0] = [1; MAX_TILES + 1];
        for len in 1..=kinds {
            for left in 0..=MAX_TILES {
                below[len][left] = (0..=left.min(4)).map(|v| below[len - 1][left - v]).sum();
            }
        }
        let offsets = (0..kinds)
            .map(|i| {
                let mut at = [[0u32; 5]; MAX_TILES + 1];
                for (left, row) in at.iter_mut().enumerate() {
                    for v in 1..=left.min(4) {
                        row[v] = row[v - 1] + below[kinds - 1 - i][left - (v - 1)];
                    }
                }
                at
            })
            .collect();
        Positions {
            offsets,
            len: below[kinds][MAX_TILES] as usize,
        }
    }

    /// How many groups there are.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Never: a group of no tiles is one.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many kinds a group has.
    pub fn kinds(&self) -> usize {
        self.offsets.len()
    }

    /// The per-position offsets: `offsets()[i][left][v]` is what a count of `v` at position
    /// `i` adds to the index when `left` tiles may still be placed from `i` on (for a
    /// reader that splits the look-up).
    pub fn offsets(&self) -> &[[[u32; 5]; MAX_TILES + 1]] {
        &self.offsets
    }

    /// The index of the counts `v`, `None` past four copies of a kind or 14 tiles.
    pub fn of(&self, v: &[u8]) -> Option<usize> {
        let mut index = 0u32;
        let mut left = MAX_TILES;
        for (at, &n) in self.offsets.iter().zip(v) {
            let n = usize::from(n);
            if n > 4 || n > left {
                return None;
            }
            index += at[left][n];
            left -= n;
        }
        Some(index as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_ends() {
        let suits = Positions::new(9);
        assert_eq!(suits.len(), 405_350);
        assert_eq!(Positions::new(7).len(), 43_130);
        assert_eq!(suits.of(&[0; 9]), Some(0));
        assert_eq!(
            suits.of(&[4, 4, 4, 2, 0, 0, 0, 0, 0]),
            Some(suits.len() - 1)
        );
        assert_eq!(suits.of(&[4, 4, 4, 3, 0, 0, 0, 0, 0]), None);
        assert_eq!(suits.of(&[5, 0, 0, 0, 0, 0, 0, 0, 0]), None);
    }
}
