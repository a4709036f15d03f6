//! A server per test, clients, hooks to hold calls, and status-detail decoding.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use mahjong_referee::config::{Config, Hook};
use mahjong_referee::pb;
use mahjong_referee::pb::mahjong_service_client::MahjongServiceClient;
use mahjong_referee::server::{ServeError, Server};
use tokio::sync::{Semaphore, mpsc, oneshot};
use tokio::task::JoinHandle;
use tonic::transport::{Channel, Endpoint};
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_types::{ErrorInfo, FieldViolation, StatusExt};

/// E23 of docs/rules/examples.md#e23: 三色双龙会 16 + 边张 1 + 自摸 1 = 18 when self-drawn.
pub const E23: &str = "[123m][789m][123p]55s89p7p";

/// The upper bound of any wait in these tests.
pub const PATIENCE: Duration = Duration::from_secs(10);

/// A test configuration: a free port on loopback, no drain.
pub fn config() -> Config {
    Config {
        listen_addr: "127.0.0.1:0".parse().unwrap(),
        drain: Duration::ZERO,
        ..Config::default()
    }
}

/// A running server.
pub struct TestServer {
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<Result<(), ServeError>>,
}

/// Binds `config` and serves it until [`TestServer::stop`].
pub async fn spawn(config: Config) -> TestServer {
    let server = Server::bind(config).await.expect("server binds");
    let addr = server.local_addr();
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(server.run(async {
        let _ = stopped.await;
    }));
    TestServer {
        addr,
        stop: Some(stop),
        task,
    }
}

/// Serves the default test configuration.
pub async fn spawn_default() -> TestServer {
    spawn(config()).await
}

impl TestServer {
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub async fn channel(&self) -> Channel {
        Endpoint::from_shared(self.url())
            .unwrap()
            .connect()
            .await
            .expect("connects")
    }

    pub async fn client(&self) -> MahjongServiceClient<Channel> {
        MahjongServiceClient::new(self.channel().await)
    }

    pub async fn health(&self) -> HealthClient<Channel> {
        HealthClient::new(self.channel().await)
    }

    /// Triggers the shutdown (the drain starts).
    pub fn begin_shutdown(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }

    /// Triggers the shutdown and waits for the server to stop.
    pub async fn stop(mut self) -> Result<(), ServeError> {
        self.begin_shutdown();
        self.finished().await
    }

    /// Waits for the server to stop (after [`TestServer::begin_shutdown`]).
    pub async fn finished(self) -> Result<(), ServeError> {
        tokio::time::timeout(PATIENCE, self.task)
            .await
            .expect("the server stops in time")
            .expect("the server task does not panic")
    }
}

/// The status `service` reports.
pub async fn health_of(health: &mut HealthClient<Channel>, service: &str) -> ServingStatus {
    health
        .check(HealthCheckRequest {
            service: service.to_owned(),
        })
        .await
        .expect("health answers")
        .into_inner()
        .status()
}

/// Waits until `service` reports `wanted` (through `Watch`, so without polling).
pub async fn wait_for_health(
    health: &mut HealthClient<Channel>,
    service: &str,
    wanted: ServingStatus,
) {
    let mut stream = health
        .watch(HealthCheckRequest {
            service: service.to_owned(),
        })
        .await
        .expect("health watch")
        .into_inner();
    tokio::time::timeout(PATIENCE, async {
        while let Some(update) = stream.message().await.expect("watch stream") {
            if update.status() == wanted {
                return;
            }
        }
        panic!("the watch stream ended before {wanted:?}");
    })
    .await
    .unwrap_or_else(|_| panic!("{service:?} never became {wanted:?}"));
}

/// Holds calls at a hook until released, and says when each arrives.
pub struct Gate {
    arrived: mpsc::UnboundedReceiver<()>,
    open: Arc<Semaphore>,
}

/// A hook that reports each arrival and waits at the gate, and the gate.
pub fn gate() -> (Hook, Gate) {
    let (tx, arrived) = mpsc::unbounded_channel();
    let open = Arc::new(Semaphore::new(0));
    let shut = open.clone();
    let hook: Hook = Arc::new(move || {
        let tx = tx.clone();
        let shut = shut.clone();
        Box::pin(async move {
            let _ = tx.send(());
            // Closing the semaphore releases every waiter.
            let _ = shut.acquire().await;
        })
    });
    (hook, Gate { arrived, open })
}

impl Gate {
    /// Waits until `n` more calls have arrived at the hook.
    pub async fn arrivals(&mut self, n: usize) {
        for _ in 0..n {
            tokio::time::timeout(PATIENCE, self.arrived.recv())
                .await
                .expect("a call arrives at the hook in time")
                .expect("the hook is alive");
        }
    }

    /// Lets every held call (and every later one) through.
    pub fn release(&self) {
        self.open.close();
    }
}

/// A hook that never lets a call through.
pub fn forever() -> Hook {
    Arc::new(|| Box::pin(std::future::pending()))
}

/// A `ScoreHand` request in notation.
pub fn score_request(
    notation: &str,
    self_drawn: bool,
    ruleset: pb::Ruleset,
) -> pb::ScoreHandRequest {
    pb::ScoreHandRequest {
        overrides: None,
        hand_input: Some(pb::score_hand_request::HandInput::Notation(
            notation.to_owned(),
        )),
        context: Some(pb::WinContext {
            self_drawn,
            ..pb::WinContext::default()
        }),
        ruleset: ruleset as i32,
        view: pb::ScoreView::Unspecified as i32,
    }
}

/// The decoded details of an error status.
#[derive(Debug)]
pub struct Details {
    pub code: tonic::Code,
    pub message: String,
    pub info: ErrorInfo,
    pub violations: Vec<FieldViolation>,
}

/// Decodes the details of `status`; every error of ours has an `ErrorInfo`.
pub fn details(status: &tonic::Status) -> Details {
    let details = status.check_error_details().expect("the details decode");
    let info = details
        .error_info()
        .cloned()
        .unwrap_or_else(|| panic!("no ErrorInfo in {status:?}"));
    assert_eq!(info.domain, "mahjong.v1");
    Details {
        code: status.code(),
        message: status.message().to_owned(),
        info,
        violations: details
            .bad_request()
            .map(|b| b.field_violations.clone())
            .unwrap_or_default(),
    }
}

/// `(field, description)` of every field violation.
pub fn fields(details: &Details) -> Vec<(String, String)> {
    details
        .violations
        .iter()
        .map(|v| (v.field.clone(), v.description.clone()))
        .collect()
}

/// One unary gRPC call over plain HTTP/2 (hyper, not tonic: tonic's client runs its own
/// timer on `grpc-timeout` and reports CANCELLED before the server's answer arrives).
/// Returns the call's status, from the headers (trailers-only) or the trailers.
pub async fn raw_grpc(
    sender: &mut hyper::client::conn::http2::SendRequest<http_body_util::Full<prost::bytes::Bytes>>,
    path: &str,
    message: &[u8],
    headers: &[(&str, &str)],
) -> tonic::Status {
    use http_body_util::BodyExt as _;
    let mut request = http::Request::post(format!("http://referee.test{path}"))
        .header("content-type", "application/grpc")
        .header("te", "trailers");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = request
        .body(http_body_util::Full::new(prost::bytes::Bytes::from(
            grpc_frame(message),
        )))
        .unwrap();
    let response = sender.send_request(request).await.expect("an answer");
    let (head, body) = response.into_parts();
    if let Some(status) = tonic::Status::from_header_map(&head.headers) {
        return status;
    }
    let collected = body.collect().await.expect("the body");
    let trailers = collected.trailers().cloned().unwrap_or_default();
    tonic::Status::from_header_map(&trailers).expect("a grpc-status")
}

/// `message` as the one uncompressed frame of a gRPC (or gRPC-Web) body (written once, in
/// the hostile clients the bench shares).
pub use crate::hostile::grpc_frame;

/// An HTTP/2 connection to `addr` for [`raw_grpc`].
pub async fn h2_connect(
    addr: SocketAddr,
) -> hyper::client::conn::http2::SendRequest<http_body_util::Full<prost::bytes::Bytes>> {
    let stream = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    let (sender, connection) = hyper::client::conn::http2::handshake(
        hyper_util::rt::TokioExecutor::new(),
        hyper_util::rt::TokioIo::new(stream),
    )
    .await
    .expect("HTTP/2 handshake");
    tokio::spawn(connection);
    sender
}
