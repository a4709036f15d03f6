//! The two scoring requests read from their bytes: a structured hand whose every number is
//! valid is read straight into the domain's [`HandInput`], and notation is parsed where it
//! lies, with no intermediate prost message; anything else is decoded by prost and converted as prost's message is
//! ([`ScoreQuery::from_request`]). Both end in the same [`ScoreQuery`].
//!
//! The reader takes only what it can read exactly as prost would: each field in its usual
//! encoding (tiles packed), the hand and the context once, every tile, meld kind and claim a
//! valid number. Anything else (house rules, an unknown field, a repeated
//! message, an unpacked list, a truncated or malformed message) goes to prost, so its meaning,
//! and its decoding error if any, are prost's. `tests/query.rs` checks that for generated,
//! mutated and hand-made encodings alike, the query is the one built from what prost decodes.
//!
//! Scalars follow prost's rules: the last occurrence wins, a varint becomes an `int32` enum
//! or a `uint32` by truncation and a `bool` by comparison with zero. A field added to the
//! contract later is unknown here, so requests that use it go to prost (and through
//! [`crate::api::kit::hand`]'s exhaustive destructuring) until this reader learns it.
//!
//! Measured (`cargo bench --bench score -- api/`): reading a corpus `ScoreHand` here instead
//! of by prost makes the call about 20% faster, and a 1,000-hand basic-view batch about twice
//! as fast (`api/score_hand` against `api/score_hand_prost`, `api/batch_score_hands_basic`
//! against `api/batch_score_hands_basic_prost`).

use std::ops::Range;
use std::sync::Arc;

use bytes::Bytes;
use mcr::{HandInput, MeldInput, Tile};
use prost::Message as _;

use super::fields::{
    batch_score_hands_request as batch, hand as hand_fields, meld, score_hand_request as request,
    win_context as context,
};
use crate::api::kit::hand::{Artefacts, HandSource, optional_tile_of};
use crate::api::kit::query::{Defaults, ScoreQuery, convert_hand};
use crate::api::kit::values::{claim_of, meld_kind_of, tile_from_pb};
use crate::api::pb;

impl ScoreQuery {
    /// Reads an encoded `ScoreHandRequest`; the error is prost's.
    ///
    /// # Errors
    /// When prost cannot decode the bytes.
    pub fn decode(bytes: &[u8]) -> Result<Self, prost::DecodeError> {
        let mut buffer = EntryBuffer::default();
        // Room for any hand at once: growing the lists tile by tile cost a `ScoreHand` three
        // or four reallocations.
        let hand = buffer.query.hand.get_or_insert_with(HandInput::default);
        hand.standing.reserve(14);
        hand.melds.reserve(4);
        buffer.read(bytes, &Defaults::NONE)?;
        Ok(buffer.query)
    }
}

/// Whether the reader reads these bytes itself, without prost (for the tests that check
/// it is the path taken).
pub fn reads_directly(bytes: &[u8]) -> bool {
    EntryBuffer::default()
        .read_directly(bytes, &Defaults::NONE)
        .is_some()
}

/// Room to read requests into, reused from one batch entry to the next: once it has grown to
/// the largest entry, reading a clean entry allocates nothing.
#[derive(Debug, Default)]
pub struct EntryBuffer {
    query: ScoreQuery,
    /// Tile lists of the melds of earlier entries, emptied, for the melds of later ones.
    spare_tiles: Vec<Vec<Tile>>,
}

impl EntryBuffer {
    /// Reads an encoded `ScoreHandRequest` under `defaults`; the error is prost's.
    ///
    /// # Errors
    /// When prost cannot decode the bytes.
    pub fn read(
        &mut self,
        bytes: &[u8],
        defaults: &Defaults,
    ) -> Result<&ScoreQuery, prost::DecodeError> {
        if self.read_directly(bytes, defaults).is_none() {
            let request = pb::ScoreHandRequest::decode(bytes)?;
            self.query.fill(&request, defaults);
        }
        Ok(&self.query)
    }

    /// Reads a request with a clean structured hand, or `None` (the buffer then holds a part
    /// of it).
    fn read_directly(&mut self, bytes: &[u8], defaults: &Defaults) -> Option<()> {
        let EntryBuffer { query, spare_tiles } = self;
        let hand = query.hand.get_or_insert_with(HandInput::default);
        spare_tiles.extend(hand.melds.drain(..).map(|meld| {
            let mut tiles = meld.tiles;
            tiles.clear();
            tiles
        }));
        hand.standing.clear();
        hand.winning_tile = None;
        let (mut has_hand, mut notation, mut read_context) = (false, None, None);
        let (mut ruleset, mut view) = (0, 0);
        let mut r = Reader::new(bytes);
        while !r.is_done() {
            match r.varint()? {
                // The hand once, in one form: prost merges a repeated message, and the last
                // form of the oneof replaces the other.
                k if k == key::delimited(request::HAND) && !has_hand && notation.is_none() => {
                    read_hand(r.delimited()?, hand, spare_tiles)?;
                    has_hand = true;
                }
                k if k == key::delimited(request::NOTATION) && !has_hand && notation.is_none() => {
                    // prost rejects a string that is not UTF-8: left to it, for its error.
                    notation = Some(std::str::from_utf8(r.delimited()?).ok()?);
                }
                k if k == key::delimited(request::CONTEXT) && read_context.is_none() => {
                    read_context = Some(read_win_context(r.delimited()?)?);
                }
                k if k == key::varint(request::RULESET) => ruleset = r.int32()?,
                k if k == key::varint(request::VIEW) => view = r.int32()?,
                // House rules, unknown fields, other wire types.
                _ => return None,
            }
        }
        query.violations.clear();
        if !query.artefacts.is_empty() {
            query.artefacts = Artefacts::default();
        }
        match notation {
            Some(text) => {
                query.hand = convert_hand(
                    Some(HandSource::Notation(text)),
                    &mut query.violations,
                    &mut query.artefacts,
                );
            }
            None if !has_hand => return None,
            None => {}
        }
        query.settle(read_context.as_ref(), ruleset, view, None, defaults);
        Some(())
    }
}

/// A `BatchScoreHandsRequest` as the server reads it.
///
/// Decoding reads the batch's own fields and finds its entries; each entry is then read only
/// when asked for ([`BatchScoreHandsQuery::entry`]), just before it is scored, into a buffer
/// reused from entry to entry, by the fast reader or, for an entry it does not read, by
/// prost. A batch of a thousand hands is never held as a thousand decoded hands, which would
/// cost their allocations and the cache misses of reading them back after the others. A
/// batch whose own fields the reader does not read is decoded by prost at once.
///
/// An entry prost cannot decode makes the whole message prost's error, as if it had not
/// been read at all.
#[derive(Debug, Clone)]
pub struct BatchScoreHandsQuery {
    /// The encoded message (empty when prost decoded it at once).
    bytes: Bytes,
    entries: Entries,
    /// The `default_ruleset` number as sent.
    pub default_ruleset: i32,
    /// The `default_view` number as sent.
    pub default_view: i32,
    /// The `default_overrides` as prost decodes them.
    pub default_overrides: Option<pb::RuleOverrides>,
}

/// The entries of a [`BatchScoreHandsQuery`].
#[derive(Debug, Clone)]
enum Entries {
    /// Where each entry lies in the message's bytes.
    Encoded(Vec<Range<usize>>),
    /// As prost decoded them: those in the window.
    Decoded(Arc<[pb::ScoreHandRequest]>, Range<usize>),
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
            Some(read) => Ok(BatchScoreHandsQuery {
                bytes,
                entries: Entries::Encoded(read.ranges),
                default_ruleset: read.default_ruleset,
                default_view: read.default_view,
                default_overrides: read.default_overrides,
            }),
            None => pb::BatchScoreHandsRequest::decode(bytes).map(BatchScoreHandsQuery::from),
        }
    }

    /// How many entries the batch has.
    pub fn len(&self) -> usize {
        match &self.entries {
            Entries::Encoded(ranges) => ranges.len(),
            Entries::Decoded(_, window) => window.len(),
        }
    }

    /// Whether the batch has no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Entry `index` (`None` past the end) under `defaults`, read into `buffer`.
    ///
    /// # Errors
    /// prost's error for the whole message, when it cannot decode this entry.
    pub fn entry<'a>(
        &self,
        index: usize,
        buffer: &'a mut EntryBuffer,
        defaults: &Defaults,
    ) -> Result<Option<&'a ScoreQuery>, prost::DecodeError> {
        match &self.entries {
            Entries::Encoded(ranges) => {
                let Some(range) = ranges.get(index) else {
                    return Ok(None);
                };
                let entry = self.bytes.get(range.clone()).unwrap_or_default();
                match buffer.read(entry, defaults) {
                    Ok(query) => Ok(Some(query)),
                    Err(entry_error) => Err(self.check().err().unwrap_or(entry_error)),
                }
            }
            Entries::Decoded(requests, window) => {
                let Some(request) = requests
                    .get(window.start + index)
                    .filter(|_| index < window.len())
                else {
                    return Ok(None);
                };
                buffer.query.fill(request, defaults);
                Ok(Some(&buffer.query))
            }
        }
    }

    /// Entries `range` of this batch (clamped to it) as a batch of their own, which reads
    /// them as this one would.
    #[must_use]
    pub fn part(&self, range: Range<usize>) -> Self {
        let end = range.end.min(self.len());
        let range = range.start.min(end)..end;
        let entries = match &self.entries {
            Entries::Encoded(ranges) => {
                Entries::Encoded(ranges.get(range).unwrap_or_default().to_vec())
            }
            Entries::Decoded(requests, window) => Entries::Decoded(
                Arc::clone(requests),
                window.start + range.start..window.start + range.end,
            ),
        };
        BatchScoreHandsQuery {
            bytes: self.bytes.clone(),
            entries,
            default_ruleset: self.default_ruleset,
            default_view: self.default_view,
            default_overrides: self.default_overrides.clone(),
        }
    }

    /// Whether prost can decode the whole message.
    ///
    /// # Errors
    /// prost's, when it cannot.
    pub fn check(&self) -> Result<(), prost::DecodeError> {
        match &self.entries {
            Entries::Encoded(_) => pb::BatchScoreHandsRequest::decode(self.bytes.clone()).map(drop),
            Entries::Decoded(..) => Ok(()),
        }
    }

    /// Every entry, in order, under `defaults`, each read on its own.
    ///
    /// # Errors
    /// prost's, when it cannot decode the whole message.
    pub fn entries(&self, defaults: &Defaults) -> Result<Vec<ScoreQuery>, prost::DecodeError> {
        let mut buffer = EntryBuffer::default();
        (0..self.len())
            .map(|i| {
                self.entry(i, &mut buffer, defaults)
                    .map(|query| query.cloned().unwrap_or_default())
            })
            .collect()
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
        let window = 0..requests.len();
        BatchScoreHandsQuery {
            bytes: Bytes::new(),
            entries: Entries::Decoded(requests.into(), window),
            default_ruleset,
            default_view,
            default_overrides,
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

/// A batch's own fields as [`read_batch`] reads them.
struct BatchFields {
    ranges: Vec<Range<usize>>,
    default_ruleset: i32,
    default_view: i32,
    default_overrides: Option<pb::RuleOverrides>,
}

/// The fields of a batch read here (where each entry lies, the defaults; the house rules by
/// prost), or `None`: then prost decodes all of it.
fn read_batch(bytes: &[u8]) -> Option<BatchFields> {
    // One byte of the message in 40 is about one entry in a batch of structured hands.
    let mut read = BatchFields {
        ranges: Vec::with_capacity(bytes.len() / 40),
        default_ruleset: 0,
        default_view: 0,
        default_overrides: None,
    };
    let mut r = Reader::new(bytes);
    while !r.is_done() {
        match r.varint()? {
            k if k == key::delimited(batch::REQUESTS) => {
                let entry = r.delimited()?;
                let start = bytes.len() - r.bytes.len() - entry.len();
                read.ranges.push(start..start + entry.len());
            }
            k if k == key::varint(batch::DEFAULT_RULESET) => read.default_ruleset = r.int32()?,
            k if k == key::varint(batch::DEFAULT_VIEW) => read.default_view = r.int32()?,
            // prost merges a repeated message: left to it.
            k if k == key::delimited(batch::DEFAULT_OVERRIDES)
                && read.default_overrides.is_none() =>
            {
                read.default_overrides = Some(pb::RuleOverrides::decode(r.delimited()?).ok()?);
            }
            _ => return None,
        }
    }
    Some(read)
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
fn read_win_context(bytes: &[u8]) -> Option<pb::WinContext> {
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
