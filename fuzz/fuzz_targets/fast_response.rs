//! The scoring responses the server writes itself (`api::scoring::fast::wire`) against prost's
//! encoding of the messages `score_request` builds, byte for byte. The hands are built from
//! `arbitrary` shapes (four groups and a pair, seven pairs, thirteen orphans, or loose tiles),
//! some groups melded, under arbitrary contexts, rulesets and views, so that most of them are
//! scored rather than rejected; each is answered alone and within a batch.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use mahjong_referee::api::KeptRules;
use mahjong_referee::api::kit::query::ScoreQuery;
use mahjong_referee::api::kit::values::INVALID_HAND;
use mahjong_referee::api::pb;
use mahjong_referee::api::scoring::fast::query::BatchScoreHandsQuery;
use mahjong_referee::api::scoring::{batch_score_hands, score_hand, score_request};
use mahjong_referee::limits;
use pb::score_hand_request::HandInput;
use prost::Message as _;

/// A group of a standard hand; the numbers choose its tiles.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Group {
    Chow(u8),
    Pung(u8),
    Kong(u8),
}

#[derive(Arbitrary, Debug)]
enum Shape {
    /// Four groups and a pair; bit `i` of `melded` declares group `i` as a meld claimed
    /// from `claims[i]` (a kong not melded is a concealed kong).
    Standard {
        groups: [Group; 4],
        pair: u8,
        melded: u8,
        claims: [u8; 4],
        promoted: u8,
    },
    SevenPairs([u8; 7]),
    ThirteenOrphans(u8),
    /// Tiles as they come: numbers 0 to 255, of which 1 to 34 are tiles.
    Loose {
        standing: Vec<u8>,
        melds: Vec<(u8, [u8; 4], u8, bool, bool)>,
    },
}

#[derive(Arbitrary, Debug)]
struct Context {
    flags: u8,
    seat_wind: u8,
    prevalent_wind: u8,
    flowers: u8,
    given: bool,
}

#[derive(Arbitrary, Debug)]
struct Request {
    shape: Shape,
    /// Which concealed tile is the winning one (`None`: none given).
    winning: Option<u8>,
    context: Context,
    ruleset: u8,
    view: u8,
}

#[derive(Arbitrary, Debug)]
struct Input {
    first: Request,
    more: Vec<Request>,
    default_ruleset: u8,
    default_view: u8,
}

/// Tile number 1..=34 of the proto enum for `n` taken modulo 34.
fn tile(n: u8) -> i32 {
    i32::from(n % 34) + 1
}

/// The first tile of a chow for `n`: ranks 1 to 7 of the three suits.
fn chow_start(n: u8) -> i32 {
    let n = i32::from(n % 21);
    n / 7 * 9 + n % 7 + 1
}

/// Mostly values inside the enum (`0..limit`), sometimes outside it.
fn enum_value(n: u8, limit: u8) -> i32 {
    if n < 250 {
        i32::from(n % limit)
    } else {
        i32::from(n) * 1_000 - 250_000 - 1
    }
}

fn meld(kind: pb::MeldKind, tiles: Vec<i32>, claim: u8, promoted: bool) -> pb::Meld {
    pb::Meld {
        kind: kind as i32,
        tiles,
        claimed_from: if kind == pb::MeldKind::Chow {
            i32::from(claim % 2)
        } else {
            i32::from(claim % 4)
        },
        promoted,
        claimed_tile: 0,
    }
}

fn hand(request: &Request) -> pb::Hand {
    let mut melds = Vec::new();
    let mut concealed = Vec::new();
    match &request.shape {
        Shape::Standard {
            groups,
            pair,
            melded,
            claims,
            promoted,
        } => {
            for (i, group) in groups.iter().enumerate() {
                let is_melded = melded & (1 << i) != 0;
                let (kind, tiles) = match *group {
                    Group::Chow(n) => {
                        let t = chow_start(n);
                        (pb::MeldKind::Chow, vec![t, t + 1, t + 2])
                    }
                    Group::Pung(n) => (pb::MeldKind::Pung, vec![tile(n); 3]),
                    Group::Kong(n) if is_melded => (pb::MeldKind::Kong, vec![tile(n); 4]),
                    Group::Kong(n) => (pb::MeldKind::ConcealedKong, vec![tile(n); 4]),
                };
                if is_melded || kind == pb::MeldKind::ConcealedKong {
                    let promoted = kind == pb::MeldKind::Kong && promoted & (1 << i) != 0;
                    melds.push(meld(kind, tiles, claims[i], promoted));
                } else {
                    concealed.extend(tiles);
                }
            }
            concealed.extend([tile(*pair); 2]);
        }
        Shape::SevenPairs(pairs) => {
            for &p in pairs {
                concealed.extend([tile(p); 2]);
            }
        }
        Shape::ThirteenOrphans(extra) => {
            let orphans = [1, 9, 10, 18, 19, 27, 28, 29, 30, 31, 32, 33, 34];
            concealed.extend(orphans);
            concealed.push(orphans[usize::from(*extra) % orphans.len()]);
        }
        Shape::Loose {
            standing,
            melds: loose,
        } => {
            concealed.extend(standing.iter().map(|&t| i32::from(t)));
            for &(kind, tiles, claim, four, promoted) in loose {
                let n = if four { 4 } else { 3 };
                melds.push(pb::Meld {
                    kind: enum_value(kind, 5),
                    tiles: tiles[..n].iter().map(|&t| i32::from(t)).collect(),
                    claimed_from: enum_value(claim, 4),
                    promoted,
                    // Unspecified, a tile, or out of range, as for the other numbers.
                    claimed_tile: enum_value(claim / 4, 36),
                });
            }
        }
    }
    let winning_tile = match request.winning {
        Some(i) if !concealed.is_empty() => concealed.remove(usize::from(i) % concealed.len()),
        Some(_) | None => 0,
    };
    pb::Hand {
        melds,
        standing_tiles: concealed,
        winning_tile,
    }
}

fn score_hand_request(request: &Request) -> pb::ScoreHandRequest {
    let c = &request.context;
    let flag = |bit: u8| c.flags & (1 << bit) != 0;
    let context = c.given.then(|| pb::WinContext {
        self_drawn: flag(0),
        robbing_kong: flag(1),
        replacement_draw: flag(2),
        last_tile: flag(3),
        last_copy: flag(4),
        seat_wind: enum_value(c.seat_wind, 5),
        prevalent_wind: enum_value(c.prevalent_wind, 5),
        flower_count: if flag(5) {
            u32::from(c.flowers)
        } else {
            u32::from(c.flowers % 9)
        },
    });
    pb::ScoreHandRequest {
        hand_input: Some(HandInput::Hand(hand(request))),
        context,
        ruleset: enum_value(request.ruleset, 4),
        view: enum_value(request.view, 3),
        overrides: None,
    }
}

/// What a batch entry answers: the `ScoreHand` message of the entry under the defaults.
fn expected_result(
    entry: &pb::ScoreHandRequest,
    defaults: &pb::BatchScoreHandsRequest,
) -> pb::BatchScoreHandsResult {
    use pb::batch_score_hands_result::Result as Entry;
    let or = |n: i32, default: i32| if n == 0 { default } else { n };
    let response = score_request(
        &pb::ScoreHandRequest {
            ruleset: or(entry.ruleset, defaults.default_ruleset),
            view: or(entry.view, defaults.default_view),
            ..entry.clone()
        },
        &KeptRules::default(),
    );
    let result = if response.outcome == pb::Outcome::Invalid as i32 {
        // A batch entry lists the first violations, clipped, as every answer does.
        Entry::Error(pb::HandError {
            reason: INVALID_HAND.to_owned(),
            violations: response
                .violations
                .into_iter()
                .take(limits::MAX_VIOLATIONS_SHOWN)
                .map(|v| pb::Violation {
                    field: limits::clip(&v.field, limits::MAX_VIOLATION_FIELD).into_owned(),
                    message: limits::clip(&v.message, limits::MAX_VIOLATION_TEXT).into_owned(),
                    code: v.code,
                })
                .collect(),
        })
    } else {
        Entry::Score(response)
    };
    pb::BatchScoreHandsResult {
        result: Some(result),
    }
}

fuzz_target!(|input: Input| {
    let requests: Vec<pb::ScoreHandRequest> = std::iter::once(&input.first)
        .chain(input.more.iter().take(7))
        .map(score_hand_request)
        .collect();
    for request in &requests {
        let expected = score_request(request, &KeptRules::default());
        let bytes = request.encode_to_vec();
        let read = ScoreQuery::decode(&bytes).expect("prost's own encoding");
        match score_hand(&read, &KeptRules::default()) {
            Ok(reply) => {
                assert_eq!(
                    reply.as_bytes(),
                    expected.encode_to_vec(),
                    "{request:?}\n{expected:?}"
                );
            }
            Err(violations) => {
                assert_eq!(expected.outcome, pb::Outcome::Invalid as i32, "{request:?}");
                assert_eq!(violations.len(), expected.violations.len(), "{request:?}");
            }
        }
    }

    let batch = pb::BatchScoreHandsRequest {
        requests,
        default_ruleset: i32::from(input.default_ruleset % 4),
        default_view: i32::from(input.default_view % 3),
        default_overrides: None,
    };
    let expected = pb::BatchScoreHandsResponse {
        results: batch
            .requests
            .iter()
            .map(|e| expected_result(e, &batch))
            .collect(),
    };
    let read = BatchScoreHandsQuery::decode(batch.encode_to_vec().into()).expect("decodes");
    let reply = batch_score_hands(read, &std::sync::Arc::default()).expect("valid defaults");
    assert_eq!(reply.as_bytes(), expected.encode_to_vec(), "{batch:?}");
});
