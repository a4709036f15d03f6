//! The server reads the scoring requests (`api::scoring::fast::query`) exactly as prost decodes them:
//! for messages prost encodes (valid and invalid numbers, notation, missing parts), the same
//! bytes with bytes replaced, inserted and removed, every truncation, and encodings prost
//! never writes but accepts (unpacked lists, repeated and merged messages, unknown fields,
//! overlong varints), the query read is the one built from the message prost decodes, or
//! the error is prost's.
//!
//! The reader is kept for a measured gain (`cargo bench --bench score -- api/`: about 20% a
//! `ScoreHand` call, twice as fast a batch); this test is what lets it stay exact.

use bytes::Bytes;
use mahjong_referee::api::KeptRules;
use mahjong_referee::api::kit::query::{Defaults, ScoreQuery};
use mahjong_referee::api::pb;
use mahjong_referee::api::scoring::fast::query::{BatchScoreHandsQuery, reads_directly};
use pb::score_hand_request::HandInput;
use proptest::prelude::*;
use prost::Message as _;

#[allow(dead_code)] // the corpus helpers this test does not use
mod support;

use support::requests::{batch, request};

/// What the server reads from `bytes` is the query of the message prost decodes, or prost's
/// error.
fn assert_reads_as_prost(bytes: &[u8]) -> Result<(), TestCaseError> {
    match (
        ScoreQuery::decode(bytes),
        pb::ScoreHandRequest::decode(bytes),
    ) {
        (Ok(query), Ok(decoded)) => prop_assert_eq!(query, ScoreQuery::from(&decoded)),
        (Err(read), Err(decoded)) => prop_assert_eq!(read, decoded),
        (read, decoded) => prop_assert!(false, "{bytes:?}: {read:?} but prost {decoded:?}"),
    }
    Ok(())
}

/// The batch's entries as the server reads them, under the batch's defaults.
fn batch_entries(
    bytes: &[u8],
) -> Result<(BatchScoreHandsQuery, Vec<ScoreQuery>), prost::DecodeError> {
    // Each entry is read when asked for: the error may come only then.
    let query = BatchScoreHandsQuery::decode(Bytes::copy_from_slice(bytes))?;
    let entries = query.entries(&defaults(query.default_ruleset, query.default_view))?;
    Ok((query, entries))
}

/// A batch's defaults as the entries see them (the house rules are left to the scoring).
fn defaults(ruleset: i32, view: i32) -> Defaults {
    Defaults::of_batch(ruleset, view, None, &KeptRules::default()).unwrap_or(Defaults::NONE)
}

/// What the server reads from a batch's `bytes` is the queries of the entries prost decodes,
/// or prost's error.
fn assert_batch_reads_as_prost(bytes: &[u8]) -> Result<(), TestCaseError> {
    match (
        batch_entries(bytes),
        pb::BatchScoreHandsRequest::decode(bytes),
    ) {
        (Ok((query, entries)), Ok(decoded)) => {
            prop_assert_eq!(query.default_overrides, decoded.default_overrides.clone());
            let defaults = defaults(decoded.default_ruleset, decoded.default_view);
            let expected: Vec<_> = decoded
                .requests
                .iter()
                .map(|r| ScoreQuery::from_request(r, &defaults))
                .collect();
            prop_assert_eq!(entries, expected);
        }
        (Err(read), Err(decoded)) => prop_assert_eq!(read, decoded),
        (read, decoded) => prop_assert!(false, "{bytes:?}: {read:?} but prost {decoded:?}"),
    }
    Ok(())
}

/// Whether the request is notation or a structured hand whose every number is valid: what
/// the server reads without prost.
fn is_clean(request: &pb::ScoreHandRequest) -> bool {
    let tile = |n: i32| (1..=34).contains(&n);
    // House rules are prost's to read; notation is read as it is.
    let hand = match &request.hand_input {
        Some(HandInput::Hand(hand)) => hand,
        Some(HandInput::Notation(_)) => return request.overrides.is_none(),
        None => return false,
    };
    request.overrides.is_none()
        && hand.standing_tiles.iter().all(|&t| tile(t))
        && (hand.winning_tile == 0 || tile(hand.winning_tile))
        && hand.melds.iter().all(|m| {
            (1..=4).contains(&m.kind)
                && (0..=3).contains(&m.claimed_from)
                && (m.claimed_tile == 0 || tile(m.claimed_tile))
                && m.tiles.iter().all(|&t| tile(t))
        })
}

/// An edit of an encoding: replace, insert or remove a byte.
#[derive(Debug, Clone)]
enum Edit {
    Replace(prop::sample::Index, u8),
    Insert(prop::sample::Index, u8),
    Remove(prop::sample::Index),
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let edit = prop_oneof![
        (any::<prop::sample::Index>(), any::<u8>()).prop_map(|(i, b)| Edit::Replace(i, b)),
        (any::<prop::sample::Index>(), any::<u8>()).prop_map(|(i, b)| Edit::Insert(i, b)),
        any::<prop::sample::Index>().prop_map(Edit::Remove),
    ];
    prop::collection::vec(edit, 1..4)
}

fn edited(mut bytes: Vec<u8>, edits: &[Edit]) -> Vec<u8> {
    for edit in edits {
        match edit {
            Edit::Replace(i, b) if !bytes.is_empty() => {
                let i = i.index(bytes.len());
                bytes[i] = *b;
            }
            Edit::Insert(i, b) => {
                let i = i.index(bytes.len() + 1);
                bytes.insert(i, *b);
            }
            Edit::Remove(i) if !bytes.is_empty() => {
                let i = i.index(bytes.len());
                bytes.remove(i);
            }
            Edit::Replace(..) | Edit::Remove(_) => {}
        }
    }
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn requests_read_as_prost_decodes_them(request in request()) {
        let bytes = request.encode_to_vec();
        let query = ScoreQuery::decode(&bytes).expect("prost's own encoding");
        // Notation and the structured hands with valid numbers are the ones read without prost.
        prop_assert_eq!(reads_directly(&bytes), is_clean(&request));
        prop_assert_eq!(query, ScoreQuery::from(&request));
    }

    #[test]
    fn edited_requests_read_as_prost_decodes_them(request in request(), edits in edits()) {
        assert_reads_as_prost(&edited(request.encode_to_vec(), &edits))?;
    }

    #[test]
    fn batches_read_as_prost_decodes_them(batch in batch()) {
        let bytes = batch.encode_to_vec();
        let (query, entries) = batch_entries(&bytes).expect("prost's own encoding");
        prop_assert_eq!(query.len(), batch.requests.len());
        // Each clean entry is read straight, the others by prost, entry by entry.
        for request in &batch.requests {
            prop_assert_eq!(reads_directly(&request.encode_to_vec()), is_clean(request));
        }
        prop_assert_eq!(entries.len(), batch.requests.len());
        assert_batch_reads_as_prost(&bytes)?;
    }

    #[test]
    fn edited_batches_read_as_prost_decodes_them(batch in batch(), edits in edits()) {
        assert_batch_reads_as_prost(&edited(batch.encode_to_vec(), &edits))?;
    }

    #[test]
    fn concatenated_requests_read_as_prost_merges_them(a in request(), b in request()) {
        // Two encodings one after the other: prost merges them (a repeated message merges,
        // scalars take the last value, lists append, the oneof takes the last hand).
        let mut bytes = a.encode_to_vec();
        bytes.extend(b.encode_to_vec());
        assert_reads_as_prost(&bytes)?;
        let mut batch = pb::BatchScoreHandsRequest { requests: vec![a], ..Default::default() }
            .encode_to_vec();
        batch.extend(pb::BatchScoreHandsRequest { requests: vec![b], ..Default::default() }
            .encode_to_vec());
        assert_batch_reads_as_prost(&batch)?;
    }
}

// ---------------------------------------------------------------------------------------------
// Hand-made encodings

/// A clean request: a pung, a chow and standing tiles, with a context.
fn clean_request() -> pb::ScoreHandRequest {
    pb::ScoreHandRequest {
        hand_input: Some(HandInput::Hand(pb::Hand {
            melds: vec![
                pb::Meld {
                    kind: pb::MeldKind::Pung as i32,
                    tiles: vec![5, 5, 5],
                    claimed_from: pb::ClaimSource::Opposite as i32,
                    promoted: false,
                    claimed_tile: 0,
                },
                pb::Meld {
                    kind: pb::MeldKind::Chow as i32,
                    tiles: vec![10, 11, 12],
                    claimed_from: 0,
                    promoted: false,
                    claimed_tile: 0,
                },
            ],
            standing_tiles: vec![19, 20, 21, 28, 28, 28, 31],
            winning_tile: 31,
        })),
        context: Some(pb::WinContext {
            self_drawn: true,
            seat_wind: pb::Wind::South as i32,
            flower_count: 2,
            ..Default::default()
        }),
        ruleset: pb::Ruleset::Mil as i32,
        view: pb::ScoreView::Basic as i32,
        overrides: None,
    }
}

#[test]
fn every_truncation_reads_as_prost_decodes_it() {
    let bytes = clean_request().encode_to_vec();
    assert!(reads_directly(&bytes));
    for len in 0..bytes.len() {
        assert_reads_as_prost(&bytes[..len]).unwrap();
    }
    let batch = pb::BatchScoreHandsRequest {
        requests: vec![clean_request(), clean_request()],
        default_ruleset: 2,
        default_view: 1,
        default_overrides: None,
    }
    .encode_to_vec();
    for len in 0..=batch.len() {
        assert_batch_reads_as_prost(&batch[..len]).unwrap();
    }
}

/// A varint as protobuf writes it.
fn varint(mut value: u64, out: &mut Vec<u8>) {
    let low = |v: u64| u8::try_from(v & 0x7f).expect("seven bits");
    while value >= 0x80 {
        out.push(low(value) | 0x80);
        value >>= 7;
    }
    out.push(low(value));
}

fn field(number: u64, wire_type: u64, contents: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    varint(number << 3 | wire_type, &mut out);
    if wire_type == 2 {
        varint(contents.len() as u64, &mut out);
    }
    out.extend_from_slice(contents);
    out
}

fn varint_field(number: u64, value: u64) -> Vec<u8> {
    let mut contents = Vec::new();
    varint(value, &mut contents);
    field(number, 0, &contents)
}

/// Encodings prost never writes, each named: some it accepts, some it rejects.
#[allow(clippy::too_many_lines)] // a table, one case a line or three
fn unusual_encodings() -> Vec<(&'static str, Vec<u8>)> {
    let request = clean_request().encode_to_vec();
    let Some(HandInput::Hand(hand)) = clean_request().hand_input else {
        unreachable!()
    };
    let hand = hand.encode_to_vec();
    let unpacked_standing: Vec<u8> = [19u64, 20, 21]
        .iter()
        .flat_map(|&t| varint_field(2, t))
        .collect();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("unpacked standing tiles", field(2, 2, &unpacked_standing)),
        (
            "packed and unpacked standing tiles",
            field(
                2,
                2,
                &[field(2, 2, &[19, 20]), varint_field(2, 21)].concat(),
            ),
        ),
        (
            "two packed runs",
            field(2, 2, &[field(2, 2, &[19]), field(2, 2, &[20, 21])].concat()),
        ),
        (
            "the hand twice (merged)",
            [field(2, 2, &hand), field(2, 2, &hand)].concat(),
        ),
        (
            "notation then hand",
            [field(1, 2, b"123m"), field(2, 2, &hand)].concat(),
        ),
        (
            "hand then notation",
            [field(2, 2, &hand), field(1, 2, b"123m")].concat(),
        ),
        ("a bad UTF-8 notation", field(1, 2, &[0xff, 0xfe])),
        (
            "the context twice (merged)",
            [request.clone(), field(3, 2, &varint_field(6, 3))].concat(),
        ),
        (
            "an unknown field",
            [request.clone(), varint_field(99, 1)].concat(),
        ),
        (
            "an unknown field in the hand",
            field(2, 2, &[hand.clone(), varint_field(9, 4)].concat()),
        ),
        (
            "field number 0",
            [request.clone(), vec![0x00, 0x01]].concat(),
        ),
        (
            "a group wire type",
            [request.clone(), vec![0x4b, 0x4c]].concat(),
        ),
        ("wire type 7", [request.clone(), vec![0x4f]].concat()),
        (
            "a negative ruleset (ten bytes)",
            [request.clone(), varint_field(4, u64::MAX)].concat(),
        ),
        (
            "a ruleset beyond 32 bits",
            [request.clone(), varint_field(4, 1 << 40 | 2)].concat(),
        ),
        (
            "an overlong varint",
            [request.clone(), vec![0x20, 0x82, 0x80, 0x80, 0x00]].concat(),
        ),
        (
            "an eleven-byte varint",
            [request.clone(), vec![0x20], vec![0xff; 10], vec![0x01]].concat(),
        ),
        (
            "a tenth varint byte of 2",
            [request.clone(), vec![0x20], vec![0xff; 9], vec![0x02]].concat(),
        ),
        (
            "a ruleset as a fixed32",
            [request.clone(), field(4, 5, &[1, 0, 0, 0])].concat(),
        ),
        ("the hand as a varint", varint_field(2, 1)),
        (
            "a length past the end",
            [request.clone(), vec![0x12, 0x7f, 0x08]].concat(),
        ),
        (
            "flower count beyond 32 bits",
            [
                field(2, 2, &hand),
                field(3, 2, &varint_field(8, 1 << 33 | 5)),
            ]
            .concat(),
        ),
        (
            "a boolean of 2",
            [field(2, 2, &hand), field(3, 2, &varint_field(1, 2))].concat(),
        ),
        (
            "a tile of 1 written in two bytes",
            field(2, 2, &field(2, 2, &[0x81, 0x00, 0x02])),
        ),
        (
            "a packed tile list cut in a varint",
            field(2, 2, &field(2, 2, &[0x81])),
        ),
        ("an empty hand", field(2, 2, &[])),
        ("nothing", Vec::new()),
    ];
    cases
}

#[test]
fn encodings_prost_never_writes_read_as_prost_decodes_them() {
    let request = clean_request().encode_to_vec();
    for (what, bytes) in unusual_encodings() {
        assert_reads_as_prost(&bytes).unwrap_or_else(|e| panic!("{what}: {e}"));
        let batch = field(1, 2, &bytes);
        assert_batch_reads_as_prost(&batch).unwrap_or_else(|e| panic!("{what} in a batch: {e}"));
        let batch = [batch, varint_field(2, 2), field(1, 2, &request)].concat();
        assert_batch_reads_as_prost(&batch).unwrap_or_else(|e| panic!("{what} in a batch: {e}"));
    }
}
