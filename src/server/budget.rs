//! The server-wide budget of bytes held for clients: request messages being received and
//! answers not yet taken by their clients (`--max-buffered-bytes`).
//!
//! - A request's bytes are charged as they arrive, then [`DECODED_PER_BYTE`] times as many
//!   for its decoded form, all held until its call ends; a request that finds the budget
//!   spent is answered `RESOURCE_EXHAUSTED` (`OVERLOADED`) at once.
//! - An answer is charged from the moment it is ready until its client has taken it; one
//!   that does not fit is dropped and the call answered `RESOURCE_EXHAUSTED` (`OVERLOADED`).
//!   An answer is handed to HTTP/2 [`CHUNK_BYTES`] at a time, as the client's flow-control
//!   window lets it leave, so what waits stays here, charged; an answer that is not taken
//!   within `--request-timeout-ms` of being ready is dropped (its stream is reset) and its
//!   bytes freed, whether or not the client ever reads again.
//!
//! With it, the bytes held for slow or stalled readers are bounded by the configuration, not
//! by what clients do (see the README's "Limits and protection").

use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use http_body::{Body as _, Frame, SizeHint};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::AbortHandle;
use tonic::Status;
use tonic::body::Body;

/// The most bytes of an answer handed to HTTP/2 at once (copied out of the answer, so that
/// what HTTP/2 still holds for a stalled stream never keeps the whole answer alive).
pub const CHUNK_BYTES: usize = 64 * 1024;

/// Bytes charged per byte of a received request for its decoded form while its call runs:
/// a packed list of small numbers, the densest encoding the API takes, decodes to four bytes
/// per encoded byte (`i32`); strings and messages to about one.
pub const DECODED_PER_BYTE: usize = 4;

// `Config::validate` asks for a budget of at least this many largest requests.
const _: () = assert!(1 + DECODED_PER_BYTE == 5);

/// The charge of a handler's answer, put by the handler in the response's extensions for
/// the guard, which holds it until the answer is taken (see [`Pending`]).
#[derive(Debug, Clone)]
pub struct Held(Arc<Mutex<Option<Charge>>>);

impl Held {
    /// `charge`, to travel with a response.
    pub fn new(charge: Charge) -> Self {
        Held(Arc::new(Mutex::new(Some(charge))))
    }

    /// The charge (once).
    pub fn take(&self) -> Charge {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
            .unwrap_or_else(Charge::none)
    }
}

/// The budget (cheap to clone: one shared count).
#[derive(Debug, Clone)]
pub struct Budget {
    bytes: Arc<Semaphore>,
    limit: usize,
}

/// Bytes taken from the budget; given back when dropped.
#[derive(Debug)]
pub struct Charge(Option<OwnedSemaphorePermit>);

impl Budget {
    /// A budget of `limit` bytes.
    pub fn new(limit: usize) -> Self {
        let limit = limit.min(Semaphore::MAX_PERMITS);
        Budget {
            bytes: Arc::new(Semaphore::new(limit)),
            limit,
        }
    }

    /// The error of a call that found the budget spent.
    pub fn spent(&self) -> super::status::ApiError {
        super::status::ApiError::BufferFull { limit: self.limit }
    }

    /// A charge of `bytes`, if the budget has them now.
    pub fn take(&self, bytes: usize) -> Result<Charge, Spent> {
        let mut charge = Charge::none();
        self.charge(&mut charge, bytes)?;
        Ok(charge)
    }

    /// `bytes` more on `charge`, if the budget has them now.
    pub fn charge(&self, charge: &mut Charge, bytes: usize) -> Result<(), Spent> {
        if bytes == 0 {
            return Ok(());
        }
        let n = u32::try_from(bytes).map_err(|_| Spent)?;
        let permit = Arc::clone(&self.bytes)
            .try_acquire_many_owned(n)
            .map_err(|_| Spent)?;
        match &mut charge.0 {
            Some(held) => held.merge(permit),
            None => charge.0 = Some(permit),
        }
        Ok(())
    }
}

impl Charge {
    /// Nothing charged yet.
    pub fn none() -> Self {
        Charge(None)
    }
}

/// The budget has not the bytes asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spent;

/// Why a request body could not be received.
#[derive(Debug)]
pub enum Unreceived {
    /// The budget is spent.
    Spent,
    /// The client reset the stream or the connection failed.
    Failed(Status),
}

/// The body of a request up to its end or the end of its first message (a unary call reads
/// no more), its bytes charged to `budget` as they arrive. Reading also stops after
/// `max_bytes` (the caller passes what it has on, and the decoder rejects the message by its
/// length prefix).
pub async fn receive(
    mut body: Body,
    budget: &Budget,
    max_bytes: usize,
) -> Result<(Bytes, Charge), Unreceived> {
    let mut charge = Charge::none();
    let mut received = BytesMut::new();
    while received.len() <= max_bytes {
        let Some(frame) = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await
        else {
            break;
        };
        let frame = frame.map_err(Unreceived::Failed)?;
        // A request's trailers carry nothing a unary call reads.
        if let Ok(data) = frame.into_data() {
            budget
                .charge(&mut charge, data.len())
                .map_err(|Spent| Unreceived::Spent)?;
            received.extend_from_slice(&data);
            if first_message_complete(&received) {
                drain_rest(body);
                break;
            }
        }
    }
    Ok((received.freeze(), charge))
}

/// How long the rest of a request body is read after its first message.
const DRAIN_WITHIN: Duration = Duration::from_secs(1);

/// The rest of a request body after its first message (normally just its end), read and
/// dropped in the background for at most [`DRAIN_WITHIN`], so that the call is not kept
/// waiting by a client that keeps its stream open. An HTTP/1.1 request body dropped before
/// its end closes the connection after the answer, and a gRPC-Web client that reuses the
/// connection then fails (`EPIPE`).
fn drain_rest(mut body: Body) {
    if body.is_end_stream() {
        return;
    }
    tokio::spawn(async move {
        let drain = async {
            while let Some(Ok(_)) =
                std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await
            {}
        };
        let _ = tokio::time::timeout(DRAIN_WITHIN, drain).await;
    });
}

/// Whether `received` holds a whole gRPC message: its 5-byte prefix (compression flag, length
/// in four bytes, big-endian) and that many bytes.
fn first_message_complete(received: &[u8]) -> bool {
    let Some(prefix) = received.get(..5) else {
        return false;
    };
    let length = u32::from_be_bytes([prefix[1], prefix[2], prefix[3], prefix[4]]);
    usize::try_from(length).is_ok_and(|length| received.len() - 5 >= length)
}

/// An answer's body, charged until it is taken, dropped if it is not taken in time.
pub struct Pending {
    /// The answer's body and its charge; emptied by the reaper when the answer is late.
    slot: Arc<Mutex<Option<(Body, Charge)>>>,
    /// What is left of the data frame being handed over.
    rest: Bytes,
    reaper: AbortHandle,
}

impl Pending {
    /// `body`, holding `charge` until it is sent or dropped, and dropped (with a reset
    /// stream) if it is still unsent `within` from now. Must be called inside the runtime.
    pub fn new(body: Body, charge: Charge, within: Duration) -> Self {
        let slot = Arc::new(Mutex::new(Some((body, charge))));
        let late = Arc::downgrade(&slot);
        let reaper = tokio::spawn(async move {
            tokio::time::sleep(within).await;
            if let Some(slot) = late.upgrade() {
                let answer = slot.lock().unwrap_or_else(PoisonError::into_inner).take();
                drop(answer);
                tracing::debug!(?within, "an answer not taken in time was dropped");
            }
        })
        .abort_handle();
        Pending {
            slot,
            rest: Bytes::new(),
            reaper,
        }
    }

    /// The next chunk of at most [`CHUNK_BYTES`] of what is left.
    fn next_chunk(&mut self) -> Bytes {
        if self.rest.len() <= CHUNK_BYTES {
            std::mem::take(&mut self.rest)
        } else {
            let chunk = Bytes::copy_from_slice(&self.rest[..CHUNK_BYTES]);
            self.rest = self.rest.slice(CHUNK_BYTES..);
            chunk
        }
    }
}

impl std::fmt::Debug for Pending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pending")
            .field("rest", &self.rest.len())
            .finish_non_exhaustive()
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        self.reaper.abort();
    }
}

impl http_body::Body for Pending {
    type Data = Bytes;
    type Error = Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Status>>> {
        let this = &mut *self;
        let mut slot = this.slot.lock().unwrap_or_else(PoisonError::into_inner);
        let Some((body, _charge)) = slot.as_mut() else {
            // Dropped by the reaper: the stream is reset.
            return Poll::Ready(Some(Err(Status::deadline_exceeded(
                "the answer was not taken in time",
            ))));
        };
        if !this.rest.is_empty() {
            drop(slot);
            return Poll::Ready(Some(Ok(Frame::data(this.next_chunk()))));
        }
        match Pin::new(body).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => match frame.into_data() {
                Ok(data) => {
                    drop(slot);
                    this.rest = data;
                    Poll::Ready(Some(Ok(Frame::data(this.next_chunk()))))
                }
                Err(frame) => Poll::Ready(Some(Ok(frame))),
            },
            Poll::Ready(None) => {
                // Taken in full: the charge goes back now.
                *slot = None;
                drop(slot);
                this.reaper.abort();
                Poll::Ready(None)
            }
            Poll::Ready(Some(Err(status))) => Poll::Ready(Some(Err(status))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        false
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_charge_is_given_back_when_dropped() {
        let budget = Budget::new(100);
        let mut a = Charge::none();
        budget.charge(&mut a, 60).unwrap();
        budget.charge(&mut a, 30).unwrap();
        let mut b = Charge::none();
        assert_eq!(budget.charge(&mut b, 20), Err(Spent));
        drop(a);
        budget.charge(&mut b, 100).unwrap();
    }

    #[test]
    fn a_message_is_complete_with_its_prefix_and_its_length_in_bytes() {
        assert!(!first_message_complete(&[0, 0, 0]));
        assert!(first_message_complete(&[0, 0, 0, 0, 0]));
        assert!(!first_message_complete(&[0, 0, 0, 0, 2, 7]));
        assert!(first_message_complete(&[0, 0, 0, 0, 2, 7, 7]));
        assert!(first_message_complete(&[1, 0, 0, 0, 1, 7, 7]));
    }

    /// A client that sends its whole message but never ends the stream is not kept waiting.
    #[tokio::test]
    async fn receiving_ends_with_the_first_message() {
        use tokio_stream::StreamExt as _;
        let frames = [&[0u8, 0, 0][..], &[0, 3, 1, 2], &[3]]
            .map(|bytes| Ok::<_, Status>(Frame::data(Bytes::copy_from_slice(bytes))));
        let body = http_body_util::StreamBody::new(
            tokio_stream::iter(frames).chain(tokio_stream::pending()),
        );
        let budget = Budget::new(100);
        let received = tokio::time::timeout(
            Duration::from_secs(5),
            receive(Body::new(body), &budget, 1000),
        )
        .await
        .expect("not waiting for the end of the stream");
        let (message, _charge) = received.expect("received");
        assert_eq!(&message[..], [0, 0, 0, 0, 3, 1, 2, 3]);
        assert_eq!(budget.charge(&mut Charge::none(), 93), Err(Spent));
    }

    #[tokio::test]
    async fn an_answer_not_taken_in_time_gives_its_bytes_back() {
        let budget = Budget::new(10);
        let mut charge = Charge::none();
        budget.charge(&mut charge, 10).unwrap();
        let pending = Pending::new(
            Body::new(http_body_util::Full::new(Bytes::from_static(b"answer"))),
            charge,
            Duration::from_millis(200),
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(budget.charge(&mut Charge::none(), 1), Err(Spent));
        tokio::time::sleep(Duration::from_millis(400)).await;
        budget.charge(&mut Charge::none(), 10).unwrap();
        let mut pending = std::pin::pin!(pending);
        let frame = std::future::poll_fn(|cx| pending.as_mut().poll_frame(cx)).await;
        assert!(matches!(frame, Some(Err(_))), "{frame:?}");
    }

    #[tokio::test]
    async fn an_answer_leaves_in_chunks_and_then_gives_its_bytes_back() {
        let budget = Budget::new(10);
        let mut charge = Charge::none();
        budget.charge(&mut charge, 10).unwrap();
        let answer = Bytes::from(vec![7u8; 2 * CHUNK_BYTES + 1]);
        let mut pending = std::pin::pin!(Pending::new(
            Body::new(http_body_util::Full::new(answer)),
            charge,
            Duration::from_secs(5),
        ));
        let mut sizes = Vec::new();
        while let Some(frame) = std::future::poll_fn(|cx| pending.as_mut().poll_frame(cx)).await {
            sizes.push(frame.unwrap().into_data().unwrap().len());
        }
        assert_eq!(sizes, [CHUNK_BYTES, CHUNK_BYTES, 1]);
        budget.charge(&mut Charge::none(), 10).unwrap();
    }
}
