//! Hand shapes: the ways fourteen tiles can be read as a winning hand.
//!
//! A [`Reading`] is one arrangement: four sets and a pair, seven pairs, thirteen orphans,
//! honours and knitted tiles, or a knitted straight with one set and a pair. Scoring
//! evaluates every reading and keeps the best (就高不就低).

pub mod shanten;
pub(crate) mod wait;

use crate::hand::{KongExposure, Meld};
use crate::tile::{Counts, Tile};

/// What a set is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetKind {
    /// Three consecutive tiles; `Set::tile` is the lowest.
    Chow,
    /// Three identical tiles.
    Pung,
    /// Four identical tiles.
    Kong,
}

/// One set of a reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Set {
    /// Chow, pung or kong.
    pub kind: SetKind,
    /// The lowest tile of a chow; the tile of a pung or kong.
    pub tile: Tile,
    /// Declared as a meld (including a concealed kong).
    pub declared: bool,
    /// Exposed with a claimed tile (a declared meld other than a concealed kong).
    pub claimed: bool,
}

impl Set {
    pub(crate) fn from_meld(meld: Meld) -> Set {
        match meld {
            Meld::Chow { first, .. } => Set {
                kind: SetKind::Chow,
                tile: first,
                declared: true,
                claimed: true,
            },
            Meld::Pung { tile, .. } => Set {
                kind: SetKind::Pung,
                tile,
                declared: true,
                claimed: true,
            },
            Meld::Kong { tile, exposure } => Set {
                kind: SetKind::Kong,
                tile,
                declared: true,
                claimed: !matches!(exposure, KongExposure::Concealed),
            },
        }
    }

    const fn concealed(kind: SetKind, tile: Tile) -> Set {
        Set {
            kind,
            tile,
            declared: false,
            claimed: false,
        }
    }

    /// Whether this is a pung or a kong.
    pub const fn is_pung_like(self) -> bool {
        matches!(self.kind, SetKind::Pung | SetKind::Kong)
    }

    /// The tiles of the set.
    pub fn tiles(self) -> Vec<Tile> {
        match self.kind {
            SetKind::Chow => {
                let i = self.tile.index();
                (i..i + 3).filter_map(Tile::from_usize).collect()
            }
            SetKind::Pung => vec![self.tile; 3],
            SetKind::Kong => vec![self.tile; 4],
        }
    }

    /// Whether the set contains the tile.
    pub fn contains(self, t: Tile) -> bool {
        match self.kind {
            SetKind::Chow => {
                t.suit() == self.tile.suit()
                    && t.index() >= self.tile.index()
                    && t.index() <= self.tile.index() + 2
            }
            SetKind::Pung | SetKind::Kong => t == self.tile,
        }
    }
}

/// One way of reading a winning hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reading {
    /// Four sets and a pair (declared melds first, in declaration order).
    Standard {
        /// The sets.
        sets: [Set; 4],
        /// The pair.
        pair: Tile,
    },
    /// 七对 (a tile may appear as two pairs).
    SevenPairs {
        /// The pairs in tile order.
        pairs: [Tile; 7],
    },
    /// 十三幺.
    ThirteenOrphans {
        /// The doubled orphan.
        pair: Tile,
    },
    /// 全不靠 / 七星不靠: fourteen distinct tiles.
    HonorsAndKnitted {
        /// The tiles in tile order.
        tiles: [Tile; 14],
    },
    /// 组合龙 with one more set and a pair.
    KnittedStraight {
        /// The nine knitted tiles (147, 258, 369 of three different suits), in tile order.
        knitted: [Tile; 9],
        /// The fourth set.
        set: Set,
        /// The pair.
        pair: Tile,
    },
}

/// The SI-calculator ordering key of a tile (characters, bamboo, dots, honours), used so that
/// ties between readings are broken the way the reference calculators break them.
pub(crate) const fn order_key(t: Tile) -> u8 {
    let suit_order = match t.group() {
        0 => 1, // characters
        2 => 2, // bamboo
        1 => 3, // dots
        _ => 4, // honours
    };
    let rank = if t.is_numbered() {
        t.rank_or_zero()
    } else {
        t.index_u8() - 26
    };
    suit_order * 16 + rank
}

/// Sort key of a concealed set: by tile, a pung before the chow starting on the same tile.
const fn set_key(s: Set) -> (u8, u8) {
    (
        order_key(s.tile),
        if matches!(s.kind, SetKind::Chow) {
            1
        } else {
            0
        },
    )
}

/// At most this many standard divisions are kept (no legal hand has more than a handful).
pub(crate) const MAX_DIVISIONS: usize = 16;

/// A division of the concealed tiles into sets and a pair.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Division {
    pub(crate) sets: [Set; 4],
    pub(crate) len: usize,
    pub(crate) pair: Tile,
}

/// Collected divisions, in the order the reference calculators enumerate them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Divisions {
    pub(crate) items: [Division; MAX_DIVISIONS],
    pub(crate) len: usize,
}

/// Every division of `concealed` into `needed` sets and one pair.
pub(crate) fn standard_divisions(concealed: &Counts, needed: usize) -> Divisions {
    let empty = Division {
        sets: [Set::concealed(SetKind::Pung, Tile::EAST); 4],
        len: 0,
        pair: Tile::EAST,
    };
    let mut out = Divisions {
        items: [empty; MAX_DIVISIONS],
        len: 0,
    };
    let mut c = *concealed;
    let mut work = empty;
    divide(&mut c, (0, 0), needed, None, &mut work, &mut out);
    // Sort each division's sets and the divisions themselves into calculator order.
    for d in &mut out.items[..out.len] {
        d.sets[..d.len].sort_unstable_by_key(|s| set_key(*s));
    }
    out.items[..out.len].sort_by(|a, b| {
        let ka = a.sets[..a.len].iter().map(|s| set_key(*s));
        let kb = b.sets[..b.len].iter().map(|s| set_key(*s));
        ka.cmp(kb)
    });
    out
}

/// Depth-first division. The lowest remaining tile is covered first, by a pair, a pung or a
/// chow starting on it; `(from, min_kind)` forbids going back to a smaller kind on the same
/// tile (pair 0 < pung 1 < chow 2), so every division is found exactly once.
fn divide(
    c: &mut Counts,
    (from, min_kind): (usize, u8),
    needed: usize,
    pair: Option<Tile>,
    work: &mut Division,
    out: &mut Divisions,
) {
    let Some(i) = (from..34).find(|&i| c[i] > 0) else {
        if work.len == needed
            && let Some(p) = pair
            && out.len < MAX_DIVISIONS
        {
            let mut d = *work;
            d.pair = p;
            out.items[out.len] = d;
            out.len += 1;
        }
        return;
    };
    let min_kind = if i == from { min_kind } else { 0 };
    let Some(t) = Tile::from_usize(i) else {
        return;
    };
    if min_kind == 0 && pair.is_none() && c[i] >= 2 {
        c[i] -= 2;
        divide(c, (i, 1), needed, Some(t), work, out);
        c[i] += 2;
    }
    if min_kind <= 1 && work.len < needed && c[i] >= 3 {
        c[i] -= 3;
        work.sets[work.len] = Set::concealed(SetKind::Pung, t);
        work.len += 1;
        divide(c, (i, 2), needed, pair, work, out);
        work.len -= 1;
        c[i] += 3;
    }
    if work.len < needed && t.is_numbered() && t.rank_or_zero() <= 7 && c[i + 1] > 0 && c[i + 2] > 0
    {
        c[i] -= 1;
        c[i + 1] -= 1;
        c[i + 2] -= 1;
        work.sets[work.len] = Set::concealed(SetKind::Chow, t);
        work.len += 1;
        divide(c, (i, 2), needed, pair, work, out);
        work.len -= 1;
        c[i] += 1;
        c[i + 1] += 1;
        c[i + 2] += 1;
    }
}

/// The six knitted straights (147, 258, 369 spread over the three suits), each in tile order.
pub(crate) const KNITTED_STRAIGHTS: [[Tile; 9]; 6] = {
    // The suit (0 characters, 1 dots, 2 bamboo) of ranks 147, 258 and 369.
    const PERMS: [[usize; 3]; 6] = [
        [0, 2, 1],
        [0, 1, 2],
        [2, 0, 1],
        [2, 1, 0],
        [1, 0, 2],
        [1, 2, 0],
    ];
    let mut out = [[Tile::EAST; 9]; 6];
    let mut k = 0;
    while k < 6 {
        // Tile order is suit by suit, so fill characters, then dots, then bamboo.
        let mut n = 0;
        let mut suit = 0;
        while suit < 3 {
            let mut start = 0;
            while start < 3 {
                if PERMS[k][start] == suit {
                    let mut step = 0;
                    while step < 3 {
                        out[k][n] = Tile::ALL[suit * 9 + start + 3 * step];
                        n += 1;
                        step += 1;
                    }
                }
                start += 1;
            }
            suit += 1;
        }
        k += 1;
    }
    out
};

/// The thirteen terminals and honours.
pub(crate) const fn is_orphan(i: usize) -> bool {
    matches!(i, 0 | 8 | 9 | 17 | 18 | 26 | 27..=33)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(tiles: &str) -> Counts {
        let mut c = [0; 34];
        for t in crate::notation::parse_tiles(tiles).unwrap() {
            c[t.index()] += 1;
        }
        c
    }

    #[test]
    fn every_division_is_found_once() {
        // 77789p: 77 + 789 only, although the pair and the chow both start on 7p.
        assert_eq!(standard_divisions(&counts("77789p"), 1).len, 1);
        // 112233m55p: 123 + 123 + 55 only.
        assert_eq!(standard_divisions(&counts("112233m55p"), 2).len, 1);
        // 111222333m + 44p: pungs, or three chows 123.
        assert_eq!(standard_divisions(&counts("111222333m44p"), 3).len, 2);
    }

    #[test]
    fn divisions_of_a_triple_run_include_pungs_and_chows() {
        let d = standard_divisions(&counts("555666777p55567s"), 4);
        assert_eq!(d.len, 2);
        // Sets sort bamboo before dots, and a pung before the chow on the same tile: both
        // readings open with 567s, then the pung reading comes first.
        assert_eq!(d.items[0].sets[1].kind, SetKind::Pung);
        assert_eq!(d.items[1].sets[1].kind, SetKind::Chow);
    }

    #[test]
    fn knitted_straights_are_distinct_and_complete() {
        let ks = KNITTED_STRAIGHTS;
        for k in &ks {
            assert!(k.windows(2).all(|w| w[0] < w[1]));
            let suits: std::collections::BTreeSet<_> = k.iter().map(|t| t.suit()).collect();
            assert_eq!(suits.len(), 3);
            let ranks: std::collections::BTreeSet<_> = k.iter().map(|t| t.rank()).collect();
            assert_eq!(ranks.len(), 9);
        }
        let unique: std::collections::BTreeSet<_> = ks.iter().collect();
        assert_eq!(unique.len(), 6);
    }
}
