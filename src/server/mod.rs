//! The gRPC server: `mahjong.v1.MahjongService` with health, reflection, gRPC-Web, gzip,
//! limits, optional (mutual) TLS and a graceful drain.
//!
//! - [`Server::bind`] checks the configuration, reads the TLS files and binds the listener
//!   (port 0 picks a free one: [`Server::local_addr`]);
//! - [`Server::run`] serves until its shutdown future resolves: health `NOT_SERVING` during
//!   the warm-up, `SERVING` after it, `NOT_SERVING` again while draining; then the listener
//!   closes and the calls in flight finish;
//! - [`serve`]: the `serve` subcommand, on SIGTERM or SIGINT.
//!
//! Modules: [`service`] (the handlers, behind the generated
//! [`crate::server::stub`]), [`status`] (the one error → status mapping), [`guard`] (load
//! shedding and deadlines), [`compute`] (the CPU work off the I/O threads), [`budget`] (the
//! bytes held for clients), [`client`] (what each connection holds of the shared limits),
//! [`connection`] (the connections' I/O), [`listener`] (the connections accepted),
//! [`shutdown`] (the signals).

pub mod budget;
pub mod client;
pub mod codec;
pub mod compute;
pub mod connection;
pub mod guard;
pub mod kiosk;
pub mod listener;
pub mod service;
pub mod shutdown;
pub mod status;
pub mod stub;

use std::future::Future;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use http::HeaderName;
use tokio::net::TcpListener;
use tonic::codec::CompressionEncoding;
use tonic::server::NamedService;
use tonic::transport::{Certificate, Identity, ServerTlsConfig};
use tonic_health::ServingStatus;
use tonic_health::server::HealthReporter;
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::config::{Config, ConfigError};
use crate::server::stub::mahjong_service_server::MahjongServiceServer;
use guard::Guarded;
use service::Referee;

/// The health name of the referee service (`mahjong.v1.MahjongService`).
pub const SERVICE_NAME: &str = <MahjongServiceServer<Referee> as NamedService>::NAME;

/// How long the calls still in flight after the drain may take, beyond the request timeout
/// (which already bounds every referee call), before the server stops anyway: only streams
/// such as health `Watch` outlive it.
const FINISH_GRACE: Duration = Duration::from_secs(1);

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The configuration cannot work.
    #[error("invalid configuration: {0}")]
    Config(#[from] ConfigError),
    /// A TLS file could not be read.
    #[error("cannot read {what} {}: {source}", path.display())]
    TlsFile {
        /// Which file.
        what: &'static str,
        /// Its path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A TLS file holds no usable PEM block of the kind it must hold.
    #[error("{what} {} holds no PEM {block}", path.display())]
    TlsPem {
        /// Which file.
        what: &'static str,
        /// Its path.
        path: PathBuf,
        /// The PEM block it lacks.
        block: &'static str,
    },
    /// The TLS files read but cannot be used together (e.g. a key that is not the
    /// certificate's, or a certificate rustls cannot parse).
    #[error("TLS certificate {} with key {}{}: {detail}", cert.display(), key.display(),
        client_ca.as_ref().map(|ca| format!(" and client CA {}", ca.display())).unwrap_or_default())]
    TlsSetup {
        /// `--tls-cert`.
        cert: PathBuf,
        /// `--tls-key`.
        key: PathBuf,
        /// `--tls-client-ca`, if set.
        client_ca: Option<PathBuf>,
        /// What rustls said.
        detail: String,
    },
    /// The listener could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The gRPC server failed (TLS set-up, reflection, I/O).
    #[error("gRPC server: {0}")]
    Transport(#[from] tonic::transport::Error),
    /// The reflection service could not be built.
    #[error("reflection: {0}")]
    Reflection(#[from] tonic_reflection::server::Error),
    /// The runtime could not be started.
    #[error("cannot start the runtime: {0}")]
    Runtime(std::io::Error),
    /// Logs or traces could not be set up.
    #[error("telemetry: {0}")]
    Telemetry(#[from] crate::telemetry::TelemetryError),
    /// The metrics recorder could not be installed.
    #[error("{0}")]
    Metrics(#[from] crate::metrics::MetricsError),
}

/// A bound, not yet serving, server.
#[derive(Debug)]
pub struct Server {
    config: Config,
    listener: TcpListener,
    local_addr: SocketAddr,
    tls: Option<ServerTlsConfig>,
}

impl Server {
    /// Checks `config`, reads its TLS files and binds its listen address.
    pub async fn bind(config: Config) -> Result<Server, ServeError> {
        config.validate()?;
        let tls = tls_config(&config)?;
        if let Some(tls) = &tls {
            check_tls(&config, tls)?;
        }
        let addr = config.listen_addr;
        let bind_error = |source| ServeError::Bind { addr, source };
        let listener = TcpListener::bind(addr).await.map_err(bind_error)?;
        let local_addr = listener.local_addr().map_err(bind_error)?;
        Ok(Server {
            config,
            listener,
            local_addr,
            tls,
        })
    }

    /// The address the server listens on (the actual port when the configured one is 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// Serves until `shutdown` resolves, then drains: health `NOT_SERVING` for the drain
    /// time while still serving, then the listener closes and the calls in flight finish.
    pub async fn run(self, shutdown: impl Future<Output = ()>) -> Result<(), ServeError> {
        let Server {
            config,
            listener,
            local_addr,
            tls,
        } = self;
        let (health, health_service) = tonic_health::server::health_reporter();
        set_health(&health, ServingStatus::NotServing).await;

        let budget = budget::Budget::new(config.max_buffered_bytes);
        let compute = compute::ComputePool::sized_to_cores();
        let scorer = Referee::new(&config, budget.clone(), compute.clone());
        let referee = MahjongServiceServer::new(scorer.clone())
            .max_decoding_message_size(config.max_message_bytes)
            .max_encoding_message_size(config.max_message_bytes)
            .accept_compressed(CompressionEncoding::Gzip)
            .send_compressed(CompressionEncoding::Gzip);
        // With google.rpc's error details, so that a reflection client such as grpcurl can
        // decode the ErrorInfo and BadRequest of an INVALID_ARGUMENT.
        let descriptors = [
            crate::api::FILE_DESCRIPTOR_SET,
            tonic_health::pb::FILE_DESCRIPTOR_SET,
            tonic_types::pb::FILE_DESCRIPTOR_SET,
        ];
        let mut reflection_v1 = tonic_reflection::server::Builder::configure();
        let mut reflection_v1alpha = tonic_reflection::server::Builder::configure();
        for set in descriptors {
            reflection_v1 = reflection_v1.register_encoded_file_descriptor_set(set);
            reflection_v1alpha = reflection_v1alpha.register_encoded_file_descriptor_set(set);
        }

        let guarded = Guarded::new(referee, &config, budget, compute.clone(), Some(scorer));
        let mut builder = tonic::transport::Server::builder()
            .accept_http1(true)
            .max_concurrent_streams(config.max_streams_per_connection)
            .http2_keepalive_interval(Some(config.keepalive))
            .http2_keepalive_timeout(Some(config.keepalive_timeout))
            .trace_fn(|req| {
                let peer = client::peer_of(req.extensions());
                crate::telemetry::grpc_request_span(
                    req,
                    peer.and_then(|p| p.local),
                    peer.and_then(|p| p.remote),
                )
            });
        if !config.max_connection_age.is_zero() {
            builder = builder
                .max_connection_age(config.max_connection_age)
                .max_connection_age_grace(config.request_timeout + FINISH_GRACE);
        }
        if let Some(tls) = tls {
            builder = builder.tls_config(tls)?;
        }
        let router = builder
            .layer(kiosk::KioskLayer::new(config.kiosk))
            .layer(cors(&config.cors_origins))
            .layer(tonic_web::GrpcWebLayer::new())
            // Inside gRPC-Web: sees plain gRPC, the status in headers or trailers.
            .layer(crate::metrics::GrpcMetricsLayer::new(served_paths()))
            .add_service(health_service)
            .add_service(reflection_v1.build_v1()?)
            .add_service(reflection_v1alpha.build_v1alpha()?)
            .add_service(guarded);

        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let incoming = listener::connections(listener, config.max_connections, compute.cores());
        let mut serving = tokio::spawn(router.serve_with_incoming_shutdown(incoming, async {
            let _ = stopped.await;
        }));
        tracing::info!(%local_addr, tls = config.tls(), "listening; warming up");

        // Everything the first calls need is built before SERVING (readiness follows health):
        // the scoring paths and the analysis tables, on a blocking thread so that health
        // answers NOT_SERVING meanwhile.
        let started = std::time::Instant::now();
        if let Err(e) = tokio::task::spawn_blocking(warm_up).await {
            std::panic::resume_unwind(e.into_panic());
        }
        tracing::info!(took = ?started.elapsed(), "warmed up");
        if let Some(hook) = &config.test_hooks.before_serving {
            hook().await;
        }
        set_health(&health, ServingStatus::Serving).await;
        tracing::info!(%local_addr, "serving");

        tokio::select! {
            () = shutdown => {}
            ended = &mut serving => return serving_result(ended),
        }
        set_health(&health, ServingStatus::NotServing).await;
        tracing::info!(drain = ?config.drain, "shutting down: NOT_SERVING, draining");
        tokio::select! {
            () = tokio::time::sleep(config.drain) => {}
            ended = &mut serving => return serving_result(ended),
        }

        tracing::info!("listener closed; finishing the calls in flight");
        let _ = stop.send(());
        let finish = config.request_timeout + FINISH_GRACE;
        if let Ok(ended) = tokio::time::timeout(finish, &mut serving).await {
            serving_result(ended)?;
        } else {
            serving.abort();
            tracing::warn!(?finish, "streams still open after the drain were cut");
        }
        tracing::info!("stopped");
        Ok(())
    }
}

/// The `serve` subcommand: serves `config` on a multi-threaded runtime until SIGTERM or
/// SIGINT, then drains and returns.
pub fn serve(config: Config) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    // The signal listeners before anything else (telemetry, the configuration, the port): a
    // SIGTERM from here on drains and exits 0 instead of killing the process (143).
    let stop = {
        let _entered = runtime.enter();
        shutdown::signal()
    };
    runtime.block_on(async {
        // Inside the runtime: the OTLP exporter's channel needs it.
        let telemetry = crate::telemetry::init(&crate::telemetry::TelemetryConfig {
            log_format: match config.log_format {
                crate::config::LogFormat::Json => crate::telemetry::LogFormat::Json,
                crate::config::LogFormat::Text => crate::telemetry::LogFormat::Text,
            },
            log_level: config.log_level.clone(),
            otlp_endpoint: config.otlp_endpoint.clone(),
            service_name: env!("CARGO_PKG_NAME").to_owned(),
        })?;
        // The gRPC listener first: it checks the configuration.
        let metrics_addr = config.metrics_addr;
        let server = Server::bind(config).await?;
        let metrics = MetricsEndpoint::start(metrics_addr).await?;
        let served = server.run(stop).await;
        if let Some(metrics) = metrics {
            metrics.stop().await;
        }
        telemetry.shutdown();
        served
    })
}

/// The Prometheus endpoint (`/metrics`, `/healthz`) of `serve`, while it runs.
struct MetricsEndpoint {
    stop: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl MetricsEndpoint {
    /// Installs the recorder and serves it on `addr`. A port already taken is logged and the
    /// server runs without the endpoint: scoring matters more than its metrics.
    async fn start(addr: SocketAddr) -> Result<Option<MetricsEndpoint>, ServeError> {
        let handle = crate::metrics::install()?;
        let listener = match TcpListener::bind(addr).await {
            Ok(listener) => listener,
            Err(e) => {
                tracing::error!(metrics_addr = %addr, error = %e, "cannot listen for metrics; serving without /metrics");
                return Ok(None);
            }
        };
        tracing::info!(metrics_addr = %addr, "metrics on /metrics");
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(crate::metrics::serve(listener, handle, async {
            let _ = stopped.await;
        }));
        Ok(Some(MetricsEndpoint { stop, task }))
    }

    async fn stop(self) {
        let _ = self.stop.send(());
        let _ = self.task.await;
    }
}

/// The result of the serving task once it ended (an error only if it failed).
fn serving_result(
    ended: Result<Result<(), tonic::transport::Error>, tokio::task::JoinError>,
) -> Result<(), ServeError> {
    match ended {
        Ok(result) => Ok(result?),
        // The task is only aborted after the drain, and tonic does not panic.
        Err(join) if join.is_panic() => std::panic::resume_unwind(join.into_panic()),
        Err(_) => Ok(()),
    }
}

/// The request path of every method the server serves (`/package.Service/Method`): the
/// referee's from its descriptor set, health's and reflection's by name. The metrics label
/// only these, any other path as `unknown`.
fn served_paths() -> Vec<String> {
    const OTHERS: [&str; 4] = [
        "/grpc.health.v1.Health/Check",
        "/grpc.health.v1.Health/Watch",
        "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
        "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
    ];
    let pool = prost_reflect::DescriptorPool::decode(crate::api::FILE_DESCRIPTOR_SET)
        .expect("the referee's descriptor set decodes");
    pool.services()
        .flat_map(|service| {
            service
                .methods()
                .map(|method| format!("/{}/{}", service.full_name(), method.name()))
                .collect::<Vec<_>>()
        })
        .chain(OTHERS.map(str::to_owned))
        .collect()
}

/// Sets the overall ("") and the referee's health.
async fn set_health(health: &HealthReporter, status: ServingStatus) {
    health.set_service_status("", status).await;
    health.set_service_status(SERVICE_NAME, status).await;
}

/// Builds the analysis and division tables, scores a few hands of every shape and lists the
/// fans of every ruleset, so that the first calls find everything warm.
fn warm_up() {
    use crate::api::KeptRules;
    use crate::api::scoring;
    use crate::pb;

    const HANDS: [&str; 6] = [
        "[123m][789m][123p]55s89p7p",
        "11223344556677m",
        "19m19p19sESWNCFPP",
        "147m258p369sESWNC",
        "147m258p369sEEE55m",
        "[EEEE][SSS1]WWWNNNCC",
    ];
    mcr::shape::warm_up();
    for notation in HANDS {
        let request = pb::ScoreHandRequest {
            hand_input: Some(pb::score_hand_request::HandInput::Notation(
                notation.to_owned(),
            )),
            context: None,
            ruleset: pb::Ruleset::Unspecified as i32,
            view: pb::ScoreView::Unspecified as i32,
            overrides: None,
        };
        let _ = std::hint::black_box(scoring::score_hand(
            &(&request).into(),
            &KeptRules::default(),
        ));
    }
    for ruleset in [
        pb::Ruleset::ChineseOfficial1998,
        pb::Ruleset::Mil,
        pb::Ruleset::GreenBook2006,
    ] {
        let request = pb::ListFansRequest {
            ruleset: ruleset as i32,
        };
        let _ = std::hint::black_box(scoring::list_fans(&request));
    }
}

/// CORS for browsers calling through gRPC-Web from pages of `origins` (`--cors-origins`;
/// `*` is any origin): POST, the gRPC-Web request headers in and the gRPC status headers
/// out. With no origins, no cross-origin call is allowed: the kiosk page is served from the
/// same origin as the API and needs none, and a page from elsewhere (e.g. one a user of an
/// internal network happens to open) cannot make the user's browser call the referee.
fn cors(origins: &[String]) -> CorsLayer {
    const ALLOW: [&str; 7] = [
        "content-type",
        "x-grpc-web",
        "x-user-agent",
        "grpc-timeout",
        "grpc-accept-encoding",
        "grpc-encoding",
        "traceparent",
    ];
    const EXPOSE: [&str; 4] = [
        "grpc-status",
        "grpc-message",
        "grpc-status-details-bin",
        "grpc-encoding",
    ];
    let allowed = if origins.iter().any(|o| o == "*") {
        AllowOrigin::mirror_request()
    } else {
        AllowOrigin::list(
            origins
                .iter()
                .filter_map(|origin| http::HeaderValue::from_str(origin).ok()),
        )
    };
    CorsLayer::new()
        .allow_origin(allowed)
        .allow_methods([http::Method::POST])
        .allow_headers(ALLOW.map(HeaderName::from_static))
        .expose_headers(EXPOSE.map(HeaderName::from_static))
        .max_age(Duration::from_secs(24 * 60 * 60))
}

/// The TLS set-up of `config`, its files read: `None` for plaintext.
fn tls_config(config: &Config) -> Result<Option<ServerTlsConfig>, ServeError> {
    let (Some(cert), Some(key)) = (&config.tls_cert, &config.tls_key) else {
        return Ok(None);
    };
    let identity = Identity::from_pem(
        read(cert, "TLS certificate", "CERTIFICATE")?,
        read(key, "TLS key", "PRIVATE KEY")?,
    );
    let mut tls = ServerTlsConfig::new().identity(identity);
    if let Some(ca) = &config.tls_client_ca {
        tls = tls.client_ca_root(Certificate::from_pem(read(ca, "client CA", "CERTIFICATE")?));
    }
    Ok(Some(tls))
}

/// The contents of the TLS file `path`, which must hold a PEM block whose label ends with
/// `block` (`CERTIFICATE`, `PRIVATE KEY`).
fn read(path: &Path, what: &'static str, block: &'static str) -> Result<Vec<u8>, ServeError> {
    let bytes = std::fs::read(path).map_err(|source| ServeError::TlsFile {
        what,
        path: path.to_owned(),
        source,
    })?;
    let has_block = String::from_utf8_lossy(&bytes).lines().any(|line| {
        line.strip_prefix("-----BEGIN ")
            .and_then(|l| l.trim_end().strip_suffix("-----"))
            .is_some_and(|label| label.ends_with(block))
    });
    if !has_block {
        return Err(ServeError::TlsPem {
            what,
            path: path.to_owned(),
            block,
        });
    }
    Ok(bytes)
}

/// Builds the TLS acceptor once at start-up, so that files that read but cannot be used
/// (a key that is not the certificate's, a certificate rustls cannot parse) stop the
/// server with a message naming them instead of a bare transport error.
fn check_tls(config: &Config, tls: &ServerTlsConfig) -> Result<(), ServeError> {
    let (Some(cert), Some(key)) = (&config.tls_cert, &config.tls_key) else {
        return Ok(());
    };
    match tonic::transport::Server::builder().tls_config(tls.clone()) {
        Ok(_) => Ok(()),
        Err(e) => {
            let mut detail = e.to_string();
            let mut source = std::error::Error::source(&e);
            while let Some(cause) = source {
                detail = format!("{detail}: {cause}");
                source = cause.source();
            }
            Err(ServeError::TlsSetup {
                cert: cert.clone(),
                key: key.clone(),
                client_ca: config.tls_client_ca.clone(),
                detail,
            })
        }
    }
}
