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
//!   ones are distinct claims of the request;
//! - a `NextActionsRequest`: a phase; no line offered twice; the `over` phase offers no line
//!   and no decision, every other phase some line; a record that merely stops is no finding;
//! - a `DealHandRequest`: dealt exactly when its seed is 32 bytes and its wind one of the
//!   enum's; then 4 × 13 tiles and a wall of 84, every tile kind four times.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mahjong_referee::api::KeptRules;
use mahjong_referee::api::pb;
use mahjong_referee::api::play::{
    arbitrate_claims, deal_hand, legal_actions_of, next_actions_of, replay_hand,
};
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
        match selector % 6 {
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
            3 => {
                if let Ok(request) = pb::ArbitrateClaimsRequest::decode(bytes) {
                    claims(&request);
                }
            }
            4 => {
                if let Ok(request) = pb::NextActionsRequest::decode(bytes) {
                    next(&request);
                }
            }
            _ => {
                if let Ok(request) = pb::DealHandRequest::decode(bytes) {
                    deal(&request);
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
    let Ok(response) = replay_hand(request, &KeptRules::default()) else {
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
    let Ok(response) = legal_actions_of(request, &KeptRules::default()) else {
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
    let Ok(response) = arbitrate_claims(request, &KeptRules::default()) else {
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

fn next(request: &pb::NextActionsRequest) {
    let Ok(response) = next_actions_of(request, &KeptRules::default()) else {
        return;
    };
    let over = response.phase == pb::NextPhase::Over as i32;
    assert_ne!(response.phase, pb::NextPhase::Unspecified as i32);
    let mut lines = response.next_lines.clone();
    lines.sort_unstable();
    lines.dedup();
    assert_eq!(lines.len(), response.next_lines.len(), "{response:?}");
    assert_eq!(over, lines.is_empty(), "{response:?}");
    assert!(!over || response.decisions.is_empty(), "{response:?}");
    let verdict = response.replay.expect("the verdict so far");
    assert!(verdict.findings.iter().all(|f| f.code != "HAND_NOT_ENDED"));
}

fn deal(request: &pb::DealHandRequest) {
    let valid = request.seed.len() == 32 && (0..=4).contains(&request.prevalent_wind);
    let Ok(response) = deal_hand(request) else {
        assert!(!valid, "{request:?}");
        return;
    };
    assert!(valid, "{request:?}");
    assert_eq!(response.deal.len(), 4);
    assert_eq!(response.wall.len(), 84);
    let mut counts = [0u8; 35];
    for tile in response
        .deal
        .iter()
        .flat_map(|d| &d.tiles)
        .chain(&response.wall)
    {
        counts[usize::try_from(*tile).expect("a tile")] += 1;
    }
    assert_eq!(counts[0], 0);
    assert!(counts[1..].iter().all(|&n| n == 4), "{counts:?}");
}
