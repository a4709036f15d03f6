//! Fans: the table, the multiset type, detection per reading and the exclusion pass.

mod counts;
pub(crate) mod detect;
mod table;

pub use counts::FanCounts;
pub use table::{FAN_COUNT, FAN_TABLE, Fan, FanSpec};

use crate::ruleset::Ruleset;

/// Fans in the order the exclusion pass visits them: highest value first, then by id.
const PASS_ORDER: [Fan; FAN_COUNT] = {
    let mut order = Fan::ALL;
    // Insertion sort by (points descending, id ascending); const-evaluated.
    let mut i = 1;
    while i < FAN_COUNT {
        let mut j = i;
        while j > 0 {
            let a = order[j - 1].spec();
            let b = order[j].spec();
            if a.points < b.points || (a.points == b.points && (a.fan as u8) > (b.fan as u8)) {
                order.swap(j - 1, j);
                j -= 1;
            } else {
                break;
            }
        }
        i += 1;
    }
    order
};

/// Applies the exclusion table (不计): visiting fans from the highest down, a fan that is
/// still standing suppresses the fans it excludes; a suppressed fan suppresses nothing.
/// An empty result of a winning reading is 无番和.
pub(crate) fn apply_exclusions(raw: &FanCounts, rules: &Ruleset) -> FanCounts {
    let mut kept = FanCounts::default();
    let mut suppressed = [false; FAN_COUNT];
    for fan in PASS_ORDER {
        let n = raw.get(fan);
        if n == 0 || suppressed[fan.slot()] {
            continue;
        }
        kept.set(fan, n);
        for &ex in fan.spec().excludes {
            if rules.excludes(fan, ex) {
                suppressed[ex.slot()] = true;
            }
        }
    }
    if kept.is_empty() {
        kept.set(Fan::ChickenHand, 1);
    }
    kept
}

/// The points of a multiset of fans under a ruleset (flowers included if present).
pub fn points(fans: &FanCounts, rules: &Ruleset) -> u32 {
    fans.iter()
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
