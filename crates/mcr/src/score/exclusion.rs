//! The exclusion pass (不计) over the fans detected in one reading, and the points of the
//! fans that stand.

use crate::fan::{EXCLUDES, Fan, FanCounts, PASS_ORDER, PASS_POINTS, bit};
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
    pub(crate) fn fans(self, raw: &FanCounts) -> FanCounts {
        let mut kept = raw.only(self.kept);
        if kept.is_empty() {
            kept.set(Fan::ChickenHand, 1);
        }
        kept
    }
}

/// Points of one instance of the fan at pass position `p` under a ruleset.
fn points_at(p: usize, rules: &Ruleset) -> u32 {
    u32::from(if rules.point_overrides.is_empty() {
        PASS_POINTS[p]
    } else {
        rules.points(PASS_ORDER[p])
    })
}

/// The exclusion pass (不计) over the fans detected in one reading: visiting fans from the
/// highest down, a fan that is still standing suppresses the fans it excludes; a suppressed
/// fan suppresses nothing. The points of what stands are summed on the way; nothing standing
/// is 无番和.
pub(crate) fn standing(raw: &FanCounts, rules: &Ruleset) -> Standing {
    let mut kept = 0u128;
    let mut suppressed = 0u128;
    let mut points = 0;
    // Fans still to visit: the suppressed ones drop out as they are suppressed.
    let mut left = raw.present();
    while left != 0 {
        let p = left.trailing_zeros() as usize;
        kept |= 1 << p;
        points += points_at(p, rules) * u32::from(raw.at(p));
        let mut excludes = EXCLUDES[p];
        for &(f, lifted) in rules.lifted_exclusions {
            if f == PASS_ORDER[p] {
                excludes &= !bit(lifted);
            }
        }
        suppressed |= excludes;
        left &= !(1 << p) & !suppressed;
    }
    if kept == 0 {
        points = u32::from(rules.points(Fan::ChickenHand));
    }
    Standing { kept, points }
}

/// The fans of one reading that stand after the exclusion pass (see [`standing`]).
pub(crate) fn apply_exclusions(raw: &FanCounts, rules: &Ruleset) -> FanCounts {
    standing(raw, rules).fans(raw)
}

/// The points of a multiset of fans under a ruleset (flowers included if present).
pub fn points(fans: &FanCounts, rules: &Ruleset) -> u32 {
    let mut bits = fans.present();
    let mut total = 0;
    while bits != 0 {
        let p = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        total += points_at(p, rules) * u32::from(fans.at(p));
    }
    total
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
