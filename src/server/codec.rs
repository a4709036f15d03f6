//! The codec of the referee's service: requests decoded by prost, responses written by
//! [`Reply`]: prost for every message but the two scoring responses, which arrive already
//! encoded ([`crate::api::wire`]).

use std::marker::PhantomData;

use bytes::BufMut as _;
use tonic::Status;
use tonic::codec::{Codec, EncodeBuf, Encoder};
use tonic_prost::ProstDecoder;

use crate::api::wire::{BatchScoreHandsReply, ScoreHandReply};

/// A response message of the referee's service, as it goes into the gRPC frame.
pub trait Reply {
    /// Appends the message's protobuf encoding to `buf`.
    fn encode_reply(self, buf: &mut EncodeBuf<'_>) -> Result<(), Status>;
}

impl<M: prost::Message> Reply for M {
    fn encode_reply(self, buf: &mut EncodeBuf<'_>) -> Result<(), Status> {
        self.encode(buf)
            .map_err(|e| Status::internal(format!("cannot encode the response: {e}")))
    }
}

impl Reply for ScoreHandReply {
    fn encode_reply(self, buf: &mut EncodeBuf<'_>) -> Result<(), Status> {
        buf.put_slice(self.as_bytes());
        Ok(())
    }
}

impl Reply for BatchScoreHandsReply {
    fn encode_reply(self, buf: &mut EncodeBuf<'_>) -> Result<(), Status> {
        buf.put_slice(self.as_bytes());
        Ok(())
    }
}

/// The [`Codec`] of the generated server (`codec_path` in `build.rs`): `U` requests decoded
/// by prost, `T` responses written by [`Reply`].
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
    U: prost::Message + Default + Send + 'static,
{
    type Encode = T;
    type Decode = U;
    type Encoder = ReplyEncoder<T>;
    type Decoder = ProstDecoder<U>;

    fn encoder(&mut self) -> ReplyEncoder<T> {
        ReplyEncoder(PhantomData)
    }

    fn decoder(&mut self) -> ProstDecoder<U> {
        ProstDecoder::default()
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
