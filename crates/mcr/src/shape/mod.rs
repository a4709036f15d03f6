//! Hand shapes: the ways fourteen tiles can be read as a winning hand.
//!
//! A [`Reading`] is one arrangement: four sets and a pair, seven pairs, thirteen orphans,
//! honours and knitted tiles, or a knitted straight with one set and a pair. Scoring
//! evaluates every reading and keeps the best (就高不就低).

pub(crate) mod division;
pub mod shanten;
pub(crate) mod traits;
pub(crate) mod wait;

use crate::hand::{KongExposure, Meld};
use crate::tile::Tile;

/// Makes the shape tables now rather than on first use: the divisions scoring reads (built,
/// a few ms, 6.8 MB) and the distances analysis reads (embedded, read back in tens of ms,
/// 14.4 MB).
pub fn warm_up() {
    division::table::warm_up();
    shanten::table::warm_up();
}

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

    pub(crate) const fn concealed(kind: SetKind, tile: Tile) -> Set {
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
    ORDER_KEYS[t.index()]
}

/// [`order_key`] of each tile kind: `suit * 16 + rank`, the suits in the calculators' order
/// (characters 1, bamboo 2, dots 3, honours 4 with ranks 1–7 in tile order).
const ORDER_KEYS: [u8; 34] = {
    let mut keys = [0u8; 34];
    let mut i = 0;
    while i < 34 {
        let t = Tile::ALL[i];
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
        keys[i] = suit_order * 16 + rank;
        i += 1;
    }
    keys
};

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
