//! Admission and deadlines of the referee's calls, as a wrapper around `MahjongServiceServer`
//! alone, so that health checks and reflection are never shed or timed out.
//!
//! - **The message first**: a call's request message is received (within its deadline, its
//!   bytes charged to the budget of bytes held for clients: [`super::budget`]) before the
//!   call counts against the limit below, so that clients that send slowly hold no call slot.
//! - **Load shedding**: at most `--max-concurrent-requests` calls in flight; one more is
//!   answered `RESOURCE_EXHAUSTED` at once instead of queueing.
//! - **Answers held for their readers**: an answer keeps the charge its handler took until its
//!   client has taken it, and is dropped if that takes longer than `--request-timeout-ms`.
//! - **Deadline**: the smaller of the client's `grpc-timeout` and `--request-timeout-ms`;
//!   when it passes the call is dropped and answered `DEADLINE_EXCEEDED`. (tonic's own timeout
//!   answers `CANCELLED`. It still runs outside this wrapper on the client's `grpc-timeout`, but
//!   this deadline starts first and is checked first, so it always wins.)
//! - **Transport errors**: tonic answers a request above the size limit with `OUT_OF_RANGE`
//!   and an undecodable one with `INTERNAL`, without details; they are rewritten to
//!   `RESOURCE_EXHAUSTED` and `INVALID_ARGUMENT` with an `ErrorInfo` ([`status::from_transport`]).
//! - **`ScoreHand` answered here**: a plain `ScoreHand` call (an uncompressed message of at
//!   most `--max-message-bytes`, no compressed answer asked for) is read, scored and answered
//!   by this wrapper with [`Referee::score`], as the handler would, without tonic's unary
//!   machinery (its streams of one message, boxed bodies and encoder): that machinery cost
//!   about 6,500 instructions a call, more than the scoring itself. Every other call, and
//!   any `ScoreHand` that is not plain, goes through tonic.

use std::convert::Infallible;
use std::future::{Future, poll_fn};
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::{BufMut as _, Bytes, BytesMut};
use http::{HeaderMap, HeaderName, HeaderValue, Request, Response};
use http_body::Frame;
use http_body_util::Full;
use tokio::sync::Semaphore;
use tokio::time::Instant;
use tonic::Status;
use tonic::body::Body;
use tonic::server::NamedService;
use tower_service::Service;

use super::budget::{self, Budget, Held, Pending, Reaper, Unreceived};
use super::client::{self, Client, Holders, within_share};
use super::compute::ComputePool;
use super::service::Referee;
use super::status::{self, ApiError};
use crate::api::kit::query::ScoreQuery;
use crate::config::{Config, Hook};

const GRPC_STATUS: HeaderName = HeaderName::from_static("grpc-status");
const GRPC_STATUS_DETAILS: HeaderName = HeaderName::from_static("grpc-status-details-bin");
const GRPC_TIMEOUT: HeaderName = HeaderName::from_static("grpc-timeout");
const GRPC_ENCODING: HeaderName = HeaderName::from_static("grpc-encoding");
const GRPC_ACCEPT_ENCODING: HeaderName = HeaderName::from_static("grpc-accept-encoding");

/// The request path of `ScoreHand`, which [`Guarded`] answers itself when the call is plain.
pub const SCORE_HAND_PATH: &str = "/mahjong.v1.MahjongService/ScoreHand";

/// A gRPC service behind the concurrency limit and the deadline.
#[derive(Debug, Clone)]
pub struct Guarded<S> {
    inner: S,
    limits: Arc<Limits>,
}

/// What the wrapper enforces.
struct Limits {
    in_flight: Arc<Semaphore>,
    /// The clients with calls in flight.
    callers: Arc<Holders>,
    max_concurrent: usize,
    timeout: Duration,
    max_message_bytes: usize,
    budget: Budget,
    /// What drops the answers not taken in time.
    reaper: Reaper,
    compute: ComputePool,
    before_call: Option<Hook>,
    /// The referee that answers plain `ScoreHand` calls here, if any.
    scorer: Option<Referee>,
}

/// Answers of more encoded bytes than this are encoded (and compressed) on the compute pool:
/// about 100 µs of an I/O thread's time, and more with gzip. Smaller ones, every scoring
/// answer among them, are not worth a thread's hand-over.
pub const ENCODE_IN_POOL_BYTES: usize = 16 * 1024;

impl std::fmt::Debug for Limits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Limits")
            .field("max_concurrent", &self.max_concurrent)
            .field("timeout", &self.timeout)
            .field("max_message_bytes", &self.max_message_bytes)
            .finish_non_exhaustive()
    }
}

impl<S> Guarded<S> {
    /// Wraps `inner` with the limits of `config`, holding requests and answers against
    /// `budget` (the one the handlers charge their answers to), encoding large answers on
    /// `compute` (the handlers' pool), answering plain `ScoreHand` calls with `scorer` if given
    /// (the referee behind `inner`).
    pub fn new(
        inner: S,
        config: &Config,
        budget: Budget,
        compute: ComputePool,
        scorer: Option<Referee>,
    ) -> Self {
        Guarded {
            inner,
            limits: Arc::new(Limits {
                in_flight: Arc::new(Semaphore::new(config.max_concurrent_requests)),
                callers: Arc::new(Holders::default()),
                max_concurrent: config.max_concurrent_requests,
                timeout: config.request_timeout,
                max_message_bytes: config.max_message_bytes,
                budget,
                reaper: Reaper::new(config.request_timeout),
                compute,
                before_call: config.test_hooks.before_call.clone(),
                scorer,
            }),
        }
    }
}

impl<S: NamedService> NamedService for Guarded<S> {
    const NAME: &'static str = S::NAME;
}

impl<S> Service<Request<Body>> for Guarded<S>
where
    S: Service<Request<Body>, Response = Response<Body>, Error = Infallible>,
    S: Clone + Send + 'static,
    S::Future: Send + 'static,
{
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response<Body>, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<Body>) -> Self::Future {
        let limits = Arc::clone(&self.limits);
        // `poll_ready` was called on this one; it is always ready.
        let fresh = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, fresh);
        // Taken before tonic's own timer on `grpc-timeout` starts, so never later than it.
        let timeout =
            grpc_timeout(request.headers()).map_or(limits.timeout, |t| t.min(limits.timeout));
        let deadline = Instant::now() + timeout;
        let client = client::peer_of(request.extensions()).map(|peer| Arc::clone(&peer.client));
        let direct = limits.scorer.is_some() && plain_score_hand(&request);
        Box::pin(async move {
            // One timer for both halves of the call, made only if one has to wait.
            let mut timer = pin!(None);
            let (parts, body) = request.into_parts();
            // The message first, within the deadline and the budget, before the call counts
            // against the limit: a client that sends slowly holds no call slot.
            let max_bytes = limits.max_message_bytes.saturating_add(GRPC_PREFIX_BYTES);
            let received = budget::receive(body, &limits.budget, client.as_ref(), max_bytes);
            let (message, request_charge) = match within(timer.as_mut(), deadline, received).await {
                Some(Ok(received)) => received,
                Some(Err(Unreceived::Spent)) => return Ok(spent(&limits.budget)),
                Some(Err(Unreceived::Failed(status))) => return Ok(status.into_http()),
                None => return Ok(deadline_exceeded(timeout)),
            };
            // Its decoded form and the work on it: charged as a multiple of its size.
            let mut request_charge = request_charge;
            let decoded = message.len().saturating_mul(budget::DECODED_PER_BYTE);
            if limits.budget.charge(&mut request_charge, decoded).is_err() {
                return Ok(spent(&limits.budget));
            }
            let overloaded = || {
                let status = Status::from(ApiError::Overloaded {
                    limit: limits.max_concurrent,
                });
                Ok(status.into_http())
            };
            if !limits.within_call_share(client.as_deref()) {
                return overloaded();
            }
            let Ok(permit) = limits.in_flight.clone().try_acquire_owned() else {
                return overloaded();
            };
            let counted = client
                .as_ref()
                .map(|client| client.count_call(&limits.callers));
            let before_call = limits.before_call.clone();
            let answered = async {
                if let Some(hook) = before_call {
                    hook().await;
                }
                if direct && let Some(response) = score_directly(&limits, &message, &parts) {
                    return response;
                }
                let request = Request::from_parts(parts, Body::new(Full::new(message)));
                let Ok(response) = inner.call(request).await;
                let response = rewrite_transport_error(response, limits.max_message_bytes);
                hold_answer(response, &limits).await
            };
            let response = within(timer, deadline, answered).await;
            drop(counted);
            drop(permit);
            drop(request_charge);
            match response {
                Some(response) => Ok(response),
                None => Ok(deadline_exceeded(timeout)),
            }
        })
    }
}

/// The gRPC length prefix before a message: a compression flag and four bytes of length.
const GRPC_PREFIX_BYTES: usize = 5;

/// Whether `request` is a `ScoreHand` call that [`score_directly`] may answer: its message not
/// compressed and no compressed answer asked for (tonic would compress it).
fn plain_score_hand<B>(request: &Request<B>) -> bool {
    let headers = request.headers();
    request.uri().path() == SCORE_HAND_PATH
        && !headers.contains_key(GRPC_ACCEPT_ENCODING)
        && headers
            .get(GRPC_ENCODING)
            .is_none_or(|encoding| encoding == "identity")
}

/// The answer to the plain `ScoreHand` call of `message` (as received: prefix and message),
/// as tonic and the handler would give it: the same scoring, counting and charge
/// ([`Referee::score`]), the same headers, message frame and trailers (`grpc-status` 0), or the
/// same error status. `None`, to leave the call to tonic, when the message is not one
/// uncompressed message within the size limit that reads as a `ScoreHandRequest` (tonic then
/// gives the error of it).
fn score_directly(
    limits: &Limits,
    message: &Bytes,
    parts: &http::request::Parts,
) -> Option<Response<Body>> {
    let scorer = limits.scorer.as_ref()?;
    let (&[flag, a, b, c, d], body) = message.split_first_chunk::<GRPC_PREFIX_BYTES>()?;
    let length = usize::try_from(u32::from_be_bytes([a, b, c, d])).ok()?;
    if flag != 0 || length != body.len() || length > limits.max_message_bytes {
        return None;
    }
    let query = ScoreQuery::decode(body).ok()?;
    let client = client::peer_of(&parts.extensions).map(|peer| &peer.client);
    let (reply, charge) = match scorer.score(&query, client) {
        Ok(answer) => answer,
        Err(status) => {
            let response = rewrite_transport_error(status.into_http(), limits.max_message_bytes);
            return Some(response);
        }
    };
    let reply = reply.as_bytes();
    let mut frame = BytesMut::with_capacity(GRPC_PREFIX_BYTES + reply.len());
    frame.put_u8(0);
    frame.put_u32(u32::try_from(reply.len()).ok()?);
    frame.put_slice(reply);
    let body = UnaryAnswer {
        message: Some(frame.freeze()),
        trailers: true,
    };
    let body = Pending::new(Body::new(body), charge, &limits.reaper);
    let mut response = Response::new(Body::new(body));
    *response.version_mut() = http::Version::HTTP_2;
    response
        .headers_mut()
        .insert(http::header::CONTENT_TYPE, GRPC_CONTENT_TYPE);
    Some(response)
}

/// `application/grpc`, as tonic answers.
const GRPC_CONTENT_TYPE: HeaderValue = HeaderValue::from_static("application/grpc");

/// The body of a unary call's answer: one message frame, then the trailers of status `OK`.
struct UnaryAnswer {
    message: Option<Bytes>,
    trailers: bool,
}

impl http_body::Body for UnaryAnswer {
    type Data = Bytes;
    type Error = Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Status>>> {
        if let Some(message) = self.message.take() {
            return Poll::Ready(Some(Ok(Frame::data(message))));
        }
        if std::mem::take(&mut self.trailers) {
            let mut trailers = HeaderMap::with_capacity(1);
            trailers.insert(GRPC_STATUS, HeaderValue::from_static("0"));
            return Poll::Ready(Some(Ok(Frame::trailers(trailers))));
        }
        Poll::Ready(None)
    }

    fn is_end_stream(&self) -> bool {
        self.message.is_none() && !self.trailers
    }
}

/// `DEADLINE_EXCEEDED` after `timeout`.
fn deadline_exceeded(timeout: Duration) -> Response<Body> {
    Status::from(ApiError::DeadlineExceeded { after: timeout }).into_http()
}

/// `RESOURCE_EXHAUSTED` (`OVERLOADED`) for a spent byte budget.
fn spent(budget: &Budget) -> Response<Body> {
    Status::from(budget.spent()).into_http()
}

impl Limits {
    /// Whether one more call of `client` is within its share of the call slots.
    fn within_call_share(&self, client: Option<&Client>) -> bool {
        client.is_none_or(|client| {
            within_share(
                client.calls(),
                1,
                self.max_concurrent - self.in_flight.available_permits(),
                self.callers.count(),
                self.max_concurrent,
            )
        })
    }
}

/// The answer `response`, encoded on the compute pool when large, holding the charge its
/// handler took for it until its client has taken it, or dropped if it is not taken within the
/// request timeout.
async fn hold_answer(mut response: Response<Body>, limits: &Limits) -> Response<Body> {
    let Some(held) = response.extensions_mut().remove::<Held>() else {
        return response;
    };
    let charge = held.take();
    let (parts, mut body) = response.into_parts();
    if charge.bytes() > ENCODE_IN_POOL_BYTES {
        body = limits.compute.encode(body).await;
    }
    let body = Body::new(Pending::new(body, charge, &limits.reaper));
    Response::from_parts(parts, body)
}

/// Runs `future` until `deadline` (`timer`'s): `None` when the deadline passed first. The
/// clock is read on every wake-up, so the answer is `DEADLINE_EXCEEDED` whenever any timer of
/// the same or a later deadline has fired.
async fn within<F: Future>(
    mut timer: Pin<&mut Option<tokio::time::Sleep>>,
    deadline: Instant,
    future: F,
) -> Option<F::Output> {
    let mut future = pin!(future);
    poll_fn(|cx| {
        if let Poll::Ready(output) = future.as_mut().poll(cx) {
            return Poll::Ready(Some(output));
        }
        if timer.is_none() {
            timer.set(Some(tokio::time::sleep_until(deadline)));
        }
        let fired = timer
            .as_mut()
            .as_pin_mut()
            .is_some_and(|t| t.poll(cx).is_ready());
        if fired || Instant::now() >= deadline {
            return Poll::Ready(None);
        }
        Poll::Pending
    })
    .await
}

/// A status tonic answered with by itself (no details: ours always have some), in our terms.
fn rewrite_transport_error(response: Response<Body>, max_message_bytes: usize) -> Response<Body> {
    let headers = response.headers();
    if !headers.contains_key(GRPC_STATUS) || headers.contains_key(GRPC_STATUS_DETAILS) {
        return response;
    }
    match Status::from_header_map(headers)
        .and_then(|status| status::from_transport(&status, max_message_bytes))
    {
        Some(error) => Status::from(error).into_http(),
        None => response,
    }
}

/// The client's deadline from the `grpc-timeout` header (gRPC over HTTP/2: at most 8 digits
/// and a unit); `None` when absent or malformed, as tonic reads it.
fn grpc_timeout(headers: &HeaderMap) -> Option<Duration> {
    let (&unit, digits) = headers.get(GRPC_TIMEOUT)?.as_bytes().split_last()?;
    if digits.is_empty() || digits.len() > 8 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = digits
        .iter()
        .fold(0u64, |n, &d| n * 10 + u64::from(d - b'0'));
    match unit {
        b'H' => Some(Duration::from_secs(n * 3600)),
        b'M' => Some(Duration::from_secs(n * 60)),
        b'S' => Some(Duration::from_secs(n)),
        b'm' => Some(Duration::from_millis(n)),
        b'u' => Some(Duration::from_micros(n)),
        b'n' => Some(Duration::from_nanos(n)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timeout_of(value: &str) -> Option<Duration> {
        let mut headers = HeaderMap::new();
        headers.insert(
            "grpc-timeout",
            http::HeaderValue::from_bytes(value.as_bytes()).unwrap(),
        );
        grpc_timeout(&headers)
    }

    #[test]
    fn grpc_timeout_units() {
        assert_eq!(timeout_of("2H"), Some(Duration::from_secs(7200)));
        assert_eq!(timeout_of("3M"), Some(Duration::from_secs(180)));
        assert_eq!(timeout_of("4S"), Some(Duration::from_secs(4)));
        assert_eq!(timeout_of("200m"), Some(Duration::from_millis(200)));
        assert_eq!(
            timeout_of("99999999u"),
            Some(Duration::from_micros(99_999_999))
        );
        assert_eq!(timeout_of("5n"), Some(Duration::from_nanos(5)));
    }

    #[test]
    fn malformed_grpc_timeouts_are_ignored() {
        for value in ["", "m", "123456789m", "12x", "-1S", "1.5S", "١S", "1١"] {
            assert_eq!(timeout_of(value), None, "{value:?}");
        }
        assert_eq!(grpc_timeout(&HeaderMap::new()), None);
    }
}
