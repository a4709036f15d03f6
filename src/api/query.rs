//! The two scoring requests as the server reads them: a structured hand whose every number
//! is valid is read straight from the protobuf bytes into the domain's [`HandInput`], with
//! no intermediate prost message; anything else is decoded by prost.
//!
//! The reader takes only what it can read exactly as prost would: each field in its usual
//! encoding (tiles packed), the hand and the context once, every tile, meld kind and claim a
//! valid number. Anything else (hand notation, an unknown field, a repeated message, an
//! unpacked list, a truncated or malformed message) sends the request to prost, so its
//! meaning, and its decoding error if any, are prost's. `tests/query.rs` checks that for
//! generated, mutated and hand-made encodings alike, the result is what prost decodes.
//!
//! Scalars follow prost's rules: the last occurrence wins, a varint becomes an `int32` enum
//! or a `uint32` by truncation and a `bool` by comparison with zero. A field added to the
//! contract later is unknown here, so requests that use it go to prost (and through
//! [`super::convert`]'s exhaustive destructuring) until this reader learns it.

use mcr::{HandInput, MeldInput, Tile};
use prost::Message as _;

use super::convert::{claim_of, hand_to_pb, meld_kind_of, tile_from_pb};
use super::pb;

/// A `ScoreHandRequest` (or a batch entry) as the server reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum ScoreHandQuery {
    /// A structured hand with every number valid, read straight into the domain.
    Clean(CleanRequest),
    /// Anything else, as prost decodes it.
    Decoded(pb::ScoreHandRequest),
}

/// A `ScoreHandRequest` whose hand is structured and has only valid numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct CleanRequest {
    /// The hand, as declared (not yet validated).
    pub hand: HandInput,
    /// The context as sent (absent: the default).
    pub context: Option<pb::WinContext>,
    /// The `ruleset` number as sent.
    pub ruleset: i32,
    /// The `view` number as sent.
    pub view: i32,
}

/// A `BatchScoreHandsRequest` as the server reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchScoreHandsQuery {
    /// The entries, in order.
    pub requests: Vec<ScoreHandQuery>,
    /// The `default_ruleset` number as sent.
    pub default_ruleset: i32,
    /// The `default_view` number as sent.
    pub default_view: i32,
}

impl ScoreHandQuery {
    /// Reads an encoded `ScoreHandRequest`; the error is prost's.
    ///
    /// # Errors
    /// When prost cannot decode the bytes.
    pub fn decode(bytes: &[u8]) -> Result<Self, prost::DecodeError> {
        match read_clean(bytes) {
            Some(clean) => Ok(ScoreHandQuery::Clean(clean)),
            None => pb::ScoreHandRequest::decode(bytes).map(ScoreHandQuery::Decoded),
        }
    }
}

impl BatchScoreHandsQuery {
    /// Reads an encoded `BatchScoreHandsRequest`; the error is prost's.
    ///
    /// # Errors
    /// When prost cannot decode the bytes.
    pub fn decode(bytes: &[u8]) -> Result<Self, prost::DecodeError> {
        match read_batch(bytes) {
            Some(batch) => Ok(batch),
            None => pb::BatchScoreHandsRequest::decode(bytes).map(BatchScoreHandsQuery::from),
        }
    }
}

impl From<pb::ScoreHandRequest> for ScoreHandQuery {
    fn from(request: pb::ScoreHandRequest) -> Self {
        ScoreHandQuery::Decoded(request)
    }
}

impl From<pb::BatchScoreHandsRequest> for BatchScoreHandsQuery {
    fn from(request: pb::BatchScoreHandsRequest) -> Self {
        let pb::BatchScoreHandsRequest {
            requests,
            default_ruleset,
            default_view,
        } = request;
        BatchScoreHandsQuery {
            requests: requests.into_iter().map(ScoreHandQuery::Decoded).collect(),
            default_ruleset,
            default_view,
        }
    }
}

/// The message prost would have decoded.
impl From<ScoreHandQuery> for pb::ScoreHandRequest {
    fn from(query: ScoreHandQuery) -> Self {
        match query {
            ScoreHandQuery::Decoded(request) => request,
            ScoreHandQuery::Clean(CleanRequest {
                hand,
                context,
                ruleset,
                view,
            }) => pb::ScoreHandRequest {
                hand_input: Some(pb::score_hand_request::HandInput::Hand(hand_to_pb(&hand))),
                context,
                ruleset,
                view,
            },
        }
    }
}

/// The message prost would have decoded.
impl From<BatchScoreHandsQuery> for pb::BatchScoreHandsRequest {
    fn from(query: BatchScoreHandsQuery) -> Self {
        let BatchScoreHandsQuery {
            requests,
            default_ruleset,
            default_view,
        } = query;
        pb::BatchScoreHandsRequest {
            requests: requests
                .into_iter()
                .map(pb::ScoreHandRequest::from)
                .collect(),
            default_ruleset,
            default_view,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The reader: `None` wherever prost is to decide

/// Field keys (`number << 3 | wire type`) as one varint; wire type 0 is a varint, 2 a
/// length-delimited field.
mod key {
    pub(super) const fn varint(field: u64) -> u64 {
        field << 3
    }
    pub(super) const fn delimited(field: u64) -> u64 {
        field << 3 | 2
    }
}

/// A cursor over an encoded message.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes }
    }

    fn is_done(&self) -> bool {
        self.bytes.is_empty()
    }

    /// A varint as prost reads one: at most ten bytes, the tenth 0 or 1.
    #[inline]
    fn varint(&mut self) -> Option<u64> {
        // Keys, tile numbers and enums: nearly always one byte.
        match self.bytes.split_first() {
            Some((&byte, rest)) if byte < 0x80 => {
                self.bytes = rest;
                Some(u64::from(byte))
            }
            _ => self.long_varint(),
        }
    }

    #[cold]
    fn long_varint(&mut self) -> Option<u64> {
        let mut value = 0u64;
        for (i, &byte) in self.bytes.iter().take(10).enumerate() {
            if i == 9 && byte > 1 {
                return None;
            }
            value |= u64::from(byte & 0x7f) << (7 * i);
            if byte < 0x80 {
                self.bytes = &self.bytes[i + 1..];
                return Some(value);
            }
        }
        None
    }

    /// A length-delimited field's contents.
    fn delimited(&mut self) -> Option<&'a [u8]> {
        let len = usize::try_from(self.varint()?).ok()?;
        if len > self.bytes.len() {
            return None;
        }
        let (contents, rest) = self.bytes.split_at(len);
        self.bytes = rest;
        Some(contents)
    }

    /// An `int32` (an enum number): prost truncates the varint.
    #[allow(clippy::cast_possible_truncation)]
    fn int32(&mut self) -> Option<i32> {
        self.varint().map(|v| v as i32)
    }

    /// A `uint32`: prost truncates the varint.
    #[allow(clippy::cast_possible_truncation)]
    fn uint32(&mut self) -> Option<u32> {
        self.varint().map(|v| v as u32)
    }

    fn bool(&mut self) -> Option<bool> {
        self.varint().map(|v| v != 0)
    }
}

/// A whole batch read here, or `None`: then prost decodes all of it. An entry this reader
/// leaves to prost is decoded on its own (a repeated message's entries are independent).
fn read_batch(bytes: &[u8]) -> Option<BatchScoreHandsQuery> {
    // A first pass checks the outer fields and counts the entries.
    let mut entries = 0;
    let mut r = Reader::new(bytes);
    while !r.is_done() {
        match r.varint()? {
            k if k == key::delimited(1) => {
                r.delimited()?;
                entries += 1;
            }
            k if k == key::varint(2) || k == key::varint(3) => {
                r.varint()?;
            }
            _ => return None,
        }
    }
    let mut batch = BatchScoreHandsQuery {
        requests: Vec::with_capacity(entries),
        default_ruleset: 0,
        default_view: 0,
    };
    let mut r = Reader::new(bytes);
    while !r.is_done() {
        match r.varint()? {
            k if k == key::delimited(1) => {
                let entry = r.delimited()?;
                batch.requests.push(match read_clean(entry) {
                    Some(clean) => ScoreHandQuery::Clean(clean),
                    None => ScoreHandQuery::Decoded(pb::ScoreHandRequest::decode(entry).ok()?),
                });
            }
            k if k == key::varint(2) => batch.default_ruleset = r.int32()?,
            k if k == key::varint(3) => batch.default_view = r.int32()?,
            _ => return None,
        }
    }
    Some(batch)
}

/// A `ScoreHandRequest` with a clean structured hand, or `None`.
fn read_clean(bytes: &[u8]) -> Option<CleanRequest> {
    let mut hand = None;
    let mut context = None;
    let (mut ruleset, mut view) = (0, 0);
    let mut r = Reader::new(bytes);
    while !r.is_done() {
        match r.varint()? {
            // prost merges a repeated message: left to it.
            k if k == key::delimited(2) && hand.is_none() => {
                hand = Some(read_hand(r.delimited()?)?);
            }
            k if k == key::delimited(3) && context.is_none() => {
                context = Some(read_context(r.delimited()?)?);
            }
            k if k == key::varint(4) => ruleset = r.int32()?,
            k if k == key::varint(5) => view = r.int32()?,
            // The notation, unknown fields, other wire types.
            _ => return None,
        }
    }
    Some(CleanRequest {
        hand: hand?,
        context,
        ruleset,
        view,
    })
}

/// A `Hand` whose every number is valid, as `convert::clean_hand` takes it.
fn read_hand(bytes: &[u8]) -> Option<HandInput> {
    let mut melds = Vec::new();
    let mut standing = Vec::new();
    let mut winning = pb::Tile::Unspecified as i32;
    let mut r = Reader::new(bytes);
    while !r.is_done() {
        match r.varint()? {
            k if k == key::delimited(1) => melds.push(read_meld(r.delimited()?)?),
            k if k == key::delimited(2) => read_tiles(r.delimited()?, &mut standing)?,
            k if k == key::varint(3) => winning = r.int32()?,
            _ => return None,
        }
    }
    let winning_tile = if winning == pb::Tile::Unspecified as i32 {
        None
    } else {
        Some(tile_from_pb(winning)?)
    };
    Some(HandInput {
        melds,
        standing,
        winning_tile,
    })
}

/// A `Meld` whose every number is valid.
fn read_meld(bytes: &[u8]) -> Option<MeldInput> {
    let mut kind = pb::MeldKind::Unspecified as i32;
    let mut tiles = Vec::new();
    let mut claimed_from = pb::ClaimSource::Unspecified as i32;
    let mut promoted = false;
    let mut r = Reader::new(bytes);
    while !r.is_done() {
        match r.varint()? {
            k if k == key::varint(1) => kind = r.int32()?,
            k if k == key::delimited(2) => read_tiles(r.delimited()?, &mut tiles)?,
            k if k == key::varint(3) => claimed_from = r.int32()?,
            k if k == key::varint(4) => promoted = r.bool()?,
            _ => return None,
        }
    }
    Some(MeldInput {
        kind: meld_kind_of(kind)?,
        tiles,
        claimed_from: claim_of(claimed_from).ok()?,
        promoted,
    })
}

/// Packed tile numbers, appended to `tiles` if every one is a tile.
fn read_tiles(bytes: &[u8], tiles: &mut Vec<Tile>) -> Option<()> {
    // One byte a tile: tile numbers are below 128.
    tiles.reserve(bytes.len());
    let mut r = Reader::new(bytes);
    while !r.is_done() {
        tiles.push(tile_from_pb(r.int32()?)?);
    }
    Some(())
}

/// A `WinContext`, every number as sent.
fn read_context(bytes: &[u8]) -> Option<pb::WinContext> {
    let mut c = pb::WinContext::default();
    let mut r = Reader::new(bytes);
    while !r.is_done() {
        match r.varint()? {
            k if k == key::varint(1) => c.self_drawn = r.bool()?,
            k if k == key::varint(2) => c.robbing_kong = r.bool()?,
            k if k == key::varint(3) => c.replacement_draw = r.bool()?,
            k if k == key::varint(4) => c.last_tile = r.bool()?,
            k if k == key::varint(5) => c.last_copy = r.bool()?,
            k if k == key::varint(6) => c.seat_wind = r.int32()?,
            k if k == key::varint(7) => c.prevalent_wind = r.int32()?,
            k if k == key::varint(8) => c.flower_count = r.uint32()?,
            _ => return None,
        }
    }
    Some(c)
}
