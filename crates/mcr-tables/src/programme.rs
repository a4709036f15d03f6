//! The dynamic programme that gives a group's distances, one kind at a time.

use crate::{MAX_SETS, SLOTS};

/// For each count of chows started one and two ranks back, sets so far and pairs so far,
/// the most tiles of the group held (−1: not reachable).
#[derive(Clone, Copy)]
pub(crate) struct Programme([[[[i8; 2]; MAX_SETS + 1]; 5]; 5]);

impl Programme {
    /// Before the first kind.
    pub(crate) fn start() -> Programme {
        let mut p = Programme([[[[-1; 2]; MAX_SETS + 1]; 5]; 5]);
        p.0[0][0][0][0] = 0;
        p
    }

    /// The programme after a kind holding `v` tiles, at `rank` of `kinds`.
    pub(crate) fn step(&self, v: u8, rank: usize, kinds: usize, chows: bool) -> Programme {
        let mut out = Programme([[[[-1; 2]; MAX_SETS + 1]; 5]; 5]);
        let may_start_chows = chows && rank + 2 < kinds;
        for (two_back, by_one) in self.0.iter().enumerate() {
            for (one_back, by_sets) in by_one.iter().enumerate() {
                for (sets, by_pair) in by_sets.iter().enumerate() {
                    for (pairs, &held) in by_pair.iter().enumerate() {
                        if held < 0 {
                            continue;
                        }
                        let new_chows = if may_start_chows { MAX_SETS - sets } else { 0 };
                        for started in 0..=new_chows {
                            for pungs in 0..=MAX_SETS - sets - started {
                                for pair in 0..=1 - pairs {
                                    let wanted =
                                        two_back + one_back + started + 3 * pungs + 2 * pair;
                                    // At most 14 tiles, so the sum fits an i8.
                                    let gain =
                                        i8::try_from(wanted.min(usize::from(v))).unwrap_or(i8::MAX);
                                    let slot = &mut out.0[one_back][started]
                                        [sets + started + pungs][pairs + pair];
                                    *slot = (*slot).max(held + gain);
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// The distances once every kind is placed: for slot `2m + p`, the tiles missing from
    /// the nearest `m` sets and `p` pairs, `3m + 2p −` the most tiles they can hold.
    pub(crate) fn distances(&self) -> [u8; SLOTS] {
        std::array::from_fn(|i| {
            let (m, p) = (i / 2, i % 2);
            let held = usize::try_from(self.0[0][0][m][p]).unwrap_or(0);
            u8::try_from((3 * m + 2 * p).saturating_sub(held)).unwrap_or(u8::MAX)
        })
    }
}
