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
    /// The server to ask (plaintext HTTP/2). Default: the server configured in this
    /// environment, that is the port of MAHJONG_LISTEN_ADDR on the loopback address
    /// (http://127.0.0.1:50051 when it is not set).
    #[arg(long, value_name = "URL")]
    pub addr: Option<String>,
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
    /// `MAHJONG_LISTEN_ADDR` is not an address.
    #[error(
        "invalid {} {value:?} (expected HOST:PORT)",
        crate::config::LISTEN_ADDR_ENV
    )]
    ListenAddr {
        /// As set.
        value: String,
    },
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

/// The URL to ask when `--addr` is not given: the loopback address with the port the
/// server of this environment listens on (`MAHJONG_LISTEN_ADDR`; an unspecified host such as
/// `0.0.0.0` or `[::]` means the loopback of its family, a specific host is asked as is).
pub fn default_addr(listen_addr: Option<&str>) -> Result<String, Unhealthy> {
    let addr = match listen_addr {
        None => crate::config::DEFAULT_LISTEN_ADDR,
        Some(value) => value.parse().map_err(|_| Unhealthy::ListenAddr {
            value: value.to_owned(),
        })?,
    };
    let ip = match addr.ip() {
        std::net::IpAddr::V4(ip) if ip.is_unspecified() => {
            std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST)
        }
        std::net::IpAddr::V6(ip) if ip.is_unspecified() => {
            std::net::IpAddr::V6(std::net::Ipv6Addr::LOCALHOST)
        }
        ip @ (std::net::IpAddr::V4(_) | std::net::IpAddr::V6(_)) => ip,
    };
    Ok(format!(
        "http://{}",
        std::net::SocketAddr::new(ip, addr.port())
    ))
}

/// Asks the server once: `Ok` only for SERVING.
pub async fn check(args: &HealthcheckArgs) -> Result<(), Unhealthy> {
    let timeout = Duration::from_millis(args.timeout_ms);
    let addr = match &args.addr {
        Some(addr) => addr.clone(),
        None => default_addr(
            std::env::var(crate::config::LISTEN_ADDR_ENV)
                .ok()
                .as_deref(),
        )?,
    };
    let ask = async {
        let endpoint = Endpoint::from_shared(addr.clone())
            .map_err(|source| Unhealthy::Address {
                addr: addr.clone(),
                source,
            })?
            .connect_timeout(timeout);
        let channel = endpoint
            .connect()
            .await
            .map_err(|source| Unhealthy::Unreachable {
                addr: addr.clone(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_address_follows_the_listen_address() {
        let url = |v: Option<&str>| default_addr(v).map_err(|e| e.to_string());
        assert_eq!(url(None).unwrap(), "http://127.0.0.1:50051");
        assert_eq!(url(Some("0.0.0.0:8080")).unwrap(), "http://127.0.0.1:8080");
        assert_eq!(url(Some("[::]:8080")).unwrap(), "http://[::1]:8080");
        assert_eq!(url(Some("10.1.2.3:9000")).unwrap(), "http://10.1.2.3:9000");
        assert!(
            url(Some("localhost"))
                .unwrap_err()
                .contains("MAHJONG_LISTEN_ADDR")
        );
    }
}
