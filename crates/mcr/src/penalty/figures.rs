//! The arithmetic of a ruleset's penalty figures: the escalation of repeated offences and
//! the late-arrival scale. The figures themselves are switches of the [`Ruleset`](crate::Ruleset)
//! (docs/rules/rulesets.md#penalty-figures), so that a tournament variant sets them with the rest.

#[cfg(test)]
use crate::ruleset::Ruleset;
pub use crate::ruleset::{Escalation, LateArrivalScale, LateTier, PenaltyFigures};

/// The sanction for one late arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct LateArrivalRuling {
    /// A warning is given.
    pub warning: bool,
    /// Points deducted from the session total.
    pub points: u32,
    /// The session is forfeited: its total is 0.
    pub forfeit: bool,
}

impl Escalation<'_> {
    /// The points of occurrence `occurrence` (1 for the first); `None` for a warning.
    /// Occurrence 0 is read as 1.
    pub fn points(&self, occurrence: u32) -> Option<u32> {
        let occurrence = occurrence.max(1);
        let index = if self.first_is_warning {
            if occurrence == 1 {
                return None;
            }
            occurrence - 2
        } else {
            occurrence - 1
        };
        let index = usize::try_from(index).unwrap_or(usize::MAX);
        if let Some(&p) = self.steps.get(index) {
            return Some(p.min(self.cap));
        }
        let mut points = self.steps.last().copied().unwrap_or(self.cap).min(self.cap);
        for _ in self.steps.len()..=index {
            let doubled = points.saturating_mul(2).min(self.cap);
            if doubled == points {
                break;
            }
            points = doubled;
        }
        Some(points)
    }
}

impl LateArrivalScale<'_> {
    /// The sanction for arriving `minutes` late (whole minutes, rounded up by the caller).
    pub fn ruling(&self, minutes: u32) -> LateArrivalRuling {
        if minutes == 0 {
            return LateArrivalRuling::default();
        }
        if minutes > self.forfeit_after_minutes {
            return LateArrivalRuling {
                warning: false,
                points: 0,
                forfeit: true,
            };
        }
        let tier = self
            .tiers
            .iter()
            .find(|t| minutes <= t.up_to_minutes)
            .or(self.tiers.last());
        tier.map_or_else(LateArrivalRuling::default, |t| LateArrivalRuling {
            warning: t.warning,
            points: t.points,
            forfeit: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escalation_follows_part_a() {
        let e = Ruleset::CHINESE_OFFICIAL_1998.repeat_offences;
        let got: Vec<_> = (1..=8).map(|n| e.points(n)).collect();
        assert_eq!(
            got,
            [
                None,
                Some(5),
                Some(10),
                Some(20),
                Some(40),
                Some(60),
                Some(60),
                Some(60)
            ]
        );
        assert_eq!(e.points(u32::MAX), Some(60));
        let flat = Escalation {
            first_is_warning: false,
            steps: &[],
            cap: 0,
        };
        assert_eq!(flat.points(u32::MAX), Some(0));
    }
}
