//! Per-group tables of the distance to sets and a pair, read once.
//!
//! A group is one suit (nine ranks, chows allowed) or the honours (seven kinds, no chows).
//! For the counts `v` of a group, `Distances` holds, for `m` sets (0–4) and `p` pairs
//! (0–1), the fewest tiles missing from the nearest `m` sets and `p` pairs of that group:
//! `3m + 2p −` the most tiles of `v` they can hold. Sets never span two groups, so the
//! distance of a whole hand to `n` sets and a pair is the best split of the sets and the
//! pair over its four groups (`combine`), minus one: a table look-up per group instead
//! of a search per hand.
//!
//! The tables cover every group of at most 14 tiles with at most four copies of a kind:
//! 405,350 suit entries and 43,130 honour entries of 17 bytes (the class of their
//! distances, of 165, and where one more tile lowers each distance), and beside each suit
//! entry 16 bytes of the places where one tile fewer keeps each distance (14.1 MB in all).
//! Beside them, every two classes' distances joined (272 kB): two groups joined are one
//! look-up (`pair`). They are computed when the crate is built
//! (`crates/mcr-tables`, run by `build.rs`: a dynamic programme over the counts of some 6 G
//! instructions) and embedded LZ4-compressed; the first use reads them back (README,
//! Performance, for its cost), which a server's warm-up does before it serves.
//! A group's index takes two look-ups: the first five kinds' part by their base-5 code,
//! the others' by theirs and the tiles the first five hold (60 kB of index tables).

use std::sync::OnceLock;

use mcr_tables::{GroupTables, MAX_SETS, MAX_TILES, Positions, SLOTS};

/// The distances of one group to `m` sets and `p` pairs (each at most 14).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Distances([u8; SLOTS]);

impl Distances {
    /// The tiles missing from the nearest `m` sets and `p` pairs.
    pub(crate) const fn get(self, m: usize, p: usize) -> u8 {
        self.0[slot(m, p)]
    }
}

const fn slot(m: usize, p: usize) -> usize {
    m * 2 + p
}

/// The best split of the sets and the pair over two disjoint groups: for each `(m, p)`, the
/// least of `a(ma, pa) + b(m − ma, p − pa)`. Every distance is at most 14 (`3m + 2p` at
/// most, `(0, 0)` always 0), so the sums never overflow and the result keeps the bound.
pub(crate) fn combine(a: Distances, b: Distances) -> Distances {
    combine_up_to::<MAX_SETS>(a, b)
}

/// [`combine`] for at most `M` sets (beside a knitted straight, one): the entries for more
/// sets are left at `u8::MAX`, and only [`combine_up_to`] and [`missing_with`] for at most
/// `M` sets may read the result.
// `0..M + 1`, not `0..=M`: the half-open range unrolls fully (5% fewer instructions a
// hand on the analysis corpus).
#[allow(clippy::range_plus_one)]
pub(crate) fn combine_up_to<const M: usize>(a: Distances, b: Distances) -> Distances {
    let (a, b) = (a.0, b.0);
    let mut out = [u8::MAX; SLOTS];
    // Fixed bounds, so that the compiler unrolls both loops into straight-line code.
    for m in 0..M + 1 {
        for ma in 0..M + 1 {
            if ma <= m {
                let (sa, sb) = (slot(ma, 0), slot(m - ma, 0));
                out[slot(m, 0)] = out[slot(m, 0)].min(a[sa] + b[sb]);
                out[slot(m, 1)] = out[slot(m, 1)]
                    .min(a[sa] + b[sb + 1])
                    .min(a[sa + 1] + b[sb]);
            }
        }
    }
    Distances(out)
}

/// The fewest tiles missing from `m` sets and the pair, split between `a` and the rest
/// (whose distances are `rest`).
#[allow(clippy::range_plus_one)]
pub(crate) fn missing_with(a: Distances, rest: Distances, m: usize) -> u8 {
    let (a, rest) = (a.0, rest.0);
    let mut best = u8::MAX;
    for ma in 0..MAX_SETS + 1 {
        if ma <= m {
            let (sa, sr) = (slot(ma, 0), slot(m - ma, 0));
            best = best.min(a[sa] + rest[sr + 1]).min(a[sa + 1] + rest[sr]);
        }
    }
    best
}

/// For each `(m, p)`, the places of a group (ranks of a suit, kinds of the honours) where
/// one more tile lowers the distance to `m` sets and `p` pairs: nine bits a slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lowering(u128);

impl Lowering {
    /// The places where one more tile lowers the distance to `m` sets and `p` pairs.
    pub(crate) fn places(self, m: usize, p: usize) -> u16 {
        // Nine bits a slot: the cast keeps exactly them.
        ((self.0 >> (9 * slot(m, p))) & 0x1FF) as u16
    }
}

/// For each `(m, p)`, the places of a suit where one tile fewer keeps the distance to `m`
/// sets and `p` pairs: nine bits a slot, only places held. The discard table asks, for many
/// fourteen-tile hands, which discards leave them ready; with these bits that is one
/// look-up a suit instead of one a kind held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Keeping(u128);

impl Keeping {
    /// The places where one tile fewer keeps the distance to `m` sets and `p` pairs.
    pub(crate) fn places(self, m: usize, p: usize) -> u16 {
        // Nine bits a slot: the cast keeps exactly them.
        ((self.0 >> (9 * slot(m, p))) & 0x1FF) as u16
    }
}

/// A group's entry in the tables.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    /// The distances of the group.
    pub(crate) distances: Distances,
    /// Their class: the place of these distances among every group's (the suits' and the
    /// honours' in one numbering), by which [`pair`] reads two groups joined.
    class: u16,
    /// Where one more tile lowers them; `None` for a group of 14 tiles, whose next tile
    /// is past the tables. A place that holds four copies never lowers them here.
    pub(crate) lowering: Option<Lowering>,
}

/// The look-up tables of one kind of group.
struct GroupTable {
    /// The index split in two look-ups ([`GroupTable::index`]): the first `HEAD` positions'
    /// part of the index by their base-5 code, with the tiles they hold in the top bits
    /// ([`NO_INDEX`] past 14 tiles)…
    head: Vec<u32>,
    /// …and the other positions' part by the tiles still allowed and their base-5 code
    /// (`tail[left · 5^(kinds − HEAD) + code]`, [`NO_INDEX`] past `left` tiles).
    tail: Vec<u32>,
    /// The distinct distances of this kind of group, and each group's by index: few
    /// distances (110 for the suits, 55 for the honours), so a byte a group.
    classes: Vec<Distances>,
    class: Vec<u8>,
    /// The number of this kind's first class among every group's.
    first_class: u16,
    /// [`Lowering`] by index, little-endian.
    lowering: Vec<[u8; 16]>,
    /// [`Keeping`] by index: for the suits only (the honours, seven kinds that hold few tiles
    /// in a hand, are asked one look-up a kind held, which keeps the tables 0.7 MB smaller).
    keeping: Vec<[u8; 16]>,
}

/// The positions of a group read by the first look-up of its index.
const HEAD: usize = 5;
/// Not an index: more than 14 tiles.
const NO_INDEX: u32 = u32::MAX;
/// The bits of a head entry that hold its part of the index (the tiles held above them).
const HEAD_INDEX_BITS: u32 = 24;

/// The base-5 codes of `positions` counts.
const fn codes(positions: usize) -> usize {
    let mut codes = 1;
    let mut i = 0;
    while i < positions {
        codes *= 5;
        i += 1;
    }
    codes
}

/// The base-5 code of counts (each at most 4), the first position lowest.
fn code(v: &[u8]) -> usize {
    v.iter().rev().fold(0, |code, &n| code * 5 + usize::from(n))
}

impl GroupTable {
    /// The tables of one kind of group from the bytes `build.rs` embedded, its classes
    /// numbered from `first_class` on.
    fn load(bytes: &[u8], first_class: usize) -> GroupTable {
        let tables = GroupTables::decode(bytes)
            .expect("build.rs embeds the tables in the format of the same mcr-tables");
        let (head, tail) = split_index(Positions::new(tables.kinds).offsets());
        GroupTable {
            head,
            tail,
            classes: tables.classes.into_iter().map(Distances).collect(),
            class: tables.class,
            first_class: u16::try_from(first_class).expect("a few hundred classes"),
            lowering: tables.lowering,
            keeping: tables.keeping,
        }
    }

    /// The same index from two look-ups, and the tiles of the group: the counts of the first
    /// [`HEAD`] positions and the `T` others.
    fn index<const T: usize>(&self, head: [u8; HEAD], tail: &[u8; T]) -> Option<(usize, usize)> {
        if head.iter().chain(tail).any(|&n| n > 4) {
            return None;
        }
        let head = self.head[code(&head)];
        if head == NO_INDEX {
            return None;
        }
        let held = (head >> HEAD_INDEX_BITS) as usize;
        let rest = *self.tail.get((MAX_TILES - held) * codes(T) + code(tail))?;
        if rest == NO_INDEX {
            return None;
        }
        let tiles = held + tail.iter().map(|&n| usize::from(n)).sum::<usize>();
        Some((
            ((head & ((1 << HEAD_INDEX_BITS) - 1)) + rest) as usize,
            tiles,
        ))
    }

    fn get<const T: usize>(&self, head: [u8; HEAD], tail: &[u8; T]) -> Option<Entry> {
        let (i, tiles) = self.index(head, tail)?;
        self.entry(i, tiles)
    }

    /// The entry at index `i`, of a group of `tiles` tiles.
    fn entry(&self, i: usize, tiles: usize) -> Option<Entry> {
        let class = *self.class.get(i)?;
        Some(Entry {
            distances: *self.classes.get(usize::from(class))?,
            class: self.first_class + u16::from(class),
            lowering: (tiles < MAX_TILES).then(|| Lowering(u128::from_le_bytes(self.lowering[i]))),
        })
    }
}

impl GroupTable {
    /// The entry and the keeping places of a suit's counts.
    fn get_keeping(&self, head: [u8; HEAD], tail: [u8; 4]) -> Option<(Entry, Keeping)> {
        let (i, tiles) = self.index(head, &tail)?;
        Some((
            self.entry(i, tiles)?,
            Keeping(u128::from_le_bytes(*self.keeping.get(i)?)),
        ))
    }
}

/// The two look-up tables of [`GroupTable::index`] from the per-position offsets.
fn split_index(offsets: &[[[u32; 5]; MAX_TILES + 1]]) -> (Vec<u32>, Vec<u32>) {
    let (head_at, tail_at) = offsets.split_at(HEAD);
    // The digits of a base-5 code, the first position lowest.
    let digits = |mut code: usize, positions: usize| {
        (0..positions).map(move |_| {
            let digit = code % 5;
            code /= 5;
            digit
        })
    };
    // The part of the index of `positions` holding the digits of `code`, from `left`
    // tiles allowed; `None` past them.
    let part = |at: &[[[u32; 5]; MAX_TILES + 1]], code: usize, mut left: usize| {
        let mut index = 0u32;
        for (row, n) in at.iter().zip(digits(code, at.len())) {
            if n > left {
                return None;
            }
            index += row[left][n];
            left -= n;
        }
        Some((index, MAX_TILES - left))
    };
    let head = (0..codes(head_at.len()))
        .map(|code| match part(head_at, code, MAX_TILES) {
            Some((index, held)) => index | (u32::try_from(held).unwrap_or(0) << HEAD_INDEX_BITS),
            None => NO_INDEX,
        })
        .collect();
    let tail = (0..=MAX_TILES)
        .flat_map(|left| {
            (0..codes(tail_at.len())).map(move |code| match part(tail_at, code, left) {
                Some((index, _)) => index,
                None => NO_INDEX,
            })
        })
        .collect();
    (head, tail)
}

/// The tables as `build.rs` wrote them (`crates/mcr-tables`' format).
static SUITS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/suits.tables"));
static HONOURS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/honours.tables"));

struct Tables {
    suit: GroupTable,
    honors: GroupTable,
    /// `pairs[a · classes + b]`: the distances of classes `a` and `b` joined ([`combine`]),
    /// for every two classes (165², 272 kB).
    pairs: Vec<Distances>,
    classes: usize,
}

impl Tables {
    fn load() -> Tables {
        let suit = GroupTable::load(SUITS, 0);
        let honors = GroupTable::load(HONOURS, suit.classes.len());
        let all: Vec<Distances> = suit
            .classes
            .iter()
            .chain(&honors.classes)
            .copied()
            .collect();
        let pairs = all
            .iter()
            .flat_map(|&a| all.iter().map(move |&b| combine(a, b)))
            .collect();
        Tables {
            suit,
            honors,
            pairs,
            classes: all.len(),
        }
    }
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(Tables::load)
}

/// Two groups joined, as [`combine`] joins their distances, read from the table of every
/// two classes: one look-up instead of a join.
pub(crate) fn pair(a: &Entry, b: &Entry) -> Distances {
    let t = tables();
    t.pairs[usize::from(a.class) * t.classes + usize::from(b.class)]
}

/// Reads the tables now rather than on first use (for a server's start-up).
pub fn warm_up() {
    tables();
}

/// The entry of one suit's nine counts; `None` past four copies or 14 tiles.
pub(crate) fn suit(v: &[u8; 9]) -> Option<Entry> {
    let (head, tail) = v.split_first_chunk::<HEAD>()?;
    tables().suit.get(*head, tail.first_chunk::<4>()?)
}

/// The entry of suit `s` (0–2) of `counts` and its keeping places; `None` past four copies or
/// 14 tiles.
pub(crate) fn suit_keeping(counts: &[u8; 34], s: usize) -> Option<(Entry, Keeping)> {
    let v = counts.get(9 * s..)?.first_chunk::<9>()?;
    let (head, tail) = v.split_first_chunk::<HEAD>()?;
    tables().suit.get_keeping(*head, *tail.first_chunk::<4>()?)
}

/// The entry of the seven honour counts; `None` past four copies or 14 tiles.
pub(crate) fn honors(v: [u8; 7]) -> Option<Entry> {
    let (head, tail) = v.split_first_chunk::<HEAD>()?;
    tables().honors.get(*head, tail.first_chunk::<2>()?)
}

/// The entry of group `g` (0–2 the suits, 3 the honours) of `counts`.
pub(crate) fn group(counts: &[u8; 34], g: usize) -> Option<Entry> {
    match g {
        0..=2 => suit(counts[9 * g..].first_chunk::<9>()?),
        _ => honors(*counts[27..].first_chunk::<7>()?),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The next of a repeatable run of pseudo-random words.
    fn xorshift(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    /// The two look-ups give the positional index for every group, and `None` beyond.
    #[test]
    fn split_index_agrees() {
        for (table, (kinds, _)) in [
            (&tables().suit, mcr_tables::SUITS),
            (&tables().honors, mcr_tables::HONOURS),
        ] {
            let positions = Positions::new(kinds);
            let mut counts = [0u8; 9];
            let v = &mut counts[..kinds];
            loop {
                let (head, tail) = v.split_at(HEAD);
                let head = head.try_into().expect("five");
                let got = match *tail {
                    [n6, n7] => table.index(head, &[n6, n7]),
                    [n6, n7, n8, n9] => table.index(head, &[n6, n7, n8, n9]),
                    _ => unreachable!("groups of seven or nine kinds"),
                }
                .map(|(i, _)| i);
                assert_eq!(got, positions.of(v), "{v:?}");
                // The next counts in base 5, the first position lowest.
                let Some(at) = v.iter().position(|&n| n < 4) else {
                    break;
                };
                v[..at].fill(0);
                v[at] += 1;
            }
        }
    }

    /// The keeping places are those where the group with one tile fewer has the same
    /// distance.
    #[test]
    fn keeping_agrees_with_the_look_ups() {
        let mut counts = [0u8; 34];
        let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
        for _ in 0..20_000 {
            let mut bits = xorshift(&mut seed);
            let mut left = 14;
            for n in &mut counts[..9] {
                let v = u8::try_from(bits % 5).unwrap_or(0).min(left);
                *n = v;
                left -= v;
                bits /= 5;
            }
            let (entry, keeping) = suit_keeping(&counts, 0).expect("in the tables");
            for place in 0..9 {
                let fewer = (counts[place] > 0).then(|| {
                    let mut less = counts;
                    less[place] -= 1;
                    group(&less, 0).expect("in the tables").distances
                });
                for m in 0..=MAX_SETS {
                    for p in 0..=1 {
                        let keeps = fewer.is_some_and(|f| f.get(m, p) == entry.distances.get(m, p));
                        assert_eq!(keeping.places(m, p) >> place & 1 == 1, keeps, "{counts:?}");
                    }
                }
            }
        }
    }

    /// The embedded tables are those the generator makes now (a stale or mangled embedding
    /// shows here), and what was read back is what was embedded.
    #[test]
    fn embedded_tables_are_generated_ones() {
        for (bytes, (kinds, chows), table) in [
            (SUITS, mcr_tables::SUITS, &tables().suit),
            (HONOURS, mcr_tables::HONOURS, &tables().honors),
        ] {
            let generated = mcr_tables::generate(kinds, chows);
            assert_eq!(GroupTables::decode(bytes).as_ref(), Ok(&generated));
            assert_eq!(
                (&table.class, &table.lowering, &table.keeping),
                (&generated.class, &generated.lowering, &generated.keeping)
            );
            let classes: Vec<_> = table.classes.iter().map(|d| d.0).collect();
            assert_eq!(classes, generated.classes);
        }
    }

    #[test]
    fn sizes() {
        assert_eq!(tables().suit.class.len(), 405_350);
        assert_eq!(tables().honors.class.len(), 43_130);
        assert_eq!(tables().classes, 165);
    }

    /// The table of two classes joined gives what joining the two groups gives, for groups
    /// of every kind in either order.
    #[test]
    fn pairs_are_joins() {
        let mut seed = 0x2545_F491_4F6C_DD1D_u64;
        let mut groups = Vec::new();
        while groups.len() < 2_000 {
            let mut counts = [0u8; 34];
            let mut bits = xorshift(&mut seed);
            for n in &mut counts[..9] {
                *n = u8::try_from(bits % 3).unwrap_or(0);
                bits /= 3;
            }
            for n in &mut counts[27..] {
                *n = u8::try_from(bits % 3).unwrap_or(0);
                bits /= 3;
            }
            groups.extend(group(&counts, 0));
            groups.extend(group(&counts, 3));
        }
        for w in groups.windows(2) {
            let (a, b) = (w[0], w[1]);
            assert_eq!(pair(&a, &b), combine(a.distances, b.distances));
            assert_eq!(pair(&b, &a), combine(a.distances, b.distances));
        }
    }

    #[test]
    fn small_groups() {
        // 123 of a suit: one chow complete, no pair.
        let d = suit(&[1, 1, 1, 0, 0, 0, 0, 0, 0]).expect("small").distances;
        assert_eq!(
            (d.get(1, 0), d.get(1, 1), d.get(0, 1), d.get(2, 0)),
            (0, 2, 1, 3)
        );
        // 13 of a suit: a kanchan, one tile short of a chow.
        let e = suit(&[1, 0, 1, 0, 0, 0, 0, 0, 0]).expect("small");
        assert_eq!(e.distances.get(1, 0), 1);
        // Only the middle rank completes the chow; 1 or 3 again makes a pair instead.
        let lowering = e.lowering.expect("not full");
        assert_eq!(lowering.places(1, 0), 0b10);
        assert_eq!(lowering.places(0, 1), 0b101);
        // Honours never form chows: E S W is one tile of each of three pungs.
        let d = honors([1, 1, 1, 0, 0, 0, 0]).expect("small").distances;
        assert_eq!((d.get(1, 0), d.get(3, 0)), (2, 6));
        assert!(suit(&[5, 0, 0, 0, 0, 0, 0, 0, 0]).is_none());
        assert!(suit(&[4, 4, 4, 3, 0, 0, 0, 0, 0]).is_none());
        assert!(suit(&[4, 4, 4, 2, 0, 0, 0, 0, 0]).is_some_and(|e| e.lowering.is_none()));
        let empty = honors([0; 7]).expect("small").distances;
        for m in 0..=MAX_SETS {
            for p in 0..=1 {
                assert_eq!(usize::from(empty.get(m, p)), 3 * m + 2 * p);
            }
        }
    }
}
