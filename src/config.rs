//! Run-time configuration of `mahjong-referee serve`: command-line flags, each with a
//! `MAHJONG_*` environment variable (the flag wins), checked at start-up.
//!
//! | flag | environment variable | default |
//! |---|---|---|
//! | `--listen-addr` | `MAHJONG_LISTEN_ADDR` | `0.0.0.0:50051` |
//! | `--metrics-addr` | `MAHJONG_METRICS_ADDR` | `0.0.0.0:9464` |
//! | `--log-format` | `MAHJONG_LOG_FORMAT` | `json` (or `text`) |
//! | `--log-level` | `MAHJONG_LOG_LEVEL` | `info` |
//! | `--otlp-endpoint` | `MAHJONG_OTLP_ENDPOINT` | none (no trace export) |
//! | `--max-message-bytes` | `MAHJONG_MAX_MESSAGE_BYTES` | `4194304` |
//! | `--request-timeout-ms` | `MAHJONG_REQUEST_TIMEOUT_MS` | `5000` |
//! | `--max-concurrent-requests` | `MAHJONG_MAX_CONCURRENT_REQUESTS` | `1024` |
//! | `--max-batch-hands` | `MAHJONG_MAX_BATCH_HANDS` | `10000` |
//! | `--max-buffered-bytes` | `MAHJONG_MAX_BUFFERED_BYTES` | `67108864` |
//! | `--max-connections` | `MAHJONG_MAX_CONNECTIONS` | `1024` |
//! | `--max-streams-per-connection` | `MAHJONG_MAX_STREAMS_PER_CONNECTION` | `100` |
//! | `--max-connection-age-seconds` | `MAHJONG_MAX_CONNECTION_AGE_SECONDS` | `0`: none |
//! | `--keepalive-seconds` | `MAHJONG_KEEPALIVE_SECONDS` | `30` |
//! | `--keepalive-timeout-seconds` | `MAHJONG_KEEPALIVE_TIMEOUT_SECONDS` | `10` |
//! | `--cors-origins` | `MAHJONG_CORS_ORIGINS` | none: no cross-origin browser calls |
//! | `--drain-seconds` | `MAHJONG_DRAIN_SECONDS` | `5` |
//! | `--tls-cert` | `MAHJONG_TLS_CERT_FILE` | none (plaintext) |
//! | `--tls-key` | `MAHJONG_TLS_KEY_FILE` | none |
//! | `--tls-client-ca` | `MAHJONG_TLS_CLIENT_CA_FILE` | none (no client certificates) |
//! | `--kiosk` | `MAHJONG_KIOSK` | `true`: the scoring kiosk page at `/kiosk/` (`false` turns it off) |

use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, Parser, ValueEnum};

/// The environment variable of `--listen-addr` (also read by `healthcheck`).
pub const LISTEN_ADDR_ENV: &str = "MAHJONG_LISTEN_ADDR";
/// Default `--listen-addr`.
pub const DEFAULT_LISTEN_ADDR: SocketAddr = SocketAddr::V4(std::net::SocketAddrV4::new(
    std::net::Ipv4Addr::UNSPECIFIED,
    50051,
));
/// Default `--metrics-addr`.
pub const DEFAULT_METRICS_ADDR: SocketAddr = SocketAddr::V4(std::net::SocketAddrV4::new(
    std::net::Ipv4Addr::UNSPECIFIED,
    9464,
));
/// Default `--max-message-bytes` (4 MiB, gRPC's usual limit).
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 4 * 1024 * 1024;
/// Default `--request-timeout-ms`.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(5);
/// Default `--max-concurrent-requests`.
pub const DEFAULT_MAX_CONCURRENT_REQUESTS: usize = 1024;
/// Default `--max-batch-hands`.
pub const DEFAULT_MAX_BATCH_HANDS: usize = 10_000;
/// Default `--max-buffered-bytes` (64 MiB).
pub const DEFAULT_MAX_BUFFERED_BYTES: usize = 64 * 1024 * 1024;
/// Default `--max-connections`.
pub const DEFAULT_MAX_CONNECTIONS: usize = 1024;
/// Default `--max-streams-per-connection`.
pub const DEFAULT_MAX_STREAMS_PER_CONNECTION: u32 = 100;
/// Default `--keepalive-seconds`.
pub const DEFAULT_KEEPALIVE: Duration = Duration::from_secs(30);
/// Default `--keepalive-timeout-seconds`.
pub const DEFAULT_KEEPALIVE_TIMEOUT: Duration = Duration::from_secs(10);
/// Default `--drain-seconds`.
pub const DEFAULT_DRAIN: Duration = Duration::from_secs(5);

/// How `serve` is configured. (The field docs are the `--help` text: plain words, no
/// backticks.)
#[allow(clippy::doc_markdown)]
#[derive(Debug, Clone, Args)]
pub struct Config {
    /// Address of the gRPC listener (gRPC, gRPC-Web, health, reflection).
    #[arg(long, env = LISTEN_ADDR_ENV, value_name = "HOST:PORT", default_value_t = DEFAULT_LISTEN_ADDR)]
    pub listen_addr: SocketAddr,
    /// Address of the Prometheus metrics listener (/metrics).
    #[arg(long, env = "MAHJONG_METRICS_ADDR", value_name = "HOST:PORT", default_value_t = DEFAULT_METRICS_ADDR)]
    pub metrics_addr: SocketAddr,
    /// Log line format.
    #[arg(long, env = "MAHJONG_LOG_FORMAT", value_enum, default_value_t = LogFormat::Json)]
    pub log_format: LogFormat,
    /// Log level or filter, e.g. `info` or `info,h2=warn`.
    #[arg(
        long,
        env = "MAHJONG_LOG_LEVEL",
        value_name = "FILTER",
        default_value = "info"
    )]
    pub log_level: String,
    /// OTLP/gRPC collector for traces, e.g. `http://otel-collector:4317`; none exports no traces.
    #[arg(long, env = "MAHJONG_OTLP_ENDPOINT", value_name = "URL", value_parser = parse_endpoint)]
    pub otlp_endpoint: Option<String>,
    /// Largest request message, in bytes (also the largest response): a larger request gets
    /// RESOURCE_EXHAUSTED.
    #[arg(long, env = "MAHJONG_MAX_MESSAGE_BYTES", value_name = "BYTES", default_value_t = DEFAULT_MAX_MESSAGE_BYTES, value_parser = parse_positive)]
    pub max_message_bytes: usize,
    /// Server-side deadline of one call, in milliseconds (a shorter client deadline wins):
    /// DEADLINE_EXCEEDED after it.
    #[arg(long = "request-timeout-ms", env = "MAHJONG_REQUEST_TIMEOUT_MS", value_name = "MS", default_value = "5000", value_parser = parse_millis)]
    pub request_timeout: Duration,
    /// Calls of the referee in flight at once; beyond it, calls get RESOURCE_EXHAUSTED at once
    /// (health checks are never limited).
    #[arg(long, env = "MAHJONG_MAX_CONCURRENT_REQUESTS", value_name = "N", default_value_t = DEFAULT_MAX_CONCURRENT_REQUESTS, value_parser = parse_positive)]
    pub max_concurrent_requests: usize,
    /// Most hands in one BatchScoreHands call; a longer batch gets INVALID_ARGUMENT.
    #[arg(long, env = "MAHJONG_MAX_BATCH_HANDS", value_name = "N", default_value_t = DEFAULT_MAX_BATCH_HANDS, value_parser = parse_positive)]
    pub max_batch_hands: usize,
    /// Bytes held for clients across all calls: requests being received and answers not yet
    /// taken by their clients. A call that finds it spent gets RESOURCE_EXHAUSTED at once; an
    /// answer not taken within the request timeout is dropped.
    #[arg(long, env = "MAHJONG_MAX_BUFFERED_BYTES", value_name = "BYTES", default_value_t = DEFAULT_MAX_BUFFERED_BYTES, value_parser = parse_positive)]
    pub max_buffered_bytes: usize,
    /// Connections open at once (about 21 KB each when idle); at the limit, new connections
    /// wait in the listen backlog until one closes.
    #[arg(long, env = "MAHJONG_MAX_CONNECTIONS", value_name = "N", default_value_t = DEFAULT_MAX_CONNECTIONS, value_parser = parse_positive)]
    pub max_connections: usize,
    /// Concurrent HTTP/2 streams (calls) one connection may open; the client waits for more.
    #[arg(long, env = "MAHJONG_MAX_STREAMS_PER_CONNECTION", value_name = "N", default_value_t = DEFAULT_MAX_STREAMS_PER_CONNECTION, value_parser = parse_positive_u32)]
    pub max_streams_per_connection: u32,
    /// Seconds after which a connection is asked to close (HTTP/2 GOAWAY; its calls in flight
    /// get the request timeout to finish) and its client reconnects, possibly to another
    /// replica; 0 keeps connections as long as their clients do.
    #[arg(long = "max-connection-age-seconds", env = "MAHJONG_MAX_CONNECTION_AGE_SECONDS", value_name = "SECONDS", default_value = "0", value_parser = parse_seconds)]
    pub max_connection_age: Duration,
    /// Seconds between HTTP/2 keepalive pings on every connection.
    #[arg(long = "keepalive-seconds", env = "MAHJONG_KEEPALIVE_SECONDS", value_name = "SECONDS", default_value = "30", value_parser = parse_positive_seconds)]
    pub keepalive: Duration,
    /// Seconds a keepalive ping may go unanswered before the connection is closed.
    #[arg(long = "keepalive-timeout-seconds", env = "MAHJONG_KEEPALIVE_TIMEOUT_SECONDS", value_name = "SECONDS", default_value = "10", value_parser = parse_positive_seconds)]
    pub keepalive_timeout: Duration,
    /// Origins whose web pages may call the API from a browser (gRPC-Web), comma-separated,
    /// e.g. `https://scores.example.org`; `*` allows any. The kiosk page on this port needs none.
    #[arg(long, env = "MAHJONG_CORS_ORIGINS", value_name = "ORIGINS", value_delimiter = ',', value_parser = parse_origin)]
    pub cors_origins: Vec<String>,
    /// On SIGTERM or SIGINT: seconds to report NOT_SERVING while still serving, before the
    /// listener closes and the calls in flight finish.
    #[arg(long = "drain-seconds", env = "MAHJONG_DRAIN_SECONDS", value_name = "SECONDS", default_value = "5", value_parser = parse_seconds)]
    pub drain: Duration,
    /// PEM certificate chain of the server: serve TLS (with --tls-key).
    #[arg(long, env = "MAHJONG_TLS_CERT_FILE", value_name = "FILE")]
    pub tls_cert: Option<PathBuf>,
    /// PEM private key of the server certificate (with --tls-cert).
    #[arg(long, env = "MAHJONG_TLS_KEY_FILE", value_name = "FILE")]
    pub tls_key: Option<PathBuf>,
    /// PEM certificates of the CAs that sign client certificates: require mutual TLS.
    #[arg(long, env = "MAHJONG_TLS_CLIENT_CA_FILE", value_name = "FILE")]
    pub tls_client_ca: Option<PathBuf>,
    /// Serve the scoring kiosk page at /kiosk/ on the gRPC port (false turns it off).
    #[arg(long, env = "MAHJONG_KIOSK", value_name = "BOOL", default_value_t = true, action = clap::ArgAction::Set)]
    pub kiosk: bool,
    /// Test hooks; never set by flags.
    #[doc(hidden)]
    #[arg(skip)]
    pub test_hooks: TestHooks,
}

/// The format of log lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// One JSON object per line.
    Json,
    /// Human-readable text.
    Text,
}

/// A configuration that cannot work.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// Only one of the certificate and its key was given.
    #[error(
        "--tls-cert (MAHJONG_TLS_CERT_FILE) and --tls-key (MAHJONG_TLS_KEY_FILE) must be set together"
    )]
    TlsPairIncomplete,
    /// Client certificates were asked for without TLS.
    #[error(
        "--tls-client-ca (MAHJONG_TLS_CLIENT_CA_FILE) requires TLS: set --tls-cert and --tls-key too"
    )]
    ClientCaWithoutTls,
    /// A limit is zero.
    #[error("{0} must be at least 1")]
    Zero(&'static str),
    /// A client's share of the bytes held for clients (half, when it is alone) cannot hold
    /// one largest request with its decoded form.
    #[error(
        "--max-buffered-bytes ({buffered}) must be at least {} (10 × --max-message-bytes, {message}): a client alone may hold half of it, and a largest request is held with its decoded form",
        10 * message
    )]
    BufferTooSmall {
        /// `--max-buffered-bytes`.
        buffered: usize,
        /// `--max-message-bytes`.
        message: usize,
    },
}

impl Config {
    /// The configuration from the environment variables and the defaults alone (what a bare
    /// `mahjong-referee` runs with).
    pub fn from_env() -> Result<Config, clap::Error> {
        /// `Config` as a whole command line.
        #[derive(Parser)]
        #[command(name = "mahjong-referee")]
        struct Only {
            #[command(flatten)]
            config: Config,
        }
        Only::try_parse_from(["mahjong-referee"]).map(|only| only.config)
    }

    /// Checks what the flags cannot check one by one.
    pub fn validate(&self) -> Result<(), ConfigError> {
        match (&self.tls_cert, &self.tls_key, &self.tls_client_ca) {
            (Some(_), None, _) | (None, Some(_), _) => return Err(ConfigError::TlsPairIncomplete),
            (None, None, Some(_)) => return Err(ConfigError::ClientCaWithoutTls),
            (Some(_), Some(_), _) | (None, None, None) => {}
        }
        for (value, name) in [
            (self.max_message_bytes, "--max-message-bytes"),
            (self.max_concurrent_requests, "--max-concurrent-requests"),
            (self.max_batch_hands, "--max-batch-hands"),
            (self.max_buffered_bytes, "--max-buffered-bytes"),
            (self.max_connections, "--max-connections"),
        ] {
            if value == 0 {
                return Err(ConfigError::Zero(name));
            }
        }
        for (value, name) in [
            (self.request_timeout, "--request-timeout-ms"),
            (self.keepalive, "--keepalive-seconds"),
            (self.keepalive_timeout, "--keepalive-timeout-seconds"),
        ] {
            if value.is_zero() {
                return Err(ConfigError::Zero(name));
            }
        }
        if self.max_streams_per_connection == 0 {
            return Err(ConfigError::Zero("--max-streams-per-connection"));
        }
        if self.max_buffered_bytes / 10 < self.max_message_bytes {
            return Err(ConfigError::BufferTooSmall {
                buffered: self.max_buffered_bytes,
                message: self.max_message_bytes,
            });
        }
        Ok(())
    }

    /// Whether the server speaks TLS.
    pub fn tls(&self) -> bool {
        self.tls_cert.is_some()
    }
}

impl Default for Config {
    /// The defaults of the flags, without the environment.
    fn default() -> Self {
        Config {
            listen_addr: DEFAULT_LISTEN_ADDR,
            metrics_addr: DEFAULT_METRICS_ADDR,
            log_format: LogFormat::Json,
            log_level: "info".to_owned(),
            otlp_endpoint: None,
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            max_concurrent_requests: DEFAULT_MAX_CONCURRENT_REQUESTS,
            max_batch_hands: DEFAULT_MAX_BATCH_HANDS,
            max_buffered_bytes: DEFAULT_MAX_BUFFERED_BYTES,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_streams_per_connection: DEFAULT_MAX_STREAMS_PER_CONNECTION,
            max_connection_age: Duration::ZERO,
            keepalive: DEFAULT_KEEPALIVE,
            keepalive_timeout: DEFAULT_KEEPALIVE_TIMEOUT,
            cors_origins: Vec::new(),
            drain: DEFAULT_DRAIN,
            tls_cert: None,
            tls_key: None,
            tls_client_ca: None,
            kiosk: true,
            test_hooks: TestHooks::default(),
        }
    }
}

fn parse_positive(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(0) => Err("must be at least 1".to_owned()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("not a whole number: {e}")),
    }
}

fn parse_millis(s: &str) -> Result<Duration, String> {
    match s.parse::<u64>() {
        Ok(0) => Err("must be at least 1".to_owned()),
        Ok(ms) => Ok(Duration::from_millis(ms)),
        Err(e) => Err(format!("not a whole number of milliseconds: {e}")),
    }
}

fn parse_positive_u32(s: &str) -> Result<u32, String> {
    match s.parse::<u32>() {
        Ok(0) => Err("must be at least 1".to_owned()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("not a whole number up to {}: {e}", u32::MAX)),
    }
}

fn parse_positive_seconds(s: &str) -> Result<Duration, String> {
    match parse_seconds(s)? {
        d if d.is_zero() => Err("must be at least 1".to_owned()),
        d => Ok(d),
    }
}

/// An origin as browsers send it (`scheme://host[:port]`, no path), or `*`.
fn parse_origin(s: &str) -> Result<String, String> {
    if s == "*" {
        return Ok(s.to_owned());
    }
    let uri: http::Uri = s.parse().map_err(|e| format!("not an origin: {e}"))?;
    let bare = uri.path_and_query().is_none_or(|p| p.as_str() == "/") && !s.ends_with('/');
    match (uri.scheme_str(), uri.authority()) {
        (Some("http" | "https"), Some(_)) if bare => Ok(s.to_owned()),
        _ => Err(format!(
            "{s:?} is not an origin: expected scheme://host[:port] with no path, e.g. https://scores.example.org, or *"
        )),
    }
}

fn parse_seconds(s: &str) -> Result<Duration, String> {
    s.parse::<u64>()
        .map(Duration::from_secs)
        .map_err(|e| format!("not a whole number of seconds: {e}"))
}

fn parse_endpoint(s: &str) -> Result<String, String> {
    let uri: http::Uri = s.parse().map_err(|e| format!("not a URL: {e}"))?;
    match (uri.scheme_str(), uri.authority()) {
        (Some("http" | "https"), Some(_)) => Ok(s.to_owned()),
        _ => Err(
            "expected an http:// or https:// URL with a host, e.g. http://otel-collector:4317"
                .to_owned(),
        ),
    }
}

/// An async callback of a test hook.
pub type Hook = Arc<dyn Fn() -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;

/// Places where tests can hold the server to observe it; all empty in production.
#[doc(hidden)]
#[derive(Clone, Default)]
pub struct TestHooks {
    /// Awaited by every admitted `MahjongService` call before it is handled (inside the
    /// call's deadline and concurrency slot).
    pub before_call: Option<Hook>,
    /// Awaited after the warm-up, before health turns SERVING.
    pub before_serving: Option<Hook>,
}

impl fmt::Debug for TestHooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TestHooks")
            .field("before_call", &self.before_call.is_some())
            .field("before_serving", &self.before_serving.is_some())
            .finish()
    }
}
