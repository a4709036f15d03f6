//! A small deterministic generator (xorshift) for the random players of the tests: they need
//! no randomness crate, and a failing seed plays again the same way.
#![allow(dead_code)]

/// The generator's state; any non-zero word starts a run.
pub struct Rng(pub u64);

impl Rng {
    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        usize::try_from(self.0 % n as u64).expect("below n")
    }

    /// `items` in a random order.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}
