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
//! [`super::hand`]'s exhaustive destructuring) until this reader learns it. House rules
//! (`overrides`, a batch's `default_overrides`) are such fields on purpose: a request with
//! them is prost's, a plain one costs what it did.

use std::ops::Range;

use bytes::Bytes;
use mcr::{HandInput, MeldInput, Tile};
use prost::Message as _;

use super::fields::{
    batch_score_hands_request as batch, hand as hand_fields, meld, score_hand_request as request,
    win_context as context,
};
use crate::api::hand::{hand_to_pb, optional_tile_of};
use crate::api::pb;
use crate::api::values::{claim_of, meld_kind_of, tile_from_pb};

/// A `ScoreHandRequest` (or a batch entry) as the server reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum ScoreHandQuery {
    /// A structured hand with every number valid, read straight into the domain.
    Clean(CleanRequest),
    /// Anything else, as prost decodes it.
    Decoded(pb::ScoreHandRequest),
}

/// A `ScoreHandRequest` whose hand is structured and has only valid numbers.
#[derive(Debug, Clone, Default, PartialEq)]
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
///
/// Decoding checks the batch's own fields and finds its entries; each entry is then read
/// only when asked for ([`BatchScoreHandsQuery::entry`]), just before it is scored, into
/// buffers reused from entry to entry. A batch of a thousand hands is never held as a
/// thousand decoded hands, which would cost their allocations and the cache misses of
/// reading them back after the others.
///
/// The first entry this reader leaves to prost sends the whole message to prost: that entry
/// and the ones after it are prost's, and so is the error when prost cannot decode the
/// message. What was read before is what prost reads too, so the batch is always the one
/// prost decodes, or prost's error.
#[derive(Debug, Clone)]
pub struct BatchScoreHandsQuery {
    /// The encoded message (empty when prost decoded it at once).
    bytes: Bytes,
    /// Where each entry lies in `bytes`.
    ranges: Vec<Range<usize>>,
    /// The entries as prost decodes them, once prost has decoded the message.
    decoded: Option<Vec<pb::ScoreHandRequest>>,
    /// The `default_ruleset` number as sent.
    pub default_ruleset: i32,
    /// The `default_view` number as sent.
    pub default_view: i32,
    /// The `default_overrides` as prost decodes them (a batch that has them is prost's).
    pub default_overrides: Option<pb::RuleOverrides>,
    /// Whether this is a part of a batch ([`BatchScoreHandsQuery::part`]), which leaves the
    /// entries only prost reads unread.
    part: bool,
}

/// A batch entry as [`BatchScoreHandsQuery::entry`] reads it.
#[derive(Debug, Clone, Copy)]
pub enum BatchEntry<'a> {
    /// A structured hand with every number valid, read into the caller's buffer.
    Clean(&'a CleanRequest),
    /// As prost decoded it.
    Decoded(&'a pb::ScoreHandRequest),
    /// An entry of a part ([`BatchScoreHandsQuery::part`]) that only prost reads: prost reads
    /// the whole message, so the part cannot answer it on its own.
    LeftToProst,
}

/// Room to read batch entries into, reused from one entry to the next: once it has grown
/// to the largest entry, reading a clean entry allocates nothing.
#[derive(Debug, Default)]
pub struct EntryBuffer {
    request: CleanRequest,
    /// Tile lists of the melds of earlier entries, emptied, for the melds of later ones.
    spare_tiles: Vec<Vec<Tile>>,
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
    /// Reads the fields of an encoded `BatchScoreHandsRequest` and finds its entries; the
    /// error is prost's.
    ///
    /// # Errors
    /// When prost cannot decode the bytes, as far as this reading shows: an entry that is not
    /// a message may show only when it is read ([`BatchScoreHandsQuery::entry`]).
    pub fn decode(bytes: Bytes) -> Result<Self, prost::DecodeError> {
        match read_batch(&bytes) {
            Some((ranges, default_ruleset, default_view)) => Ok(BatchScoreHandsQuery {
                bytes,
                ranges,
                decoded: None,
                default_ruleset,
                default_view,
                default_overrides: None,
                part: false,
            }),
            None => pb::BatchScoreHandsRequest::decode(bytes).map(BatchScoreHandsQuery::from),
        }
    }

    /// How many entries the batch has.
    pub fn len(&self) -> usize {
        self.decoded.as_ref().map_or(self.ranges.len(), Vec::len)
    }

    /// Whether the batch has no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Entry `index` (`None` past the end), a clean one read into `buffer`.
    ///
    /// # Errors
    /// prost's error for the whole message, when this entry is the first one left to prost
    /// and prost cannot decode the message.
    pub fn entry<'a>(
        &'a mut self,
        index: usize,
        buffer: &'a mut EntryBuffer,
    ) -> Result<Option<BatchEntry<'a>>, prost::DecodeError> {
        if self.decoded.is_none() {
            let Some(range) = self.ranges.get(index) else {
                return Ok(None);
            };
            let entry = self.bytes.get(range.clone()).unwrap_or_default();
            if read_clean_into(entry, buffer).is_some() {
                return Ok(Some(BatchEntry::Clean(&buffer.request)));
            }
            if self.part {
                return Ok(Some(BatchEntry::LeftToProst));
            }
            let batch = pb::BatchScoreHandsRequest::decode(self.bytes.clone())?;
            self.bytes = Bytes::new();
            self.ranges = Vec::new();
            self.decoded = Some(batch.requests);
        }
        let requests = self.decoded.as_deref().unwrap_or_default();
        Ok(requests.get(index).map(BatchEntry::Decoded))
    }

    /// Entries `range` of this batch (clamped to it) as a batch of their own. Until prost
    /// has decoded the message, the part reads its clean entries as this batch would and
    /// answers [`BatchEntry::LeftToProst`] for the others; after, it holds copies of prost's.
    #[must_use]
    pub fn part(&self, range: Range<usize>) -> Self {
        let end = range.end.min(self.len());
        let range = range.start.min(end)..end;
        let (ranges, decoded) = match &self.decoded {
            None => (self.ranges.get(range).unwrap_or_default().to_vec(), None),
            Some(decoded) => (
                Vec::new(),
                Some(decoded.get(range).unwrap_or_default().to_vec()),
            ),
        };
        BatchScoreHandsQuery {
            bytes: self.bytes.clone(),
            ranges,
            decoded,
            default_ruleset: self.default_ruleset,
            default_view: self.default_view,
            default_overrides: self.default_overrides.clone(),
            part: true,
        }
    }

    /// Reads every entry: whether prost can decode the whole message.
    ///
    /// # Errors
    /// prost's, when it cannot.
    pub fn check(&mut self) -> Result<(), prost::DecodeError> {
        let mut buffer = EntryBuffer::default();
        for index in 0..self.len() {
            self.entry(index, &mut buffer)?;
        }
        Ok(())
    }

    /// The entries, in order, each read on its own.
    ///
    /// # Errors
    /// prost's, when it cannot decode the whole message.
    pub fn into_entries(mut self) -> Result<Vec<ScoreHandQuery>, prost::DecodeError> {
        let mut buffer = EntryBuffer::default();
        let mut entries = Vec::with_capacity(self.len());
        for index in 0..self.len() {
            entries.push(match self.entry(index, &mut buffer)? {
                Some(BatchEntry::Clean(clean)) => ScoreHandQuery::Clean(clean.clone()),
                Some(BatchEntry::Decoded(request)) => ScoreHandQuery::Decoded(request.clone()),
                // Only parts leave entries unread; a part's entries are read from the batch.
                Some(BatchEntry::LeftToProst) | None => break,
            });
        }
        Ok(entries)
    }

    /// The message prost decodes from the same bytes.
    ///
    /// # Errors
    /// prost's, when it cannot decode them.
    pub fn into_request(self) -> Result<pb::BatchScoreHandsRequest, prost::DecodeError> {
        let (default_ruleset, default_view) = (self.default_ruleset, self.default_view);
        let default_overrides = self.default_overrides.clone();
        Ok(pb::BatchScoreHandsRequest {
            requests: self
                .into_entries()?
                .into_iter()
                .map(pb::ScoreHandRequest::from)
                .collect(),
            default_ruleset,
            default_view,
            default_overrides,
        })
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
            default_overrides,
        } = request;
        BatchScoreHandsQuery {
            bytes: Bytes::new(),
            ranges: Vec::new(),
            decoded: Some(requests),
            default_ruleset,
            default_view,
            default_overrides,
            part: false,
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
                overrides: None,
            },
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The reader: `None` wherever prost is to decide

/// Field keys (`number << 3 | wire type`) as one varint; wire type 0 is a varint, 2 a
/// length-delimited field.
mod key {
    pub(super) const fn varint(field: u32) -> u64 {
        (field as u64) << 3
    }
    pub(super) const fn delimited(field: u32) -> u64 {
        (field as u64) << 3 | 2
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

/// The fields of a batch read here (where each entry lies, `default_ruleset` and
/// `default_view`), or `None`: then prost decodes all of it.
fn read_batch(bytes: &[u8]) -> Option<(Vec<Range<usize>>, i32, i32)> {
    // One byte of the message in 40 is about one entry in a batch of structured hands.
    let mut ranges = Vec::with_capacity(bytes.len() / 40);
    let (mut default_ruleset, mut default_view) = (0, 0);
    let mut r = Reader::new(bytes);
    while !r.is_done() {
        match r.varint()? {
            k if k == key::delimited(batch::REQUESTS) => {
                let entry = r.delimited()?;
                let start = bytes.len() - r.bytes.len() - entry.len();
                ranges.push(start..start + entry.len());
            }
            k if k == key::varint(batch::DEFAULT_RULESET) => default_ruleset = r.int32()?,
            k if k == key::varint(batch::DEFAULT_VIEW) => default_view = r.int32()?,
            _ => return None,
        }
    }
    Some((ranges, default_ruleset, default_view))
}

/// A `ScoreHandRequest` with a clean structured hand, or `None`.
fn read_clean(bytes: &[u8]) -> Option<CleanRequest> {
    let mut buffer = EntryBuffer::default();
    read_clean_into(bytes, &mut buffer)?;
    Some(buffer.request)
}

/// Reads a `ScoreHandRequest` with a clean structured hand into `buffer`, or `None` (the
/// buffer then holds a part of it).
fn read_clean_into(bytes: &[u8], buffer: &mut EntryBuffer) -> Option<()> {
    let EntryBuffer {
        request,
        spare_tiles,
    } = buffer;
    spare_tiles.extend(request.hand.melds.drain(..).map(|meld| {
        let mut tiles = meld.tiles;
        tiles.clear();
        tiles
    }));
    request.hand.standing.clear();
    request.hand.winning_tile = None;
    request.context = None;
    request.ruleset = 0;
    request.view = 0;
    let mut has_hand = false;
    let mut r = Reader::new(bytes);
    while !r.is_done() {
        match r.varint()? {
            // prost merges a repeated message: left to it.
            k if k == key::delimited(request::HAND) && !has_hand => {
                read_hand(r.delimited()?, &mut request.hand, spare_tiles)?;
                has_hand = true;
            }
            k if k == key::delimited(request::CONTEXT) && request.context.is_none() => {
                request.context = Some(read_context(r.delimited()?)?);
            }
            k if k == key::varint(request::RULESET) => request.ruleset = r.int32()?,
            k if k == key::varint(request::VIEW) => request.view = r.int32()?,
            // The notation, unknown fields, other wire types.
            _ => return None,
        }
    }
    has_hand.then_some(())
}

/// Reads a `Hand` whose every number is valid, as `hand::clean_hand` takes it, into the
/// empty `hand`; the melds' tile lists are taken from `spare_tiles` while it has some.
fn read_hand(bytes: &[u8], hand: &mut HandInput, spare_tiles: &mut Vec<Vec<Tile>>) -> Option<()> {
    let mut winning = pb::Tile::Unspecified as i32;
    let mut r = Reader::new(bytes);
    while !r.is_done() {
        match r.varint()? {
            k if k == key::delimited(hand_fields::MELDS) => {
                let tiles = spare_tiles.pop().unwrap_or_default();
                hand.melds.push(read_meld(r.delimited()?, tiles)?);
            }
            k if k == key::delimited(hand_fields::STANDING_TILES) => {
                read_tiles(r.delimited()?, &mut hand.standing)?;
            }
            k if k == key::varint(hand_fields::WINNING_TILE) => winning = r.int32()?,
            _ => return None,
        }
    }
    hand.winning_tile = optional_tile_of(winning).ok()?;
    Some(())
}

/// A `Meld` whose every number is valid, its tiles in `tiles` (empty).
fn read_meld(bytes: &[u8], mut tiles: Vec<Tile>) -> Option<MeldInput> {
    let mut kind = pb::MeldKind::Unspecified as i32;
    let mut claimed_from = pb::ClaimSource::Unspecified as i32;
    let mut promoted = false;
    let mut claimed_tile = pb::Tile::Unspecified as i32;
    let mut r = Reader::new(bytes);
    while !r.is_done() {
        match r.varint()? {
            k if k == key::varint(meld::KIND) => kind = r.int32()?,
            k if k == key::delimited(meld::TILES) => read_tiles(r.delimited()?, &mut tiles)?,
            k if k == key::varint(meld::CLAIMED_FROM) => claimed_from = r.int32()?,
            k if k == key::varint(meld::PROMOTED) => promoted = r.bool()?,
            k if k == key::varint(meld::CLAIMED_TILE) => claimed_tile = r.int32()?,
            _ => return None,
        }
    }
    Some(MeldInput {
        kind: meld_kind_of(kind)?,
        tiles,
        claimed_from: claim_of(claimed_from).ok()?,
        promoted,
        claimed_tile: optional_tile_of(claimed_tile).ok()?,
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
            k if k == key::varint(context::SELF_DRAWN) => c.self_drawn = r.bool()?,
            k if k == key::varint(context::ROBBING_KONG) => c.robbing_kong = r.bool()?,
            k if k == key::varint(context::REPLACEMENT_DRAW) => c.replacement_draw = r.bool()?,
            k if k == key::varint(context::LAST_TILE) => c.last_tile = r.bool()?,
            k if k == key::varint(context::LAST_COPY) => c.last_copy = r.bool()?,
            k if k == key::varint(context::SEAT_WIND) => c.seat_wind = r.int32()?,
            k if k == key::varint(context::PREVALENT_WIND) => c.prevalent_wind = r.int32()?,
            k if k == key::varint(context::FLOWER_COUNT) => c.flower_count = r.uint32()?,
            _ => return None,
        }
    }
    Some(c)
}
