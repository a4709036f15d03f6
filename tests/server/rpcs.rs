//! The happy path of every RPC.

use mahjong_referee::api::KeptRules;
use mahjong_referee::pb;
use mahjong_referee::pb::batch_score_hands_result::Result as Entry;

use mahjong_referee::config::Config;

use crate::helpers::{E23, config, details, score_request, spawn, spawn_default};

#[tokio::test]
async fn score_hand_e23_self_drawn_is_18() {
    let server = spawn_default().await;
    let mut client = server.client().await;
    for ruleset in [
        pb::Ruleset::Unspecified,
        pb::Ruleset::ChineseOfficial1998,
        pb::Ruleset::Mil,
        pb::Ruleset::GreenBook2006,
    ] {
        let response = client
            .score_hand(score_request(E23, true, ruleset))
            .await
            .expect("E23 scores")
            .into_inner();
        assert_eq!(response.outcome(), pb::Outcome::Win);
        assert_eq!(response.total, 18, "{ruleset:?}");
        let fans: Vec<(pb::Fan, &str, u32, u32)> = response
            .fans
            .iter()
            .map(|l| (l.fan(), l.name_zh.as_str(), l.points, l.count))
            .collect();
        assert_eq!(
            fans,
            [
                (pb::Fan::ThreeSuitedTerminalChows, "三色双龙会", 16, 1),
                (pb::Fan::EdgeWait, "边张", 1, 1),
                (pb::Fan::SelfDrawn, "自摸", 1, 1),
            ],
            "{ruleset:?}"
        );
        assert!(response.violations.is_empty());
        let applied = match ruleset {
            pb::Ruleset::Unspecified => pb::Ruleset::ChineseOfficial1998,
            pb::Ruleset::ChineseOfficial1998 | pb::Ruleset::Mil | pb::Ruleset::GreenBook2006 => {
                ruleset
            }
        };
        assert_eq!(response.ruleset(), applied);
    }
}

#[tokio::test]
async fn a_losing_hand_is_a_normal_response() {
    let server = spawn_default().await;
    let mut client = server.client().await;
    let not_winning = client
        .score_hand(score_request(
            "1357m2468p13579s1m",
            false,
            pb::Ruleset::Unspecified,
        ))
        .await
        .expect("a losing hand is not an error")
        .into_inner();
    assert_eq!(not_winning.outcome(), pb::Outcome::NotWinningShape);
    assert_eq!(not_winning.total, 0);
    // 门前清 2 + 平和 2 + 一般高 1 + 连六 1 = 6, under the minimum of 8.
    let below = client
        .score_hand(score_request(
            "123m123m456p78p99s9p",
            false,
            pb::Ruleset::Unspecified,
        ))
        .await
        .expect("a hand under the minimum is not an error")
        .into_inner();
    assert_eq!(below.outcome(), pb::Outcome::BelowMinimum, "{below:?}");
    assert_eq!(below.fan_total, 6);
}

#[tokio::test]
async fn validate_hand_answers_problems_in_the_response() {
    let server = spawn_default().await;
    let mut client = server.client().await;
    let valid = client
        .validate_hand(pb::ValidateHandRequest {
            overrides: None,
            hand_input: Some(pb::validate_hand_request::HandInput::Notation(
                E23.to_owned(),
            )),
            context: None,
            ruleset: 0,
        })
        .await
        .expect("validates")
        .into_inner();
    assert!(valid.valid && valid.winning_shape && valid.reaches_minimum);
    assert_eq!(valid.outcome(), pb::Outcome::Win);

    let malformed = client
        .validate_hand(pb::ValidateHandRequest {
            overrides: None,
            hand_input: Some(pb::validate_hand_request::HandInput::Notation(
                "123m".to_owned(),
            )),
            context: None,
            ruleset: 0,
        })
        .await
        .expect("a malformed hand is ValidateHand's normal answer")
        .into_inner();
    assert!(!malformed.valid);
    assert_eq!(malformed.outcome(), pb::Outcome::Invalid);
    assert!(!malformed.violations.is_empty());
}

#[tokio::test]
async fn batch_scores_every_hand_in_order_with_errors_in_place() {
    let server = spawn_default().await;
    let mut client = server.client().await;
    let broken = pb::ScoreHandRequest {
        overrides: None,
        hand_input: Some(pb::score_hand_request::HandInput::Hand(pb::Hand {
            melds: Vec::new(),
            standing_tiles: vec![1, 2, 99],
            winning_tile: 0,
        })),
        context: None,
        ruleset: 0,
        view: pb::ScoreView::Unspecified as i32,
    };
    let request = pb::BatchScoreHandsRequest {
        default_overrides: None,
        requests: vec![
            score_request(E23, true, pb::Ruleset::Unspecified),
            broken.clone(),
            score_request(E23, false, pb::Ruleset::GreenBook2006),
        ],
        default_ruleset: pb::Ruleset::Mil as i32,
        default_view: pb::ScoreView::Unspecified as i32,
    };
    let results = client
        .batch_score_hands(request)
        .await
        .expect("one bad hand never fails the batch")
        .into_inner()
        .results;
    assert_eq!(results.len(), 3);
    let Some(Entry::Score(first)) = &results[0].result else {
        panic!("the first hand scores: {:?}", results[0]);
    };
    assert_eq!((first.total, first.ruleset()), (18, pb::Ruleset::Mil));
    let Some(Entry::Error(error)) = &results[1].result else {
        panic!("the second hand is an error: {:?}", results[1]);
    };
    assert_eq!(error.reason, "INVALID_HAND");
    // The violations the hand has on its own, with paths relative to the entry.
    let expected =
        mahjong_referee::api::scoring::score_request(&broken, &KeptRules::default()).violations;
    assert!(expected.len() >= 2, "{expected:?}");
    assert_eq!(error.violations, expected);
    assert!(
        error
            .violations
            .iter()
            .any(|v| v.field == "hand.standing_tiles[2]")
    );
    let Some(Entry::Score(third)) = &results[2].result else {
        panic!("the third hand scores: {:?}", results[2]);
    };
    assert_eq!(
        (third.total, third.ruleset()),
        (17, pb::Ruleset::GreenBook2006)
    );
}

#[tokio::test]
async fn batch_views_default_per_batch_and_can_be_set_per_hand() {
    let server = spawn_default().await;
    let mut client = server.client().await;
    let full = score_request(E23, true, pb::Ruleset::Mil);
    let request = pb::BatchScoreHandsRequest {
        default_overrides: None,
        requests: vec![
            full.clone(),
            pb::ScoreHandRequest {
                view: pb::ScoreView::Full as i32,
                ..full.clone()
            },
        ],
        default_ruleset: pb::Ruleset::Unspecified as i32,
        default_view: pb::ScoreView::Basic as i32,
    };
    let results = client
        .batch_score_hands(request)
        .await
        .expect("a valid batch")
        .into_inner()
        .results;
    let scores: Vec<&pb::ScoreHandResponse> = results
        .iter()
        .map(|r| match &r.result {
            Some(Entry::Score(s)) => s,
            other => panic!("a score: {other:?}"),
        })
        .collect();
    let [basic, whole] = scores.as_slice() else {
        panic!("two results");
    };
    // The batch default applies where the hand says nothing; the hand's own view wins.
    assert!(basic.reading.is_none() && basic.notation.is_empty());
    assert!(basic.fans.iter().all(|f| f.name_en.is_empty()));
    assert!(whole.reading.is_some() && !whole.notation.is_empty());
    assert!(whole.fans.iter().all(|f| !f.name_en.is_empty()));
    // The same score in both.
    assert_eq!(
        (basic.total, basic.fan_total),
        (whole.total, whole.fan_total)
    );
    let numbers = |s: &pb::ScoreHandResponse| -> Vec<(i32, u32, u32, u32)> {
        s.fans
            .iter()
            .map(|f| (f.fan, f.points, f.count, f.total_points))
            .collect()
    };
    assert_eq!(numbers(basic), numbers(whole));
    // A single ScoreHand in the basic view is the batch's basic entry.
    let single = client
        .score_hand(pb::ScoreHandRequest {
            view: pb::ScoreView::Basic as i32,
            ..full
        })
        .await
        .expect("scores")
        .into_inner();
    assert_eq!(&&single, basic);
}

#[tokio::test]
async fn an_empty_batch_is_an_empty_answer() {
    let server = spawn_default().await;
    let response = server
        .client()
        .await
        .batch_score_hands(pb::BatchScoreHandsRequest::default())
        .await
        .expect("an empty batch is fine")
        .into_inner();
    assert!(response.results.is_empty());
}

fn points_of(fans: &[pb::FanInfo], fan: pb::Fan) -> u32 {
    fans.iter().find(|f| f.fan() == fan).map_or(0, |f| f.points)
}

fn excludes(fans: &[pb::FanInfo], fan: pb::Fan, excluded: pb::Fan) -> bool {
    fans.iter()
        .find(|f| f.fan() == fan)
        .is_some_and(|f| f.excludes.contains(&(excluded as i32)))
}

#[tokio::test]
async fn list_fans_per_ruleset() {
    let server = spawn_default().await;
    let mut client = server.client().await;
    let mut list = async |ruleset: pb::Ruleset| {
        client
            .list_fans(pb::ListFansRequest {
                ruleset: ruleset as i32,
            })
            .await
            .expect("lists")
            .into_inner()
    };
    let r98 = list(pb::Ruleset::ChineseOfficial1998).await;
    let mil = list(pb::Ruleset::Mil).await;
    let gb = list(pb::Ruleset::GreenBook2006).await;
    let default = list(pb::Ruleset::Unspecified).await;

    assert_eq!(default, r98);
    assert_eq!(r98.ruleset(), pb::Ruleset::ChineseOfficial1998);
    assert_eq!(mil.ruleset(), pb::Ruleset::Mil);
    assert_eq!(gb.ruleset(), pb::Ruleset::GreenBook2006);
    for table in [&r98, &mil, &gb] {
        assert_eq!(table.fans.len(), 82);
        for (i, fan) in table.fans.iter().enumerate() {
            assert_eq!(fan.number as usize, i + 1);
            assert_eq!(fan.fan, i32::try_from(i + 1).unwrap());
            assert!(!fan.name_zh.is_empty() && !fan.name_en.is_empty());
            assert!(fan.excludes.is_sorted() && fan.excludes_for_its_sets.is_sorted());
        }
        let row = &table.fans[28];
        assert_eq!(
            (
                row.fan(),
                row.name_zh.as_str(),
                row.name_en.as_str(),
                row.points
            ),
            (
                pb::Fan::ThreeSuitedTerminalChows,
                "三色双龙会",
                "Three-Suited Terminal Chows",
                16
            )
        );
        // 大四喜 suppresses 圈风刻 everywhere.
        assert!(excludes(
            &table.fans,
            pb::Fan::BigFourWinds,
            pb::Fan::PrevalentWind
        ));
    }
    // 明暗杠: 6 in the 1998 table, 5 under MIL.
    assert_eq!(points_of(&r98.fans, pb::Fan::MeldedAndConcealedKongs), 6);
    assert_eq!(points_of(&mil.fans, pb::Fan::MeldedAndConcealedKongs), 5);
    // 双暗杠: 6 in the 1998 table, 8 under the Green Book.
    assert_eq!(points_of(&r98.fans, pb::Fan::TwoConcealedKongs), 6);
    assert_eq!(points_of(&gb.fans, pb::Fan::TwoConcealedKongs), 8);
    // The Green Book lets 七对 score 不求人; the Chinese rulesets do not.
    assert!(excludes(
        &r98.fans,
        pb::Fan::SevenPairs,
        pb::Fan::FullyConcealedHand
    ));
    assert!(excludes(
        &mil.fans,
        pb::Fan::SevenPairs,
        pb::Fan::FullyConcealedHand
    ));
    assert!(!excludes(
        &gb.fans,
        pb::Fan::SevenPairs,
        pb::Fan::FullyConcealedHand
    ));
    // A fan that suppresses for its own sets only: some row lists such fans.
    assert!(r98.fans.iter().any(|f| !f.excludes_for_its_sets.is_empty()));
}

mod accounting {
    use mahjong_referee::api::KeptRules;
    use mahjong_referee::api::accounting::{adjudicate_penalty, compute_standings, settle_hand};
    use mahjong_referee::api::kit::json;
    use mahjong_referee::pb;
    use serde_json::json;
    use tonic::Code;

    use crate::helpers::{details, fields, spawn_default};

    fn deltas(accounts: &[pb::SeatAccount]) -> Vec<i32> {
        accounts.iter().map(|a| a.delta).collect()
    }

    /// `(field, "CODE: message")` of each violation, as the status should list them.
    fn expected(violations: &[mcr::Violation]) -> Vec<(String, String)> {
        assert!(!violations.is_empty());
        violations
            .iter()
            .map(|v| (v.path.to_string(), format!("{}: {}", v.code, v.message)))
            .collect()
    }

    #[tokio::test]
    async fn settle_hand_over_grpc() {
        let server = spawn_default().await;
        let mut client = server.client().await;
        // docs/rules/examples.md#p1: each other player pays 8 + 26; the winner receives 3 × 34.
        let request = json::from_json::<pb::SettleHandRequest>(
            &json!({
                "end": "HAND_END_SELF_DRAWN",
                "winner": "SEAT_EAST",
                "fanCount": {"fanTotal": 24, "flowerCount": 2},
            })
            .to_string(),
        )
        .unwrap();
        let response = client
            .settle_hand(request)
            .await
            .expect("settles")
            .into_inner();
        assert_eq!(deltas(&response.accounts), [102, -34, -34, -34]);

        let bad =
            json::from_json::<pb::SettleHandRequest>(&json!({"winner": "SEAT_EAST"}).to_string())
                .unwrap();
        let violations = settle_hand(&bad, &KeptRules::default()).expect_err("no end");
        let status = client.settle_hand(bad).await.expect_err("INVALID_ARGUMENT");
        let d = details(&status);
        assert_eq!(
            (d.code, d.info.reason.as_str()),
            (Code::InvalidArgument, "INVALID_REQUEST")
        );
        assert_eq!(fields(&d), expected(&violations));
        assert_eq!(
            d.info.metadata["violationCount"],
            violations.len().to_string()
        );
    }

    #[tokio::test]
    async fn adjudicate_penalty_over_grpc() {
        let server = spawn_default().await;
        let mut client = server.client().await;
        // Up to 10 minutes late: a warning and 10 points.
        let request = json::from_json::<pb::AdjudicatePenaltyRequest>(
            &json!({
                "offences": [{
                    "offender": "SEAT_SOUTH",
                    "infraction": "INFRACTION_LATE_ARRIVAL",
                    "lateMinutes": 10,
                }],
            })
            .to_string(),
        )
        .unwrap();
        let response = client
            .adjudicate_penalty(request)
            .await
            .expect("rules")
            .into_inner();
        let sanctions: Vec<(i32, i32)> = response.rulings[0]
            .sanctions
            .iter()
            .map(|s| (s.kind, s.points))
            .collect();
        assert_eq!(
            sanctions,
            [
                (pb::SanctionKind::Warning as i32, 0),
                (pb::SanctionKind::SessionDeduction as i32, 10)
            ]
        );

        let bad = json::from_json::<pb::AdjudicatePenaltyRequest>(
            &json!({"offences": [{"infraction": "INFRACTION_LATE_ARRIVAL"}]}).to_string(),
        )
        .unwrap();
        let violations = adjudicate_penalty(&bad, &KeptRules::default()).expect_err("no offender");
        let status = client
            .adjudicate_penalty(bad)
            .await
            .expect_err("INVALID_ARGUMENT");
        let d = details(&status);
        assert_eq!(
            (d.code, d.info.reason.as_str()),
            (Code::InvalidArgument, "INVALID_REQUEST")
        );
        assert_eq!(fields(&d), expected(&violations));
    }

    #[tokio::test]
    async fn compute_standings_over_grpc() {
        let server = spawn_default().await;
        let mut client = server.client().await;
        let request = json::from_json::<pb::ComputeStandingsRequest>(
            &json!({
                "players": [{"name": "Li", "sessions": [{"handResults": [30, -16]}]}],
            })
            .to_string(),
        )
        .unwrap();
        let response = client
            .compute_standings(request)
            .await
            .expect("ranks")
            .into_inner();
        assert_eq!(response.standings.len(), 1);
        assert_eq!(response.standings[0].sessions[0].hand_total, 14);

        let bad =
            json::from_json::<pb::ComputeStandingsRequest>(&json!({"ruleset": 9}).to_string())
                .unwrap();
        let violations =
            compute_standings(&bad, &KeptRules::default()).expect_err("unknown ruleset");
        let status = client
            .compute_standings(bad)
            .await
            .expect_err("INVALID_ARGUMENT");
        let d = details(&status);
        assert_eq!(
            (d.code, d.info.reason.as_str()),
            (Code::InvalidArgument, "INVALID_REQUEST")
        );
        assert_eq!(fields(&d), expected(&violations));
    }
}

/// A long batch on a multi-threaded runtime (scored off the worker): every hand, in order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_batch_is_scored_in_order() {
    let server = spawn_default().await;
    let hands = ["[123m][789m][123p]55s89p7p", "11223344556677m", "123x"];
    let requests: Vec<_> = (0..1500)
        .map(|i| score_request(hands[i % 3], true, pb::Ruleset::Unspecified))
        .collect();
    let results = server
        .client()
        .await
        .batch_score_hands(pb::BatchScoreHandsRequest {
            default_overrides: None,
            requests,
            default_ruleset: 0,
            default_view: pb::ScoreView::Unspecified as i32,
        })
        .await
        .expect("scores")
        .into_inner()
        .results;
    assert_eq!(results.len(), 1500);
    for (i, result) in results.iter().enumerate() {
        match (i % 3, &result.result) {
            (0, Some(Entry::Score(s))) => assert_eq!(s.total, 18),
            (1, Some(Entry::Score(s))) => assert_eq!(s.outcome(), pb::Outcome::Win),
            (2, Some(Entry::Error(e))) => assert_eq!(e.violations[0].code, "NOTATION_SYNTAX"),
            (_, other) => panic!("result {i}: {other:?}"),
        }
    }
}

/// A batch long enough to be scored in parts on every worker thread answers exactly what
/// scoring it in order in-process answers, byte for byte, and each result is what the hand
/// scored alone answers: with every entry structured (read by the server's own reader), with
/// notation among them (left to prost), and with a malformed hand late in the batch.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_scored_in_parts_answers_as_in_order() {
    use mahjong_referee::api::scoring;
    use mahjong_referee::api::scoring::fast::query::BatchScoreHandsQuery;
    use prost::Message as _;

    let server = spawn_default().await;
    let mut client = server.client().await;
    let notations = [
        E23,
        "11223344556677m",
        "[123m][789m][123p]55s89p7p",
        "19m19p19s1234567z1m",
        "123456789m11p234s",
    ];
    let structured = |notation: &str, view: pb::ScoreView| {
        let hand = scoring::parse_hand(&pb::ParseHandRequest {
            notation: notation.to_owned(),
        })
        .ok()
        .and_then(|parsed| parsed.hand);
        pb::ScoreHandRequest {
            hand_input: Some(match hand {
                Some(hand) => pb::score_hand_request::HandInput::Hand(hand),
                None => pb::score_hand_request::HandInput::Notation(notation.to_owned()),
            }),
            view: view as i32,
            ..score_request(notation, false, pb::Ruleset::Unspecified)
        }
    };
    let views = [
        pb::ScoreView::Unspecified,
        pb::ScoreView::Basic,
        pb::ScoreView::Full,
    ];
    let entry = |i: usize| structured(notations[i % 5], views[i % 3]);
    let late_invalid = |mut requests: Vec<pb::ScoreHandRequest>| {
        let last = requests.len() - 3;
        // A structured hand with a tile thirteen times: malformed, its violations in place.
        let mut malformed = structured(E23, pb::ScoreView::Full);
        if let Some(pb::score_hand_request::HandInput::Hand(hand)) = &mut malformed.hand_input {
            hand.standing_tiles = vec![hand.winning_tile; 13];
        }
        requests[last] = malformed;
        requests
    };
    let batches = [
        late_invalid((0..1300).map(entry).collect()),
        late_invalid(
            (0..1100)
                .map(|i| {
                    if i % 7 == 3 {
                        score_request(notations[i % 5], true, pb::Ruleset::Mil)
                    } else {
                        entry(i)
                    }
                })
                .collect(),
        ),
    ];
    assert!(batches[0].iter().all(|r| matches!(
        r.hand_input,
        Some(pb::score_hand_request::HandInput::Hand(_))
    )));
    for requests in batches {
        let request = pb::BatchScoreHandsRequest {
            requests,
            default_ruleset: pb::Ruleset::Unspecified as i32,
            default_view: pb::ScoreView::Full as i32,
            default_overrides: None,
        };
        let encoded = request.encode_to_vec();
        let in_order = scoring::batch_score_hands(
            BatchScoreHandsQuery::decode(encoded.into()).expect("decodes"),
            &std::sync::Arc::default(),
        )
        .expect("a valid batch");
        let answer = client
            .batch_score_hands(request.clone())
            .await
            .expect("scores")
            .into_inner();
        assert_eq!(answer.encode_to_vec(), in_order.as_bytes());
        assert_eq!(answer.results.len(), request.requests.len());
        assert!(matches!(
            answer.results[request.requests.len() - 3].result,
            Some(Entry::Error(_))
        ));
        each_as_alone(&request, &answer);
    }
}

/// Each result of `answer` is what its hand of `request` answers scored alone, in its place.
fn each_as_alone(request: &pb::BatchScoreHandsRequest, answer: &pb::BatchScoreHandsResponse) {
    use mahjong_referee::api::kit::query::ScoreQuery;
    use mahjong_referee::api::scoring;
    use prost::Message as _;

    for (i, (hand, result)) in request.requests.iter().zip(&answer.results).enumerate() {
        let view = if hand.view == 0 {
            request.default_view
        } else {
            hand.view
        };
        let alone = scoring::score_hand(
            &ScoreQuery::from(&pb::ScoreHandRequest {
                view,
                ..hand.clone()
            }),
            &KeptRules::default(),
        );
        match (alone, &result.result) {
            (Ok(reply), Some(Entry::Score(score))) => {
                assert_eq!(reply.as_bytes(), score.encode_to_vec(), "entry {i}");
            }
            (Err(_), Some(Entry::Error(_))) => {}
            (alone, other) => panic!("entry {i}: {alone:?} but {other:?}"),
        }
    }
}

/// A ready hand whose waits differ in value, and a hand that has just drawn.
#[tokio::test]
async fn analyze_hand_scores_each_wait_and_ranks_discards() {
    // The first analysis builds the shanten tables: 16 s in a debug build, more than the
    // request timeout, which now stops a call whatever its work.
    let server = spawn(Config {
        request_timeout: std::time::Duration::from_secs(120),
        ..config()
    })
    .await;
    let mut client = server.client().await;
    // 234567m 789s 55p WW: waiting on 5p or W (a shanpon): on W, the West pung (seat West).
    let request = |notation: &str| pb::AnalyzeHandRequest {
        overrides: None,
        hand_input: Some(pb::analyze_hand_request::HandInput::Notation(
            notation.to_owned(),
        )),
        context: Some(pb::AnalysisContext {
            seat_wind: pb::Wind::West as i32,
            prevalent_wind: pb::Wind::East as i32,
            flower_count: 0,
        }),
        ruleset: pb::Ruleset::Mil as i32,
        visible_tiles: vec![pb::Tile::Tile5p as i32],
        view: pb::ScoreView::Unspecified as i32,
    };
    let waiting = client
        .analyze_hand(request("234567m789s55pWW"))
        .await
        .expect("a valid hand in play")
        .into_inner();
    assert_eq!(waiting.state(), pb::HandState::Waiting);
    assert_eq!(waiting.shanten, 0);
    assert_eq!(waiting.ruleset(), pb::Ruleset::Mil);
    let waits: Vec<(pb::Tile, u32)> = waiting
        .waits
        .iter()
        .map(|w| (w.tile(), w.remaining))
        .collect();
    // One 5p is seen on the table: one copy left; two West left.
    assert_eq!(waits, [(pb::Tile::Tile5p, 1), (pb::Tile::West, 2)]);
    let total = |w: &pb::WaitingTile| w.on_discard.as_ref().map(|s| s.total);
    assert!(total(&waiting.waits[1]) > total(&waiting.waits[0]));
    // The basic view by default: numbers, no names.
    let sheet = waiting.waits[1].on_discard.as_ref().expect("scored");
    assert!(sheet.fans.iter().all(|l| l.name_zh.is_empty()));
    assert_eq!(
        waiting.waits[1].wins_on_discard,
        sheet.outcome() == pb::Outcome::Win
    );

    let drawn = client
        .analyze_hand(request("234567m789s55pWW1s"))
        .await
        .expect("a valid hand in play")
        .into_inner();
    assert_eq!(drawn.state(), pb::HandState::Drawn);
    assert_eq!(drawn.shanten, 0);
    // Discarding the 1s drawn keeps the hand ready: the best row.
    assert_eq!(drawn.discards[0].tile(), pb::Tile::Tile1s);
    assert_eq!(drawn.discards[0].shanten, 0);
    assert_eq!(drawn.discards[0].waits.len(), 2);
}

/// The calculator's two examples over gRPC: its syntax example is a normal losing hand, the
/// knitted straight with a claimed chow a win whose sheet carries glyphs and the
/// Traditional names; `ParseHand` reads glyphs, `z` honours and commas.
#[tokio::test]
async fn calculator_notation_and_parse_hand() {
    let server = spawn_default().await;
    let mut client = server.client().await;
    let example = client
        .score_hand(score_request(
            "[123p1][345s2][999s3]6m6pEW1m",
            false,
            pb::Ruleset::Unspecified,
        ))
        .await
        .expect("the calculator's syntax example reads")
        .into_inner();
    assert_eq!(example.outcome(), pb::Outcome::NotWinningShape);
    let knitted = client
        .score_hand(score_request(
            "[345m3]258m1477s369p7s",
            false,
            pb::Ruleset::Unspecified,
        ))
        .await
        .expect("a knitted straight with a chow")
        .into_inner();
    assert_eq!(knitted.outcome(), pb::Outcome::Win);
    assert_eq!(knitted.notation, "[345m3]258m369p14777s");
    assert_eq!(knitted.glyphs, "[🀉🀊🀋3]🀈🀋🀎🀛🀞🀡🀐🀓🀖🀖🀖");
    let names: Vec<(pb::Fan, &str, &str)> = knitted
        .fans
        .iter()
        .map(|l| (l.fan(), l.name_zh.as_str(), l.name_zh_hant.as_str()))
        .collect();
    assert_eq!(names[0], (pb::Fan::KnittedStraight, "组合龙", "組合龍"));
    assert!(names.contains(&(pb::Fan::SingleWait, "单钓将", "單釣將")));

    let parsed = client
        .parse_hand(pb::ParseHandRequest {
            notation: "[🀙🀚🀛,2] 🀇🀈🀉 1z1z1z 5z5z 🀄\u{FE0F}🀄 7z".to_owned(),
        })
        .await
        .expect("every form reads")
        .into_inner();
    assert_eq!(parsed.notation, "[123p2]123mEEECCPPC");
    assert_eq!(parsed.glyphs, "[🀙🀚🀛2]🀇🀈🀉🀀🀀🀀🀄🀄🀆🀆🀄");
    let hand = parsed.hand.expect("the hand");
    assert_eq!(hand.melds[0].claimed_tile(), pb::Tile::Tile2p);
    assert_eq!(hand.melds[0].claimed_from(), pb::ClaimSource::Unspecified);
    let counts: Vec<(pb::Tile, u32)> = parsed
        .tile_counts
        .iter()
        .map(|c| (c.tile(), c.count))
        .collect();
    assert_eq!(counts.len(), 9);
    assert!(counts.contains(&(pb::Tile::East, 3)));
    assert!(counts.contains(&(pb::Tile::Red, 3)));
    assert!(counts.contains(&(pb::Tile::White, 2)));

    let status = client
        .parse_hand(pb::ParseHandRequest {
            notation: "[123m4]1m".to_owned(),
        })
        .await
        .expect_err("not notation");
    let d = details(&status);
    assert_eq!(
        (d.code, d.info.reason.as_str()),
        (tonic::Code::InvalidArgument, "INVALID_REQUEST")
    );
    let fields = crate::helpers::fields(&d);
    assert_eq!(fields.len(), 1);
    assert_eq!(fields[0].0, "notation");
    assert!(
        fields[0].1.starts_with("NOTATION_SYNTAX: ") && fields[0].1.contains("position 5"),
        "{fields:?}"
    );
}
