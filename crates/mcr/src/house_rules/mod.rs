//! House rules: a ruleset with some of its switches replaced for one request
//! ([`RuleOverrides`] → [`HouseRules`]), every switch described in words
//! ([`describe`]) and the fingerprint of the switches in effect ([`fingerprint`]).
//!
//! The fingerprint is FNV-1a (64 bits) over a canonical text: the line `mcr-rules/1`, then
//! one line `name=value` per switch of [`SWITCHES`], in that order, each ending in `\n`
//! (values as [`describe`] writes them). It depends only on the switches in effect, not on
//! the ruleset named nor on how the overrides were written, and not on the build or the
//! platform: the same switches always give the same 16 hex digits. The text is hashed as it
//! is written, piece by piece; it is never built.
//!
//! One concept a module: `overrides` (what a house rule may replace), `check` (range
//! checks), `apply` (the overrides applied: [`HouseRules`]) and `switches` (the switch table
//! and the fingerprint).

use std::sync::{Arc, OnceLock};

use crate::ruleset::{Ruleset, RulesetId};
use crate::violation::Violation;

mod apply;
mod check;
mod overrides;
mod switches;

pub use apply::HouseRules;
pub use overrides::{
    EscalationOverride, LateArrivalOverride, MAX_FAN_POINTS, MAX_FIGURE, MAX_SCALE_LENGTH,
    RuleOverrides,
};
pub use switches::{SWITCHES, Switch, SwitchSpec, describe, fingerprint, fingerprint_hex};

/// The rules a request applies: one of the three rulesets, or one with house rules.
#[derive(Clone, Debug)]
pub enum Rules {
    /// A ruleset as it stands.
    Standard(RulesetId),
    /// A ruleset with house rules (shared: a copy of the rules is a reference).
    House(Arc<HouseRules>),
}

impl Rules {
    /// The ruleset `id`, with `overrides` applied when there are any.
    pub fn new(id: RulesetId, overrides: Option<&RuleOverrides>) -> Result<Rules, Vec<Violation>> {
        match overrides {
            None => Ok(Rules::Standard(id)),
            Some(o) => Ok(Rules::House(Arc::new(HouseRules::new(id, o)?))),
        }
    }

    /// The ruleset in effect.
    pub fn ruleset(&self) -> Ruleset<'_> {
        match self {
            Rules::Standard(id) => *Ruleset::get(*id),
            Rules::House(house) => house.ruleset(),
        }
    }

    /// The ruleset the rules start from.
    pub fn id(&self) -> RulesetId {
        match self {
            Rules::Standard(id) => *id,
            Rules::House(house) => house.id(),
        }
    }

    /// The fingerprint of the switches in effect (of the three rulesets: worked out once).
    pub fn fingerprint(&self) -> u64 {
        match self {
            Rules::Standard(id) => standard_fingerprint(*id),
            Rules::House(house) => house.fingerprint(),
        }
    }
}

/// The fingerprint of one of the three rulesets, worked out on first use.
pub fn standard_fingerprint(id: RulesetId) -> u64 {
    static FINGERPRINTS: OnceLock<[u64; 3]> = OnceLock::new();
    let all = FINGERPRINTS.get_or_init(|| RulesetId::ALL.map(|id| fingerprint(Ruleset::get(id))));
    let index = match id {
        RulesetId::ChineseOfficial1998 => 0,
        RulesetId::Mil => 1,
        RulesetId::GreenBook2006 => 2,
    };
    all[index]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fan::Fan;

    /// The play switches came after the fingerprint was fixed: at their defaults they are
    /// not in the canonical text (every fingerprint given before stands); set otherwise,
    /// they are, and `describe` lists them either way.
    #[test]
    fn play_switches_enter_the_fingerprint_only_away_from_their_defaults() {
        use crate::ruleset::{AddedKongTile, LastDiscardClaims, WallRule};
        let mil = standard_fingerprint(RulesetId::Mil);
        let same = RuleOverrides {
            wall: Some(WallRule::Shared136),
            last_discard_claims: Some(LastDiscardClaims::WinsOnly),
            added_kong_tile: Some(AddedKongTile::JustDrawn),
            ..RuleOverrides::default()
        };
        assert_eq!(
            HouseRules::new(RulesetId::Mil, &same)
                .unwrap()
                .fingerprint(),
            mil
        );
        let mut seen = vec![mil];
        for o in [
            RuleOverrides {
                wall: Some(WallRule::Botzone),
                ..RuleOverrides::default()
            },
            RuleOverrides {
                wall: Some(WallRule::Shared144),
                ..RuleOverrides::default()
            },
            RuleOverrides {
                last_discard_claims: Some(LastDiscardClaims::All),
                ..RuleOverrides::default()
            },
            RuleOverrides {
                added_kong_tile: Some(AddedKongTile::AnyHeld),
                ..RuleOverrides::default()
            },
        ] {
            let f = HouseRules::new(RulesetId::Mil, &o).unwrap().fingerprint();
            assert!(!seen.contains(&f), "{o:?}");
            seen.push(f);
        }
        let names: Vec<&str> = describe(Ruleset::get(RulesetId::Mil))
            .iter()
            .map(|s| s.name)
            .collect();
        assert!(names.ends_with(&["wall", "last_discard_claims", "added_kong_tile"]));
    }

    #[test]
    fn overrides_that_change_nothing_keep_the_fingerprint() {
        let same = RuleOverrides {
            minimum_fan: Some(8),
            fan_points: vec![(Fan::MeldedAndConcealedKongs, 5)],
            ..RuleOverrides::default()
        };
        let house = HouseRules::new(RulesetId::Mil, &same).unwrap();
        assert_eq!(house.fingerprint(), standard_fingerprint(RulesetId::Mil));
        assert_eq!(house.ruleset().points(Fan::MeldedAndConcealedKongs), 5);
        let other = RuleOverrides {
            minimum_fan: Some(6),
            ..RuleOverrides::default()
        };
        let house = HouseRules::new(RulesetId::Mil, &other).unwrap();
        assert_ne!(house.fingerprint(), standard_fingerprint(RulesetId::Mil));
    }
}
