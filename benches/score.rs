//! Scoring throughput on the public corpus: every winning hand, validated and scored, in one
//! iteration (`score/public_corpus`), and scored alone from validated hands (`score/score_only`).
//!
//! The `api` group measures what the server does for a call apart from the transport:
//! decode the request bytes, convert, validate, score and encode the response.
//!
//! | id | what |
//! |---|---|
//! | `api/score_hand` | one `ScoreHand` a corpus hand, structured, read by the server's reader |
//! | `api/score_hand_prost` | the same, read by prost alone |
//! | `api/score_hand_notation` | the same hands in notation |
//! | `api/score_hand_house_rules` | house rules on every call |
//! | `api/score_hand_house_rules_alternating` | two sets of house rules in turn |
//! | `api/batch_score_hands`, `_basic` | 1,000-hand batches, full and basic view, in hands |
//! | `api/batch_score_hands_basic_prost` | the basic-view batches read by prost alone |
//! | `api/batch_score_hands_house_rules` | basic view, house rules for the whole batch |
//! | `api/batch_score_hands_1_thread`, `_2_threads` | full view through the server's handler on one and two workers (a batch above 512 hands is scored in parts on every worker) |

use bytes::Bytes;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mahjong_referee::api::KeptRules;
use mahjong_referee::api::kit::query::ScoreQuery;
use mahjong_referee::api::scoring;
use mahjong_referee::api::scoring::fast::query::BatchScoreHandsQuery;
use mahjong_referee::config::Config;
use mahjong_referee::pb;
use mahjong_referee::server::budget::Budget;
use mahjong_referee::server::compute::ComputePool;
use mahjong_referee::server::service::Referee;
use mahjong_referee::server::stub::mahjong_service_server::MahjongService as _;
use mcr::{Hand, HandInput, Ruleset, WinContext, score};
use prost::Message as _;

/// The server's allocator (src/main.rs), so that `api/*` measures what the server does.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "../tests/support/corpus.rs"]
#[allow(dead_code)]
mod corpus;

fn winning_hands() -> Vec<(HandInput, WinContext)> {
    corpus::load()
        .iter()
        .filter(|c| c.error().is_none())
        .filter_map(corpus::Case::input)
        .collect()
}

fn bench(c: &mut Criterion) {
    let inputs = winning_hands();
    let validated: Vec<(Hand, WinContext)> = inputs
        .iter()
        .filter_map(|(h, ctx)| h.validate(ctx).ok().map(|hand| (hand, *ctx)))
        .collect();
    assert_eq!(
        validated.len(),
        inputs.len(),
        "every winning corpus hand validates"
    );
    let n = u64::try_from(inputs.len()).unwrap_or(u64::MAX);
    let mut group = c.benchmark_group("score");
    group.throughput(Throughput::Elements(n));
    group.bench_function("public_corpus", |b| {
        b.iter(|| {
            let mut total = 0u32;
            for (hand, ctx) in &inputs {
                if let Ok(hand) = hand.validate(ctx) {
                    total += score(&hand, ctx, &Ruleset::MIL).total;
                }
            }
            std::hint::black_box(total)
        });
    });
    group.bench_function("score_only", |b| {
        b.iter(|| {
            let mut total = 0u32;
            for (hand, ctx) in &validated {
                total += score(hand, ctx, &Ruleset::MIL).total;
            }
            std::hint::black_box(total)
        });
    });
    group.finish();
}

/// The winning corpus hands as encoded `ScoreHandRequest`s under MIL.
fn encoded_requests(inputs: &[(HandInput, WinContext)]) -> Vec<Vec<u8>> {
    inputs
        .iter()
        .map(|(hand, ctx)| {
            corpus::request(hand, *ctx, pb::Ruleset::Mil, pb::ScoreView::Unspecified)
                .encode_to_vec()
        })
        .collect()
}

/// The winning corpus hands as encoded `ScoreHandRequest`s in notation (what the README's
/// grpcurl examples send).
fn notation_requests() -> Vec<Vec<u8>> {
    winning_hands()
        .iter()
        .map(|(hand, ctx)| {
            pb::ScoreHandRequest {
                hand_input: Some(pb::score_hand_request::HandInput::Notation(
                    mcr::notation::format_hand(hand),
                )),
                ..corpus::request(hand, *ctx, pb::Ruleset::Mil, pb::ScoreView::Unspecified)
            }
            .encode_to_vec()
        })
        .collect()
}

/// Request i of `requests` under `houses[i % houses.len()]`.
fn with_overrides(requests: &[Vec<u8>], houses: &[&pb::RuleOverrides]) -> Vec<Vec<u8>> {
    requests
        .iter()
        .filter_map(|r| pb::ScoreHandRequest::decode(r.as_slice()).ok())
        .enumerate()
        .map(|(i, r)| {
            pb::ScoreHandRequest {
                overrides: Some(Box::new(houses[i % houses.len()].clone())),
                ..r
            }
            .encode_to_vec()
        })
        .collect()
}

/// House rules: a club's base points (底分 8 instead of 0), and another club's minimum of 6
/// fan (for calls that alternate between the two).
fn two_houses() -> (pb::RuleOverrides, pb::RuleOverrides) {
    let house = pb::RuleOverrides {
        base_points: Some(8),
        ..pb::RuleOverrides::default()
    };
    let other_house = pb::RuleOverrides {
        minimum_fan: Some(6),
        ..pb::RuleOverrides::default()
    };
    (house, other_house)
}

fn bench_api(c: &mut Criterion) {
    const BATCH: usize = 1_000;
    let requests = encoded_requests(&winning_hands());
    let batches_with = |view: pb::ScoreView, overrides: Option<pb::RuleOverrides>| -> Vec<Bytes> {
        requests
            .chunks(BATCH)
            .filter(|chunk| chunk.len() == BATCH)
            .map(|chunk| {
                pb::BatchScoreHandsRequest {
                    default_overrides: overrides.clone(),
                    requests: chunk
                        .iter()
                        .filter_map(|r| pb::ScoreHandRequest::decode(r.as_slice()).ok())
                        .collect(),
                    default_ruleset: pb::Ruleset::Mil as i32,
                    default_view: view as i32,
                }
                .encode_to_vec()
                .into()
            })
            .collect()
    };
    let batches = |view: pb::ScoreView| batches_with(view, None);
    let mut group = c.benchmark_group("api");
    group.throughput(Throughput::Elements(
        u64::try_from(requests.len()).unwrap_or(u64::MAX),
    ));
    let (house, other_house) = two_houses();
    let with_house = with_overrides(&requests, &[&house]);
    let alternating = with_overrides(&requests, &[&house, &other_house]);
    let notation = notation_requests();
    for (id, requests, read) in [
        ("score_hand", &requests, Read::Server),
        ("score_hand_prost", &requests, Read::Prost),
        ("score_hand_notation", &notation, Read::Server),
        ("score_hand_house_rules", &with_house, Read::Server),
        (
            "score_hand_house_rules_alternating",
            &alternating,
            Read::Server,
        ),
    ] {
        // Kept across calls, as the server's referee keeps them.
        let kept = KeptRules::default();
        group.bench_function(id, |b| {
            b.iter(|| {
                let mut bytes = 0usize;
                for encoded in requests {
                    let request = read.score_hand(encoded);
                    let response =
                        scoring::score_hand(&request, &kept).expect("a well-formed hand");
                    bytes += response.as_bytes().len();
                }
                std::hint::black_box(bytes)
            });
        });
    }
    for (id, batches, read) in [
        (
            "batch_score_hands",
            batches(pb::ScoreView::Full),
            Read::Server,
        ),
        (
            "batch_score_hands_basic",
            batches(pb::ScoreView::Basic),
            Read::Server,
        ),
        (
            "batch_score_hands_basic_prost",
            batches(pb::ScoreView::Basic),
            Read::Prost,
        ),
        (
            "batch_score_hands_house_rules",
            batches_with(pb::ScoreView::Basic, Some(house)),
            Read::Server,
        ),
    ] {
        group.throughput(Throughput::Elements(
            u64::try_from(batches.len() * BATCH).unwrap_or(u64::MAX),
        ));
        let kept = std::sync::Arc::new(KeptRules::default());
        group.bench_function(id, |b| {
            b.iter(|| {
                let mut bytes = 0usize;
                for encoded in &batches {
                    let request = read.batch(encoded);
                    let response =
                        scoring::batch_score_hands(request, &kept).expect("a valid batch");
                    bytes += response.as_bytes().len();
                }
                std::hint::black_box(bytes)
            });
        });
    }
    bench_handler_workers(&mut group, &batches(pb::ScoreView::Full), BATCH);
    group.finish();
}

/// The server's handler on a runtime of one and of two worker threads: a batch above 512
/// hands is scored in parts on every worker.
fn bench_handler_workers(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    batches: &[Bytes],
    hands_a_batch: usize,
) {
    group.throughput(Throughput::Elements(
        u64::try_from(batches.len() * hands_a_batch).unwrap_or(u64::MAX),
    ));
    for (id, workers) in [
        ("batch_score_hands_1_thread", 1),
        ("batch_score_hands_2_threads", 2),
    ] {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(workers)
            .build()
            .expect("a runtime");
        let referee = Referee::new(
            &Config::default(),
            Budget::new(usize::MAX),
            ComputePool::sized_to_cores(),
        );
        group.bench_function(id, |b| {
            b.iter(|| {
                runtime.block_on(async {
                    let mut bytes = 0usize;
                    for encoded in batches {
                        let request =
                            BatchScoreHandsQuery::decode(encoded.clone()).expect("decodes");
                        let response = referee
                            .batch_score_hands(tonic::Request::new(request))
                            .await
                            .expect("a valid batch");
                        bytes += response.get_ref().as_bytes().len();
                    }
                    std::hint::black_box(bytes)
                })
            });
        });
    }
}

/// How a bench reads its requests: as the server does, or by prost's message types alone.
#[derive(Debug, Clone, Copy)]
enum Read {
    Server,
    Prost,
}

impl Read {
    fn score_hand(self, encoded: &[u8]) -> ScoreQuery {
        match self {
            Read::Server => ScoreQuery::decode(encoded).expect("decodes"),
            Read::Prost => (&pb::ScoreHandRequest::decode(encoded).expect("decodes")).into(),
        }
    }

    fn batch(self, encoded: &Bytes) -> BatchScoreHandsQuery {
        match self {
            Read::Server => BatchScoreHandsQuery::decode(encoded.clone()).expect("decodes"),
            Read::Prost => pb::BatchScoreHandsRequest::decode(encoded.clone())
                .expect("decodes")
                .into(),
        }
    }
}

criterion_group!(benches, bench, bench_api);
criterion_main!(benches);
