//! The accounting calls on arbitrary requests, decoded by prost from the fuzz bytes (the
//! first byte chooses `SettleHand`, `AdjudicatePenalty` or `ComputeStandings`). They never
//! panic, and what they answer adds up:
//!
//! - every seat's delta is the sum of its lines, and the four deltas sum to
//!   `−unpaid_penalties` (0 when every point deducted is received), `unbalanced_by` says so;
//! - one ruling per penalty (`SettleHand`, then at most a false declaration's) or per
//!   offence (`AdjudicatePenalty`);
//! - the standings rank every player once, best first, places as in "1, 2, 2, 4", each
//!   total score the sum of its sessions' scores.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mahjong_referee::api::KeptRules;
use mahjong_referee::api::accounting::{adjudicate_penalty, compute_standings, settle_hand};
use mahjong_referee::api::pb;
use prost::Message as _;

fuzz_target!(
    init: {
        // The shape tables are built on first use, which takes seconds in this instrumented
        // build: built before any input, so that none is reported as slow for them.
        mcr::shape::warm_up();
    },
    |data: &[u8]| {
        let Some((&selector, bytes)) = data.split_first() else {
            return;
        };
        match selector % 3 {
            0 => {
                if let Ok(request) = pb::SettleHandRequest::decode(bytes) {
                    settle(&request);
                }
            }
            1 => {
                if let Ok(request) = pb::AdjudicatePenaltyRequest::decode(bytes) {
                    penalty(&request);
                }
            }
            _ => {
                if let Ok(request) = pb::ComputeStandingsRequest::decode(bytes) {
                    standings(&request);
                }
            }
        }
    }
);

/// The accounts of four seats, each delta the sum of its lines: the sum of the deltas.
fn balance(accounts: &[pb::SeatAccount]) -> i64 {
    assert_eq!(accounts.len(), 4, "{accounts:?}");
    for (i, account) in accounts.iter().enumerate() {
        assert_eq!(account.seat, i32::try_from(i).unwrap() + 1, "{accounts:?}");
        let lines: i64 = account.lines.iter().map(|l| i64::from(l.amount)).sum();
        assert_eq!(i64::from(account.delta), lines, "{account:?}");
    }
    accounts.iter().map(|a| i64::from(a.delta)).sum()
}

fn settle(request: &pb::SettleHandRequest) {
    let Ok(response) = settle_hand(request, &KeptRules::default()) else {
        return;
    };
    let sum = balance(&response.accounts);
    assert!(response.unpaid_penalties >= 0, "{response:?}");
    assert_eq!(
        sum,
        i64::from(response.unbalanced_by),
        "{request:?}\n{response:?}"
    );
    assert_eq!(
        sum,
        -i64::from(response.unpaid_penalties),
        "{request:?}\n{response:?}"
    );
    let (rulings, penalties) = (response.rulings.len(), request.penalties.len());
    assert!(
        rulings == penalties || rulings == penalties + 1,
        "{request:?}\n{response:?}"
    );
    assert_ne!(response.ruleset, 0);
}

fn penalty(request: &pb::AdjudicatePenaltyRequest) {
    let Ok(response) = adjudicate_penalty(request, &KeptRules::default()) else {
        return;
    };
    let sum = balance(&response.accounts);
    assert!(response.unpaid_penalties >= 0, "{response:?}");
    assert_eq!(
        sum,
        -i64::from(response.unpaid_penalties),
        "{request:?}\n{response:?}"
    );
    if !request.offences.is_empty() {
        assert_eq!(
            response.rulings.len(),
            request.offences.len(),
            "{request:?}"
        );
    }
    assert_ne!(response.ruleset, 0);
}

/// `a/b ≥ c/d` for positive denominators.
fn at_least(a: &pb::Fraction, b: &pb::Fraction) -> bool {
    assert!(a.denominator >= 1 && b.denominator >= 1, "{a:?} {b:?}");
    i64::from(a.numerator) * i64::from(b.denominator)
        >= i64::from(b.numerator) * i64::from(a.denominator)
}

fn standings(request: &pb::ComputeStandingsRequest) {
    let Ok(response) = compute_standings(request, &KeptRules::default()) else {
        return;
    };
    let standings = &response.standings;
    assert_eq!(standings.len(), request.players.len());
    let mut seen = vec![false; standings.len()];
    for (i, standing) in standings.iter().enumerate() {
        let player = usize::try_from(standing.player_index).unwrap();
        assert!(!std::mem::replace(&mut seen[player], true), "{response:?}");
        let record = &request.players[player];
        assert_eq!(standing.name, record.name);
        assert_eq!(standing.sessions.len(), record.sessions.len());
        let total: i64 = standing.sessions.iter().map(|s| i64::from(s.score)).sum();
        if let Ok(total) = i32::try_from(total) {
            assert_eq!(standing.total_score, total, "{standing:?}");
        }
        let place = usize::try_from(standing.place).unwrap();
        let points = standing.standard_points.as_ref().expect("standard points");
        if i == 0 {
            assert_eq!(place, 1);
        } else {
            let before = &standings[i - 1];
            let before_points = before.standard_points.as_ref().expect("standard points");
            assert!(at_least(before_points, points), "{response:?}");
            let before_place = usize::try_from(before.place).unwrap();
            assert!(place == before_place || place == i + 1, "{response:?}");
        }
    }
    assert_ne!(response.ruleset, 0);
}
