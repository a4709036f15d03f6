//! Traits of a part of a reading (a set or the pair) that some fans need in every part:
//! 全带幺 (a terminal or an honour), 全带五 (a 5), 全双刻 (a pung or pair of an even rank).
//! A reading's traits are the AND of its parts'; the division table carries each suit
//! division's AND (see [`super::division`]).

use crate::tile::Tile;

/// A part with a terminal or an honour (全带幺).
pub(crate) const OUTSIDE: u8 = 1;
/// A part with a 5 (全带五).
pub(crate) const FIVE: u8 = 2;
/// A pung or pair of an even rank (全双刻).
pub(crate) const EVEN: u8 = 4;
/// Every trait: the AND of no parts.
pub(crate) const ALL: u8 = OUTSIDE | FIVE | EVEN;

/// The traits of a pung, kong or pair of a numbered tile of rank `rank` (1–9).
pub(crate) const fn of_pung_rank(rank: u8) -> u8 {
    match rank {
        1 | 9 => OUTSIDE,
        5 => FIVE,
        2 | 4 | 6 | 8 => EVEN,
        _ => 0,
    }
}

/// The traits of a chow by the rank (1–7) of its lowest tile (a chow is never even).
pub(crate) const fn of_chow_rank(rank: u8) -> u8 {
    match rank {
        1 | 7 => OUTSIDE,
        3..=5 => FIVE,
        _ => 0,
    }
}

/// The traits of a pung, kong or pair of each tile kind (an honour is outside).
pub(crate) const PUNG: [u8; 34] = {
    let mut traits = [0u8; 34];
    let mut i = 0;
    while i < 34 {
        let t = Tile::ALL[i];
        traits[i] = if t.is_honor() {
            OUTSIDE
        } else {
            of_pung_rank(t.rank_or_zero())
        };
        i += 1;
    }
    traits
};

/// The traits of a chow by its lowest tile (no chow starts on an honour).
pub(crate) const CHOW: [u8; 34] = {
    let mut traits = [0u8; 34];
    let mut i = 0;
    while i < 34 {
        let t = Tile::ALL[i];
        traits[i] = if t.is_honor() {
            OUTSIDE
        } else {
            of_chow_rank(t.rank_or_zero())
        };
        i += 1;
    }
    traits
};
