//! Load benchmark of the real server over loopback: `cargo bench --bench load`.
//!
//! Spawns the `mahjong-referee serve` binary of this build on free loopback ports and drives
//! it with closed-loop tonic clients over one HTTP/2 connection, using the hands of the
//! public corpus in rotation (every well-formed one, under MIL). Two set-ups, one after the
//! other, each with its own server:
//!
//! - **A. dedicated**: the server pinned to CPU 0 with `taskset` (one tokio worker), this load
//!   generator to CPU 1, as in the stack notes: the server's own cost, undiluted;
//! - **B. shared**: a fresh server on every CPU with its default workers, the load generator
//!   unpinned: how a single machine running both behaves.
//!
//! In each: the health `Check` (the empty-RPC ceiling of the same server), `ScoreHand` and
//! `ScoreHand` in `SCORE_VIEW_BASIC` at 64 requests in flight, in alternating rounds
//! (requests/s, p50/p90/p99/p99.9 latency); then the health check and `ScoreHand` with a
//! single request in flight. Then, on the set-up B server, `BatchScoreHands` with 1,000
//! hands a call, 4 calls in flight, in the default (full) and the basic view: hands/s.
//! Every row also gives the server process's CPU time per call (per hand for batches),
//! read from `/proc`: the figure least disturbed by other load on the machine.
//!
//! The load generator sends pre-encoded requests and keeps the responses as bytes (checked
//! for their gRPC status; their content is checked once before measuring), so that its own
//! cost is the same small one for every RPC and does not hide the server's.
//!
//! It ends with the targets and whether this run met them. Everything is bounded in time
//! (about a minute). Options (after `--`): `--secs S` (length of one measured round, default
//! 2), `--no-pin` (set-up A unpinned, no set-up B), `--in-flight N` (default 64), `--only
//! calls|score|health|batch` and `--server ADDR` (a server started by hand: for profiling).
//!
//! Run by `cargo test --benches` (no `--bench` argument) it only smoke-tests itself for a
//! fraction of a second, without judging the targets.

// Statistics: counts and nanoseconds far below 2^52 become f64 and back.
#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]

use std::future::Future;
use std::io::{Read as _, Write as _};
use std::net::{SocketAddr, TcpListener};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use http::uri::PathAndQuery;
use mahjong_referee::pb;
use mahjong_referee::pb::mahjong_service_client::MahjongServiceClient;
use prost::Message as _;
use prost::bytes::{Buf as _, BufMut as _, Bytes};
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::transport::{Channel, Endpoint};
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

/// The server's allocator: the load generator shares the two cores with the server, and with
/// glibc's allocator it spent about 5% of its time in `malloc` during the batch phase.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "../tests/support/corpus.rs"]
#[allow(dead_code)] // the corpus helpers this bench does not use
mod corpus;

const BATCH_HANDS: usize = 1_000;
/// `BatchScoreHands` calls in flight: enough to keep every server core busy.
const BATCH_IN_FLIGHT: usize = 4;

/// What one run is asked to do.
struct Plan {
    full: bool,
    round: Duration,
    rounds: usize,
    warm_up: Duration,
    lone: Duration,
    batch: Duration,
    in_flight: usize,
    pin: bool,
    /// Drive this server instead of spawning one (profiling).
    server: Option<SocketAddr>,
    /// Run only the single-RPC phases (`calls`), only `ScoreHand` or the health check
    /// (`score`, `health`: for profiling) or only the batches (`batch`).
    only: Option<String>,
}

impl Plan {
    fn from_args() -> Result<Plan, String> {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let full = args.iter().any(|a| a == "--bench");
        let mut plan = if full {
            Plan {
                full,
                round: Duration::from_secs(2),
                rounds: 3,
                warm_up: Duration::from_secs(1),
                lone: Duration::from_secs(2),
                batch: Duration::from_secs(3),
                in_flight: 64,
                pin: true,
                server: None,
                only: None,
            }
        } else {
            Plan {
                full,
                round: Duration::from_millis(200),
                rounds: 1,
                warm_up: Duration::from_millis(100),
                lone: Duration::from_millis(200),
                batch: Duration::from_millis(300),
                in_flight: 64,
                pin: false,
                server: None,
                only: None,
            }
        };
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            match arg.as_str() {
                "--secs" => {
                    let secs: f64 = value(it.next(), "--secs")?;
                    if !(0.05..=60.0).contains(&secs) {
                        return Err("--secs must be within 0.05..=60".to_owned());
                    }
                    plan.round = Duration::from_secs_f64(secs);
                }
                "--in-flight" => {
                    plan.in_flight = value(it.next(), "--in-flight")?;
                    if !(1..=1024).contains(&plan.in_flight) {
                        return Err("--in-flight must be within 1..=1024".to_owned());
                    }
                }
                "--no-pin" => plan.pin = false,
                "--only" => match it.next().map(String::as_str) {
                    Some(what @ ("calls" | "batch" | "score" | "health")) => {
                        plan.only = Some(what.to_owned());
                    }
                    _ => return Err("--only takes calls, score, health or batch".to_owned()),
                },
                "--server" => {
                    plan.server = Some(value(it.next(), "--server")?);
                }
                // Cargo's and libtest's own flags, and a filter.
                _ => {}
            }
        }
        Ok(plan)
    }
}

fn value<T: std::str::FromStr>(arg: Option<&String>, name: &str) -> Result<T, String> {
    arg.and_then(|v| v.parse().ok())
        .ok_or_else(|| format!("{name} needs a number"))
}

fn main() -> ExitCode {
    let plan = match Plan::from_args() {
        Ok(plan) => plan,
        Err(e) => {
            eprintln!("load: {e}");
            return ExitCode::from(2);
        }
    };
    match run(&plan) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("load: {e}");
            ExitCode::FAILURE
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The server under test

/// The server under test: spawned (and killed when dropped), or given with `--server`.
struct ServerProcess {
    child: Option<Child>,
    addr: SocketAddr,
    metrics: Option<SocketAddr>,
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn free_port() -> Result<SocketAddr, String> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    listener.local_addr().map_err(|e| e.to_string())
}

/// Starts `mahjong-referee serve` on free loopback ports, on CPU `cpu` alone if given.
fn spawn_server(cpu: Option<usize>) -> Result<ServerProcess, String> {
    let addr = free_port()?;
    let metrics = free_port()?;
    let binary = env!("CARGO_BIN_EXE_mahjong-referee");
    let mut command = match cpu {
        Some(cpu) => {
            let mut c = Command::new("taskset");
            c.args(["-c", &cpu.to_string(), binary]);
            c
        }
        None => Command::new(binary),
    };
    command
        .args(["serve", "--listen-addr", &addr.to_string()])
        .args(["--metrics-addr", &metrics.to_string()])
        .env_remove("MAHJONG_OTLP_ENDPOINT")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit());
    let child = command
        .spawn()
        .map_err(|e| format!("cannot start {binary}: {e}"))?;
    Ok(ServerProcess {
        child: Some(child),
        addr,
        metrics: Some(metrics),
    })
}

/// Pins this process (all its threads, present and future) to `cpus` (taskset list syntax).
fn pin_self(cpus: &str) -> bool {
    Command::new("taskset")
        .args(["-a", "-p", "-c", cpus, &std::process::id().to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Waits until the server answers SERVING: one connection to it.
async fn connect(server: &mut ServerProcess) -> Result<Channel, String> {
    let deadline = Instant::now() + Duration::from_secs(30);
    // Flow-control windows for 250 KB batch responses: with HTTP/2's default 64 KiB the
    // server would wait for a WINDOW_UPDATE round trip every 64 KiB.
    let endpoint = Endpoint::from_shared(format!("http://{}", server.addr))
        .map_err(|e| e.to_string())?
        .tcp_nodelay(true)
        .initial_connection_window_size(Some(16 * 1024 * 1024))
        .initial_stream_window_size(Some(8 * 1024 * 1024));
    loop {
        if let Some(Ok(Some(status))) = server.child.as_mut().map(Child::try_wait) {
            return Err(format!("the server exited: {status}"));
        }
        if let Ok(channel) = endpoint.connect().await {
            let answer = HealthClient::new(channel.clone())
                .check(HealthCheckRequest {
                    service: String::new(),
                })
                .await;
            if answer.is_ok_and(|a| a.get_ref().status == ServingStatus::Serving as i32) {
                return Ok(channel);
            }
        }
        if Instant::now() > deadline {
            return Err("the server did not become SERVING within 30 s".to_owned());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// `GET /metrics` of the server, the value of one sample.
fn scrape(addr: SocketAddr, sample: &str) -> Option<f64> {
    let mut stream = std::net::TcpStream::connect(addr).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(
        stream,
        "GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut text = String::new();
    stream.read_to_string(&mut text).ok()?;
    text.lines().find_map(|l| {
        l.strip_prefix(sample)?
            .strip_prefix(' ')?
            .trim()
            .parse()
            .ok()
    })
}

// ---------------------------------------------------------------------------------------------
// The corpus as requests

/// Every well-formed hand of the public corpus (wins, hands under 8 fan, non-winning shapes)
/// as a `ScoreHandRequest` under MIL with a structured hand.
fn corpus_requests() -> Result<Vec<pb::ScoreHandRequest>, String> {
    let requests: Vec<_> = corpus::load()
        .iter()
        .filter(|case| {
            matches!(
                case.error(),
                None | Some("ERROR_FAN_LESS_THAN_8" | "ERROR_NOT_WIN")
            )
        })
        .filter_map(corpus::Case::input)
        .map(|(hand, context)| {
            corpus::request(&hand, context, pb::Ruleset::Mil, pb::ScoreView::Unspecified)
        })
        .collect();
    if requests.len() < 1_000 {
        return Err(format!("only {} usable corpus hands", requests.len()));
    }
    Ok(requests)
}

// ---------------------------------------------------------------------------------------------
// Closed-loop measurement

/// What one closed-loop run measured.
#[derive(Default)]
struct Run {
    requests: u64,
    errors: u64,
    elapsed: Duration,
    /// Latencies in nanoseconds.
    latencies: Vec<u64>,
}

impl Run {
    fn merge(&mut self, other: Run) {
        self.requests += other.requests;
        self.errors += other.errors;
        self.elapsed += other.elapsed;
        self.latencies.extend(other.latencies);
    }

    fn rate(&self) -> f64 {
        self.requests as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The `q` quantile of the latencies, in milliseconds.
    fn quantile_ms(&mut self, q: f64) -> f64 {
        if self.latencies.is_empty() {
            return f64::NAN;
        }
        self.latencies.sort_unstable();
        let last = self.latencies.len() - 1;
        let index = ((last as f64) * q).round() as usize;
        self.latencies[index.min(last)] as f64 / 1e6
    }
}

/// Runs `in_flight` loops of `call(k)` (k counting every call) until `duration` has passed.
async fn closed_loop<F, Fut>(in_flight: usize, duration: Duration, call: F) -> Run
where
    F: Fn(usize) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = bool> + Send,
{
    let call = Arc::new(call);
    let counter = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let start = Instant::now();
    let deadline = start + duration;
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..in_flight {
        let call = Arc::clone(&call);
        let counter = Arc::clone(&counter);
        workers.spawn(async move {
            let mut run = Run::default();
            loop {
                let t0 = Instant::now();
                if t0 >= deadline {
                    break;
                }
                let k = counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let ok = call(k).await;
                let dt = t0.elapsed();
                run.requests += 1;
                if !ok {
                    run.errors += 1;
                }
                run.latencies
                    .push(u64::try_from(dt.as_nanos()).unwrap_or(u64::MAX));
            }
            run
        });
    }
    let mut total = Run::default();
    while let Some(Ok(run)) = workers.join_next().await {
        total.merge(run);
    }
    total.elapsed = start.elapsed();
    total
}

/// A codec sending pre-encoded messages and keeping responses as bytes: the load generator
/// does the same small work whatever the RPC (no protobuf encoding or decoding in the
/// loop), so that its own cost does not hide the server's. The responses are checked for
/// their status only; their content is checked once, before measuring.
#[derive(Clone, Copy, Debug, Default)]
struct RawCodec;

#[derive(Debug)]
struct RawEncoder;

#[derive(Debug)]
struct RawDecoder;

impl Codec for RawCodec {
    type Encode = Bytes;
    type Decode = Bytes;
    type Encoder = RawEncoder;
    type Decoder = RawDecoder;

    fn encoder(&mut self) -> RawEncoder {
        RawEncoder
    }

    fn decoder(&mut self) -> RawDecoder {
        RawDecoder
    }
}

impl Encoder for RawEncoder {
    type Item = Bytes;
    type Error = tonic::Status;

    fn encode(&mut self, item: Bytes, dst: &mut EncodeBuf<'_>) -> Result<(), tonic::Status> {
        dst.put_slice(&item);
        Ok(())
    }
}

impl Decoder for RawDecoder {
    type Item = Bytes;
    type Error = tonic::Status;

    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<Bytes>, tonic::Status> {
        Ok(Some(src.copy_to_bytes(src.remaining())))
    }
}

const SCORE_HAND: &str = "/mahjong.v1.MahjongService/ScoreHand";
const BATCH_SCORE_HANDS: &str = "/mahjong.v1.MahjongService/BatchScoreHands";
const HEALTH_CHECK: &str = "/grpc.health.v1.Health/Check";

/// Runs `in_flight` closed loops calling `path` with `messages[k % len]` (pre-encoded).
async fn raw_loop(
    channel: &Channel,
    path: &'static str,
    messages: &Arc<Vec<Bytes>>,
    in_flight: usize,
    d: Duration,
) -> Run {
    let grpc = tonic::client::Grpc::new(channel.clone())
        .max_decoding_message_size(256 * 1024 * 1024)
        .max_encoding_message_size(256 * 1024 * 1024);
    let messages = Arc::clone(messages);
    closed_loop(in_flight, d, move |k| {
        let mut grpc = grpc.clone();
        let message = messages[k % messages.len()].clone();
        async move {
            if grpc.ready().await.is_err() {
                return false;
            }
            grpc.unary(
                tonic::Request::new(message),
                PathAndQuery::from_static(path),
                RawCodec,
            )
            .await
            .is_ok()
        }
    })
    .await
}

/// The requests of the run, encoded once.
struct Messages {
    /// `ScoreHand` requests in the default (full) view.
    hands: Arc<Vec<Bytes>>,
    /// The same in `SCORE_VIEW_BASIC`.
    basic_hands: Arc<Vec<Bytes>>,
    /// `BatchScoreHands` requests in the default (full) view.
    batches: Arc<Vec<Bytes>>,
    /// The same with `default_view` `SCORE_VIEW_BASIC`.
    basic_batches: Arc<Vec<Bytes>>,
    health: Arc<Vec<Bytes>>,
}

/// The phases of single calls.
#[derive(Default)]
struct CallPhases {
    health: Phase,
    score: Phase,
    basic: Phase,
    lone_health: Phase,
    lone_score: Phase,
}

impl CallPhases {
    fn errors(&self) -> u64 {
        [
            &self.health,
            &self.score,
            &self.basic,
            &self.lone_health,
            &self.lone_score,
        ]
        .iter()
        .map(|p| p.run.errors)
        .sum()
    }
}

/// Messages encoded once, to be sent as they are.
fn encode_all<M: prost::Message>(messages: impl Iterator<Item = M>) -> Arc<Vec<Bytes>> {
    Arc::new(messages.map(|m| Bytes::from(m.encode_to_vec())).collect())
}

/// What the server process has run on the CPUs so far (user + system, every thread), from
/// `/proc/<pid>/stat`, in clock ticks of 10 ms (Linux's `USER_HZ`).
fn cpu_ticks(pid: Option<u32>) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", pid?)).ok()?;
    // The fields after the command name (which may hold spaces) in parentheses.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    // utime and stime are fields 14 and 15 of the line: 11 and 12 after the name.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

/// A measured phase: its calls and the server CPU time they took.
#[derive(Default)]
struct Phase {
    run: Run,
    cpu_ticks: u64,
}

impl Phase {
    /// Runs `measure`, adding its calls and the server's CPU time to this phase.
    async fn measure<F: Future<Output = Run>>(&mut self, pid: Option<u32>, measure: F) {
        let before = cpu_ticks(pid);
        let run = measure.await;
        if let (Some(a), Some(b)) = (before, cpu_ticks(pid)) {
            self.cpu_ticks += b - a;
        }
        self.run.merge(run);
    }

    /// Server CPU per call in microseconds (NaN without a spawned server).
    fn cpu_us_per_call(&self, per_call: f64) -> f64 {
        if self.cpu_ticks == 0 || self.run.requests == 0 {
            return f64::NAN;
        }
        self.cpu_ticks as f64 * 10_000.0 / (self.run.requests as f64 * per_call)
    }
}

/// Checks what the server answers before measuring it: a score for a hand, 1,000 results for
/// a batch, SERVING.
async fn check_answers(
    channel: &Channel,
    hand: &pb::ScoreHandRequest,
    batch: &pb::BatchScoreHandsRequest,
) -> Result<(), String> {
    let mut referee =
        MahjongServiceClient::new(channel.clone()).max_decoding_message_size(256 * 1024 * 1024);
    let score = referee
        .score_hand(hand.clone())
        .await
        .map_err(|e| format!("ScoreHand: {e}"))?;
    if score.get_ref().outcome == pb::Outcome::Unspecified as i32 {
        return Err("ScoreHand answered no outcome".to_owned());
    }
    let results = referee
        .batch_score_hands(batch.clone())
        .await
        .map_err(|e| format!("BatchScoreHands: {e}"))?
        .into_inner()
        .results;
    if results.len() != BATCH_HANDS {
        return Err(format!(
            "BatchScoreHands answered {} results",
            results.len()
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The benchmark

/// What every set-up's single-call phases are run with.
#[derive(Clone, Copy)]
struct Inputs<'a> {
    messages: &'a Messages,
    /// The hand and batch whose answers are checked before measuring.
    hand: &'a pb::ScoreHandRequest,
    batch: &'a pb::BatchScoreHandsRequest,
    plan: &'a Plan,
    which: Which,
}

/// Which single-call RPCs a run measures.
#[derive(Clone, Copy)]
struct Which {
    health: bool,
    score: bool,
}

/// The single-call phases against `server` (process `pid`, for its CPU time): warm-up, then
/// alternating rounds of the health check, `ScoreHand` and `ScoreHand` in the basic view at
/// `plan.in_flight` in flight, so that a change in the machine's load hits every RPC alike;
/// then the health check and `ScoreHand` one call at a time.
async fn call_phases(
    server: &mut ServerProcess,
    inputs: &Inputs<'_>,
) -> Result<CallPhases, String> {
    let Inputs {
        messages,
        hand,
        batch,
        plan,
        which,
    } = *inputs;
    let pid = server.child.as_ref().map(Child::id);
    let mut phases = CallPhases::default();
    let in_flight = plan.in_flight;
    let channel = connect(server).await?;
    check_answers(&channel, hand, batch).await?;
    let (h, b, m) = (&messages.hands, &messages.basic_hands, &messages.health);
    // Warm-up: connections, allocator, caches.
    if which.score {
        raw_loop(&channel, SCORE_HAND, h, in_flight, plan.warm_up).await;
        raw_loop(&channel, SCORE_HAND, b, in_flight, plan.warm_up / 2).await;
    }
    if which.health {
        raw_loop(&channel, HEALTH_CHECK, m, in_flight, plan.warm_up / 2).await;
    }
    for _ in 0..plan.rounds {
        if which.health {
            let health = raw_loop(&channel, HEALTH_CHECK, m, in_flight, plan.round);
            phases.health.measure(pid, health).await;
        }
        if which.score {
            let score = raw_loop(&channel, SCORE_HAND, h, in_flight, plan.round);
            phases.score.measure(pid, score).await;
            let basic = raw_loop(&channel, SCORE_HAND, b, in_flight, plan.round);
            phases.basic.measure(pid, basic).await;
        }
    }
    if which.health {
        let lone = raw_loop(&channel, HEALTH_CHECK, m, 1, plan.lone);
        phases.lone_health.measure(pid, lone).await;
    }
    if which.score {
        let lone = raw_loop(&channel, SCORE_HAND, h, 1, plan.lone);
        phases.lone_score.measure(pid, lone).await;
    }
    Ok(phases)
}

/// Prints the table of the single-call phases of one set-up; returns its judged figures.
fn report_calls(title: &str, phases: &mut CallPhases, in_flight: usize) -> CallFigures {
    println!("  {title}");
    let (_, health_p99) = row(
        "grpc.health.v1.Health/Check",
        in_flight,
        &mut phases.health,
        1.0,
    );
    let (_, score_p99) = row("ScoreHand", in_flight, &mut phases.score, 1.0);
    let (_, basic_p99) = row(
        "ScoreHand (SCORE_VIEW_BASIC)",
        in_flight,
        &mut phases.basic,
        1.0,
    );
    let (lone_health_p50, _) = row(
        "grpc.health.v1.Health/Check",
        1,
        &mut phases.lone_health,
        1.0,
    );
    let (lone_score_p50, _) = row("ScoreHand", 1, &mut phases.lone_score, 1.0);
    let health_rate = phases.health.run.rate().max(1e-9);
    let figures = CallFigures {
        ratio: phases.score.run.rate() / health_rate,
        p99_ratio: score_p99 / health_p99,
        basic_ratio: phases.basic.run.rate() / health_rate,
        basic_p99_ratio: basic_p99 / health_p99,
        score_p99,
        health_p99,
        lone_score_p50,
        lone_overhead: lone_score_p50 - lone_health_p50,
    };
    println!(
        "    ScoreHand: {:.1}% of the health check's calls/s, p99 {:.2}x; in SCORE_VIEW_BASIC {:.1}%, p99 {:.2}x; \
         one call in flight: {:.3} ms over the health check at p50",
        figures.ratio * 100.0,
        figures.p99_ratio,
        figures.basic_ratio * 100.0,
        figures.basic_p99_ratio,
        figures.lone_overhead
    );
    figures
}

/// The judged figures of one set-up.
struct CallFigures {
    ratio: f64,
    p99_ratio: f64,
    basic_ratio: f64,
    basic_p99_ratio: f64,
    score_p99: f64,
    health_p99: f64,
    lone_score_p50: f64,
    lone_overhead: f64,
}

/// Prints one row of a table: calls, rate, latency quantiles, errors and server CPU per call
/// (`per_call` units a call: hands for batches); returns (p50, p99) in ms.
fn row(name: &str, n: usize, phase: &mut Phase, per_call: f64) -> (f64, f64) {
    let cpu = phase.cpu_us_per_call(per_call);
    let run = &mut phase.run;
    let (p50, p90, p99, p999) = (
        run.quantile_ms(0.50),
        run.quantile_ms(0.90),
        run.quantile_ms(0.99),
        run.quantile_ms(0.999),
    );
    println!(
        "    {name:<38} {n:>9} {:>9} {:>9.0} {p50:>8.3} {p90:>8.3} {p99:>8.3} {p999:>8.3} {:>6} {:>10.1}",
        run.requests,
        run.rate(),
        run.errors,
        cpu,
    );
    (p50, p99)
}

#[allow(clippy::too_many_lines)] // one linear script: set-up, phases, report
fn run(plan: &Plan) -> Result<(), String> {
    let hands = Arc::new(corpus_requests()?);
    let batches: Arc<Vec<pb::BatchScoreHandsRequest>> = Arc::new(
        (0..8)
            .map(|b| pb::BatchScoreHandsRequest {
                requests: (0..BATCH_HANDS)
                    .map(|i| hands[(b * 397 + i) % hands.len()].clone())
                    .collect(),
                default_ruleset: pb::Ruleset::Mil as i32,
                default_view: pb::ScoreView::Unspecified as i32,
                default_overrides: None,
            })
            .collect(),
    );
    let basic = pb::ScoreView::Basic as i32;
    let messages = Messages {
        hands: encode_all(hands.iter().cloned()),
        basic_hands: encode_all(hands.iter().map(|h| pb::ScoreHandRequest {
            view: basic,
            ..h.clone()
        })),
        batches: encode_all(batches.iter().cloned()),
        basic_batches: encode_all(batches.iter().map(|b| pb::BatchScoreHandsRequest {
            default_view: basic,
            ..b.clone()
        })),
        health: Arc::new(vec![Bytes::from(
            HealthCheckRequest {
                service: String::new(),
            }
            .encode_to_vec(),
        )]),
    };
    let cpus = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    // The load generator on CPU 1; a spawned server on CPU 0 (`--server`: pin it yourself).
    let pinned = plan.pin && cpus >= 2 && pin_self("1");
    let mut server = match plan.server {
        Some(addr) => ServerProcess {
            child: None,
            addr,
            metrics: None,
        },
        None => spawn_server(pinned.then_some(0))?,
    };
    // A single-threaded load generator: one core of its own when pinned.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;

    let in_flight = plan.in_flight;
    let calls = plan.only.as_deref() != Some("batch");
    let batches_too = plan.only.as_deref().is_none_or(|only| only == "batch");
    let which = Which {
        health: plan.only.as_deref() != Some("score"),
        score: plan.only.as_deref() != Some("health"),
    };
    let inputs = Inputs {
        messages: &messages,
        hand: &hands[0],
        batch: &batches[0],
        plan,
        which,
    };
    let dedicated = if calls {
        rt.block_on(call_phases(&mut server, &inputs))?
    } else {
        CallPhases::default()
    };
    let scored = server
        .metrics
        .and_then(|m| scrape(m, "mahjong_hands_scored_total"));

    // The shared set-up, and the batches (CPU-bound in the server): a fresh, unpinned server
    // with its default workers, the load generator unpinned too.
    let two_servers = pinned && plan.server.is_none() && (batches_too || calls);
    if two_servers {
        drop(server);
        pin_self(&format!("0-{}", cpus - 1));
        server = spawn_server(None)?;
    }
    let shared = if calls && two_servers {
        Some(rt.block_on(call_phases(&mut server, &inputs))?)
    } else {
        None
    };
    let pid = server.child.as_ref().map(Child::id);
    let (mut batch, mut basic_batch) = rt.block_on(async {
        let (mut full, mut basic) = (Phase::default(), Phase::default());
        if !batches_too {
            return Ok((full, basic));
        }
        let channel = connect(&mut server).await?;
        check_answers(&channel, &hands[0], &batches[0]).await?;
        let (b, lean) = (&messages.batches, &messages.basic_batches);
        raw_loop(
            &channel,
            BATCH_SCORE_HANDS,
            b,
            BATCH_IN_FLIGHT,
            plan.warm_up,
        )
        .await;
        let run = raw_loop(&channel, BATCH_SCORE_HANDS, b, BATCH_IN_FLIGHT, plan.batch);
        full.measure(pid, run).await;
        let run = raw_loop(
            &channel,
            BATCH_SCORE_HANDS,
            lean,
            BATCH_IN_FLIGHT,
            plan.batch,
        );
        basic.measure(pid, run).await;
        Ok::<_, String>((full, basic))
    })?;
    let now = server
        .metrics
        .and_then(|m| scrape(m, "mahjong_hands_scored_total"));
    // Two servers when pinned: add their counts.
    let scored = match (two_servers, scored, now) {
        (true, Some(a), Some(b)) => Some(a + b),
        (_, a, b) => b.or(a),
    };
    drop(server);

    println!();
    println!("mahjong-referee load benchmark (loopback, one HTTP/2 connection, closed loop)");
    println!(
        "  client: tonic, requests encoded beforehand, responses checked for their status (their content once, before)"
    );
    println!(
        "  server: {} serve; hands: {} well-formed public-corpus hands (MIL) in rotation",
        env!("CARGO_BIN_EXE_mahjong-referee"),
        hands.len(),
    );
    println!(
        "  single calls: {} rounds of {:.1} s per RPC at {in_flight} in flight, alternating",
        plan.rounds,
        plan.round.as_secs_f64(),
    );
    println!();
    println!(
        "    {:<38} {:>9} {:>9} {:>9} {:>8} {:>8} {:>8} {:>8} {:>6} {:>10}",
        "RPC",
        "in flight",
        "calls",
        "calls/s",
        "p50 ms",
        "p90 ms",
        "p99 ms",
        "p99.9 ms",
        "errors",
        "server µs"
    );
    let mut dedicated = dedicated;
    let dedicated_title = if pinned {
        "A. dedicated: server pinned to CPU 0 (1 tokio worker), load generator pinned to CPU 1"
    } else {
        "A. unpinned (--no-pin): server and load generator on every CPU"
    };
    let figures_a = calls.then(|| report_calls(dedicated_title, &mut dedicated, in_flight));
    let mut shared = shared;
    let figures_b = shared.as_mut().map(|shared| {
        report_calls(
            "B. shared: a fresh server on every CPU (its default workers), the load generator too",
            shared,
            in_flight,
        )
    });
    let per_batch = BATCH_HANDS as f64;
    if batches_too {
        println!("  batches (server and load generator on every CPU)");
        row(
            "BatchScoreHands (1,000 hands/call)",
            BATCH_IN_FLIGHT,
            &mut batch,
            per_batch,
        );
        row(
            "BatchScoreHands (1,000, BASIC)",
            BATCH_IN_FLIGHT,
            &mut basic_batch,
            per_batch,
        );
    }
    let hands_per_s = batch.run.rate() * per_batch;
    let basic_hands_per_s = basic_batch.run.rate() * per_batch;
    println!("  (server µs: the server process's CPU time per call, per hand for batches)");
    println!();
    if batches_too {
        println!(
            "  BatchScoreHands: {hands_per_s:.0} hands/s ({:.1} ms per 1,000-hand call at p50); \
             with default_view SCORE_VIEW_BASIC: {basic_hands_per_s:.0} hands/s",
            batch.run.quantile_ms(0.5)
        );
    }
    if let Some(scored) = scored {
        println!("  server's mahjong_hands_scored_total at the end: {scored:.0}");
    }

    let errors = dedicated.errors()
        + shared.as_ref().map_or(0, CallPhases::errors)
        + batch.run.errors
        + basic_batch.run.errors;
    let mut targets = Vec::new();
    for (label, figures) in [("A", &figures_a), ("B", &figures_b)] {
        let Some(f) = figures else { continue };
        targets.push((
            format!(
                "{label}: ScoreHand throughput >= 80% of the health check's at {in_flight} in flight: {:.1}%",
                f.ratio * 100.0
            ),
            f.ratio >= 0.8,
        ));
        targets.push((
            format!(
                "{label}: ScoreHand p99 <= 1.25x the health check's p99 at {in_flight} in flight: {:.3} ms vs {:.3} ms ({:.2}x)",
                f.score_p99, f.health_p99, f.p99_ratio
            ),
            f.p99_ratio <= 1.25,
        ));
        targets.push((
            format!(
                "{label}: lone ScoreHand p50 < 0.2 ms: {:.3} ms",
                f.lone_score_p50
            ),
            f.lone_score_p50 < 0.2,
        ));
    }
    if batches_too {
        targets.push((
            format!("BatchScoreHands >= 500,000 hands/s (default view): {hands_per_s:.0}"),
            hands_per_s >= 500_000.0,
        ));
    }
    targets.push((format!("no failed calls: {errors}"), errors == 0));
    println!();
    if let Some(only) = &plan.only {
        println!("  --only {only} (profiling): targets not judged");
    } else if plan.full {
        println!("  targets (this run):");
        for (what, met) in &targets {
            println!("    [{}] {what}", if *met { "met" } else { "MISSED" });
        }
    } else {
        println!("  smoke run (cargo test): targets not judged");
    }
    if errors > 0 {
        return Err(format!("{errors} calls failed"));
    }
    Ok(())
}
