//! Observability of the real server, set up as `serve` sets it up: JSON logs captured through
//! an injectable writer, spans exported over OTLP/gRPC to a tiny in-process collector, and the
//! Prometheus endpoint on its own port.
//!
//! The subscriber and the metrics recorder are process-wide, so every test shares one harness
//! (one runtime, one collector, one server) and the tests take turns.

use std::io::{Read as _, Write as _};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use mahjong_referee::config::Config;
use mahjong_referee::pb;
use mahjong_referee::pb::mahjong_service_client::MahjongServiceClient;
use mahjong_referee::server::Server;
use mahjong_referee::telemetry::{self, LogFormat, TelemetryConfig, TelemetryGuard};
use opentelemetry_proto::tonic::collector::trace::v1::trace_service_server::{
    TraceService, TraceServiceServer,
};
use opentelemetry_proto::tonic::collector::trace::v1::{
    ExportTraceServiceRequest, ExportTraceServiceResponse,
};
use opentelemetry_proto::tonic::common::v1::{AnyValue, any_value};
use opentelemetry_proto::tonic::trace::v1::span::SpanKind;
use opentelemetry_proto::tonic::trace::v1::status::StatusCode;
use serde_json::Value;
use tonic::codec::CompressionEncoding;
use tonic::transport::server::TcpIncoming;

const SERVICE_NAME: &str = "mahjong-referee-observability-test";
const SCORE_HAND: &str = "mahjong.v1.MahjongService/ScoreHand";
const MARKER: &str = "inside-call";

// ---------------------------------------------------------------------------------------------
// Harness

/// Log lines written by the subscriber.
#[derive(Clone, Default)]
struct Logs(Arc<Mutex<Vec<u8>>>);

impl Logs {
    /// Every line so far, each parsed as JSON (a line that is not JSON fails the test).
    fn lines(&self) -> Vec<Value> {
        let bytes = self.0.lock().unwrap().clone();
        String::from_utf8(bytes)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
            .collect()
    }
}

struct LogWriter(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for LogWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A received span with the `service.name` of its resource.
#[derive(Clone, Debug)]
struct Received {
    service: String,
    span: opentelemetry_proto::tonic::trace::v1::Span,
}

/// An OTLP/gRPC trace collector keeping every span.
#[derive(Clone, Default)]
struct Collector(Arc<Mutex<Vec<Received>>>);

#[tonic::async_trait]
impl TraceService for Collector {
    async fn export(
        &self,
        request: tonic::Request<ExportTraceServiceRequest>,
    ) -> Result<tonic::Response<ExportTraceServiceResponse>, tonic::Status> {
        let mut received = self.0.lock().unwrap();
        for resource_spans in request.into_inner().resource_spans {
            let service = resource_spans
                .resource
                .iter()
                .flat_map(|r| &r.attributes)
                .find(|kv| kv.key == "service.name")
                .and_then(|kv| string(kv.value.as_ref()))
                .unwrap_or_default();
            for scope in resource_spans.scope_spans {
                for span in scope.spans {
                    received.push(Received {
                        service: service.clone(),
                        span,
                    });
                }
            }
        }
        Ok(tonic::Response::new(ExportTraceServiceResponse {
            partial_success: None,
        }))
    }
}

fn string(value: Option<&AnyValue>) -> Option<String> {
    if let any_value::Value::StringValue(s) = value?.value.as_ref()? {
        Some(s.clone())
    } else {
        None
    }
}

fn int(value: Option<&AnyValue>) -> Option<i64> {
    if let any_value::Value::IntValue(i) = value?.value.as_ref()? {
        Some(*i)
    } else {
        None
    }
}

struct Harness {
    rt: tokio::runtime::Runtime,
    grpc: SocketAddr,
    metrics: SocketAddr,
    logs: Logs,
    collector: Collector,
    telemetry: TelemetryGuard,
}

fn harness() -> &'static Harness {
    static HARNESS: OnceLock<Harness> = OnceLock::new();
    HARNESS.get_or_init(start)
}

/// One test at a time: the metric deltas and the "last log line" of a test are its own.
fn turn() -> MutexGuard<'static, ()> {
    static TURN: Mutex<()> = Mutex::new(());
    TURN.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn start() -> Harness {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let logs = Logs::default();
    let collector = Collector::default();
    let (grpc, metrics, telemetry) = rt.block_on(async {
        // The collector.
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let otlp = listener.local_addr().unwrap();
        let service =
            TraceServiceServer::new(collector.clone()).accept_compressed(CompressionEncoding::Gzip);
        tokio::spawn(
            tonic::transport::Server::builder()
                .add_service(service)
                .serve_with_incoming(TcpIncoming::from(listener)),
        );

        // What `serve` sets up, with the logs captured.
        let writer = logs.0.clone();
        let telemetry = telemetry::init_with_writer(
            &TelemetryConfig {
                log_format: LogFormat::Json,
                log_level: "info".to_owned(),
                otlp_endpoint: Some(format!("http://{otlp}")),
                service_name: SERVICE_NAME.to_owned(),
            },
            move || LogWriter(writer.clone()),
        )
        .unwrap();
        let handle = mahjong_referee::metrics::install().unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let metrics = listener.local_addr().unwrap();
        tokio::spawn(mahjong_referee::metrics::serve(
            listener,
            handle,
            std::future::pending(),
        ));

        let mut config = Config {
            listen_addr: "127.0.0.1:0".parse().unwrap(),
            drain: Duration::ZERO,
            ..Config::default()
        };
        // A log line from inside every referee call.
        config.test_hooks.before_call = Some(Arc::new(|| {
            Box::pin(async {
                tracing::info!(marker = MARKER, "handling a call");
            })
        }));
        let server = Server::bind(config).await.unwrap();
        let grpc = server.local_addr();
        tokio::spawn(server.run(std::future::pending()));
        wait_serving(grpc).await;
        (grpc, metrics, telemetry)
    });
    Harness {
        rt,
        grpc,
        metrics,
        logs,
        collector,
        telemetry,
    }
}

async fn wait_serving(addr: SocketAddr) {
    use tonic_health::pb::HealthCheckRequest;
    use tonic_health::pb::health_check_response::ServingStatus;
    use tonic_health::pb::health_client::HealthClient;
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(channel) = tonic::transport::Endpoint::from_shared(format!("http://{addr}"))
            .unwrap()
            .connect()
            .await
            && let Ok(answer) = HealthClient::new(channel)
                .check(HealthCheckRequest {
                    service: String::new(),
                })
                .await
            && answer.get_ref().status == ServingStatus::Serving as i32
        {
            return;
        }
        assert!(Instant::now() < deadline, "the server never became SERVING");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

impl Harness {
    fn client(&self) -> MahjongServiceClient<tonic::transport::Channel> {
        self.rt
            .block_on(MahjongServiceClient::connect(format!(
                "http://{}",
                self.grpc
            )))
            .unwrap()
    }

    /// `ScoreHand` with an optional `traceparent`.
    fn score(
        &self,
        notation: &str,
        traceparent: Option<&str>,
    ) -> Result<pb::ScoreHandResponse, tonic::Status> {
        let mut client = self.client();
        let mut request = tonic::Request::new(score_request(notation));
        if let Some(tp) = traceparent {
            request
                .metadata_mut()
                .insert("traceparent", tp.parse().unwrap());
        }
        self.rt
            .block_on(client.score_hand(request))
            .map(tonic::Response::into_inner)
    }

    /// `GET path` on the metrics port: (status code, body).
    fn http_get(&self, path: &str) -> (u16, String) {
        let mut stream = std::net::TcpStream::connect(self.metrics).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let status = response
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap();
        let body = response
            .split_once("\r\n\r\n")
            .map(|(_, b)| b.to_owned())
            .unwrap_or_default();
        (status, body)
    }

    fn scrape(&self) -> Scrape {
        let (status, body) = self.http_get("/metrics");
        assert_eq!(status, 200, "{body}");
        Scrape(body)
    }

    /// The spans of `trace_id` (hex) once at least `n` arrived.
    fn spans_of_trace(&self, trace_id: &str, n: usize) -> Vec<Received> {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            self.telemetry.force_flush();
            let spans: Vec<Received> = self
                .collector
                .0
                .lock()
                .unwrap()
                .iter()
                .filter(|r| hex(&r.span.trace_id) == trace_id)
                .cloned()
                .collect();
            if spans.len() >= n {
                return spans;
            }
            assert!(
                Instant::now() < deadline,
                "{} span(s) of trace {trace_id} after 15 s",
                spans.len()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The log lines of the referee calls (written by the test hook inside the call).
    fn call_lines(&self) -> Vec<Value> {
        self.logs
            .lines()
            .into_iter()
            .filter(|l| l["marker"] == MARKER)
            .collect()
    }
}

fn score_request(notation: &str) -> pb::ScoreHandRequest {
    pb::ScoreHandRequest {
        overrides: None,
        hand_input: Some(pb::score_hand_request::HandInput::Notation(
            notation.to_owned(),
        )),
        context: None,
        ruleset: pb::Ruleset::Mil as i32,
        view: pb::ScoreView::Unspecified as i32,
    }
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// A `/metrics` text exposition.
struct Scrape(String);

impl Scrape {
    /// The value of the counter sample `name{labels}` (labels exactly as rendered), 0 when
    /// absent.
    fn value(&self, sample: &str) -> u64 {
        self.0
            .lines()
            .find_map(|l| l.strip_prefix(sample)?.strip_prefix(' '))
            .map_or(0, |v| v.trim().parse().unwrap())
    }
}

const VALID: &str = "[123m][789m][123p]55s89p7p";
const INVALID: &str = "[123m][789m][123p]55s89p7p7p7p";

// ---------------------------------------------------------------------------------------------
// Tests

#[test]
fn metrics_count_calls_by_method_and_status() {
    let _turn = turn();
    let h = harness();
    let before = h.scrape();

    for _ in 0..3 {
        let response = h.score(VALID, None).unwrap();
        assert_eq!(response.outcome, pb::Outcome::Win as i32);
    }
    let error = h.score(INVALID, None).unwrap_err();
    assert_eq!(error.code(), tonic::Code::InvalidArgument);
    let mut client = h.client();
    let batch = pb::BatchScoreHandsRequest {
        default_overrides: None,
        requests: [VALID, VALID, INVALID, VALID, VALID]
            .map(score_request)
            .to_vec(),
        default_ruleset: pb::Ruleset::Mil as i32,
        default_view: pb::ScoreView::Unspecified as i32,
    };
    let results =
        h.rt.block_on(client.batch_score_hands(batch))
            .unwrap()
            .into_inner()
            .results;
    assert_eq!(results.len(), 5);
    h.rt.block_on(async {
        let channel = tonic::transport::Endpoint::from_shared(format!("http://{}", h.grpc))
            .unwrap()
            .connect()
            .await
            .unwrap();
        tonic_health::pb::health_client::HealthClient::new(channel)
            .check(tonic_health::pb::HealthCheckRequest {
                service: String::new(),
            })
            .await
            .unwrap();
    });

    let after = h.scrape();
    let delta = |sample: &str| after.value(sample) - before.value(sample);
    let score = |name: &str, code: &str| {
        format!(r#"grpc_server_{name}{{method="{SCORE_HAND}",code="{code}"}}"#)
    };
    assert_eq!(delta(&score("requests_total", "OK")), 3, "{}", after.0);
    assert_eq!(delta(&score("requests_total", "INVALID_ARGUMENT")), 1);
    assert_eq!(delta(&score("errors_total", "INVALID_ARGUMENT")), 1);
    assert_eq!(after.value(&score("errors_total", "OK")), 0);
    assert_eq!(
        delta(
            r#"grpc_server_requests_total{method="mahjong.v1.MahjongService/BatchScoreHands",code="OK"}"#
        ),
        1
    );
    assert!(
        delta(r#"grpc_server_requests_total{method="grpc.health.v1.Health/Check",code="OK"}"#) >= 1
    );
    // 3 single hands and the 4 valid hands of the batch.
    assert_eq!(delta("mahjong_hands_scored_total"), 7);

    // The duration histogram, with its sub-millisecond buckets.
    let bucket = |le: &str| {
        format!(r#"grpc_server_request_duration_seconds_bucket{{method="{SCORE_HAND}",le="{le}"}}"#)
    };
    for le in [
        "0.00005", "0.0001", "0.00025", "0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025",
        "0.1", "1",
    ] {
        assert!(
            after.0.contains(&bucket(le)),
            "bucket {le} missing:\n{}",
            after.0
        );
    }
    assert_eq!(delta(&bucket("+Inf")), 4);
    assert_eq!(
        delta(&format!(
            r#"grpc_server_request_duration_seconds_count{{method="{SCORE_HAND}"}}"#
        )),
        4
    );
    assert!(
        after
            .0
            .contains("# TYPE grpc_server_request_duration_seconds histogram"),
        "{}",
        after.0
    );
}

#[test]
fn metrics_port_answers_healthz_and_nothing_else() {
    let _turn = turn();
    let h = harness();
    assert_eq!(h.http_get("/healthz"), (200, "ok\n".to_owned()));
    assert_eq!(h.http_get("/nothing").0, 404);
}

#[test]
fn log_lines_inside_a_call_continue_the_incoming_trace() {
    let _turn = turn();
    let h = harness();
    let trace = "4bf92f3577b34da6a3ce929d0e0e4736";
    let parent = "00f067aa0ba902b7";
    h.score(VALID, Some(&format!("00-{trace}-{parent}-01")))
        .unwrap();

    let lines = h.call_lines();
    let line = lines
        .iter()
        .rev()
        .find(|l| l["trace_id"] == trace)
        .unwrap_or_else(|| panic!("no log line of trace {trace} in {lines:#?}"));
    // Flattened JSON: the event's fields at the top level, next to the ids.
    assert_eq!(line["level"], "INFO");
    assert_eq!(line["message"], "handling a call");
    let span_id = line["span_id"].as_str().unwrap();
    assert_eq!(span_id.len(), 16);
    assert_ne!(span_id, parent, "the call has a span of its own");

    // The exported server span is the one the log line names.
    let spans = h.spans_of_trace(trace, 1);
    let server = spans
        .iter()
        .find(|r| hex(&r.span.span_id) == span_id)
        .unwrap_or_else(|| panic!("span {span_id} not exported: {spans:#?}"));
    assert_eq!(hex(&server.span.parent_span_id), parent);
    assert_eq!(server.span.kind, SpanKind::Server as i32);
    assert_eq!(server.service, SERVICE_NAME);
}

#[test]
fn server_spans_follow_the_rpc_conventions() {
    let _turn = turn();
    let h = harness();
    let trace = "0af7651916cd43dd8448eb211c80319c";
    let parent = "b7ad6b7169203331";
    h.score(VALID, Some(&format!("00-{trace}-{parent}-01")))
        .unwrap();
    let spans = h.spans_of_trace(trace, 1);
    let span = &spans[0].span;
    assert_eq!(span.name, SCORE_HAND);
    assert_eq!(span.kind, SpanKind::Server as i32);
    assert_eq!(hex(&span.parent_span_id), parent);
    let attr = |key: &str| {
        span.attributes
            .iter()
            .find(|kv| kv.key == key)
            .and_then(|kv| kv.value.as_ref())
    };
    assert_eq!(string(attr("rpc.system")).as_deref(), Some("grpc"));
    assert_eq!(
        string(attr("rpc.service")).as_deref(),
        Some("mahjong.v1.MahjongService")
    );
    assert_eq!(string(attr("rpc.method")).as_deref(), Some("ScoreHand"));
    assert_eq!(int(attr("rpc.grpc.status_code")), Some(0));
    assert_eq!(string(attr("server.address")).as_deref(), Some("127.0.0.1"));
    assert_eq!(int(attr("server.port")), Some(i64::from(h.grpc.port())));
    assert_eq!(
        string(attr("network.peer.address")).as_deref(),
        Some("127.0.0.1")
    );
    assert!(int(attr("network.peer.port")).is_some_and(|p| p > 0));
    assert!(span.end_time_unix_nano >= span.start_time_unix_nano);
    // A rejected hand is the client's error, not the server's.
    let trace = "11111111111111111111111111111111";
    h.score(INVALID, Some(&format!("00-{trace}-2222222222222222-01")))
        .unwrap_err();
    let spans = h.spans_of_trace(trace, 1);
    let span = &spans[0].span;
    let status = span
        .attributes
        .iter()
        .find(|kv| kv.key == "rpc.grpc.status_code")
        .and_then(|kv| int(kv.value.as_ref()));
    assert_eq!(status, Some(3));
    assert_ne!(
        span.status.as_ref().map(|s| s.code),
        Some(StatusCode::Error as i32)
    );
}

#[test]
fn a_call_without_traceparent_starts_a_trace_of_its_own() {
    let _turn = turn();
    let h = harness();
    h.score(VALID, None).unwrap();
    let line = h.call_lines().pop().unwrap();
    let trace = line["trace_id"].as_str().unwrap().to_owned();
    assert_eq!(trace.len(), 32);
    let spans = h.spans_of_trace(&trace, 1);
    assert!(spans[0].span.parent_span_id.is_empty(), "{spans:#?}");
    assert_eq!(spans[0].span.name, SCORE_HAND);
}
