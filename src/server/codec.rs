//! The codec of the referee's service: requests read by [`Query`] from one contiguous slice
//! (prost for every message but the two scoring requests, [`crate::api::scoring::fast::query`]), responses
//! written by [`Reply`] (prost for every message but the two scoring responses, which arrive
//! already encoded, [`crate::api::scoring::fast::wire`]).

use std::marker::PhantomData;

use bytes::{Buf as _, BufMut as _, Bytes};
use tonic::Status;
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};

use crate::api::kit::query::ScoreQuery;
use crate::api::pb;
use crate::api::scoring::fast::query::BatchScoreHandsQuery;
use crate::api::scoring::fast::wire::{BatchScoreHandsReply, ScoreHandReply};

/// A request message of the referee's service, as it comes out of the gRPC frame.
pub trait Query: Sized {
    /// Reads the message from its protobuf encoding.
    ///
    /// # Errors
    /// prost's, when the bytes are not the message.
    fn decode_query(bytes: Bytes) -> Result<Self, prost::DecodeError>;
}

/// `Query` by prost for each message named: every request of the service but the two
/// scoring requests (`OUT_DIR/server/messages.rs`, written by `build.rs` from the service).
///
/// One impl a message rather than one for every `prost::Message`: the scoring requests are
/// the `mcr-api` crate's types, and a blanket impl would overlap theirs here (that crate
/// could make them messages).
macro_rules! prost_queries {
    ($($message:ident),* $(,)?) => {$(
        impl Query for pb::$message {
            fn decode_query(bytes: Bytes) -> Result<Self, prost::DecodeError> {
                <pb::$message as prost::Message>::decode(bytes)
            }
        }
    )*};
}

impl Query for ScoreQuery {
    fn decode_query(bytes: Bytes) -> Result<Self, prost::DecodeError> {
        ScoreQuery::decode(&bytes)
    }
}

impl Query for BatchScoreHandsQuery {
    fn decode_query(bytes: Bytes) -> Result<Self, prost::DecodeError> {
        BatchScoreHandsQuery::decode(bytes)
    }
}

/// A response message of the referee's service, as it goes into the gRPC frame.
pub trait Reply {
    /// Appends the message's protobuf encoding to `buf`.
    fn encode_reply(self, buf: &mut EncodeBuf<'_>) -> Result<(), Status>;
}

/// `Reply` by prost for each message named: every response of the service but the two
/// scoring responses (as `prost_queries`).
macro_rules! prost_replies {
    ($($message:ident),* $(,)?) => {$(
        impl Reply for pb::$message {
            fn encode_reply(self, buf: &mut EncodeBuf<'_>) -> Result<(), Status> {
                prost::Message::encode(&self, buf)
                    .map_err(|e| Status::internal(format!("cannot encode the response: {e}")))
            }
        }
    )*};
}

include!(concat!(env!("OUT_DIR"), "/server/messages.rs"));

impl Reply for ScoreHandReply {
    fn encode_reply(self, buf: &mut EncodeBuf<'_>) -> Result<(), Status> {
        put_in_pieces(buf, self.as_bytes());
        Ok(())
    }
}

impl Reply for BatchScoreHandsReply {
    fn encode_reply(self, buf: &mut EncodeBuf<'_>) -> Result<(), Status> {
        put_in_pieces(buf, self.as_bytes());
        Ok(())
    }
}

/// The size of the pieces [`put_in_pieces`] copies.
const COPY_PIECE: usize = 2048;

/// Copies an encoded message into tonic's buffer a piece of [`COPY_PIECE`] bytes at a time.
///
/// One `memcpy` of a whole batch response (about 300 KB) goes, in glibc, to `rep movsb`,
/// which on the AMD EPYC machine this was measured on copied about 1.6 GB/s: 6.6% of the
/// server's cycles during full-view batches. Pieces under glibc's threshold for it (4 KiB
/// and more, depending on the vector width) are copied with vector moves instead: this copy
/// then took about 3% (`perf`, same load).
fn put_in_pieces(buf: &mut EncodeBuf<'_>, bytes: &[u8]) {
    buf.reserve(bytes.len());
    for piece in bytes.chunks(COPY_PIECE) {
        buf.put_slice(piece);
    }
}

/// The [`Codec`] of the generated server (`codec_path` in `build.rs`): `U` requests read by
/// [`Query`], `T` responses written by [`Reply`].
#[derive(Debug)]
pub struct RefereeCodec<T, U>(PhantomData<(T, U)>);

impl<T, U> Default for RefereeCodec<T, U> {
    fn default() -> Self {
        RefereeCodec(PhantomData)
    }
}

impl<T, U> Codec for RefereeCodec<T, U>
where
    T: Reply + Send + 'static,
    U: Query + Send + 'static,
{
    type Encode = T;
    type Decode = U;
    type Encoder = ReplyEncoder<T>;
    type Decoder = RequestDecoder<U>;

    fn encoder(&mut self) -> ReplyEncoder<T> {
        ReplyEncoder(PhantomData)
    }

    fn decoder(&mut self) -> RequestDecoder<U> {
        RequestDecoder(PhantomData)
    }
}

/// The [`Decoder`] of [`RefereeCodec`]: the message taken out of tonic's buffer as one slice
/// (without a copy) and read from it, which is cheaper than prost reading through
/// [`DecodeBuf`] a varint at a time. Undecodable bytes are `INTERNAL`, as with tonic-prost's
/// decoder; [`crate::server::guard`] turns that into `INVALID_ARGUMENT` with its details.
#[derive(Debug)]
pub struct RequestDecoder<U>(PhantomData<U>);

impl<U: Query> Decoder for RequestDecoder<U> {
    type Item = U;
    type Error = Status;

    fn decode(&mut self, buf: &mut DecodeBuf<'_>) -> Result<Option<U>, Status> {
        let message = buf.copy_to_bytes(buf.remaining());
        U::decode_query(message)
            .map(Some)
            .map_err(|e| Status::internal(e.to_string()))
    }
}

/// The [`Encoder`] of [`RefereeCodec`].
#[derive(Debug)]
pub struct ReplyEncoder<T>(PhantomData<T>);

impl<T: Reply> Encoder for ReplyEncoder<T> {
    type Item = T;
    type Error = Status;

    fn encode(&mut self, item: T, buf: &mut EncodeBuf<'_>) -> Result<(), Status> {
        item.encode_reply(buf)
    }
}
