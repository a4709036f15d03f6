//! The switch table: every switch of a ruleset, its meaning and its canonical value, and
//! the fingerprint of the switches in effect (FNV-1a 64 over their canonical text, hashed
//! as it is written: the text itself is never built).

use std::fmt;

use crate::fan::{FAN_TABLE, Fan};
use crate::ruleset::{
    AddedKongTile, LastDiscardClaims, NineGatesTerminalPungs, PlayRules, Ruleset,
    StandardPointTies, StandardPoints, ThreeKongsRule, WallRule,
};

/// One switch of a ruleset: its name (the field of the overrides that sets it), what it
/// means, and how its value is written.
#[derive(Clone, Copy, Debug)]
pub struct SwitchSpec {
    /// The name, as the field of the overrides that sets it.
    pub name: &'static str,
    /// What the switch decides, in one line.
    pub meaning: &'static str,
    /// Writes the value in effect under a ruleset (the canonical form the fingerprint reads).
    pub write: fn(&Ruleset<'_>, &mut dyn fmt::Write) -> fmt::Result,
    /// For a switch added after the canonical text was fixed: whether it holds its default
    /// (the value the rulesets had before it could be switched), when it is left out of the
    /// text, so that every fingerprint given before stands. `None`: always written.
    pub at_default: Option<fn(&Ruleset<'_>) -> bool>,
}

/// One switch of a ruleset with its value in effect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Switch {
    /// The name, as the field of the overrides that sets it.
    pub name: &'static str,
    /// The value in effect, canonical form.
    pub value: String,
    /// What the switch decides, in one line.
    pub meaning: &'static str,
}

fn flag_text(out: &mut dyn fmt::Write, value: bool) -> fmt::Result {
    out.write_str(if value { "true" } else { "false" })
}

fn number(out: &mut dyn fmt::Write, value: u32) -> fmt::Result {
    write!(out, "{value}")
}

fn list(out: &mut dyn fmt::Write, values: &[u32]) -> fmt::Result {
    for (i, value) in values.iter().enumerate() {
        if i > 0 {
            out.write_char(',')?;
        }
        number(out, *value)?;
    }
    Ok(())
}

fn fan_points_text(r: &Ruleset<'_>, out: &mut dyn fmt::Write) -> fmt::Result {
    let mut first = true;
    for spec in &FAN_TABLE {
        let points = r.points(spec.fan);
        if spec.fan != Fan::FlowerTiles && points != spec.points {
            if !first {
                out.write_char(',')?;
            }
            first = false;
            write!(out, "{}:{points}", spec.fan.id())?;
        }
    }
    Ok(())
}

fn lifted_text(r: &Ruleset<'_>, out: &mut dyn fmt::Write) -> fmt::Result {
    let mut first = true;
    for spec in &FAN_TABLE {
        for &excluded in spec.excludes {
            if !r.excludes(spec.fan, excluded) {
                if !first {
                    out.write_char(',')?;
                }
                first = false;
                write!(out, "{}>{}", spec.fan.id(), excluded.id())?;
            }
        }
    }
    Ok(())
}

/// Every switch of a ruleset, in the order of the canonical text.
pub const SWITCHES: [SwitchSpec; 25] = [
    SwitchSpec {
        at_default: None,
        name: "minimum_fan",
        meaning: "the least a win must score, flowers excluded (起和分)",
        write: |r, out| number(out, r.minimum_fan),
    },
    SwitchSpec {
        at_default: None,
        name: "base_points",
        meaning: "底分: what each loser pays the winner besides the fan points",
        write: |r, out| number(out, r.base_points),
    },
    SwitchSpec {
        at_default: None,
        name: "flower_points",
        meaning: "points of each flower (花牌), added to the total, not to the minimum",
        write: |r, out| number(out, u32::from(r.points(Fan::FlowerTiles))),
    },
    SwitchSpec {
        at_default: None,
        name: "fan_points",
        meaning: "fans worth other points than in the 1998 table, as fan:points",
        write: fan_points_text,
    },
    SwitchSpec {
        at_default: None,
        name: "lifted_exclusions",
        meaning: "exclusions of the fan table not applied, as fan>excluded",
        write: lifted_text,
    },
    SwitchSpec {
        at_default: None,
        name: "three_kongs",
        meaning: "三杠 with one concealed kong also scores 暗杠 (concealed_kong_adds) or not (family_of_each)",
        write: |r, out| {
            out.write_str(match r.three_kongs {
                ThreeKongsRule::FamilyOfEach => "family_of_each",
                ThreeKongsRule::ConcealedKongAdds => "concealed_kong_adds",
            })
        },
    },
    SwitchSpec {
        at_default: None,
        name: "nine_gates_terminal_pungs",
        meaning: "幺九刻 counted beside 九莲宝灯: none, or one fewer than the reading shows",
        write: |r, out| {
            out.write_str(match r.nine_gates_terminal_pungs {
                NineGatesTerminalPungs::OneFewer => "one_fewer",
                NineGatesTerminalPungs::None => "none",
            })
        },
    },
    SwitchSpec {
        at_default: None,
        name: "wait_counts_exhausted_tiles",
        meaning: "a kind counts as a wait even when the winner holds all four copies (formal waits)",
        write: |r, out| flag_text(out, r.wait_counts_exhausted_tiles),
    },
    SwitchSpec {
        at_default: None,
        name: "seven_pairs_honor_tile_hog",
        meaning: "four identical honours in seven pairs score 四归一",
        write: |r, out| flag_text(out, r.seven_pairs_honor_tile_hog),
    },
    SwitchSpec {
        at_default: None,
        name: "lesser_honors_knitted_straight",
        meaning: "全不靠 holding all nine knitted tiles also scores 组合龙",
        write: |r, out| flag_text(out, r.lesser_honors_knitted_straight),
    },
    SwitchSpec {
        at_default: None,
        name: "knitted_straight_all_chows",
        meaning: "the 组合龙 + set + pair form may score 平和",
        write: |r, out| flag_text(out, r.knitted_straight_all_chows),
    },
    SwitchSpec {
        at_default: None,
        name: "standard_points",
        meaning: "标准分: the 1998 group formula N, N-2, …, 0 (group_formula) or 4/2/1/0 a table (table_4210)",
        write: |r, out| {
            out.write_str(match r.standard_points {
                StandardPoints::GroupFormula => "group_formula",
                StandardPoints::Table4210 => "table_4210",
            })
        },
    },
    SwitchSpec {
        at_default: None,
        name: "standard_point_ties",
        meaning: "tied players share the points of their places (share_places) or all take the best (same_place)",
        write: |r, out| {
            out.write_str(match r.standard_point_ties {
                StandardPointTies::SharePlaces => "share_places",
                StandardPointTies::SamePlace => "same_place",
            })
        },
    },
    SwitchSpec {
        at_default: None,
        name: "false_win_each",
        meaning: "错和 / 和错牌: points paid to each other player",
        write: |r, out| number(out, r.penalties.false_win_each),
    },
    SwitchSpec {
        at_default: None,
        name: "not_ready_win_each",
        meaning: "诈和 (one tile short of ready): points paid to each other player",
        write: |r, out| number(out, r.penalties.not_ready_win_each),
    },
    SwitchSpec {
        at_default: None,
        name: "false_win_loses_right_to_win",
        meaning: "a false declaration also costs the right to win the hand (停和)",
        write: |r, out| flag_text(out, r.penalties.false_win_loses_right_to_win),
    },
    SwitchSpec {
        at_default: None,
        name: "deliberate_false_win_disqualifies",
        meaning: "有意诈和 (two or more tiles short) disqualifies; otherwise it is ruled as 诈和",
        write: |r, out| flag_text(out, r.penalties.deliberate_false_win_disqualifies),
    },
    SwitchSpec {
        at_default: None,
        name: "graded_min",
        meaning: "the least a referee may make an offender pay a victim (R98 §14-7(3))",
        write: |r, out| number(out, r.penalties.graded_min),
    },
    SwitchSpec {
        at_default: None,
        name: "graded_max",
        meaning: "the most a referee may make an offender pay a victim (R98 §14-7(3))",
        write: |r, out| number(out, r.penalties.graded_max),
    },
    SwitchSpec {
        at_default: None,
        name: "grades",
        meaning: "the amounts a graded deduction may take (R98 §13-2(2))",
        write: |r, out| list(out, r.penalties.grades),
    },
    SwitchSpec {
        at_default: None,
        name: "repeat_offences",
        meaning: "repeated 空吃/空碰/空杠, early draws, late pungs: warning first or not, the steps, then doubling up to the cap",
        write: |r, out| {
            let e = &r.repeat_offences;
            out.write_str(if e.first_is_warning { "warning;" } else { "" })?;
            list(out, e.steps)?;
            write!(out, ";cap {}", e.cap)
        },
    },
    SwitchSpec {
        at_default: None,
        name: "late_arrival",
        meaning: "late arrival at a session: tiers as minutes:points(+warning), then the forfeit after so many minutes",
        write: |r, out| {
            let l = &r.late_arrival;
            for (i, t) in l.tiers.iter().enumerate() {
                if i > 0 {
                    out.write_char(',')?;
                }
                write!(out, "{}:{}", t.up_to_minutes, t.points)?;
                if t.warning {
                    out.write_str("+warning")?;
                }
            }
            write!(out, ";forfeit after {}", l.forfeit_after_minutes)
        },
    },
    SwitchSpec {
        at_default: Some(|r| r.play.wall == PlayRules::DEFAULT.wall),
        name: "wall",
        meaning: "the wall of a hand in play: one shared wall of 136 tiles (shared_136) or 144 with the flowers (shared_144), or each seat's own wall of 34 as Botzone's judge deals them (botzone)",
        write: |r, out| {
            out.write_str(match r.play.wall {
                WallRule::Shared136 => "shared_136",
                WallRule::Shared144 => "shared_144",
                WallRule::Botzone => "botzone",
            })
        },
    },
    SwitchSpec {
        at_default: Some(|r| r.play.last_discard_claims == PlayRules::DEFAULT.last_discard_claims),
        name: "last_discard_claims",
        meaning: "on the last discard only a win may be claimed (wins_only) or any claim (all)",
        write: |r, out| {
            out.write_str(match r.play.last_discard_claims {
                LastDiscardClaims::WinsOnly => "wins_only",
                LastDiscardClaims::All => "all",
            })
        },
    },
    SwitchSpec {
        at_default: Some(|r| r.play.added_kong_tile == PlayRules::DEFAULT.added_kong_tile),
        name: "added_kong_tile",
        meaning: "an added kong (加杠) adds the tile just drawn (just_drawn) or any copy held (any_held, as Botzone's judge)",
        write: |r, out| {
            out.write_str(match r.play.added_kong_tile {
                AddedKongTile::JustDrawn => "just_drawn",
                AddedKongTile::AnyHeld => "any_held",
            })
        },
    },
];

/// Every switch of `rules` with its value in effect and its meaning, in [`SWITCHES`] order.
pub fn describe(rules: &Ruleset<'_>) -> Vec<Switch> {
    SWITCHES
        .iter()
        .map(|spec| {
            let mut value = String::new();
            // Writing to a `String` cannot fail.
            let _ = (spec.write)(rules, &mut value);
            Switch {
                name: spec.name,
                value,
                meaning: spec.meaning,
            }
        })
        .collect()
}

/// The fingerprint of the switches in effect: FNV-1a 64 over the canonical text (module
/// documentation), each piece hashed as it is written.
pub fn fingerprint(rules: &Ruleset<'_>) -> u64 {
    let mut hash = Fnv1a::new();
    // Hashing cannot fail: `Fnv1a::write_str` always succeeds.
    let _ = write_canonical(rules, &mut hash);
    hash.finish()
}

/// The canonical text of the switches in effect: `mcr-rules/1`, then `name=value` per
/// switch, each line ending in `\n`.
fn write_canonical(rules: &Ruleset<'_>, out: &mut dyn fmt::Write) -> fmt::Result {
    out.write_str("mcr-rules/1\n")?;
    for spec in &SWITCHES {
        if spec.at_default.is_some_and(|at_default| at_default(rules)) {
            continue;
        }
        out.write_str(spec.name)?;
        out.write_char('=')?;
        (spec.write)(rules, out)?;
        out.write_char('\n')?;
    }
    Ok(())
}

/// FNV-1a (64 bits), fed text as it is written.
struct Fnv1a(u64);

impl Fnv1a {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    fn new() -> Fnv1a {
        Fnv1a(Fnv1a::OFFSET)
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl fmt::Write for Fnv1a {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for b in s.bytes() {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(Fnv1a::PRIME);
        }
        Ok(())
    }
}

/// The fingerprint as written in responses: 16 lower-case hex digits.
pub fn fingerprint_hex(fingerprint: u64) -> String {
    format!("{fingerprint:016x}")
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use super::*;
    use crate::ruleset::RulesetId;

    /// FNV-1a 64 of a whole text, the reference the hasher fed in pieces must match.
    fn fnv(text: &str) -> u64 {
        text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        })
    }

    #[test]
    fn the_fingerprint_is_pinned() {
        // FNV-1a 64 of the empty string, then of "a": the published test vectors.
        assert_eq!(fnv(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(Fnv1a::new().finish(), 0xcbf2_9ce4_8422_2325);
        let mut a = Fnv1a::new();
        a.write_str("a").unwrap();
        assert_eq!(a.finish(), 0xaf63_dc4c_8601_ec8c);
        // Pinned: the fingerprint is part of the contract (logged by game servers), so a
        // change of the canonical text must be deliberate (a new `mcr-rules/N` line).
        let all = RulesetId::ALL.map(|id| fingerprint_hex(fingerprint(Ruleset::get(id))));
        assert_eq!(
            all,
            ["82160c1ef944b8cb", "0be21bdad1bd6f45", "fca2cad3ce7711a1"]
        );
    }

    #[test]
    fn the_text_hashed_in_pieces_is_the_canonical_text() {
        let house = crate::house_rules::HouseRules::new(
            RulesetId::GreenBook2006,
            &crate::house_rules::RuleOverrides {
                fan_points: vec![(Fan::AllPungs, 12), (Fan::MeldedKong, 2)],
                flower_points: Some(2),
                lift_exclusions: vec![(Fan::BigFourWinds, Fan::AllPungs)],
                repeat_offences: Some(crate::house_rules::EscalationOverride {
                    first_is_warning: true,
                    steps: vec![5, 10],
                    cap: 40,
                }),
                late_arrival: Some(crate::house_rules::LateArrivalOverride {
                    tiers: vec![
                        crate::penalty::LateTier {
                            up_to_minutes: 5,
                            points: 0,
                            warning: true,
                        },
                        crate::penalty::LateTier {
                            up_to_minutes: 15,
                            points: 20,
                            warning: false,
                        },
                    ],
                    forfeit_after_minutes: 30,
                }),
                ..Default::default()
            },
        )
        .unwrap();
        let rulesets = RulesetId::ALL.map(|id| *Ruleset::get(id));
        for rules in rulesets.iter().chain([&house.ruleset()]) {
            let mut text = String::new();
            write_canonical(rules, &mut text).unwrap();
            assert!(text.starts_with("mcr-rules/1\nminimum_fan="), "{text}");
            // The play switches are at their defaults here: not in the text.
            let written = SWITCHES.iter().filter(|s| s.at_default.is_none()).count();
            assert_eq!(text.lines().count(), 1 + written, "{text}");
            assert_eq!(fingerprint(rules), fnv(&text), "{text}");
        }
        let mut text = String::new();
        write_canonical(&house.ruleset(), &mut text).unwrap();
        for line in [
            "fan_points=",
            "lifted_exclusions=",
            "repeat_offences=warning;5,10;cap 40",
            "late_arrival=5:0+warning,15:20;forfeit after 30",
        ] {
            assert!(text.contains(line), "{line} in {text}");
        }
    }

    #[test]
    fn every_switch_is_described_once() {
        let switches = describe(&Ruleset::CHINESE_OFFICIAL_1998);
        assert_eq!(switches.len(), SWITCHES.len());
        for (i, s) in switches.iter().enumerate() {
            assert!(!s.meaning.is_empty());
            assert!(switches[..i].iter().all(|t| t.name != s.name), "{}", s.name);
        }
        let gb = describe(&Ruleset::GREEN_BOOK_2006);
        let lifted = gb.iter().find(|s| s.name == "lifted_exclusions").unwrap();
        assert!(lifted.value.contains("3>"), "{}", lifted.value);
    }
}
