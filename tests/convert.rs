//! Proto ↔ domain conversions: every violation path with its field path, the round trip of a
//! hand through proto and back, the enums against the domain tables, and proto3 JSON.

use mahjong_referee::api::KeptRules;
use mahjong_referee::api::kit::hand::{context_from_pb, context_to_pb, hand_from_pb, hand_to_pb};
use mahjong_referee::api::kit::json;
use mahjong_referee::api::kit::values::{fan_from_pb, fan_to_pb, tile_from_pb, tile_to_pb};
use mahjong_referee::api::scoring::{score_json_line, score_request, validate_request};
use mahjong_referee::api::{FILE_DESCRIPTOR_SET, pb};
use mcr::notation::parse_hand;
use mcr::{Fan, Tile, WinContext, WinMethod, Wind};
use pb::score_hand_request::HandInput;

#[allow(dead_code)] // the corpus helpers this test does not use
mod support;

/// A tile by notation, as its proto number.
fn t(s: &str) -> i32 {
    tile_to_pb(s.parse::<Tile>().unwrap())
}

fn tiles(s: &str) -> Vec<i32> {
    mcr::notation::parse_tiles(s)
        .unwrap()
        .into_iter()
        .map(tile_to_pb)
        .collect()
}

fn meld(kind: pb::MeldKind, ts: &str, from: pb::ClaimSource) -> pb::Meld {
    pb::Meld {
        kind: kind as i32,
        tiles: tiles(ts),
        claimed_from: from as i32,
        promoted: false,
        claimed_tile: 0,
    }
}

/// docs/rules/examples.md#e23: `[123m][789m][123p]55s89p7p`.
fn e23() -> pb::Hand {
    pb::Hand {
        melds: vec![
            meld(pb::MeldKind::Chow, "123m", pb::ClaimSource::Left),
            meld(pb::MeldKind::Chow, "789m", pb::ClaimSource::Left),
            meld(pb::MeldKind::Chow, "123p", pb::ClaimSource::Left),
        ],
        standing_tiles: tiles("55s89p"),
        winning_tile: t("7p"),
    }
}

fn request(hand: pb::Hand) -> pb::ScoreHandRequest {
    pb::ScoreHandRequest {
        overrides: None,
        hand_input: Some(HandInput::Hand(hand)),
        context: None,
        ruleset: 0,
        view: pb::ScoreView::Unspecified as i32,
    }
}

/// The (code, field) pairs of an invalid response.
fn violations(resp: &pb::ScoreHandResponse) -> Vec<(String, String)> {
    assert_eq!(resp.outcome, pb::Outcome::Invalid as i32, "{resp:?}");
    assert!(resp.fans.is_empty() && resp.total == 0 && resp.reading.is_none());
    resp.violations
        .iter()
        .map(|v| (v.code.clone(), v.field.clone()))
        .collect()
}

fn pair(code: &str, field: &str) -> (String, String) {
    (code.to_owned(), field.to_owned())
}

#[test]
fn every_tile_round_trips_and_numbers_follow_the_dense_index() {
    for tile in Tile::ALL {
        let n = tile_to_pb(tile);
        assert_eq!(n, i32::try_from(tile.index()).unwrap() + 1);
        assert_eq!(tile_from_pb(n), Some(tile));
        assert!(pb::Tile::try_from(n).is_ok());
    }
    for bad in [0, -1, 35, 99, i32::MIN, i32::MAX] {
        assert_eq!(tile_from_pb(bad), None, "{bad}");
    }
    assert_eq!(t("1m"), pb::Tile::Tile1m as i32);
    assert_eq!(t("9s"), pb::Tile::Tile9s as i32);
    assert_eq!(t("E"), pb::Tile::East as i32);
    assert_eq!(t("C"), pb::Tile::Red as i32);
    assert_eq!(t("F"), pb::Tile::Green as i32);
    assert_eq!(t("P"), pb::Tile::White as i32);
}

/// The proto name of a fan is `FAN_` + its English name in upper snake case, its number the id.
#[test]
fn the_fan_enum_is_the_fan_table() {
    for fan in Fan::ALL {
        let n = fan_to_pb(fan);
        assert_eq!(fan_from_pb(n), Some(fan));
        let value = pb::Fan::try_from(n).unwrap_or_else(|_| panic!("{fan:?} has no proto value"));
        let mut expected = String::from("FAN_");
        let mut gap = false;
        for c in fan.spec().name_en.chars() {
            if c.is_ascii_alphanumeric() {
                if gap {
                    expected.push('_');
                }
                expected.push(c.to_ascii_uppercase());
                gap = false;
            } else {
                gap = true;
            }
        }
        assert_eq!(value.as_str_name(), expected);
    }
    assert_eq!(pb::Fan::BigFourWinds as i32, 1);
    assert_eq!(pb::Fan::FlowerTiles as i32, 81);
    assert_eq!(pb::Fan::MeldedAndConcealedKongs as i32, 82);
    assert!(pb::Fan::try_from(83).is_err());
    assert_eq!(fan_from_pb(0), None);
}

#[test]
fn a_hand_round_trips_through_proto() {
    for text in [
        "[123m][789m][123p]55s89p7p",
        "[SSS2][456s][111s3][789s]6s6s",
        "[5555p][6666m1][7777s6]EE5s5s",
        "19m19p19sESWNCFP1m",
        "[555p]123m456p78sCC9s",
    ] {
        let input = parse_hand(text).unwrap();
        let proto = hand_to_pb(&input);
        assert_eq!(hand_from_pb(&proto), Ok(input.clone()), "{text}");
    }
    let pb_hand = e23();
    let back = hand_from_pb(&pb_hand).unwrap();
    assert_eq!(hand_to_pb(&back), pb_hand);
}

#[test]
fn a_context_round_trips_through_proto() {
    let ctx = WinContext {
        method: WinMethod::SelfDrawn,
        robbing_kong: false,
        replacement_draw: true,
        last_tile: true,
        last_copy: true,
        seat_wind: Wind::West,
        prevalent_wind: Wind::North,
        flowers: 3,
    };
    let proto = context_to_pb(&ctx);
    assert_eq!(proto.seat_wind, pb::Wind::West as i32);
    assert_eq!(context_from_pb(Some(&proto)), Ok(ctx));
    // Absent, and unspecified winds: the plain case, East/East.
    assert_eq!(context_from_pb(None), Ok(WinContext::default()));
    assert_eq!(
        context_from_pb(Some(&pb::WinContext::default())),
        Ok(WinContext::default())
    );
}

#[test]
fn e23_scores_18_with_its_sheet_under_every_ruleset() {
    for ruleset in [
        pb::Ruleset::Unspecified,
        pb::Ruleset::ChineseOfficial1998,
        pb::Ruleset::Mil,
        pb::Ruleset::GreenBook2006,
    ] {
        let resp = score_request(
            &pb::ScoreHandRequest {
                overrides: None,
                hand_input: Some(HandInput::Hand(e23())),
                context: Some(pb::WinContext {
                    self_drawn: true,
                    ..Default::default()
                }),
                ruleset: ruleset as i32,
                view: pb::ScoreView::Unspecified as i32,
            },
            &KeptRules::default(),
        );
        assert_eq!(resp.outcome, pb::Outcome::Win as i32);
        assert_eq!(
            (resp.fan_total, resp.flower_points, resp.total),
            (18, 0, 18)
        );
        assert!(resp.violations.is_empty());
        let applied = if ruleset == pb::Ruleset::Unspecified {
            pb::Ruleset::ChineseOfficial1998
        } else {
            ruleset
        };
        assert_eq!(resp.ruleset, applied as i32);
        assert_eq!(resp.notation, "[123m][789m][123p]89p55s7p");
        let fans: Vec<(i32, &str, &str, u32, u32, u32)> = resp
            .fans
            .iter()
            .map(|f| {
                (
                    f.fan,
                    f.name_zh.as_str(),
                    f.name_en.as_str(),
                    f.points,
                    f.count,
                    f.total_points,
                )
            })
            .collect();
        assert_eq!(
            fans,
            [
                (
                    pb::Fan::ThreeSuitedTerminalChows as i32,
                    "三色双龙会",
                    "Three-Suited Terminal Chows",
                    16,
                    1,
                    16
                ),
                (pb::Fan::EdgeWait as i32, "边张", "Edge Wait", 1, 1, 1),
                (pb::Fan::SelfDrawn as i32, "自摸", "Self-Drawn", 1, 1, 1),
            ]
        );
        let reading = resp.reading.as_ref().unwrap();
        assert_eq!(reading.shape, pb::Shape::Standard as i32);
        assert_eq!(reading.elements.len(), 5);
        assert_eq!(reading.elements[3].tiles, tiles("789p"));
        assert!(reading.elements[0].declared && reading.elements[0].claimed);
        assert!(!reading.elements[3].declared);
        assert_eq!(reading.elements[4].kind, pb::ElementKind::Pair as i32);
        // 边张 is the chow the winning tile completed.
        assert_eq!(resp.fans[1].element_indices, [3]);
    }
}

#[test]
fn notation_and_structured_input_give_the_same_response() {
    let by_notation = score_request(
        &pb::ScoreHandRequest {
            overrides: None,
            hand_input: Some(HandInput::Notation("[123m][789m][123p]55s89p7p".into())),
            context: Some(pb::WinContext {
                self_drawn: true,
                ..Default::default()
            }),
            ruleset: pb::Ruleset::Mil as i32,
            view: pb::ScoreView::Unspecified as i32,
        },
        &KeptRules::default(),
    );
    let by_hand = score_request(
        &pb::ScoreHandRequest {
            overrides: None,
            hand_input: Some(HandInput::Hand(e23())),
            context: Some(pb::WinContext {
                self_drawn: true,
                ..Default::default()
            }),
            ruleset: pb::Ruleset::Mil as i32,
            view: pb::ScoreView::Unspecified as i32,
        },
        &KeptRules::default(),
    );
    assert_eq!(by_notation, by_hand);
}

#[test]
fn unknown_and_unspecified_tiles_are_tile_unknown_at_their_index() {
    let mut hand = e23();
    hand.melds[1].tiles[2] = 99;
    hand.standing_tiles[3] = 0;
    let resp = score_request(&request(hand), &KeptRules::default());
    assert_eq!(
        violations(&resp),
        [
            pair("TILE_UNKNOWN", "hand.melds[1].tiles[2]"),
            pair("TILE_UNKNOWN", "hand.standing_tiles[3]"),
        ]
    );
    assert!(resp.violations[0].message.contains("99"));
    assert!(resp.violations[1].message.contains("TILE_UNSPECIFIED"));

    let mut hand = e23();
    hand.standing_tiles.push(-5);
    hand.standing_tiles.push(35);
    let resp = score_request(&request(hand), &KeptRules::default());
    // The count is still checked: five standing tiles where four belong.
    assert_eq!(
        violations(&resp),
        [
            pair("TILE_UNKNOWN", "hand.standing_tiles[4]"),
            pair("TILE_UNKNOWN", "hand.standing_tiles[5]"),
            pair("TILE_COUNT_WRONG", "hand.standing_tiles"),
        ]
    );
}

#[test]
fn the_winning_tile_is_missing_when_unset_and_unknown_when_out_of_range() {
    let mut hand = e23();
    hand.winning_tile = 0;
    assert_eq!(
        violations(&score_request(&request(hand), &KeptRules::default())),
        [pair("WINNING_TILE_MISSING", "hand.winning_tile")]
    );
    let mut hand = e23();
    hand.winning_tile = 40;
    assert_eq!(
        violations(&score_request(&request(hand), &KeptRules::default())),
        [pair("TILE_UNKNOWN", "hand.winning_tile")]
    );
}

#[test]
fn meld_kinds_and_claim_sources_out_of_range_are_value_invalid() {
    let mut hand = e23();
    hand.melds[0].kind = pb::MeldKind::Unspecified as i32;
    hand.melds[1].kind = 7;
    hand.melds[2].claimed_from = 4;
    let resp = score_request(&request(hand), &KeptRules::default());
    assert_eq!(
        violations(&resp),
        [
            pair("VALUE_INVALID", "hand.melds[0].kind"),
            pair("VALUE_INVALID", "hand.melds[1].kind"),
            pair("VALUE_INVALID", "hand.melds[2].claimed_from"),
        ]
    );
    assert!(resp.violations[0].message.contains("MELD_KIND_UNSPECIFIED"));
    assert!(resp.violations[1].message.contains('7'));
}

#[test]
fn winds_and_rulesets_out_of_range_are_value_invalid() {
    let resp = score_request(
        &pb::ScoreHandRequest {
            overrides: None,
            hand_input: Some(HandInput::Hand(e23())),
            context: Some(pb::WinContext {
                seat_wind: 5,
                prevalent_wind: -1,
                ..Default::default()
            }),
            ruleset: 4,
            view: pb::ScoreView::Unspecified as i32,
        },
        &KeptRules::default(),
    );
    assert_eq!(
        violations(&resp),
        [
            pair("VALUE_INVALID", "context.seat_wind"),
            pair("VALUE_INVALID", "context.prevalent_wind"),
            pair("VALUE_INVALID", "ruleset"),
        ]
    );
    // The ruleset given is reported back as is.
    assert_eq!(resp.ruleset, 4);
}

#[test]
fn a_request_without_a_hand_is_value_invalid_on_hand_input() {
    let resp = score_request(&pb::ScoreHandRequest::default(), &KeptRules::default());
    assert_eq!(violations(&resp), [pair("VALUE_INVALID", "hand_input")]);
    assert_eq!(resp.ruleset, pb::Ruleset::ChineseOfficial1998 as i32);
}

#[test]
fn notation_syntax_errors_say_where_and_what() {
    let resp = score_request(
        &pb::ScoreHandRequest {
            overrides: None,
            hand_input: Some(HandInput::Notation("[123m][789m]12x".into())),
            context: None,
            ruleset: 0,
            view: pb::ScoreView::Unspecified as i32,
        },
        &KeptRules::default(),
    );
    assert_eq!(violations(&resp), [pair("NOTATION_SYNTAX", "notation")]);
    let message = &resp.violations[0].message;
    assert!(message.contains("position 14"), "{message}");
    assert!(message.contains("expected"), "{message}");
    assert!(message.contains("`x`"), "{message}");
}

#[test]
fn conversion_and_domain_violations_are_collected_together() {
    // Five 5s, a bad wind, a self-drawn robbed kong, 9 flowers, and an unknown tile in the
    // last meld: every problem at once, and nothing the unknown tile makes up.
    let hand = pb::Hand {
        melds: vec![
            meld(pb::MeldKind::Pung, "555s", pb::ClaimSource::Opposite),
            meld(pb::MeldKind::Chow, "123m", pb::ClaimSource::Right),
            pb::Meld {
                kind: pb::MeldKind::Pung as i32,
                tiles: vec![t("9p"), 123, t("9p")],
                claimed_from: 0,
                promoted: false,
                claimed_tile: 0,
            },
        ],
        standing_tiles: tiles("55s7p"),
        winning_tile: t("7p"),
    };
    let resp = score_request(
        &pb::ScoreHandRequest {
            overrides: None,
            hand_input: Some(HandInput::Hand(hand)),
            context: Some(pb::WinContext {
                self_drawn: true,
                robbing_kong: true,
                seat_wind: 12,
                flower_count: 9,
                ..Default::default()
            }),
            ruleset: pb::Ruleset::Mil as i32,
            view: pb::ScoreView::Unspecified as i32,
        },
        &KeptRules::default(),
    );
    assert_eq!(
        violations(&resp),
        [
            pair("TILE_UNKNOWN", "hand.melds[2].tiles[1]"),
            pair("VALUE_INVALID", "context.seat_wind"),
            pair("CHOW_NOT_FROM_LEFT", "hand.melds[1].claimed_from"),
            pair("TILE_COUNT_WRONG", "hand.standing_tiles"),
            pair("TILE_COPIES_EXCEEDED", "hand"),
            pair("CONTEXT_CONFLICT", "context.robbing_kong"),
            // The winner holds a 7p: it cannot be a robbed kong tile.
            pair("CONTEXT_CONFLICT", "context.robbing_kong"),
            pair("FLOWER_COUNT_INVALID", "context.flower_count"),
        ]
    );
    assert_eq!(resp.ruleset, pb::Ruleset::Mil as i32);
}

#[test]
fn a_meld_of_unknown_kind_gets_one_violation_only() {
    let mut hand = e23();
    hand.melds[2].kind = 0;
    hand.melds[2].tiles = tiles("1p");
    assert_eq!(
        violations(&score_request(&request(hand), &KeptRules::default())),
        [pair("VALUE_INVALID", "hand.melds[2].kind")]
    );
    // With a known kind, a short meld is reported as such.
    let mut hand = e23();
    hand.melds[2].tiles = tiles("1p");
    assert_eq!(
        violations(&score_request(&request(hand), &KeptRules::default())),
        [pair("MELD_TILE_COUNT", "hand.melds[2].tiles")]
    );
}

#[test]
fn huge_inputs_of_unknown_tiles_do_not_panic() {
    let hand = pb::Hand {
        melds: (0..50)
            .map(|i| pb::Meld {
                kind: i % 6,
                tiles: vec![1000 + i; 4],
                claimed_from: i % 5,
                promoted: true,
                claimed_tile: 0,
            })
            .collect(),
        standing_tiles: (0..500).collect(),
        winning_tile: i32::MAX,
    };
    let resp = score_request(&request(hand), &KeptRules::default());
    let found = violations(&resp);
    assert!(found.contains(&pair("MELDS_TOO_MANY", "hand.melds")));
    assert!(found.contains(&pair("TILE_UNKNOWN", "hand.standing_tiles[499]")));
    assert!(found.contains(&pair("TILE_UNKNOWN", "hand.winning_tile")));
}

#[test]
fn losing_hands_are_results_not_violations() {
    // Not a winning shape.
    let resp = score_request(
        &pb::ScoreHandRequest {
            overrides: None,
            hand_input: Some(HandInput::Notation("123m456p789s1357sE".into())),
            context: Some(pb::WinContext {
                flower_count: 2,
                ..Default::default()
            }),
            ruleset: 0,
            view: pb::ScoreView::Unspecified as i32,
        },
        &KeptRules::default(),
    );
    assert_eq!(resp.outcome, pb::Outcome::NotWinningShape as i32);
    assert!(resp.violations.is_empty() && resp.fans.is_empty() && resp.reading.is_none());
    assert_eq!((resp.fan_total, resp.flower_points, resp.total), (0, 2, 2));
    // Under the minimum: the breakdown is still there.
    let resp = score_request(
        &pb::ScoreHandRequest {
            overrides: None,
            hand_input: Some(HandInput::Notation("[123m]456m234p67s55p8s".into())),
            context: None,
            ruleset: 0,
            view: pb::ScoreView::Unspecified as i32,
        },
        &KeptRules::default(),
    );
    assert_eq!(resp.outcome, pb::Outcome::BelowMinimum as i32);
    assert!(!resp.fans.is_empty() && resp.fan_total < 8);
    assert!(resp.reading.is_some());
}

#[test]
fn validate_hand_reports_validity_shape_and_minimum() {
    let validate = |notation: &str, ruleset: pb::Ruleset| {
        validate_request(
            &pb::ValidateHandRequest {
                overrides: None,
                hand_input: Some(pb::validate_hand_request::HandInput::Notation(
                    notation.into(),
                )),
                context: Some(pb::WinContext {
                    self_drawn: true,
                    ..Default::default()
                }),
                ruleset: ruleset as i32,
            },
            &KeptRules::default(),
        )
    };
    let ok = validate("[123m][789m][123p]55s89p7p", pb::Ruleset::Mil);
    assert!(ok.valid && ok.winning_shape && ok.reaches_minimum && ok.violations.is_empty());
    assert_eq!(ok.outcome, pb::Outcome::Win as i32);
    let low = validate("[123m]456m234p67s55p8s", pb::Ruleset::Unspecified);
    assert!(low.valid && low.winning_shape && !low.reaches_minimum);
    assert_eq!(low.outcome, pb::Outcome::BelowMinimum as i32);
    let bad = validate("22222m", pb::Ruleset::Unspecified);
    assert!(!bad.valid && !bad.winning_shape && !bad.reaches_minimum);
    assert_eq!(bad.outcome, pb::Outcome::Invalid as i32);
    let codes: Vec<&str> = bad.violations.iter().map(|v| v.code.as_str()).collect();
    assert_eq!(codes, ["TILE_COUNT_WRONG", "TILE_COPIES_EXCEEDED"]);
}

#[test]
fn the_descriptor_set_holds_the_service() {
    let pool = prost_reflect::DescriptorPool::decode(FILE_DESCRIPTOR_SET).unwrap();
    let service = pool
        .get_service_by_name("mahjong.v1.MahjongService")
        .unwrap();
    let methods: Vec<String> = service.methods().map(|m| m.name().to_owned()).collect();
    assert_eq!(
        methods,
        [
            "ScoreHand",
            "ValidateHand",
            "BatchScoreHands",
            "ListFans",
            "AnalyzeHand",
            "SettleHand",
            "AdjudicatePenalty",
            "ComputeStandings",
            "DescribeRuleset",
            "ParseHand",
            "ReplayHand",
            "LegalActions",
            "ArbitrateClaims",
            "NextActions",
            "DealHand"
        ]
    );
}

#[test]
fn requests_read_from_proto3_json() {
    let req = json::from_json::<pb::ScoreHandRequest>(
        r#"{"hand": {"melds": [{"kind": "MELD_KIND_CHOW", "tiles": ["TILE_1M", 2, "TILE_3M"],
             "claimedFrom": "CLAIM_SOURCE_LEFT"}], "standingTiles": [], "winningTile": "TILE_EAST"},
            "context": {"selfDrawn": true, "robbingKong": false, "replacementDraw": false,
             "lastTile": true, "lastCopy": true, "seatWind": "WIND_SOUTH",
             "prevalentWind": "WIND_WEST", "flowerCount": 2},
            "ruleset": "RULESET_GREEN_BOOK_2006"}"#,
    )
    .unwrap();
    let Some(HandInput::Hand(hand)) = &req.hand_input else {
        panic!("structured hand expected");
    };
    assert_eq!(hand.melds[0].tiles, tiles("123m"));
    assert_eq!(hand.winning_tile, t("E"));
    let ctx = req.context.unwrap();
    assert!(ctx.self_drawn && ctx.last_tile && ctx.last_copy);
    assert_eq!(ctx.prevalent_wind, pb::Wind::West as i32);
    assert_eq!(ctx.flower_count, 2);
    assert_eq!(req.ruleset, pb::Ruleset::GreenBook2006 as i32);
    // Proto field names are accepted too; out-of-range enum numbers get through to the
    // converter, which reports them.
    let req =
        json::from_json::<pb::ScoreHandRequest>(r#"{"notation": "123m", "ruleset": 9}"#).unwrap();
    assert_eq!(req.ruleset, 9);
    for bad in [
        "",
        "null",
        "[]",
        r#"{"notation": 5}"#,
        r#"{"unknown": 1}"#,
        r#"{"notation": "1m", "hand": {}}"#,
        r#"{"ruleset": "RULESET_NOPE"}"#,
        "{} {}",
    ] {
        assert!(
            json::from_json::<pb::ScoreHandRequest>(bad).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn responses_print_every_field_with_enum_names() {
    let resp = score_request(&pb::ScoreHandRequest::default(), &KeptRules::default());
    let text = json::to_json::<pb::ScoreHandResponse>(&resp, false).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["outcome"], "OUTCOME_INVALID");
    assert_eq!(v["fanTotal"], 0);
    assert_eq!(v["flowerPoints"], 0);
    assert_eq!(v["total"], 0);
    assert_eq!(v["fans"], serde_json::json!([]));
    assert_eq!(v["notation"], "");
    assert_eq!(v["ruleset"], "RULESET_CHINESE_OFFICIAL_1998");
    assert_eq!(
        v["violations"][0],
        serde_json::json!({"code": "VALUE_INVALID", "field": "hand_input",
            "message": "the request has no hand: set `notation` or `hand`"})
    );
    let line = score_json_line("{", &KeptRules::default());
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v["error"]["code"], "REQUEST_UNPARSABLE");
}

mod never_panics {
    use super::*;
    use proptest::prelude::*;
    use support::requests;

    fn check(resp: &pb::ScoreHandResponse) {
        let invalid = resp.outcome == pb::Outcome::Invalid as i32;
        assert_eq!(invalid, !resp.violations.is_empty(), "{resp:?}");
        assert_eq!(resp.total, resp.fan_total + resp.flower_points);
        for v in &resp.violations {
            let root = v.field.split(['.', '[']).next().unwrap_or_default();
            assert!(
                [
                    "hand",
                    "context",
                    "ruleset",
                    "view",
                    "notation",
                    "hand_input",
                    "overrides"
                ]
                .contains(&root),
                "{v:?}"
            );
            assert!(!v.code.is_empty() && !v.message.is_empty(), "{v:?}");
        }
        assert!(json::to_json::<pb::ScoreHandResponse>(resp, false).is_ok());
    }

    proptest! {
        #[test]
        fn requests(request in requests::request()) {
            check(&score_request(&request, &KeptRules::default()));
        }

        #[test]
        fn notation(
            text in "[\\[\\]0-9mpsESWNCFPx ]{0,30}",
            context in prop::option::of(requests::context()),
        ) {
            check(&score_request(&pb::ScoreHandRequest { overrides: None,
                hand_input: Some(HandInput::Notation(text)),
                context,
                ruleset: 0,
                view: pb::ScoreView::Unspecified as i32,
            }, &KeptRules::default()));
        }

        #[test]
        fn json_lines(text in "\\PC{0,60}") {
            let line = score_json_line(&text, &KeptRules::default());
            prop_assert!(serde_json::from_str::<serde_json::Value>(&line).is_ok());
        }
    }
}

#[test]
fn canonical_notation_writes_a_melded_kong_of_unknown_source_as_melded() {
    let hand = |from| pb::Hand {
        melds: vec![
            meld(pb::MeldKind::Kong, "5555p", from),
            meld(pb::MeldKind::Chow, "123m", pb::ClaimSource::Left),
            meld(pb::MeldKind::Chow, "456m", pb::ClaimSource::Unspecified),
            meld(pb::MeldKind::Chow, "789m", pb::ClaimSource::Left),
        ],
        standing_tiles: tiles("E"),
        winning_tile: t("E"),
    };
    let resp = score_request(
        &request(hand(pb::ClaimSource::Opposite)),
        &KeptRules::default(),
    );
    assert_eq!(resp.notation, "[5555p2][123m][456m][789m]EE");
    // A melded kong of unknown source is written with the notation's default source (left),
    // never without a digit, which would read back as a concealed kong.
    let resp = score_request(
        &request(hand(pb::ClaimSource::Unspecified)),
        &KeptRules::default(),
    );
    assert!(resp.violations.is_empty());
    assert_eq!(resp.notation, "[5555p1][123m][456m][789m]EE");
}

/// The basic view is the full sheet without names, elements, reading, notation and glyphs, for every
/// hand of the public corpus (wins, hands under 8 and non-winning shapes) and every ruleset.
#[test]
fn the_basic_view_is_the_full_sheet_without_its_descriptions() {
    let cases = support::corpus::load();
    let inputs: Vec<_> = cases
        .iter()
        .filter_map(support::corpus::Case::input)
        .collect();
    assert!(inputs.len() > 2_900, "{} usable hands", inputs.len());
    let mut scored = 0;
    for (hand, ctx) in &inputs {
        for ruleset in [
            pb::Ruleset::ChineseOfficial1998,
            pb::Ruleset::Mil,
            pb::Ruleset::GreenBook2006,
        ] {
            let request = |view| support::corpus::request(hand, *ctx, ruleset, view);
            let mut full =
                score_request(&request(pb::ScoreView::Unspecified), &KeptRules::default());
            assert_eq!(
                full,
                score_request(&request(pb::ScoreView::Full), &KeptRules::default())
            );
            let basic = score_request(&request(pb::ScoreView::Basic), &KeptRules::default());
            if full.outcome != pb::Outcome::Invalid as i32 {
                scored += 1;
                assert!(!full.notation.is_empty());
                assert!(!full.glyphs.is_empty());
            }
            for line in &mut full.fans {
                line.name_zh.clear();
                line.name_en.clear();
                line.name_zh_hant.clear();
                line.element_indices.clear();
            }
            full.reading = None;
            full.notation.clear();
            full.glyphs.clear();
            assert_eq!(basic, full);
        }
    }
    assert!(scored > 8_000, "{scored} scored");
}

/// `Meld.claimed_tile`: a chow's claimed tile is kept and written back by the canonical
/// notation; one outside the chow, one on a pung and an unknown number are each reported on
/// their field, all at once.
#[test]
fn a_claimed_tile_is_kept_on_a_chow_and_rejected_elsewhere() {
    let mut hand = e23();
    hand.melds[1].claimed_tile = t("8m");
    let scored = score_request(&request(hand.clone()), &KeptRules::default());
    assert_eq!(scored.outcome, pb::Outcome::Win as i32, "{scored:?}");
    assert_eq!(scored.notation, "[123m][789m2][123p]89p55s7p");
    assert_eq!(hand_to_pb(&hand_from_pb(&hand).unwrap()), hand);

    let mut bad = e23();
    bad.melds[0].claimed_tile = t("4m");
    bad.melds[1] = meld(pb::MeldKind::Pung, "999m", pb::ClaimSource::Opposite);
    bad.melds[1].claimed_tile = t("9m");
    bad.melds[2].claimed_tile = 99;
    assert_eq!(
        violations(&score_request(&request(bad), &KeptRules::default())),
        [
            pair("TILE_UNKNOWN", "hand.melds[2].claimed_tile"),
            pair("CHOW_INVALID", "hand.melds[0].claimed_tile"),
            pair("VALUE_INVALID", "hand.melds[1].claimed_tile"),
        ]
    );
}
