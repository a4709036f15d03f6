//! What a careless or hostile caller could do to every other caller (issue 16), each
//! bounded in count and time: error details that outgrow a client's metadata limit, answers
//! above the message limit, junk method paths in the metrics.

use mahjong_referee::config::Config;
use mahjong_referee::pb;
use prost::Message as _;
use tonic::Code;
use tonic::codec::CompressionEncoding;

use crate::helpers::{config, details, h2_connect, raw_grpc, spawn, spawn_default};

/// `mahjong_referee::limits::MAX_VIOLATIONS_SHOWN`, written out so that these tests also
/// build (and fail) on the code before the limit.
const VIOLATIONS_SHOWN: usize = 20;

/// Held by the tests that keep the cores busy, so that they do not slow each other down on a
/// small machine.
static HEAVY: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The size of the metadata many gRPC clients accept in all.
const CLIENT_METADATA_BYTES: usize = 8 * 1024;

/// A `ScoreHand` request whose notation holds `n` unknown tiles.
fn unknown_tiles(n: usize) -> pb::ScoreHandRequest {
    pb::ScoreHandRequest {
        overrides: None,
        hand_input: Some(pb::score_hand_request::HandInput::Hand(pb::Hand {
            melds: Vec::new(),
            standing_tiles: vec![99; n],
            winning_tile: 99,
        })),
        context: None,
        ruleset: 0,
        view: pb::ScoreView::Unspecified as i32,
    }
}

#[tokio::test]
async fn a_thousand_violations_keep_the_details_small_and_the_count_true() {
    let server = spawn_default().await;
    let request = unknown_tiles(1000);
    let total = mahjong_referee::api::scoring::score_request(&request)
        .violations
        .len();
    assert!(total > 1000, "{total}");
    let status = server
        .client()
        .await
        .score_hand(request)
        .await
        .expect_err("INVALID_ARGUMENT");
    let d = details(&status);
    assert_eq!(
        (d.code, d.info.reason.as_str()),
        (Code::InvalidArgument, "INVALID_HAND")
    );
    assert_eq!(d.info.metadata["violationCount"], total.to_string());
    let shown = VIOLATIONS_SHOWN;
    assert_eq!(d.info.metadata["violationsShown"], shown.to_string());
    assert_eq!(d.violations.len(), shown);
    // What travels in the trailers: the details in base64 and the message.
    let encoded = status.details().len().div_ceil(3) * 4;
    assert!(
        encoded + status.message().len() < CLIENT_METADATA_BYTES,
        "{encoded} + {}",
        status.message().len()
    );
}

#[tokio::test]
async fn validate_hand_and_batch_entries_list_the_first_violations() {
    let server = spawn_default().await;
    let mut client = server.client().await;
    let shown = VIOLATIONS_SHOWN;
    let request = unknown_tiles(1000);
    let validated = client
        .validate_hand(pb::ValidateHandRequest {
            overrides: None,
            hand_input: request.hand_input.clone().map(|input| match input {
                pb::score_hand_request::HandInput::Hand(hand) => {
                    pb::validate_hand_request::HandInput::Hand(hand)
                }
                pb::score_hand_request::HandInput::Notation(text) => {
                    pb::validate_hand_request::HandInput::Notation(text)
                }
            }),
            context: None,
            ruleset: 0,
        })
        .await
        .expect("a malformed hand is ValidateHand's normal answer")
        .into_inner();
    assert!(!validated.valid);
    assert_eq!(validated.violations.len(), shown);
    let batch = client
        .batch_score_hands(pb::BatchScoreHandsRequest {
            default_overrides: None,
            requests: vec![request],
            default_ruleset: 0,
            default_view: 0,
        })
        .await
        .expect("a bad entry is an error entry")
        .into_inner();
    let Some(pb::batch_score_hands_result::Result::Error(error)) = &batch.results[0].result else {
        panic!("an error entry: {batch:?}");
    };
    assert_eq!(error.violations.len(), shown);
}

/// `ListFans` and `ComputeStandings` answers above a small limit, with gzip accepted or not.
#[tokio::test]
async fn every_answer_above_the_limit_is_response_too_large_with_or_without_gzip() {
    let limit = 1500;
    let server = spawn(Config {
        max_message_bytes: limit,
        ..config()
    })
    .await;
    let fans = pb::ListFansRequest {
        ruleset: pb::Ruleset::Mil as i32,
    };
    let full_table = mahjong_referee::api::scoring::list_fans(&fans).unwrap();
    assert!(full_table.encoded_len() > limit);
    let standings = pb::ComputeStandingsRequest {
        overrides: None,
        players: (0..40)
            .map(|i| pb::PlayerRecord {
                name: format!("p{i}"),
                sessions: vec![pb::SessionRecord {
                    hand_results: vec![i],
                    ..pb::SessionRecord::default()
                }],
            })
            .collect(),
        standard_points_method: 0,
        ruleset: 0,
    };
    assert!(standings.encoded_len() < limit);
    let ranked = mahjong_referee::api::accounting::compute_standings(&standings).unwrap();
    assert!(ranked.encoded_len() > limit, "{}", ranked.encoded_len());
    for gzip in [false, true] {
        let mut client = server.client().await;
        if gzip {
            client = client.accept_compressed(CompressionEncoding::Gzip);
        }
        let statuses = [
            client.list_fans(fans).await.map(drop),
            client.compute_standings(standings.clone()).await.map(drop),
        ];
        for status in statuses {
            let status = status.expect_err("too large");
            let d = details(&status);
            assert_eq!(
                (d.code, d.info.reason.as_str()),
                (Code::ResourceExhausted, "RESPONSE_TOO_LARGE"),
                "gzip {gzip}: {status:?}"
            );
            assert_eq!(d.info.metadata["limit"], limit.to_string());
        }
    }
}

/// The value of the series `line` (`name{labels}`) in a Prometheus text exposition.
fn series(text: &str, line: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix(line)?.trim().parse().ok())
        .unwrap_or(0)
}

#[tokio::test]
async fn junk_method_paths_leave_the_metrics_small_and_real_methods_named() {
    let _heavy = HEAVY.lock().await;
    let handle = mahjong_referee::metrics::install().unwrap();
    let server = spawn_default().await;
    let sender = h2_connect(server.addr).await;
    let junk = "x".repeat(500);
    // 2,000 distinct paths, 20 callers at a time on one connection.
    let mut callers = tokio::task::JoinSet::new();
    for caller in 0..20 {
        let mut sender = sender.clone();
        let junk = junk.clone();
        callers.spawn(async move {
            for i in 0..100 {
                let path = format!("/junk{caller}x{i}.Service/{junk}");
                let status = raw_grpc(&mut sender, &path, &[], &[]).await;
                assert_eq!(status.code(), Code::Unimplemented);
            }
        });
    }
    while let Some(done) = callers.join_next().await {
        done.unwrap();
    }
    let list_fans =
        r#"grpc_server_requests_total{method="mahjong.v1.MahjongService/ListFans",code="OK"}"#;
    let before = series(&handle.render(), list_fans);
    server
        .client()
        .await
        .list_fans(pb::ListFansRequest { ruleset: 0 })
        .await
        .expect("OK");
    let text = handle.render();
    assert!(series(&text, list_fans) > before, "{text}");
    assert!(!text.contains("junk"), "a junk path is a label");
    assert!(text.len() < 64 * 1024, "/metrics is {} bytes", text.len());
}

/// `n` offences of one hand, alternating between two offenders.
fn offences(n: usize) -> Vec<pb::Penalty> {
    (0..n)
        .map(|i| pb::Penalty {
            offender: if i % 2 == 0 {
                pb::Seat::West as i32
            } else {
                pb::Seat::North as i32
            },
            infraction: pb::Infraction::EmptyPung as i32,
            ..pb::Penalty::default()
        })
        .collect()
}

/// A `ComputeStandings` request of `players` players with `sessions` sessions of `hands`
/// hands each.
fn standings(players: usize, sessions: usize, hands: usize) -> pb::ComputeStandingsRequest {
    pb::ComputeStandingsRequest {
        overrides: None,
        players: (0..players)
            .map(|i| pb::PlayerRecord {
                name: format!("player {i}"),
                sessions: (0..sessions)
                    .map(|j| pb::SessionRecord {
                        hand_results: (0..hands)
                            .map(|k| i32::try_from((i * 7 + j * 3 + k) % 41).unwrap() - 20)
                            .collect(),
                        table: u32::try_from(i / 4).unwrap(),
                        ..pb::SessionRecord::default()
                    })
                    .collect(),
            })
            .collect(),
        standard_points_method: 0,
        ruleset: 0,
    }
}

/// Every repeated field over its maximum is rejected at once, at its path.
#[tokio::test]
async fn repeated_fields_over_their_maxima_are_rejected_at_their_path() {
    let server = spawn_default().await;
    let mut client = server.client().await;
    let started = std::time::Instant::now();
    let penalty = client
        .adjudicate_penalty(pb::AdjudicatePenaltyRequest {
            offences: offences(100_000),
            ..pb::AdjudicatePenaltyRequest::default()
        })
        .await
        .expect_err("too many offences");
    let settle = client
        .settle_hand(pb::SettleHandRequest {
            end: pb::HandEnd::DrawGame as i32,
            penalties: offences(100_000),
            ..pb::SettleHandRequest::default()
        })
        .await
        .expect_err("too many penalties");
    let standing = client
        .compute_standings(standings(2, 65, 1))
        .await
        .expect_err("too many sessions");
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
    for (status, field) in [
        (penalty, "offences"),
        (settle, "penalties"),
        (standing, "players[0].sessions"),
    ] {
        let d = details(&status);
        assert_eq!(
            (d.code, d.info.reason.as_str()),
            (Code::InvalidArgument, "INVALID_REQUEST")
        );
        assert_eq!(d.violations[0].field, field, "{status:?}");
        assert!(
            d.violations[0]
                .description
                .starts_with("VALUE_INVALID: at most")
        );
    }
}

/// Health (gRPC, on a new connection) answers in milliseconds while a big request (about
/// 3 MB, within every maximum, whose standings take 0.7 s of CPU in a debug build) is being
/// worked on, even with a single I/O thread: the work runs off the I/O threads. (Before, the
/// health checks waited for the standings to end.)
#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn health_answers_at_once_beside_huge_requests() {
    let _heavy = HEAVY.lock().await;
    let server = spawn_default().await;
    let big = standings(4096, 64, 1);
    assert!(big.encoded_len() < 4 * 1024 * 1024);
    let mut client = server.client().await;
    let call = tokio::spawn(async move {
        let _ = client.compute_standings(big).await;
        std::time::Instant::now()
    });
    // Past the request's encoding and decoding, into the standings.
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    let mut took = Vec::new();
    for _ in 0..3 {
        let started = std::time::Instant::now();
        let mut health = server.health().await;
        let answer = health
            .check(tonic_health::pb::HealthCheckRequest {
                service: String::new(),
            })
            .await
            .expect("SERVING");
        assert_eq!(answer.into_inner().status, 1);
        took.push(started.elapsed());
    }
    let answered = std::time::Instant::now();
    let ended = call.await.unwrap();
    eprintln!(
        "health took {took:?}; the big call ended {:?} after",
        ended.checked_duration_since(answered)
    );
    assert!(
        ended > answered,
        "health was answered only after the big call ended ({took:?})"
    );
    took.sort();
    assert!(
        took[1] < std::time::Duration::from_millis(150),
        "health checks took {took:?}"
    );
}
