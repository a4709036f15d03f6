//! Divisions of the concealed tiles into sets and a pair (the standard shape).
//!
//! Sets never cross a group (a suit, or one honour kind), so a division of a hand is one
//! division of each group: each suit's come from a table built once ([`table`]), and an
//! honour kind is a pung, the pair or nothing. The hand's divisions are the product of its
//! groups', listed in the order the reference calculators sort them (by set, characters,
//! bamboo, dots, honours; a pung before the chow on the same tile), which breaks ties
//! between readings the way they do. The depth-first search over the whole hand
//! (`search`) is kept as the table's test oracle.

#[cfg(test)]
mod search;
pub mod table;

use super::{Set, SetKind};
use crate::tile::{Counts, Tile};
pub(crate) use table::SuitDivision;

/// At most this many standard divisions are kept: no hand has more (four, with 14 tiles of
/// one suit; a test bounds the product of the suit tables).
pub(crate) const MAX_DIVISIONS: usize = 4;

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

impl Division {
    const fn empty() -> Division {
        Division {
            sets: [Set::concealed(SetKind::Pung, Tile::EAST); 4],
            len: 0,
            pair: Tile::EAST,
        }
    }
}

impl Divisions {
    fn none() -> Divisions {
        Divisions {
            items: [Division::empty(); MAX_DIVISIONS],
            len: 0,
        }
    }
}

/// The suits in the calculators' order: characters, bamboo, dots (by [`Tile::group`]).
pub(crate) const SUIT_ORDER: [usize; 3] = [0, 2, 1];

/// The division table's code of each suit of `counts`, by [`Tile::group`] (`usize::MAX`, a
/// suit that does not divide, past four copies).
pub(crate) fn suit_codes(counts: &Counts) -> [usize; 3] {
    [0, 1, 2].map(|g| table::code(&counts[9 * g..9 * g + 9]).unwrap_or(usize::MAX))
}

/// What the standard divisions of some concealed tiles are made of: the honours, the same
/// in every division (each kind held is a pung or the pair), and a choice of one table
/// division for each suit. A division is one pick a suit; scoring reads the picks'
/// summaries and builds the sets ([`Parts::division`]) of the division it keeps only.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Parts {
    /// The honour kinds held three times: bit `k` for the tile of index `27 + k`.
    pub(crate) honor_pungs: u8,
    /// The pair, when it is an honour.
    pub(crate) honor_pair: Option<Tile>,
    /// Each suit's divisions, the suits in [`SUIT_ORDER`].
    pub(crate) suits: [&'static [SuitDivision]; 3],
}

/// The parts of the divisions of `concealed`, whose suits have the codes `codes` (see
/// [`suit_codes`]), into `needed` sets and one pair; `None` when it has none.
#[allow(clippy::cast_possible_truncation)] // the gathered bits fit a byte
pub(crate) fn standard_parts(
    concealed: &Counts,
    codes: [usize; 3],
    needed: usize,
) -> Option<Parts> {
    // The seven honour counts as the low seven bytes of a word: each is 0, 2 (the pair) or
    // 3 (a pung); 1 and 4 (its third bit) do not divide. A hand's counts are at most four.
    const LOW: u64 = 0x0101_0101_0101_0101;
    // Bit `8k` of a word moves to bit `k`.
    let gather = |bits: u64| (bits.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8;
    let honors = u64::from_le_bytes(concealed[26..34].try_into().unwrap_or([0; 8])) >> 8;
    let (one, two, four) = (honors & LOW, honors >> 1 & LOW, honors >> 2 & LOW);
    if one & !two | four != 0 {
        return None;
    }
    let honor_pungs = gather(one & two);
    let pairs = gather(two & !one);
    if pairs.count_ones() > 1 {
        return None;
    }
    let honor_pair = (pairs != 0).then(|| Tile::ALL[27 + pairs.trailing_zeros() as usize]);
    let suits = table::suits_of_codes(SUIT_ORDER.map(|g| codes[g]));
    let mut sets = honor_pungs.count_ones() as usize;
    let mut pairs = usize::from(honor_pair.is_some());
    for divisions in suits {
        // Every division of a suit has the same number of sets, and a pair or not alike.
        let first = divisions.first()?;
        sets += first.len();
        pairs += usize::from(first.pair().is_some());
    }
    (sets == needed && pairs == 1).then_some(Parts {
        honor_pungs,
        honor_pair,
        suits,
    })
}

impl Parts {
    /// The pair of the division of `picks` (one of each suit's divisions, in
    /// [`SUIT_ORDER`]).
    pub(crate) fn pair(&self, picks: [&SuitDivision; 3]) -> Tile {
        let mut pair = self.honor_pair;
        for (g, part) in SUIT_ORDER.into_iter().zip(picks) {
            if let Some(rank) = part.pair() {
                pair = Some(Tile::ALL[9 * g + rank]);
            }
        }
        pair.unwrap_or(Tile::EAST)
    }

    /// The division of `picks`: the suits' sets in [`SUIT_ORDER`], then the honour pungs.
    pub(crate) fn division(&self, picks: [&SuitDivision; 3]) -> Division {
        let mut d = Division::empty();
        d.len = self.sets(picks, &mut d.sets);
        d.pair = self.pair(picks);
        d
    }

    /// Writes the sets of the division of `picks` into `out` (the suits' in
    /// [`SUIT_ORDER`], then the honour pungs), as many as fit; returns how many.
    pub(crate) fn sets(&self, picks: [&SuitDivision; 3], out: &mut [Set]) -> usize {
        let mut slots = out.iter_mut();
        let mut n = 0;
        for (g, part) in SUIT_ORDER.into_iter().zip(picks) {
            for (rank, chow) in part.sets() {
                let kind = if chow { SetKind::Chow } else { SetKind::Pung };
                if let Some(slot) = slots.next() {
                    *slot = Set::concealed(kind, Tile::ALL[9 * g + rank]);
                    n += 1;
                }
            }
        }
        let mut honors = self.honor_pungs;
        while honors != 0 {
            let k = honors.trailing_zeros() as usize;
            honors &= honors - 1;
            if let Some(slot) = slots.next() {
                *slot = Set::concealed(SetKind::Pung, Tile::ALL[27 + k]);
                n += 1;
            }
        }
        n
    }
}

/// Every division of `concealed`, whose suits have the codes `codes` (see [`suit_codes`]),
/// into `needed` sets and one pair, with their sets.
pub(crate) fn standard_divisions(
    concealed: &Counts,
    codes: [usize; 3],
    needed: usize,
) -> Divisions {
    let mut out = Divisions::none();
    let Some(parts) = standard_parts(concealed, codes, needed) else {
        return out;
    };
    for a in parts.suits[0] {
        for b in parts.suits[1] {
            for c in parts.suits[2] {
                let Some(d) = out.items.get_mut(out.len) else {
                    return out;
                };
                *d = parts.division([a, b, c]);
                out.len += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::search::search_divisions;
    use super::*;
    use proptest::prelude::*;

    /// The divisions as comparable values: each one's sets and pair.
    fn listed(d: &Divisions) -> Vec<(Vec<Set>, Tile)> {
        d.items[..d.len]
            .iter()
            .map(|d| (d.sets[..d.len].to_vec(), d.pair))
            .collect()
    }

    fn agree(counts: &Counts, needed: usize) -> Result<(), TestCaseError> {
        let table = standard_divisions(counts, suit_codes(counts), needed);
        let search = search_divisions(counts, needed);
        prop_assert_eq!(
            listed(&table),
            listed(&search),
            "counts {:?}, {} sets",
            counts,
            needed
        );
        Ok(())
    }

    /// Every suit of at most 14 tiles (four copies a rank), in the characters, with an
    /// honour pair when the suit has none: the table and the search agree on each.
    #[test]
    fn every_suit_agrees_with_the_search() {
        let mut suit = [0u8; 9];
        let mut checked = 0;
        loop {
            let tiles: usize = suit.iter().map(|&n| usize::from(n)).sum();
            if tiles <= 14 {
                let mut counts = [0u8; 34];
                counts[..9].copy_from_slice(&suit);
                if tiles.is_multiple_of(3) {
                    counts[27] = 2;
                }
                agree(&counts, tiles / 3).unwrap();
                checked += 1;
            }
            // The next count vector, rank 0 fastest.
            let Some(r) = suit.iter().position(|&n| n < 4) else {
                break;
            };
            suit[..r].fill(0);
            suit[r] += 1;
        }
        assert_eq!(checked, 405_350);
    }

    /// No hand has more divisions than are kept: the most a suit of `n` tiles has, over
    /// every split of 14 tiles between the three suits, multiplied.
    #[test]
    fn no_hand_has_more_divisions_than_are_kept() {
        let mut most = [0usize; 15];
        let mut suit = [0u8; 9];
        loop {
            let tiles: usize = suit.iter().map(|&n| usize::from(n)).sum();
            if tiles <= 14 {
                most[tiles] = most[tiles].max(table::suit(&suit).len());
            }
            let Some(r) = suit.iter().position(|&n| n < 4) else {
                break;
            };
            suit[..r].fill(0);
            suit[r] += 1;
        }
        let mut worst = 0;
        for a in 0..=14 {
            for b in 0..=14 - a {
                for c in 0..=14 - a - b {
                    worst = worst.max(most[a] * most[b] * most[c]);
                }
            }
        }
        assert!(worst <= MAX_DIVISIONS, "{worst} divisions");
    }

    /// A tile kind, as an index into the counts.
    fn kind() -> impl Strategy<Value = usize> {
        0usize..34
    }

    /// A set (chow where one fits and `chow` says so, else a pung) as its tile indices.
    fn set_tiles(i: usize, chow: bool) -> Vec<usize> {
        if chow && i < 27 && i % 9 <= 6 {
            vec![i, i + 1, i + 2]
        } else {
            vec![i; 3]
        }
    }

    proptest! {
        /// Whole hands of `4 − melds` random sets and a pair (copies past four skipped),
        /// and random tiles that mostly do not divide: the table and the search agree.
        #[test]
        fn random_hands_agree_with_the_search(
            sets in proptest::collection::vec((kind(), any::<bool>()), 0..=4),
            pair in kind(),
            noise in proptest::collection::vec(kind(), 0..=3),
            shift in kind(),
        ) {
            let mut counts = [0u8; 34];
            for &(i, chow) in &sets {
                for t in set_tiles(i, chow) {
                    counts[t] += 1;
                }
            }
            counts[pair] += 2;
            // Move a few tiles: a hand that rarely divides.
            for &i in &noise {
                if let Some(from) = (0..34).map(|k| (k + shift) % 34).find(|&k| counts[k] > 0) {
                    counts[from] -= 1;
                    counts[i] += 1;
                }
            }
            prop_assume!(counts.iter().all(|&n| n <= 4));
            agree(&counts, sets.len())?;
        }
    }

    /// Every hand of the public corpus that validates: the table and the search agree.
    #[test]
    fn corpus_hands_agree_with_the_search() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/public.jsonl");
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut checked = 0;
        for line in text.lines() {
            let case: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            let Some(Ok(input)) = case["notation"].as_str().map(crate::notation::parse_hand) else {
                continue;
            };
            let Ok(hand) = input.validate(&crate::hand::WinContext::default()) else {
                continue;
            };
            agree(hand.concealed_counts(), 4 - hand.melds().len()).unwrap();
            checked += 1;
        }
        assert!(checked > 2_000, "{checked} corpus hands");
    }
}
