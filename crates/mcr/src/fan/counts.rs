//! A multiset of fans, dense and allocation-free.

use super::table::{FAN_COUNT, Fan};

/// How many times each fan is scored.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct FanCounts([u8; FAN_COUNT]);

impl Default for FanCounts {
    fn default() -> Self {
        FanCounts([0; FAN_COUNT])
    }
}

impl FanCounts {
    /// How many times `fan` is scored.
    pub const fn get(&self, fan: Fan) -> u8 {
        self.0[fan.slot()]
    }

    /// Whether `fan` is scored at least once.
    pub const fn has(&self, fan: Fan) -> bool {
        self.0[fan.slot()] > 0
    }

    /// Sets the count of `fan`.
    pub fn set(&mut self, fan: Fan, count: u8) {
        self.0[fan.slot()] = count;
    }

    /// Adds `n` to the count of `fan`.
    pub fn add(&mut self, fan: Fan, n: u8) {
        self.0[fan.slot()] = self.0[fan.slot()].saturating_add(n);
    }

    /// Whether no fan is scored.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&c| c == 0)
    }

    /// The scored fans with their counts, in id order.
    pub fn iter(&self) -> impl Iterator<Item = (Fan, u8)> + '_ {
        Fan::ALL
            .iter()
            .map(|&f| (f, self.get(f)))
            .filter(|&(_, c)| c > 0)
    }

    /// Adds every count of `other`.
    pub fn merge(&mut self, other: &FanCounts) {
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a = a.saturating_add(*b);
        }
    }
}

impl std::fmt::Debug for FanCounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(self.iter().map(|(fan, n)| (fan.spec().name_zh, n)))
            .finish()
    }
}
