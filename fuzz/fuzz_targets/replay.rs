//! Botzone's record format on arbitrary text: reading never panics; every match that reads
//! is replayed under the three walls without panicking, its findings point at lines of the
//! match, and the record written back reads as the same record.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcr::Ruleset;
use mcr::play::botzone::{read_match, read_matches, write_match};
use mcr::play::{ReplayOptions, replay};
use mcr::ruleset::{AddedKongTile, WallRule};

fuzz_target!(|text: &str| {
    for (_, read) in read_matches(text) {
        let Ok(m) = read else {
            continue;
        };
        for wall in [WallRule::Shared136, WallRule::Shared144, WallRule::Botzone] {
            let mut rules = Ruleset::MIL;
            rules.play.wall = wall;
            rules.play.added_kong_tile = match wall {
                WallRule::Botzone => AddedKongTile::AnyHeld,
                WallRule::Shared136 | WallRule::Shared144 => AddedKongTile::JustDrawn,
            };
            let r = replay(&m.record, &rules, ReplayOptions { snapshots: true });
            for v in &r.violations {
                let line = m.line_of(v.at);
                assert!((1..=m.lines).contains(&line), "{v:?} at line {line}");
            }
            assert!(r.snapshots.len() <= m.record.events.len() + 1);
        }
        let written = write_match(&m.id, &m.record, None);
        let lines: Vec<&str> = written.lines().collect();
        let again = read_match(&lines)
            .unwrap_or_else(|e| panic!("{written:?} does not read back: {e}"));
        assert_eq!(again.record.events, m.record.events);
        assert_eq!(again.record.deal, m.record.deal);
        assert_eq!(again.record.draw_game, m.record.draw_game);
        assert_eq!(again.record.stated.fan, m.record.stated.fan);
        assert_eq!(again.record.stated.scores, m.record.stated.scores);
    }
});
