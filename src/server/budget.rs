//! The server-wide budget of bytes held for clients: request messages being received and
//! answers not yet taken by their clients (`--max-buffered-bytes`).
//!
//! - Every charge is a client's (its connection's: [`super::client`]), and a client may hold
//!   at most half of what the other clients leave of the budget.
//! - A request's bytes are charged as they arrive, then [`DECODED_PER_BYTE`] times as many
//!   for its decoded form, all held until its call ends; a request that finds the budget
//!   (or its client's share) spent is answered `RESOURCE_EXHAUSTED` (`OVERLOADED`) at once.
//! - An answer is charged from the moment it is ready until it is written out; one that does
//!   not fit is dropped and the call answered `RESOURCE_EXHAUSTED` (`OVERLOADED`). An answer
//!   is handed to HTTP/2 [`CHUNK_BYTES`] at a time, as the client's flow-control window lets
//!   it leave, each chunk charged until HTTP/2 drops it ([`Pending`]); an answer not written
//!   out within `--request-timeout-ms` of being ready is dropped and its connection closed,
//!   which frees every byte of it, whether or not the client ever reads again.
//!
//! With it, the bytes held for slow or stalled readers are bounded by the configuration, not
//! by what clients do (see `docs/limits.md`).

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::{Buf as _, Bytes, BytesMut};
use http_body::{Body as _, Frame, SizeHint};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tonic::Status;
use tonic::body::Body;

use super::client::{Client, Holders, within_share};

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
    /// The clients holding some of it.
    holders: Arc<Holders>,
    limit: usize,
}

/// Bytes taken from the budget for a client (its connection); given back when dropped.
#[derive(Debug)]
pub struct Charge {
    permit: Option<OwnedSemaphorePermit>,
    /// The client, and the budget's holders it is counted among.
    client: Option<(Arc<Client>, Arc<Holders>)>,
}

impl Budget {
    /// A budget of `limit` bytes.
    pub fn new(limit: usize) -> Self {
        let limit = limit.min(Semaphore::MAX_PERMITS);
        Budget {
            bytes: Arc::new(Semaphore::new(limit)),
            holders: Arc::new(Holders::default()),
            limit,
        }
    }

    /// The error of a call that found the budget spent.
    pub fn spent(&self) -> super::status::ApiError {
        super::status::ApiError::BufferFull { limit: self.limit }
    }

    /// Bytes held now, by every client.
    pub fn in_use(&self) -> usize {
        self.limit - self.bytes.available_permits().min(self.limit)
    }

    /// A charge of `bytes` for `client`, if the budget has them now and they are within the
    /// client's share.
    pub fn take(&self, client: Option<&Arc<Client>>, bytes: usize) -> Result<Charge, Spent> {
        let mut charge = self.charge_of(client);
        self.charge(&mut charge, bytes)?;
        Ok(charge)
    }

    /// Nothing charged yet, for `client`.
    pub fn charge_of(&self, client: Option<&Arc<Client>>) -> Charge {
        Charge {
            permit: None,
            client: client.map(|client| (Arc::clone(client), Arc::clone(&self.holders))),
        }
    }

    /// `bytes` more on `charge`, if the budget has them now and they are within its client's
    /// share ([`within_share`]). `charge` must be of this budget.
    pub fn charge(&self, charge: &mut Charge, bytes: usize) -> Result<(), Spent> {
        if bytes == 0 {
            return Ok(());
        }
        if let Some((client, _)) = &charge.client
            && !within_share(
                client.bytes(),
                bytes,
                self.in_use(),
                self.holders.count(),
                self.limit,
            )
        {
            return Err(Spent);
        }
        let n = u32::try_from(bytes).map_err(|_| Spent)?;
        let permit = Arc::clone(&self.bytes)
            .try_acquire_many_owned(n)
            .map_err(|_| Spent)?;
        if let Some((client, holders)) = &charge.client {
            client.hold_bytes(bytes, holders);
        }
        match &mut charge.permit {
            Some(held) => held.merge(permit),
            None => charge.permit = Some(permit),
        }
        Ok(())
    }
}

impl Charge {
    /// Nothing charged yet, for no client (tests, and what the server itself holds).
    pub fn none() -> Self {
        Charge {
            permit: None,
            client: None,
        }
    }

    /// The bytes charged.
    pub fn bytes(&self) -> usize {
        self.permit
            .as_ref()
            .map_or(0, OwnedSemaphorePermit::num_permits)
    }

    /// Up to `bytes` of this charge, moved to a charge of their own (for the same client).
    #[must_use]
    pub fn split(&mut self, bytes: usize) -> Charge {
        let bytes = bytes.min(self.bytes());
        let permit = match &mut self.permit {
            // All of it (a small answer in one chunk): moved, not split.
            Some(permit) if bytes == permit.num_permits() => self.permit.take(),
            Some(permit) if bytes > 0 => permit.split(bytes),
            Some(_) | None => None,
        };
        Charge {
            permit,
            client: self.client.clone(),
        }
    }
}

impl Drop for Charge {
    fn drop(&mut self) {
        if let Some((client, holders)) = &self.client {
            client.release_bytes(self.bytes(), holders);
        }
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
/// no more), its bytes charged to `budget` for `client` as they arrive. Reading also stops after
/// `max_bytes` (the caller passes what it has on, and the decoder rejects the message by its
/// length prefix).
pub async fn receive(
    mut body: Body,
    budget: &Budget,
    client: Option<&Arc<Client>>,
    max_bytes: usize,
) -> Result<(Bytes, Charge), Unreceived> {
    let mut charge = budget.charge_of(client);
    // The first data frame as it came: a unary request's message normally arrives in one, and
    // is then passed on without a copy. Frames after it are appended to a copy of it.
    let mut first: Option<Bytes> = None;
    let mut received = BytesMut::new();
    while first.as_ref().map_or(received.len(), Bytes::len) <= max_bytes {
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
            match first.take() {
                None if received.is_empty() => first = Some(data),
                Some(earlier) => {
                    received.extend_from_slice(&earlier);
                    received.extend_from_slice(&data);
                }
                None => received.extend_from_slice(&data),
            }
            if first_message_complete(first.as_deref().unwrap_or(&received)) {
                drain_rest(body).await;
                break;
            }
        }
    }
    Ok((first.unwrap_or_else(|| received.freeze()), charge))
}

/// How long the rest of a request body is read after its first message.
const DRAIN_WITHIN: Duration = Duration::from_secs(1);

/// The rest of a request body after its first message (normally just its end), read and
/// dropped in the background for at most [`DRAIN_WITHIN`], so that the call is not kept
/// waiting by a client that keeps its stream open. An HTTP/1.1 request body dropped before
/// its end closes the connection after the answer, and a gRPC-Web client that reuses the
/// connection then fails (`EPIPE`).
///
/// What has already arrived is read at once, here: the end of a gRPC request's stream
/// normally comes in the same read as its message, and a task of its own to find it cost
/// about as much as the rest of the call's admission (spawning, scheduling and dropping it:
/// 3,500 instructions of a `ScoreHand`'s 77,000 in the server).
async fn drain_rest(mut body: Body) {
    if body.is_end_stream() {
        return;
    }
    let ended = std::future::poll_fn(|cx| {
        loop {
            match Pin::new(&mut body).poll_frame(cx) {
                Poll::Ready(Some(Ok(_))) => {}
                Poll::Ready(None | Some(Err(_))) => return Poll::Ready(true),
                Poll::Pending => return Poll::Ready(false),
            }
        }
    })
    .await;
    if ended {
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

/// An answer's body, charged until its client has taken it, dropped if that takes too long.
///
/// Every byte of it stays charged until it is freed: what is not yet handed to HTTP/2 by
/// the answer's charge, each chunk handed over by a charge of its own, which goes when HTTP/2
/// has written the chunk out (or drops it with its stream). A data frame of at most
/// [`CHUNK_BYTES`] is handed over as it is: every answer above 16 KiB comes from the compute
/// pool already in such pieces, each an allocation of its own
/// ([`super::compute::ComputePool::encode`]), so a piece's memory goes with its charge. A
/// larger frame (none in practice) is handed over in copies of at most [`CHUNK_BYTES`]; its
/// memory goes only with its last copy, so it is held a little longer than it is charged.
///
/// If the answer is not all written out within its [`Reaper`]'s time, what is left of it is
/// dropped and its connection closed ([`Client::close`]), which frees what HTTP/2 holds for it
/// too.
pub struct Pending {
    answer: Arc<Answer>,
}

/// What a [`Pending`] body and the chunks it handed over share.
struct Answer {
    /// What is not yet handed over; `None` once the body has ended or the answer was late.
    unsent: Mutex<Option<Unsent>>,
    /// Whether the answer was dropped for being late.
    late: AtomicBool,
    /// The answer's connection.
    client: Option<Arc<Client>>,
}

/// What is not yet handed over of an answer.
struct Unsent {
    body: Body,
    /// What is left of the data frame being handed over.
    rest: Bytes,
    /// Whether `rest` is a whole data frame (handed over as it is when small).
    whole: bool,
    /// The charge of what is not yet handed over.
    charge: Charge,
}

/// A chunk handed to HTTP/2: its bytes, their charge, and the answer it belongs to (whose
/// timer runs while any chunk of it is unwritten).
struct Chunk {
    bytes: Bytes,
    _charge: Charge,
    _answer: Arc<Answer>,
}

impl AsRef<[u8]> for Chunk {
    fn as_ref(&self) -> &[u8] {
        &self.bytes
    }
}

impl Pending {
    /// `body`, holding `charge` until it is written out, and dropped (its connection closed)
    /// if that takes longer than `reaper`'s time from now. Must be called inside the runtime.
    pub fn new(body: Body, charge: Charge, reaper: &Reaper) -> Self {
        let answer = Arc::new(Answer {
            client: charge.client.as_ref().map(|(client, _)| Arc::clone(client)),
            unsent: Mutex::new(Some(Unsent {
                body,
                rest: Bytes::new(),
                whole: false,
                charge,
            })),
            late: AtomicBool::new(false),
        });
        reaper.watch(&answer);
        Pending { answer }
    }
}

impl Answer {
    /// Drops what is left and closes the connection (whose streams then drop what HTTP/2
    /// holds).
    fn drop_late(&self) {
        self.late.store(true, Ordering::Release);
        let unsent = lock(&self.unsent).take();
        drop(unsent);
        if let Some(client) = &self.client {
            client.close();
        }
    }
}

/// The least time between two rounds of the [`Reaper`]: an answer is dropped at most this
/// much after its time.
const REAP_GRANULARITY: Duration = Duration::from_millis(5);

/// The fewest entries the [`Reaper`] holds before sweeping out those of answers already gone.
const REAP_SWEEP_MIN: usize = 1024;

/// What drops the answers of a server that are not taken within its time (the request
/// timeout): one task, running while any answer is watched, for every answer.
///
/// A timer task per answer cost about 2,000 instructions a call (spawning, arming, aborting
/// and freeing it) out of a `ScoreHand`'s 77,000 in the server. Here an answer is an entry in
/// a queue, in the order of the answers and so of their deadlines (every answer has the same
/// time); an answer already gone leaves a dead entry, swept out when the task comes to it or
/// when dead entries have doubled the queue.
#[derive(Debug, Clone)]
pub struct Reaper(Arc<Reaping>);

#[derive(Debug)]
struct Reaping {
    within: Duration,
    queue: Mutex<Watched>,
}

#[derive(Debug, Default)]
struct Watched {
    /// The answers watched, and their deadlines, earliest first.
    answers: VecDeque<(tokio::time::Instant, Weak<Answer>)>,
    /// The length of `answers` at which the entries of answers already gone are swept out.
    sweep_at: usize,
    /// Whether the task runs.
    running: bool,
}

impl Reaper {
    /// A reaper of the answers not taken within `within` of being ready.
    pub fn new(within: Duration) -> Self {
        Reaper(Arc::new(Reaping {
            within,
            queue: Mutex::new(Watched {
                sweep_at: REAP_SWEEP_MIN,
                ..Watched::default()
            }),
        }))
    }

    /// Watches `answer`, from now. Must be called inside the runtime.
    fn watch(&self, answer: &Arc<Answer>) {
        let deadline = tokio::time::Instant::now() + self.0.within;
        let mut watched = lock(&self.0.queue);
        if watched.answers.len() >= watched.sweep_at {
            watched
                .answers
                .retain(|(_, answer)| answer.strong_count() > 0);
            watched.sweep_at = (2 * watched.answers.len()).max(REAP_SWEEP_MIN);
        }
        watched
            .answers
            .push_back((deadline, Arc::downgrade(answer)));
        if !watched.running {
            watched.running = true;
            drop(watched);
            tokio::spawn(reap(Arc::clone(&self.0)));
        }
    }
}

/// The reaper's task: drops every late answer, then sleeps until the next answer's deadline;
/// ends when no answer is left to watch.
async fn reap(reaping: Arc<Reaping>) {
    // Marks the task stopped if it is dropped unfinished (its runtime shuts down).
    struct Running<'a>(&'a Reaping, bool);
    impl Drop for Running<'_> {
        fn drop(&mut self) {
            if self.1 {
                lock(&self.0.queue).running = false;
            }
        }
    }
    let mut running = Running(&reaping, true);
    loop {
        let now = tokio::time::Instant::now();
        let mut late = Vec::new();
        let next = {
            let mut watched = lock(&reaping.queue);
            while let Some((deadline, answer)) = watched.answers.front() {
                if answer.strong_count() > 0 && *deadline > now {
                    break;
                }
                if let Some(answer) = answer.upgrade() {
                    late.push(answer);
                }
                watched.answers.pop_front();
            }
            let next = watched.answers.front().map(|(deadline, _)| *deadline);
            if next.is_none() {
                watched.running = false;
                running.1 = false;
            }
            next
        };
        for answer in late {
            answer.drop_late();
            tracing::debug!(within = ?reaping.within, "an answer not taken in time was dropped");
        }
        let Some(next) = next else { return };
        tokio::time::sleep_until(next.max(now + REAP_GRANULARITY)).await;
    }
}

impl Unsent {
    /// The next chunk of at most [`CHUNK_BYTES`] of `rest`, charged, belonging to `answer`.
    fn next_chunk(&mut self, answer: &Arc<Answer>) -> Bytes {
        let bytes = if self.whole && self.rest.len() <= CHUNK_BYTES {
            std::mem::take(&mut self.rest)
        } else {
            let n = self.rest.len().min(CHUNK_BYTES);
            let chunk = Bytes::copy_from_slice(&self.rest[..n]);
            self.rest.advance(n);
            if self.rest.is_empty() {
                // An empty slice would still keep the frame's memory.
                self.rest = Bytes::new();
            }
            chunk
        };
        self.whole = false;
        let charge = self.charge.split(bytes.len());
        Bytes::from_owner(Chunk {
            bytes,
            _charge: charge,
            _answer: Arc::clone(answer),
        })
    }
}

/// `mutex`'s guard, whether or not a holder panicked (what it guards stays consistent).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl std::fmt::Debug for Pending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let unsent = lock(&self.answer.unsent)
            .as_ref()
            .map(|unsent| unsent.rest.len());
        f.debug_struct("Pending")
            .field("rest", &unsent)
            .finish_non_exhaustive()
    }
}

impl http_body::Body for Pending {
    type Data = Bytes;
    type Error = Status;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Status>>> {
        let answer = &self.answer;
        let mut unsent = lock(&answer.unsent);
        let Some(left) = unsent.as_mut() else {
            if answer.late.load(Ordering::Acquire) {
                // Dropped by the reaper: the stream is reset (if HTTP/2 ever asks again).
                return Poll::Ready(Some(Err(Status::deadline_exceeded(
                    "the answer was not taken in time",
                ))));
            }
            return Poll::Ready(None);
        };
        if left.rest.is_empty() {
            match Pin::new(&mut left.body).poll_frame(cx) {
                Poll::Ready(Some(Ok(frame))) => match frame.into_data() {
                    Ok(data) => {
                        left.rest = data;
                        left.whole = true;
                    }
                    Err(frame) => return Poll::Ready(Some(Ok(frame))),
                },
                Poll::Ready(None) => {
                    // All handed over: what was charged beyond the chunks goes back now.
                    *unsent = None;
                    return Poll::Ready(None);
                }
                Poll::Ready(Some(Err(status))) => return Poll::Ready(Some(Err(status))),
                Poll::Pending => return Poll::Pending,
            }
            if left.rest.is_empty() {
                return Poll::Ready(Some(Ok(Frame::data(Bytes::new()))));
            }
        }
        Poll::Ready(Some(Ok(Frame::data(left.next_chunk(answer)))))
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
            receive(Body::new(body), &budget, None, 1000),
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
            &Reaper::new(Duration::from_millis(200)),
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
            &Reaper::new(Duration::from_secs(5)),
        ));
        let mut sizes = Vec::new();
        while let Some(frame) = std::future::poll_fn(|cx| pending.as_mut().poll_frame(cx)).await {
            sizes.push(frame.unwrap().into_data().unwrap().len());
        }
        assert_eq!(sizes, [CHUNK_BYTES, CHUNK_BYTES, 1]);
        budget.charge(&mut Charge::none(), 10).unwrap();
    }

    /// The charge of a chunk handed to HTTP/2 goes back only when HTTP/2 drops the chunk.
    #[tokio::test]
    async fn a_chunk_stays_charged_until_it_is_dropped() {
        let budget = Budget::new(3 * CHUNK_BYTES);
        let answer = Bytes::from(vec![7u8; 2 * CHUNK_BYTES]);
        let charge = budget.take(None, answer.len()).unwrap();
        let mut pending = std::pin::pin!(Pending::new(
            Body::new(http_body_util::Full::new(answer)),
            charge,
            &Reaper::new(Duration::from_secs(5)),
        ));
        let mut chunks = Vec::new();
        while let Some(frame) = std::future::poll_fn(|cx| pending.as_mut().poll_frame(cx)).await {
            chunks.push(frame.unwrap().into_data().unwrap());
        }
        assert_eq!(
            budget.in_use(),
            2 * CHUNK_BYTES,
            "the body is done, not its chunks"
        );
        chunks.pop();
        assert_eq!(budget.in_use(), CHUNK_BYTES);
        chunks.clear();
        assert_eq!(budget.in_use(), 0);
    }

    /// An answer stuck behind a chunk nobody takes is dropped in time: what was left of it
    /// goes back at once, and its connection is closed so that the chunk goes too.
    #[tokio::test]
    async fn a_late_answer_gives_back_its_rest_and_closes_its_connection() {
        let budget = Budget::new(8 * CHUNK_BYTES);
        let client = Client::new(1);
        let answer = Bytes::from(vec![7u8; 3 * CHUNK_BYTES]);
        let charge = budget.take(Some(&client), answer.len()).unwrap();
        assert_eq!(client.bytes(), 3 * CHUNK_BYTES);
        let mut pending = std::pin::pin!(Pending::new(
            Body::new(http_body_util::Full::new(answer)),
            charge,
            &Reaper::new(Duration::from_millis(100)),
        ));
        let stuck = std::future::poll_fn(|cx| pending.as_mut().poll_frame(cx))
            .await
            .unwrap()
            .unwrap()
            .into_data()
            .unwrap();
        assert!(!client.is_closed());
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(client.is_closed(), "the connection is closed");
        assert_eq!(budget.in_use(), CHUNK_BYTES, "only the chunk HTTP/2 holds");
        assert_eq!(client.bytes(), CHUNK_BYTES);
        let next = std::future::poll_fn(|cx| pending.as_mut().poll_frame(cx)).await;
        assert!(matches!(next, Some(Err(_))), "{next:?}");
        drop(stuck);
        assert_eq!((budget.in_use(), client.bytes()), (0, 0));
    }

    /// A small answer, handed over whole at once, is late if its chunk is not written out
    /// (dropped by HTTP/2) in time, and on time if it is.
    #[tokio::test]
    async fn an_answer_is_taken_when_its_chunks_are_written_out() {
        let budget = Budget::new(100);
        let client = Client::new(1);
        let charge = budget.take(Some(&client), 6).unwrap();
        let mut pending = std::pin::pin!(Pending::new(
            Body::new(http_body_util::Full::new(Bytes::from_static(b"answer"))),
            charge,
            &Reaper::new(Duration::from_millis(100)),
        ));
        let chunk = std::future::poll_fn(|cx| pending.as_mut().poll_frame(cx))
            .await
            .unwrap()
            .unwrap()
            .into_data()
            .unwrap();
        assert!(
            std::future::poll_fn(|cx| pending.as_mut().poll_frame(cx))
                .await
                .is_none()
        );
        assert_eq!(&chunk[..], b"answer");
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(client.is_closed(), "its one chunk was never written out");
        assert_eq!(budget.in_use(), 6, "and it stays charged");
        drop(chunk);

        let client = Client::new(1);
        let charge = budget.take(Some(&client), 6).unwrap();
        let mut pending = Box::pin(Pending::new(
            Body::new(http_body_util::Full::new(Bytes::from_static(b"answer"))),
            charge,
            &Reaper::new(Duration::from_millis(100)),
        ));
        let chunk = std::future::poll_fn(|cx| pending.as_mut().poll_frame(cx)).await;
        drop(chunk);
        assert!(
            std::future::poll_fn(|cx| pending.as_mut().poll_frame(cx))
                .await
                .is_none()
        );
        // HTTP/2 drops a body once it has ended.
        drop(pending);
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(!client.is_closed(), "written out in time");
        assert_eq!(budget.in_use(), 0);
    }

    #[test]
    fn a_client_takes_at_most_half_of_what_the_others_leave() {
        let budget = Budget::new(100);
        let (a, b) = (Client::new(1), Client::new(1));
        assert_eq!(budget.take(Some(&a), 51).err(), Some(Spent));
        let held_a = budget.take(Some(&a), 50).unwrap();
        // Two holders: a part in three each (rounded up).
        assert_eq!(budget.take(Some(&b), 35).err(), Some(Spent));
        let held_b = budget.take(Some(&b), 34).unwrap();
        assert_eq!((a.bytes(), b.bytes(), budget.in_use()), (50, 34, 84));
        assert_eq!(
            budget.take(Some(&a), 1).err(),
            Some(Spent),
            "a is over its share"
        );
        drop(held_a);
        assert_eq!(a.bytes(), 0);
        // Alone again: half.
        assert_eq!(budget.take(Some(&b), 17).err(), Some(Spent));
        let _more_b = budget.take(Some(&b), 16).unwrap();
        drop(held_b);
        assert_eq!(b.bytes(), 16);
    }
}
