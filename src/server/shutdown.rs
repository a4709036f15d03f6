//! The signals that stop the server: SIGTERM (what Kubernetes and Docker send) and SIGINT
//! (Ctrl-C).

use std::future::Future;

/// Listens for SIGTERM and SIGINT from this call on; the future resolves on the first one.
///
/// The listeners are installed here, not when the future is first polled: `serve` calls this
/// first, right after building the runtime and before telemetry, the configuration check and
/// the port, so a signal that arrives during start-up starts the drain instead of killing the
/// process with the default action. A signal that
/// cannot be listened to is logged and left out; if neither can, the future never resolves.
/// Must be called inside the Tokio runtime.
pub fn signal() -> impl Future<Output = ()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{Signal, SignalKind, signal};

        let listen = |kind: SignalKind, name: &'static str| {
            signal(kind)
                .map_err(|e| tracing::error!(error = %e, "cannot listen for {name}"))
                .ok()
        };
        let mut terminate = listen(SignalKind::terminate(), "SIGTERM");
        let mut interrupt = listen(SignalKind::interrupt(), "SIGINT");
        async move {
            async fn received(signal: Option<&mut Signal>) {
                match signal {
                    Some(signal) => {
                        signal.recv().await;
                    }
                    None => std::future::pending().await,
                }
            }
            tokio::select! {
                () = received(interrupt.as_mut()) => tracing::info!("SIGINT received"),
                () = received(terminate.as_mut()) => tracing::info!("SIGTERM received"),
            }
        }
    }
    #[cfg(not(unix))]
    {
        async {
            if let Err(e) = tokio::signal::ctrl_c().await {
                tracing::error!(error = %e, "cannot listen for Ctrl-C");
                std::future::pending::<()>().await;
            }
            tracing::info!("Ctrl-C received");
        }
    }
}
