//! The server's own request reader (`api::scoring::fast::query`) against prost on arbitrary bytes:
//! the first byte chooses `ScoreHandRequest` (even) or `BatchScoreHandsRequest` (odd), the
//! rest is the message. Both make the same query of it, or both reject it with the same
//! error; and what the server answers from its reading is what it answers from prost's
//! message.
#![no_main]

use bytes::Bytes;
use libfuzzer_sys::fuzz_target;
use mahjong_referee::api::KeptRules;
use mahjong_referee::api::kit::query::{Defaults, ScoreQuery};
use mahjong_referee::api::pb;
use mahjong_referee::api::scoring::fast::query::BatchScoreHandsQuery;
use mahjong_referee::api::scoring::{BatchScoring, batch_score_hands, score_hand};
use prost::Message as _;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    if selector % 2 == 0 {
        single(bytes);
    } else {
        batch(bytes, usize::from(selector / 2 % 4) + 1);
    }
});

fn single(bytes: &[u8]) {
    match (
        ScoreQuery::decode(bytes),
        pb::ScoreHandRequest::decode(bytes),
    ) {
        (Ok(read), Ok(decoded)) => {
            let decoded = ScoreQuery::from(&decoded);
            assert_eq!(read, decoded);
            // The same answer from the server's reading and from prost's message.
            match (
                score_hand(&read, &KeptRules::default()),
                score_hand(&decoded, &KeptRules::default()),
            ) {
                (Ok(a), Ok(b)) => assert_eq!(a.as_bytes(), b.as_bytes()),
                (Err(a), Err(b)) => assert_eq!(a, b),
                (a, b) => panic!("{bytes:?}: read {a:?}, prost's {b:?}"),
            }
        }
        (Err(read), Err(decoded)) => assert_eq!(read, decoded),
        (read, decoded) => panic!("{bytes:?}: read {read:?}, prost {decoded:?}"),
    }
}

fn batch(bytes: &[u8], step: usize) {
    let read = BatchScoreHandsQuery::decode(Bytes::copy_from_slice(bytes)).and_then(|query| {
        query
            .entries(&Defaults::NONE)
            .map(|entries| (query, entries))
    });
    match (read, pb::BatchScoreHandsRequest::decode(bytes)) {
        (Ok((query, entries)), Ok(decoded)) => {
            let expected: Vec<_> = decoded.requests.iter().map(ScoreQuery::from).collect();
            assert_eq!(entries, expected);
            // Answered in steps from the server's reading, and at once from prost's
            // message: the same bytes, or the same rejection.
            let stepped =
                BatchScoring::new(query, &std::sync::Arc::default()).and_then(|mut scoring| {
                    while scoring.score(step)? {}
                    scoring.finish()
                });
            match (
                stepped,
                batch_score_hands(decoded.into(), &std::sync::Arc::default()),
            ) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a.as_bytes(), b.as_bytes());
                    assert_eq!(a.scored(), b.scored());
                }
                (Err(a), Err(b)) => assert_eq!(a, b),
                (a, b) => panic!("{bytes:?}: read {a:?}, prost's {b:?}"),
            }
        }
        (Err(read), Err(decoded)) => assert_eq!(read, decoded),
        (read, decoded) => panic!("{bytes:?}: read {read:?}, prost {decoded:?}"),
    }
}
