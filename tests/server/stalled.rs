//! Hardening, round 2 (issue 31), against the binary: answers whose readers never open their
//! flow-control window hold bounded memory and close their connections; a flood of the
//! largest answers costs health and scoring no more than a flood of analyses; a client that
//! hogs the budget leaves a normal client unharmed.

use std::time::{Duration, Instant};

use mahjong_referee::pb;
use prost::Message as _;
use prost::bytes::Bytes;
use tonic::Code;

use crate::abuse::HEAVY;
use crate::binary::spawn_serving;
use crate::hostile::{
    analysis_frame, batch, flood, grpc_frame, hog, longest_match, noticed, replay_with_states,
    rss_of, sampling, score_request,
};

/// The budget of the small-scale attacks: 10 MiB, with the smallest message limit it allows.
const BUDGET: u64 = 10 << 20;

/// `serve` with [`BUDGET`].
const SMALL_BUDGET: &[&str] = &[
    "serve",
    "--max-message-bytes",
    "1048576",
    "--max-buffered-bytes",
    "10485760",
];

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
    let (mut child, addr, channel) =
        spawn_serving(&[SMALL_BUDGET, &["--request-timeout-ms", "1000"]].concat()).await;
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

/// Health and scoring notice a flood of the largest replays (the table after every event,
/// encoded and gzipped) no more than twice as much as a flood of analyses, in the same run
/// (each flood twice, in turn; the calmer run of each kind compared).
/// (Before, the replays' answers were encoded and compressed on the I/O threads, outside the
/// one-call-per-core pool: health checks waited behind them, about ten times as long.)
#[tokio::test]
async fn a_flood_of_large_answers_is_noticed_no_more_than_a_flood_of_analyses() {
    let _heavy = HEAVY.lock().await;
    let (mut child, addr, _channel) = spawn_serving(&["serve"]).await;
    let replay = Bytes::from(grpc_frame(
        &replay_with_states(&longest_match()).encode_to_vec(),
    ));
    let analysis = analysis_frame();
    // Each flood twice, in turn, and the calmer of the two runs of each kind: a single stall
    // of a loaded machine does not decide.
    let how_long = Duration::from_secs(2);
    let (mut analyses, mut replays) = (Vec::new(), Vec::new());
    for _ in 0..2 {
        let (noticed_analyses, analysed) =
            noticed(addr, flood(addr, "AnalyzeHand", analysis.clone(), how_long)).await;
        let (noticed_replays, replayed) =
            noticed(addr, flood(addr, "ReplayHand", replay.clone(), how_long)).await;
        assert!(analysed > 0 && replayed > 0);
        analyses.push(noticed_analyses);
        replays.push(noticed_replays);
    }
    eprintln!("analyses: {analyses:?}; large replays: {replays:?}");
    let calmer = |runs: &[crate::hostile::Noticed]| crate::hostile::Noticed {
        health_max: runs.iter().map(|n| n.health_max).min().unwrap_or_default(),
        score_p99: runs.iter().map(|n| n.score_p99).min().unwrap_or_default(),
    };
    let (analyses, replays) = (calmer(&analyses), calmer(&replays));
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
    let (mut child, addr, channel) = spawn_serving(SMALL_BUDGET).await;
    let text = longest_match();
    let body = Bytes::from(grpc_frame(&replay_with_states(&text).encode_to_vec()));
    let mut normal = pb::mahjong_service_client::MahjongServiceClient::new(channel);
    let hogging = hog(addr, "ReplayHand", body, 24, 100, Duration::from_secs(8));
    let normally = async {
        // The hog first fills what it may. A sleep, not an event: the hog never reads, so
        // nothing it sees says when its share is full; the 2 s place the normal client's
        // 5 s inside the hog's 8 s of load.
        tokio::time::sleep(Duration::from_secs(2)).await;
        let mut failures = Vec::new();
        let mut calls = 0;
        let end = Instant::now() + Duration::from_secs(5);
        while Instant::now() < end {
            let scored = normal.score_hand(score_request()).await;
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
