//! Hardening, round 2 (issue 31), against the binary: answers whose readers never open their
//! flow-control window hold bounded memory and close their connections; a flood of the
//! largest answers costs health and scoring no more than a flood of analyses; a client that
//! hogs the budget leaves a normal client unharmed.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use mahjong_referee::pb;
use prost::Message as _;
use prost::bytes::Bytes;
use tokio::task::JoinHandle;
use tonic::Code;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_client::HealthClient;

use crate::abuse::HEAVY;
use crate::binary::spawn_serving;
use crate::helpers::grpc_frame;

/// The longest match of the public replay corpus: the largest `ReplayHand` answer with the
/// table after every event that the corpus gives.
fn longest_match() -> String {
    let corpus = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/replay-public.txt"
    ))
    .expect("corpus");
    corpus
        .split("\n\n")
        .max_by_key(|text| text.lines().count())
        .expect("a match")
        .to_owned()
}

/// `ReplayHand` of `text` with the table after every event.
fn replay_with_states(text: &str) -> pb::ReplayHandRequest {
    pb::ReplayHandRequest {
        record: Some(pb::replay_hand_request::Record::BotzoneText(
            text.to_owned(),
        )),
        include_states: true,
        ..Default::default()
    }
}

/// The resident memory of process `pid`, in bytes (Linux).
fn rss_of(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc");
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|kb| kb.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .expect("VmRSS")
        * 1024
}

/// An HTTP/2 connection whose streams have a flow-control window of 0: the server may send
/// no data on them. Its task ends when the server closes the connection.
async fn never_reading(addr: SocketAddr) -> (h2::client::SendRequest<Bytes>, JoinHandle<()>) {
    let tcp = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    let (sender, connection) = h2::client::Builder::new()
        .initial_window_size(0)
        .handshake(tcp)
        .await
        .expect("HTTP/2 handshake");
    let task = tokio::spawn(async move {
        let _ = connection.await;
    });
    (sender, task)
}

/// A gRPC request head for `method` of the referee.
fn grpc_head(method: &str) -> http::Request<()> {
    http::Request::post(format!(
        "http://referee.test/mahjong.v1.MahjongService/{method}"
    ))
    .header("content-type", "application/grpc")
    .header("te", "trailers")
    .header("grpc-accept-encoding", "gzip")
    .body(())
    .unwrap()
}

/// What a hog did.
#[derive(Debug, Default)]
struct Hogged {
    /// Streams opened.
    opened: usize,
    /// Connections the server closed.
    closed: usize,
}

/// A client that opens `per_second` streams a second of `method` with `body` on
/// `connections` connections whose windows stay shut, for `how_long`, and never reads an
/// answer; a connection the server closes is replaced.
async fn hog(
    addr: SocketAddr,
    method: &'static str,
    body: Bytes,
    connections: usize,
    per_second: u32,
    how_long: Duration,
) -> Hogged {
    let mut open = Vec::new();
    for _ in 0..connections {
        open.push(never_reading(addr).await);
    }
    let mut hogged = Hogged::default();
    // The streams are kept, so that the client never resets them.
    let mut streams = Vec::new();
    let mut ticks = tokio::time::interval(Duration::from_secs(1) / per_second);
    let end = Instant::now() + how_long;
    let mut next = 0;
    while Instant::now() < end {
        ticks.tick().await;
        let i = next % open.len();
        next += 1;
        if open[i].1.is_finished() {
            hogged.closed += 1;
            open[i] = never_reading(addr).await;
        }
        let Ok(Ok(mut ready)) =
            tokio::time::timeout(Duration::from_millis(100), open[i].0.clone().ready()).await
        else {
            continue;
        };
        if let Ok((response, mut stream)) = ready.send_request(grpc_head(method), false)
            && stream.send_data(body.clone(), true).is_ok()
        {
            hogged.opened += 1;
            streams.push((response, stream));
        }
    }
    hogged.closed += open.iter().filter(|(_, task)| task.is_finished()).count();
    hogged
}

/// Resident memory sampled every 100 ms while `work` runs: the samples and its output.
async fn sampling<T>(pid: u32, work: impl Future<Output = T>) -> (Vec<u64>, T) {
    let mut samples = Vec::new();
    let mut work = std::pin::pin!(work);
    let mut every = tokio::time::interval(Duration::from_millis(100));
    loop {
        tokio::select! {
            done = &mut work => return (samples, done),
            _ = every.tick() => samples.push(rss_of(pid)),
        }
    }
}

/// A `BatchScoreHands` of `hands` hands in the full view: an answer of about 350 bytes a
/// hand.
fn batch(hands: usize) -> pb::BatchScoreHandsRequest {
    pb::BatchScoreHandsRequest {
        requests: (0..hands)
            .map(|_| crate::helpers::score_request(crate::helpers::E23, true, pb::Ruleset::Mil))
            .collect(),
        ..Default::default()
    }
}

/// A client opening streams on 8 connections that never read, for 8 s, against a budget of
/// 10 MiB and a request timeout of 1 s, each stream asking for a large answer (a batch of
/// about 700 KB, then a replay with the table after every event, about 50 KB): the server's
/// memory levels off under the documented pod sizing (64 MB + 2 × the budget), and each connection
/// that left an answer untaken is closed. (Before, about one answer and one 64 KiB chunk per
/// stream stayed allocated until the connection closed: the memory grew linearly, and no
/// connection was closed.)
#[tokio::test]
async fn answers_never_read_plateau_and_close_their_connections() {
    let _heavy = HEAVY.lock().await;
    const BUDGET: u64 = 10 << 20;
    let (mut child, addr, channel) = spawn_serving(&[
        "serve",
        "--max-message-bytes",
        "1048576",
        "--max-buffered-bytes",
        &BUDGET.to_string(),
        "--request-timeout-ms",
        "1000",
    ])
    .await;
    let pid = child.id().expect("running");
    let mut client = pb::mahjong_service_client::MahjongServiceClient::new(channel);
    let text = longest_match();
    let batch = batch(2_000);
    for answer in [
        client
            .batch_score_hands(batch.clone())
            .await
            .expect("scores")
            .into_inner()
            .encoded_len(),
        client
            .replay_hand(replay_with_states(&text))
            .await
            .expect("replays")
            .into_inner()
            .encoded_len(),
    ] {
        assert!(answer > 32 * 1024, "an answer of {answer} bytes");
    }
    let attacks = [
        ("BatchScoreHands", batch.encode_to_vec(), 10),
        ("ReplayHand", replay_with_states(&text).encode_to_vec(), 50),
    ];
    for (method, request, per_second) in attacks {
        let body = Bytes::from(grpc_frame(&request));
        let before = rss_of(pid);
        let (samples, hogged) = sampling(
            pid,
            hog(addr, method, body, 8, per_second, Duration::from_secs(8)),
        )
        .await;
        let mb = |bytes: u64| bytes >> 20;
        let third = samples.len() / 3;
        let middle = samples[third..2 * third].iter().max().copied().unwrap_or(0);
        let last = samples[2 * third..].iter().max().copied().unwrap_or(0);
        let peak = samples.iter().max().copied().unwrap_or(0);
        eprintln!(
            "{method}: RSS {} MB before, then up to {} MB (middle third {} MB, last {} MB); {hogged:?}",
            mb(before),
            mb(peak),
            mb(middle),
            mb(last)
        );
        // The pod sizing of docs/limits.md.
        assert!(
            peak < (64 << 20) + 2 * BUDGET,
            "{method}: grew to {} MB with a budget of {} MB",
            mb(peak),
            mb(BUDGET)
        );
        assert!(
            last <= middle + (BUDGET / 2),
            "{method}: still growing: {} MB, then {} MB",
            mb(middle),
            mb(last)
        );
        assert!(
            hogged.closed >= 8,
            "{method}: connections closed for answers left untaken: {hogged:?}"
        );
    }
    child.kill().await.unwrap();
}

/// What health and scoring noticed of a flood: the slowest health check (one every 10 ms)
/// and the 99th percentile of `ScoreHand` calls (one after another), each on a connection of
/// its own.
#[derive(Debug, Clone, Copy)]
struct Noticed {
    health_max: Duration,
    score_p99: Duration,
}

/// What health and scoring notice of `flood` (which returns how many calls it made).
async fn noticed(addr: SocketAddr, flood: impl Future<Output = usize>) -> (Noticed, usize) {
    let url = format!("http://{addr}");
    let connect = || async {
        tonic::transport::Endpoint::from_shared(url.clone())
            .unwrap()
            .connect()
            .await
            .expect("connects")
    };
    let mut health = HealthClient::new(connect().await);
    let mut scoring = pb::mahjong_service_client::MahjongServiceClient::new(connect().await);
    let done = std::sync::atomic::AtomicBool::new(false);
    let over = || done.load(std::sync::atomic::Ordering::Acquire);
    let flooded = async {
        let calls = flood.await;
        done.store(true, std::sync::atomic::Ordering::Release);
        calls
    };
    let checks = async {
        let mut took = Vec::new();
        let mut every = tokio::time::interval(Duration::from_millis(10));
        while !over() {
            every.tick().await;
            let started = Instant::now();
            health
                .check(HealthCheckRequest::default())
                .await
                .expect("health answers");
            took.push(started.elapsed());
        }
        took
    };
    let scores = async {
        let mut took = Vec::new();
        while !over() {
            let started = Instant::now();
            scoring
                .score_hand(crate::helpers::score_request(
                    crate::helpers::E23,
                    true,
                    pb::Ruleset::Mil,
                ))
                .await
                .expect("scores");
            took.push(started.elapsed());
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        took
    };
    let (calls, health_took, mut score_took) = tokio::join!(flooded, checks, scores);
    score_took.sort();
    let p99 = score_took[score_took.len() * 99 / 100];
    let noticed = Noticed {
        health_max: health_took.iter().max().copied().unwrap_or_default(),
        score_p99: p99,
    };
    (noticed, calls)
}

/// 16 clients calling `method` with `body` one call after another for `how_long`, each on a
/// connection of its own, reading every answer (as bytes: the clients cost little) and
/// accepting gzip. Returns how many calls were answered.
async fn flood(addr: SocketAddr, method: &'static str, body: Bytes, how_long: Duration) -> usize {
    let end = Instant::now() + how_long;
    let clients = (0..16).map(|_| {
        let body = body.clone();
        async move {
            let tcp = tokio::net::TcpStream::connect(addr)
                .await
                .expect("connects");
            let (mut sender, connection) = h2::client::handshake(tcp).await.expect("handshake");
            tokio::spawn(connection);
            let mut answered = 0;
            while Instant::now() < end {
                sender = sender.ready().await.expect("a stream");
                let (response, mut stream) = sender
                    .send_request(grpc_head(method), false)
                    .expect("opens");
                stream.send_data(body.clone(), true).expect("sends");
                let mut answer = response.await.expect("an answer").into_body();
                while let Some(data) = answer.data().await {
                    let data = data.expect("data");
                    let _ = answer.flow_control().release_capacity(data.len());
                }
                answered += 1;
            }
            answered
        }
    });
    futures_util::future::join_all(clients)
        .await
        .into_iter()
        .sum()
}

/// Health and scoring notice a flood of the largest replays (the table after every event,
/// encoded and gzipped) no more than twice as much as a flood of analyses, in the same run.
/// (Before, the replays' answers were encoded and compressed on the I/O threads, outside the
/// one-call-per-core pool: health checks waited behind them, about ten times as long.)
#[tokio::test]
async fn a_flood_of_large_answers_is_noticed_no_more_than_a_flood_of_analyses() {
    let _heavy = HEAVY.lock().await;
    let (mut child, addr, _channel) = spawn_serving(&["serve"]).await;
    let replay = Bytes::from(grpc_frame(
        &replay_with_states(&longest_match()).encode_to_vec(),
    ));
    let analysis = Bytes::from(grpc_frame(
        &pb::AnalyzeHandRequest {
            hand_input: Some(pb::analyze_hand_request::HandInput::Notation(
                "1245m3678p569sESW".to_owned(),
            )),
            ..Default::default()
        }
        .encode_to_vec(),
    ));
    let how_long = Duration::from_secs(3);
    let (analyses, analysed) = noticed(addr, flood(addr, "AnalyzeHand", analysis, how_long)).await;
    let (replays, replayed) = noticed(addr, flood(addr, "ReplayHand", replay, how_long)).await;
    eprintln!(
        "analyses: {analyses:?} ({analysed} calls); large replays: {replays:?} ({replayed} calls)"
    );
    assert!(analysed > 0 && replayed > 0);
    // Twice, with a few milliseconds for a machine that is never quiet.
    let slack = Duration::from_millis(15);
    assert!(
        replays.health_max <= 2 * analyses.health_max + slack,
        "health: {replays:?} against {analyses:?}"
    );
    assert!(
        replays.score_p99 <= 2 * analyses.score_p99 + slack,
        "scoring: {replays:?} against {analyses:?}"
    );
    child.kill().await.unwrap();
}

/// A client on 24 connections that never read, opening 100 large replays a second, beside a
/// normal client that scores hands and replays its own: the normal client is never refused
/// (no `OVERLOADED`), and every one of its calls is answered. (Before, the hog took the
/// whole budget and the normal client was refused.)
#[tokio::test]
async fn a_budget_hog_leaves_a_normal_client_unharmed() {
    let _heavy = HEAVY.lock().await;
    let (mut child, addr, channel) = spawn_serving(&[
        "serve",
        "--max-message-bytes",
        "1048576",
        "--max-buffered-bytes",
        "10485760",
    ])
    .await;
    let text = longest_match();
    let body = Bytes::from(grpc_frame(&replay_with_states(&text).encode_to_vec()));
    let mut normal = pb::mahjong_service_client::MahjongServiceClient::new(channel);
    let hogging = hog(addr, "ReplayHand", body, 24, 100, Duration::from_secs(8));
    let normally = async {
        // The hog first fills what it may.
        tokio::time::sleep(Duration::from_secs(2)).await;
        let mut failures = Vec::new();
        let mut calls = 0;
        let end = Instant::now() + Duration::from_secs(5);
        while Instant::now() < end {
            let scored = normal
                .score_hand(crate::helpers::score_request(
                    crate::helpers::E23,
                    true,
                    pb::Ruleset::Mil,
                ))
                .await;
            let replayed = normal.replay_hand(replay_with_states(&text)).await;
            calls += 2;
            for status in [scored.err(), replayed.err()].into_iter().flatten() {
                failures.push((status.code(), status.message().to_owned()));
            }
        }
        (calls, failures)
    };
    let (hogged, (calls, failures)) = tokio::join!(hogging, normally);
    eprintln!("hog: {hogged:?}; normal client: {calls} calls, failed {failures:?}");
    assert!(calls >= 10, "{calls} calls");
    assert!(
        failures.is_empty(),
        "the normal client was refused: {} of {calls}: {:?}",
        failures.len(),
        failures
            .iter()
            .filter(|(code, _)| *code == Code::ResourceExhausted)
            .count()
    );
    child.kill().await.unwrap();
}
