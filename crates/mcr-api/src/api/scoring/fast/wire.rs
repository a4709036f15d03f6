//! The two scoring responses, `ScoreHandResponse` and `BatchScoreHandsResponse`, written in
//! protobuf straight from the domain score: the hot path of `ScoreHand` and
//! `BatchScoreHands`, which would otherwise build the prost messages (a `String` per fan
//! name, a `Vec` per line and element) only to encode and drop them.
//!
//! The bytes are exactly those prost writes for the message that
//! [`crate::api::kit::score_sheet::score_response`] builds: fields in number order, proto3 defaults left
//! out, repeated scalars packed, nested messages behind their minimal length. `tests/wire.rs`
//! checks that byte for byte for every corpus hand under the three rulesets in every view,
//! and for batches with faulty entries.
//! The field numbers come from [`super::fields`], generated from the contract; a test
//! (`tests/wire.rs`) checks that every field of every message written here is written.

use std::sync::LazyLock;

use mcr::notation::{write_canonical, write_glyphs};
use mcr::{Element, ElementSet, Fan, FanLine};

use super::fields::{
    batch_score_hands_response as batch, batch_score_hands_result as result, fan_line, hand_error,
    reading, reading_element as element, score_hand_response as response, violation,
};
use crate::api::kit::values::{
    INVALID_HAND, detail_of, element_kind_to_pb, fan_to_pb, outcome_to_pb, ruleset_to_pb,
    shape_to_pb, tile_to_pb,
};
use crate::api::pb;
use crate::assessment::{Assessment, Detail, Scored};
use crate::limits::Shown;

/// An encoded `ScoreHandResponse` (the message, without the gRPC frame).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScoreHandReply(Vec<u8>);

/// An encoded `BatchScoreHandsResponse` (the message, without the gRPC frame).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BatchScoreHandsReply {
    bytes: Vec<u8>,
    scored: usize,
}

impl ScoreHandReply {
    /// The score `s` in `view`.
    pub fn new(s: &Scored, view: pb::ScoreView) -> Self {
        let mut out = Vec::with_capacity(320);
        put_score(&mut out, s, view);
        ScoreHandReply(out)
    }

    /// The protobuf encoding.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

impl BatchScoreHandsReply {
    /// The protobuf encoding.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// How many of the results are scores (the others are errors).
    pub fn scored(&self) -> usize {
        self.scored
    }

    /// Appends the results of `later`, a reply to the entries that follow this reply's: a
    /// repeated field's entries encoded apart and concatenated in order are the field.
    pub fn append(&mut self, later: &BatchScoreHandsReply) {
        self.bytes.extend_from_slice(&later.bytes);
        self.scored += later.scored;
    }
}

/// Writes a `BatchScoreHandsResponse` one result at a time, in request order.
#[derive(Debug, Default)]
pub struct BatchWriter {
    out: Vec<u8>,
    scored: usize,
}

impl BatchWriter {
    /// A writer with room for about `hands` results in `view` (the public corpus averages
    /// 365 bytes a hand with the full sheet, 51 without).
    pub fn with_capacity(hands: usize, view: pb::ScoreView) -> Self {
        let per_hand = match detail_of(view) {
            Detail::Sheet => 384,
            Detail::Totals => 80,
        };
        BatchWriter {
            out: Vec::with_capacity(hands.saturating_mul(per_hand)),
            scored: 0,
        }
    }

    /// The bytes of the reply written so far.
    pub fn written(&self) -> usize {
        self.out.len()
    }

    /// Appends the result of one entry: its score in `view`, or its violations.
    pub fn push(&mut self, assessment: &Assessment, view: pb::ScoreView) {
        // BatchScoreHandsResponse.results = 1, each a BatchScoreHandsResult whose oneof is
        // score = 1 (ScoreHandResponse) or error = 2 (HandError). A full score sheet is
        // nearly always 128 bytes or longer: its length (and the result's) takes two bytes.
        let room = match detail_of(view) {
            Detail::Sheet => 2,
            Detail::Totals => 1,
        };
        put_message_in(
            &mut self.out,
            batch::RESULTS,
            room,
            |out| match assessment {
                Assessment::Scored(s) => {
                    self.scored += 1;
                    put_message_in(out, result::SCORE, room, |out| put_score(out, s, view));
                }
                Assessment::Invalid(violations) => put_message(out, result::ERROR, |out| {
                    put_str(out, hand_error::REASON, INVALID_HAND);
                    for v in crate::limits::shown_violations(violations) {
                        put_message(out, hand_error::VIOLATIONS, |out| put_violation(out, &v));
                    }
                }),
            },
        );
    }

    /// The encoded response.
    pub fn finish(self) -> BatchScoreHandsReply {
        BatchScoreHandsReply {
            bytes: self.out,
            scored: self.scored,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The messages

/// `ScoreHandResponse` of a score, as `scoring::score_response` builds it for `view`.
fn put_score(out: &mut Vec<u8>, s: &Scored, view: pb::ScoreView) {
    let full = match detail_of(view) {
        Detail::Totals => false,
        Detail::Sheet => true,
    };
    let scoring = &s.scoring;
    put_enum(
        out,
        response::OUTCOME,
        outcome_to_pb(scoring.outcome) as i32,
    );
    for line in &s.lines {
        put_message(out, response::FANS, |out| put_fan_line(out, line, full));
    }
    put_uint(out, response::FAN_TOTAL, scoring.fan_total);
    put_uint(out, response::FLOWER_POINTS, scoring.flower_points);
    put_uint(out, response::TOTAL, scoring.total);
    // `violations`: none in a score.
    if full {
        if let Some(reading) = &scoring.reading {
            put_message(out, response::READING, |out| {
                put_enum(out, reading::SHAPE, shape_to_pb(reading.shape()) as i32);
                for element in &s.elements {
                    put_element(out, reading::ELEMENTS, element);
                }
            });
        }
        // The notation, written in place: never empty (it ends with the winning tile), and
        // under 128 characters (at most four melds of eight and nineteen more), so its
        // length takes the one byte `put_message` leaves.
        put_message(out, response::NOTATION, |out| write_canonical(out, &s.hand));
    }
    put_enum(out, response::RULESET, ruleset_to_pb(s.ruleset) as i32);
    if full {
        // The glyphs, four bytes a tile: at most eighteen tiles and twelve more characters,
        // still under 128 bytes.
        put_message(out, response::GLYPHS, |out| write_glyphs(out, &s.hand));
    }
    put_fingerprint(out, response::RULES_FINGERPRINT, s.fingerprint);
}

/// The rules' fingerprint as a `string` field of 16 lower-case hex digits (what
/// `house_rules::fingerprint_text` writes), without building the string.
fn put_fingerprint(out: &mut Vec<u8>, field: u32, fingerprint: u64) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    put_key_varint(out, field, LEN, 16);
    for shift in (0..16).rev() {
        let nibble = (fingerprint >> (4 * shift)) & 0xf;
        out.push(DIGITS[usize::try_from(nibble).unwrap_or(0)]);
    }
}

/// `FanLine`: the numbers always, the names and elements in the full view.
fn put_fan_line(out: &mut Vec<u8>, line: &FanLine, full: bool) {
    if full {
        fan_and_names(line.fan).0.put(out);
    } else {
        put_enum(out, fan_line::FAN, fan_to_pb(line.fan));
    }
    put_uint(out, fan_line::POINTS, u32::from(line.points));
    put_uint(out, fan_line::COUNT, u32::from(line.count));
    put_uint(out, fan_line::TOTAL_POINTS, line.total());
    if full {
        put_indices(out, fan_line::ELEMENT_INDICES, line.elements);
        fan_and_names(line.fan).1.put(out);
    }
}

/// The first three fields of a fan line in the full view (`fan`, `name_zh`, `name_en`), and
/// its last (`name_zh_hant`), the same for every line of a fan: written once per fan, when
/// first needed.
fn fan_and_names(fan: Fan) -> &'static (Piece, Piece) {
    static ENCODED: LazyLock<Vec<(Piece, Piece)>> = LazyLock::new(|| {
        let ids = usize::from(Fan::ALL.iter().map(|f| f.id()).max().unwrap_or(0)) + 1;
        let mut by_id: Vec<(Piece, Piece)> = (0..ids)
            .map(|_| (Piece::new(Vec::new()), Piece::new(Vec::new())))
            .collect();
        for fan in Fan::ALL {
            let spec = fan.spec();
            let mut head = Vec::new();
            put_enum(&mut head, fan_line::FAN, fan_to_pb(fan));
            put_str(&mut head, fan_line::NAME_ZH, spec.name_zh);
            put_str(&mut head, fan_line::NAME_EN, spec.name_en);
            let mut tail = Vec::new();
            put_str(&mut tail, fan_line::NAME_ZH_HANT, spec.name_zh_hant);
            by_id[usize::from(fan.id())] = (Piece::new(head), Piece::new(tail));
        }
        by_id
    });
    &ENCODED[usize::from(fan.id())]
}

/// The size of the blocks [`Piece`] and [`put_block`] copy.
const BLOCK: usize = 64;

/// Encoded bytes written many times over, kept also as a zero-padded block when they fit one.
#[derive(Debug)]
struct Piece {
    block: [u8; BLOCK],
    bytes: Vec<u8>,
}

impl Piece {
    fn new(bytes: Vec<u8>) -> Self {
        let mut block = [0; BLOCK];
        if let Some(head) = block.get_mut(..bytes.len()) {
            head.copy_from_slice(&bytes);
        }
        Piece { block, bytes }
    }

    fn put(&self, out: &mut Vec<u8>) {
        if self.bytes.len() <= BLOCK {
            put_block(out, &self.block, self.bytes.len());
        } else {
            out.extend_from_slice(&self.bytes);
        }
    }
}

/// Appends the first `len` bytes of `block`. The whole block is copied, then the copy cut to
/// length: a copy of a size known when compiling is a few vector moves, while one of a size
/// known only when running is a call to `memcpy`, which for the few dozen bytes of a fan's
/// names or a reading element cost more than the copy (2.6% of the server's cycles in
/// full-view batches).
#[inline]
fn put_block(out: &mut Vec<u8>, block: &[u8; BLOCK], len: usize) {
    let at = out.len();
    out.extend_from_slice(block);
    out.truncate(at + len.min(BLOCK));
}

/// A `ReadingElement` as message field `field` (below 16). Every number in it is below 128
/// (the kind, tile numbers 1 to 34, at most nine tiles), so each takes one byte and the
/// length is known before the body is written: the field goes out in one piece.
fn put_element(out: &mut Vec<u8>, field: u32, element: &Element) {
    let kind = element_kind_to_pb(element.kind) as i32;
    let tiles = &*element.tiles;
    // At most 2 + 2 + 2 + 9 + 2 + 2 = 19 bytes.
    let mut bytes = [0u8; BLOCK];
    let mut n = 2;
    let mut put = |byte: u8| {
        bytes[n] = byte;
        n += 1;
    };
    // `tiles` packed; proto3 leaves out defaults.
    if kind != 0 {
        put(small_key(element::KIND, VARINT));
        put(small_byte(enum_value(kind)));
    }
    if !tiles.is_empty() {
        put(small_key(element::TILES, LEN));
        put(small_byte(tiles.len() as u64));
        for &t in tiles {
            put(small_byte(enum_value(tile_to_pb(t))));
        }
    }
    if element.declared {
        put(small_key(element::DECLARED, VARINT));
        put(1);
    }
    if element.claimed {
        put(small_key(element::CLAIMED, VARINT));
        put(1);
    }
    bytes[0] = small_key(field, LEN);
    bytes[1] = small_byte((n - 2) as u64);
    put_block(out, &bytes, n);
}

/// `Violation`, as an answer lists it.
fn put_violation(out: &mut Vec<u8>, v: &Shown<'_>) {
    put_str(out, violation::CODE, v.code.as_str());
    put_str(out, violation::FIELD, &v.field);
    put_str(out, violation::MESSAGE, &v.message);
}

// ---------------------------------------------------------------------------------------------
// The protobuf encoding (https://protobuf.dev/programming-guides/encoding/)

/// Wire type of varints (integers, enums, booleans).
const VARINT: u32 = 0;
/// Wire type of length-delimited fields (strings, messages, packed scalars).
const LEN: u32 = 2;

/// The longest varint: ten bytes for 64 bits.
const MAX_VARINT: usize = 10;

/// The varint of `value` in `buf`; returns its length.
fn varint(mut value: u64, buf: &mut [u8; MAX_VARINT]) -> usize {
    let mut n = 0;
    while value >= 0x80 {
        buf[n] = (value & 0x7f) as u8 | 0x80;
        value >>= 7;
        n += 1;
    }
    buf[n] = (value & 0x7f) as u8;
    n + 1
}

// Out of line (as the compiler chose with `#[inline]`), the ~50 varints of a score sheet
// cost ~2,000 instructions a call more (callgrind, `api/score_hand`).
#[allow(clippy::inline_always)]
#[inline(always)]
fn put_varint(out: &mut Vec<u8>, value: u64) {
    // Keys, enums, counts and short lengths: one byte.
    if value < 0x80 {
        out.push((value & 0x7f) as u8);
    } else {
        let mut buf = [0; MAX_VARINT];
        let n = varint(value, &mut buf);
        out.extend_from_slice(&buf[..n]);
    }
}

#[allow(clippy::inline_always)] // as put_varint
#[inline(always)]
fn put_key(out: &mut Vec<u8>, field: u32, wire_type: u32) {
    put_varint(out, u64::from(field << 3 | wire_type));
}

/// An enum's number as its varint value: a negative `int32` is written as its 64-bit two's
/// complement.
#[allow(clippy::cast_sign_loss)]
fn enum_value(number: i32) -> u64 {
    i64::from(number) as u64
}

/// The one-byte key of a field numbered below 16.
fn small_key(field: u32, wire_type: u32) -> u8 {
    debug_assert!(field < 16, "field {field} takes a two-byte key");
    ((field << 3 | wire_type) & 0x7f) as u8
}

/// The one-byte varint of a value below 128.
fn small_byte(value: u64) -> u8 {
    debug_assert!(value < 0x80, "{value} takes more than one varint byte");
    (value & 0x7f) as u8
}

/// A packed field of element indices (below [`ElementSet::CAPACITY`], 32: one byte each);
/// left out when empty.
fn put_indices(out: &mut Vec<u8>, field: u32, indices: ElementSet) {
    if indices.is_empty() {
        return;
    }
    out.extend_from_slice(&[small_key(field, LEN), small_byte(indices.len() as u64)]);
    out.extend(indices.iter().map(|i| small_byte(i as u64)));
}

/// A key and a varint: the value of a scalar field, or the length of a delimited one.
#[allow(clippy::inline_always)] // as put_varint
#[inline(always)]
fn put_key_varint(out: &mut Vec<u8>, field: u32, wire_type: u32, value: u64) {
    let key = field << 3 | wire_type;
    // Field numbers below 16 and values below 128, nearly all of them: two bytes, written
    // at once.
    if key < 0x80 && value < 0x80 {
        out.extend_from_slice(&[(key & 0x7f) as u8, (value & 0x7f) as u8]);
    } else {
        put_key(out, field, wire_type);
        put_varint(out, value);
    }
}

/// A `uint32` field; proto3 leaves out zero.
#[inline]
fn put_uint(out: &mut Vec<u8>, field: u32, value: u32) {
    if value != 0 {
        put_key_varint(out, field, VARINT, u64::from(value));
    }
}

/// An enum field; proto3 leaves out zero.
#[inline]
fn put_enum(out: &mut Vec<u8>, field: u32, number: i32) {
    if number != 0 {
        put_key_varint(out, field, VARINT, enum_value(number));
    }
}

/// A `string` field; proto3 leaves out the empty string.
#[inline]
fn put_str(out: &mut Vec<u8>, field: u32, value: &str) {
    if !value.is_empty() {
        put_key_varint(out, field, LEN, value.len() as u64);
        out.extend_from_slice(value.as_bytes());
    }
}

/// A message field, written even when its body is empty: the key, the body's length, then
/// the body `write` appends. The body is written behind a one-byte length, which is widened
/// afterwards when the body is 128 bytes or longer.
fn put_message(out: &mut Vec<u8>, field: u32, write: impl FnOnce(&mut Vec<u8>)) {
    put_message_in(out, field, 1, write);
}

/// [`put_message`] with `room` bytes left for the length: the body moves afterwards only
/// when its length takes another number of bytes.
fn put_message_in(out: &mut Vec<u8>, field: u32, room: usize, write: impl FnOnce(&mut Vec<u8>)) {
    put_key(out, field, LEN);
    let at = out.len();
    // One byte, nearly always: a push is cheaper than a resize.
    if room == 1 {
        out.push(0);
    } else {
        out.resize(at + room, 0);
    }
    write(out);
    let body = out.len() - at - room;
    let mut len = [0; MAX_VARINT];
    let n = varint(body as u64, &mut len);
    if n > room {
        out.resize(out.len() + n - room, 0);
    }
    if n != room {
        out.copy_within(at + room..at + room + body, at + n);
        out.truncate(at + n + body);
    }
    // One or two bytes, nearly always: stored as such rather than copied by a call.
    match n {
        1 => out[at] = len[0],
        2 => {
            out[at] = len[0];
            out[at + 1] = len[1];
        }
        _ => out[at..at + n].copy_from_slice(&len[..n]),
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use prost::Message as _;

    use super::*;

    proptest! {
        #[test]
        fn varints_are_those_of_prost(value in any::<u64>()) {
            let mut ours = Vec::new();
            put_varint(&mut ours, value);
            let mut theirs = Vec::new();
            prost::encoding::encode_varint(value, &mut theirs);
            prop_assert_eq!(&ours, &theirs);
        }

        #[test]
        fn pieces_write_their_bytes(
            bytes in prop::collection::vec(any::<u8>(), 0..2 * BLOCK),
            before in prop::collection::vec(any::<u8>(), 0..8),
        ) {
            let mut out = before.clone();
            Piece::new(bytes.clone()).put(&mut out);
            prop_assert_eq!(out, [before, bytes].concat());
        }

        #[test]
        fn element_indices_are_those_of_prost(mask in any::<u32>(), field in 1u32..16) {
            let indices: ElementSet = (0..32).filter(|i| mask & (1 << i) != 0).collect();
            let mut ours = vec![7];
            put_indices(&mut ours, field, indices);
            let values: Vec<u32> = indices.iter().map(|i| u32::try_from(i).unwrap()).collect();
            let mut theirs = vec![7];
            prost::encoding::uint32::encode_packed(field, &values, &mut theirs);
            prop_assert_eq!(ours, theirs);
        }

        #[test]
        fn messages_of_any_length_are_those_of_prost(text in ".{0,300}", field in 1u32..5000) {
            let mut ours = Vec::new();
            put_message(&mut ours, field, |out| put_str(out, 1, &text));
            let theirs = pb::HandError { reason: text.clone(), violations: Vec::new() };
            let mut expected = Vec::new();
            prost::encoding::message::encode(field, &theirs, &mut expected);
            prop_assert_eq!(ours, expected);
        }

        #[test]
        fn messages_with_room_for_any_length_are_those_of_prost(
            // Lengths of one, two and three varint bytes.
            text in prop_oneof![".{0,300}", "[a-z]{16300,16500}"],
            field in 1u32..5000,
            room in 1usize..4,
        ) {
            let mut ours = vec![7];
            put_message_in(&mut ours, field, room, |out| put_str(out, 1, &text));
            let theirs = pb::HandError { reason: text.clone(), violations: Vec::new() };
            let mut expected = vec![7];
            prost::encoding::message::encode(field, &theirs, &mut expected);
            prop_assert_eq!(ours, expected);
        }

        #[test]
        fn negative_enums_are_those_of_prost(number in any::<i32>()) {
            let mut ours = Vec::new();
            put_enum(&mut ours, 9, number);
            let theirs = pb::ScoreHandResponse { ruleset: number, ..Default::default() };
            prop_assert_eq!(ours, theirs.encode_to_vec());
        }
    }
}
