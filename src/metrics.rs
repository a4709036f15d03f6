//! Prometheus metrics: a global `metrics` recorder ([`install`]), its text exposition on a
//! port of its own ([`serve`]: `GET /metrics`, `GET /healthz`), the per-RPC metrics of the
//! gRPC server ([`GrpcMetricsLayer`]) and the domain counter ([`hands_scored`]).
//!
//! | metric | kind | labels |
//! |---|---|---|
//! | `grpc_server_requests_total` | counter | `method` (`package.Service/Method` of a served method, else [`UNKNOWN_METHOD`]), `code` (gRPC status name, e.g. `OK`) |
//! | `grpc_server_errors_total` | counter | `method`, `code` (every code but `OK`) |
//! | `grpc_server_request_duration_seconds` | histogram ([`DURATION_BUCKETS`]) | `method` |
//! | `mahjong_hands_scored_total` | counter | — |

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll, ready};
use std::time::{Duration, Instant};

use http_body::{Body, Frame, SizeHint};
use http_body_util::Full;
use hyper::body::Bytes;
use metrics::{Counter, Histogram};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use tokio::net::TcpListener;
use tracing::Span;

/// Calls by method and final status.
pub const REQUESTS_TOTAL: &str = "grpc_server_requests_total";
/// Calls that ended with a status other than `OK`, by method and status.
pub const ERRORS_TOTAL: &str = "grpc_server_errors_total";
/// Time from receiving a call to sending its status, by method.
pub const REQUEST_DURATION_SECONDS: &str = "grpc_server_request_duration_seconds";
/// Hands the referee scored (one per `ScoreHand`, one per hand of a batch).
pub const HANDS_SCORED_TOTAL: &str = "mahjong_hands_scored_total";

/// Upper bounds (seconds) of the call duration histogram: scoring takes microseconds, so the
/// buckets start at 50 µs.
pub const DURATION_BUCKETS: [f64; 11] = [
    0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.1, 1.0,
];

/// How often [`serve`] runs the recorder's upkeep (draining histogram samples).
const UPKEEP_PERIOD: Duration = Duration::from_secs(5);

/// The `method` label of every call to a path the server does not serve: made-up paths
/// share it, so a client calling them cannot grow the metrics.
pub const UNKNOWN_METHOD: &str = "unknown";

/// The gRPC status names by code, as the `code` label.
const CODE_NAMES: [&str; 17] = [
    "OK",
    "CANCELLED",
    "UNKNOWN",
    "INVALID_ARGUMENT",
    "DEADLINE_EXCEEDED",
    "NOT_FOUND",
    "ALREADY_EXISTS",
    "PERMISSION_DENIED",
    "RESOURCE_EXHAUSTED",
    "FAILED_PRECONDITION",
    "ABORTED",
    "OUT_OF_RANGE",
    "UNIMPLEMENTED",
    "INTERNAL",
    "UNAVAILABLE",
    "DATA_LOSS",
    "UNAUTHENTICATED",
];
const CANCELLED: i32 = 1;
const UNKNOWN: i32 = 2;

/// Why [`install`] failed.
#[derive(Debug, thiserror::Error)]
#[error("cannot install the Prometheus recorder: {0}")]
pub struct MetricsError(String);

static INSTALLED: OnceLock<PrometheusHandle> = OnceLock::new();

/// Installs the Prometheus recorder as the process-wide `metrics` recorder and describes the
/// metrics of this module. The recorder is installed once per process: later calls return
/// the same handle (so several servers of one test process share it); it fails only when a
/// different global recorder is already set. Install it before the server takes its first
/// call: metric handles taken earlier stay no-ops.
pub fn install() -> Result<PrometheusHandle, MetricsError> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _installing = LOCK
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(handle) = INSTALLED.get() {
        return Ok(handle.clone());
    }
    let handle = PrometheusBuilder::new()
        .set_buckets_for_metric(
            Matcher::Full(REQUEST_DURATION_SECONDS.to_owned()),
            &DURATION_BUCKETS,
        )
        .map_err(|e| MetricsError(e.to_string()))?
        .install_recorder()
        .map_err(|e| MetricsError(e.to_string()))?;
    metrics::describe_counter!(REQUESTS_TOTAL, "gRPC calls by method and final status.");
    metrics::describe_counter!(
        ERRORS_TOTAL,
        "gRPC calls that ended with a status other than OK."
    );
    metrics::describe_histogram!(
        REQUEST_DURATION_SECONDS,
        metrics::Unit::Seconds,
        "Time from receiving a gRPC call to sending its status."
    );
    metrics::describe_counter!(HANDS_SCORED_TOTAL, "Hands scored by the referee.");
    Ok(INSTALLED.get_or_init(|| handle).clone())
}

/// The `mahjong_hands_scored_total` counter of the recorder installed now (a no-op counter
/// when none is): take it once, when the server starts, and count with it on every call
/// without looking the name up again.
pub fn hands_scored() -> metrics::Counter {
    metrics::counter!(HANDS_SCORED_TOTAL)
}

/// Serves the metrics over HTTP/1.1 on `listener` until `shutdown` completes: `GET /metrics`
/// answers the Prometheus text exposition of `handle`, `GET /healthz` answers 200 `ok`;
/// other paths 404, other methods 405. Also runs the recorder's upkeep every 5 s.
///
/// Accept errors (e.g. out of file descriptors) are logged and retried after a pause.
pub async fn serve(
    listener: TcpListener,
    handle: PrometheusHandle,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let mut tasks = tokio::task::JoinSet::new();
    let upkeep = handle.clone();
    tasks.spawn(async move {
        let mut tick = tokio::time::interval(UPKEEP_PERIOD);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            upkeep.run_upkeep();
        }
    });
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => accepted,
        };
        while tasks.try_join_next().is_some() {}
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(e) => {
                tracing::warn!(error = %e, "metrics listener: accept failed");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let handle = handle.clone();
        tasks.spawn(async move {
            let service =
                hyper::service::service_fn(move |req: http::Request<hyper::body::Incoming>| {
                    let response = respond(req.method(), req.uri().path(), &handle);
                    async move { Ok::<_, Infallible>(response) }
                });
            let io = hyper_util::rt::TokioIo::new(stream);
            if let Err(e) = hyper::server::conn::http1::Builder::new()
                .serve_connection(io, service)
                .await
            {
                tracing::debug!(error = %e, "metrics connection ended with an error");
            }
        });
    }
    tasks.abort_all();
    Ok(())
}

/// The answer of the metrics endpoint to `method path`.
fn respond(
    method: &http::Method,
    path: &str,
    handle: &PrometheusHandle,
) -> http::Response<Full<Bytes>> {
    let (status, content_type, body) = match path {
        "/metrics" | "/healthz" if method != http::Method::GET && method != http::Method::HEAD => (
            http::StatusCode::METHOD_NOT_ALLOWED,
            "text/plain; charset=utf-8",
            Bytes::from_static(b"method not allowed\n"),
        ),
        "/metrics" => (
            http::StatusCode::OK,
            "text/plain; version=0.0.4; charset=utf-8",
            Bytes::from(handle.render()),
        ),
        "/healthz" => (
            http::StatusCode::OK,
            "text/plain; charset=utf-8",
            Bytes::from_static(b"ok\n"),
        ),
        _ => (
            http::StatusCode::NOT_FOUND,
            "text/plain; charset=utf-8",
            Bytes::from_static(b"not found\n"),
        ),
    };
    let mut response = http::Response::new(Full::new(body));
    *response.status_mut() = status;
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static(content_type),
    );
    if status == http::StatusCode::METHOD_NOT_ALLOWED {
        response.headers_mut().insert(
            http::header::ALLOW,
            http::HeaderValue::from_static("GET, HEAD"),
        );
    }
    response
}

// ---------------------------------------------------------------------------------------------
// The gRPC server layer

/// A tower layer for the gRPC server recording, per call, `grpc_server_requests_total`,
/// `grpc_server_errors_total` and `grpc_server_request_duration_seconds`.
///
/// The status comes from the `grpc-status` response header (trailers-only responses, i.e.
/// most errors) or, for a normal response, from the trailers at the end of its body; the
/// duration runs until then. A call whose response is dropped before its status was sent
/// counts as `CANCELLED`. The final status is also recorded on the current
/// [`crate::telemetry::grpc_request_span`] (`rpc.grpc.status_code`).
///
/// ```text
/// tonic::transport::Server::builder()
///     .trace_fn(|req| telemetry::grpc_request_span(req, None, None))
///     .layer(metrics::GrpcMetricsLayer::new())
/// ```
///
/// Only the methods the server serves (`known`, as request paths such as
/// `/mahjong.v1.MahjongService/ScoreHand`) are label values; every other path is counted
/// under [`UNKNOWN_METHOD`], so the number of series is fixed by the server, not its callers.
#[derive(Debug, Clone)]
pub struct GrpcMetricsLayer {
    methods: Arc<MethodRegistry>,
}

impl GrpcMetricsLayer {
    /// A layer labelling the calls to the paths in `known` with their method
    /// (`package.Service/Method`), and all other calls [`UNKNOWN_METHOD`].
    pub fn new<P: Into<String>>(known: impl IntoIterator<Item = P>) -> Self {
        let methods = known
            .into_iter()
            .map(|path| (path.into(), OnceLock::new()))
            .collect();
        GrpcMetricsLayer {
            methods: Arc::new(MethodRegistry {
                methods,
                unknown: OnceLock::new(),
            }),
        }
    }
}

impl<S> tower_layer::Layer<S> for GrpcMetricsLayer {
    type Service = GrpcMetrics<S>;

    fn layer(&self, inner: S) -> Self::Service {
        GrpcMetrics {
            inner,
            methods: Arc::clone(&self.methods),
        }
    }
}

/// The service of [`GrpcMetricsLayer`].
#[derive(Debug, Clone)]
pub struct GrpcMetrics<S> {
    inner: S,
    methods: Arc<MethodRegistry>,
}

impl<S, ReqBody, ResBody> tower_service::Service<http::Request<ReqBody>> for GrpcMetrics<S>
where
    S: tower_service::Service<http::Request<ReqBody>, Response = http::Response<ResBody>>,
    ResBody: Body,
{
    type Response = http::Response<MetricsBody<ResBody>>;
    type Error = S::Error;
    type Future = ResponseFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: http::Request<ReqBody>) -> Self::Future {
        let call = Call {
            method: self.methods.get(req.uri().path()),
            start: Instant::now(),
            span: None,
            done: false,
        };
        ResponseFuture {
            inner: self.inner.call(req),
            call: Some(call),
        }
    }
}

pin_project_lite::pin_project! {
    /// The response future of [`GrpcMetrics`].
    #[derive(Debug)]
    pub struct ResponseFuture<F> {
        #[pin]
        inner: F,
        call: Option<Call>,
    }
}

impl<F, ResBody, E> Future for ResponseFuture<F>
where
    F: Future<Output = Result<http::Response<ResBody>, E>>,
{
    type Output = Result<http::Response<MetricsBody<ResBody>>, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let result = ready!(this.inner.poll(cx));
        let Some(mut call) = this.call.take() else {
            // Polled again after completion: pass the result through unobserved.
            return Poll::Ready(result.map(|r| r.map(MetricsBody::observed)));
        };
        // The request span (if any) is entered while the server polls this future.
        let span = Span::current();
        if !span.is_disabled() {
            call.span = Some(span);
        }
        Poll::Ready(match result {
            Ok(response) => match grpc_status(response.headers()) {
                Some(code) => {
                    call.finish(code);
                    Ok(response.map(MetricsBody::observed))
                }
                None => Ok(response.map(|body| MetricsBody {
                    inner: body,
                    call: Some(call),
                })),
            },
            Err(e) => {
                call.finish(UNKNOWN);
                Err(e)
            }
        })
    }
}

pin_project_lite::pin_project! {
    /// A response body that records the call's status from its trailers.
    #[derive(Debug)]
    pub struct MetricsBody<B> {
        #[pin]
        inner: B,
        call: Option<Call>,
    }
}

impl<B> MetricsBody<B> {
    fn observed(inner: B) -> Self {
        Self { inner, call: None }
    }
}

impl<B: Body> Body for MetricsBody<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let this = self.project();
        let frame = ready!(this.inner.poll_frame(cx));
        if let Some(call) = this.call {
            let code = match &frame {
                Some(Ok(frame)) => frame
                    .trailers_ref()
                    .map(|trailers| grpc_status(trailers).unwrap_or(UNKNOWN)),
                // A body that fails or ends without a status: the client sees an error.
                Some(Err(_)) | None => Some(UNKNOWN),
            };
            if let Some(code) = code {
                call.finish(code);
                *this.call = None;
            }
        }
        Poll::Ready(frame)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// The `grpc-status` of headers or trailers.
fn grpc_status(headers: &http::HeaderMap) -> Option<i32> {
    let value = headers.get("grpc-status")?;
    std::str::from_utf8(value.as_bytes())
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// One call being measured; recorded once, as `CANCELLED` if dropped unfinished.
#[derive(Debug)]
pub struct Call {
    method: Arc<MethodMetrics>,
    start: Instant,
    span: Option<Span>,
    done: bool,
}

impl Call {
    fn finish(&mut self, code: i32) {
        if std::mem::replace(&mut self.done, true) {
            return;
        }
        self.method.record(code, self.start.elapsed());
        if let Some(span) = &self.span {
            crate::telemetry::record_grpc_status(span, code);
        }
    }
}

impl Drop for Call {
    fn drop(&mut self) {
        self.finish(CANCELLED);
    }
}

/// The metric handles of one method, created on its first call.
#[derive(Debug)]
struct MethodMetrics {
    label: String,
    requests: [OnceLock<Counter>; CODE_NAMES.len()],
    errors: [OnceLock<Counter>; CODE_NAMES.len()],
    duration: Histogram,
}

impl MethodMetrics {
    fn new(label: String) -> Self {
        let duration = metrics::histogram!(REQUEST_DURATION_SECONDS, "method" => label.clone());
        Self {
            label,
            requests: Default::default(),
            errors: Default::default(),
            duration,
        }
    }

    fn record(&self, code: i32, elapsed: Duration) {
        let index = usize::try_from(code)
            .ok()
            .filter(|&i| i < CODE_NAMES.len())
            .unwrap_or(2); // UNKNOWN
        let name = CODE_NAMES[index];
        self.requests[index]
            .get_or_init(|| {
                metrics::counter!(REQUESTS_TOTAL, "method" => self.label.clone(), "code" => name)
            })
            .increment(1);
        if index != 0 {
            self.errors[index]
                .get_or_init(|| {
                    metrics::counter!(ERRORS_TOTAL, "method" => self.label.clone(), "code" => name)
                })
                .increment(1);
        }
        self.duration.record(elapsed.as_secs_f64());
    }
}

/// The metric handles of the known methods, by request path, each made on its first call
/// (with the recorder installed then), and those of [`UNKNOWN_METHOD`].
#[derive(Debug)]
struct MethodRegistry {
    methods: HashMap<String, OnceLock<Arc<MethodMetrics>>>,
    unknown: OnceLock<Arc<MethodMetrics>>,
}

impl MethodRegistry {
    fn get(&self, path: &str) -> Arc<MethodMetrics> {
        let (label, metrics) = match self.methods.get_key_value(path) {
            Some((path, metrics)) => (path.strip_prefix('/').unwrap_or(path), metrics),
            None => (UNKNOWN_METHOD, &self.unknown),
        };
        Arc::clone(metrics.get_or_init(|| Arc::new(MethodMetrics::new(label.to_owned()))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt as _;
    use tower_layer::Layer as _;
    use tower_service::Service as _;

    type TestBody = http_body_util::combinators::UnsyncBoxBody<Bytes, Infallible>;

    fn ok_with_trailers(status: &'static str) -> http::Response<TestBody> {
        let mut trailers = http::HeaderMap::new();
        trailers.insert("grpc-status", http::HeaderValue::from_static(status));
        let body = Full::new(Bytes::from_static(b"\0\0\0\0\0"))
            .with_trailers(async move { Some(Ok(trailers)) })
            .boxed_unsync();
        http::Response::new(body)
    }

    fn trailers_only(status: &'static str) -> http::Response<TestBody> {
        let mut response = http::Response::new(Full::new(Bytes::new()).boxed_unsync());
        response
            .headers_mut()
            .insert("grpc-status", http::HeaderValue::from_static(status));
        response
    }

    /// A service answering one fixed response.
    struct Fixed(Option<http::Response<TestBody>>);

    impl tower_service::Service<http::Request<()>> for Fixed {
        type Response = http::Response<TestBody>;
        type Error = Infallible;
        type Future = std::future::Ready<Result<Self::Response, Infallible>>;

        fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
            Poll::Ready(Ok(()))
        }

        fn call(&mut self, _req: http::Request<()>) -> Self::Future {
            std::future::ready(Ok(self.0.take().unwrap()))
        }
    }

    async fn call(
        layer: &GrpcMetricsLayer,
        path: &str,
        response: http::Response<TestBody>,
        read_body: bool,
    ) {
        let mut svc = layer.layer(Fixed(Some(response)));
        let req = http::Request::builder().uri(path).body(()).unwrap();
        let response = svc.call(req).await.unwrap();
        if read_body {
            response.into_body().collect().await.unwrap();
        }
    }

    #[test]
    fn layer_counts_codes_from_trailers_headers_and_drops() {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(
                Matcher::Full(REQUEST_DURATION_SECONDS.to_owned()),
                &DURATION_BUCKETS,
            )
            .unwrap()
            .build_recorder();
        let handle = recorder.handle();
        metrics::with_local_recorder(&recorder, || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .build()
                .unwrap();
            rt.block_on(async {
                let layer = GrpcMetricsLayer::new(["/p.S/A", "/p.S/B"]);
                call(&layer, "/p.S/A", ok_with_trailers("0"), true).await;
                call(&layer, "/p.S/A", ok_with_trailers("0"), true).await;
                call(&layer, "/p.S/A", trailers_only("3"), false).await;
                call(&layer, "/p.S/B", ok_with_trailers("13"), true).await;
                call(&layer, "/p.S/B", ok_with_trailers("0"), false).await;
                for i in 0..67 {
                    call(&layer, &format!("/x/{i}"), trailers_only("12"), false).await;
                }
            });
        });
        let text = handle.render();
        for line in [
            r#"grpc_server_requests_total{method="p.S/A",code="OK"} 2"#,
            r#"grpc_server_requests_total{method="p.S/A",code="INVALID_ARGUMENT"} 1"#,
            r#"grpc_server_errors_total{method="p.S/A",code="INVALID_ARGUMENT"} 1"#,
            r#"grpc_server_requests_total{method="p.S/B",code="INTERNAL"} 1"#,
            r#"grpc_server_requests_total{method="p.S/B",code="CANCELLED"} 1"#,
            r#"grpc_server_requests_total{method="unknown",code="UNIMPLEMENTED"} 67"#,
            r#"grpc_server_request_duration_seconds_bucket{method="p.S/A",le="0.00005"}"#,
            r#"grpc_server_request_duration_seconds_count{method="p.S/A"} 3"#,
        ] {
            assert!(text.contains(line), "{line} missing from\n{text}");
        }
        assert!(!text.contains(r#"errors_total{method="p.S/A",code="OK"}"#));
    }

    #[test]
    fn endpoint_routes() {
        let handle = PrometheusBuilder::new().build_recorder().handle();
        let get = http::Method::GET;
        assert_eq!(respond(&get, "/metrics", &handle).status(), 200);
        assert_eq!(respond(&get, "/healthz", &handle).status(), 200);
        assert_eq!(respond(&get, "/nope", &handle).status(), 404);
        assert_eq!(
            respond(&http::Method::POST, "/metrics", &handle).status(),
            405
        );
    }
}
