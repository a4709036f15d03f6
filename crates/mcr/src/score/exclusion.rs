//! The exclusion pass (不计) over the fans detected in one reading, and the points of the
//! fans that stand.

use super::tally::Tally;
use crate::fan::{EXCLUDERS, EXCLUDES_LATER, Fan, FanCounts, PASS_ORDER, PASS_POINTS, bit};
use crate::ruleset::Ruleset;

/// What stands of one reading's fans after the exclusion pass: the fans (a mask over pass
/// positions) and their points. Readings are compared by these; the counts are taken for
/// the reading kept only ([`Standing::fans`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Standing {
    /// The fans that stand (empty: 无番和).
    kept: u128,
    /// Their points.
    pub(crate) points: u32,
}

impl Standing {
    /// Whether `fan` stands.
    pub(crate) const fn has(self, fan: Fan) -> bool {
        self.kept & bit(fan) != 0
    }

    /// The fans of `raw` that stand, with their counts; 无番和 when none does.
    pub(crate) fn fans(self, raw: &Tally) -> FanCounts {
        let mut kept = raw.counts(self.kept);
        if kept.is_empty() {
            kept.set(Fan::ChickenHand, 1);
        }
        kept
    }
}

/// The exclusion pass (不计) over the fans detected in one reading: visiting fans from the
/// highest down, a fan that is still standing suppresses the fans it excludes; a suppressed
/// fan suppresses nothing. Only the fans that exclude a fan after them need a visit
/// ([`EXCLUDERS`]). The points of what stands are then summed; nothing standing is 无番和.
#[allow(clippy::cast_possible_truncation)] // the casts keep each half of the masks
pub(crate) fn standing(raw: &Tally, rules: &Ruleset) -> Standing {
    let mut kept = raw.present();
    // The low half of the pass positions first, then the high half (cheaper steps than over
    // the 128 bits); a fan only excludes fans after it.
    for base in [0, 64] {
        let mut visit = ((kept & EXCLUDERS) >> base) as u64;
        while visit != 0 {
            let p = base + visit.trailing_zeros() as usize;
            visit &= visit - 1;
            let mut excludes = EXCLUDES_LATER[p];
            for &(f, lifted) in rules.lifted_exclusions {
                if f == PASS_ORDER[p] {
                    excludes &= !bit(lifted);
                }
            }
            kept &= !excludes;
            visit &= !((excludes >> base) as u64);
        }
    }
    let points = if kept == 0 {
        u32::from(rules.points(Fan::ChickenHand))
    } else {
        raw.table_points(kept)
            .wrapping_add(overridden(kept, rules, |fan| raw.count(fan)))
    };
    Standing { kept, points }
}

/// The points of a multiset of fans under a ruleset (flowers included if present).
#[allow(clippy::cast_possible_truncation)] // the casts keep each half of the mask
pub fn points(fans: &FanCounts, rules: &Ruleset) -> u32 {
    let mask = fans.present();
    let mut total = 0;
    // The mask a 64-bit half at a time: cheaper steps than over the 128 bits.
    for (half, base) in [(mask as u64, 0), ((mask >> 64) as u64, 64)] {
        let mut left = half;
        while left != 0 {
            let p = base + left.trailing_zeros() as usize;
            left &= left - 1;
            total += u32::from(PASS_POINTS[p]) * u32::from(fans.at(p));
        }
    }
    total.wrapping_add(overridden(mask, rules, |fan| fans.get(fan)))
}

/// What the ruleset's overrides of the fans of `mask` (pass positions) add to the 1998
/// table's points (the first override of a fan counts, as in [`Ruleset::points`]), given
/// each fan's count: modulo 2³², as an override may lower a fan's points (the sum with
/// the table's points, which include the fan's, is never below zero).
fn overridden(mask: u128, rules: &Ruleset, count: impl Fn(Fan) -> u8) -> u32 {
    let mut change = 0u32;
    for (i, &(fan, points)) in rules.point_overrides.iter().enumerate() {
        let first = !rules.point_overrides[..i].iter().any(|&(f, _)| f == fan);
        if mask & bit(fan) != 0 && first {
            let n = u32::from(count(fan));
            change = change
                .wrapping_sub(u32::from(fan.spec().points) * n)
                .wrapping_add(u32::from(points) * n);
        }
    }
    change
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_order_is_by_value() {
        for w in PASS_ORDER.windows(2) {
            assert!(w[0].spec().points >= w[1].spec().points);
        }
    }

    /// The pass as the rulebook states it, every fan present visited in order: the oracle
    /// of [`standing`], which visits only the fans that exclude a later one.
    fn kept_by_visiting_every_fan(raw: &Tally, rules: &Ruleset) -> u128 {
        let mut kept = 0u128;
        let mut suppressed = 0u128;
        let mut left = raw.present();
        while left != 0 {
            let p = left.trailing_zeros() as usize;
            kept |= 1 << p;
            for f in PASS_ORDER {
                if rules.excludes(PASS_ORDER[p], f) {
                    suppressed |= bit(f);
                }
            }
            left &= !(1 << p) & !suppressed;
        }
        kept
    }

    /// Overrides that name a fan twice (the first counts) and lower a fan's points.
    const TWICE_OVERRIDDEN: Ruleset<'static> = Ruleset {
        point_overrides: &[
            (Fan::AllChows, 4),
            (Fan::ConcealedHand, 1),
            (Fan::AllChows, 9),
            (Fan::PungOfTerminalsOrHonors, 3),
        ],
        ..Ruleset::MIL
    };

    #[test]
    fn visiting_the_excluders_only_agrees_with_visiting_every_fan() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for round in 0..20_000 {
            let mut raw = Tally::default();
            // A handful of fans, often related by exclusions.
            for _ in 0..2 + round % 9 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let fan = Fan::ALL[usize::try_from(seed % 82).unwrap_or(0)];
                // A fan counted once at most is added once.
                if !raw.has(fan) {
                    raw.add(fan, 1);
                }
            }
            for rules in [&Ruleset::MIL, &Ruleset::GREEN_BOOK_2006, &TWICE_OVERRIDDEN] {
                let expected = kept_by_visiting_every_fan(&raw, rules);
                let got = standing(&raw, rules);
                assert_eq!(got.kept, expected, "{raw:?}");
                let fans = got.fans(&raw);
                let by_fan: u32 = fans
                    .iter()
                    .map(|(f, n)| u32::from(rules.points(f)) * u32::from(n))
                    .sum();
                assert_eq!(got.points, by_fan, "{raw:?}");
                assert_eq!(points(&fans, rules), by_fan, "{raw:?}");
            }
        }
    }

    #[test]
    fn a_suppressed_fan_does_not_suppress() {
        // 七对 suppresses 不求人, so 不求人 does not suppress 自摸.
        let mut raw = Tally::default();
        raw.add(Fan::SevenPairs, 1);
        raw.add(Fan::FullyConcealedHand, 1);
        raw.add(Fan::SelfDrawn, 1);
        let kept = standing(&raw, &Ruleset::MIL).fans(&raw);
        assert!(
            kept.has(Fan::SevenPairs)
                && kept.has(Fan::SelfDrawn)
                && !kept.has(Fan::FullyConcealedHand)
        );
        // The Green Book lifts that exclusion: 不求人 stands and takes 自摸 with it.
        let kept = standing(&raw, &Ruleset::GREEN_BOOK_2006).fans(&raw);
        assert!(kept.has(Fan::FullyConcealedHand) && !kept.has(Fan::SelfDrawn));
    }
}
