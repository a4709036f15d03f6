//! House rules (`RuleOverrides`): every switch changes the result of at least one request,
//! the fingerprint follows the switches in effect, invalid values name their field, and
//! `DescribeRuleset` lists every switch.
//!
//! The scoring switches are tried on the public corpus: for each, some corpus hand must score
//! differently with the switch than without it. The accounting switches are tried on
//! requests where the rulebook figure shows.

#[allow(dead_code)] // the request strategies this test does not use
mod support;

use mahjong_referee::api::KeptRules;
use std::collections::BTreeSet;

use mahjong_referee::api::accounting::{adjudicate_penalty, compute_standings, settle_hand};
use mahjong_referee::api::kit::house_rules::describe_ruleset;
use mahjong_referee::api::kit::json;
use mahjong_referee::api::{FILE_DESCRIPTOR_SET, pb, score_request, validate_request};
use serde_json::{Value, json};
use support::corpus;

const R98: &str = "RULESET_CHINESE_OFFICIAL_1998";

fn overrides(v: &Value) -> pb::RuleOverrides {
    json::from_json::<pb::RuleOverrides>(&v.to_string())
        .unwrap_or_else(|e| panic!("{v}: {}", e.message))
}

/// What a score amounts to: outcome, totals and each fan's `(fan, points, count)`.
type ScoreNumbers = (i32, u32, u32, u32, Vec<(i32, u32, u32)>);

/// What a score amounts to, the fingerprint left out.
fn score_numbers(r: &pb::ScoreHandResponse) -> ScoreNumbers {
    (
        r.outcome,
        r.fan_total,
        r.flower_points,
        r.total,
        r.fans.iter().map(|f| (f.fan, f.points, f.count)).collect(),
    )
}

/// The corpus requests under `ruleset`.
fn corpus_requests(ruleset: pb::Ruleset) -> Vec<pb::ScoreHandRequest> {
    corpus::load()
        .iter()
        .filter_map(corpus::Case::input)
        .map(|(hand, context)| corpus::request(&hand, context, ruleset, pb::ScoreView::Basic))
        .collect()
}

/// Whether some corpus hand scores differently with `o` than without.
fn changes_a_corpus_score(requests: &[pb::ScoreHandRequest], o: &pb::RuleOverrides) -> bool {
    requests.iter().any(|plain| {
        let with = pb::ScoreHandRequest {
            overrides: Some(Box::new(o.clone())),
            ..plain.clone()
        };
        let (a, b) = (
            score_request(plain, &KeptRules::default()),
            score_request(&with, &KeptRules::default()),
        );
        score_numbers(&a) != score_numbers(&b)
    })
}

fn settle(v: &Value) -> Result<pb::SettleHandResponse, Vec<mcr::Violation>> {
    settle_hand(
        &json::from_json::<pb::SettleHandRequest>(&v.to_string()).expect("a SettleHandRequest"),
        &KeptRules::default(),
    )
}

fn penalty(v: &Value) -> Result<pb::AdjudicatePenaltyResponse, Vec<mcr::Violation>> {
    adjudicate_penalty(
        &json::from_json::<pb::AdjudicatePenaltyRequest>(&v.to_string()).expect("a request"),
        &KeptRules::default(),
    )
}

fn standings(v: &Value) -> Result<pb::ComputeStandingsResponse, Vec<mcr::Violation>> {
    compute_standings(
        &json::from_json::<pb::ComputeStandingsRequest>(&v.to_string()).expect("a request"),
        &KeptRules::default(),
    )
}

/// `request` with `"overrides": o` added.
fn with(request: &Value, o: &Value) -> Value {
    let mut r = request.clone();
    r["overrides"] = o.clone();
    r
}

/// The numbers of an accounting answer, the fingerprint left out: its `Debug` text without
/// the fingerprint's line.
fn without_fingerprint<T: std::fmt::Debug>(r: &Result<T, Vec<mcr::Violation>>) -> String {
    format!("{r:?}")
        .split(", rules_fingerprint: ")
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// Whether an accounting call answers `request` differently with the overrides.
fn changes<T: std::fmt::Debug>(
    call: impl Fn(&Value) -> Result<T, Vec<mcr::Violation>>,
    request: &Value,
    o: &Value,
) -> bool {
    let (a, b) = (call(request), call(&with(request, o)));
    without_fingerprint(&a) != without_fingerprint(&b)
}

/// Whether the hand in Botzone's text replays differently with the overrides `o`.
fn replays_differently(text: &str, o: &Value) -> bool {
    let replay = |overrides: Option<pb::RuleOverrides>| {
        let mut r = mahjong_referee::api::play::replay_hand(
            &pb::ReplayHandRequest {
                record: Some(pb::replay_hand_request::Record::BotzoneText(
                    text.to_owned(),
                )),
                overrides,
                ..Default::default()
            },
            &KeptRules::default(),
        )
        .unwrap_or_else(|v| panic!("{v:?}"));
        r.rules_fingerprint.clear();
        r
    };
    replay(None) != replay(Some(overrides(o)))
}

#[test]
#[allow(clippy::too_many_lines)] // one case per switch
fn every_switch_changes_the_result_of_a_hand() {
    let r98 = corpus_requests(pb::Ruleset::ChineseOfficial1998);
    let gb = corpus_requests(pb::Ruleset::GreenBook2006);
    let mut tried = BTreeSet::new();
    let mut scoring = |name: &str, requests: &[pb::ScoreHandRequest], o: Value| {
        assert!(
            changes_a_corpus_score(requests, &overrides(&o)),
            "{name}: {o} changes no corpus score"
        );
        tried.insert(name.to_owned());
    };
    scoring("minimum_fan", &r98, json!({"minimumFan": 12}));
    scoring("flower_points", &r98, json!({"flowerPoints": 2}));
    scoring(
        "fan_points",
        &r98,
        json!({"fanPoints": [{"fan": "FAN_PURE_DOUBLE_CHOW", "points": 2}]}),
    );
    scoring(
        "lift_exclusions",
        &r98,
        json!({"liftExclusions": [{"fan": "FAN_SEVEN_PAIRS", "excluded": "FAN_FULLY_CONCEALED_HAND"}]}),
    );
    scoring(
        "apply_exclusions",
        &gb,
        json!({"applyExclusions": [{"fan": "FAN_SEVEN_PAIRS", "excluded": "FAN_FULLY_CONCEALED_HAND"}]}),
    );
    scoring(
        "three_kongs",
        &r98,
        json!({"threeKongs": "THREE_KONGS_RULE_FAMILY_OF_EACH"}),
    );
    scoring(
        "nine_gates_terminal_pungs",
        &r98,
        json!({"nineGatesTerminalPungs": "NINE_GATES_TERMINAL_PUNGS_ONE_FEWER"}),
    );
    scoring(
        "wait_counts_exhausted_tiles",
        &r98,
        json!({"waitCountsExhaustedTiles": false}),
    );
    scoring(
        "seven_pairs_honor_tile_hog",
        &r98,
        json!({"sevenPairsHonorTileHog": false}),
    );
    scoring(
        "lesser_honors_knitted_straight",
        &r98,
        json!({"lesserHonorsKnittedStraight": false}),
    );
    scoring(
        "knitted_straight_all_chows",
        &r98,
        json!({"knittedStraightAllChows": false}),
    );

    let mut accounting = |name: &str, changed: bool| {
        assert!(changed, "{name} changes nothing");
        tried.insert(name.to_owned());
    };
    // P2: 13 fan and a flower on West's discard; base 8 → 10 changes every account.
    let win = json!({
        "end": "HAND_END_DISCARD", "winner": "SEAT_SOUTH", "discarder": "SEAT_WEST",
        "fanCount": {"fanTotal": 13, "flowerCount": 1}, "ruleset": R98,
    });
    accounting(
        "base_points",
        changes(settle, &win, &json!({"basePoints": 10})),
    );
    // A declared 错和 (E47B's 4 fan), a 诈和 and an 有意诈和 ruled.
    let false_win = json!({
        "declaredWin": {
            "declarer": "SEAT_EAST", "source": "WIN_SOURCE_DISCARD", "discarder": "SEAT_SOUTH",
            "winningHand": {"notation": "[123s][456s]45567m99p6m"},
        },
        "ruleset": R98,
    });
    let not_ready = json!({
        "offences": [{"offender": "SEAT_EAST", "infraction": "INFRACTION_NOT_READY_WIN"}],
        "ruleset": R98,
    });
    let deliberate = json!({
        "offences": [{"offender": "SEAT_EAST", "infraction": "INFRACTION_DELIBERATE_FALSE_WIN"}],
        "ruleset": R98,
    });
    accounting(
        "false_win_each",
        changes(penalty, &false_win, &json!({"falseWinEach": 5})),
    );
    accounting(
        "not_ready_win_each",
        changes(penalty, &not_ready, &json!({"notReadyWinEach": 30})),
    );
    accounting(
        "false_win_loses_right_to_win",
        changes(
            penalty,
            &not_ready,
            &json!({"falseWinLosesRightToWin": false}),
        ),
    );
    accounting(
        "deliberate_false_win_disqualifies",
        changes(
            penalty,
            &deliberate,
            &json!({"deliberateFalseWinDisqualifies": false}),
        ),
    );
    // §14-7(3): 5 paid to the victim, refused once the least is 10; 60 refused under 50.
    let exposing = |points: i32| {
        json!({
            "offences": [{"offender": "SEAT_EAST", "infraction": "INFRACTION_EXPOSING_OTHERS_TILES",
                          "victim": "SEAT_NORTH", "points": points}],
            "ruleset": R98,
        })
    };
    accounting(
        "graded_min",
        changes(penalty, &exposing(5), &json!({"gradedMin": 10})),
    );
    accounting(
        "graded_max",
        changes(penalty, &exposing(60), &json!({"gradedMax": 50})),
    );
    // §13-2(2): 15 is no grade, unless the house makes it one.
    let naming = json!({
        "offences": [{"offender": "SEAT_EAST", "infraction": "INFRACTION_NAMING_DISCARD", "points": 15}],
        "ruleset": R98,
    });
    assert!(penalty(&naming).is_err());
    accounting(
        "grades",
        changes(
            penalty,
            &naming,
            &json!({"grades": {"points": [5, 15, 30]}}),
        ),
    );
    // A second empty pung: 5 points, or 10 when the first is not a warning.
    let empty_pungs = json!({
        "offences": [{"offender": "SEAT_EAST", "infraction": "INFRACTION_EMPTY_PUNG"},
                     {"offender": "SEAT_EAST", "infraction": "INFRACTION_EMPTY_PUNG"}],
        "ruleset": R98,
    });
    accounting(
        "repeat_offences",
        changes(
            penalty,
            &empty_pungs,
            &json!({"repeatOffences": {"firstIsWarning": false, "steps": [5, 10], "cap": 60}}),
        ),
    );
    let sessions = json!({
        "players": [
            {"name": "A", "sessions": [{"handResults": [100]}]},
            {"name": "B", "sessions": [{"handResults": [100]}]},
            {"name": "C", "sessions": [{"handResults": [-50], "lateMinutes": 12}]},
            {"name": "D", "sessions": [{"handResults": [-150]}]},
        ],
        "ruleset": R98,
    });
    accounting(
        "standard_point_ties",
        changes(
            standings,
            &sessions,
            &json!({"standardPointTies": "STANDARD_POINT_TIES_SAME_PLACE"}),
        ),
    );
    accounting(
        "late_arrival",
        changes(
            standings,
            &sessions,
            &json!({"lateArrival": {"tiers": [{"upToMinutes": 15, "points": 5}], "forfeitAfterMinutes": 30}}),
        ),
    );

    // The play switches, on whole hands replayed.
    let corpus = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/replay-public.txt"
    ))
    .expect("the replay corpus");
    let matches: Vec<&str> = corpus.split("\n\n").take(100).collect();
    accounting(
        "wall",
        matches
            .iter()
            .any(|m| replays_differently(m, &json!({"wall": "WALL_BOTZONE"}))),
    );
    // West's last discard B8 pung by North, who has no pair of it: refused as a claim on
    // the last discard, or (any claim allowed) as a pung without a pair.
    let last = matches[0].replace("Player 0 Hu B8", "Player 3 Peng B8");
    accounting(
        "last_discard_claims",
        replays_differently(
            &last,
            &json!({"lastDiscardClaims": "LAST_DISCARD_CLAIMS_ALL"}),
        ),
    );
    accounting(
        "added_kong_tile",
        replays_differently(
            &std::fs::read_to_string(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/data/replay-added-kong-held.txt"
            ))
            .expect("the record"),
            &json!({"addedKongTile": "ADDED_KONG_TILE_ANY_HELD"}),
        ),
    );

    // Every field of RuleOverrides has its case.
    let pool = prost_reflect::DescriptorPool::decode(FILE_DESCRIPTOR_SET).unwrap();
    let message = pool
        .get_message_by_name("mahjong.v1.RuleOverrides")
        .unwrap();
    let fields: BTreeSet<String> = message.fields().map(|f| f.name().to_owned()).collect();
    assert_eq!(tried, fields);
}

#[test]
fn two_tied_first_take_4_each_as_the_same_place_and_share_3_otherwise() {
    let request = |o: Value| {
        json!({
            "players": [
                {"name": "A", "sessions": [{"handResults": [100]}]},
                {"name": "B", "sessions": [{"handResults": [100]}]},
                {"name": "C", "sessions": [{"handResults": [0]}]},
                {"name": "D", "sessions": [{"handResults": [-200]}]},
            ],
            "standardPointsMethod": "STANDARD_POINTS_METHOD_TABLE_4210",
            "overrides": o,
        })
    };
    let points = |r: &pb::ComputeStandingsResponse| -> Vec<(String, i32, i32)> {
        r.standings
            .iter()
            .map(|s| {
                let p = s.standard_points.as_ref().unwrap();
                (s.name.clone(), p.numerator, p.denominator)
            })
            .collect()
    };
    let shared = standings(&request(json!({}))).unwrap();
    assert_eq!(
        points(&shared),
        [
            ("A".to_owned(), 3, 1),
            ("B".to_owned(), 3, 1),
            ("C".to_owned(), 1, 1),
            ("D".to_owned(), 0, 1)
        ]
    );
    let same = standings(&request(
        json!({"standardPointTies": "STANDARD_POINT_TIES_SAME_PLACE"}),
    ))
    .unwrap();
    assert_eq!(
        points(&same),
        [
            ("A".to_owned(), 4, 1),
            ("B".to_owned(), 4, 1),
            ("C".to_owned(), 1, 1),
            ("D".to_owned(), 0, 1)
        ]
    );
    assert_ne!(shared.rules_fingerprint, same.rules_fingerprint);
}

#[test]
fn a_casual_room_wins_below_eight_and_the_fingerprint_says_so() {
    // E47B, worth 4: below the minimum, a win in a 0-fan room.
    let request = |o: Option<Value>| pb::ValidateHandRequest {
        hand_input: Some(pb::validate_hand_request::HandInput::Notation(
            "[123s][456s]45567m99p6m".to_owned(),
        )),
        context: None,
        ruleset: pb::Ruleset::ChineseOfficial1998 as i32,
        overrides: o.map(|o| overrides(&o)),
    };
    let plain = validate_request(&request(None), &KeptRules::default());
    assert!(plain.winning_shape && !plain.reaches_minimum);
    let casual = validate_request(
        &request(Some(json!({"minimumFan": 0}))),
        &KeptRules::default(),
    );
    assert!(casual.reaches_minimum);
    assert_eq!(casual.outcome, pb::Outcome::Win as i32);
    assert_ne!(plain.rules_fingerprint, casual.rules_fingerprint);
    // The same switches give the same fingerprint, however they are reached: MIL's own,
    // and the 1998 ruleset brought to MIL's switches.
    let describe = |ruleset: pb::Ruleset, o: Option<Value>| {
        describe_ruleset(
            &pb::DescribeRulesetRequest {
                ruleset: ruleset as i32,
                overrides: o.map(|o| overrides(&o)),
            },
            &KeptRules::default(),
        )
        .unwrap()
    };
    let mil = describe(pb::Ruleset::Mil, None);
    let like_mil = describe(
        pb::Ruleset::ChineseOfficial1998,
        Some(json!({
            "fanPoints": [{"fan": "FAN_MELDED_AND_CONCEALED_KONGS", "points": 5}],
            "threeKongs": "THREE_KONGS_RULE_FAMILY_OF_EACH",
            "nineGatesTerminalPungs": "NINE_GATES_TERMINAL_PUNGS_ONE_FEWER",
        })),
    );
    // Not the standard-point method: ComputeStandings sets it.
    let differing: Vec<&str> = mil
        .switches
        .iter()
        .zip(&like_mil.switches)
        .filter(|(a, b)| a.value != b.value)
        .map(|(a, _)| a.name.as_str())
        .collect();
    assert_eq!(differing, ["standard_points"]);
    assert_eq!(
        plain.rules_fingerprint,
        describe(pb::Ruleset::ChineseOfficial1998, None).rules_fingerprint
    );
    assert_eq!(mil.switches.len(), 25);
    assert!(mil.switches.iter().all(|s| !s.meaning.is_empty()));
}

/// The house rules asked for again are the ones built the first time (the rules built
/// lately are kept, and served again to the requests that ask for the same ruleset and
/// overrides): every request answers as when its rules were built for it, whatever came
/// before it.
#[test]
fn the_same_house_rules_asked_again_are_the_same_rules() {
    let rulesets = [
        pb::Ruleset::ChineseOfficial1998,
        pb::Ruleset::Mil,
        pb::Ruleset::GreenBook2006,
    ];
    let house = [
        json!({"minimumFan": 0}),
        json!({"minimumFan": 0, "flowerPoints": 2}),
        json!({"basePoints": 8}),
    ];
    let hands = corpus_requests(pb::Ruleset::Unspecified);
    let ask = |ruleset: pb::Ruleset, o: &Value, hand: &pb::ScoreHandRequest| {
        score_request(
            &pb::ScoreHandRequest {
                ruleset: ruleset as i32,
                overrides: Some(Box::new(overrides(o))),
                ..hand.clone()
            },
            &KeptRules::default(),
        )
    };
    // Built for each request: no two requests in a row ask for the same rules.
    let mut built = Vec::new();
    for (i, o) in house.iter().enumerate() {
        for (j, &ruleset) in rulesets.iter().enumerate() {
            let hand = &hands[(i * 3 + j) * 7];
            built.push((ruleset, o, hand, ask(ruleset, o, hand)));
        }
    }
    let fingerprints: BTreeSet<&str> = built
        .iter()
        .map(|(.., r)| r.rules_fingerprint.as_str())
        .collect();
    assert_eq!(fingerprints.len(), 9, "every pair has rules of its own");
    // Asked twice in a row (the second time, the kept rules answer): after the same
    // overrides under another ruleset, then after other overrides under the same ruleset.
    let by_ruleset = (0..3).flat_map(|j| (0..3).map(move |i| i * 3 + j));
    for k in (0..built.len()).chain(by_ruleset) {
        let (ruleset, o, hand, first) = &built[k];
        assert_eq!(&ask(*ruleset, o, hand), first, "{ruleset:?} {o}");
        assert_eq!(&ask(*ruleset, o, hand), first, "{ruleset:?} {o}");
    }
    // Back and forth between two sets of rules, as two tables of a club would ask.
    for pair in built.windows(2) {
        for _ in 0..2 {
            for (ruleset, o, hand, first) in pair {
                assert_eq!(&ask(*ruleset, o, hand), first, "{ruleset:?} {o}");
            }
        }
    }
}

#[test]
fn out_of_range_values_are_invalid_with_their_path() {
    let o = overrides(&json!({
        "minimumFan": 89,
        "fanPoints": [{"fan": "FAN_ALL_PUNGS", "points": 100}, {"fan": 99, "points": 1}],
        "grades": {"points": [10, 5]},
    }));
    let request = pb::ScoreHandRequest {
        hand_input: Some(pb::score_hand_request::HandInput::Notation(
            "[123s][456s]45567m99p6m".to_owned(),
        )),
        overrides: Some(Box::new(o.clone())),
        ..pb::ScoreHandRequest::default()
    };
    let r = score_request(&request, &KeptRules::default());
    let fields: Vec<(&str, &str)> = r
        .violations
        .iter()
        .map(|v| (v.code.as_str(), v.field.as_str()))
        .collect();
    // The fan number is the conversion's to refuse; the ranges are checked once it converts.
    assert_eq!(fields, [("VALUE_INVALID", "overrides.fan_points[1].fan")]);
    let mut fixed = o;
    fixed.fan_points.truncate(1);
    let r = score_request(
        &pb::ScoreHandRequest {
            overrides: Some(Box::new(fixed)),
            ..request
        },
        &KeptRules::default(),
    );
    let fields: Vec<&str> = r.violations.iter().map(|v| v.field.as_str()).collect();
    assert_eq!(
        fields,
        [
            "overrides.minimum_fan",
            "overrides.fan_points[0].points",
            "overrides.grades.points[1]"
        ]
    );
    // An exclusion the fan table does not have.
    let describe = describe_ruleset(&pb::DescribeRulesetRequest {
        ruleset: pb::Ruleset::GreenBook2006 as i32,
        overrides: Some(overrides(
            &json!({"liftExclusions": [{"fan": "FAN_ALL_PUNGS", "excluded": "FAN_SEVEN_PAIRS"}]}),
        )),
    }, &KeptRules::default())
    .unwrap_err();
    assert_eq!(describe[0].path.to_string(), "overrides.lift_exclusions[0]");
}
