//! The CPU work of a call, off the runtime's I/O threads: settlement, penalties, standings
//! and hand analysis run on Tokio's blocking threads, at most one call per core at a time,
//! so that however long one call's work takes, health checks, `/healthz` and the other
//! connections are still served at once.
//!
//! A call waits for a core without holding one; if its deadline passes (or its client goes)
//! while it waits, the work never starts. It first waits for one of its connection's turns
//! (one per core, [`super::client`]), so the calls of one connection queue behind each other
//! and the pool's queue holds at most a few of each connection's.
//!
//! A large answer is also encoded (and compressed) here ([`ComputePool::encode`]): tonic does
//! that as the answer's body is first polled, which would otherwise be on an I/O thread. Work that has started runs to its end (each of
//! these calls is linear in its request, whose repeated fields have maxima:
//! [`crate::limits`]), and its answer is dropped.

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::{Body as _, Frame, SizeHint};
use tokio::sync::Semaphore;
use tonic::Status;
use tonic::body::Body;

use super::budget::CHUNK_BYTES;
use super::client::Client;

/// Runs calls' CPU work on the blocking threads, `cores` calls at a time.
#[derive(Debug, Clone)]
pub struct ComputePool {
    cores: Arc<Semaphore>,
    size: usize,
}

impl ComputePool {
    /// A pool running at most `cores` works at once (at least one).
    pub fn new(cores: usize) -> Self {
        ComputePool {
            cores: Arc::new(Semaphore::new(cores.max(1))),
            size: cores.max(1),
        }
    }

    /// How many works it runs at once.
    pub fn cores(&self) -> usize {
        self.size
    }

    /// A pool with one place per core of this machine.
    pub fn sized_to_cores() -> Self {
        Self::new(std::thread::available_parallelism().map_or(1, std::num::NonZero::get))
    }

    /// The result of `work`, run on a blocking thread once one of `client`'s turns and a core
    /// are free. Dropping the returned future before the work starts (the deadline passed)
    /// means it never does.
    pub async fn run<T, F>(&self, client: Option<&Client>, work: F) -> T
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let turn = match client {
            Some(client) => Some(
                client
                    .turns()
                    .acquire_owned()
                    .await
                    .expect("a client's turns are never closed"),
            ),
            None => None,
        };
        let core = Arc::clone(&self.cores)
            .acquire_owned()
            .await
            .expect("the pool's semaphore is never closed");
        let waiting = Waiting(Arc::new(AtomicBool::new(true)));
        let still_waiting = Arc::clone(&waiting.0);
        let handle = tokio::task::spawn_blocking(move || {
            let _turn = turn;
            let _core = core;
            yield_to_io_threads();
            still_waiting.load(Ordering::Acquire).then(work)
        });
        match handle.await {
            Ok(done) => done.expect("work is skipped only once its caller has gone"),
            Err(join) => std::panic::resume_unwind(join.into_panic()),
        }
    }
}

impl ComputePool {
    /// `body` with its frames made: what tonic encodes and compresses when the body is polled
    /// is done on a blocking thread (in no client's turn: the work that made the answer already
    /// waited for one), data frames cut into pieces of at most [`CHUNK_BYTES`], each an
    /// allocation of its own. Frames come out of tonic's body at once; should one not, the
    /// rest is left to be polled as usual.
    pub async fn encode(&self, body: Body) -> Body {
        Body::new(self.run(None, move || Made::from(body)).await)
    }
}

/// An answer's body whose frames were made in advance ([`ComputePool::encode`]).
struct Made {
    frames: VecDeque<Frame<Bytes>>,
    /// The error the body ended with, after the frames.
    error: Option<Status>,
    /// The body from the first frame that was not ready.
    rest: Option<Body>,
}

impl From<Body> for Made {
    fn from(mut body: Body) -> Self {
        let mut cx = Context::from_waker(std::task::Waker::noop());
        let mut frames = VecDeque::new();
        loop {
            match Pin::new(&mut body).poll_frame(&mut cx) {
                Poll::Ready(Some(Ok(frame))) => match frame.into_data() {
                    // In pieces of their own, so that each piece's memory goes when HTTP/2 has
                    // sent it, not with the last of the answer.
                    Ok(data) if data.len() > CHUNK_BYTES => frames.extend(
                        data.chunks(CHUNK_BYTES)
                            .map(|piece| Frame::data(Bytes::copy_from_slice(piece))),
                    ),
                    Ok(data) => frames.push_back(Frame::data(data)),
                    Err(frame) => frames.push_back(frame),
                },
                Poll::Ready(Some(Err(status))) => {
                    return Made {
                        frames,
                        error: Some(status),
                        rest: None,
                    };
                }
                Poll::Ready(None) => {
                    return Made {
                        frames,
                        error: None,
                        rest: None,
                    };
                }
                Poll::Pending => {
                    return Made {
                        frames,
                        error: None,
                        rest: Some(body),
                    };
                }
            }
        }
    }
}

impl http_body::Body for Made {
    type Data = Bytes;
    type Error = Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Status>>> {
        if let Some(frame) = self.frames.pop_front() {
            return Poll::Ready(Some(Ok(frame)));
        }
        if let Some(status) = self.error.take() {
            return Poll::Ready(Some(Err(status)));
        }
        match &mut self.rest {
            Some(rest) => Pin::new(rest).poll_frame(cx),
            None => Poll::Ready(None),
        }
    }

    fn is_end_stream(&self) -> bool {
        self.frames.is_empty()
            && self.error.is_none()
            && self
                .rest
                .as_ref()
                .is_none_or(http_body::Body::is_end_stream)
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::default()
    }
}

/// The nice value of the threads that run CPU work: above the I/O threads' 0, so that a
/// health check or a scoring call waking up on an I/O thread runs before a long analysis,
/// replay or encoding goes on (a thread of nice 5 weighs about a third of one of nice 0 when
/// both want the same core). Measured: under a flood of large replays, the slowest health
/// check went from 7–11 ms to 3–6 ms, `ScoreHand`'s p99 from 3.4–5.8 ms to 1.9–2.4 ms.
const WORK_NICENESS: i32 = 5;

/// [`WORK_NICENESS`] as `thread_priority`'s cross-platform value (0–99, mapped onto nice 19
/// to −20); the unit test reads the nice value back.
const WORK_PRIORITY: u8 = 35;

/// Lowers the calling blocking thread's priority to [`WORK_NICENESS`], once per thread; a
/// system that refuses leaves it as it is.
fn yield_to_io_threads() {
    thread_local! {
        static LOWERED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    if LOWERED.get() {
        return;
    }
    LOWERED.set(true);
    if niceness().is_some_and(|nice| nice >= WORK_NICENESS) {
        // Started lower than that already: never raise a thread.
        return;
    }
    let lowered = thread_priority::ThreadPriorityValue::try_from(WORK_PRIORITY)
        .map_err(|e| format!("{e:?}"))
        .and_then(|p| {
            thread_priority::set_current_thread_priority(
                thread_priority::ThreadPriority::Crossplatform(p),
            )
            .map_err(|e| format!("{e:?}"))
        });
    if let Err(e) = lowered {
        tracing::debug!(
            error = e,
            niceness = WORK_NICENESS,
            "CPU work runs at the I/O threads' priority"
        );
    }
}

/// The calling thread's nice value, where the system tells it (Linux).
fn niceness() -> Option<i32> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // After the name in parentheses: the state is field 3, the nice value field 19.
    let after = stat.get(stat.rfind(')')? + 2..)?;
    after.split(' ').nth(16)?.parse().ok()
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
            async move { pool.run(None, move || released.recv().ok()).await }
        });
        tokio::task::yield_now().await;
        let flag = Arc::clone(&started);
        let waiting = pool.run(None, move || flag.store(true, Ordering::SeqCst));
        assert!(
            tokio::time::timeout(Duration::from_millis(50), waiting)
                .await
                .is_err()
        );
        release.send(()).unwrap();
        assert_eq!(busy.await.unwrap(), Some(()));
        assert_eq!(pool.run(None, || 7).await, 7);
        assert!(!started.load(Ordering::SeqCst));
    }

    /// CPU work runs below the I/O threads' priority (Linux: the thread's nice value), and is
    /// never raised above it.
    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn work_runs_at_a_lower_priority() {
        let pool = ComputePool::new(1);
        let io_thread = niceness().expect("Linux tells");
        let worker = pool.run(None, niceness).await.expect("Linux tells");
        assert_eq!(worker, io_thread.max(WORK_NICENESS));
    }
}
