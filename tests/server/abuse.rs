//! What a careless or hostile caller could do to every other caller (issue 16), each
//! bounded in count and time: error details that outgrow a client's metadata limit, answers
//! above the message limit, junk method paths in the metrics, huge requests beside health
//! checks, slow request bodies beside complete calls, streams per connection, connections
//! (their number and age), and answers whose readers never open their flow-control window
//! (with the server's resident memory).

use mahjong_referee::api::KeptRules;
use mahjong_referee::config::{Config, TestHooks};
use mahjong_referee::pb;
use prost::Message as _;
use prost::bytes::Bytes;
use tonic::Code;
use tonic::codec::CompressionEncoding;

use crate::helpers::{config, details, h2_connect, raw_grpc, spawn, spawn_default};
use crate::hostile::rss_of;

/// `mahjong_referee::limits::MAX_VIOLATIONS_SHOWN`, written out so that these tests also
/// build (and fail) on the code before the limit.
const VIOLATIONS_SHOWN: usize = 20;

/// Held by the tests that keep the cores busy, so that they do not slow each other down on a
/// small machine.
pub(crate) static HEAVY: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

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
    let total = mahjong_referee::api::scoring::score_request(&request, &KeptRules::default())
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
    let ranked =
        mahjong_referee::api::accounting::compute_standings(&standings, &KeptRules::default())
            .unwrap();
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
    // Rejected before any work: a few milliseconds here; 2 s leaves a loaded machine room
    // while still failing a service that would do the work (seconds for these sizes).
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
    let (hook, mut gate) = crate::helpers::gate();
    let server = spawn(Config {
        test_hooks: TestHooks {
            before_call: Some(hook),
            ..TestHooks::default()
        },
        ..config()
    })
    .await;
    let big = standings(4096, 64, 1);
    assert!(big.encoded_len() < 4 * 1024 * 1024);
    let mut client = server.client().await;
    let call = tokio::spawn(async move {
        let _ = client.compute_standings(big).await;
        std::time::Instant::now()
    });
    // The whole request received and admitted (the guard's hook, just before the service
    // decodes it and the standings are worked out): let it go on, and ask health beside it.
    gate.arrivals(1).await;
    gate.release();
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
    // The ordering above is the proof that health did not wait for the big call; this bound
    // (the median of three, each on a new connection) only catches a health check slowed to
    // the big call's pace: milliseconds here, a second leaves a loaded machine room.
    took.sort();
    assert!(
        took[1] < std::time::Duration::from_secs(1),
        "health checks took {took:?}"
    );
}

/// An HTTP/2 connection opened with the `h2` client, whose streams start with a flow-control
/// window of `window` bytes (0: the server may send no data until the client allows it).
async fn h2_raw(addr: std::net::SocketAddr, window: u32) -> h2::client::SendRequest<Bytes> {
    let tcp = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    let (sender, connection) = h2::client::Builder::new()
        .initial_window_size(window)
        .handshake(tcp)
        .await
        .expect("HTTP/2 handshake");
    tokio::spawn(connection);
    sender
}

/// A gRPC call's request head for `method` of the referee.
fn grpc_head(method: &str) -> http::Request<()> {
    http::Request::post(format!(
        "http://referee.test/mahjong.v1.MahjongService/{method}"
    ))
    .header("content-type", "application/grpc")
    .header("te", "trailers")
    .body(())
    .unwrap()
}

/// Opens a stream for `method` on `sender` and sends `body` (ending the stream if `end`).
async fn open_stream(
    sender: &mut h2::client::SendRequest<Bytes>,
    method: &str,
    body: Bytes,
    end: bool,
) -> (h2::client::ResponseFuture, h2::SendStream<Bytes>) {
    let mut ready = sender.clone().ready().await.expect("a stream slot");
    let (response, mut stream) = ready
        .send_request(grpc_head(method), false)
        .expect("the stream opens");
    stream.send_data(body, end).expect("the body is queued");
    *sender = ready;
    (response, stream)
}

/// The gRPC status of a trailers-only answer (`None` when the answer has a body).
fn head_status(response: &http::Response<h2::RecvStream>) -> Option<tonic::Status> {
    tonic::Status::from_header_map(response.headers())
}

/// 1,100 calls whose clients send the headers and one byte of the message, then nothing
/// (11 connections of 100 streams), take no call slot: ordinary calls beside them are
/// answered, and the slow ones end with `DEADLINE_EXCEEDED` at the request timeout. (Before,
/// each slow call held one of the 1,024 slots from its headers on, and every other call got
/// `OVERLOADED` until the timeout.)
#[tokio::test]
async fn slow_request_bodies_leave_the_call_slots_to_complete_requests() {
    let _heavy = HEAVY.lock().await;
    let timeout = std::time::Duration::from_secs(3);
    let server = spawn(Config {
        request_timeout: timeout,
        // The 100 slow streams of a connection, and one probe after them.
        max_streams_per_connection: 101,
        ..config()
    })
    .await;
    let probe = Bytes::from(crate::helpers::grpc_frame(
        &crate::helpers::score_request(crate::helpers::E23, true, pb::Ruleset::Unspecified)
            .encode_to_vec(),
    ));
    let mut slow = Vec::new();
    let mut probes = Vec::new();
    for _ in 0..11 {
        let mut sender = h2_raw(server.addr, 65_535).await;
        for _ in 0..100 {
            let (response, stream) =
                open_stream(&mut sender, "ScoreHand", Bytes::from_static(&[0]), false).await;
            slow.push((response, stream));
        }
        probes.push(open_stream(&mut sender, "ScoreHand", probe.clone(), true).await);
    }
    // The server has seen them all once each connection's probe, opened after its slow
    // streams, is answered (whatever the answer): it reads a connection's frames in order.
    futures_join(probes.into_iter().map(|(response, _stream)| response)).await;
    let started = std::time::Instant::now();
    let mut client = server.client().await;
    for _ in 0..20 {
        let answer = client
            .score_hand(crate::helpers::score_request(
                crate::helpers::E23,
                true,
                pb::Ruleset::Unspecified,
            ))
            .await
            .expect("a complete request is answered beside the slow ones");
        assert_eq!(answer.into_inner().total, 18);
    }
    // Milliseconds here; half the timeout is generous on a loaded machine, and still fails
    // a server whose calls wait for the slow ones' timeout.
    assert!(
        started.elapsed() < timeout / 2,
        "the calls waited {:?}",
        started.elapsed()
    );
    // The slow ones end at the request timeout, each with DEADLINE_EXCEEDED.
    let statuses = futures_join(slow.into_iter().map(|(response, _stream)| response)).await;
    for status in statuses {
        assert_eq!(status, Some(Code::DeadlineExceeded));
    }
}

/// The trailers-only status code of every response, each awaited within `PATIENCE`.
async fn futures_join(
    responses: impl Iterator<Item = h2::client::ResponseFuture>,
) -> Vec<Option<Code>> {
    let mut set = tokio::task::JoinSet::new();
    for (i, response) in responses.enumerate() {
        set.spawn(async move {
            let response = tokio::time::timeout(crate::helpers::PATIENCE, response)
                .await
                .expect("answered in time")
                .expect("an answer");
            (i, head_status(&response).map(|s| s.code()))
        });
    }
    let mut codes = Vec::new();
    while let Some(done) = set.join_next().await {
        codes.push(done.unwrap());
    }
    codes.sort_by_key(|(i, _)| *i);
    codes.into_iter().map(|(_, code)| code).collect()
}

/// A connection may have at most `--max-streams-per-connection` streams open: the server
/// says so in its settings, and a call beyond them waits until one of them ends. (Before,
/// hyper's default of 200 applied whatever the configuration.)
#[tokio::test]
async fn streams_per_connection_are_capped() {
    let server = spawn(Config {
        max_streams_per_connection: 8,
        ..config()
    })
    .await;
    let mut sender = h2_raw(server.addr, 65_535).await;
    let message =
        crate::helpers::score_request(crate::helpers::E23, true, pb::Ruleset::Unspecified)
            .encode_to_vec();
    // One call first, by which time the server's settings have arrived.
    let frame = Bytes::from(crate::helpers::grpc_frame(&message));
    let (response, _stream) = open_stream(&mut sender, "ScoreHand", frame, true).await;
    assert_eq!(response.await.unwrap().status(), http::StatusCode::OK);
    assert_eq!(sender.current_max_send_streams(), 8);
    let mut held = Vec::new();
    for _ in 0..8 {
        held.push(open_stream(&mut sender, "ScoreHand", Bytes::from_static(&[0]), false).await);
    }
    let ninth = tokio::spawn({
        let sender = sender.clone();
        async move {
            let mut sender = sender;
            let (response, _stream) = open_stream(
                &mut sender,
                "ScoreHand",
                Bytes::from(crate::helpers::grpc_frame(&message)),
                true,
            )
            .await;
            response.await.expect("an answer").status()
        }
    });
    // A sleep, not an event: what is proved is that nothing happens for a while.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(!ninth.is_finished(), "a ninth stream was served at once");
    // One held stream ends (reset by its client): the ninth goes ahead.
    let (_response, mut stream) = held.pop().unwrap();
    stream.send_reset(h2::Reason::CANCEL);
    let status = tokio::time::timeout(crate::helpers::PATIENCE, ninth)
        .await
        .expect("the ninth call is served once a stream is free")
        .unwrap();
    assert_eq!(status, http::StatusCode::OK);
}

/// At most `--max-connections` connections are open at once: a further one is not served
/// (it waits in the listen backlog) until one of them closes, so that idle connections,
/// about 21 KB each, cannot take the server's memory. (Before, every connection was
/// accepted: 5,000 idle ones took 100 MB.)
#[tokio::test]
async fn connections_are_capped() {
    let server = spawn(Config {
        max_connections: 2,
        ..config()
    })
    .await;
    // Two connections that do nothing after their HTTP/2 preface.
    let mut idle = Vec::new();
    for _ in 0..2 {
        idle.push(idle_connection(server.addr).await);
    }
    let addr = server.addr;
    let third = tokio::spawn(async move {
        let channel = tonic::transport::Endpoint::from_shared(format!("http://{addr}"))
            .unwrap()
            .connect()
            .await
            .expect("connects");
        tonic_health::pb::health_client::HealthClient::new(channel)
            .check(tonic_health::pb::HealthCheckRequest::default())
            .await
            .map(|r| r.into_inner().status)
    });
    // A sleep, not an event: what is proved is that nothing happens for a while.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert!(
        !third.is_finished(),
        "a third connection was served at once"
    );
    // One idle connection closes: the third is served.
    drop(idle.pop());
    let status = tokio::time::timeout(crate::helpers::PATIENCE, third)
        .await
        .expect("the third connection is served once a place is free")
        .unwrap()
        .expect("a health answer");
    assert_eq!(
        status,
        tonic_health::pb::health_check_response::ServingStatus::Serving as i32
    );
}

/// A connection to `addr` that sends the HTTP/2 client preface and an empty SETTINGS frame,
/// then nothing.
async fn idle_connection(addr: std::net::SocketAddr) -> tokio::net::TcpStream {
    const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\0\0\0\x04\0\0\0\0\0";
    let mut tcp = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    tokio::io::AsyncWriteExt::write_all(&mut tcp, PREFACE)
        .await
        .expect("writes");
    tcp
}

/// With `--max-connection-age-seconds`, a connection is asked to close (GOAWAY) once that
/// old, and closed when its client does not: so that clients spread again over the
/// replicas after a scale-out. Without it, connections stay open.
#[tokio::test]
async fn connections_are_closed_at_their_age() {
    use tokio::io::AsyncReadExt as _;
    // Closed after the age (1 s) and the grace (the request timeout + 1 s: this client
    // never answers the GOAWAY's ping), well within 8 s; left open for as long otherwise.
    for (age, closed) in [(1, true), (0, false)] {
        let server = spawn(Config {
            max_connection_age: std::time::Duration::from_secs(age),
            request_timeout: std::time::Duration::from_secs(1),
            ..config()
        })
        .await;
        let mut tcp = idle_connection(server.addr).await;
        // Read (and drop) what the server sends until it closes the connection.
        let read_to_end = async {
            let mut sink = Vec::new();
            let _ = tcp.read_to_end(&mut sink).await;
        };
        let ended = tokio::time::timeout(std::time::Duration::from_secs(8), read_to_end)
            .await
            .is_ok();
        assert_eq!(ended, closed, "age {age}s");
    }
}

/// A `ComputeStandings` request of `players` players with names of about 3,000 bytes: its
/// answer, which repeats the names, is about as large as the request and cheap to compute.
fn long_names(players: usize) -> pb::ComputeStandingsRequest {
    let mut request = standings(players, 1, 1);
    for (i, player) in request.players.iter_mut().enumerate() {
        player.name = format!("{i:04}{}", "x".repeat(3_000));
    }
    request
}

/// 100 `ComputeStandings` calls (two connections of 50 streams) whose clients never open
/// their flow-control window, each asking for an answer of about 3 MB, against the binary
/// with its default limits: its resident memory stays within the chart's 256 MiB limit (the
/// answers beyond `--max-buffered-bytes` are refused), and once the request timeout has
/// passed the stalled answers are dropped, so a new batch is answered while those clients
/// are still connected. (Before, every stalled answer stayed in memory until its connection
/// closed: about 300 MB more here.)
#[tokio::test]
async fn answers_nobody_reads_hold_bounded_memory_and_are_dropped_in_time() {
    let _heavy = HEAVY.lock().await;
    let (mut child, addr, channel) = crate::binary::spawn_serving(&["serve"]).await;
    let pid = child.id().expect("running");
    let mut client = pb::mahjong_service_client::MahjongServiceClient::new(channel)
        .max_decoding_message_size(8 * 1024 * 1024);
    let batch = long_names(1_000);
    let answer_bytes = client
        .compute_standings(batch.clone())
        .await
        .expect("a big standings is answered")
        .into_inner()
        .encoded_len();
    assert!(
        (2_500_000..4_000_000).contains(&answer_bytes),
        "{answer_bytes}"
    );
    let before = rss_of(pid);
    let body = Bytes::from(crate::helpers::grpc_frame(&batch.encode_to_vec()));
    let mut connections = [h2_raw(addr, 0).await, h2_raw(addr, 0).await];
    // Two calls at a time, one per connection, each answered (or refused) before the next:
    // what piles up is the answers nobody reads.
    let mut peak = before;
    let mut heads = Vec::new();
    let mut streams = Vec::new();
    for _ in 0..50 {
        for sender in &mut connections {
            let (response, stream) =
                open_stream(sender, "ComputeStandings", body.clone(), true).await;
            streams.push(stream);
            tokio::pin!(response);
            let head = loop {
                tokio::select! {
                    head = &mut response => break head.expect("an answer head"),
                    () = tokio::time::sleep(std::time::Duration::from_millis(50)) => {
                        peak = peak.max(rss_of(pid));
                    }
                }
            };
            heads.push(head);
            peak = peak.max(rss_of(pid));
        }
    }
    // Memory sampled for half a second more: an interval, not an event.
    for _ in 0..10 {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        peak = peak.max(rss_of(pid));
    }
    let refused = heads
        .iter()
        .filter(|head| head_status(head).is_some_and(|s| s.code() == Code::ResourceExhausted))
        .count();
    let codes: Vec<_> = heads
        .iter()
        .map(|head| head_status(head).map(|s| s.code()))
        .collect();
    eprintln!(
        "RSS {} MB before, peak {} MB; {refused} of 100 stalled calls refused: {codes:?}",
        before >> 20,
        peak >> 20
    );
    assert!(
        peak < 256 << 20,
        "the server grew to {} MB with 100 stalled answers",
        peak >> 20
    );
    // After the request timeout (5 s) the stalled answers are dropped: a big answer fits
    // again. Asked until it does, at most a few seconds past the timeout.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(8);
    let again = loop {
        let again = client.compute_standings(batch.clone()).await;
        if again.is_ok() || std::time::Instant::now() > deadline {
            break again;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    };
    assert!(again.is_ok(), "{again:?}");
    assert!(rss_of(pid) < 256 << 20);
    drop(connections);
    child.kill().await.unwrap();
}

/// A hand's record over its maxima is rejected at once at its path: too many events, a text
/// too long, a match of too many lines, too many overridden claims on one event.
#[tokio::test]
async fn hand_records_over_their_maxima_are_rejected_at_their_path() {
    let server = spawn_default().await;
    let mut client = server.client().await;
    let started = std::time::Instant::now();
    let event = pb::PlayEvent {
        seat: pb::Seat::East as i32,
        action: pb::PlayAction::Draw as i32,
        tile: pb::Tile::Tile1m as i32,
        ..pb::PlayEvent::default()
    };
    let structured = |events: Vec<pb::PlayEvent>| pb::ReplayHandRequest {
        record: Some(pb::replay_hand_request::Record::Structured(
            pb::HandRecord {
                events,
                ..pb::HandRecord::default()
            },
        )),
        ..pb::ReplayHandRequest::default()
    };
    let text = |t: String| pb::ReplayHandRequest {
        record: Some(pb::replay_hand_request::Record::BotzoneText(t)),
        ..pb::ReplayHandRequest::default()
    };
    let many_events = client
        .replay_hand(structured(vec![event.clone(); 100_000]))
        .await
        .expect_err("too many events");
    let claims = pb::PlayEvent {
        overridden: vec![pb::OverriddenClaim::default(); 1000],
        ..event
    };
    let many_claims = client
        .replay_hand(structured(vec![claims]))
        .await
        .expect_err("too many overridden claims");
    let huge = client
        .replay_hand(text("Player 0 Draw W1\n".repeat(100_000)))
        .await
        .expect_err("a text too long");
    let long = client
        .replay_hand(text(format!(
            "Match m\nWind 0\n{}",
            "Player 0 Draw W1\n".repeat(600)
        )))
        .await
        .expect_err("too many lines");
    // Rejected before any work: a few milliseconds here; 2 s leaves a loaded machine room
    // while still failing a service that would do the work (seconds for these sizes).
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
    for (status, field, start) in [
        (many_events, "structured.events", "VALUE_INVALID: at most"),
        (
            many_claims,
            "structured.events[0].overridden",
            "VALUE_INVALID: at most",
        ),
        (huge, "botzone_text", "VALUE_INVALID: a record has at most"),
        (
            long,
            "botzone_text",
            "VALUE_INVALID: line 520: a match has at most",
        ),
    ] {
        let d = details(&status);
        assert_eq!(
            (d.code, d.info.reason.as_str()),
            (Code::InvalidArgument, "INVALID_REQUEST")
        );
        assert_eq!(d.violations.len(), 1, "{status:?}");
        assert_eq!(d.violations[0].field, field, "{status:?}");
        assert!(d.violations[0].description.starts_with(start), "{status:?}");
    }
}

/// A seat's view and a claims list over their maxima are rejected at once at their path.
#[tokio::test]
async fn views_and_claims_over_their_maxima_are_rejected_at_their_path() {
    let server = spawn_default().await;
    let mut client = server.client().await;
    let started = std::time::Instant::now();
    let view = pb::SeatView {
        seat: pb::Seat::South as i32,
        visible_tiles: vec![pb::Tile::Tile1m as i32; 100_000],
        ..pb::SeatView::default()
    };
    let visible = client
        .legal_actions(pb::LegalActionsRequest {
            view: Some(view),
            ..pb::LegalActionsRequest::default()
        })
        .await
        .expect_err("too many visible tiles");
    let claims = client
        .arbitrate_claims(pb::ArbitrateClaimsRequest {
            claims: vec![pb::ClaimToArbitrate::default(); 10_000],
            ..pb::ArbitrateClaimsRequest::default()
        })
        .await
        .expect_err("too many claims");
    // Rejected before any work: a few milliseconds here; 2 s leaves a loaded machine room
    // while still failing a service that would do the work (seconds for these sizes).
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
    for (status, field) in [(visible, "view.visible_tiles"), (claims, "claims")] {
        let d = details(&status);
        assert_eq!(
            (d.code, d.info.reason.as_str()),
            (Code::InvalidArgument, "INVALID_REQUEST")
        );
        assert_eq!(d.violations.len(), 1, "{status:?}");
        assert_eq!(d.violations[0].field, field, "{status:?}");
        assert!(
            d.violations[0]
                .description
                .starts_with("VALUE_INVALID: at most")
        );
    }
}

/// The records of `NextActions` have the maxima of `ReplayHand`'s, and its seed is 32 bytes:
/// over them, a request is rejected at its path before any replay.
#[tokio::test]
async fn next_actions_records_and_seeds_over_their_maxima_are_rejected_at_their_path() {
    let server = spawn_default().await;
    let mut client = server.client().await;
    let event = pb::PlayEvent {
        seat: pb::Seat::East as i32,
        action: pb::PlayAction::Draw as i32,
        tile: pb::Tile::Tile1m as i32,
        ..pb::PlayEvent::default()
    };
    let structured = |events: Vec<pb::PlayEvent>| pb::NextActionsRequest {
        record: Some(pb::next_actions_request::Record::Structured(
            pb::HandRecord {
                events,
                ..pb::HandRecord::default()
            },
        )),
        ..pb::NextActionsRequest::default()
    };
    let text = |t: String| pb::NextActionsRequest {
        record: Some(pb::next_actions_request::Record::BotzoneText(t)),
        ..pb::NextActionsRequest::default()
    };
    let cases = [
        (
            structured(vec![event; 100_000]),
            "structured.events",
            "VALUE_INVALID: at most",
        ),
        (
            text("Player 0 Draw W1\n".repeat(100_000)),
            "botzone_text",
            "VALUE_INVALID: a record has at most",
        ),
        (
            text(format!(
                "Match m\nWind 0\n{}",
                "Player 0 Draw W1\n".repeat(600)
            )),
            "botzone_text",
            "VALUE_INVALID: line 520: a match has at most",
        ),
        (
            pb::NextActionsRequest {
                seed: vec![7; 1 << 20],
                ..text("Match m\nWind 0\n".to_owned())
            },
            "seed",
            "VALUE_INVALID: a seed is 32 bytes",
        ),
    ];
    for (request, field, start) in cases {
        let status = client
            .next_actions(request)
            .await
            .expect_err("over a maximum");
        let d = details(&status);
        assert_eq!(
            (d.code, d.info.reason.as_str()),
            (Code::InvalidArgument, "INVALID_REQUEST")
        );
        let at: Vec<&str> = d.violations.iter().map(|v| v.field.as_str()).collect();
        assert!(at.contains(&field), "{field} in {at:?}");
        let v = d
            .violations
            .iter()
            .find(|v| v.field == field)
            .expect("found");
        assert!(v.description.starts_with(start), "{status:?}");
    }
    // The server still answers at once.
    let dealt = client
        .deal_hand(pb::DealHandRequest {
            seed: vec![1; 32],
            ..pb::DealHandRequest::default()
        })
        .await
        .expect("dealt");
    assert_eq!(dealt.into_inner().wall.len(), 84);
}
