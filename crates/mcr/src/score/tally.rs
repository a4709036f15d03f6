//! The fans of one reading as a signature: a 128-bit mask over the exclusion pass's
//! positions, and the counts of the few fans a reading can score more than once. Adding a
//! fan is an OR (and an add for those few), the pass and the points read the mask, and the
//! [`FanCounts`] of a scoring are built for the reading kept only.

use crate::fan::{FAN_COUNT, Fan, FanCounts, PASS_POINTS, bit};

/// The fans a reading can score more than once, each counted in a byte of
/// [`Tally::multi`]: the chow pairings (the four of them), 双同刻, 幺九刻, 四归一 and 箭刻.
/// Every other fan a reading scores once at most.
const MULTI: [Fan; 8] = [
    Fan::PureDoubleChow,
    Fan::MixedDoubleChow,
    Fan::ShortStraight,
    Fan::TwoTerminalChows,
    Fan::DoublePung,
    Fan::PungOfTerminalsOrHonors,
    Fan::TileHog,
    Fan::DragonPung,
];

/// No byte of [`Tally::multi`]: the fan is scored once at most.
const SINGLE: u8 = u8::MAX;

/// The byte of each fan (by slot) in [`Tally::multi`], or [`SINGLE`].
#[allow(clippy::cast_possible_truncation)] // eight bytes
const MULTI_BYTE: [u8; FAN_COUNT] = {
    let mut bytes = [SINGLE; FAN_COUNT];
    let mut b = 0;
    while b < MULTI.len() {
        bytes[MULTI[b].slot()] = b as u8;
        b += 1;
    }
    bytes
};

/// The [`MULTI`] fans as a mask over pass positions.
const MULTI_MASK: u128 = {
    let mut mask = 0;
    let mut b = 0;
    while b < MULTI.len() {
        mask |= bit(MULTI[b]);
        b += 1;
    }
    mask
};

/// The 1998 table's points of the [`MULTI`] fans.
const MULTI_POINTS: [u16; 8] = {
    let mut points = [0; 8];
    let mut b = 0;
    while b < MULTI.len() {
        points[b] = MULTI[b].spec().points;
        b += 1;
    }
    points
};

/// The fans of one reading (before or after the exclusion pass).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    /// The fans present, by pass position (see [`bit`]).
    present: u128,
    /// The counts of the [`MULTI`] fans, a byte each; a byte is not zero exactly when its
    /// fan is present.
    multi: u64,
    /// The 1998 table's points of the fans present, each times its count: kept as fans are
    /// added (a constant for most), so that the points of what stands of them subtract the
    /// few fans the exclusion pass drops.
    points: u32,
}

impl Tally {
    /// Scores `fan` `n` more times (a fan outside [`MULTI`] stays scored once).
    #[inline]
    pub(crate) fn add(&mut self, fan: Fan, n: u8) {
        if n == 0 {
            return;
        }
        let b = MULTI_BYTE[fan.slot()];
        debug_assert!(b != SINGLE || !self.has(fan), "{fan:?} scored twice");
        self.present |= bit(fan);
        self.points += u32::from(fan.spec().points) * u32::from(n);
        if b != SINGLE {
            self.multi += u64::from(n) << (8 * b);
        }
    }

    /// Whether `fan` is scored.
    pub(crate) const fn has(&self, fan: Fan) -> bool {
        self.present & bit(fan) != 0
    }

    /// No longer scores `fan`.
    pub(crate) fn remove(&mut self, fan: Fan) {
        self.points -= u32::from(fan.spec().points) * u32::from(self.count(fan));
        self.present &= !bit(fan);
        let b = MULTI_BYTE[fan.slot()];
        if b != SINGLE {
            self.multi &= !(0xff << (8 * b));
        }
    }

    /// How many times `fan` is scored.
    #[allow(clippy::cast_possible_truncation)] // a byte of the counts
    pub(crate) fn count(&self, fan: Fan) -> u8 {
        let b = MULTI_BYTE[fan.slot()];
        if !self.has(fan) {
            0
        } else if b == SINGLE {
            1
        } else {
            (self.multi >> (8 * b)) as u8
        }
    }

    /// The fans present, by pass position.
    pub(crate) const fn present(&self) -> u128 {
        self.present
    }

    /// The fans of `mask` (pass positions) that are present, with their counts.
    #[allow(clippy::cast_possible_truncation)] // a byte of the counts
    pub(crate) fn counts(&self, mask: u128) -> FanCounts {
        let kept = self.present & mask;
        let mut out = FanCounts::once(kept);
        let mut multi = self.multi;
        while multi != 0 {
            let b = multi.trailing_zeros() as usize / 8;
            multi &= !(0xff << (8 * b));
            if kept & bit(MULTI[b]) != 0 {
                out.recount(MULTI[b], (self.multi >> (8 * b)) as u8);
            }
        }
        out
    }

    /// The 1998 table's points of the fans of `mask` (pass positions) that are present,
    /// each times its count: those of every fan present, less those of the fans outside
    /// `mask` (after the exclusion pass, the few it drops).
    #[allow(clippy::cast_possible_truncation)] // the casts keep each half of the mask, a byte
    pub(crate) fn table_points(&self, mask: u128) -> u32 {
        let dropped = self.present & !mask;
        let mut total = self.points;
        let once = dropped & !MULTI_MASK;
        for (half, base) in [(once as u64, 0), ((once >> 64) as u64, 64)] {
            let mut left = half;
            while left != 0 {
                let p = base + left.trailing_zeros() as usize;
                left &= left - 1;
                total -= u32::from(PASS_POINTS[p]);
            }
        }
        if dropped & MULTI_MASK != 0 {
            for (b, fan) in MULTI.into_iter().enumerate() {
                if dropped & bit(fan) != 0 {
                    let n = (self.multi >> (8 * b)) as u8;
                    total -= u32::from(MULTI_POINTS[b]) * u32::from(n);
                }
            }
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_follow_adds_and_removes() {
        let mut t = Tally::default();
        t.add(Fan::PungOfTerminalsOrHonors, 2);
        t.add(Fan::PungOfTerminalsOrHonors, 1);
        t.add(Fan::AllPungs, 1);
        t.add(Fan::TileHog, 0);
        assert_eq!(t.count(Fan::PungOfTerminalsOrHonors), 3);
        assert_eq!(t.count(Fan::AllPungs), 1);
        assert!(!t.has(Fan::TileHog));
        assert_eq!(t.table_points(u128::MAX), 3 + 6);
        t.remove(Fan::PungOfTerminalsOrHonors);
        assert_eq!(t.count(Fan::PungOfTerminalsOrHonors), 0);
        assert_eq!(t.table_points(u128::MAX), 6);
        let counts = t.counts(u128::MAX);
        assert_eq!(counts.iter().collect::<Vec<_>>(), [(Fan::AllPungs, 1)]);
    }
}
