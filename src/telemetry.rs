//! Logs and traces: a `tracing` subscriber writing JSON (or text) logs, and OpenTelemetry
//! traces exported over OTLP/gRPC when an endpoint is configured.
//!
//! - [`init`] installs the process-wide subscriber once: a `fmt` layer filtered by the
//!   configured level, and — only with an OTLP endpoint — a `tracing-opentelemetry` layer
//!   whose spans go to a batch exporter. The W3C Trace Context propagator is always installed.
//! - [`grpc_request_span`] is the `trace_fn` of the gRPC server: one span per RPC, named and
//!   attributed per the OpenTelemetry RPC semantic conventions, continuing the caller's
//!   `traceparent`. Its target is [`REQUEST_SPAN_TARGET`], which the log layer ignores unless
//!   the level names it explicitly: formatting the request span for the logs costs more than
//!   the rest of the per-request tracing (see the stack notes), and its identity already
//!   reaches every log line as `trace_id` / `span_id`.
//! - Every log line written while an OpenTelemetry span is active carries that span's
//!   `trace_id` and `span_id` (JSON fields, or `key=value` at the end of a text line).

use std::fmt;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};

use opentelemetry::propagation::Extractor;
use opentelemetry::trace::{SpanContext, TraceContextExt as _, TracerProvider as _};
use opentelemetry_otlp::{Compression, WithExportConfig as _, WithTonicConfig as _};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing::field::Empty;
use tracing::{Event, Span, Subscriber};
use tracing_opentelemetry::OpenTelemetrySpanExt as _;
use tracing_subscriber::filter::{EnvFilter, LevelFilter};
use tracing_subscriber::fmt::format::{JsonFields, Writer};
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields, MakeWriter};
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::util::SubscriberInitExt as _;
use tracing_subscriber::{Layer, Registry};

/// The target of the per-RPC span made by [`grpc_request_span`]. The log layer leaves it out
/// unless the configured level mentions this target (e.g. `info,mahjong_referee::rpc=info`).
pub const REQUEST_SPAN_TARGET: &str = "mahjong_referee::rpc";

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LogFormat {
    /// One JSON object per line: `timestamp`, `level`, the event's fields flattened
    /// (`message`, …), `target`, the current span (`span`), and `trace_id` / `span_id` inside
    /// a traced span.
    #[default]
    Json,
    /// Human-readable lines, without colours.
    Text,
}

/// What [`init`] sets up.
#[derive(Debug, Clone)]
pub struct TelemetryConfig {
    /// Log line format.
    pub log_format: LogFormat,
    /// The log filter in `RUST_LOG` syntax: a level (`info`) or directives
    /// (`warn,mahjong_referee=debug`).
    pub log_level: String,
    /// OTLP/gRPC collector endpoint (e.g. `http://otel-collector:4317`); traces are exported
    /// only when this is set.
    pub otlp_endpoint: Option<String>,
    /// The OpenTelemetry `service.name` of exported spans.
    pub service_name: String,
}

impl Default for TelemetryConfig {
    fn default() -> Self {
        Self {
            log_format: LogFormat::Json,
            log_level: "info".to_owned(),
            otlp_endpoint: None,
            service_name: env!("CARGO_PKG_NAME").to_owned(),
        }
    }
}

/// Why [`init`] failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TelemetryError {
    /// [`init`] was already called in this process, or another global subscriber is set.
    #[error("telemetry is already initialised")]
    AlreadyInitialized,
    /// The log level is not a valid filter.
    #[error("invalid log level: {0}")]
    InvalidLogLevel(String),
    /// An OTLP endpoint is configured but `init` was called outside a Tokio runtime (the
    /// exporter's gRPC channel needs one).
    #[error("an OTLP endpoint needs telemetry::init to run inside a Tokio runtime")]
    NoRuntime,
    /// The OTLP exporter could not be built (e.g. a malformed endpoint).
    #[error("cannot build the OTLP exporter: {0}")]
    Exporter(String),
}

/// Keeps the tracer provider of [`init`]; [`TelemetryGuard::shutdown`] (or dropping the guard)
/// flushes pending spans and shuts the exporter down.
#[derive(Debug)]
#[must_use = "dropping the guard shuts the trace exporter down"]
pub struct TelemetryGuard {
    provider: Option<SdkTracerProvider>,
}

impl TelemetryGuard {
    /// Whether spans are exported (an OTLP endpoint was configured).
    pub fn exports_traces(&self) -> bool {
        self.provider.is_some()
    }

    /// Exports the finished spans now instead of at the next batch (tests; before a planned
    /// exit). Blocks until the exporter answered; call it outside the runtime's workers.
    /// Failures are logged.
    pub fn force_flush(&self) {
        if let Some(provider) = &self.provider
            && let Err(e) = provider.force_flush()
        {
            tracing::warn!(error = %e, "trace exporter flush failed");
        }
    }

    /// Flushes the spans not yet exported and shuts the tracer provider down. Blocks until the
    /// exporter is done (bounded by its timeout); inside a multi-threaded Tokio runtime the
    /// other workers keep running meanwhile. Failures are logged.
    pub fn shutdown(mut self) {
        self.shutdown_provider();
    }

    fn shutdown_provider(&mut self) {
        let Some(provider) = self.provider.take() else {
            return;
        };
        let shutdown = move || provider.shutdown();
        let multi_thread = tokio::runtime::Handle::try_current()
            .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread);
        let result = if multi_thread {
            tokio::task::block_in_place(shutdown)
        } else {
            shutdown()
        };
        if let Err(e) = result {
            tracing::warn!(error = %e, "trace exporter shutdown failed");
        }
    }
}

impl Drop for TelemetryGuard {
    fn drop(&mut self) {
        self.shutdown_provider();
    }
}

static INITIALISED: AtomicBool = AtomicBool::new(false);

/// Installs the global `tracing` subscriber, writing logs to standard output; see
/// [`init_with_writer`].
pub fn init(cfg: &TelemetryConfig) -> Result<TelemetryGuard, TelemetryError> {
    init_with_writer(cfg, std::io::stdout)
}

/// Installs the global `tracing` subscriber with logs going to `writer` (tests capture them
/// this way), the W3C Trace Context propagator, and — when `cfg.otlp_endpoint` is set — an
/// OTLP/gRPC batch exporter for spans at INFO and above (gzip-compressed, 10 s timeout).
///
/// Call it once per process; with an endpoint, call it inside a Tokio runtime.
pub fn init_with_writer<W>(
    cfg: &TelemetryConfig,
    writer: W,
) -> Result<TelemetryGuard, TelemetryError>
where
    W: for<'w> MakeWriter<'w> + Send + Sync + 'static,
{
    let log_filter = log_filter(&cfg.log_level)?;
    if INITIALISED.swap(true, Ordering::SeqCst) {
        return Err(TelemetryError::AlreadyInitialized);
    }
    let result = install(cfg, log_filter, writer);
    if result.is_err() {
        INITIALISED.store(false, Ordering::SeqCst);
    }
    result
}

fn install<W>(
    cfg: &TelemetryConfig,
    log_filter: EnvFilter,
    writer: W,
) -> Result<TelemetryGuard, TelemetryError>
where
    W: for<'w> MakeWriter<'w> + Send + Sync + 'static,
{
    opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());

    let provider = match &cfg.otlp_endpoint {
        Some(endpoint) => Some(tracer_provider(endpoint, &cfg.service_name)?),
        None => None,
    };
    let installed = subscriber(cfg.log_format, log_filter, writer, provider.as_ref()).try_init();
    if installed.is_err() {
        if let Some(p) = provider {
            let _ = p.shutdown();
        }
        return Err(TelemetryError::AlreadyInitialized);
    }
    if let Some(p) = &provider {
        opentelemetry::global::set_tracer_provider(p.clone());
    }
    Ok(TelemetryGuard { provider })
}

/// The subscriber: the log layer, and the OpenTelemetry layer (spans at INFO and above) when
/// `provider` is given.
fn subscriber<W>(
    format: LogFormat,
    log_filter: EnvFilter,
    writer: W,
    provider: Option<&SdkTracerProvider>,
) -> Box<dyn Subscriber + Send + Sync>
where
    W: for<'w> MakeWriter<'w> + Send + Sync + 'static,
{
    let fmt_layer: Box<dyn Layer<Registry> + Send + Sync> = match format {
        LogFormat::Json => tracing_subscriber::fmt::layer()
            .fmt_fields(JsonFields::new())
            .event_format(WithTraceIds {
                inner: tracing_subscriber::fmt::format()
                    .json()
                    .flatten_event(true)
                    .with_current_span(true)
                    .with_span_list(false),
                json: true,
            })
            .with_writer(writer)
            .with_filter(log_filter)
            .boxed(),
        LogFormat::Text => tracing_subscriber::fmt::layer()
            .event_format(WithTraceIds {
                inner: tracing_subscriber::fmt::format().with_ansi(false),
                json: false,
            })
            .with_ansi(false)
            .with_writer(writer)
            .with_filter(log_filter)
            .boxed(),
    };
    let registry = tracing_subscriber::registry().with(fmt_layer);
    // Two stacks rather than an `Option` layer: a `None` layer counts as a layer without a
    // filter, which would make the registry build every span the log filter leaves out (the
    // request span included) for nobody.
    match provider {
        Some(provider) => Box::new(
            registry.with(
                tracing_opentelemetry::layer()
                    .with_tracer(provider.tracer(env!("CARGO_PKG_NAME")))
                    .with_location(false)
                    .with_threads(false)
                    .with_level(false)
                    .with_target(false)
                    .with_tracked_inactivity(false)
                    .with_filter(LevelFilter::INFO),
            ),
        ),
        None => Box::new(registry),
    }
}

/// The log layer's filter: the configured directives, with the request span left out unless
/// they name its target.
fn log_filter(level: &str) -> Result<EnvFilter, TelemetryError> {
    let level = level.trim();
    let level = if level.is_empty() { "info" } else { level };
    let mut filter = EnvFilter::builder()
        .with_regex(false)
        .parse(level)
        .map_err(|e| TelemetryError::InvalidLogLevel(format!("{level:?}: {e}")))?;
    if !level.contains(REQUEST_SPAN_TARGET) {
        let off = format!("{REQUEST_SPAN_TARGET}=off")
            .parse()
            .map_err(|e| TelemetryError::InvalidLogLevel(format!("{e}")))?;
        filter = filter.add_directive(off);
    }
    Ok(filter)
}

fn tracer_provider(
    endpoint: &str,
    service_name: &str,
) -> Result<SdkTracerProvider, TelemetryError> {
    if tokio::runtime::Handle::try_current().is_err() {
        return Err(TelemetryError::NoRuntime);
    }
    let exporter = opentelemetry_otlp::SpanExporter::builder()
        .with_tonic()
        .with_endpoint(endpoint)
        .with_timeout(std::time::Duration::from_secs(10))
        .with_compression(Compression::Gzip)
        .build()
        .map_err(|e| TelemetryError::Exporter(e.to_string()))?;
    let resource = Resource::builder()
        .with_service_name(service_name.to_owned())
        .with_attribute(opentelemetry::KeyValue::new(
            "service.version",
            env!("CARGO_PKG_VERSION"),
        ))
        .build();
    Ok(SdkTracerProvider::builder()
        .with_resource(resource)
        .with_batch_exporter(exporter)
        .build())
}

/// The span context of the OpenTelemetry span active on this thread, if any. The
/// `tracing-opentelemetry` layer activates a span's context while the span is entered, so
/// inside an RPC this is the request span (or a span below it).
pub fn current_span_context() -> Option<SpanContext> {
    opentelemetry::Context::map_current(|cx| {
        let span = cx.span();
        let sc = span.span_context();
        sc.is_valid().then(|| sc.clone())
    })
}

/// An event formatter adding `trace_id` and `span_id` of the active OpenTelemetry span to
/// the line written by `inner`.
struct WithTraceIds<F> {
    inner: F,
    json: bool,
}

impl<S, N, F> FormatEvent<S, N> for WithTraceIds<F>
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'w> FormatFields<'w> + 'static,
    F: FormatEvent<S, N>,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        let Some(sc) = current_span_context() else {
            return self.inner.format_event(ctx, writer, event);
        };
        let mut line = String::with_capacity(256);
        self.inner
            .format_event(ctx, Writer::new(&mut line), event)?;
        let ids = if self.json {
            format!(
                r#","trace_id":"{}","span_id":"{}""#,
                sc.trace_id(),
                sc.span_id()
            )
        } else {
            format!(" trace_id={} span_id={}", sc.trace_id(), sc.span_id())
        };
        // The JSON object ends with `}` (then a newline); a text line with its newline.
        let at = if self.json {
            line.rfind('}')
        } else {
            Some(line.trim_end_matches('\n').len())
        };
        match at {
            Some(at) => line.insert_str(at, &ids),
            None => line.push_str(&ids),
        }
        writer.write_str(&line)
    }
}

/// Reads W3C Trace Context headers out of an HTTP request.
struct HeaderExtractor<'a>(&'a http::HeaderMap);

impl Extractor for HeaderExtractor<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(|v| v.to_str().ok())
    }

    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(http::HeaderName::as_str).collect()
    }
}

/// The span of one gRPC call, for `tonic::transport::Server::builder().trace_fn(..)`.
///
/// Attributes per the OpenTelemetry RPC conventions: `otel.name` = `package.Service/Method`,
/// `otel.kind` = server, `rpc.system` = grpc, `rpc.service`, `rpc.method`, `server.address`
/// / `server.port` (from the `:authority`, else the local socket), `network.peer.address` /
/// `network.peer.port`; `rpc.grpc.status_code` is recorded when the call ends (by
/// [`crate::metrics::GrpcMetricsLayer`], see [`record_grpc_status`]). A `traceparent`
/// header makes the span a child of the caller's span. `local` and `remote` are the
/// connection's addresses, where the server knows them.
///
/// When nothing listens to [`REQUEST_SPAN_TARGET`] (no trace export, and the log filter leaves
/// the span out) the span is disabled and costs next to nothing.
pub fn grpc_request_span(
    req: &http::Request<()>,
    local: Option<SocketAddr>,
    remote: Option<SocketAddr>,
) -> Span {
    let path = req.uri().path();
    let name = path.strip_prefix('/').unwrap_or(path);
    let (service, method) = name.split_once('/').unwrap_or(("", name));
    let span = tracing::info_span!(
        target: REQUEST_SPAN_TARGET,
        "grpc.request",
        otel.name = name,
        otel.kind = "server",
        rpc.system = "grpc",
        rpc.service = service,
        rpc.method = method,
        server.address = Empty,
        server.port = Empty,
        network.peer.address = Empty,
        network.peer.port = Empty,
        rpc.grpc.status_code = Empty,
        otel.status_code = Empty,
    );
    if span.is_disabled() {
        return span;
    }
    match req.uri().authority() {
        Some(authority) => {
            span.record("server.address", authority.host());
            if let Some(port) = authority.port_u16() {
                span.record("server.port", i64::from(port));
            }
        }
        None => {
            if let Some(local) = local {
                record_address(&span, "server.address", "server.port", local);
            }
        }
    }
    if let Some(peer) = remote {
        record_address(&span, "network.peer.address", "network.peer.port", peer);
    }
    if req.headers().contains_key("traceparent") {
        let parent = opentelemetry::global::get_text_map_propagator(|p| {
            p.extract(&HeaderExtractor(req.headers()))
        });
        // Fails only when no OpenTelemetry layer is installed: nothing to continue then.
        let _ = span.set_parent(parent);
    }
    span
}

fn record_address(span: &Span, address: &'static str, port: &'static str, addr: SocketAddr) {
    span.record(address, tracing::field::display(addr.ip()));
    span.record(port, i64::from(addr.port()));
}

/// Records the final gRPC status of a call on its [`grpc_request_span`]: the numeric
/// `rpc.grpc.status_code`, and an error status for the codes the RPC conventions count as
/// server errors (`UNKNOWN`, `DEADLINE_EXCEEDED`, `UNIMPLEMENTED`, `INTERNAL`, `UNAVAILABLE`,
/// `DATA_LOSS`).
pub fn record_grpc_status(span: &Span, code: i32) {
    if span.is_disabled() {
        return;
    }
    span.record("rpc.grpc.status_code", i64::from(code));
    if matches!(code, 2 | 4 | 12 | 13 | 14 | 15) {
        span.record("otel.status_code", "ERROR");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_filter_leaves_the_request_span_out_unless_named() {
        let f = log_filter("info").unwrap().to_string();
        assert!(f.contains("mahjong_referee::rpc=off"), "{f}");
        let f = log_filter("info,mahjong_referee::rpc=info")
            .unwrap()
            .to_string();
        assert!(!f.contains("=off"), "{f}");
        assert!(log_filter("").is_ok());
        assert!(matches!(
            log_filter("info,[=="),
            Err(TelemetryError::InvalidLogLevel(_))
        ));
    }

    /// Log lines written to a buffer.
    #[derive(Clone, Default)]
    struct Buffer(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

    impl std::io::Write for Buffer {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Buffer {
        fn lines(&self) -> Vec<String> {
            String::from_utf8(self.0.lock().unwrap().clone())
                .unwrap()
                .lines()
                .map(str::to_owned)
                .collect()
        }
    }

    fn request() -> http::Request<()> {
        http::Request::builder()
            .uri("http://127.0.0.1:50051/mahjong.v1.MahjongService/ScoreHand")
            .body(())
            .unwrap()
    }

    #[test]
    fn without_trace_export_the_request_span_costs_nothing() {
        let buffer = Buffer::default();
        let writer = buffer.clone();
        let subscriber = subscriber(
            LogFormat::Json,
            log_filter("info").unwrap(),
            move || writer.clone(),
            None,
        );
        tracing::subscriber::with_default(subscriber, || {
            assert!(grpc_request_span(&request(), None, None).is_disabled());
            assert!(!tracing::info_span!("other").is_disabled());
            tracing::info!(answer = 42, "plain");
        });
        let lines = buffer.lines();
        assert_eq!(lines.len(), 1, "{lines:?}");
        let line: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
        assert_eq!(line["message"], "plain");
        assert_eq!(line["answer"], 42);
        assert!(line.get("trace_id").is_none(), "{line}");
    }

    #[test]
    fn log_lines_inside_a_traced_span_carry_its_ids() {
        let provider = SdkTracerProvider::builder().build();
        for format in [LogFormat::Json, LogFormat::Text] {
            let buffer = Buffer::default();
            let writer = buffer.clone();
            let subscriber = subscriber(
                format,
                log_filter("info").unwrap(),
                move || writer.clone(),
                Some(&provider),
            );
            let ids = tracing::subscriber::with_default(subscriber, || {
                let span = grpc_request_span(&request(), None, None);
                assert!(!span.is_disabled());
                let _entered = span.enter();
                tracing::info!("inside");
                let sc = current_span_context().unwrap();
                (sc.trace_id().to_string(), sc.span_id().to_string())
            });
            let lines = buffer.lines();
            assert_eq!(lines.len(), 1, "{lines:?}");
            match format {
                LogFormat::Json => {
                    let line: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
                    assert_eq!(line["message"], "inside");
                    assert_eq!(line["trace_id"], ids.0.as_str());
                    assert_eq!(line["span_id"], ids.1.as_str());
                }
                LogFormat::Text => assert!(
                    lines[0].ends_with(&format!(" trace_id={} span_id={}", ids.0, ids.1)),
                    "{}",
                    lines[0]
                ),
            }
        }
    }

    #[test]
    fn request_span_is_disabled_without_a_subscriber() {
        assert!(grpc_request_span(&request(), None, None).is_disabled());
    }
}
