//! `mahjong-referee healthcheck`: asks a server's `grpc.health.v1.Health/Check` and exits 0
//! only when it answers SERVING (for Docker's HEALTHCHECK and Kubernetes exec probes).
//!
//! Exit codes: 0 SERVING; 1 anything else (`NOT_SERVING`, unknown service, unreachable, no
//! answer in time), with a one-line reason on stderr; 2 a usage error.

use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use tonic::transport::Endpoint;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

/// Arguments of `healthcheck`.
#[allow(clippy::doc_markdown)] // the field docs are the `--help` text
#[derive(Debug, Clone, Args)]
pub struct HealthcheckArgs {
    /// The server to ask (plaintext HTTP/2).
    #[arg(long, value_name = "URL", default_value = "http://127.0.0.1:50051")]
    pub addr: String,
    /// The service to ask about: empty for the whole server, or `mahjong.v1.MahjongService`.
    #[arg(long, value_name = "NAME", default_value = "")]
    pub service: String,
    /// Give up after this many milliseconds (connection and answer together).
    #[arg(long, value_name = "MS", default_value_t = 3000)]
    pub timeout_ms: u64,
}

/// Why a server is not healthy.
#[derive(Debug, thiserror::Error)]
pub enum Unhealthy {
    /// The address is not a URL.
    #[error("invalid --addr {addr}: {source}")]
    Address {
        /// As given.
        addr: String,
        /// Why.
        source: tonic::transport::Error,
    },
    /// No connection.
    #[error("cannot connect to {addr}: {source}")]
    Unreachable {
        /// As given.
        addr: String,
        /// Why.
        source: tonic::transport::Error,
    },
    /// The check failed (e.g. `NOT_FOUND` for an unknown service).
    #[error("health check failed: {:?}: {}", .0.code(), .0.message())]
    Check(#[from] tonic::Status),
    /// The server answered something else than SERVING.
    #[error("{0}")]
    Status(&'static str),
    /// No answer in time.
    #[error("no answer within {0:?}")]
    Timeout(Duration),
}

/// Runs `healthcheck`: prints `SERVING` and exits 0, or prints why not and exits 1.
pub fn run(args: &HealthcheckArgs) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("mahjong-referee healthcheck: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(check(args)) {
        Ok(()) => {
            println!("SERVING");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("mahjong-referee healthcheck: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Asks the server once: `Ok` only for SERVING.
pub async fn check(args: &HealthcheckArgs) -> Result<(), Unhealthy> {
    let timeout = Duration::from_millis(args.timeout_ms);
    let ask = async {
        let endpoint = Endpoint::from_shared(args.addr.clone())
            .map_err(|source| Unhealthy::Address {
                addr: args.addr.clone(),
                source,
            })?
            .connect_timeout(timeout);
        let channel = endpoint
            .connect()
            .await
            .map_err(|source| Unhealthy::Unreachable {
                addr: args.addr.clone(),
                source,
            })?;
        let request = HealthCheckRequest {
            service: args.service.clone(),
        };
        let status = HealthClient::new(channel)
            .check(request)
            .await?
            .into_inner()
            .status();
        match status {
            ServingStatus::Serving => Ok(()),
            ServingStatus::NotServing => Err(Unhealthy::Status("NOT_SERVING")),
            ServingStatus::ServiceUnknown => Err(Unhealthy::Status("SERVICE_UNKNOWN")),
            ServingStatus::Unknown => Err(Unhealthy::Status("UNKNOWN")),
        }
    };
    tokio::time::timeout(timeout, ask)
        .await
        .unwrap_or(Err(Unhealthy::Timeout(timeout)))
}
