//! Hostile and heavy clients of a real server, for the tests of issue 31 and the `hostile`
//! bench: readers that never open their flow-control window, floods of large answers, and
//! what health and scoring notice meanwhile. Every loop is bounded in time; every address is
//! the server's on loopback.

use std::future::Future;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use mahjong_referee::pb;
use prost::bytes::Bytes;
use tokio::task::JoinHandle;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_client::HealthClient;

/// `message` as the one uncompressed frame of a gRPC (or gRPC-Web) body.
pub fn grpc_frame(message: &[u8]) -> Vec<u8> {
    let mut frame = vec![0u8];
    frame.extend_from_slice(&u32::try_from(message.len()).unwrap().to_be_bytes());
    frame.extend_from_slice(message);
    frame
}

/// A channel to the server on `addr` once its health says SERVING (within 20 s).
pub async fn serving(addr: SocketAddr) -> tonic::transport::Channel {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(channel) = tonic::transport::Endpoint::from_shared(format!("http://{addr}"))
            .expect("a URL")
            .connect()
            .await
        {
            let serving = HealthClient::new(channel.clone())
                .check(HealthCheckRequest::default())
                .await
                .is_ok_and(|answer| answer.into_inner().status == 1);
            if serving {
                return channel;
            }
        }
        assert!(Instant::now() < deadline, "never SERVING");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// An `AnalyzeHand` of a hand one tile from ready, as one gRPC frame: the flood to compare
/// with.
pub fn analysis_frame() -> Bytes {
    use prost::Message as _;
    Bytes::from(grpc_frame(
        &pb::AnalyzeHandRequest {
            hand_input: Some(pb::analyze_hand_request::HandInput::Notation(
                "1245m3678p569sESW".to_owned(),
            )),
            ..Default::default()
        }
        .encode_to_vec(),
    ))
}

/// The hand every scoring call here scores: 18 fan under MIL, self-drawn.
pub fn score_request() -> pb::ScoreHandRequest {
    pb::ScoreHandRequest {
        hand_input: Some(pb::score_hand_request::HandInput::Notation(
            "[123m][789m][123p]55s89p7p".to_owned(),
        )),
        context: Some(pb::WinContext {
            self_drawn: true,
            ..Default::default()
        }),
        ruleset: pb::Ruleset::Mil as i32,
        ..Default::default()
    }
}

/// The longest match of the public replay corpus: the largest `ReplayHand` answer with the
/// table after every event that the corpus gives.
pub fn longest_match() -> String {
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
pub fn replay_with_states(text: &str) -> pb::ReplayHandRequest {
    pb::ReplayHandRequest {
        record: Some(pb::replay_hand_request::Record::BotzoneText(
            text.to_owned(),
        )),
        include_states: true,
        ..Default::default()
    }
}

/// The resident memory of process `pid`, in bytes (Linux).
pub fn rss_of(pid: u32) -> u64 {
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
pub async fn never_reading(addr: SocketAddr) -> (h2::client::SendRequest<Bytes>, JoinHandle<()>) {
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
pub fn grpc_head(method: &str) -> http::Request<()> {
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
pub struct Hogged {
    /// Streams opened.
    pub opened: usize,
    /// Connections the server closed.
    pub closed: usize,
}

/// A client that opens `per_second` streams a second of `method` with `body` on
/// `connections` connections whose windows stay shut, for `how_long`, and never reads an
/// answer; a connection the server closes is replaced.
pub async fn hog(
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
pub async fn sampling<T>(pid: u32, work: impl Future<Output = T>) -> (Vec<u64>, T) {
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
pub fn batch(hands: usize) -> pb::BatchScoreHandsRequest {
    pb::BatchScoreHandsRequest {
        requests: (0..hands).map(|_| score_request()).collect(),
        ..Default::default()
    }
}

/// What health and scoring noticed of a flood: the slowest health check (one every 10 ms)
/// and the 99th percentile of `ScoreHand` calls (one after another), each on a connection of
/// its own.
#[derive(Debug, Clone, Copy)]
pub struct Noticed {
    /// The slowest health check.
    pub health_max: Duration,
    /// The 99th percentile of the scoring calls.
    pub score_p99: Duration,
}

/// What health and scoring notice of `flood` (which returns how many calls it made).
pub async fn noticed(addr: SocketAddr, flood: impl Future<Output = usize>) -> (Noticed, usize) {
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
            scoring.score_hand(score_request()).await.expect("scores");
            took.push(started.elapsed());
            // The pace of the scoring client (a rate, not a wait for an event).
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
pub async fn flood(
    addr: SocketAddr,
    method: &'static str,
    body: Bytes,
    how_long: Duration,
) -> usize {
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
