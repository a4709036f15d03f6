//! The score sheet: the chosen reading as elements, and each fan with the elements that form it.

use super::Scoring;
use crate::fan::Fan;
use crate::ruleset::Ruleset;
use crate::shape::{Reading, Set, SetKind};
use crate::tile::Tile;

/// What an element of a reading is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElementKind {
    /// Three consecutive tiles.
    Chow,
    /// Three identical tiles.
    Pung,
    /// Four identical tiles.
    Kong,
    /// Two identical tiles.
    Pair,
    /// The nine tiles of a knitted straight (组合龙), counted as three sets.
    KnittedStraight,
    /// A lone tile of 十三幺 or 全不靠.
    Single,
}

/// The tiles of an element, kept inline: at most nine (the knitted straight). Reads as a
/// slice.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ElementTiles {
    tiles: [Tile; 9],
    len: u8,
}

impl ElementTiles {
    /// The tiles of `slice`.
    ///
    /// # Panics
    /// If there are more than nine: no element has more.
    fn new(slice: &[Tile]) -> Self {
        let mut tiles = [Tile::ALL[0]; 9];
        tiles[..slice.len()].copy_from_slice(slice);
        ElementTiles {
            tiles,
            // At most nine, checked by the copy above.
            len: u8::try_from(slice.len()).unwrap_or(9),
        }
    }
}

impl std::ops::Deref for ElementTiles {
    type Target = [Tile];

    fn deref(&self) -> &[Tile] {
        &self.tiles[..usize::from(self.len)]
    }
}

impl std::fmt::Debug for ElementTiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// One element of a reading: a set, the pair, the knitted tiles or a single tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Element {
    /// What it is.
    pub kind: ElementKind,
    /// Its tiles.
    pub tiles: ElementTiles,
    /// Declared as a meld (including a concealed kong).
    pub declared: bool,
    /// Exposed with a claimed tile.
    pub claimed: bool,
}

impl Element {
    fn from_set(s: Set) -> Element {
        let kind = match s.kind {
            SetKind::Chow => ElementKind::Chow,
            SetKind::Pung => ElementKind::Pung,
            SetKind::Kong => ElementKind::Kong,
        };
        let tiles = match s.kind {
            SetKind::Chow => {
                let second = s.tile.succ().unwrap_or(s.tile);
                ElementTiles::new(&[s.tile, second, second.succ().unwrap_or(second)])
            }
            SetKind::Pung => ElementTiles::new(&[s.tile; 3]),
            SetKind::Kong => ElementTiles::new(&[s.tile; 4]),
        };
        Element {
            kind,
            tiles,
            declared: s.declared,
            claimed: s.claimed,
        }
    }

    fn pair(t: Tile) -> Element {
        Element {
            kind: ElementKind::Pair,
            tiles: ElementTiles::new(&[t, t]),
            declared: false,
            claimed: false,
        }
    }

    fn single(t: Tile) -> Element {
        Element {
            kind: ElementKind::Single,
            tiles: ElementTiles::new(&[t]),
            declared: false,
            claimed: false,
        }
    }

    fn first(&self) -> Tile {
        self.tiles[0]
    }

    fn is_pung_like(&self) -> bool {
        matches!(self.kind, ElementKind::Pung | ElementKind::Kong)
    }
}

/// The shape of a reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// Four sets and a pair.
    Standard,
    /// 七对.
    SevenPairs,
    /// 十三幺.
    ThirteenOrphans,
    /// 全不靠 / 七星不靠.
    HonorsAndKnitted,
    /// 组合龙 + a set + a pair.
    KnittedStraight,
}

impl Reading {
    /// The shape.
    pub const fn shape(&self) -> Shape {
        match self {
            Reading::Standard { .. } => Shape::Standard,
            Reading::SevenPairs { .. } => Shape::SevenPairs,
            Reading::ThirteenOrphans { .. } => Shape::ThirteenOrphans,
            Reading::HonorsAndKnitted { .. } => Shape::HonorsAndKnitted,
            Reading::KnittedStraight { .. } => Shape::KnittedStraight,
        }
    }

    /// The elements, declared melds first.
    pub fn elements(&self) -> Vec<Element> {
        let mut out = Vec::new();
        self.elements_into(&mut out);
        out
    }

    /// Replaces the contents of `out` with [`Reading::elements`], in its room.
    pub fn elements_into(&self, out: &mut Vec<Element>) {
        out.clear();
        match self {
            Reading::Standard { sets, pair } => {
                out.extend(sets.iter().map(|s| Element::from_set(*s)));
                out.push(Element::pair(*pair));
            }
            Reading::SevenPairs { pairs } => out.extend(pairs.iter().map(|&t| Element::pair(t))),
            Reading::ThirteenOrphans { pair } => {
                out.extend(
                    Tile::ALL
                        .into_iter()
                        .filter(|t| t.is_terminal_or_honor() && t != pair)
                        .map(Element::single),
                );
                out.push(Element::pair(*pair));
            }
            Reading::HonorsAndKnitted { tiles } => {
                out.extend(tiles.iter().map(|&t| Element::single(t)));
            }
            Reading::KnittedStraight { knitted, set, pair } => {
                let set = Element::from_set(*set);
                // A declared set comes first, as declared melds do; a concealed one after
                // the knitted straight.
                if set.declared {
                    out.push(set);
                }
                out.push(Element {
                    kind: ElementKind::KnittedStraight,
                    tiles: ElementTiles::new(knitted),
                    declared: false,
                    claimed: false,
                });
                if !set.declared {
                    out.push(set);
                }
                out.push(Element::pair(*pair));
            }
        }
    }
}

/// One line of the score sheet.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FanLine {
    /// The fan.
    pub fan: Fan,
    /// Points per instance under the ruleset.
    pub points: u16,
    /// Number of instances.
    pub count: u8,
    /// Indices into [`Reading::elements`] of the elements that form the fan.
    pub elements: ElementSet,
}

/// A set of indices into a reading's elements, kept as bits: a reading has at most 14
/// elements (the singles of 全不靠), so every index fits. Iterates in increasing order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ElementSet(u32);

impl ElementSet {
    /// The largest index a set can hold, plus one.
    pub const CAPACITY: usize = 32;

    /// The bit of index `i`; `None` from [`ElementSet::CAPACITY`] on.
    fn bit(i: usize) -> Option<u32> {
        u32::try_from(i).ok().and_then(|i| 1u32.checked_shl(i))
    }

    /// The first `n` indices (all of them past [`ElementSet::CAPACITY`]).
    fn first(n: usize) -> Self {
        ElementSet(ElementSet::bit(n).map_or(u32::MAX, |bit| bit - 1))
    }

    /// Adds index `i`. An index of [`ElementSet::CAPACITY`] or more, which no reading has,
    /// is left out rather than wrapped onto another.
    pub fn insert(&mut self, i: usize) {
        if let Some(bit) = ElementSet::bit(i) {
            self.0 |= bit;
        }
    }

    /// Whether it holds index `i`.
    pub fn contains(self, i: usize) -> bool {
        ElementSet::bit(i).is_some_and(|bit| self.0 & bit != 0)
    }

    /// How many indices it holds.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether it holds none.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The indices, lowest first.
    pub fn iter(self) -> impl Iterator<Item = usize> + Clone {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                i
            })
        })
    }
}

impl FromIterator<usize> for ElementSet {
    fn from_iter<I: IntoIterator<Item = usize>>(indices: I) -> Self {
        let mut set = ElementSet::default();
        for i in indices {
            set.insert(i);
        }
        set
    }
}

impl FanLine {
    /// `points × count`.
    pub fn total(&self) -> u32 {
        u32::from(self.points) * u32::from(self.count)
    }
}

impl Scoring {
    /// The score sheet: every fan (highest first) with the elements that form it.
    pub fn lines(&self, rules: &Ruleset) -> Vec<FanLine> {
        let elements = self.reading.map(|r| r.elements()).unwrap_or_default();
        self.lines_of(rules, &elements)
    }

    /// [`Scoring::lines`] for the elements of this scoring's reading, already at hand.
    pub fn lines_of(&self, rules: &Ruleset, elements: &[Element]) -> Vec<FanLine> {
        let mut lines = Vec::new();
        self.lines_into(rules, elements, &mut lines);
        lines
    }

    /// Replaces the contents of `lines` with [`Scoring::lines_of`], in its room.
    pub fn lines_into(&self, rules: &Ruleset, elements: &[Element], lines: &mut Vec<FanLine>) {
        lines.clear();
        // The presence mask's order (cheaper than every fan's count): sorted below anyway.
        // Its iterator gives no length beforehand: the room is made from the mask.
        lines.reserve(self.fans.present().count_ones() as usize);
        lines.extend(self.fans.iter_by_value().map(|(fan, count)| FanLine {
            fan,
            points: rules.points(fan),
            count,
            elements: attribute(fan, elements, self),
        }));
        lines.sort_by_key(|l| (std::cmp::Reverse(l.points), l.fan));
    }
}

fn all(elements: &[Element]) -> ElementSet {
    ElementSet::first(elements.len())
}

fn matching(elements: &[Element], pred: impl Fn(&Element) -> bool) -> ElementSet {
    // Bit by bit, without a branch per element: this runs for most lines of every sheet.
    let bits = elements
        .iter()
        .take(ElementSet::CAPACITY)
        .enumerate()
        .fold(0u32, |bits, (i, e)| bits | u32::from(pred(e)) << i);
    ElementSet(bits)
}

/// The elements a fan is made of (a kiosk highlights them).
#[allow(clippy::too_many_lines)] // one arm per fan family, kept in one place
fn attribute(fan: Fan, elements: &[Element], s: &Scoring) -> ElementSet {
    let win = s.winning_tile;
    let with_win = || {
        elements
            .iter()
            .position(|e| !e.declared && e.tiles.contains(&win))
            .into_iter()
            .collect::<ElementSet>()
    };
    match fan {
        Fan::FlowerTiles => ElementSet::default(),
        Fan::DragonPung => matching(elements, |e| e.is_pung_like() && e.first().is_dragon()),
        Fan::PrevalentWind => matching(elements, |e| {
            e.is_pung_like() && e.first() == s.prevalent_wind.tile()
        }),
        Fan::SeatWind => matching(elements, |e| {
            e.is_pung_like() && e.first() == s.seat_wind.tile()
        }),
        Fan::PungOfTerminalsOrHonors => matching(elements, |e| {
            e.is_pung_like()
                && (e.first().is_terminal()
                    || (e.first().is_wind()
                        && e.first() != s.prevalent_wind.tile()
                        && e.first() != s.seat_wind.tile()))
        }),
        Fan::MeldedKong | Fan::TwoMeldedKongs => {
            matching(elements, |e| e.kind == ElementKind::Kong && e.claimed)
        }
        Fan::ConcealedKong | Fan::TwoConcealedKongs => {
            matching(elements, |e| e.kind == ElementKind::Kong && !e.claimed)
        }
        Fan::MeldedAndConcealedKongs | Fan::ThreeKongs | Fan::FourKongs => {
            matching(elements, |e| e.kind == ElementKind::Kong)
        }
        Fan::TwoConcealedPungs | Fan::ThreeConcealedPungs | Fan::FourConcealedPungs => {
            matching(elements, |e| e.is_pung_like() && !e.claimed)
        }
        Fan::BigFourWinds | Fan::BigThreeWinds | Fan::LittleFourWinds => matching(elements, |e| {
            e.kind != ElementKind::Chow && e.first().is_wind()
        }),
        Fan::BigThreeDragons | Fan::LittleThreeDragons | Fan::TwoDragonPungs => {
            matching(elements, |e| {
                e.kind != ElementKind::Chow && e.first().is_dragon()
            })
        }
        Fan::TileHog => {
            let mut counts = [0u8; 34];
            for e in elements {
                for t in e.tiles.iter() {
                    counts[t.index()] += 1;
                }
            }
            matching(elements, |e| {
                e.kind != ElementKind::Kong && e.tiles.iter().any(|t| counts[t.index()] == 4)
            })
        }
        Fan::EdgeWait
        | Fan::ClosedWait
        | Fan::SingleWait
        | Fan::SelfDrawn
        | Fan::LastTile
        | Fan::LastTileDraw
        | Fan::LastTileClaim
        | Fan::OutWithReplacementTile
        | Fan::RobbingTheKong => with_win(),
        Fan::PureDoubleChow
        | Fan::MixedDoubleChow
        | Fan::ShortStraight
        | Fan::TwoTerminalChows
        | Fan::PureStraight
        | Fan::MixedStraight
        | Fan::MixedTripleChow
        | Fan::MixedShiftedChows
        | Fan::PureShiftedChows
        | Fan::PureTripleChow => chow_group(fan, elements),
        Fan::DoublePung | Fan::TriplePung | Fan::PureShiftedPungs | Fan::MixedShiftedPungs => {
            pung_group(fan, elements)
        }
        Fan::AllGreen
        | Fan::NineGates
        | Fan::SevenShiftedPairs
        | Fan::ThirteenOrphans
        | Fan::AllTerminals
        | Fan::AllHonors
        | Fan::PureTerminalChows
        | Fan::QuadrupleChow
        | Fan::FourPureShiftedPungs
        | Fan::FourPureShiftedChows
        | Fan::AllTerminalsAndHonors
        | Fan::SevenPairs
        | Fan::GreaterHonorsAndKnittedTiles
        | Fan::AllEvenPungs
        | Fan::FullFlush
        | Fan::UpperTiles
        | Fan::MiddleTiles
        | Fan::LowerTiles
        | Fan::ThreeSuitedTerminalChows
        | Fan::AllFives
        | Fan::LesserHonorsAndKnittedTiles
        | Fan::UpperFour
        | Fan::LowerFour
        | Fan::ReversibleTiles
        | Fan::ChickenHand
        | Fan::AllPungs
        | Fan::HalfFlush
        | Fan::AllTypes
        | Fan::MeldedHand
        | Fan::OutsideHand
        | Fan::FullyConcealedHand
        | Fan::ConcealedHand
        | Fan::AllChows
        | Fan::AllSimples
        | Fan::OneVoidedSuit
        | Fan::NoHonors => all(elements),
        Fan::KnittedStraight => matching(elements, |e| {
            e.kind == ElementKind::KnittedStraight
                || (e.kind == ElementKind::Single && e.first().is_numbered())
        }),
    }
}

/// The chows that form a chow-combination fan: the first group of two or three chows whose
/// middle tiles satisfy the fan's pattern.
fn chow_group(fan: Fan, elements: &[Element]) -> ElementSet {
    let chows = matching(elements, |e| e.kind == ElementKind::Chow);
    let key = |i: usize| {
        (
            elements[i].first().group(),
            elements[i].first().rank_or_zero(),
        )
    };
    let two = |a: (u8, u8), b: (u8, u8)| {
        if fan == Fan::PureDoubleChow {
            a == b
        } else if fan == Fan::MixedDoubleChow {
            a.0 != b.0 && a.1 == b.1
        } else if fan == Fan::ShortStraight {
            a.0 == b.0 && a.1.abs_diff(b.1) == 3
        } else if fan == Fan::TwoTerminalChows {
            a.0 == b.0 && a.1.abs_diff(b.1) == 6 && a.1.min(b.1) == 1
        } else {
            false
        }
    };
    let three = |k: [(u8, u8); 3]| {
        let mut r = [k[0].1, k[1].1, k[2].1];
        r.sort_unstable();
        let same_suit = k[0].0 == k[1].0 && k[1].0 == k[2].0;
        let all_suits = k[0].0 != k[1].0 && k[0].0 != k[2].0 && k[1].0 != k[2].0;
        let step1 = r[0] + 1 == r[1] && r[1] + 1 == r[2];
        let step2 = r[0] + 2 == r[1] && r[1] + 2 == r[2];
        [
            (Fan::PureStraight, same_suit && r == [1, 4, 7]),
            (Fan::MixedStraight, all_suits && r == [1, 4, 7]),
            (Fan::MixedTripleChow, all_suits && r[0] == r[2]),
            (Fan::MixedShiftedChows, all_suits && step1),
            (Fan::PureShiftedChows, same_suit && (step1 || step2)),
            (Fan::PureTripleChow, same_suit && r[0] == r[2]),
        ]
        .contains(&(fan, true))
    };
    let mut out = ElementSet::default();
    for (x, a) in chows.iter().enumerate() {
        for (y, b) in chows.iter().enumerate().skip(x + 1) {
            if two(key(a), key(b)) {
                out.insert(a);
                out.insert(b);
            }
            for c in chows.iter().skip(y + 1) {
                if three([key(a), key(b), key(c)]) {
                    return [a, b, c].into_iter().collect();
                }
            }
        }
    }
    out
}

/// The pungs that form a pung-combination fan.
fn pung_group(fan: Fan, elements: &[Element]) -> ElementSet {
    let pungs = matching(elements, |e| e.is_pung_like() && e.first().is_numbered());
    let key = |i: usize| {
        (
            elements[i].first().group(),
            elements[i].first().rank_or_zero(),
        )
    };
    let mut out = ElementSet::default();
    for (x, a) in pungs.iter().enumerate() {
        for (y, b) in pungs.iter().enumerate().skip(x + 1) {
            if fan == Fan::DoublePung && key(a).0 != key(b).0 && key(a).1 == key(b).1 {
                out.insert(a);
                out.insert(b);
            }
            for c in pungs.iter().skip(y + 1) {
                let k = [key(a), key(b), key(c)];
                let mut r = [k[0].1, k[1].1, k[2].1];
                r.sort_unstable();
                let same_suit = k[0].0 == k[1].0 && k[1].0 == k[2].0;
                let all_suits = k[0].0 != k[1].0 && k[0].0 != k[2].0 && k[1].0 != k[2].0;
                let consecutive = r[0] + 1 == r[1] && r[1] + 1 == r[2];
                let hit = [
                    (Fan::TriplePung, all_suits && r[0] == r[2]),
                    (Fan::PureShiftedPungs, same_suit && consecutive),
                    (Fan::MixedShiftedPungs, all_suits && consecutive),
                ]
                .contains(&(fan, true));
                if hit {
                    return [a, b, c].into_iter().collect();
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use proptest::prelude::*;

    use super::ElementSet;

    proptest! {
        /// A set holds what a sorted, deduplicated list would, in the same order.
        #[test]
        fn an_element_set_is_a_sorted_list_without_repeats(
            indices in proptest::collection::vec(0..ElementSet::CAPACITY, 0..40),
        ) {
            let set: ElementSet = indices.iter().copied().collect();
            let expected: BTreeSet<usize> = indices.iter().copied().collect();
            prop_assert_eq!(set.iter().collect::<Vec<_>>(), expected.iter().copied().collect::<Vec<_>>());
            prop_assert_eq!(set.len(), expected.len());
            prop_assert_eq!(set.is_empty(), expected.is_empty());
            for i in 0..ElementSet::CAPACITY + 8 {
                prop_assert_eq!(set.contains(i), expected.contains(&i));
            }
        }

        /// The first `n` indices are those a list of them collects into, up to the capacity.
        #[test]
        fn the_first_indices_are_those_below_n(n in 0..ElementSet::CAPACITY + 40) {
            let listed: ElementSet = (0..n.min(ElementSet::CAPACITY)).collect();
            prop_assert_eq!(ElementSet::first(n), listed);
        }
    }

    #[test]
    fn indices_beyond_the_capacity_are_left_out() {
        let set: ElementSet = [
            3,
            ElementSet::CAPACITY,
            ElementSet::CAPACITY + 1,
            usize::MAX,
        ]
        .into_iter()
        .collect();
        assert_eq!(set.iter().collect::<Vec<_>>(), [3]);
    }
}
