//! Hostile clients against the real server over loopback: `cargo bench --bench hostile`.
//!
//! Spawns the `mahjong-referee serve` binary of this build (default limits unless said) and
//! runs, one after the other, each with a fresh server:
//!
//! - **stalled batches**: `BatchScoreHands` of 6,000 hands (about 2 MB an answer), 5 streams a
//!   second over 10 connections whose flow-control windows stay shut, for `--secs`;
//! - **stalled replays**: `ReplayHand` with the table after every event (the longest match of
//!   the public replay corpus), 100 streams a second over 100 such connections;
//!   for both: the server's resident memory before, at its peak and in the last third, against
//!   the documented pod sizing (64 MB + 2 × `--max-buffered-bytes`), and how many connections
//!   the server closed for answers left untaken;
//! - **floods**: 16 clients calling `AnalyzeHand`, then 16 calling those replays, one call
//!   after another for `--secs` / 6 each: the slowest health check and the 99th percentile of
//!   `ScoreHand` meanwhile;
//! - **hog**: 50 never-reading connections opening 100 of those replays a second beside a
//!   normal client scoring hands and replaying: the normal client's calls and failures.
//!
//! Options (after `--`): `--secs S` (each attack, default 60), `--only stalled|flood|hog`.
//! Run by `cargo test --benches` (no `--bench` argument) it runs each part for a second, on a
//! small scale, without judging.

use std::net::SocketAddr;
use std::process::{ExitCode, Stdio};
use std::time::{Duration, Instant};

use mahjong_referee::pb;
use prost::Message as _;
use prost::bytes::Bytes;

#[path = "../tests/support/hostile.rs"]
mod hostile;

use hostile::{
    analysis_frame, batch, flood, grpc_frame, hog, longest_match, noticed, replay_with_states,
    rss_of, sampling, score_request, serving,
};

/// The default `--max-buffered-bytes`.
const BUDGET: u64 = 64 << 20;

struct Plan {
    full: bool,
    secs: u64,
    only: Option<String>,
}

impl Plan {
    fn from_args() -> Result<Plan, String> {
        let mut args = std::env::args().skip(1);
        let mut plan = Plan {
            full: false,
            secs: 60,
            only: None,
        };
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--bench" => plan.full = true,
                "--secs" => {
                    plan.secs = args
                        .next()
                        .and_then(|s| s.parse().ok())
                        .ok_or("--secs takes a number of seconds")?;
                }
                "--only" => plan.only = Some(args.next().ok_or("--only takes a part")?),
                _ => {}
            }
        }
        if !plan.full {
            plan.secs = 1;
        }
        Ok(plan)
    }

    fn runs(&self, part: &str) -> bool {
        self.only.as_deref().is_none_or(|only| only == part)
    }

    fn scale(&self, n: usize) -> usize {
        if self.full { n } else { n.div_ceil(10) }
    }
}

/// A served binary, killed when dropped.
struct Served {
    child: tokio::process::Child,
    addr: SocketAddr,
    channel: tonic::transport::Channel,
}

async fn serve() -> Served {
    let free = || {
        std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
    };
    let addr = free();
    let child = tokio::process::Command::new(env!("CARGO_BIN_EXE_mahjong-referee"))
        .arg("serve")
        .env("MAHJONG_LISTEN_ADDR", addr.to_string())
        .env("MAHJONG_METRICS_ADDR", free().to_string())
        .env("MAHJONG_DRAIN_SECONDS", "0")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("serve starts");
    let channel = serving(addr).await;
    Served {
        child,
        addr,
        channel,
    }
}

fn mb(bytes: u64) -> f64 {
    #[allow(clippy::cast_precision_loss)] // far below 2^52
    let mb = bytes as f64 / f64::from(1 << 20);
    mb
}

async fn stalled(plan: &Plan) -> bool {
    let text = longest_match();
    let attacks = [
        (
            "stalled batches",
            "BatchScoreHands",
            batch(plan.scale(6_000)).encode_to_vec(),
            10,
            5,
        ),
        (
            "stalled replays",
            "ReplayHand",
            replay_with_states(&text).encode_to_vec(),
            plan.scale(100),
            u32::try_from(plan.scale(100)).expect("small"),
        ),
    ];
    let mut within = true;
    for (name, method, request, connections, per_second) in attacks {
        let served = serve().await;
        let pid = served.child.id().expect("running");
        let before = rss_of(pid);
        let (samples, hogged) = sampling(
            pid,
            hog(
                served.addr,
                method,
                Bytes::from(grpc_frame(&request)),
                connections,
                per_second,
                Duration::from_secs(plan.secs),
            ),
        )
        .await;
        let peak = samples.iter().max().copied().unwrap_or(before);
        let last = samples[samples.len() * 2 / 3..]
            .iter()
            .max()
            .copied()
            .unwrap_or(before);
        let sizing = (64 << 20) + 2 * BUDGET;
        within &= peak < sizing;
        println!(
            "{name:16} {} B requests, {connections} connections, {per_second}/s for {} s: RSS {:.1} MB before, peak {:.1} MB, last third {:.1} MB (sizing {:.0} MB); {} streams opened, {} connections closed",
            request.len(),
            plan.secs,
            mb(before),
            mb(peak),
            mb(last),
            mb(sizing),
            hogged.opened,
            hogged.closed,
        );
    }
    within
}

async fn floods(plan: &Plan) -> bool {
    let served = serve().await;
    let replay = Bytes::from(grpc_frame(
        &replay_with_states(&longest_match()).encode_to_vec(),
    ));
    let analysis = analysis_frame();
    let each = Duration::from_secs((plan.secs / 6).max(1));
    let addr = served.addr;
    let (analyses, analysed) = noticed(addr, flood(addr, "AnalyzeHand", analysis, each)).await;
    let (replays, replayed) = noticed(addr, flood(addr, "ReplayHand", replay, each)).await;
    println!("flood of analyses {analysed:>6} calls: {analyses:?}");
    println!("flood of replays  {replayed:>6} calls: {replays:?}");
    replays.health_max <= 2 * analyses.health_max && replays.score_p99 <= 2 * analyses.score_p99
}

async fn hogged(plan: &Plan) -> bool {
    let served = serve().await;
    let text = longest_match();
    let body = Bytes::from(grpc_frame(&replay_with_states(&text).encode_to_vec()));
    let mut normal = pb::mahjong_service_client::MahjongServiceClient::new(served.channel.clone());
    let how_long = Duration::from_secs(plan.secs);
    let hogging = hog(
        served.addr,
        "ReplayHand",
        body,
        plan.scale(50),
        u32::try_from(plan.scale(100)).expect("small"),
        how_long,
    );
    let normally = async {
        let end = Instant::now() + how_long;
        let (mut calls, mut refused, mut failed) = (0, 0, 0);
        while Instant::now() < end {
            for status in [
                normal.score_hand(score_request()).await.err(),
                normal.replay_hand(replay_with_states(&text)).await.err(),
            ] {
                calls += 1;
                match status {
                    None => {}
                    Some(s) if s.code() == tonic::Code::ResourceExhausted => refused += 1,
                    Some(_) => failed += 1,
                }
            }
        }
        (calls, refused, failed)
    };
    let (hog, (calls, refused, failed)) = tokio::join!(hogging, normally);
    println!(
        "hog of {} connections ({} streams, {} connections closed); normal client: {calls} calls, {refused} refused, {failed} failed otherwise",
        plan.scale(50),
        hog.opened,
        hog.closed
    );
    refused == 0 && failed == 0
}

fn main() -> ExitCode {
    let plan = match Plan::from_args() {
        Ok(plan) => plan,
        Err(e) => {
            eprintln!("hostile: {e}");
            return ExitCode::FAILURE;
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let met = runtime.block_on(async {
        let mut met = Vec::new();
        if plan.runs("stalled") {
            met.push(("memory within the pod sizing", stalled(&plan).await));
        }
        if plan.runs("flood") {
            met.push((
                "replay flood within 2× the analysis flood",
                floods(&plan).await,
            ));
        }
        if plan.runs("hog") {
            met.push(("normal client unharmed beside the hog", hogged(&plan).await));
        }
        met
    });
    if plan.full {
        for (target, ok) in met {
            println!("{target}: {}", if ok { "met" } else { "MISSED" });
        }
    }
    ExitCode::SUCCESS
}
