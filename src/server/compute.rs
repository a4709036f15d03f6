//! The CPU work of a call, off the runtime's I/O threads: settlement, penalties, standings
//! and hand analysis run on Tokio's blocking threads, at most one call per core at a time,
//! so that however long one call's work takes, health checks, `/healthz` and the other
//! connections are still served at once.
//!
//! A call waits for a core without holding one; if its deadline passes (or its client goes)
//! while it waits, the work never starts. Work that has started runs to its end (each of
//! these calls is linear in its request, whose repeated fields have maxima:
//! [`crate::limits`]), and its answer is dropped.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::Semaphore;

/// Runs calls' CPU work on the blocking threads, `cores` calls at a time.
#[derive(Debug, Clone)]
pub struct ComputePool {
    cores: Arc<Semaphore>,
}

impl ComputePool {
    /// A pool running at most `cores` works at once (at least one).
    pub fn new(cores: usize) -> Self {
        ComputePool {
            cores: Arc::new(Semaphore::new(cores.max(1))),
        }
    }

    /// A pool with one place per core of this machine.
    pub fn sized_to_cores() -> Self {
        Self::new(std::thread::available_parallelism().map_or(1, std::num::NonZero::get))
    }

    /// The result of `work`, run on a blocking thread once a core is free. Dropping the
    /// returned future before the work starts (the deadline passed) means it never does.
    pub async fn run<T, F>(&self, work: F) -> T
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let core = Arc::clone(&self.cores)
            .acquire_owned()
            .await
            .expect("the pool's semaphore is never closed");
        let waiting = Waiting(Arc::new(AtomicBool::new(true)));
        let still_waiting = Arc::clone(&waiting.0);
        let handle = tokio::task::spawn_blocking(move || {
            let _core = core;
            still_waiting.load(Ordering::Acquire).then(work)
        });
        match handle.await {
            Ok(done) => done.expect("work is skipped only once its caller has gone"),
            Err(join) => std::panic::resume_unwind(join.into_panic()),
        }
    }
}

/// Whether the caller of [`ComputePool::run`] still waits: `false` once its future is
/// dropped.
struct Waiting(Arc<AtomicBool>);

impl Drop for Waiting {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn work_whose_caller_has_gone_never_starts() {
        let pool = ComputePool::new(1);
        let started = Arc::new(AtomicBool::new(false));
        let (release, released) = std::sync::mpsc::channel::<()>();
        // The only core, held until released.
        let busy = tokio::spawn({
            let pool = pool.clone();
            async move { pool.run(move || released.recv().ok()).await }
        });
        tokio::task::yield_now().await;
        let flag = Arc::clone(&started);
        let waiting = pool.run(move || flag.store(true, Ordering::SeqCst));
        assert!(
            tokio::time::timeout(Duration::from_millis(50), waiting)
                .await
                .is_err()
        );
        release.send(()).unwrap();
        assert_eq!(busy.await.unwrap(), Some(()));
        assert_eq!(pool.run(|| 7).await, 7);
        assert!(!started.load(Ordering::SeqCst));
    }
}
