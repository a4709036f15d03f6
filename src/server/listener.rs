//! The connections the server accepts: at most `--max-connections` open at once, each
//! holding its place until it closes, so that idle connections (about 21 KB each) cannot take
//! the server's memory.

use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_stream::StreamExt as _;
use tonic::transport::server::TcpIncoming;

use super::connection::Connection;

/// How long the listener pauses after a failed accept (e.g. no file descriptor left), so
/// that it does not spin on the connection still waiting.
const ACCEPT_ERROR_PAUSE: Duration = Duration::from_millis(50);

/// The connections `listener` accepts (their calls taking turns at a compute pool of
/// `cores`), at most `max` open at once: at the limit it accepts
/// no more until one closes (the kernel holds the next in its backlog). A failed accept is
/// passed on (tonic logs and skips it) after a pause of `ACCEPT_ERROR_PAUSE`.
pub fn connections(
    listener: TcpListener,
    max: usize,
    cores: usize,
) -> impl tokio_stream::Stream<Item = std::io::Result<Connection>> {
    let slots = Arc::new(Semaphore::new(max));
    let accepted = TcpIncoming::from(listener).with_nodelay(Some(true));
    futures_util::stream::unfold((accepted, slots), move |(mut accepted, slots)| async move {
        // The semaphore is never closed: `None` does not happen.
        let slot = slots.clone().acquire_owned().await.ok()?;
        let next = match accepted.next().await? {
            Ok(stream) => Ok(Connection::holding(stream, Some(slot), cores)),
            Err(e) => {
                tracing::warn!(error = %e, "accepting a connection failed");
                tokio::time::sleep(ACCEPT_ERROR_PAUSE).await;
                Err(e)
            }
        };
        Some((next, (accepted, slots)))
    })
}
