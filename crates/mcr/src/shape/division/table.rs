//! Per-suit tables of divisions, built once.
//!
//! A suit's nine counts (at most four each) divide into sets and at most one pair in a few
//! ways at most. The table lists them for every suit that divides at all: it is built by
//! laying out every multiset of up to four sets (16 kinds: a pung on each rank, a chow
//! from each of ranks 1–7), with or without a pair, that fits in four copies a rank, and
//! grouping the layouts by the counts they make: 21,743 suits divide, in 23,533 ways. A
//! suit is found by its code, its nine counts read as a base-5 number (one `u16` slot for
//! each of the 5⁹ codes, 3.9 MB), which a hand's tiles sum one weight a tile; beside it, by
//! code, the ranks one more tile of which makes the suit divide (3.9 MB), for the only-wait
//! test. The table is built on first use, which a server's warm-up does (README,
//! Performance, for its cost).

use std::sync::OnceLock;

use crate::shape::traits;
use crate::tile::RANK_WEIGHT;

/// Sets of one suit's division.
const MAX_SETS: usize = 4;
/// `SuitDivision::pair` when the division has no pair.
const NO_PAIR: u8 = u8::MAX;

/// One way of dividing a suit. A set is coded `rank << 1 | chow` (rank 0–8, the lowest
/// tile of a chow), so that the codes sort as the calculators sort sets: by rank, a pung
/// before the chow on the same rank.
///
/// Beside the sets, the summaries a reading is scored from without building its sets
/// ([`Summary`]), computed when the table is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SuitDivision {
    sets: [u8; MAX_SETS],
    len: u8,
    pair: u8,
    /// How many divisions the suit has (the same in each of them).
    of: u8,
    pub(crate) summary: Summary,
}

/// What scoring reads of a suit's division, by rank (the suit is the caller's): the chows
/// and pungs as the ranks of their order keys, the traits of its parts, where a tile sits
/// in its chows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Summary {
    /// The ranks (1–9) of the chows' middle tiles, one a byte from the lowest byte, in
    /// ascending order: with the suit's order key in each byte's high nibble they are the
    /// chows' order keys, sorted.
    pub(crate) chow_mids: u32,
    /// The ranks (1–9) of the pungs, likewise.
    pub(crate) pung_ranks: u32,
    /// How many chows; how many pungs.
    pub(crate) chows: u8,
    pub(crate) pungs: u8,
    /// The pungs as a mask of ranks (bit `r` for rank `r + 1`).
    pub(crate) pung_mask: u16,
    /// Ranks at either end of some chow, and in the middle of some chow (bit `r` for rank
    /// `r + 1`): where the winning tile sits, for 边张 and 坎张.
    pub(crate) chow_ends: u16,
    pub(crate) chow_middles: u16,
    /// The AND of the traits ([`crate::shape::traits`]) of the sets and the pair.
    pub(crate) traits: u8,
    /// Pungs of a terminal (rank 1 or 9).
    pub(crate) terminal_pungs: u8,
}

impl Summary {
    fn of(sets: &[u8], pair: u8) -> Summary {
        let mut s = Summary {
            traits: if pair == NO_PAIR {
                traits::ALL
            } else {
                traits::of_pung_rank(pair + 1)
            },
            ..Summary::default()
        };
        for &code in sets {
            let rank = code >> 1;
            if code & 1 == 1 {
                s.chow_mids |= u32::from(rank + 2) << (8 * s.chows);
                s.chows += 1;
                s.chow_ends |= 0b101 << rank;
                s.chow_middles |= 0b010 << rank;
                s.traits &= traits::of_chow_rank(rank + 1);
            } else {
                s.pung_ranks |= u32::from(rank + 1) << (8 * s.pungs);
                s.pungs += 1;
                s.pung_mask |= 1 << rank;
                s.traits &= traits::of_pung_rank(rank + 1);
                s.terminal_pungs += u8::from(rank == 0 || rank == 8);
            }
        }
        s
    }
}

impl SuitDivision {
    /// The sets as `(rank 0–8, chow)`, lowest first.
    pub(crate) fn sets(&self) -> impl Iterator<Item = (usize, bool)> + '_ {
        self.sets[..usize::from(self.len)]
            .iter()
            .map(|&code| (usize::from(code >> 1), code & 1 == 1))
    }

    /// How many sets.
    pub(crate) const fn len(self) -> usize {
        self.len as usize
    }

    /// The rank (0–8) of the pair, if the division has one.
    pub(crate) const fn pair(self) -> Option<usize> {
        if self.pair == NO_PAIR {
            None
        } else {
            Some(self.pair as usize)
        }
    }
}

/// Suit codes: nine counts of at most four, as the digits of a base-5 number.
const CODES: usize = 5usize.pow(9);

/// The code of a suit: its counts as the digits of a base-5 number, rank 1 the lowest
/// digit, so that one more tile of rank `r` adds [`crate::tile::RANK_WEIGHT`]`[r]`. `None` past four
/// copies of a rank (no valid hand; such a suit does not divide here).
pub(crate) fn code(counts: &[u8]) -> Option<usize> {
    let mut code = 0;
    let mut over = false;
    for &n in counts.iter().rev() {
        over |= n > 4;
        code = code * 5 + usize::from(n);
    }
    (!over).then_some(code)
}

struct SuitTable {
    /// By suit code: 1 + the place in `divisions` of the suit's first division, 0 when it
    /// does not divide.
    first: Vec<u16>,
    /// By suit code: the ranks (bit `r` for rank `r + 1`) one more tile of which makes the
    /// suit divide.
    completions: Vec<u16>,
    /// Grouped by code; in each group, in the calculators' order (by set codes).
    divisions: Vec<SuitDivision>,
}

impl SuitTable {
    fn build() -> SuitTable {
        let mut laid_out = Vec::new();
        let mut counts = [0u8; 9];
        let mut work = Layout {
            sets: [0; MAX_SETS],
            len: 0,
            pair: NO_PAIR,
        };
        lay_out(0, &mut counts, &mut work, &mut laid_out);
        laid_out.sort_unstable_by_key(|(code, d): &(usize, Layout)| (*code, d.sets));
        let mut first = vec![0u16; CODES];
        let mut completions = vec![0u16; CODES];
        let mut divisions: Vec<SuitDivision> = Vec::with_capacity(laid_out.len());
        for group in laid_out.chunk_by(|a, b| a.0 == b.0) {
            let code = group[0].0;
            first[code] = u16::try_from(divisions.len() + 1).expect("fewer than 65,535 divisions");
            // The suit one tile short of this one, for each rank it holds, is completed by
            // that rank.
            let mut digits = code;
            for (r, weight) in RANK_WEIGHT.iter().enumerate() {
                if digits % 5 > 0 {
                    completions[code - weight] |= 1 << r;
                }
                digits /= 5;
            }
            let of = u8::try_from(group.len()).expect("a handful of divisions a suit");
            divisions.extend(group.iter().map(|&(_, d)| SuitDivision {
                sets: d.sets,
                len: d.len,
                pair: d.pair,
                of,
                summary: Summary::of(&d.sets[..usize::from(d.len)], d.pair),
            }));
        }
        SuitTable {
            first,
            completions,
            divisions,
        }
    }

    fn get(&self, code: usize) -> &[SuitDivision] {
        let Some(at) = self.first.get(code).and_then(|f| f.checked_sub(1)) else {
            return &[];
        };
        let at = usize::from(at);
        &self.divisions[at..at + usize::from(self.divisions[at].of)]
    }
}

/// A division as it is laid out: its sets and pair, coded as in [`SuitDivision`] (small, so
/// that sorting them is quick).
#[derive(Clone, Copy)]
struct Layout {
    sets: [u8; MAX_SETS],
    len: u8,
    pair: u8,
}

/// Records the sets in `work` with no pair and with each pair that fits, then adds one more
/// set of a code from `from` on (codes never decrease, so every multiset comes once).
fn lay_out(from: u8, counts: &mut [u8; 9], work: &mut Layout, out: &mut Vec<(usize, Layout)>) {
    let record = |counts: &[u8; 9], work: &Layout, out: &mut Vec<(usize, Layout)>| {
        if let Some(c) = code(counts) {
            out.push((c, *work));
        }
    };
    record(counts, work, out);
    for r in 0..9u8 {
        let i = usize::from(r);
        if counts[i] <= 2 {
            counts[i] += 2;
            work.pair = r;
            record(counts, work, out);
            counts[i] -= 2;
        }
    }
    work.pair = NO_PAIR;
    if usize::from(work.len) == MAX_SETS {
        return;
    }
    for code in from..18 {
        let (rank, chow) = (usize::from(code >> 1), code & 1 == 1);
        let ranks = if chow { rank..rank + 3 } else { rank..rank + 1 };
        let take = if chow { 1 } else { 3 };
        if ranks.end > 9 || counts[ranks.clone()].iter().any(|&n| n + take > 4) {
            continue;
        }
        for i in ranks.clone() {
            counts[i] += take;
        }
        work.sets[usize::from(work.len)] = code;
        work.len += 1;
        lay_out(code, counts, work, out);
        work.len -= 1;
        work.sets[usize::from(work.len)] = 0;
        for i in ranks {
            counts[i] -= take;
        }
    }
}

fn table() -> &'static SuitTable {
    static TABLE: OnceLock<SuitTable> = OnceLock::new();
    TABLE.get_or_init(SuitTable::build)
}

/// Builds the table now rather than on first use.
pub(crate) fn warm_up() {
    table();
}

/// The divisions of one suit into sets and at most one pair (a pair exactly when the count
/// is 2 modulo 3), by the suit's [`code`], in the calculators' order; empty when it does not
/// divide. An empty suit has one division, with nothing in it.
pub(crate) fn suit_of_code(code: usize) -> &'static [SuitDivision] {
    table().get(code)
}

/// The ranks (bit `r` for rank `r + 1`) one more tile of which makes the suit of `code`
/// divide into sets and at most one pair (a rank held four times is never one: the table
/// knows no fifth copy).
pub(crate) fn completions(code: usize) -> u16 {
    table().completions.get(code).copied().unwrap_or(0)
}

/// [`suit_of_code`] of three codes.
pub(crate) fn suits_of_codes(codes: [usize; 3]) -> [&'static [SuitDivision]; 3] {
    let table = table();
    codes.map(|code| table.get(code))
}

/// Whether the suit of a code divides into sets and at most one pair.
pub(crate) fn divides(code: usize) -> bool {
    !suit_of_code(code).is_empty()
}

/// The divisions of one suit's nine counts (see [`suit_of_code`]).
#[cfg(test)]
pub(crate) fn suit(counts: &[u8]) -> &'static [SuitDivision] {
    code(counts).map_or(&[], suit_of_code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_and_small_suits() {
        let t = table();
        // Every suit that divides, and how many divisions they have between them: a change
        // in the lay-out shows here first.
        assert_eq!(
            (
                t.first.iter().filter(|&&f| f > 0).count(),
                t.divisions.len()
            ),
            (21_743, 23_533)
        );
        assert_eq!(code(&[4; 9]), Some(CODES - 1));
        assert_eq!(suit(&[0; 9]).len(), 1);
        assert_eq!(suit(&[0; 9])[0].len(), 0);
        assert!(suit(&[1, 1, 0, 0, 0, 0, 0, 0, 0]).is_empty());
        assert!(suit(&[5, 0, 0, 0, 0, 0, 0, 0, 0]).is_empty());
        // 111222333: three pungs, or three chows 123 (pungs first: a pung code sorts first).
        let d = suit(&[3, 3, 3, 0, 0, 0, 0, 0, 0]);
        assert_eq!(d.len(), 2);
        assert_eq!(
            d[0].sets().collect::<Vec<_>>(),
            [(0, false), (1, false), (2, false)]
        );
        assert_eq!(
            d[1].sets().collect::<Vec<_>>(),
            [(0, true), (0, true), (0, true)]
        );
        assert_eq!(d[0].pair(), None);
    }
}
