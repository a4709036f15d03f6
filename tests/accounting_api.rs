//! The accounting calls through the `mahjong.v1` contract: `SettleHand`, `AdjudicatePenalty`
//! and `ComputeStandings`, from proto3 JSON requests to responses.
//!
//! - docs/rules/examples.md#payment-cases P1–P6 and docs/rules/examples.md#penalty-cases X1–X6 under every ruleset, split where the rulesets' figures
//!   differ (Green Book false declarations; the 1998 group formula against 4/2/1/0);
//! - several claims on one discard (截和), judged declarations, rulings echoed back;
//! - every violation path of the conversions, each with its code and request field.
//!
//! Every expected figure is the rulebook's, worked by hand in the comments; none is computed
//! by the code under test.

use mahjong_referee::api::KeptRules;
use mahjong_referee::api::accounting::{adjudicate_penalty, compute_standings, settle_hand};
use mahjong_referee::api::kit::json;
use mahjong_referee::pb;
use mcr::Violation;
use serde_json::{Value, json};

const R98: &str = "RULESET_CHINESE_OFFICIAL_1998";
const MIL: &str = "RULESET_MIL";
const GB: &str = "RULESET_GREEN_BOOK_2006";
const ALL: [&str; 3] = [R98, MIL, GB];

fn settle(request: &Value) -> Result<pb::SettleHandResponse, Vec<Violation>> {
    let request = json::from_json::<pb::SettleHandRequest>(&request.to_string())
        .expect("a SettleHandRequest");
    settle_hand(&request, &KeptRules::default())
}

fn settled(request: &Value) -> pb::SettleHandResponse {
    settle(request).unwrap_or_else(|v| panic!("{request} should settle: {v:?}"))
}

fn penalty(request: &Value) -> Result<pb::AdjudicatePenaltyResponse, Vec<Violation>> {
    let request = json::from_json::<pb::AdjudicatePenaltyRequest>(&request.to_string())
        .expect("an AdjudicatePenaltyRequest");
    adjudicate_penalty(&request, &KeptRules::default())
}

fn ruled(request: &Value) -> pb::AdjudicatePenaltyResponse {
    penalty(request).unwrap_or_else(|v| panic!("{request} should be ruled: {v:?}"))
}

fn standings(request: &Value) -> Result<pb::ComputeStandingsResponse, Vec<Violation>> {
    let request = json::from_json::<pb::ComputeStandingsRequest>(&request.to_string())
        .expect("a ComputeStandingsRequest");
    compute_standings(&request, &KeptRules::default())
}

fn ranked(request: &Value) -> pb::ComputeStandingsResponse {
    standings(request).unwrap_or_else(|v| panic!("{request} should rank: {v:?}"))
}

fn deltas(accounts: &[pb::SeatAccount]) -> Vec<i32> {
    accounts.iter().map(|a| a.delta).collect()
}

/// `(code, field)` of every violation, in order.
fn fields(violations: &[Violation]) -> Fields {
    Fields(
        violations
            .iter()
            .map(|v| (v.code.as_str(), v.path.to_string()))
            .collect(),
    )
}

/// `(code, field)` of every violation, sorted by field.
fn sorted_fields(violations: &[Violation]) -> Fields {
    let mut f = fields(violations);
    f.0.sort_unstable_by(|(c, f), (d, g)| (f, c).cmp(&(g, d)));
    f
}

/// The code and the path (as written) of violations, compared with pairs of text.
#[derive(Debug)]
struct Fields(Vec<(&'static str, String)>);

impl Fields {
    /// In order of code, then path.
    fn sort_unstable(&mut self) {
        self.0.sort_unstable();
    }
}

impl<'a, 'b, E: AsRef<[(&'a str, &'b str)]>> PartialEq<E> for Fields {
    fn eq(&self, expected: &E) -> bool {
        let expected = expected.as_ref();
        self.0.len() == expected.len()
            && self
                .0
                .iter()
                .zip(expected)
                .all(|((code, path), (c, p))| code == c && path == p)
    }
}

fn settle_errors(request: &Value) -> Vec<Violation> {
    match settle(request) {
        Ok(r) => panic!("{request} should be invalid, settled as {r:?}"),
        Err(v) => v,
    }
}

fn penalty_errors(request: &Value) -> Vec<Violation> {
    match penalty(request) {
        Ok(r) => panic!("{request} should be invalid, ruled as {r:?}"),
        Err(v) => v,
    }
}

fn standings_errors(request: &Value) -> Vec<Violation> {
    match standings(request) {
        Ok(r) => panic!("{request} should be invalid, ranked as {r:?}"),
        Err(v) => v,
    }
}

/// `(kind, amount, counterparty)` of a seat's lines, by proto names.
fn lines(account: &pb::SeatAccount) -> Vec<(&'static str, i32, &'static str)> {
    account
        .lines
        .iter()
        .map(|l| {
            (
                pb::LineKind::try_from(l.kind)
                    .expect("a line kind")
                    .as_str_name(),
                l.amount,
                pb::Seat::try_from(l.counterparty)
                    .expect("a seat")
                    .as_str_name(),
            )
        })
        .collect()
}

/// `(kind, points)` of a ruling's sanctions, by proto names.
fn sanctions(ruling: &pb::Ruling) -> Vec<(&'static str, i32)> {
    ruling
        .sanctions
        .iter()
        .map(|s| {
            (
                pb::SanctionKind::try_from(s.kind)
                    .expect("a sanction kind")
                    .as_str_name(),
                s.points,
            )
        })
        .collect()
}

fn outcome(r: &pb::SettleHandResponse) -> &'static str {
    let result = r.result.as_ref().expect("a result");
    pb::HandOutcome::try_from(result.outcome)
        .expect("an outcome")
        .as_str_name()
}

fn half(numerator: i32) -> pb::Fraction {
    pb::Fraction {
        numerator,
        denominator: 2,
    }
}

fn whole(numerator: i32) -> pb::Fraction {
    pb::Fraction {
        numerator,
        denominator: 1,
    }
}

// ---------------------------------------------------------------------------------------------
// P1–P6: payments (docs/rules/scoring-and-payments.md#payments), the same under every ruleset
// ---------------------------------------------------------------------------------------------

#[test]
fn p1_self_drawn_24_fan_and_2_flowers() {
    // Each other player pays 8 + 26 = 34; the winner receives 3 × 34 = 102.
    for ruleset in ALL {
        let r = settled(&json!({
            "end": "HAND_END_SELF_DRAWN",
            "winner": "SEAT_EAST",
            "fanCount": {"fanTotal": 24, "flowerCount": 2},
            "ruleset": ruleset,
        }));
        assert_eq!(deltas(&r.accounts), [102, -34, -34, -34], "{ruleset}");
        assert_eq!((r.unpaid_penalties, r.unbalanced_by), (0, 0));
        assert_eq!(
            r.ruleset,
            pb::Ruleset::from_str_name(ruleset).unwrap() as i32
        );
        let result = r.result.as_ref().unwrap();
        assert_eq!(result.outcome, pb::HandOutcome::Win as i32);
        assert_eq!(result.basic_points, 26);
        assert_eq!(result.source, pb::WinSource::SelfDrawn as i32);
        assert_eq!(result.payer, pb::Seat::Unspecified as i32);
        for (i, seat) in ["SEAT_EAST", "SEAT_SOUTH", "SEAT_WEST", "SEAT_NORTH"]
            .into_iter()
            .enumerate()
        {
            assert_eq!(
                r.accounts[i].seat,
                pb::Seat::from_str_name(seat).unwrap() as i32
            );
        }
        for loser in &r.accounts[1..] {
            assert_eq!(
                lines(loser),
                [
                    ("LINE_KIND_BASE", -8, "SEAT_EAST"),
                    ("LINE_KIND_FAN_POINTS", -26, "SEAT_EAST")
                ]
            );
        }
        assert_eq!(r.accounts[0].lines.len(), 6);
        assert!(r.accounts[0].lines.iter().all(|l| l.amount > 0));
        assert!(r.score_sheet.is_none() && r.rulings.is_empty() && r.claim_resolution.is_none());
    }
}

#[test]
fn p1_with_the_engine_scoring_e28() {
    // E28: 12345566789s 22p, 4s self-drawn = 24 fan; with 2 flowers 26. The context does not
    // repeat that the tile was self-drawn, nor the seat wind (South, the winner's seat).
    for ruleset in [R98, MIL] {
        let r = settled(&json!({
            "end": "HAND_END_SELF_DRAWN",
            "winner": "SEAT_SOUTH",
            "winningHand": {"notation": "12345566789s22p4s", "context": {"flowerCount": 2}},
            "ruleset": ruleset,
        }));
        assert_eq!(deltas(&r.accounts), [-34, 102, -34, -34], "{ruleset}");
        let sheet = r.score_sheet.as_ref().expect("a score sheet");
        assert_eq!(
            (sheet.fan_total, sheet.flower_points, sheet.total),
            (24, 2, 26)
        );
        assert_eq!(sheet.outcome, pb::Outcome::Win as i32);
        assert!(sheet.violations.is_empty());
        assert_eq!(r.result.as_ref().unwrap().basic_points, 26);
    }
}

#[test]
fn p2_discard_13_fan_and_1_flower() {
    // Discarder pays 8 + 14 = 22, the other two 8 each; winner 22 + 16 = 38.
    for ruleset in ALL {
        let r = settled(&json!({
            "end": "HAND_END_DISCARD",
            "winner": "SEAT_SOUTH",
            "discarder": "SEAT_WEST",
            "fanCount": {"fanTotal": 13, "flowerCount": 1},
            "ruleset": ruleset,
        }));
        assert_eq!(deltas(&r.accounts), [-8, 38, -22, -8], "{ruleset}");
        assert_eq!(
            lines(&r.accounts[2]),
            [
                ("LINE_KIND_BASE", -8, "SEAT_SOUTH"),
                ("LINE_KIND_FAN_POINTS", -14, "SEAT_SOUTH")
            ]
        );
        assert_eq!(
            lines(&r.accounts[0]),
            [("LINE_KIND_BASE", -8, "SEAT_SOUTH")]
        );
        let result = r.result.as_ref().unwrap();
        assert_eq!(result.payer, pb::Seat::West as i32);
        assert_eq!(result.source, pb::WinSource::Discard as i32);
    }
}

#[test]
fn p3_e20_exactly_8_on_a_discard() {
    // E20: 33m 12456s 123456p, 3s on a discard = 8. Discarder 8 + 8 = 16; winner 32.
    for ruleset in ALL {
        let r = settled(&json!({
            "end": "HAND_END_DISCARD",
            "winner": "SEAT_NORTH",
            "discarder": "SEAT_EAST",
            "winningHand": {"notation": "33m12456s123456p3s"},
            "ruleset": ruleset,
        }));
        assert_eq!(deltas(&r.accounts), [-16, -8, -8, 32], "{ruleset}");
        assert_eq!(outcome(&r), "HAND_OUTCOME_WIN");
        assert_eq!(r.result.as_ref().unwrap().basic_points, 8);
        assert_eq!(r.score_sheet.as_ref().unwrap().total, 8);
    }
}

#[test]
fn p4_seven_fan_and_three_flowers_is_a_false_win() {
    // 7 fan < 8 (flowers do not count toward the minimum): 错和, 10 to each other player,
    // and the offender may not win this hand (停和; the GB: may not declare 和 again).
    for ruleset in ALL {
        let sanctions_expected = [
            ("SANCTION_KIND_LOSE_RIGHT_TO_WIN", 0),
            ("SANCTION_KIND_PAY_EACH_OTHER", 10),
        ];
        let r = settled(&json!({
            "end": "HAND_END_DISCARD",
            "winner": "SEAT_WEST",
            "discarder": "SEAT_SOUTH",
            "fanCount": {"fanTotal": 7, "flowerCount": 3},
            "ruleset": ruleset,
        }));
        assert_eq!(deltas(&r.accounts), [10, 10, -30, 10], "{ruleset}");
        assert_eq!(outcome(&r), "HAND_OUTCOME_FALSE_DECLARATION");
        let result = r.result.as_ref().unwrap();
        assert_eq!(
            (result.declarer, result.false_declaration),
            (pb::Seat::West as i32, pb::FalseDeclaration::FalseWin as i32)
        );
        assert_eq!(r.rulings.len(), 1);
        let ruling = &r.rulings[0];
        assert_eq!(sanctions(ruling), sanctions_expected, "{ruleset}");
        assert_eq!(ruling.infraction_name_zh, "错和");
        let offence = ruling.offence.as_ref().unwrap();
        assert_eq!(offence.offender, pb::Seat::West as i32);
        assert_eq!(offence.infraction, pb::Infraction::FalseWin as i32);
        assert!(r.accounts.iter().flat_map(|a| &a.lines).all(|l| {
            l.kind == pb::LineKind::Penalty as i32
                && l.infraction == pb::Infraction::FalseWin as i32
        }));
    }
}

#[test]
fn p5_e45_robbing_a_kong() {
    // E45: [123m] [456p] 789s 55s 67m, 8m robbing a promoted kong = 18. The robbed player
    // pays 8 + 18 = 26, the other two 8; winner 42.
    for ruleset in ALL {
        let r = settled(&json!({
            "end": "HAND_END_ROBBING_KONG",
            "winner": "SEAT_WEST",
            "discarder": "SEAT_SOUTH",
            "winningHand": {"notation": "[123m][456p]789s55s67m8m"},
            "ruleset": ruleset,
        }));
        assert_eq!(deltas(&r.accounts), [-8, -26, 42, -8], "{ruleset}");
        let result = r.result.as_ref().unwrap();
        assert_eq!(result.source, pb::WinSource::RobbingKong as i32);
        assert_eq!(result.payer, pb::Seat::South as i32);
        assert_eq!(result.basic_points, 18);
    }
}

#[test]
fn p6_draw_game() {
    for ruleset in ALL {
        let r = settled(&json!({"end": "HAND_END_DRAW_GAME", "ruleset": ruleset}));
        assert_eq!(deltas(&r.accounts), [0, 0, 0, 0]);
        assert_eq!(outcome(&r), "HAND_OUTCOME_DRAW_GAME");
        assert!(r.accounts.iter().all(|a| a.lines.is_empty()));
    }
}

// ---------------------------------------------------------------------------------------------
// X1–X6: penalties and standings (docs/rules/examples.md#penalty-cases)
// ---------------------------------------------------------------------------------------------

/// E47b: [123s] [456s] 45567m 99p, 6m on a discard = 4 fan.
const E47B: &str = "[123s][456s]45567m99p6m";

#[test]
fn x1_e47b_declared_on_a_discard_is_a_false_win() {
    // 错和: 10 to each other player under every ruleset, the hand goes on.
    for ruleset in ALL {
        let r = settled(&json!({
            "end": "HAND_END_DISCARD",
            "winner": "SEAT_EAST",
            "discarder": "SEAT_SOUTH",
            "winningHand": {"notation": E47B},
            "ruleset": ruleset,
        }));
        assert_eq!(deltas(&r.accounts), [-30, 10, 10, 10], "{ruleset}");
        assert_eq!(
            r.score_sheet.as_ref().unwrap().outcome,
            pb::Outcome::BelowMinimum as i32
        );
        // The same declaration judged on its own: 错和, with the same payments.
        let j = ruled(&json!({
            "declaredWin": {
                "declarer": "SEAT_EAST",
                "source": "WIN_SOURCE_DISCARD",
                "discarder": "SEAT_SOUTH",
                "winningHand": {"notation": E47B},
            },
            "ruleset": ruleset,
        }));
        let judgement = j.judgement.as_ref().expect("a judgement");
        assert_eq!(judgement.verdict, pb::WinVerdict::FalseWin as i32);
        assert_eq!(judgement.score_sheet.as_ref().unwrap().fan_total, 4);
        assert_eq!(deltas(&j.accounts), [-30, 10, 10, 10]);
        assert_eq!(j.rulings.len(), 1);
    }
}

#[test]
fn x1_the_offender_pays_like_any_loser_when_another_wins() {
    // East's false win earlier in the hand (−30, +10 each), then South wins 10 fan on
    // West's discard: East pays the base 8 like any loser.
    //   East −30 − 8 = −38; South +10 + 8 + 18 + 8 = +44; West +10 − 18 = −8; North +10 − 8 = +2.
    let r = settled(&json!({
        "end": "HAND_END_DISCARD",
        "winner": "SEAT_SOUTH",
        "discarder": "SEAT_WEST",
        "fanCount": {"fanTotal": 10},
        "penalties": [{"offender": "SEAT_EAST", "infraction": "INFRACTION_FALSE_WIN"}],
    }));
    assert_eq!(deltas(&r.accounts), [-38, 44, -8, 2]);
    // East himself may not win any more (停和).
    let errors = settle_errors(&json!({
        "end": "HAND_END_DISCARD",
        "winner": "SEAT_EAST",
        "discarder": "SEAT_SOUTH",
        "fanCount": {"fanTotal": 10},
        "penalties": [{"offender": "SEAT_EAST", "infraction": "INFRACTION_FALSE_WIN"}],
    }));
    assert_eq!(fields(&errors), [("WINNER_BARRED", "winner")]);
}

/// `public-k_nearmiss-002800`: one tile short of ready before the declared 5m.
const NOT_READY_002800: &str = "[123p][789p][123s]25m79s5m";

#[test]
fn x2_declared_one_tile_short_of_ready() {
    // 诈和: 20 to each other player under 1998 and MIL; 10 under the Green Book.
    for (ruleset, each) in [(R98, 20), (MIL, 20), (GB, 10)] {
        let r = settled(&json!({
            "end": "HAND_END_DISCARD",
            "winner": "SEAT_NORTH",
            "discarder": "SEAT_EAST",
            "winningHand": {"notation": NOT_READY_002800},
            "ruleset": ruleset,
        }));
        assert_eq!(
            deltas(&r.accounts),
            [each, each, each, -3 * each],
            "{ruleset}"
        );
        assert_eq!(
            r.result.as_ref().unwrap().false_declaration,
            pb::FalseDeclaration::NotReadyWin as i32
        );
        let j = ruled(&json!({
            "declaredWin": {
                "declarer": "SEAT_NORTH",
                "source": "WIN_SOURCE_DISCARD",
                "discarder": "SEAT_EAST",
                "winningHand": {"notation": NOT_READY_002800},
            },
            "ruleset": ruleset,
        }));
        let judgement = j.judgement.as_ref().unwrap();
        assert_eq!(
            (judgement.verdict, judgement.shanten),
            (pb::WinVerdict::NotReadyWin as i32, 1)
        );
        assert_eq!(deltas(&j.accounts), [each, each, each, -3 * each]);
        assert_eq!(j.rulings[0].infraction_name_zh, "诈和");
    }
}

#[test]
fn x2_declared_two_or_more_tiles_short_disqualifies() {
    // [123m] [456m] + 1p 5p 9p 3s 7s E S, W declared: four tiles short of ready → 有意诈和.
    for ruleset in ALL {
        let j = ruled(&json!({
            "declaredWin": {
                "declarer": "SEAT_SOUTH",
                "source": "WIN_SOURCE_DISCARD",
                "discarder": "SEAT_WEST",
                "winningHand": {"notation": "[123m][456m]159p37sESW"},
            },
            "ruleset": ruleset,
        }));
        let judgement = j.judgement.as_ref().unwrap();
        assert_eq!(judgement.verdict, pb::WinVerdict::DeliberateFalseWin as i32);
        assert!(judgement.shanten >= 2);
        assert_eq!(
            sanctions(&j.rulings[0]),
            [("SANCTION_KIND_DISQUALIFICATION", 0)]
        );
        assert_eq!(deltas(&j.accounts), [0, 0, 0, 0]);
    }
}

#[test]
fn a_valid_declared_win_moves_the_win_payments() {
    // E20 declared by North on East's discard: valid, 8 fan; no ruling.
    let j = ruled(&json!({
        "declaredWin": {
            "declarer": "SEAT_NORTH",
            "source": "WIN_SOURCE_DISCARD",
            "discarder": "SEAT_EAST",
            "winningHand": {"notation": "33m12456s123456p3s"},
        },
    }));
    let judgement = j.judgement.as_ref().unwrap();
    assert_eq!(judgement.verdict, pb::WinVerdict::Valid as i32);
    assert_eq!(judgement.shanten, 0);
    assert!(j.rulings.is_empty());
    assert_eq!(deltas(&j.accounts), [-16, -8, -8, 32]);
    assert_eq!(j.ruleset, pb::Ruleset::ChineseOfficial1998 as i32);
}

#[test]
fn x3_three_empty_pungs_in_one_hand() {
    // Warning, −5, −10: 15 deducted from West's hand score, received by nobody.
    let pung = json!({"offender": "SEAT_WEST", "infraction": "INFRACTION_EMPTY_PUNG"});
    for ruleset in ALL {
        let r = settled(&json!({
            "end": "HAND_END_DRAW_GAME",
            "penalties": [pung, pung, pung],
            "ruleset": ruleset,
        }));
        assert_eq!(deltas(&r.accounts), [0, 0, -15, 0], "{ruleset}");
        assert_eq!((r.unpaid_penalties, r.unbalanced_by), (15, -15));
        let got: Vec<_> = r
            .rulings
            .iter()
            .map(|x| (x.occurrence, sanctions(x)))
            .collect();
        assert_eq!(
            got,
            [
                (1, vec![("SANCTION_KIND_WARNING", 0)]),
                (2, vec![("SANCTION_KIND_DEDUCTION", 5)]),
                (3, vec![("SANCTION_KIND_DEDUCTION", 10)]),
            ]
        );
        assert_eq!(
            lines(&r.accounts[2]),
            [
                ("LINE_KIND_PENALTY", -5, "SEAT_UNSPECIFIED"),
                ("LINE_KIND_PENALTY", -10, "SEAT_UNSPECIFIED")
            ]
        );
        // The same through AdjudicatePenalty: the list, or the third one alone.
        let j = ruled(&json!({"offences": [pung, pung, pung], "ruleset": ruleset}));
        assert_eq!(deltas(&j.accounts), [0, 0, -15, 0]);
        assert_eq!(j.unpaid_penalties, 15);
        let third = ruled(&json!({"offences": [pung], "occurrence": 3, "ruleset": ruleset}));
        assert_eq!(third.rulings[0].occurrence, 3);
        assert_eq!(
            sanctions(&third.rulings[0]),
            [("SANCTION_KIND_DEDUCTION", 10)]
        );
        assert_eq!(deltas(&third.accounts), [0, 0, -10, 0]);
    }
}

#[test]
fn escalation_continues_past_the_rulebook_and_caps_at_60() {
    // docs/rules/readings.md#escalation-after-the-fourth: warning, 5, 10, 20, then 40, capped
    // at 60: the 6th and 9th occurrence are 60.
    for (n, points) in [(5, 40), (6, 60), (9, 60)] {
        let j = ruled(&json!({
            "offences": [{"offender": "SEAT_NORTH", "infraction": "INFRACTION_EARLY_DRAW"}],
            "occurrence": n,
        }));
        assert_eq!(
            sanctions(&j.rulings[0]),
            [("SANCTION_KIND_DEDUCTION", points)]
        );
    }
}

#[test]
fn x4_late_arrival() {
    // 12 minutes late: −20 from the session total (局分), not from a hand.
    for ruleset in ALL {
        let j = ruled(&json!({
            "offences": [{"offender": "SEAT_SOUTH", "infraction": "INFRACTION_LATE_ARRIVAL", "lateMinutes": 12}],
            "ruleset": ruleset,
        }));
        assert_eq!(
            sanctions(&j.rulings[0]),
            [("SANCTION_KIND_SESSION_DEDUCTION", 20)]
        );
        assert_eq!(deltas(&j.accounts), [0, 0, 0, 0]);
        assert_eq!(j.unpaid_penalties, 0);
        // In the standings: hands +30 and −16, 12 minutes late: 500 + 30 − 16 − 20 = 494.
        let s = ranked(&json!({
            "players": [{"name": "Li", "sessions": [{"handResults": [30, -16], "lateMinutes": 12}]}],
            "ruleset": ruleset,
            "standardPointsMethod": "STANDARD_POINTS_METHOD_GROUP_FORMULA",
        }));
        let session = &s.standings[0].sessions[0];
        assert_eq!(
            (
                session.hand_total,
                session.late_points,
                session.late_warning,
                session.forfeit,
                session.score
            ),
            (14, 20, false, false, 494)
        );
    }
    // Up to 10 minutes: warning + 10; more than 15: forfeit, 局分 0.
    let j = ruled(&json!({
        "offences": [{"offender": "SEAT_SOUTH", "infraction": "INFRACTION_LATE_ARRIVAL", "lateMinutes": 10}],
    }));
    assert_eq!(
        sanctions(&j.rulings[0]),
        [
            ("SANCTION_KIND_WARNING", 0),
            ("SANCTION_KIND_SESSION_DEDUCTION", 10)
        ]
    );
    let j = ruled(&json!({
        "offences": [{"offender": "SEAT_SOUTH", "infraction": "INFRACTION_LATE_ARRIVAL", "lateMinutes": 16}],
    }));
    assert_eq!(sanctions(&j.rulings[0]), [("SANCTION_KIND_FORFEIT", 0)]);
    // Late arrival is not a hand penalty.
    let errors = settle_errors(&json!({
        "end": "HAND_END_DRAW_GAME",
        "penalties": [{"offender": "SEAT_SOUTH", "infraction": "INFRACTION_LATE_ARRIVAL", "lateMinutes": 12}],
    }));
    assert_eq!(
        fields(&errors),
        [("PENALTY_OUT_OF_SCOPE", "penalties[0].infraction")]
    );
}

#[test]
fn x5_exposing_another_players_tiles() {
    // The referee fixes 5–60 points, paid to the disturbed player.
    let exposing = |points: i32, ruleset: &str| {
        json!({
            "end": "HAND_END_DRAW_GAME",
            "penalties": [{
                "offender": "SEAT_EAST",
                "infraction": "INFRACTION_EXPOSING_OTHERS_TILES",
                "victim": "SEAT_NORTH",
                "points": points,
            }],
            "ruleset": ruleset,
        })
    };
    for ruleset in ALL {
        for points in [5, 30, 60] {
            let r = settled(&exposing(points, ruleset));
            assert_eq!(deltas(&r.accounts), [-points, 0, 0, points]);
            assert_eq!(r.unbalanced_by, 0);
            let sanction = &r.rulings[0].sanctions[0];
            assert_eq!(
                (
                    sanction.kind,
                    sanction.points,
                    sanction.seat,
                    sanction.referee_graded
                ),
                (
                    pb::SanctionKind::PayTo as i32,
                    points,
                    pb::Seat::North as i32,
                    true
                )
            );
        }
        for (points, code) in [
            (4, "PENALTY_AMOUNT_OUT_OF_RANGE"),
            (61, "PENALTY_AMOUNT_OUT_OF_RANGE"),
            (-5, "VALUE_NEGATIVE"),
        ] {
            let errors = settle_errors(&exposing(points, ruleset));
            assert_eq!(fields(&errors), [(code, "penalties[0].points")]);
        }
        // No amount at all: 0 is out of range.
        let errors = settle_errors(&exposing(0, ruleset));
        assert_eq!(
            fields(&errors),
            [("PENALTY_AMOUNT_OUT_OF_RANGE", "penalties[0].points")]
        );
    }
}

#[test]
fn x6_group_of_sixteen_under_the_1998_formula() {
    // One session, sixteen players with distinct totals: 16, 14, 13, …, 1, 0. Under the
    // 1998 ruleset that is the default method.
    let players: Vec<Value> = (0..16)
        .map(|i| json!({"name": format!("P{i}"), "sessions": [{"handResults": [200 - 20 * i], "table": i / 4}]}))
        .collect();
    let s = ranked(&json!({"players": players, "ruleset": R98}));
    assert_eq!(
        s.standard_points_method,
        pb::StandardPointsMethod::GroupFormula as i32
    );
    let mut want = vec![16];
    want.extend((0..=14).rev());
    let got: Vec<_> = s
        .standings
        .iter()
        .map(|p| (p.player_index, p.place, p.standard_points))
        .collect();
    let expected: Vec<_> = want
        .iter()
        .enumerate()
        .map(|(i, &sp)| {
            let i = u32::try_from(i).unwrap();
            (i, i + 1, Some(whole(sp)))
        })
        .collect();
    assert_eq!(got, expected);
    assert_eq!(s.standings[0].sessions[0].score, 700);
    // Under MIL (and the GB) the default is per table, 4/2/1/0: the same sixteen sat at four
    // tables of four, each table's first gets 4.
    for ruleset in [MIL, GB] {
        let s = ranked(&json!({"players": players, "ruleset": ruleset}));
        assert_eq!(
            s.standard_points_method,
            pb::StandardPointsMethod::Table4210 as i32
        );
        let by_player = |i: u32| {
            s.standings
                .iter()
                .find(|p| p.player_index == i)
                .and_then(|p| p.standard_points)
        };
        for table in 0..4 {
            let got: Vec<_> = (0..4).map(|k| by_player(table * 4 + k)).collect();
            assert_eq!(
                got,
                [
                    Some(whole(4)),
                    Some(whole(2)),
                    Some(whole(1)),
                    Some(whole(0))
                ]
            );
        }
    }
}

#[test]
fn x6_tie_for_second_under_4_2_1_0() {
    // 4, 1.5, 1.5, 0: three halves each for the two tied second.
    let players = json!([
        {"name": "A", "sessions": [{"handResults": [112]}]},
        {"name": "B", "sessions": [{"handResults": [20]}]},
        {"name": "C", "sessions": [{"handResults": [-100]}]},
        {"name": "D", "sessions": [{"handResults": [20]}]},
    ]);
    for ruleset in [MIL, GB] {
        let s = ranked(&json!({"players": players, "ruleset": ruleset}));
        let got: Vec<_> = s
            .standings
            .iter()
            .map(|p| (p.name.as_str(), p.place, p.standard_points, p.total_score))
            .collect();
        assert_eq!(
            got,
            [
                ("A", 1, Some(whole(4)), 612),
                ("B", 2, Some(half(3)), 520),
                ("D", 2, Some(half(3)), 520),
                ("C", 4, Some(whole(0)), 400),
            ]
        );
    }
    // The 1998 group formula for these four: 4, N−2 = 2, N−3 = 1, 0: the same figures.
    let s = ranked(&json!({"players": players, "ruleset": R98}));
    assert_eq!(s.standings[1].standard_points, Some(half(3)));
}

#[test]
fn the_group_formula_can_share_thirds() {
    // Three tied first of five: (5 + 3 + 2) / 3 = 10/3 each; then 1 and 0.
    let players: Vec<Value> = [50, 50, 50, 0, -150]
        .into_iter()
        .map(|r| json!({"sessions": [{"handResults": [r]}]}))
        .collect();
    let s = ranked(&json!({
        "players": players,
        "standardPointsMethod": "STANDARD_POINTS_METHOD_GROUP_FORMULA",
        "ruleset": MIL,
    }));
    let got: Vec<_> = s.standings.iter().map(|p| p.standard_points).collect();
    let third = Some(pb::Fraction {
        numerator: 10,
        denominator: 3,
    });
    assert_eq!(got, [third, third, third, Some(whole(1)), Some(whole(0))]);
}

#[test]
fn rankings_follow_the_1998_tie_breaks() {
    // Two sessions at one table of four under 4/2/1/0.
    //   session 1: A 600 (4), B 560 (2), C 500 (1), D 340 (0)
    //   session 2: A 400 (0), B 440 (1), C 600 (4), D 560 (2)
    // A 4, B 3, C 5, D 2 standard points: C, A, B, D.
    let s = ranked(&json!({
        "players": [
            {"name": "A", "sessions": [{"handResults": [100]}, {"handResults": [-100]}]},
            {"name": "B", "sessions": [{"handResults": [60]}, {"handResults": [-60]}]},
            {"name": "C", "sessions": [{"handResults": [0]}, {"handResults": [100]}]},
            {"name": "D", "sessions": [{"handResults": [-160]}, {"handResults": [60]}]},
        ],
        "standardPointsMethod": "STANDARD_POINTS_METHOD_TABLE_4210",
    }));
    let got: Vec<_> = s
        .standings
        .iter()
        .map(|p| (p.name.as_str(), p.place, p.standard_points, p.total_score))
        .collect();
    assert_eq!(
        got,
        [
            ("C", 1, Some(whole(5)), 1100),
            ("A", 2, Some(whole(4)), 1000),
            ("B", 3, Some(whole(3)), 1000),
            ("D", 4, Some(whole(2)), 900),
        ]
    );
    let c = &s.standings[0];
    assert_eq!((c.best_session, c.top_results), (Some(whole(4)), 1));
    let per_session: Vec<_> = c.sessions.iter().map(|x| x.standard_points).collect();
    assert_eq!(per_session, [Some(whole(1)), Some(whole(4))]);
}

#[test]
fn rankings_break_ties_on_the_total_then_the_best_session() {
    // Equal standard points, the total 比赛分 decides:
    //   session 1: X 600 (4), Y 520 (2), Z 480 (1), W 400 (0)
    //   session 2: Y 650 (4), X 510 (2), Z 440 (1), W 400 (0)
    // X 6 (1110), Y 6 (1170), Z 2, W 0: Y before X.
    let s = ranked(&json!({
        "players": [
            {"name": "X", "sessions": [{"handResults": [100]}, {"handResults": [10]}]},
            {"name": "Y", "sessions": [{"handResults": [20]}, {"handResults": [150]}]},
            {"name": "Z", "sessions": [{"handResults": [-20]}, {"handResults": [-60]}]},
            {"name": "W", "sessions": [{"handResults": [-100]}, {"handResults": [-100]}]},
        ],
        "standardPointsMethod": "STANDARD_POINTS_METHOD_TABLE_4210",
    }));
    let got: Vec<_> = s
        .standings
        .iter()
        .map(|p| (p.name.as_str(), p.place, p.total_score))
        .collect();
    assert_eq!(
        got,
        [("Y", 1, 1170), ("X", 2, 1110), ("Z", 3, 920), ("W", 4, 800)]
    );

    // Equal standard points and totals, the best single session decides:
    //   session 1: U 560 (4), V 520 (2), T 480 (1), K 440 (0)
    //   session 2: T 620 (4), V 480 (2), K 460 (1), U 440 (0)
    // T 5; U 4 (1000, best 4); V 4 (1000, best 2); K 1.
    let s = ranked(&json!({
        "players": [
            {"name": "U", "sessions": [{"handResults": [60]}, {"handResults": [-60]}]},
            {"name": "V", "sessions": [{"handResults": [20]}, {"handResults": [-20]}]},
            {"name": "T", "sessions": [{"handResults": [-20]}, {"handResults": [120]}]},
            {"name": "K", "sessions": [{"handResults": [-60]}, {"handResults": [-40]}]},
        ],
        "standardPointsMethod": "STANDARD_POINTS_METHOD_TABLE_4210",
    }));
    let got: Vec<_> = s
        .standings
        .iter()
        .map(|p| (p.name.as_str(), p.place, p.total_score, p.best_session))
        .collect();
    assert_eq!(
        got,
        [
            ("T", 1, 1100, Some(whole(4))),
            ("U", 2, 1000, Some(whole(4))),
            ("V", 3, 1000, Some(whole(2))),
            ("K", 4, 900, Some(whole(1))),
        ]
    );
}

#[test]
fn rankings_break_ties_on_the_number_of_best_sessions_then_share_places() {
    // Equal down to the best single session, the number of sessions at that best decides:
    //   sessions 1 and 2: Y 560 (4), Z 540 (2), A 460 (1), B 440 (0)
    //   session 3: Z 440 (4), A 430 (2), B 410 (1), Y 400 (0)
    // Y 8 (1520, best 4 twice), Z 8 (1520, best 4 once), A 4, B 1.
    let s = ranked(&json!({
        "players": [
            {"name": "Y", "sessions": [{"handResults": [60]}, {"handResults": [60]}, {"handResults": [-100]}]},
            {"name": "Z", "sessions": [{"handResults": [40]}, {"handResults": [40]}, {"handResults": [-60]}]},
            {"name": "A", "sessions": [{"handResults": [-40]}, {"handResults": [-40]}, {"handResults": [-70]}]},
            {"name": "B", "sessions": [{"handResults": [-60]}, {"handResults": [-60]}, {"handResults": [-90]}]},
        ],
        "standardPointsMethod": "STANDARD_POINTS_METHOD_TABLE_4210",
    }));
    let got: Vec<_> = s
        .standings
        .iter()
        .map(|p| (p.name.as_str(), p.place, p.standard_points, p.top_results))
        .collect();
    assert_eq!(
        got,
        [
            ("Y", 1, Some(whole(8)), 2),
            ("Z", 2, Some(whole(8)), 1),
            ("A", 3, Some(whole(4)), 1),
            ("B", 4, Some(whole(1)), 1),
        ]
    );
    assert_eq!(s.standings[0].total_score, s.standings[1].total_score);

    // Players equal on every tie-break share a place (1, 1, 3, 3).
    let s = ranked(&json!({
        "players": [
            {"name": "P", "sessions": [{"handResults": [30]}, {"handResults": [-30]}]},
            {"name": "Q", "sessions": [{"handResults": [-30]}, {"handResults": [30]}]},
            {"name": "R", "sessions": [{"handResults": [0]}, {"handResults": [0]}]},
            {"name": "S", "sessions": [{"handResults": [0]}, {"handResults": [0]}]},
        ],
        "standardPointsMethod": "STANDARD_POINTS_METHOD_TABLE_4210",
    }));
    // Session 1: P 530 (4), R 500 and S 500 tied (3/2 each), Q 470 (0).
    // Session 2: Q 530 (4), R and S 3/2 each, P 470 (0).
    // P 4 (1000, best 4), Q 4 (1000, best 4), R 3 (1000), S 3 (1000): P and Q share 1st,
    // R and S share 3rd.
    let got: Vec<_> = s
        .standings
        .iter()
        .map(|p| (p.name.as_str(), p.place, p.best_session))
        .collect();
    assert_eq!(
        got,
        [
            ("P", 1, Some(whole(4))),
            ("Q", 1, Some(whole(4))),
            ("R", 3, Some(half(3))),
            ("S", 3, Some(half(3))),
        ]
    );
    assert_eq!(s.standings[2].top_results, 2);
}

// ---------------------------------------------------------------------------------------------
// Several claims on one discard (截和)
// ---------------------------------------------------------------------------------------------

#[test]
fn the_first_claimant_after_the_discarder_wins() {
    // West discards; North and South both declare: North plays first after West (West →
    // North → East → South), so North wins and South is intercepted.
    let r = settled(&json!({
        "end": "HAND_END_DISCARD",
        "discarder": "SEAT_WEST",
        "claimants": ["SEAT_SOUTH", "SEAT_NORTH"],
        "fanCount": {"fanTotal": 8},
    }));
    let res = r.claim_resolution.as_ref().expect("a resolution");
    assert_eq!(res.winner, pb::Seat::North as i32);
    assert_eq!(res.intercepted, [pb::Seat::South as i32]);
    // North receives 8 + 8 from West and 8 from each of the others.
    assert_eq!(deltas(&r.accounts), [-8, -8, -16, 32]);
    // Naming the winner as well is allowed when it is the right one.
    let r = settled(&json!({
        "end": "HAND_END_DISCARD",
        "winner": "SEAT_NORTH",
        "discarder": "SEAT_WEST",
        "claimants": ["SEAT_SOUTH", "SEAT_NORTH", "SEAT_EAST"],
        "fanCount": {"fanTotal": 8},
    }));
    assert_eq!(
        r.claim_resolution.unwrap().intercepted,
        [pb::Seat::East as i32, pb::Seat::South as i32]
    );
}

#[test]
fn impossible_claims_are_reported() {
    let errors = settle_errors(&json!({
        "end": "HAND_END_DISCARD",
        "winner": "SEAT_SOUTH",
        "discarder": "SEAT_WEST",
        "claimants": ["SEAT_SOUTH", "SEAT_NORTH"],
        "fanCount": {"fanTotal": 8},
    }));
    assert_eq!(fields(&errors), [("CLAIM_INVALID", "winner")]);
    let errors = settle_errors(&json!({
        "end": "HAND_END_DISCARD",
        "discarder": "SEAT_WEST",
        "claimants": ["SEAT_WEST", "SEAT_NORTH", "SEAT_NORTH", "SEAT_UNSPECIFIED"],
        "fanCount": {"fanTotal": 8},
    }));
    assert_eq!(
        fields(&errors),
        [
            ("SEAT_INVALID", "claimants[3]"),
            ("CLAIM_INVALID", "claimants[0]"),
            ("CLAIM_INVALID", "claimants[2]")
        ]
    );
    let errors = settle_errors(&json!({
        "end": "HAND_END_DISCARD",
        "discarder": "SEAT_WEST",
        "claimants": ["SEAT_WEST", "SEAT_NORTH", "SEAT_NORTH"],
        "fanCount": {"fanTotal": 8},
    }));
    assert_eq!(
        fields(&errors),
        [
            ("CLAIM_INVALID", "claimants[0]"),
            ("CLAIM_INVALID", "claimants[2]")
        ]
    );
    let errors = settle_errors(&json!({
        "end": "HAND_END_SELF_DRAWN",
        "winner": "SEAT_EAST",
        "claimants": ["SEAT_EAST"],
        "fanCount": {"fanTotal": 8},
    }));
    assert_eq!(fields(&errors), [("CLAIM_INVALID", "claimants")]);
    let errors = settle_errors(&json!({
        "end": "HAND_END_SELF_DRAWN",
        "claimants": ["SEAT_EAST", "SEAT_WEST"],
        "fanCount": {"fanTotal": 8},
    }));
    assert_eq!(
        fields(&errors),
        [("CLAIM_INVALID", "claimants"), ("SEAT_INVALID", "winner")]
    );
}

// ---------------------------------------------------------------------------------------------
// Conversions both ways
// ---------------------------------------------------------------------------------------------

#[test]
fn every_penalty_is_echoed_back_in_its_ruling() {
    let penalties = json!([
        {"offender": "SEAT_EAST", "infraction": "INFRACTION_EXPOSING_OWN_TILES", "tiles": ["TILE_5M", "TILE_EAST"]},
        {"offender": "SEAT_SOUTH", "infraction": "INFRACTION_LAYING_DOWN_HAND", "declaredWinValid": true},
        {"offender": "SEAT_SOUTH", "infraction": "INFRACTION_LAYING_DOWN_HAND", "tiles": ["TILE_1P"]},
        {"offender": "SEAT_WEST", "infraction": "INFRACTION_NAMING_DISCARD", "points": 10},
        {"offender": "SEAT_WEST", "infraction": "INFRACTION_MISLEADING_DISCARD_NAME", "misled": "SEAT_NORTH", "misledInto": "FALSE_DECLARATION_NOT_READY_WIN"},
        {"offender": "SEAT_NORTH", "infraction": "INFRACTION_ILLEGAL_SIGNALS", "points": 20},
        {"offender": "SEAT_EAST", "infraction": "INFRACTION_ILLEGAL_SIGNALS", "loseRightToWin": true},
        {"offender": "SEAT_NORTH", "infraction": "INFRACTION_WRONG_CHOW"},
        {"offender": "SEAT_EAST", "infraction": "INFRACTION_CHEATING"},
    ]);
    let r = settled(&json!({"end": "HAND_END_DRAW_GAME", "penalties": penalties}));
    let request = json::from_json::<pb::SettleHandRequest>(
        &json!({"end": "HAND_END_DRAW_GAME", "penalties": penalties}).to_string(),
    )
    .unwrap();
    let echoed: Vec<pb::Penalty> = r
        .rulings
        .iter()
        .map(|x| x.offence.clone().unwrap())
        .collect();
    assert_eq!(echoed, request.penalties);
    let got: Vec<_> = r.rulings.iter().map(sanctions).collect();
    assert_eq!(
        got,
        [
            vec![("SANCTION_KIND_DISCARD_EXPOSED_TILES", 0)],
            vec![("SANCTION_KIND_WARNING", 0)],
            vec![
                ("SANCTION_KIND_DISCARD_EXPOSED_TILES", 0),
                ("SANCTION_KIND_LOSE_RIGHT_TO_WIN", 0)
            ],
            vec![("SANCTION_KIND_DEDUCTION", 10)],
            // The misnamer pays what the misled 诈和 would have: 20 to each other player.
            vec![("SANCTION_KIND_PAY_EACH_OTHER", 20)],
            vec![("SANCTION_KIND_DEDUCTION", 20)],
            vec![("SANCTION_KIND_LOSE_RIGHT_TO_WIN", 0)],
            vec![("SANCTION_KIND_LOSE_RIGHT_TO_WIN", 0)],
            vec![("SANCTION_KIND_DISQUALIFICATION", 0)],
        ]
    );
    assert_eq!(
        r.rulings[0].sanctions[0].tiles,
        [pb::Tile::Tile5m as i32, pb::Tile::East as i32]
    );
    assert!(r.rulings[3].sanctions[0].referee_graded);
    assert!(!r.rulings[4].sanctions[0].referee_graded);
    assert_eq!(r.rulings[4].infraction_name_zh, "报错牌名致误和");
    assert_eq!(r.rulings[0].infraction_name_en, "exposing own tiles");
    // West −10 (deduction) − 60 (20 to each); North −20 + 20; East +20; South +20.
    assert_eq!(deltas(&r.accounts), [20, 20, -70, 0]);
    assert_eq!((r.unpaid_penalties, r.unbalanced_by), (30, -30));
}

#[test]
fn responses_are_proto3_json_in_camel_case() {
    let r = settled(&json!({
        "end": "HAND_END_DISCARD",
        "winner": "SEAT_SOUTH",
        "discarder": "SEAT_WEST",
        "fanCount": {"fanTotal": 13, "flowerCount": 1},
        "penalties": [{"offender": "SEAT_NORTH", "infraction": "INFRACTION_EMPTY_KONG"}],
    }));
    let text = json::to_json::<pb::SettleHandResponse>(&r, false).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["result"]["outcome"], "HAND_OUTCOME_WIN");
    assert_eq!(v["result"]["basicPoints"], 14);
    assert_eq!(v["accounts"][1]["seat"], "SEAT_SOUTH");
    assert_eq!(v["accounts"][1]["delta"], 38);
    assert_eq!(v["accounts"][2]["lines"][1]["kind"], "LINE_KIND_FAN_POINTS");
    assert_eq!(v["accounts"][2]["lines"][1]["amount"], -14);
    assert_eq!(v["accounts"][2]["lines"][1]["counterparty"], "SEAT_SOUTH");
    assert_eq!(v["rulings"][0]["infractionNameZh"], "空杠");
    assert_eq!(
        v["rulings"][0]["offence"]["infraction"],
        "INFRACTION_EMPTY_KONG"
    );
    assert_eq!(
        v["rulings"][0]["sanctions"][0]["kind"],
        "SANCTION_KIND_WARNING"
    );
    assert_eq!(v["unpaidPenalties"], 0);
    assert_eq!(v["unbalancedBy"], 0);
    assert_eq!(v["ruleset"], R98);

    let j = ruled(&json!({
        "declaredWin": {
            "declarer": "SEAT_EAST", "source": "WIN_SOURCE_DISCARD", "discarder": "SEAT_SOUTH",
            "winningHand": {"notation": E47B},
        },
    }));
    let v: Value =
        serde_json::from_str(&json::to_json::<pb::AdjudicatePenaltyResponse>(&j, true).unwrap())
            .unwrap();
    assert_eq!(v["judgement"]["verdict"], "WIN_VERDICT_FALSE_WIN");
    assert_eq!(v["judgement"]["shanten"], 0);
    assert_eq!(v["judgement"]["scoreSheet"]["fanTotal"], 4);

    let s = ranked(&json!({"players": [{"name": "Li", "sessions": [{"handResults": [8]}]}]}));
    let v: Value =
        serde_json::from_str(&json::to_json::<pb::ComputeStandingsResponse>(&s, false).unwrap())
            .unwrap();
    assert_eq!(v["standings"][0]["standardPoints"]["numerator"], 1);
    assert_eq!(v["standings"][0]["totalScore"], 508);
    assert_eq!(v["standings"][0]["sessions"][0]["score"], 508);
    assert_eq!(
        v["standardPointsMethod"],
        "STANDARD_POINTS_METHOD_GROUP_FORMULA"
    );
}

#[test]
fn structured_hands_and_contexts_are_accepted() {
    // E20 as structured data, with the context stating what the end says.
    let r = settled(&json!({
        "end": "HAND_END_DISCARD",
        "winner": "SEAT_NORTH",
        "discarder": "SEAT_EAST",
        "winningHand": {
            "hand": {
                "standingTiles": ["TILE_3M", "TILE_3M", "TILE_1S", "TILE_2S", "TILE_4S", "TILE_5S",
                    "TILE_6S", "TILE_1P", "TILE_2P", "TILE_3P", "TILE_4P", "TILE_5P", "TILE_6P"],
                "winningTile": "TILE_3S",
            },
            "context": {"selfDrawn": false, "seatWind": "WIND_NORTH"},
        },
    }));
    assert_eq!(deltas(&r.accounts), [-16, -8, -8, 32]);
    // Canonical notation: standing tiles sorted, the winning tile last (sharing its suit letter).
    assert_eq!(r.score_sheet.unwrap().notation, "33m123456p124563s");
}

// ---------------------------------------------------------------------------------------------
// Every violation path
// ---------------------------------------------------------------------------------------------

#[test]
fn settle_reports_every_problem_of_the_end_of_the_hand() {
    assert_eq!(
        fields(&settle_errors(&json!({}))),
        [("VALUE_INVALID", "end")]
    );
    assert_eq!(
        fields(&settle_errors(&json!({"end": 9, "ruleset": 7}))),
        [("VALUE_INVALID", "ruleset"), ("VALUE_INVALID", "end")]
    );
    assert_eq!(
        fields(&settle_errors(
            &json!({"end": "HAND_END_SELF_DRAWN", "fanCount": {"fanTotal": 8}})
        )),
        [("SEAT_INVALID", "winner")]
    );
    assert_eq!(
        sorted_fields(&settle_errors(&json!({
            "end": "HAND_END_DISCARD", "winner": 7, "fanCount": {"fanTotal": 8},
        }))),
        [("SEAT_INVALID", "discarder"), ("SEAT_INVALID", "winner")]
    );
    assert_eq!(
        fields(&settle_errors(&json!({
            "end": "HAND_END_SELF_DRAWN", "winner": "SEAT_EAST", "discarder": "SEAT_WEST",
            "fanCount": {"fanTotal": 8},
        }))),
        [("CONTEXT_CONFLICT", "discarder")]
    );
    assert_eq!(
        fields(&settle_errors(&json!({
            "end": "HAND_END_DRAW_GAME", "winner": "SEAT_EAST", "discarder": "SEAT_WEST",
            "fanCount": {"fanTotal": 8},
        }))),
        [
            ("CONTEXT_CONFLICT", "winner"),
            ("CONTEXT_CONFLICT", "discarder"),
            ("WIN_VALUE_FOR_DRAW", "win_value")
        ]
    );
    assert_eq!(
        fields(&settle_errors(&json!({
            "end": "HAND_END_ROBBING_KONG", "winner": "SEAT_EAST", "discarder": "SEAT_EAST",
        }))),
        [
            ("WIN_VALUE_MISSING", "win_value"),
            ("WINNER_IS_PAYER", "discarder")
        ]
    );
    assert_eq!(
        fields(&settle_errors(&json!({
            "end": "HAND_END_ROBBING_KONG", "winner": "SEAT_EAST", "discarder": "SEAT_EAST",
            "fanCount": {"fanTotal": 8},
        }))),
        [("WINNER_IS_PAYER", "discarder")]
    );
}

#[test]
fn settle_reports_every_problem_of_the_value() {
    let counted = |fan: i64, flowers: i64| {
        json!({
            "end": "HAND_END_DISCARD", "winner": "SEAT_EAST", "discarder": "SEAT_WEST",
            "fanCount": {"fanTotal": fan, "flowerCount": flowers},
        })
    };
    assert_eq!(
        fields(&settle_errors(&counted(-3, -1))),
        [
            ("VALUE_NEGATIVE", "fan_count.fan_total"),
            ("VALUE_NEGATIVE", "fan_count.flower_count")
        ]
    );
    assert_eq!(
        fields(&settle_errors(&counted(10_001, 9))),
        [
            ("VALUE_INVALID", "fan_count.fan_total"),
            ("FLOWER_COUNT_INVALID", "fan_count.flower_count")
        ]
    );
    let hand = |winning_hand: Value| {
        json!({
            "end": "HAND_END_DISCARD", "winner": "SEAT_EAST", "discarder": "SEAT_WEST",
            "winningHand": winning_hand,
        })
    };
    assert_eq!(
        fields(&settle_errors(&hand(json!({})))),
        [("VALUE_INVALID", "winning_hand.hand_input")]
    );
    assert_eq!(
        fields(&settle_errors(&hand(json!({"notation": "[123m"})))),
        [("NOTATION_SYNTAX", "winning_hand.notation")]
    );
    assert_eq!(
        fields(&settle_errors(&hand(json!({
            "hand": {"standingTiles": [0, 99], "winningTile": 35},
            "context": {"seatWind": 9},
        })))),
        [
            ("TILE_UNKNOWN", "winning_hand.hand.standing_tiles[0]"),
            ("TILE_UNKNOWN", "winning_hand.hand.standing_tiles[1]"),
            ("TILE_UNKNOWN", "winning_hand.hand.winning_tile"),
            ("VALUE_INVALID", "winning_hand.context.seat_wind"),
        ]
    );
    // The seat wind is the winner's; a self-drawn context contradicts a discard; the
    // domain's own checks come with the request's paths.
    assert_eq!(
        sorted_fields(&settle_errors(&hand(json!({
            "notation": "33m12456s123456p3s",
            "context": {"seatWind": "WIND_SOUTH", "selfDrawn": true, "flowerCount": 9},
        })))),
        [
            ("FLOWER_COUNT_INVALID", "winning_hand.context.flower_count"),
            ("CONTEXT_CONFLICT", "winning_hand.context.seat_wind"),
            ("CONTEXT_CONFLICT", "winning_hand.context.self_drawn"),
        ]
    );
    assert_eq!(
        fields(&settle_errors(&hand(
            json!({"notation": "33m12456s12345p3s"})
        ))),
        [("TILE_COUNT_WRONG", "winning_hand.hand.standing_tiles")]
    );
    // A bad winner does not hide a bad hand.
    assert_eq!(
        fields(&settle_errors(&json!({
            "end": "HAND_END_DISCARD", "discarder": "SEAT_WEST",
            "winningHand": {"notation": "33m12456s12345p3s"},
        }))),
        [
            ("SEAT_INVALID", "winner"),
            ("TILE_COUNT_WRONG", "winning_hand.hand.standing_tiles")
        ]
    );
}

#[test]
fn settle_reports_every_problem_of_the_penalties() {
    let errors = settle_errors(&json!({
        "end": "HAND_END_DISCARD",
        "winner": "SEAT_EAST",
        "discarder": "SEAT_WEST",
        "fanCount": {"fanTotal": 8},
        "penalties": [
            {"infraction": "INFRACTION_EMPTY_PUNG"},
            {"offender": "SEAT_NORTH"},
            {"offender": "SEAT_NORTH", "infraction": 99},
            {"offender": 8, "infraction": "INFRACTION_EXPOSING_OTHERS_TILES", "victim": "SEAT_NORTH", "points": 70},
            {"offender": "SEAT_SOUTH", "infraction": "INFRACTION_EMPTY_CHOW", "victim": "SEAT_NORTH", "points": 5,
             "tiles": ["TILE_1M"], "declaredWinValid": true, "loseRightToWin": true, "misled": "SEAT_EAST",
             "misledInto": "FALSE_DECLARATION_FALSE_WIN", "lateMinutes": 3},
            {"offender": "SEAT_SOUTH", "infraction": "INFRACTION_EXPOSING_OWN_TILES"},
            {"offender": "SEAT_SOUTH", "infraction": "INFRACTION_EXPOSING_OWN_TILES", "tiles": ["TILE_1M", 0]},
            {"offender": "SEAT_SOUTH", "infraction": "INFRACTION_EXPOSING_OTHERS_TILES", "victim": "SEAT_SOUTH", "points": 10},
            {"offender": "SEAT_SOUTH", "infraction": "INFRACTION_EXPOSING_OTHERS_TILES", "points": 10},
            {"offender": "SEAT_WEST", "infraction": "INFRACTION_MISLEADING_DISCARD_NAME"},
            {"offender": "SEAT_WEST", "infraction": "INFRACTION_MISLEADING_DISCARD_NAME", "misled": "SEAT_WEST", "misledInto": "FALSE_DECLARATION_FALSE_WIN"},
            {"offender": "SEAT_WEST", "infraction": "INFRACTION_MISLEADING_DISCARD_NAME", "misled": "SEAT_EAST", "misledInto": "FALSE_DECLARATION_DELIBERATE_FALSE_WIN"},
            {"offender": "SEAT_WEST", "infraction": "INFRACTION_MISLEADING_DISCARD_NAME", "misled": "SEAT_EAST", "misledInto": 12},
            {"offender": "SEAT_NORTH", "infraction": "INFRACTION_ILLEGAL_SIGNALS", "points": 10, "loseRightToWin": true},
            {"offender": "SEAT_NORTH", "infraction": "INFRACTION_ILLEGAL_SIGNALS"},
            {"offender": "SEAT_NORTH", "infraction": "INFRACTION_NAMING_DISCARD", "points": -1},
            {"offender": "SEAT_NORTH", "infraction": "INFRACTION_LATE_ARRIVAL", "lateMinutes": -2},
            {"offender": "SEAT_EAST", "infraction": "INFRACTION_WRONG_PUNG"},
        ],
    }));
    let mut want = vec![
        ("SEAT_INVALID", "penalties[0].offender"),
        ("INFRACTION_UNKNOWN", "penalties[1].infraction"),
        ("INFRACTION_UNKNOWN", "penalties[2].infraction"),
        ("SEAT_INVALID", "penalties[3].offender"),
        // Its amount is checked although its offender is unknown.
        ("PENALTY_AMOUNT_OUT_OF_RANGE", "penalties[3].points"),
        ("CONTEXT_CONFLICT", "penalties[4].declared_win_valid"),
        ("CONTEXT_CONFLICT", "penalties[4].late_minutes"),
        ("CONTEXT_CONFLICT", "penalties[4].lose_right_to_win"),
        ("CONTEXT_CONFLICT", "penalties[4].misled"),
        ("CONTEXT_CONFLICT", "penalties[4].misled_into"),
        ("CONTEXT_CONFLICT", "penalties[4].points"),
        ("CONTEXT_CONFLICT", "penalties[4].tiles"),
        ("CONTEXT_CONFLICT", "penalties[4].victim"),
        ("VALUE_INVALID", "penalties[5].tiles"),
        ("TILE_UNKNOWN", "penalties[6].tiles[1]"),
        ("CONTEXT_CONFLICT", "penalties[7].victim"),
        ("SEAT_INVALID", "penalties[8].victim"),
        ("SEAT_INVALID", "penalties[9].misled"),
        ("VALUE_INVALID", "penalties[9].misled_into"),
        ("CONTEXT_CONFLICT", "penalties[10].misled"),
        ("VALUE_INVALID", "penalties[11].misled_into"),
        ("VALUE_INVALID", "penalties[12].misled_into"),
        ("CONTEXT_CONFLICT", "penalties[13].points"),
        ("PENALTY_AMOUNT_OUT_OF_RANGE", "penalties[14].points"),
        ("VALUE_NEGATIVE", "penalties[15].points"),
        ("PENALTY_OUT_OF_SCOPE", "penalties[16].infraction"),
        ("VALUE_NEGATIVE", "penalties[16].late_minutes"),
        // The winner lost the right to win by penalties[17] (错碰), whatever the others.
        ("WINNER_BARRED", "winner"),
    ];
    want.sort_unstable();
    let mut got = fields(&errors);
    got.sort_unstable();
    assert_eq!(got, want);
}

#[test]
fn violation_paths_name_the_request_index_of_a_penalty() {
    // The first penalty does not convert; the third's amount is still found at index 2.
    let errors = settle_errors(&json!({
        "end": "HAND_END_DRAW_GAME",
        "penalties": [
            {"offender": "SEAT_NORTH"},
            {"offender": "SEAT_NORTH", "infraction": "INFRACTION_EMPTY_PUNG"},
            {"offender": "SEAT_EAST", "infraction": "INFRACTION_NAMING_DISCARD", "points": 61},
        ],
    }));
    assert_eq!(
        fields(&errors),
        [
            ("INFRACTION_UNKNOWN", "penalties[0].infraction"),
            ("PENALTY_AMOUNT_OUT_OF_RANGE", "penalties[2].points"),
        ]
    );
}

#[test]
fn adjudicate_reports_every_problem() {
    assert_eq!(
        fields(&penalty_errors(&json!({}))),
        [("VALUE_INVALID", "offences")]
    );
    let pung = json!({"offender": "SEAT_WEST", "infraction": "INFRACTION_EMPTY_PUNG"});
    let declared = json!({
        "declarer": "SEAT_EAST", "source": "WIN_SOURCE_SELF_DRAWN",
        "winningHand": {"notation": E47B},
    });
    assert_eq!(
        fields(&penalty_errors(
            &json!({"offences": [pung], "declaredWin": declared})
        )),
        [("CONTEXT_CONFLICT", "declared_win")]
    );
    assert_eq!(
        fields(&penalty_errors(
            &json!({"offences": [pung, pung], "occurrence": 2})
        )),
        [("VALUE_INVALID", "occurrence")]
    );
    assert_eq!(
        fields(&penalty_errors(
            &json!({"offences": [pung], "occurrence": -1, "ruleset": 4})
        )),
        [
            ("VALUE_INVALID", "ruleset"),
            ("VALUE_NEGATIVE", "occurrence")
        ]
    );
    // A single offence with its occurrence: paths as in the list.
    assert_eq!(
        fields(&penalty_errors(&json!({
            "offences": [{"offender": "SEAT_WEST", "infraction": "INFRACTION_NAMING_DISCARD", "points": 3}],
            "occurrence": 2,
        }))),
        [("PENALTY_AMOUNT_OUT_OF_RANGE", "offences[0].points")]
    );
    assert_eq!(
        fields(&penalty_errors(&json!({
            "offences": [
                {"offender": "SEAT_WEST", "infraction": "INFRACTION_UNSPECIFIED"},
                {"offender": "SEAT_WEST", "infraction": "INFRACTION_EXPOSING_OTHERS_TILES", "victim": "SEAT_EAST", "points": 100},
            ],
        }))),
        [
            ("INFRACTION_UNKNOWN", "offences[0].infraction"),
            ("PENALTY_AMOUNT_OUT_OF_RANGE", "offences[1].points")
        ]
    );
}

#[test]
fn adjudicate_reports_every_problem_of_a_declared_win() {
    assert_eq!(
        fields(&penalty_errors(&json!({"declaredWin": {}}))),
        [
            ("SEAT_INVALID", "declared_win.declarer"),
            ("VALUE_INVALID", "declared_win.source"),
            ("VALUE_INVALID", "declared_win.winning_hand"),
        ]
    );
    assert_eq!(
        fields(&penalty_errors(&json!({"declaredWin": {
            "declarer": "SEAT_EAST", "source": "WIN_SOURCE_DISCARD",
            "winningHand": {"notation": E47B},
        }}))),
        [("SEAT_INVALID", "declared_win.discarder")]
    );
    assert_eq!(
        fields(&penalty_errors(&json!({"declaredWin": {
            "declarer": "SEAT_EAST", "source": "WIN_SOURCE_SELF_DRAWN", "discarder": "SEAT_NORTH",
            "winningHand": {"notation": E47B},
        }}))),
        [("CONTEXT_CONFLICT", "declared_win.discarder")]
    );
    assert_eq!(
        fields(&penalty_errors(&json!({"declaredWin": {
            "declarer": "SEAT_EAST", "source": "WIN_SOURCE_ROBBING_KONG", "discarder": "SEAT_EAST",
            "winningHand": {"notation": "[123m][456p]789s55s67m8m", "context": {"selfDrawn": true}},
        }}))),
        [
            ("WINNER_IS_PAYER", "declared_win.discarder"),
            (
                "CONTEXT_CONFLICT",
                "declared_win.winning_hand.context.self_drawn"
            ),
            (
                "CONTEXT_CONFLICT",
                "declared_win.winning_hand.context.robbing_kong"
            ),
        ]
    );
    assert_eq!(
        fields(&penalty_errors(&json!({"declaredWin": {
            "declarer": "SEAT_EAST", "source": 9,
            "winningHand": {"hand": {"winningTile": 40}},
        }}))),
        [
            ("VALUE_INVALID", "declared_win.source"),
            (
                "TILE_UNKNOWN",
                "declared_win.winning_hand.hand.winning_tile"
            ),
        ]
    );
}

/// The deepest path the service writes, a tile of a meld of a declared win's hand, is
/// written whole.
#[test]
fn the_deepest_path_is_written_whole() {
    let errors = penalty_errors(&json!({"declaredWin": {
        "declarer": "SEAT_EAST", "source": "WIN_SOURCE_SELF_DRAWN",
        "winningHand": {"hand": {
            "melds": [{"kind": "MELD_KIND_PUNG", "tiles": ["TILE_1M", 99, "TILE_1M"]}],
            "winningTile": "TILE_1M",
        }},
    }}));
    assert_eq!(
        fields(&errors),
        [(
            "TILE_UNKNOWN",
            "declared_win.winning_hand.hand.melds[0].tiles[1]"
        )]
    );
}

#[test]
fn standings_report_every_problem() {
    assert_eq!(
        fields(&standings_errors(&json!({"standardPointsMethod": 5}))),
        [
            ("VALUE_INVALID", "standard_points_method"),
            ("VALUE_INVALID", "players")
        ]
    );
    let errors = standings_errors(&json!({
        "players": [
            {"sessions": [{"handResults": [10], "lateMinutes": -3}, {}]},
            {"sessions": [{"handResults": [i32::MAX, i32::MAX]}]},
            {"sessions": [{}, {}]},
        ],
        "standardPointsMethod": "STANDARD_POINTS_METHOD_TABLE_4210",
    }));
    assert_eq!(
        fields(&errors),
        [
            ("VALUE_NEGATIVE", "players[0].sessions[0].late_minutes"),
            ("VALUE_INVALID", "players[1].sessions"),
            ("VALUE_INVALID", "players[1].sessions[0].hand_results"),
            ("VALUE_INVALID", "players[0].sessions[0].table"),
            ("VALUE_INVALID", "players[0].sessions[1].table"),
        ]
    );
    // Tables of four, but one with five.
    let players: Vec<Value> = [0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 1]
        .into_iter()
        .chain([1])
        .map(|t| json!({"sessions": [{"table": t}]}))
        .collect();
    let errors = standings_errors(&json!({"players": players, "ruleset": MIL}));
    assert_eq!(
        fields(&errors),
        [("VALUE_INVALID", "players[4].sessions[0].table")]
    );
    assert!(errors[0].message.contains("seats 5 players"));
}
