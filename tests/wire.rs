//! The scoring responses the server writes itself (`api::wire`) are byte for byte what prost
//! writes for the messages `scoring::score_request` builds: every corpus hand under the three
//! rulesets in each view, losing and flowered hands included, and batches that mix scores
//! with faulty entries.

use bytes::Bytes;
use mahjong_referee::api::KeptRules;
use mahjong_referee::api::kit::query::ScoreQuery;
use mahjong_referee::api::kit::values::INVALID_HAND;
use mahjong_referee::api::pb;
use mahjong_referee::api::scoring::fast::query::{BatchScoreHandsQuery, reads_directly};
use mahjong_referee::api::scoring::{BatchScoring, batch_score_hands, score_hand, score_request};
use pb::score_hand_request::HandInput;
use prost::Message as _;

#[allow(dead_code)] // the corpus helpers this test does not use
mod support;

const RULESETS: [pb::Ruleset; 3] = [
    pb::Ruleset::ChineseOfficial1998,
    pb::Ruleset::Mil,
    pb::Ruleset::GreenBook2006,
];

const VIEWS: [pb::ScoreView; 3] = [
    pb::ScoreView::Unspecified,
    pb::ScoreView::Basic,
    pb::ScoreView::Full,
];

/// The corpus hands as requests (ruleset and view left unspecified).
fn corpus_requests() -> Vec<pb::ScoreHandRequest> {
    let requests: Vec<_> = support::corpus::load()
        .iter()
        .filter_map(support::corpus::Case::input)
        .map(|(hand, ctx)| {
            support::corpus::request(
                &hand,
                ctx,
                pb::Ruleset::Unspecified,
                pb::ScoreView::Unspecified,
            )
        })
        .collect();
    assert!(requests.len() > 2_900, "{} usable hands", requests.len());
    requests
}

/// Requests no score can come from: an unknown tile, no hand, bad notation, an unknown view,
/// a hand that breaks the domain's rules (five of a tile).
fn faulty_requests() -> Vec<pb::ScoreHandRequest> {
    let notation = |text: &str| Some(HandInput::Notation(text.to_owned()));
    let mut unknown_tile = pb::Hand {
        standing_tiles: (1..=13).collect(),
        winning_tile: 1,
        melds: Vec::new(),
    };
    unknown_tile.standing_tiles[4] = 99;
    vec![
        pb::ScoreHandRequest {
            hand_input: Some(HandInput::Hand(unknown_tile)),
            ..Default::default()
        },
        pb::ScoreHandRequest::default(),
        pb::ScoreHandRequest {
            hand_input: notation("123x"),
            ..Default::default()
        },
        pb::ScoreHandRequest {
            hand_input: notation("[123m][789m][123p]55s89p7p"),
            view: 7,
            ..Default::default()
        },
        pb::ScoreHandRequest {
            hand_input: notation("11111m234p567s99s8s"),
            ..Default::default()
        },
    ]
}

#[test]
fn score_hand_writes_what_prost_writes_for_every_corpus_hand_ruleset_and_view() {
    let mut compared = 0;
    let mut seen_flowers = false;
    let mut seen_losing = false;
    let mut invalid = 0;
    let mut clean = 0;
    for base in corpus_requests() {
        for ruleset in RULESETS {
            for view in VIEWS {
                let request = pb::ScoreHandRequest {
                    ruleset: ruleset as i32,
                    view: view as i32,
                    ..base.clone()
                };
                let expected = score_request(&request, &KeptRules::default());
                let bytes = request.encode_to_vec();
                clean += usize::from(reads_directly(&bytes));
                let read = score_hand(
                    &ScoreQuery::decode(&bytes).expect("decodes"),
                    &KeptRules::default(),
                );
                match score_hand(&ScoreQuery::from(&request), &KeptRules::default()) {
                    Ok(reply) => {
                        assert_eq!(
                            reply.as_bytes(),
                            expected.encode_to_vec(),
                            "{request:?}\n{expected:?}"
                        );
                        // Read from the bytes as the server reads them: the same.
                        assert_eq!(read.expect("scored").as_bytes(), reply.as_bytes());
                    }
                    // The corpus's few malformed hands: an error status, not a message.
                    Err(violations) => {
                        assert_eq!(expected.outcome, pb::Outcome::Invalid as i32);
                        assert_eq!(violations.len(), expected.violations.len());
                        assert_eq!(read.expect_err("invalid"), violations);
                        invalid += 1;
                        continue;
                    }
                }
                seen_flowers |= expected.flower_points > 0;
                seen_losing |= expected.outcome != pb::Outcome::Win as i32;
                compared += 1;
            }
        }
    }
    assert!(
        seen_flowers && seen_losing,
        "the corpus covers flowers and losing hands"
    );
    assert!(compared > 26_000, "{compared}");
    // Nearly every corpus hand is structured with valid numbers: read without prost.
    assert!(clean > compared, "{clean} read straight of {compared}");
    assert!(invalid < compared / 20, "{invalid} malformed of {compared}");
}

/// What a batch entry should answer, built from the `ScoreHand` message of the same request.
fn expected_result(
    entry: &pb::ScoreHandRequest,
    defaults: &pb::BatchScoreHandsRequest,
) -> pb::BatchScoreHandsResult {
    use pb::batch_score_hands_result::Result as Entry;
    let or = |n: i32, default: i32| if n == 0 { default } else { n };
    let response = score_request(
        &pb::ScoreHandRequest {
            ruleset: or(entry.ruleset, defaults.default_ruleset),
            view: or(entry.view, defaults.default_view),
            // An entry's own house rules replace the batch's whole.
            overrides: entry
                .overrides
                .clone()
                .or_else(|| defaults.default_overrides.clone().map(Box::new)),
            ..entry.clone()
        },
        &KeptRules::default(),
    );
    let result = if response.outcome == pb::Outcome::Invalid as i32 {
        Entry::Error(pb::HandError {
            reason: INVALID_HAND.to_owned(),
            violations: response.violations,
        })
    } else {
        Entry::Score(response)
    };
    pb::BatchScoreHandsResult {
        result: Some(result),
    }
}

#[test]
fn batch_score_hands_writes_what_prost_writes_faulty_entries_included() {
    let corpus = corpus_requests();
    let faulty = faulty_requests();
    // A faulty entry every 37 hands, the ruleset and view of some entries their own.
    let mut entries = Vec::new();
    for (i, request) in corpus.iter().enumerate() {
        let mut request = request.clone();
        if i % 5 == 0 {
            request.ruleset = RULESETS[i % 3] as i32;
        }
        if i % 7 == 0 {
            request.view = VIEWS[i % 3] as i32;
        }
        entries.push(request);
        if i % 37 == 0 {
            entries.push(faulty[i / 37 % faulty.len()].clone());
        }
    }
    let mut batches = 0;
    for chunk in entries.chunks(500) {
        for (default_ruleset, default_view) in [
            (pb::Ruleset::Unspecified, pb::ScoreView::Unspecified),
            (pb::Ruleset::Mil, pb::ScoreView::Basic),
            (pb::Ruleset::GreenBook2006, pb::ScoreView::Full),
        ] {
            let request = pb::BatchScoreHandsRequest {
                default_overrides: None,
                requests: chunk.to_vec(),
                default_ruleset: default_ruleset as i32,
                default_view: default_view as i32,
            };
            let expected = pb::BatchScoreHandsResponse {
                results: chunk.iter().map(|e| expected_result(e, &request)).collect(),
            };
            let reply = batch_score_hands(request.clone().into(), &std::sync::Arc::default())
                .expect("valid defaults");
            assert_eq!(reply.as_bytes(), expected.encode_to_vec());
            // Read from the bytes as the server reads them, and answered in steps as the
            // server does, with steps of every size up to 3.
            let read =
                BatchScoreHandsQuery::decode(request.encode_to_vec().into()).expect("decodes");
            assert!(
                chunk.iter().any(|r| reads_directly(&r.encode_to_vec()))
                    && chunk.iter().any(|r| !reads_directly(&r.encode_to_vec())),
                "both kinds of entries"
            );
            let mut scoring =
                BatchScoring::new(read, &std::sync::Arc::default()).expect("valid defaults");
            let mut steps = 0;
            while scoring.score(steps % 3 + 1).expect("decodes") {
                steps += 1;
            }
            assert!(
                steps >= chunk.len() / 3,
                "{steps} steps for {}",
                chunk.len()
            );
            assert_eq!(
                scoring.finish().expect("decodes").as_bytes(),
                reply.as_bytes()
            );
            assert_clean_entries_read_straight(&request, &faulty);
            let scores = expected
                .results
                .iter()
                .filter(|r| {
                    matches!(
                        r.result,
                        Some(pb::batch_score_hands_result::Result::Score(_))
                    )
                })
                .count();
            assert_eq!(reply.scored(), scores);
            assert!(scores < chunk.len(), "every chunk has faulty entries");
            batches += 1;
        }
    }
    assert!(batches >= 18, "{batches}");

    // An empty batch is an empty message.
    let empty = batch_score_hands(
        BatchScoreHandsQuery::decode(Bytes::new()).unwrap(),
        &std::sync::Arc::default(),
    )
    .unwrap();
    assert!(empty.as_bytes().is_empty());
    assert_eq!(empty.scored(), 0);
}

#[test]
fn batch_house_rules_apply_to_each_entry_as_to_its_score_hand() {
    // Built once for the batch's ruleset; an entry with a ruleset or house rules of its own
    // gets its own (the fingerprint tells them apart).
    let house = pb::RuleOverrides {
        minimum_fan: Some(6),
        base_points: Some(8),
        ..Default::default()
    };
    let own = pb::RuleOverrides {
        minimum_fan: Some(0),
        ..Default::default()
    };
    let faulty = faulty_requests();
    let mut entries = Vec::new();
    for (i, request) in corpus_requests().into_iter().take(900).enumerate() {
        let mut request = request;
        if i % 5 == 0 {
            request.ruleset = RULESETS[i % 3] as i32;
        }
        if i % 7 == 0 {
            request.overrides = Some(Box::new(own.clone()));
        }
        entries.push(request);
        if i % 37 == 0 {
            entries.push(faulty[i / 37 % faulty.len()].clone());
        }
    }
    for default_ruleset in RULESETS {
        let request = pb::BatchScoreHandsRequest {
            requests: entries.clone(),
            default_ruleset: default_ruleset as i32,
            default_view: pb::ScoreView::Basic as i32,
            default_overrides: Some(house.clone()),
        };
        let expected = pb::BatchScoreHandsResponse {
            results: entries
                .iter()
                .map(|e| expected_result(e, &request))
                .collect(),
        }
        .encode_to_vec();
        let read = || BatchScoreHandsQuery::decode(request.encode_to_vec().into()).unwrap();
        let reply = batch_score_hands(read(), &std::sync::Arc::default()).expect("valid defaults");
        assert_eq!(reply.as_bytes(), expected);
        // In parts, as the server scores a large batch on several workers.
        let scoring =
            BatchScoring::new(read(), &std::sync::Arc::default()).expect("valid defaults");
        let mut parts = Vec::new();
        for part in scoring.parts(256) {
            parts.extend_from_slice(part.finish().expect("read").as_bytes());
        }
        assert_eq!(parts, expected);
    }
    // The house rules change what the batch answers.
    let plain = pb::BatchScoreHandsRequest {
        requests: entries.clone(),
        default_ruleset: pb::Ruleset::Mil as i32,
        default_view: pb::ScoreView::Basic as i32,
        default_overrides: None,
    };
    let with_house = pb::BatchScoreHandsRequest {
        default_overrides: Some(house),
        ..plain.clone()
    };
    assert_ne!(
        batch_score_hands(plain.into(), &std::sync::Arc::default())
            .unwrap()
            .as_bytes(),
        batch_score_hands(with_house.into(), &std::sync::Arc::default())
            .unwrap()
            .as_bytes()
    );
}

/// `request` without its `faulty` entries is read without prost throughout (one entry after
/// the other in the same buffers), and answered as prost's message is.
fn assert_clean_entries_read_straight(
    request: &pb::BatchScoreHandsRequest,
    faulty: &[pb::ScoreHandRequest],
) {
    let clean = pb::BatchScoreHandsRequest {
        requests: request
            .requests
            .iter()
            .filter(|e| !faulty.contains(e))
            .cloned()
            .collect(),
        ..request.clone()
    };
    let read = BatchScoreHandsQuery::decode(clean.encode_to_vec().into()).expect("decodes");
    assert!(
        clean
            .requests
            .iter()
            .all(|r| reads_directly(&r.encode_to_vec()))
    );
    let expected = pb::BatchScoreHandsResponse {
        results: clean
            .requests
            .iter()
            .map(|e| expected_result(e, &clean))
            .collect(),
    };
    assert_eq!(
        batch_score_hands(read, &std::sync::Arc::default())
            .expect("valid")
            .as_bytes(),
        expected.encode_to_vec()
    );
}

#[test]
fn faulty_requests_are_errors_of_score_hand() {
    for request in faulty_requests() {
        let violations =
            score_hand(&ScoreQuery::from(&request), &KeptRules::default()).expect_err("faulty");
        assert!(!violations.is_empty());
    }
    // The unknown tile is reported as such: the requests test what they mean to.
    let unknown_tile = faulty_requests().swap_remove(0);
    let violations =
        score_hand(&ScoreQuery::from(&unknown_tile), &KeptRules::default()).unwrap_err();
    assert!(
        violations
            .iter()
            .any(|v| v.path.to_string() == "hand.standing_tiles[4]"),
        "{violations:?}"
    );
}

/// The writer writes every field of every message it writes: over the corpus hands in the
/// full view and a batch with faulty entries, each field of `ScoreHandResponse`, of
/// `BatchScoreHandsResponse` and of every message below them is set somewhere in what the
/// writer wrote. A field added to one of them in the proto fails here until
/// `crates/mcr-api/src/api/scoring/fast/wire.rs` writes it. The one exception is
/// `ScoreHandResponse.violations`: an invalid hand is an error status, or in a batch a
/// `HandError`.
#[test]
fn the_writer_writes_every_field_of_its_messages() {
    use mahjong_referee::api::FILE_DESCRIPTOR_SET;
    use prost_reflect::{DescriptorPool, DynamicMessage, MessageDescriptor, Value};
    use std::collections::BTreeSet;

    fn every_field(message: &MessageDescriptor, fields: &mut BTreeSet<String>) {
        for field in message.fields() {
            if fields.insert(field.full_name().to_owned())
                && let prost_reflect::Kind::Message(below) = field.kind()
            {
                every_field(&below, fields);
            }
        }
    }
    fn set_fields(message: &DynamicMessage, seen: &mut BTreeSet<String>) {
        for (field, value) in message.fields() {
            seen.insert(field.full_name().to_owned());
            let values: Vec<&Value> = if let Value::List(values) = value {
                values.iter().collect()
            } else {
                vec![value]
            };
            for value in values {
                if let Value::Message(below) = value {
                    set_fields(below, seen);
                }
            }
        }
    }

    let pool = DescriptorPool::decode(FILE_DESCRIPTOR_SET).expect("the descriptor set");
    let descriptor = |name: &str| pool.get_message_by_name(name).expect(name);
    let (score, batch) = (
        descriptor("mahjong.v1.ScoreHandResponse"),
        descriptor("mahjong.v1.BatchScoreHandsResponse"),
    );
    let mut written = BTreeSet::new();
    let mut requests = corpus_requests();
    for request in &requests {
        let full = pb::ScoreHandRequest {
            view: pb::ScoreView::Full as i32,
            ..request.clone()
        };
        if let Ok(reply) = score_hand(&ScoreQuery::from(&full), &KeptRules::default()) {
            let message = DynamicMessage::decode(score.clone(), reply.as_bytes()).expect("decodes");
            set_fields(&message, &mut written);
        }
    }
    requests.extend(faulty_requests());
    let request = pb::BatchScoreHandsRequest {
        requests,
        ..Default::default()
    };
    let reply =
        batch_score_hands(request.into(), &std::sync::Arc::default()).expect("a valid batch");
    set_fields(
        &DynamicMessage::decode(batch.clone(), reply.as_bytes()).expect("decodes"),
        &mut written,
    );

    let mut expected = BTreeSet::new();
    every_field(&score, &mut expected);
    every_field(&batch, &mut expected);
    expected.remove("mahjong.v1.ScoreHandResponse.violations");
    let missing: Vec<_> = expected.difference(&written).collect();
    assert!(
        missing.is_empty(),
        "fields the writer never writes: {missing:?} (write them in crates/mcr-api/src/api/scoring/fast/wire.rs)"
    );
    assert!(written.contains("mahjong.v1.HandError.violations"));
}
