//! The four seats of a table and a container holding one value per seat.
//!
//! A [`Seat`] is a player's place at the table during one hand, named by the seat wind (门风)
//! that place has in that hand: East is the dealer (庄家), South sits on East's right (下家),
//! West opposite, North on East's left (上家) [R98 §5-6].
//!
//! **Turn order** is counter-clockwise, East → South → West → North → East: the player who
//! plays after a seat is the one on its right ([`Seat::next`], 下家); the one who played
//! before it is on its left ([`Seat::previous`], 上家), the only player a chow may be
//! claimed from.
//!
//! [`BySeat<T>`] holds one `T` per seat, like `shakmaty::ByColor` for the two colours of chess.
//!
//! ```
//! use mcr::{BySeat, Seat};
//! assert_eq!(Seat::North.next(), Seat::East);
//! assert_eq!(Seat::West.others(), [Seat::North, Seat::East, Seat::South]);
//! let deltas = BySeat::new_with(|s| if s == Seat::South { 24 } else { -8 });
//! assert_eq!(deltas.iter().sum::<i64>(), 0);
//! ```

use std::fmt;
use std::ops::{Index, IndexMut};

use crate::hand::{Claim, Wind};
use crate::violation::{FieldPath, Violation, ViolationCode};

/// A player's seat at the table for one hand, named by its seat wind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Seat {
    /// 东: the dealer (庄家).
    East,
    /// 南: on the dealer's right; plays after East.
    South,
    /// 西: opposite the dealer.
    West,
    /// 北: on the dealer's left; plays before East.
    North,
}

impl Seat {
    /// The four seats in turn order, starting with the dealer.
    pub const ALL: [Seat; 4] = [Seat::East, Seat::South, Seat::West, Seat::North];

    /// Index 0..4 in turn order (East 0, South 1, West 2, North 3).
    pub const fn index(self) -> usize {
        match self {
            Seat::East => 0,
            Seat::South => 1,
            Seat::West => 2,
            Seat::North => 3,
        }
    }

    /// The seat with index 0..4 (East 0, South 1, West 2, North 3); `None` outside the table.
    pub const fn from_index(index: usize) -> Option<Seat> {
        match index {
            0 => Some(Seat::East),
            1 => Some(Seat::South),
            2 => Some(Seat::West),
            3 => Some(Seat::North),
            _ => None,
        }
    }

    /// Reads a seat number given by a caller (0 East, 1 South, 2 West, 3 North); anything
    /// else is a [`ViolationCode::SeatInvalid`] at `path`.
    pub fn from_number(number: i64, path: FieldPath) -> Result<Seat, Violation> {
        usize::try_from(number)
            .ok()
            .and_then(Seat::from_index)
            .ok_or_else(|| {
                Violation::new(
                    ViolationCode::SeatInvalid,
                    path,
                    format!("seat {number} is not at the table (0 East, 1 South, 2 West, 3 North)"),
                )
            })
    }

    /// The player on this seat's right (下家), who plays next.
    #[must_use]
    pub const fn next(self) -> Seat {
        match self {
            Seat::East => Seat::South,
            Seat::South => Seat::West,
            Seat::West => Seat::North,
            Seat::North => Seat::East,
        }
    }

    /// The player on this seat's left (上家), who played before.
    #[must_use]
    pub const fn previous(self) -> Seat {
        match self {
            Seat::East => Seat::North,
            Seat::South => Seat::East,
            Seat::West => Seat::South,
            Seat::North => Seat::West,
        }
    }

    /// The player opposite (对家).
    #[must_use]
    pub const fn opposite(self) -> Seat {
        self.next().next()
    }

    /// How many turns after this seat `other` plays: 0 for the seat itself, 1 for the next
    /// player, 2 for the one opposite, 3 for the previous one.
    pub const fn turns_until(self, other: Seat) -> usize {
        (other.index() + 4 - self.index()) % 4
    }

    /// The three other seats in turn order, starting with the next player.
    pub const fn others(self) -> [Seat; 3] {
        [self.next(), self.next().next(), self.previous()]
    }

    /// Where `other` sits as seen from this seat, in the terms of a claimed meld: the
    /// previous player is on the left (上家), the next on the right (下家). `None` for the
    /// seat itself.
    pub const fn relation_to(self, other: Seat) -> Option<Claim> {
        match self.turns_until(other) {
            1 => Some(Claim::Right),
            2 => Some(Claim::Opposite),
            3 => Some(Claim::Left),
            _ => None,
        }
    }

    /// The seat wind (门风) of this seat.
    pub const fn wind(self) -> Wind {
        match self {
            Seat::East => Wind::East,
            Seat::South => Wind::South,
            Seat::West => Wind::West,
            Seat::North => Wind::North,
        }
    }

    /// The seat whose seat wind is `wind`.
    pub const fn from_wind(wind: Wind) -> Seat {
        match wind {
            Wind::East => Seat::East,
            Wind::South => Seat::South,
            Wind::West => Seat::West,
            Wind::North => Seat::North,
        }
    }

    /// The English name (`East`, …).
    pub const fn name(self) -> &'static str {
        match self {
            Seat::East => "East",
            Seat::South => "South",
            Seat::West => "West",
            Seat::North => "North",
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl From<Wind> for Seat {
    fn from(wind: Wind) -> Seat {
        Seat::from_wind(wind)
    }
}

impl From<Seat> for Wind {
    fn from(seat: Seat) -> Wind {
        seat.wind()
    }
}

/// One value per seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BySeat<T> {
    /// The value of East.
    pub east: T,
    /// The value of South.
    pub south: T,
    /// The value of West.
    pub west: T,
    /// The value of North.
    pub north: T,
}

impl<T> BySeat<T> {
    /// The four values in turn order.
    pub const fn new(east: T, south: T, west: T, north: T) -> BySeat<T> {
        BySeat {
            east,
            south,
            west,
            north,
        }
    }

    /// The value of each seat computed by `init`, called in turn order.
    pub fn new_with(mut init: impl FnMut(Seat) -> T) -> BySeat<T> {
        let east = init(Seat::East);
        let south = init(Seat::South);
        let west = init(Seat::West);
        let north = init(Seat::North);
        BySeat::new(east, south, west, north)
    }

    /// The four values as an array in turn order.
    pub fn into_array(self) -> [T; 4] {
        [self.east, self.south, self.west, self.north]
    }

    /// The four values of an array in turn order.
    pub fn from_array([east, south, west, north]: [T; 4]) -> BySeat<T> {
        BySeat::new(east, south, west, north)
    }

    /// The value of `seat`.
    pub const fn get(&self, seat: Seat) -> &T {
        match seat {
            Seat::East => &self.east,
            Seat::South => &self.south,
            Seat::West => &self.west,
            Seat::North => &self.north,
        }
    }

    /// The value of `seat`, mutably.
    pub fn get_mut(&mut self, seat: Seat) -> &mut T {
        match seat {
            Seat::East => &mut self.east,
            Seat::South => &mut self.south,
            Seat::West => &mut self.west,
            Seat::North => &mut self.north,
        }
    }

    /// Each value transformed by `f`, called in turn order.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> BySeat<U> {
        let [east, south, west, north] = self.into_array();
        BySeat::new(f(east), f(south), f(west), f(north))
    }

    /// Each value transformed by `f` together with its seat, called in turn order.
    pub fn map_with_seat<U>(self, mut f: impl FnMut(Seat, T) -> U) -> BySeat<U> {
        let [east, south, west, north] = self.into_array();
        BySeat::new(
            f(Seat::East, east),
            f(Seat::South, south),
            f(Seat::West, west),
            f(Seat::North, north),
        )
    }

    /// References to the four values.
    pub const fn as_ref(&self) -> BySeat<&T> {
        BySeat::new(&self.east, &self.south, &self.west, &self.north)
    }

    /// The values in turn order.
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        [&self.east, &self.south, &self.west, &self.north].into_iter()
    }

    /// The values in turn order, mutably.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        [
            &mut self.east,
            &mut self.south,
            &mut self.west,
            &mut self.north,
        ]
        .into_iter()
    }

    /// The seats with their values, in turn order.
    pub fn entries(&self) -> impl Iterator<Item = (Seat, &T)> {
        Seat::ALL.into_iter().zip(self.iter())
    }
}

impl<T> Index<Seat> for BySeat<T> {
    type Output = T;

    fn index(&self, seat: Seat) -> &T {
        self.get(seat)
    }
}

impl<T> IndexMut<Seat> for BySeat<T> {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        self.get_mut(seat)
    }
}

impl<T> IntoIterator for BySeat<T> {
    type Item = T;
    type IntoIter = std::array::IntoIter<T, 4>;

    /// The values in turn order.
    fn into_iter(self) -> Self::IntoIter {
        self.into_array().into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_order_goes_round_the_table() {
        for s in Seat::ALL {
            assert_eq!(s.next().previous(), s);
            assert_eq!(s.opposite().opposite(), s);
            assert_eq!(Seat::from_index(s.index()), Some(s));
            assert_eq!(Seat::from(s.wind()), s);
            assert_eq!(s.relation_to(s), None);
            assert_eq!(s.relation_to(s.previous()), Some(Claim::Left));
            assert_eq!(s.relation_to(s.next()), Some(Claim::Right));
            assert_eq!(s.relation_to(s.opposite()), Some(Claim::Opposite));
            let others = s.others();
            assert!(!others.contains(&s));
            assert_eq!(others.map(|o| s.turns_until(o)), [1, 2, 3]);
        }
        assert_eq!(Seat::East.next(), Seat::South);
        assert_eq!(Seat::from_index(4), None);
    }

    #[test]
    fn seat_numbers_outside_the_table_are_violations() {
        assert_eq!(
            Seat::from_number(2, FieldPath::of("winner")),
            Ok(Seat::West)
        );
        for n in [-1, 4, i64::MAX, i64::MIN] {
            let v = Seat::from_number(n, FieldPath::of("winner")).unwrap_err();
            assert_eq!(v.code, ViolationCode::SeatInvalid);
            assert_eq!(v.path.to_string(), "winner");
        }
    }

    #[test]
    fn by_seat_accessors() {
        let mut b = BySeat::new_with(Seat::index);
        assert_eq!(b[Seat::West], 2);
        *b.get_mut(Seat::North) += 10;
        assert_eq!(b.into_array(), [0, 1, 2, 13]);
        assert_eq!(b.map(|x| x * 2).into_array(), [0, 2, 4, 26]);
        assert_eq!(
            b.entries().map(|(s, &v)| (s, v)).last(),
            Some((Seat::North, 13))
        );
        assert_eq!(b.into_iter().sum::<usize>(), 16);
        assert_eq!(BySeat::from_array(b.into_array()), b);
    }
}
