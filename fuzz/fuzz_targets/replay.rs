//! The play referee on arbitrary input (the first byte chooses what): hand records, and
//! seats' views and claims. Nothing panics, and:
//!
//! - Botzone's text (engine): every match that reads is replayed under the three walls; its
//!   findings point at lines of the match; the record written back reads as the same record;
//! - a `ReplayHandRequest` decoded by prost (service): a verdict or every violation; a
//!   verdict's findings point at events of the record, and its accounts add up to what the
//!   false declarations' deductions took out (zero when there are none);
//! - a `LegalActionsRequest`: no action is listed twice;
//! - an `ArbitrateClaimsRequest`: the claim that stands, those overridden and the illegal
//!   ones are distinct claims of the request.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mahjong_referee::api::pb;
use mahjong_referee::api::play::{arbitrate_claims, legal_actions_of, replay_hand};
use mcr::Ruleset;
use mcr::play::botzone::{read_match, read_matches, write_match};
use mcr::play::{ReplayOptions, replay};
use mcr::ruleset::{AddedKongTile, WallRule};
use prost::Message as _;

fuzz_target!(
    init: {
        mcr::shape::warm_up();
    },
    |data: &[u8]| {
        let Some((&selector, bytes)) = data.split_first() else {
            return;
        };
        match selector % 4 {
            0 => {
                if let Ok(text) = std::str::from_utf8(bytes) {
                    text_records(text);
                }
            }
            1 => {
                if let Ok(request) = pb::ReplayHandRequest::decode(bytes) {
                    service(&request);
                }
            }
            2 => {
                if let Ok(request) = pb::LegalActionsRequest::decode(bytes) {
                    actions(&request);
                }
            }
            _ => {
                if let Ok(request) = pb::ArbitrateClaimsRequest::decode(bytes) {
                    claims(&request);
                }
            }
        }
    }
);

fn text_records(text: &str) {
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
            for v in &r.findings {
                let line = m.line_of(v.at);
                assert!((1..=m.lines).contains(&line), "{v:?} at line {line}");
            }
            assert!(r.snapshots.len() <= m.record.events.len() + 1);
        }
        let written = write_match(&m.id, &m.record, None);
        let lines: Vec<&str> = written.lines().collect();
        let again =
            read_match(&lines).unwrap_or_else(|e| panic!("{written:?} does not read back: {e}"));
        assert_eq!(again.record.events, m.record.events);
        assert_eq!(again.record.deal, m.record.deal);
        assert_eq!(again.record.draw_game, m.record.draw_game);
        assert_eq!(again.record.stated.fan, m.record.stated.fan);
        assert_eq!(again.record.stated.scores, m.record.stated.scores);
    }
}

fn service(request: &pb::ReplayHandRequest) {
    let Ok(response) = replay_hand(request) else {
        return;
    };
    if let Some(pb::replay_hand_request::Record::Structured(record)) = &request.record {
        for f in &response.findings {
            if f.place == pb::FindingPlace::Event as i32 {
                assert!((f.event_index as usize) < record.events.len(), "{f:?}");
            }
        }
    }
    let total: i64 = response.accounts.iter().map(|a| i64::from(a.delta)).sum();
    let unpaid: i64 = response
        .accounts
        .iter()
        .flat_map(|a| &a.lines)
        .filter(|l| l.counterparty == pb::Seat::Unspecified as i32)
        .map(|l| i64::from(l.amount))
        .sum();
    assert_eq!(total, unpaid, "{response:?}");
}

fn actions(request: &pb::LegalActionsRequest) {
    let Ok(response) = legal_actions_of(request) else {
        return;
    };
    for (i, a) in response.actions.iter().enumerate() {
        assert!(
            response.actions[..i]
                .iter()
                .all(|b| (b.action, b.tile, b.flower) != (a.action, a.tile, a.flower)),
            "{response:?}"
        );
    }
}

fn claims(request: &pb::ArbitrateClaimsRequest) {
    let Ok(response) = arbitrate_claims(request) else {
        return;
    };
    let mut seen: Vec<u32> = response.stands.into_iter().collect();
    seen.extend(&response.overridden);
    seen.extend(response.illegal.iter().map(|c| c.index));
    let n = seen.len();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen.len(), n, "{response:?}");
    assert!(seen.iter().all(|&i| (i as usize) < request.claims.len()));
    assert!(response.stands.is_some() || response.overridden.is_empty());
}
