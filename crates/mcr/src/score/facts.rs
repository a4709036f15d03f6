//! What scoring reads of a hand once, for every reading (`Facts`), and the best reading
//! found so far (`Best`).

use super::exclusion::Standing;
use super::tally::Tally;
use crate::hand::Hand;
use crate::ruleset::Ruleset;
use crate::shape::Reading;
use crate::tile::{Counts, Tile};

/// Facts about the hand shared by every reading.
pub(super) struct Facts<'a> {
    pub(super) rules: &'a Ruleset<'a>,
    pub(super) hand: &'a Hand,
    pub(super) win: Tile,
    pub(super) self_drawn: bool,
    pub(super) concealed: &'a Counts,
    pub(super) all: &'a Counts,
    /// Tile kinds as bit masks (bit `i` for [`Tile::index`] `i`), read once: those in the
    /// hand, those concealed and those concealed an odd number of times (with at most one
    /// declared meld; else none), those held four times.
    pub(super) present: u64,
    pub(super) held: u64,
    pub(super) odd: u64,
    pub(super) fours: u64,
    pub(super) kongs: usize,
    pub(super) prevalent: Tile,
    pub(super) seat: Tile,
    /// Event and concealment fans, the same for every reading.
    pub(super) common: Tally,
}

/// Tile kinds of some counts as bit masks over [`Tile::index`]: those held, those held an
/// odd number of times, those held four times.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Kinds {
    pub(super) held: u64,
    pub(super) odd: u64,
    pub(super) four: u64,
}

/// Reads [`Kinds`] eight counts at a time: each count is a byte of a word, a byte's test
/// leaves its high bit, and one multiplication gathers the eight high bits. The counts are a
/// hand's (a validated hand holds no fifth copy): at most four, so no byte carries into the
/// next, and four is the one count with its third bit set.
#[inline] // each caller reads two of the three masks: the third is not computed
pub(super) fn kinds(counts: &Counts) -> Kinds {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = LOW << 7;
    // The high bit of byte k moves to bit k.
    let gather = |high: u64| (high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
    let nonzero = |w: u64| (w + 0x7f * LOW) & HIGH;
    let mut k = Kinds::default();
    let mut read = |w: u64, shift: usize| {
        k.held |= gather(nonzero(w)) << shift;
        k.odd |= gather((w & LOW) << 7) << shift;
        k.four |= gather((w & (4 * LOW)) << 5) << shift;
    };
    for shift in [0, 8, 16, 24] {
        let word: [u8; 8] = counts[shift..shift + 8].try_into().unwrap_or([0; 8]);
        read(u64::from_le_bytes(word), shift);
    }
    // The last two kinds.
    read(u64::from(counts[32]) | u64::from(counts[33]) << 8, 32);
    k
}

/// The best reading so far: its fans before the exclusion pass, what stands of them, the
/// reading. The counts of the fans are taken for the reading kept only.
pub(super) struct Best {
    pub(super) fans: Tally,
    pub(super) standing: Standing,
    pub(super) reading: Reading,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time reading agrees with counting kind by kind (counts of at most
    /// four, a hand's).
    #[test]
    fn kinds_agree_with_a_kind_by_kind_reading() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..10_000 {
            let mut counts = [0u8; 34];
            for n in &mut counts {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                *n = u8::try_from(seed % 5).unwrap_or(0);
            }
            let mask = |pred: fn(u8) -> bool| {
                (0..34).fold(0u64, |m, i| m | u64::from(pred(counts[i])) << i)
            };
            let expected = Kinds {
                held: mask(|n| n > 0),
                odd: mask(|n| n % 2 == 1),
                four: mask(|n| n == 4),
            };
            assert_eq!(kinds(&counts), expected, "{counts:?}");
        }
    }
}
