//! Every error path with its details decoded: `ErrorInfo` reason and metadata, every
//! `BadRequest` field violation; and no input, however malformed, gets anything but `OK` or
//! `INVALID_ARGUMENT`.

use mahjong_referee::api::KeptRules;
use std::collections::HashMap;

use mahjong_referee::api::scoring;
use mahjong_referee::config::Config;
use mahjong_referee::pb;
use proptest::prelude::*;
use prost::Message as _;
use tonic::Code;

use crate::helpers::{E23, config, details, fields, score_request, spawn, spawn_default};

fn metadata(pairs: &[(&str, &str)]) -> HashMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

/// A structured hand with several problems at once.
fn broken_request() -> pb::ScoreHandRequest {
    pb::ScoreHandRequest {
        overrides: None,
        hand_input: Some(pb::score_hand_request::HandInput::Hand(pb::Hand {
            melds: vec![
                pb::Meld {
                    kind: pb::MeldKind::Chow as i32,
                    tiles: vec![1, 2, 99],
                    claimed_from: pb::ClaimSource::Left as i32,
                    promoted: false,
                    claimed_tile: 0,
                },
                pb::Meld {
                    kind: 0,
                    tiles: vec![5, 5, 5],
                    claimed_from: 0,
                    promoted: false,
                    claimed_tile: 0,
                },
            ],
            standing_tiles: vec![10, 11, 0, 30],
            winning_tile: 40,
        })),
        context: Some(pb::WinContext {
            seat_wind: 9,
            flower_count: 12,
            ..pb::WinContext::default()
        }),
        ruleset: 0,
        view: pb::ScoreView::Unspecified as i32,
    }
}

#[tokio::test]
async fn score_hand_lists_every_violation() {
    let server = spawn_default().await;
    let request = broken_request();
    // What the referee finds in this request (as the JSON front end reports it).
    let expected = scoring::score_request(&request, &KeptRules::default()).violations;
    assert!(expected.len() >= 5, "{expected:#?}");

    let status = server
        .client()
        .await
        .score_hand(request)
        .await
        .expect_err("a malformed hand is INVALID_ARGUMENT");
    let d = details(&status);
    assert_eq!(d.code, Code::InvalidArgument);
    assert_eq!(d.info.reason, "INVALID_HAND");
    let count = expected.len().to_string();
    assert_eq!(
        d.info.metadata,
        metadata(&[
            ("violationCount", &count),
            ("violationsShown", &count),
            ("firstCode", &expected[0].code),
            ("firstField", &expected[0].field),
        ])
    );
    let wanted: Vec<(String, String)> = expected
        .iter()
        .map(|v| (v.field.clone(), format!("{}: {}", v.code, v.message)))
        .collect();
    assert_eq!(fields(&d), wanted);
    // The code also travels as the field violation's reason.
    let reasons: Vec<&str> = d.violations.iter().map(|v| v.reason.as_str()).collect();
    let codes: Vec<&str> = expected.iter().map(|v| v.code.as_str()).collect();
    assert_eq!(reasons, codes);
    // Each problem of the request is there, at its path.
    for (field, code) in [
        ("hand.melds[0].tiles[2]", "TILE_UNKNOWN"),
        ("hand.melds[1].kind", "VALUE_INVALID"),
        ("hand.standing_tiles[2]", "TILE_UNKNOWN"),
        ("hand.winning_tile", "TILE_UNKNOWN"),
        ("context.seat_wind", "VALUE_INVALID"),
    ] {
        assert!(
            wanted
                .iter()
                .any(|(f, desc)| f == field && desc.starts_with(&format!("{code}: "))),
            "{field} {code} in {wanted:#?}"
        );
    }
    assert!(
        d.message.starts_with("the hand is malformed: "),
        "{}",
        d.message
    );
}

#[tokio::test]
async fn score_hand_notation_and_missing_hand() {
    let server = spawn_default().await;
    let mut client = server.client().await;

    let status = client
        .score_hand(score_request("123x", false, pb::Ruleset::Unspecified))
        .await
        .expect_err("bad notation");
    let d = details(&status);
    assert_eq!(
        (d.code, d.info.reason.as_str()),
        (Code::InvalidArgument, "INVALID_HAND")
    );
    assert_eq!(d.violations.len(), 1);
    assert_eq!(d.violations[0].field, "notation");
    assert!(d.violations[0].description.starts_with("NOTATION_SYNTAX: "));
    assert_eq!(d.info.metadata["firstCode"], "NOTATION_SYNTAX");

    let status = client
        .score_hand(pb::ScoreHandRequest {
            overrides: None,
            hand_input: None,
            context: None,
            ruleset: 42,
            view: pb::ScoreView::Unspecified as i32,
        })
        .await
        .expect_err("no hand");
    let d = details(&status);
    assert_eq!(d.info.reason, "INVALID_HAND");
    let got = fields(&d);
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[0].0, "hand_input");
    assert!(got[0].1.starts_with("VALUE_INVALID: "));
    assert_eq!(got[1].0, "ruleset");
    assert!(got[1].1.starts_with("VALUE_INVALID: 42 is not a ruleset"));
}

#[tokio::test]
async fn list_fans_and_batch_reject_unknown_rulesets() {
    let server = spawn_default().await;
    let mut client = server.client().await;

    let status = client
        .list_fans(pb::ListFansRequest { ruleset: 7 })
        .await
        .expect_err("unknown ruleset");
    let d = details(&status);
    assert_eq!(
        (d.code, d.info.reason.as_str()),
        (Code::InvalidArgument, "INVALID_REQUEST")
    );
    assert_eq!(fields(&d).len(), 1);
    assert_eq!(d.violations[0].field, "ruleset");
    assert!(
        d.violations[0]
            .description
            .starts_with("VALUE_INVALID: 7 is not a ruleset")
    );

    let status = client
        .batch_score_hands(pb::BatchScoreHandsRequest {
            default_overrides: None,
            requests: vec![score_request(E23, true, pb::Ruleset::Unspecified)],
            default_ruleset: -1,
            default_view: pb::ScoreView::Unspecified as i32,
        })
        .await
        .expect_err("unknown default ruleset");
    let d = details(&status);
    assert_eq!(
        (d.code, d.info.reason.as_str()),
        (Code::InvalidArgument, "INVALID_REQUEST")
    );
    assert_eq!(d.violations.len(), 1);
    assert_eq!(d.violations[0].field, "default_ruleset");
    assert!(
        d.violations[0]
            .description
            .starts_with("VALUE_INVALID: -1 is not a ruleset")
    );
    assert_eq!(d.info.metadata["firstField"], "default_ruleset");

    // Both batch defaults wrong: both reported.
    let status = client
        .batch_score_hands(pb::BatchScoreHandsRequest {
            default_overrides: None,
            requests: vec![score_request(E23, true, pb::Ruleset::Unspecified)],
            default_ruleset: -1,
            default_view: 3,
        })
        .await
        .expect_err("unknown default ruleset and view");
    let d = details(&status);
    let names: Vec<&str> = d.violations.iter().map(|v| v.field.as_str()).collect();
    assert_eq!(names, ["default_ruleset", "default_view"]);
    assert!(
        d.violations[1]
            .description
            .starts_with("VALUE_INVALID: 3 is not a score view")
    );
}

#[tokio::test]
async fn an_unknown_view_is_a_violation_of_the_hand_request() {
    let server = spawn_default().await;
    let mut client = server.client().await;
    let status = client
        .score_hand(pb::ScoreHandRequest {
            view: 9,
            ..score_request(E23, true, pb::Ruleset::Mil)
        })
        .await
        .expect_err("unknown view");
    let d = details(&status);
    assert_eq!(
        (d.code, d.info.reason.as_str()),
        (Code::InvalidArgument, "INVALID_HAND")
    );
    let names: Vec<&str> = d.violations.iter().map(|v| v.field.as_str()).collect();
    assert_eq!(names, ["view"]);
    assert!(
        d.violations[0]
            .description
            .starts_with("VALUE_INVALID: 9 is not a score view")
    );
}

#[tokio::test]
async fn a_batch_above_the_limit_is_rejected_whole() {
    let server = spawn(Config {
        max_batch_hands: 2,
        ..config()
    })
    .await;
    let mut client = server.client().await;
    let hand = score_request(E23, true, pb::Ruleset::Unspecified);
    let ok = client
        .batch_score_hands(pb::BatchScoreHandsRequest {
            default_overrides: None,
            requests: vec![hand.clone(); 2],
            default_ruleset: 0,
            default_view: pb::ScoreView::Unspecified as i32,
        })
        .await
        .expect("at the limit");
    assert_eq!(ok.into_inner().results.len(), 2);

    let status = client
        .batch_score_hands(pb::BatchScoreHandsRequest {
            default_overrides: None,
            requests: vec![hand; 3],
            default_ruleset: 0,
            default_view: pb::ScoreView::Unspecified as i32,
        })
        .await
        .expect_err("above the limit");
    let d = details(&status);
    assert_eq!(
        (d.code, d.info.reason.as_str()),
        (Code::InvalidArgument, "BATCH_TOO_LARGE")
    );
    assert_eq!(d.info.metadata, metadata(&[("hands", "3"), ("limit", "2")]));
    assert_eq!(d.violations.len(), 1);
    assert_eq!(d.violations[0].field, "requests");
    assert!(
        d.violations[0]
            .description
            .starts_with("BATCH_TOO_LARGE: the batch has 3 hands")
    );
}

#[tokio::test]
async fn a_batch_answer_above_the_message_limit_is_resource_exhausted() {
    let limit = 2000;
    let server = spawn(Config {
        max_message_bytes: limit,
        ..config()
    })
    .await;
    let request = pb::BatchScoreHandsRequest {
        default_overrides: None,
        requests: vec![score_request(E23, true, pb::Ruleset::Unspecified); 30],
        default_ruleset: 0,
        default_view: pb::ScoreView::Unspecified as i32,
    };
    assert!(request.encoded_len() < limit);
    let status = server
        .client()
        .await
        .batch_score_hands(request)
        .await
        .expect_err("the answer is too large");
    let d = details(&status);
    assert_eq!(
        (d.code, d.info.reason.as_str()),
        (Code::ResourceExhausted, "RESPONSE_TOO_LARGE")
    );
    assert_eq!(d.info.metadata["limit"], limit.to_string());
    let bytes: usize = d.info.metadata["bytes"].parse().unwrap();
    assert!(bytes > limit);
}

/// A codec that sends and receives raw bytes as the message.
mod raw {
    use prost::bytes::{Buf, BufMut};
    use tonic::Status;
    use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};

    #[derive(Debug, Default, Clone, Copy)]
    pub struct Raw;

    impl Codec for Raw {
        type Encode = Vec<u8>;
        type Decode = Vec<u8>;
        type Encoder = Raw;
        type Decoder = Raw;

        fn encoder(&mut self) -> Raw {
            Raw
        }

        fn decoder(&mut self) -> Raw {
            Raw
        }
    }

    impl Encoder for Raw {
        type Item = Vec<u8>;
        type Error = Status;

        fn encode(&mut self, item: Vec<u8>, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
            dst.put_slice(&item);
            Ok(())
        }
    }

    impl Decoder for Raw {
        type Item = Vec<u8>;
        type Error = Status;

        fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<Vec<u8>>, Status> {
            let mut out = vec![0; src.remaining()];
            src.copy_to_slice(&mut out);
            Ok(Some(out))
        }
    }
}

/// Sends `bytes` as the request message of `method`.
async fn call_raw(
    channel: tonic::transport::Channel,
    method: &'static str,
    bytes: Vec<u8>,
) -> Result<Vec<u8>, tonic::Status> {
    let mut grpc = tonic::client::Grpc::new(channel);
    grpc.ready().await.expect("ready");
    grpc.unary(
        tonic::Request::new(bytes),
        http::uri::PathAndQuery::from_static(method),
        raw::Raw,
    )
    .await
    .map(tonic::Response::into_inner)
}

/// Sends `bytes` as the request message of `method`, which answers `INVALID_ARGUMENT` with
/// the reason `MALFORMED_MESSAGE`: the status message.
async fn malformed_message(
    channel: &tonic::transport::Channel,
    method: &'static str,
    bytes: Vec<u8>,
) -> String {
    let status = call_raw(channel.clone(), method, bytes.clone())
        .await
        .expect_err("undecodable");
    let d = details(&status);
    assert_eq!(
        (d.code, d.info.reason.as_str()),
        (Code::InvalidArgument, "MALFORMED_MESSAGE"),
        "{bytes:x?}: {status:?}"
    );
    d.message
}

const SCORE_HAND: &str = "/mahjong.v1.MahjongService/ScoreHand";
const BATCH_SCORE_HANDS: &str = "/mahjong.v1.MahjongService/BatchScoreHands";

/// The server reads a batch's entries as it scores them; an entry that is not a message
/// still makes the whole batch `MALFORMED_MESSAGE` with prost's error for the whole message,
/// wherever the entry is, and before the batch's size or defaults are judged.
#[tokio::test]
async fn a_batch_with_an_undecodable_entry_is_a_malformed_message() {
    let server = spawn(Config {
        max_batch_hands: 4,
        ..config()
    })
    .await;
    let channel = server.channel().await;
    let clean = pb::ScoreHandRequest {
        hand_input: Some(pb::score_hand_request::HandInput::Hand(pb::Hand {
            melds: Vec::new(),
            standing_tiles: (1..=13).collect(),
            winning_tile: 14,
        })),
        ..pb::ScoreHandRequest::default()
    }
    .encode_to_vec();
    // Field 1 (notation) announces 5 bytes and has 1.
    let broken = vec![0x0a, 0x05, 0x41];
    let batch = |entries: &[&Vec<u8>], default_ruleset: u8| {
        let mut out = Vec::new();
        for entry in entries {
            out.push(0x0a);
            out.push(u8::try_from(entry.len()).expect("short"));
            out.extend_from_slice(entry);
        }
        out.extend_from_slice(&[0x10, default_ruleset]);
        out
    };
    for (entries, default_ruleset) in [
        (vec![&broken, &clean, &clean], 1),
        (vec![&clean, &clean, &clean, &broken], 1),
        // Above the limit of 4 hands.
        (vec![&clean, &broken, &clean, &clean, &clean], 1),
        // An unknown default ruleset.
        (vec![&clean, &broken], 99),
    ] {
        let bytes = batch(&entries, default_ruleset);
        let expected = pb::BatchScoreHandsRequest::decode(bytes.as_slice())
            .expect_err("prost cannot decode it");
        assert_eq!(
            malformed_message(&channel, BATCH_SCORE_HANDS, bytes).await,
            format!("the request is not a valid message: {expected}")
        );
        // With the entry mended, the same batch is answered, or rejected for its size or
        // its default.
        let mended: Vec<&Vec<u8>> = entries
            .iter()
            .map(|e| if *e == &broken { &clean } else { *e })
            .collect();
        let answer = call_raw(
            channel.clone(),
            BATCH_SCORE_HANDS,
            batch(&mended, default_ruleset),
        )
        .await;
        match (entries.len(), default_ruleset) {
            (5, _) => assert_eq!(
                details(&answer.expect_err("too large")).info.reason,
                "BATCH_TOO_LARGE"
            ),
            (_, 99) => assert_eq!(
                details(&answer.expect_err("unknown ruleset")).info.reason,
                "INVALID_REQUEST"
            ),
            (n, _) => assert_eq!(
                pb::BatchScoreHandsResponse::decode(answer.expect("answered").as_slice())
                    .expect("a response")
                    .results
                    .len(),
                n
            ),
        }
    }
}

#[tokio::test]
async fn bytes_that_are_not_a_message_are_invalid_argument() {
    let server = spawn_default().await;
    let channel = server.channel().await;
    for bytes in [
        // Field 1 (notation) announces 5 bytes and has 1.
        vec![0x0a, 0x05, 0x41],
        // Notation that is not UTF-8.
        vec![0x0a, 0x02, 0xff, 0xfe],
        // A varint that never ends.
        vec![
            0x18, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        ],
        // Wire type 7 does not exist.
        vec![0x0f],
    ] {
        assert!(
            malformed_message(&channel, SCORE_HAND, bytes)
                .await
                .starts_with("the request is not a valid message: ")
        );
    }
}

/// Over the wire, any request is either scored or `INVALID_ARGUMENT` with every violation;
/// any bytes are either a request or `INVALID_ARGUMENT`. Never `INTERNAL`, `UNKNOWN` or a
/// reset.
#[test]
fn no_input_gets_anything_but_ok_or_invalid_argument() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (server, client, channel) = runtime.block_on(async {
        let server = spawn_default().await;
        let client = server.client().await;
        let channel = server.channel().await;
        (server, client, channel)
    });
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(200));
    runner
        .run(&crate::support::requests::request(), |request| {
            let expected = scoring::score_request(&request, &KeptRules::default());
            match runtime.block_on(client.clone().score_hand(request)) {
                Ok(response) => prop_assert!(
                    expected.violations.is_empty()
                        && response.into_inner().outcome() != pb::Outcome::Invalid
                ),
                Err(status) => {
                    let d = details(&status);
                    prop_assert_eq!(d.code, Code::InvalidArgument);
                    prop_assert_eq!(d.info.reason.as_str(), "INVALID_HAND");
                    prop_assert_eq!(d.violations.len(), expected.violations.len());
                    prop_assert!(!d.violations.is_empty());
                }
            }
            Ok(())
        })
        .unwrap();
    runner
        .run(&prop::collection::vec(any::<u8>(), 0..64), |bytes| {
            match runtime.block_on(call_raw(channel.clone(), SCORE_HAND, bytes)) {
                Ok(_) => {}
                Err(status) => {
                    let d = details(&status);
                    prop_assert_eq!(d.code, Code::InvalidArgument);
                    prop_assert!(
                        ["INVALID_HAND", "MALFORMED_MESSAGE"].contains(&d.info.reason.as_str())
                    );
                }
            }
            Ok(())
        })
        .unwrap();
    runtime.block_on(server.stop()).unwrap();
}

/// `AnalyzeHand` reports every problem of a hand in play at once, on the request's fields.
#[tokio::test]
async fn analyze_hand_lists_every_violation() {
    let server = spawn_default().await;
    let mut client = server.client().await;
    let status = client
        .analyze_hand(pb::AnalyzeHandRequest {
            overrides: None,
            hand_input: Some(pb::analyze_hand_request::HandInput::Hand(pb::Hand {
                melds: Vec::new(),
                // Twelve tiles (neither 13 nor 14), one unknown, seven 2p.
                standing_tiles: [
                    vec![pb::Tile::Tile1m as i32; 4],
                    vec![99],
                    vec![pb::Tile::Tile2p as i32; 7],
                ]
                .concat(),
                winning_tile: pb::Tile::Unspecified as i32,
            })),
            context: None,
            ruleset: 9,
            visible_tiles: vec![pb::Tile::Tile1m as i32],
            view: pb::ScoreView::Unspecified as i32,
        })
        .await
        .expect_err("malformed");
    let d = details(&status);
    assert_eq!(
        (d.code, d.info.reason.as_str()),
        (Code::InvalidArgument, "INVALID_REQUEST")
    );
    let fields: Vec<&str> = d.violations.iter().map(|v| v.field.as_str()).collect();
    assert_eq!(
        fields,
        [
            "hand.standing_tiles[4]",
            "ruleset",
            "hand.standing_tiles",
            "hand",
            "visible_tiles",
        ],
        "{:?}",
        d.violations
    );
}
