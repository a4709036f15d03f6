//! The exclusion pass (不计) over the fans detected in one reading, and the points of the
//! fans that stand.

use crate::fan::{EXCLUDES, Fan, FanCounts, PASS_ORDER, bit};
use crate::ruleset::Ruleset;

/// Applies the exclusion table (不计): visiting fans from the highest down, a fan that is
/// still standing suppresses the fans it excludes; a suppressed fan suppresses nothing.
/// An empty result of a winning reading is 无番和.
pub(crate) fn apply_exclusions(raw: &FanCounts, rules: &Ruleset) -> FanCounts {
    let mut kept = 0u128;
    let mut suppressed = 0u128;
    // Fans still to visit: the suppressed ones drop out as they are suppressed.
    let mut left = raw.present();
    while left != 0 {
        let p = left.trailing_zeros() as usize;
        kept |= 1 << p;
        let mut excludes = EXCLUDES[p];
        for &(f, lifted) in rules.lifted_exclusions {
            if f == PASS_ORDER[p] {
                excludes &= !bit(lifted);
            }
        }
        suppressed |= excludes;
        left &= !(1 << p) & !suppressed;
    }
    let mut kept = raw.only(kept);
    if kept.is_empty() {
        kept.set(Fan::ChickenHand, 1);
    }
    kept
}

/// The points of a multiset of fans under a ruleset (flowers included if present).
pub fn points(fans: &FanCounts, rules: &Ruleset) -> u32 {
    fans.iter_by_value()
        .map(|(f, n)| u32::from(rules.points(f)) * u32::from(n))
        .sum()
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

    #[test]
    fn a_suppressed_fan_does_not_suppress() {
        // 七对 suppresses 不求人, so 不求人 does not suppress 自摸.
        let mut raw = FanCounts::default();
        raw.set(Fan::SevenPairs, 1);
        raw.set(Fan::FullyConcealedHand, 1);
        raw.set(Fan::SelfDrawn, 1);
        let kept = apply_exclusions(&raw, &Ruleset::MIL);
        assert!(
            kept.has(Fan::SevenPairs)
                && kept.has(Fan::SelfDrawn)
                && !kept.has(Fan::FullyConcealedHand)
        );
        // The Green Book lifts that exclusion: 不求人 stands and takes 自摸 with it.
        let kept = apply_exclusions(&raw, &Ruleset::GREEN_BOOK_2006);
        assert!(kept.has(Fan::FullyConcealedHand) && !kept.has(Fan::SelfDrawn));
    }
}
