//! The one mapping from what can go wrong in a call to a gRPC status.
//!
//! Every error status carries `google.rpc.Status` details: an `ErrorInfo` (stable `reason`,
//! domain [`DOMAIN`], metadata) and, for malformed input, a `BadRequest` with one field
//! violation per problem found (`field` is the path in the request, `description` is
//! `CODE: message`, `reason` is the code).
//!
//! | error | code | reason |
//! |---|---|---|
//! | a malformed `ScoreHand` request (hand, context, ruleset) | `INVALID_ARGUMENT` | `INVALID_HAND` |
//! | any other malformed field | `INVALID_ARGUMENT` | `INVALID_REQUEST` |
//! | a batch above `--max-batch-hands` | `INVALID_ARGUMENT` | `BATCH_TOO_LARGE` |
//! | bytes that are not the request message | `INVALID_ARGUMENT` | `MALFORMED_MESSAGE` |
//! | a request above `--max-message-bytes` | `RESOURCE_EXHAUSTED` | `MESSAGE_TOO_LARGE` |
//! | a batch answer above `--max-message-bytes` | `RESOURCE_EXHAUSTED` | `RESPONSE_TOO_LARGE` |
//! | `--max-concurrent-requests` calls in flight | `RESOURCE_EXHAUSTED` | `OVERLOADED` |
//! | `--max-buffered-bytes` held for clients | `RESOURCE_EXHAUSTED` | `OVERLOADED` |
//! | the deadline or `--request-timeout-ms` passed | `DEADLINE_EXCEEDED` | `DEADLINE_EXCEEDED` |

use std::collections::HashMap;
use std::time::Duration;

use mcr::Violation;
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, FieldViolation, StatusExt};

use crate::api::kit::values::INVALID_HAND;
use crate::api::scoring::BatchRejection;
use crate::limits;

/// The `ErrorInfo` domain of every error.
pub const DOMAIN: &str = "mahjong.v1";

/// Everything a call can fail with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiError {
    /// A `ScoreHand` request (its hand, context or ruleset) is malformed: every violation
    /// found.
    InvalidHand(Vec<Violation>),
    /// Some other field of a request is malformed: every violation found.
    InvalidRequest(Vec<Violation>),
    /// A `BatchScoreHands` request has more hands than allowed.
    BatchTooLarge {
        /// Hands in the request.
        hands: usize,
        /// `--max-batch-hands`.
        limit: usize,
    },
    /// The request body is not the request message (tonic's decoding failed, or prost's
    /// decoding of a batch whose entries are read as they are scored).
    MalformedMessage(String),
    /// The request message is larger than allowed (tonic's message in `detail`).
    MessageTooLarge {
        /// What tonic found.
        detail: String,
        /// `--max-message-bytes`.
        limit: usize,
    },
    /// The answer would be larger than allowed (encoded, before compression).
    ResponseTooLarge {
        /// Encoded size of the answer.
        bytes: usize,
        /// `--max-message-bytes`.
        limit: usize,
    },
    /// Too many calls in flight: shed at once, not queued.
    Overloaded {
        /// `--max-concurrent-requests`.
        limit: usize,
    },
    /// The bytes held for clients (`--max-buffered-bytes`) are all taken.
    BufferFull {
        /// `--max-buffered-bytes`.
        limit: usize,
    },
    /// The call's deadline passed before it was answered.
    DeadlineExceeded {
        /// The time the call was given.
        after: Duration,
    },
}

impl From<BatchRejection> for ApiError {
    /// A batch prost cannot decode gets the status of any request tonic cannot decode.
    fn from(rejection: BatchRejection) -> Self {
        match rejection {
            BatchRejection::Malformed(e) => ApiError::MalformedMessage(e.to_string()),
            BatchRejection::Invalid(violations) => ApiError::InvalidRequest(violations),
        }
    }
}

impl From<ApiError> for Status {
    fn from(error: ApiError) -> Status {
        match error {
            ApiError::InvalidHand(violations) => {
                invalid(INVALID_HAND, "the hand is malformed", &violations)
            }
            ApiError::InvalidRequest(violations) => {
                invalid("INVALID_REQUEST", "the request is malformed", &violations)
            }
            ApiError::BatchTooLarge { hands, limit } => {
                let message = format!(
                    "the batch has {hands} hands, more than the limit of {limit}: split it"
                );
                let mut details = error_info(
                    "BATCH_TOO_LARGE",
                    [("hands", hands.to_string()), ("limit", limit.to_string())],
                );
                details
                    .add_bad_request_violation("requests", format!("BATCH_TOO_LARGE: {message}"));
                Status::with_error_details(Code::InvalidArgument, message, details)
            }
            ApiError::MalformedMessage(detail) => Status::with_error_details(
                Code::InvalidArgument,
                format!("the request is not a valid message: {detail}"),
                error_info("MALFORMED_MESSAGE", []),
            ),
            ApiError::MessageTooLarge { detail, limit } => Status::with_error_details(
                Code::ResourceExhausted,
                format!("the request message is too large: {detail}"),
                error_info("MESSAGE_TOO_LARGE", [("limit", limit.to_string())]),
            ),
            ApiError::ResponseTooLarge { bytes, limit } => Status::with_error_details(
                Code::ResourceExhausted,
                format!(
                    "the answer would be {bytes} bytes, more than the limit of {limit}: ask for less in one call (fewer hands, offences, players)"
                ),
                error_info(
                    "RESPONSE_TOO_LARGE",
                    [("bytes", bytes.to_string()), ("limit", limit.to_string())],
                ),
            ),
            ApiError::Overloaded { limit } => Status::with_error_details(
                Code::ResourceExhausted,
                format!("the server is handling its limit of {limit} calls: retry with backoff"),
                error_info("OVERLOADED", [("limit", limit.to_string())]),
            ),
            ApiError::BufferFull { limit } => Status::with_error_details(
                Code::ResourceExhausted,
                format!(
                    "the server holds its limit of {limit} bytes for clients (requests being received, answers not yet taken): retry with backoff"
                ),
                error_info("OVERLOADED", [("bufferBytes", limit.to_string())]),
            ),
            ApiError::DeadlineExceeded { after } => Status::with_error_details(
                Code::DeadlineExceeded,
                format!("no answer within the call's deadline of {after:?}"),
                error_info(
                    "DEADLINE_EXCEEDED",
                    [("timeoutMs", after.as_millis().to_string())],
                ),
            ),
        }
    }
}

/// The error tonic itself answered a call with, in our terms: `None` for a status to leave
/// as it is. Only called for statuses without details, which our handlers never produce.
pub fn from_transport(status: &Status, max_message_bytes: usize) -> Option<ApiError> {
    match status.code() {
        // A length prefix above the limit (OUT_OF_RANGE), or a message decompressed above it
        // (RESOURCE_EXHAUSTED, but without details).
        Code::OutOfRange | Code::ResourceExhausted => Some(ApiError::MessageTooLarge {
            detail: status.message().to_owned(),
            limit: max_message_bytes,
        }),
        // Undecodable protobuf, a bad frame, a missing message, a bad compressed payload:
        // everything tonic calls INTERNAL while reading a request is the client's input.
        Code::Internal => Some(ApiError::MalformedMessage(status.message().to_owned())),
        // UNIMPLEMENTED (an unknown method or compression) is already the right answer.
        Code::Ok
        | Code::Cancelled
        | Code::Unknown
        | Code::InvalidArgument
        | Code::DeadlineExceeded
        | Code::NotFound
        | Code::AlreadyExists
        | Code::PermissionDenied
        | Code::FailedPrecondition
        | Code::Aborted
        | Code::Unimplemented
        | Code::Unavailable
        | Code::DataLoss
        | Code::Unauthenticated => None,
    }
}

/// `INVALID_ARGUMENT` with an `ErrorInfo` and a `BadRequest` listing the first
/// [`MAX_VIOLATIONS_SHOWN`](crate::limits::MAX_VIOLATIONS_SHOWN) violations, clipped
/// ([`crate::limits`]): the details stay under 8 KiB whatever the request. `violationCount`
/// is the real total, `violationsShown` the number listed.
fn invalid(reason: &str, what: &str, violations: &[Violation]) -> Status {
    let shown: Vec<limits::Shown<'_>> = limits::shown_violations(violations).collect();
    let first = shown.first();
    let message = match first {
        Some(v) if violations.len() == 1 => format!("{what}: {v}"),
        Some(v) => format!("{what}: {v} (and {} more)", violations.len() - 1),
        None => what.to_owned(),
    };
    let mut details = error_info(
        reason,
        [
            ("violationCount", violations.len().to_string()),
            ("violationsShown", shown.len().to_string()),
            (
                "firstCode",
                first
                    .map(|v| v.code.as_str())
                    .unwrap_or_default()
                    .to_owned(),
            ),
            (
                "firstField",
                first.map(|v| v.field.clone()).unwrap_or_default(),
            ),
        ],
    );
    details.set_bad_request(
        shown
            .iter()
            .map(|v| {
                let code = v.code.as_str();
                let description = format!("{code}: {}", v.message);
                FieldViolation {
                    field: v.field.clone(),
                    description: limits::clip(&description, limits::MAX_VIOLATION_TEXT)
                        .into_owned(),
                    reason: code.to_owned(),
                    localized_message: None,
                }
            })
            .collect::<Vec<_>>(),
    );
    Status::with_error_details(Code::InvalidArgument, message, details)
}

/// Details holding an `ErrorInfo` of our domain.
fn error_info<const N: usize>(reason: &str, metadata: [(&str, String); N]) -> ErrorDetails {
    let metadata: HashMap<String, String> = metadata
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect();
    ErrorDetails::with_error_info(reason, DOMAIN, metadata)
}
