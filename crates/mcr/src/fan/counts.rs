//! A multiset of fans, dense and allocation-free.
//!
//! Besides the counts, a bit mask records which fans are present, indexed by the position of
//! each fan in the exclusion pass (highest value first), so that the pass and the point sum
//! visit only the fans present, already in pass order.

use super::table::{FAN_COUNT, FAN_TABLE, Fan};

/// Fans in the order the exclusion pass visits them: highest value first, then by id.
pub(crate) const PASS_ORDER: [Fan; FAN_COUNT] = {
    let mut order = Fan::ALL;
    // Insertion sort by (points descending, id ascending); const-evaluated.
    let mut i = 1;
    while i < FAN_COUNT {
        let mut j = i;
        while j > 0 {
            let a = order[j - 1].spec();
            let b = order[j].spec();
            if a.points < b.points || (a.points == b.points && (a.fan as u8) > (b.fan as u8)) {
                let t = order[j - 1];
                order[j - 1] = order[j];
                order[j] = t;
                j -= 1;
            } else {
                break;
            }
        }
        i += 1;
    }
    order
};

/// The position of each fan (by table slot) in [`PASS_ORDER`].
pub(crate) const PASS_POSITION: [u8; FAN_COUNT] = {
    let mut pos = [0u8; FAN_COUNT];
    let mut p = 0u8;
    while (p as usize) < FAN_COUNT {
        pos[PASS_ORDER[p as usize].slot()] = p;
        p += 1;
    }
    pos
};

/// The `excludes` column of the fan table as bit masks over pass positions, by pass position.
pub(crate) const EXCLUDES: [u128; FAN_COUNT] = {
    let mut masks = [0u128; FAN_COUNT];
    let mut p = 0;
    while p < FAN_COUNT {
        let excludes = FAN_TABLE[PASS_ORDER[p].slot()].excludes;
        let mut k = 0;
        while k < excludes.len() {
            masks[p] |= 1 << PASS_POSITION[excludes[k].slot()];
            k += 1;
        }
        p += 1;
    }
    masks
};

/// Of [`EXCLUDES`], the fans the pass visits later (a fan the pass has already kept stays
/// kept, whatever a later fan excludes), by pass position.
pub(crate) const EXCLUDES_LATER: [u128; FAN_COUNT] = {
    let mut masks = [0u128; FAN_COUNT];
    let mut p = 0;
    while p < FAN_COUNT {
        masks[p] = EXCLUDES[p] & !((2u128 << p) - 1);
        p += 1;
    }
    masks
};

/// The fans that exclude a fan visited after them, as a mask over pass positions.
pub(crate) const EXCLUDERS: u128 = {
    let mut mask = 0u128;
    let mut p = 0;
    while p < FAN_COUNT {
        if EXCLUDES_LATER[p] != 0 {
            mask |= 1 << p;
        }
        p += 1;
    }
    mask
};

/// The points of each fan in the 1998 table, by pass position.
pub(crate) const PASS_POINTS: [u16; FAN_COUNT] = {
    let mut points = [0u16; FAN_COUNT];
    let mut p = 0;
    while p < FAN_COUNT {
        points[p] = PASS_ORDER[p].spec().points;
        p += 1;
    }
    points
};

/// The bit of each fan (by slot) in the presence mask: a load, where shifting a `u128` by a
/// position read from [`PASS_POSITION`] takes several instructions.
const BITS: [u128; FAN_COUNT] = {
    let mut bits = [0u128; FAN_COUNT];
    let mut slot = 0;
    while slot < FAN_COUNT {
        bits[slot] = 1 << PASS_POSITION[slot];
        slot += 1;
    }
    bits
};

/// The bit of a fan in the presence mask.
pub(crate) const fn bit(fan: Fan) -> u128 {
    BITS[fan.slot()]
}

/// How many times each fan is scored.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct FanCounts {
    counts: [u8; FAN_COUNT],
    present: u128,
}

impl Default for FanCounts {
    fn default() -> Self {
        FanCounts {
            counts: [0; FAN_COUNT],
            present: 0,
        }
    }
}

impl FanCounts {
    /// How many times `fan` is scored.
    pub const fn get(&self, fan: Fan) -> u8 {
        self.counts[fan.slot()]
    }

    /// Whether `fan` is scored at least once.
    pub const fn has(&self, fan: Fan) -> bool {
        self.present & bit(fan) != 0
    }

    /// Sets the count of `fan`.
    pub fn set(&mut self, fan: Fan, count: u8) {
        self.counts[fan.slot()] = count;
        if count > 0 {
            self.present |= bit(fan);
        } else {
            self.present &= !bit(fan);
        }
    }

    /// Adds `n` to the count of `fan`.
    pub fn add(&mut self, fan: Fan, n: u8) {
        self.set(fan, self.counts[fan.slot()].saturating_add(n));
    }

    /// Whether no fan is scored.
    pub const fn is_empty(&self) -> bool {
        self.present == 0
    }

    /// The fans of `present` (a mask over pass positions), each scored once.
    #[allow(clippy::cast_possible_truncation)] // the casts keep each half of the mask
    pub(crate) fn once(present: u128) -> FanCounts {
        let mut out = FanCounts {
            counts: [0; FAN_COUNT],
            present,
        };
        for (half, base) in [(present as u64, 0), ((present >> 64) as u64, 64)] {
            let mut left = half;
            while left != 0 {
                let p = base + left.trailing_zeros() as usize;
                left &= left - 1;
                out.counts[PASS_ORDER[p].slot()] = 1;
            }
        }
        out
    }

    /// Sets the count of `fan`, which `self` has (a count of at least one).
    pub(crate) const fn recount(&mut self, fan: Fan, count: u8) {
        self.counts[fan.slot()] = count;
    }

    /// How many times the fan at pass position `p` is scored.
    pub(crate) const fn at(&self, p: usize) -> u8 {
        self.counts[PASS_ORDER[p].slot()]
    }

    /// The presence mask over pass positions.
    pub(crate) const fn present(&self) -> u128 {
        self.present
    }

    /// The scored fans with their counts, in id order.
    pub fn iter(&self) -> impl Iterator<Item = (Fan, u8)> + '_ {
        Fan::ALL
            .iter()
            .map(|&f| (f, self.get(f)))
            .filter(|&(_, c)| c > 0)
    }

    /// The scored fans with their counts, highest value first.
    pub(crate) fn iter_by_value(&self) -> impl Iterator<Item = (Fan, u8)> + '_ {
        let mut bits = self.present;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let p = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let fan = PASS_ORDER[p];
            Some((fan, self.get(fan)))
        })
    }
}

impl std::fmt::Debug for FanCounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(self.iter().map(|(fan, n)| (fan.spec().name_zh, n)))
            .finish()
    }
}
