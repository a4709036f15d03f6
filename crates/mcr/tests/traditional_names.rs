//! The Traditional Chinese names (`name_zh_hant`) of the fan table and the infraction
//! table, checked against their Simplified names character by character: the tables were
//! written by hand, so a slip shows here as a character that maps two ways, a Simplified-only
//! character left in, or a name of another length.

use std::collections::BTreeMap;

use mcr::Fan;
use mcr::InfractionKind;

/// Characters of the Simplified names that Traditional writing writes otherwise (杠 is 槓
/// for a kong, 于 is 於 for "than"): none may stay.
const CONVERTED: &str =
    "杠于双龙会顺节对带组风无捞开抢门齐绝归断连边张单钓将绿莲宝灯错诈时报误严扰赛迟";

/// Every (Simplified, Traditional) name pair of both tables.
fn pairs() -> Vec<(&'static str, &'static str)> {
    let fans = Fan::ALL.iter().map(|f| {
        let spec = f.spec();
        (spec.name_zh, spec.name_zh_hant)
    });
    let infractions = InfractionKind::ALL
        .iter()
        .map(|k| (k.name_zh(), k.name_zh_hant()));
    fans.chain(infractions).collect()
}

#[test]
fn every_character_converts_one_way_and_no_simplified_one_is_left() {
    let mut seen: BTreeMap<char, char> = BTreeMap::new();
    for (simplified, traditional) in pairs() {
        assert_eq!(
            simplified.chars().count(),
            traditional.chars().count(),
            "{simplified} / {traditional}"
        );
        for (s, t) in simplified.chars().zip(traditional.chars()) {
            assert!(
                !CONVERTED.contains(t),
                "{traditional} keeps the Simplified {t}"
            );
            let first = *seen.entry(s).or_insert(t);
            assert_eq!(
                first, t,
                "{s} is written {first} elsewhere, {t} in {traditional}"
            );
            // A character that is not in the list converts to itself.
            if !CONVERTED.contains(s) {
                assert_eq!(s, t, "{simplified} / {traditional}");
            }
        }
    }
}

#[test]
fn the_characters_that_change_are_the_ones_listed() {
    // Every character of the list occurs in some name, and each one changes.
    for s in CONVERTED.chars() {
        let changed = pairs().iter().any(|(simplified, traditional)| {
            simplified
                .chars()
                .zip(traditional.chars())
                .any(|(a, b)| a == s && b != s)
        });
        assert!(changed, "{s} is listed but changes nowhere");
    }
    let names: Vec<_> = pairs().into_iter().map(|(_, t)| t).collect();
    for expected in [
        "三色雙龍會",
        "九蓮寶燈",
        "大於五",
        "槓上開花",
        "十三幺",
        "錯和",
        "嚴重干擾比賽",
    ] {
        assert!(names.contains(&expected), "{expected}");
    }
}
