//! The groups the tables cover, and the shapes they are asked about.

/// The most tiles of one group the tables cover.
pub const MAX_TILES: usize = 14;
/// Sets of a shape.
pub const MAX_SETS: usize = 4;
/// `(m, p)` slots of a group's distances: five counts of sets by two of pairs, slot
/// `2m + p`.
pub const SLOTS: usize = (MAX_SETS + 1) * 2;

/// The two kinds of group, as `(kinds, chows)`.
pub const SUITS: (usize, bool) = (9, true);
/// The honours: seven kinds, no chows.
pub const HONOURS: (usize, bool) = (7, false);
