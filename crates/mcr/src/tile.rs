//! The 34 tile kinds and the 8 flowers.
//!
//! A [`Tile`] is a dense index: characters `1m..9m` are 0..=8, dots `1p..9p` 9..=17,
//! bamboo `1s..9s` 18..=26, the winds East South West North 27..=30 and the dragons
//! red (中, `C`), green (发, `F`) and white (白, `P`) 31..=33. Every predicate is a
//! `const fn` over that index, so tile arithmetic never allocates.

use std::fmt;
use std::str::FromStr;

/// One of the 34 tile kinds (flowers are not tiles of a hand shape).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tile(u8);

/// The three suits of numbered tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    /// 万 characters, written `m`.
    Characters,
    /// 饼 dots, written `p`.
    Dots,
    /// 条 bamboo, written `s`.
    Bamboo,
}

impl Suit {
    /// The three suits in index order.
    pub const ALL: [Suit; 3] = [Suit::Characters, Suit::Dots, Suit::Bamboo];

    /// The notation letter of the suit (`m`, `p`, `s`).
    pub const fn letter(self) -> char {
        match self {
            Suit::Characters => 'm',
            Suit::Dots => 'p',
            Suit::Bamboo => 's',
        }
    }

    /// The suit for a notation letter.
    pub const fn from_letter(c: char) -> Option<Suit> {
        match c {
            'm' => Some(Suit::Characters),
            'p' => Some(Suit::Dots),
            's' => Some(Suit::Bamboo),
            _ => None,
        }
    }

    /// The index of the suit's first tile (0, 9 or 18).
    pub const fn base(self) -> u8 {
        match self {
            Suit::Characters => 0,
            Suit::Dots => 9,
            Suit::Bamboo => 18,
        }
    }

    /// Index 0..3.
    pub const fn index(self) -> usize {
        match self {
            Suit::Characters => 0,
            Suit::Dots => 1,
            Suit::Bamboo => 2,
        }
    }
}

/// The letters of the honour tiles in index order: winds E S W N, dragons C F P.
const HONOR_LETTERS: [char; 7] = ['E', 'S', 'W', 'N', 'C', 'F', 'P'];

impl Tile {
    /// Number of tile kinds.
    pub const COUNT: usize = 34;
    /// East wind.
    pub const EAST: Tile = Tile(27);
    /// South wind.
    pub const SOUTH: Tile = Tile(28);
    /// West wind.
    pub const WEST: Tile = Tile(29);
    /// North wind.
    pub const NORTH: Tile = Tile(30);
    /// Red dragon 中.
    pub const RED: Tile = Tile(31);
    /// Green dragon 发.
    pub const GREEN: Tile = Tile(32);
    /// White dragon 白.
    pub const WHITE: Tile = Tile(33);

    /// Every tile kind in index order.
    pub const ALL: [Tile; 34] = {
        let mut all = [Tile(0); 34];
        let mut i = 0u8;
        while i < 34 {
            all[i as usize] = Tile(i);
            i += 1;
        }
        all
    };

    /// The tile with this dense index, if it is below 34.
    pub const fn from_index(index: u8) -> Option<Tile> {
        if index < 34 { Some(Tile(index)) } else { None }
    }

    /// The tile with this dense index, if it is below 34.
    pub fn from_usize(index: usize) -> Option<Tile> {
        Tile::ALL.get(index).copied()
    }

    /// A numbered tile.
    pub const fn numbered(suit: Suit, rank: u8) -> Option<Tile> {
        if rank >= 1 && rank <= 9 {
            Some(Tile(suit.base() + rank - 1))
        } else {
            None
        }
    }

    /// The dense index 0..34.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The dense index 0..34 as a byte.
    pub const fn index_u8(self) -> u8 {
        self.0
    }

    /// The suit of a numbered tile; `None` for honours.
    pub const fn suit(self) -> Option<Suit> {
        match self.0 / 9 {
            0 => Some(Suit::Characters),
            1 => Some(Suit::Dots),
            2 => Some(Suit::Bamboo),
            _ => None,
        }
    }

    /// Rank 1..=9 of a numbered tile; `None` for honours.
    pub const fn rank(self) -> Option<u8> {
        if self.0 < 27 {
            Some(self.0 % 9 + 1)
        } else {
            None
        }
    }

    /// Rank of a numbered tile, 0 for honours (for quick comparisons).
    pub(crate) const fn rank_or_zero(self) -> u8 {
        if self.0 < 27 { self.0 % 9 + 1 } else { 0 }
    }

    /// Suit index 0..3 for numbered tiles, 3 for honours.
    pub(crate) const fn group(self) -> u8 {
        if self.0 < 27 { self.0 / 9 } else { 3 }
    }

    /// A numbered tile (万, 饼 or 条).
    pub const fn is_numbered(self) -> bool {
        self.0 < 27
    }

    /// A wind or a dragon.
    pub const fn is_honor(self) -> bool {
        self.0 >= 27
    }

    /// One of the four winds.
    pub const fn is_wind(self) -> bool {
        self.0 >= 27 && self.0 <= 30
    }

    /// One of the three dragons.
    pub const fn is_dragon(self) -> bool {
        self.0 >= 31
    }

    /// A numbered 1 or 9.
    pub const fn is_terminal(self) -> bool {
        self.0 < 27 && (self.0.is_multiple_of(9) || self.0 % 9 == 8)
    }

    /// A terminal or an honour (幺九牌).
    pub const fn is_terminal_or_honor(self) -> bool {
        self.is_terminal() || self.is_honor()
    }

    /// A tile of 绿一色: 2 3 4 6 8 bamboo and the green dragon.
    pub const fn is_green(self) -> bool {
        matches!(self.0, 19 | 20 | 21 | 23 | 25 | 32)
    }

    /// A tile of 推不倒 (vertically symmetric): 1234589p, 245689s and the white dragon.
    pub const fn is_reversible(self) -> bool {
        matches!(self.0, 9..=13 | 16 | 17 | 19 | 21 | 22 | 23 | 25 | 26 | 33)
    }

    /// The next tile of the same suit, if any.
    pub const fn succ(self) -> Option<Tile> {
        if self.0 < 27 && self.0 % 9 != 8 {
            Some(Tile(self.0 + 1))
        } else {
            None
        }
    }

    /// The wind this tile is, if it is a wind.
    pub const fn wind(self) -> Option<Wind> {
        match self.0 {
            27 => Some(Wind::East),
            28 => Some(Wind::South),
            29 => Some(Wind::West),
            30 => Some(Wind::North),
            _ => None,
        }
    }

    /// The tile's code in the corpus/calculator style: `W1`..`W9`, `B1`..`B9`, `T1`..`T9`,
    /// `F1`..`F4` (winds), `J1`..`J3` (中 发 白).
    pub fn code(self) -> String {
        let (letter, n) = match self.0 {
            0..=8 => ('W', self.0 + 1),
            9..=17 => ('B', self.0 - 8),
            18..=26 => ('T', self.0 - 17),
            27..=30 => ('F', self.0 - 26),
            _ => ('J', self.0 - 30),
        };
        format!("{letter}{n}")
    }

    /// Parses a corpus/calculator code (`W5`, `B1`, `T9`, `F3`, `J2`).
    pub fn from_code(code: &str) -> Option<Tile> {
        let mut chars = code.chars();
        let letter = chars.next()?;
        let digit = chars.next()?.to_digit(10)?;
        if chars.next().is_some() {
            return None;
        }
        let digit = u8::try_from(digit).ok()?;
        match letter {
            'W' => Tile::numbered(Suit::Characters, digit),
            'B' => Tile::numbered(Suit::Dots, digit),
            'T' => Tile::numbered(Suit::Bamboo, digit),
            'F' if (1..=4).contains(&digit) => Some(Tile(26 + digit)),
            'J' if (1..=3).contains(&digit) => Some(Tile(30 + digit)),
            _ => None,
        }
    }

    /// The letter of an honour in notation (`E S W N C F P`); `None` for a suited tile.
    pub const fn honor_letter(self) -> Option<char> {
        if self.0 >= 27 {
            Some(HONOR_LETTERS[(self.0 - 27) as usize])
        } else {
            None
        }
    }

    /// The honour tile written with this letter (`E S W N C F P`).
    pub fn honor_from_letter(c: char) -> Option<Tile> {
        HONOR_LETTERS
            .iter()
            .position(|&l| l == c)
            .and_then(|i| u8::try_from(i).ok())
            .map(|i| Tile(27 + i))
    }
}

impl fmt::Display for Tile {
    /// `5m`, `1p`, `9s`, or an honour letter `E S W N C F P`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.rank(), self.suit()) {
            (Some(rank), Some(suit)) => write!(f, "{rank}{}", suit.letter()),
            _ => write!(f, "{}", HONOR_LETTERS[usize::from(self.0 - 27)]),
        }
    }
}

impl fmt::Debug for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A tile string that is not `1m`..`9s` or an honour letter.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a tile (expected 1m..9m, 1p..9p, 1s..9s or one of E S W N C F P)")]
pub struct ParseTileError(pub String);

impl FromStr for Tile {
    type Err = ParseTileError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ParseTileError(s.to_owned());
        let mut chars = s.chars();
        match (chars.next(), chars.next(), chars.next()) {
            (Some(c), None, None) => Tile::honor_from_letter(c).ok_or_else(err),
            (Some(d), Some(l), None) => {
                let rank = d
                    .to_digit(10)
                    .and_then(|d| u8::try_from(d).ok())
                    .ok_or_else(err)?;
                let suit = Suit::from_letter(l).ok_or_else(err)?;
                Tile::numbered(suit, rank).ok_or_else(err)
            }
            _ => Err(err()),
        }
    }
}

/// Tile counts indexed by [`Tile::index`].
pub type Counts = [u8; 34];

/// `counts` with one more copy of `tile` (saturating).
pub(crate) fn drawing(counts: &Counts, tile: Tile) -> Counts {
    let mut drawn = *counts;
    drawn[tile.index()] = drawn[tile.index()].saturating_add(1);
    drawn
}

/// A wind: seat (门风) or prevalent (圈风).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Wind {
    /// 东.
    #[default]
    East,
    /// 南.
    South,
    /// 西.
    West,
    /// 北.
    North,
}

impl Wind {
    /// The four winds in turn order.
    pub const ALL: [Wind; 4] = [Wind::East, Wind::South, Wind::West, Wind::North];

    /// The wind tile of this wind.
    pub const fn tile(self) -> Tile {
        match self {
            Wind::East => Tile::EAST,
            Wind::South => Tile::SOUTH,
            Wind::West => Tile::WEST,
            Wind::North => Tile::NORTH,
        }
    }

    /// The letter used in notation and on the command line.
    pub const fn letter(self) -> char {
        match self {
            Wind::East => 'E',
            Wind::South => 'S',
            Wind::West => 'W',
            Wind::North => 'N',
        }
    }
}

/// A set of tile kinds, one bit per kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TileSet(u64);

impl TileSet {
    /// The kinds of a mask over [`Tile::index`] (bits past the 34 kinds are not read).
    pub(crate) const fn from_mask(mask: u64) -> TileSet {
        TileSet(mask & ((1 << Tile::COUNT) - 1))
    }

    /// The kinds as a mask over [`Tile::index`].
    pub(crate) const fn mask(self) -> u64 {
        self.0
    }

    /// Adds a kind.
    pub fn insert(&mut self, tile: Tile) {
        self.0 |= 1 << tile.index();
    }

    /// Whether the kind is in the set.
    pub fn contains(self, tile: Tile) -> bool {
        self.0 & (1 << tile.index()) != 0
    }

    /// The kinds of both sets.
    #[must_use]
    pub fn union(self, other: TileSet) -> TileSet {
        TileSet(self.0 | other.0)
    }

    /// How many kinds.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The kinds in index order.
    pub fn iter(self) -> impl Iterator<Item = Tile> + Clone {
        Tile::ALL.into_iter().filter(move |&t| self.contains(t))
    }
}

impl FromIterator<Tile> for TileSet {
    fn from_iter<I: IntoIterator<Item = Tile>>(iter: I) -> Self {
        let mut set = TileSet::default();
        for t in iter {
            set.insert(t);
        }
        set
    }
}

/// What one more tile of each rank (1–9, by index) adds to a suit's code: the suit's nine
/// counts read as the digits of a base-5 number, rank 1 the lowest. The hand keeps its suits'
/// codes as tiles are counted (`hand`), and the division tables are indexed by them
/// (`shape::division::table::code`).
pub(crate) const RANK_WEIGHT: [usize; 9] = [1, 5, 25, 125, 625, 3_125, 15_625, 78_125, 390_625];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tile_round_trips_through_display_and_code() {
        for t in Tile::ALL {
            assert_eq!(t.to_string().parse::<Tile>(), Ok(t));
            assert_eq!(Tile::from_code(&t.code()), Some(t));
        }
        assert_eq!(
            Tile::ALL
                .iter()
                .filter(|t| t.is_terminal_or_honor())
                .count(),
            13
        );
        assert_eq!(Tile::ALL.iter().filter(|t| t.is_green()).count(), 6);
        assert_eq!(Tile::ALL.iter().filter(|t| t.is_reversible()).count(), 14);
    }

    #[test]
    fn bad_tiles_are_rejected() {
        for s in ["0m", "10m", "5z", "X", "", "5", "mm", "5mm"] {
            assert!(s.parse::<Tile>().is_err(), "{s}");
        }
        for s in ["W0", "F5", "J4", "Z1", "H1", "5m", "W10"] {
            assert!(Tile::from_code(s).is_none(), "{s}");
        }
    }
}
