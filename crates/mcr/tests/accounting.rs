//! Settling hands, penalties, judging declared wins and session standings.
//!
//! - the cases P1–P6 and X1–X6 of docs/rules/examples.md#payment-cases and
//!   docs/rules/examples.md#penalty-cases (with docs/rules/scoring-and-payments.md#payments), under each
//!   ruleset whose figures differ (Green Book false-declaration amounts; the 1998 group
//!   formula against 4/2/1/0);
//! - declared wins judged from the hand (valid, 错和, 和错牌, 诈和, 有意诈和), including the
//!   public corpus's `k_nearmiss` hands, copied as literals with their ids;
//! - several claims on one discard (截和), impossible input, and properties of payments.
//!
//! Every expected figure is the rulebook's, worked by hand in the comments; none is computed
//! by the code under test.

use mcr::adjudication::{WinVerdict, decide_declared_win, resolve_win_claims};
use mcr::notation::parse_hand;
use mcr::penalty::{
    FalseDeclaration, Infraction, InfractionKind, Offence, Sanction, SignalSanction, adjudicate,
};
use mcr::ruleset::{StandardPointTies, StandardPoints};
use mcr::settlement::{
    Declaration, HandEnd, HandRecord, HandResult, LineKind, Settlement, WinSource, WinValue, settle,
};
use mcr::standings::{
    Rational, SessionResult, group_standard_points, rank_players, session_score, standard_points,
};
use mcr::violation::FieldPath;
use mcr::{Outcome, Ruleset, Seat, Violation, ViolationCode, WinContext, WinMethod, Wind};
use proptest::prelude::*;

const R98: &Ruleset = &Ruleset::CHINESE_OFFICIAL_1998;
const MIL: &Ruleset = &Ruleset::MIL;
const GB: &Ruleset = &Ruleset::GREEN_BOOK_2006;
const ALL: [&Ruleset; 3] = [R98, MIL, GB];

use Seat::{East, North, South, West};

fn win(declarer: Seat, source: WinSource) -> HandEnd {
    HandEnd::Win(Declaration { declarer, source })
}

fn discard(discarder: Seat) -> WinSource {
    WinSource::Discard { discarder }
}

fn counted(end: HandEnd, fan: i64, flowers: i64) -> HandRecord {
    HandRecord {
        end,
        value: Some(WinValue::Counted { fan, flowers }),
        penalties: Vec::new(),
    }
}

/// A hand in notation, won as `source` says, with seat and prevalent wind East unless given.
fn hand(notation: &str, source: WinSource, context: WinContext) -> WinValue {
    WinValue::Hand {
        hand: parse_hand(notation).expect("test notation parses"),
        context: WinContext {
            method: source.method(),
            robbing_kong: matches!(source, WinSource::RobbingKong { .. }),
            ..context
        },
    }
}

fn settled(record: &HandRecord, rules: &Ruleset) -> Settlement {
    match settle(record, rules) {
        Ok(s) => s,
        Err(v) => panic!("{} should settle: {v:?}", rules.name),
    }
}

fn deltas(s: &Settlement) -> [i64; 4] {
    s.deltas.into_array()
}

fn fields(violations: &[Violation]) -> Fields {
    Fields(
        violations
            .iter()
            .map(|v| (v.code, v.path.to_string()))
            .collect(),
    )
}

/// The code and the path (as written) of violations, compared with pairs of a code and text.
#[derive(Debug)]
struct Fields(Vec<(ViolationCode, String)>);

impl<const N: usize> PartialEq<[(ViolationCode, &str); N]> for Fields {
    fn eq(&self, expected: &[(ViolationCode, &str); N]) -> bool {
        self.0.len() == N
            && self
                .0
                .iter()
                .zip(expected)
                .all(|((code, path), (c, p))| code == c && path == p)
    }
}

// ---------------------------------------------------------------------------------------------
// P1–P6: payments (docs/rules/scoring-and-payments.md#payments), the same under every ruleset
// ---------------------------------------------------------------------------------------------

#[test]
fn p1_self_drawn_24_fan_and_2_flowers() {
    // Each other player pays 8 + 26 = 34; the winner receives 3 × 34 = 102.
    for rules in ALL {
        let s = settled(&counted(win(East, WinSource::SelfDrawn), 24, 2), rules);
        assert_eq!(deltas(&s), [102, -34, -34, -34], "{}", rules.name);
        assert_eq!((s.unpaid_penalties, s.unbalanced_by), (0, 0));
        // Itemised: base 8 and fan points 26 from each of the three.
        for loser in [South, West, North] {
            let lines = &s.payments.lines[loser];
            assert_eq!(lines.len(), 2);
            assert!(lines.iter().all(|l| l.counterparty == Some(East)));
            assert!(lines.contains(&mcr::settlement::Line {
                kind: LineKind::Base,
                amount: -8,
                counterparty: Some(East)
            }));
            assert!(lines.contains(&mcr::settlement::Line {
                kind: LineKind::FanPoints,
                amount: -26,
                counterparty: Some(East)
            }));
        }
        assert_eq!(s.payments.lines[East].len(), 6);
    }
}

#[test]
fn p1_with_the_engine_scoring_e28() {
    // E28: 12345566789s 22p, 4s self-drawn = 24 fan; with 2 flowers 26.
    for rules in [R98, MIL] {
        let record = HandRecord {
            end: win(South, WinSource::SelfDrawn),
            value: Some(hand(
                "12345566789s22p4s",
                WinSource::SelfDrawn,
                WinContext {
                    flowers: 2,
                    seat_wind: Wind::South,
                    ..WinContext::default()
                },
            )),
            penalties: Vec::new(),
        };
        let s = settled(&record, rules);
        assert_eq!(deltas(&s), [-34, 102, -34, -34], "{}", rules.name);
        assert_eq!(s.scoring.map(|x| x.total), Some(26));
    }
}

#[test]
fn p2_discard_13_fan_and_1_flower() {
    // Discarder pays 8 + 14 = 22, the other two 8 each; winner 22 + 16 = 38.
    for rules in ALL {
        let s = settled(&counted(win(South, discard(West)), 13, 1), rules);
        assert_eq!(deltas(&s), [-8, 38, -22, -8], "{}", rules.name);
        assert_eq!(s.unbalanced_by, 0);
    }
}

#[test]
fn p3_e20_exactly_8_on_a_discard() {
    // E20: 33m 12456s 123456p, 3s on a discard = 8. Discarder 8 + 8 = 16; winner 32.
    for rules in ALL {
        let record = HandRecord {
            end: win(North, discard(East)),
            value: Some(hand(
                "33m12456s123456p3s",
                discard(East),
                WinContext::default(),
            )),
            penalties: Vec::new(),
        };
        let s = settled(&record, rules);
        assert_eq!(deltas(&s), [-16, -8, -8, 32], "{}", rules.name);
        assert!(matches!(
            s.result,
            HandResult::Win {
                winner: North,
                basic_points: 8,
                ..
            }
        ));
    }
}

#[test]
fn p4_seven_fan_and_three_flowers_is_a_false_win() {
    // 7 fan < 8 (flowers do not count toward the minimum): 错和, 10 to each other player.
    for rules in ALL {
        let s = settled(&counted(win(West, discard(South)), 7, 3), rules);
        assert_eq!(deltas(&s), [10, 10, -30, 10], "{}", rules.name);
        assert_eq!(
            s.result,
            HandResult::FalseDeclaration {
                declarer: West,
                kind: FalseDeclaration::FalseWin
            }
        );
        assert!(
            s.payments
                .lines
                .iter()
                .flatten()
                .all(|l| l.kind == LineKind::Penalty(InfractionKind::FalseWin))
        );
    }
    // R98 (and MIL): the offender also loses the right to win this hand.
    for rules in [R98, MIL] {
        let s = settled(&counted(win(West, discard(South)), 7, 3), rules);
        let ruling = s.rulings.last().expect("a ruling on the false win");
        assert_eq!(
            ruling.sanctions,
            [Sanction::LoseRightToWin, Sanction::PayEachOther(10)]
        );
    }
}

#[test]
fn p5_e45_robbing_a_kong() {
    // E45: [123m] [456p] 789s 55s 67m, 8m robbing a promoted kong = 18. The robbed player
    // pays 8 + 18 = 26, the other two 8; winner 42.
    for rules in ALL {
        let source = WinSource::RobbingKong { robbed: South };
        let record = HandRecord {
            end: win(West, source),
            value: Some(hand(
                "[123m][456p]789s55s67m8m",
                source,
                WinContext::default(),
            )),
            penalties: Vec::new(),
        };
        let s = settled(&record, rules);
        assert_eq!(deltas(&s), [-8, -26, 42, -8], "{}", rules.name);
    }
}

#[test]
fn p6_draw_game() {
    for rules in ALL {
        let record = HandRecord {
            end: HandEnd::DrawGame,
            value: None,
            penalties: Vec::new(),
        };
        let s = settled(&record, rules);
        assert_eq!(deltas(&s), [0; 4]);
        assert_eq!(s.result, HandResult::DrawGame);
        assert!(s.payments.lines.iter().all(Vec::is_empty));
    }
}

// ---------------------------------------------------------------------------------------------
// X1–X6: penalties and standings (docs/rules/examples.md#penalty-cases)
// ---------------------------------------------------------------------------------------------

#[test]
fn x1_e47b_declared_on_a_discard_is_a_false_win() {
    // E47b: [123s] [456s] 45567m 99p, 6m on a discard = 4 fan → 错和: 10 to each other
    // player under every ruleset.
    for rules in ALL {
        let record = HandRecord {
            end: win(East, discard(South)),
            value: Some(hand(
                "[123s][456s]45567m99p6m",
                discard(South),
                WinContext::default(),
            )),
            penalties: Vec::new(),
        };
        let s = settled(&record, rules);
        assert_eq!(deltas(&s), [-30, 10, 10, 10], "{}", rules.name);
        assert_eq!(s.scoring.map(|x| x.outcome), Some(Outcome::BelowMinimum));
    }
}

#[test]
fn x1_the_offender_pays_like_any_loser_when_another_wins() {
    // East's 错和 earlier in the hand; then West wins 10 fan on East's discard.
    // East: −(8 + 10) − 30 = −48; West: 18 + 8 + 8 + 10 = 44; South and North: −8 + 10 = 2.
    for rules in ALL {
        let mut record = counted(win(West, discard(East)), 10, 0);
        record.penalties.push(Offence {
            offender: East,
            infraction: Infraction::FalseWin,
        });
        let s = settled(&record, rules);
        assert_eq!(deltas(&s), [-48, 2, 44, 2], "{}", rules.name);
        assert_eq!(s.unbalanced_by, 0);
    }
    // The offender himself may not win the hand any more (停和).
    let mut record = counted(win(East, discard(South)), 10, 0);
    record.penalties.push(Offence {
        offender: East,
        infraction: Infraction::FalseWin,
    });
    let errors = settle(&record, R98).expect_err("a barred winner");
    assert_eq!(
        fields(&errors),
        [(ViolationCode::WinnerBarred, "end.declarer")]
    );
}

/// `public-k_nearmiss-002800`: three melds and 2m 5m 7s 9s before the declared 5m — one tile
/// short of ready (79s is the only partial set and there is no pair).
const NOT_READY_002800: &str = "[123p][789p][123s]25m79s5m";

#[test]
fn x2_declared_one_tile_short_of_ready() {
    // 诈和: 20 to each other player under 1998 and MIL; 10 under the Green Book.
    for (rules, each) in [(R98, 20), (MIL, 20), (GB, 10)] {
        let record = HandRecord {
            end: win(North, discard(East)),
            value: Some(hand(
                NOT_READY_002800,
                discard(East),
                WinContext {
                    seat_wind: Wind::North,
                    ..WinContext::default()
                },
            )),
            penalties: Vec::new(),
        };
        let s = settled(&record, rules);
        assert_eq!(deltas(&s), [each, each, each, -3 * each], "{}", rules.name);
        assert_eq!(
            s.result,
            HandResult::FalseDeclaration {
                declarer: North,
                kind: FalseDeclaration::NotReadyWin
            }
        );
    }
}

#[test]
fn x2_declared_two_or_more_tiles_short_disqualifies() {
    // [123m] [456m] + 1p 5p 9p 3s 7s E S: seven isolated tiles, four tiles short of ready.
    for rules in ALL {
        let record = HandRecord {
            end: win(South, discard(West)),
            value: Some(hand(
                "[123m][456m]159p37sESW",
                discard(West),
                WinContext::default(),
            )),
            penalties: Vec::new(),
        };
        let s = settled(&record, rules);
        assert_eq!(deltas(&s), [0; 4], "{}", rules.name);
        let ruling = s.rulings.last().expect("a ruling");
        assert_eq!(ruling.infraction, Infraction::DeliberateFalseWin);
        assert_eq!(ruling.sanctions, [Sanction::Disqualification]);
    }
}

#[test]
fn x3_three_empty_pungs_in_one_hand() {
    // Warning, −5, −10: 15 deducted from West's hand score, received by nobody.
    for rules in ALL {
        let empty_pung = Offence {
            offender: West,
            infraction: Infraction::EmptyPung,
        };
        let record = HandRecord {
            end: HandEnd::DrawGame,
            value: None,
            penalties: vec![empty_pung.clone(), empty_pung.clone(), empty_pung],
        };
        let s = settled(&record, rules);
        assert_eq!(deltas(&s), [0, 0, -15, 0], "{}", rules.name);
        assert_eq!((s.unpaid_penalties, s.unbalanced_by), (15, -15));
        let sanctions: Vec<_> = s.rulings.iter().map(|r| r.sanctions.clone()).collect();
        assert_eq!(
            sanctions,
            [
                vec![Sanction::Warning],
                vec![Sanction::Deduction(5)],
                vec![Sanction::Deduction(10)]
            ]
        );
        assert!(
            s.payments.lines[West]
                .iter()
                .all(|l| l.counterparty.is_none())
        );
    }
}

#[test]
fn repeated_offences_escalate_per_offender_and_family() {
    // docs/rules/readings.md#escalation-after-the-fourth: warning, 5, 10, 20, then 40, capped at 60.
    let offence = |offender, infraction| Offence {
        offender,
        infraction,
    };
    let offences = [
        offence(West, Infraction::EmptyChow),
        offence(East, Infraction::EarlyDraw),
        offence(West, Infraction::EmptyPung),
        offence(West, Infraction::EarlyDraw),
        offence(West, Infraction::EmptyKong),
        offence(West, Infraction::EmptyPung),
        offence(West, Infraction::EmptyPung),
        offence(West, Infraction::EmptyChow),
        offence(West, Infraction::LatePung),
    ];
    let rulings = adjudicate(&offences, R98).expect("valid offences");
    let got: Vec<(u32, Vec<Sanction>)> = rulings
        .iter()
        .map(|r| (r.occurrence, r.sanctions.clone()))
        .collect();
    let expected = vec![
        (1, vec![Sanction::Warning]),      // West 空吃, first of the empty calls
        (1, vec![Sanction::Warning]),      // East 摸牌: his own count
        (2, vec![Sanction::Deduction(5)]), // West 空碰: the same row of the rulebook
        (1, vec![Sanction::Warning]),      // West 摸牌: another family
        (3, vec![Sanction::Deduction(10)]), // West 空杠
        (4, vec![Sanction::Deduction(20)]),
        (5, vec![Sanction::Deduction(40)]),
        (6, vec![Sanction::Deduction(60)]), // 80 capped at 60
        (1, vec![Sanction::Warning]),       // West late pung
    ];
    assert_eq!(got, expected);
}

#[test]
fn x4_late_arrival() {
    // 12 minutes: 20 points from the session total. Hands: +30 and −16.
    for rules in ALL {
        let s = session_score(&[30, -16], 12, rules).expect("valid session");
        assert_eq!(s.score, 500 + 30 - 16 - 20, "{}", rules.name);
        assert_eq!(
            (s.late.points, s.late.warning, s.late.forfeit),
            (20, false, false)
        );
        // Up to 10 minutes: warning and 10 points.
        let s = session_score(&[30, -16], 10, rules).expect("valid session");
        assert_eq!((s.score, s.late.warning), (504, true));
        // 15 minutes is the last of the 20-point tier; 16 forfeits: 局分 0.
        assert_eq!(session_score(&[], 15, rules).map(|s| s.score), Ok(480));
        assert_eq!(session_score(&[40], 16, rules).map(|s| s.score), Ok(0));
        assert_eq!(session_score(&[40], 0, rules).map(|s| s.score), Ok(540));
    }
    let errors = session_score(&[], -1, R98).expect_err("negative minutes");
    assert_eq!(
        fields(&errors),
        [(ViolationCode::ValueNegative, "late_minutes")]
    );
}

#[test]
fn x4_late_arrival_is_not_settled_in_a_hand() {
    let record = HandRecord {
        end: HandEnd::DrawGame,
        value: None,
        penalties: vec![Offence {
            offender: South,
            infraction: Infraction::LateArrival { minutes: 12 },
        }],
    };
    let errors = settle(&record, R98).expect_err("late arrival in a hand");
    assert_eq!(
        fields(&errors),
        [(ViolationCode::PenaltyOutOfScope, "penalties[0].infraction")]
    );
}

fn exposing(points: i64) -> HandRecord {
    HandRecord {
        end: HandEnd::DrawGame,
        value: None,
        penalties: vec![Offence {
            offender: East,
            infraction: Infraction::ExposingOthersTiles {
                victim: North,
                points,
            },
        }],
    }
}

/// R98 §13-2(2): the seven grades of a deduction.
const R98_GRADES: [i64; 7] = [5, 10, 20, 30, 40, 50, 60];

#[test]
fn graded_deductions_take_one_of_the_seven_grades_and_a_victim_any_amount_in_range() {
    let deduction = |points| HandRecord {
        penalties: vec![Offence {
            offender: East,
            infraction: Infraction::NamingDiscard { points },
        }],
        ..exposing(5)
    };
    let signals = |points| HandRecord {
        penalties: vec![Offence {
            offender: East,
            infraction: Infraction::IllegalSignals(SignalSanction::Points(points)),
        }],
        ..exposing(5)
    };
    for rules in ALL {
        for points in 0..=70 {
            let graded = R98_GRADES.contains(&points);
            for record in [deduction(points), signals(points)] {
                match settle(&record, rules) {
                    Ok(s) => {
                        assert!(graded, "{points} accepted");
                        assert_eq!(deltas(&s), [-points, 0, 0, 0]);
                    }
                    Err(errors) => {
                        assert!(!graded, "{points} refused");
                        assert_eq!(
                            fields(&errors),
                            [(
                                ViolationCode::PenaltyAmountOutOfRange,
                                "penalties[0].infraction.points"
                            )]
                        );
                        assert!(errors[0].message.contains("5, 10, 20, 30, 40, 50 or 60"));
                    }
                }
            }
            // §14-7(3): the amount paid to the victim is any whole number from 5 to 60.
            assert_eq!(
                settle(&exposing(points), rules).is_ok(),
                (5..=60).contains(&points),
                "{points}"
            );
        }
    }
}

#[test]
fn x5_exposing_another_players_tiles() {
    // The referee fixes 5–60 points, paid to the disturbed player.
    for rules in ALL {
        for points in [5, 30, 60] {
            let s = settled(&exposing(points), rules);
            assert_eq!(deltas(&s), [-points, 0, 0, points]);
            assert_eq!(s.unbalanced_by, 0);
        }
        for (points, code) in [
            (4, ViolationCode::PenaltyAmountOutOfRange),
            (61, ViolationCode::PenaltyAmountOutOfRange),
            (0, ViolationCode::PenaltyAmountOutOfRange),
            (-5, ViolationCode::ValueNegative),
        ] {
            let errors = settle(&exposing(points), rules).expect_err("out of range");
            assert_eq!(fields(&errors), [(code, "penalties[0].infraction.points")]);
        }
    }
    let mut record = exposing(20);
    record.penalties[0].infraction = Infraction::ExposingOthersTiles {
        victim: East,
        points: 20,
    };
    let errors = settle(&record, R98).expect_err("own tiles");
    assert_eq!(
        fields(&errors),
        [(
            ViolationCode::ContextConflict,
            "penalties[0].infraction.victim"
        )]
    );
}

#[test]
fn x6_group_of_sixteen_under_the_1998_formula() {
    // 16, 14, 13, …, 1, 0.
    let scores: Vec<i64> = (0..16).map(|i| 900 - 20 * i).collect();
    let got = standard_points(&scores, R98.standard_points, R98.standard_point_ties)
        .expect("group formula");
    let mut want = vec![16];
    want.extend((0..=14).rev());
    let want: Vec<Rational> = want.into_iter().map(Rational::integer).collect();
    assert_eq!(got, want);
    // Two tied first share 16 and 14: 15 each.
    let mut tied = scores;
    tied[1] = tied[0];
    let got = group_standard_points(&tied, R98.standard_point_ties);
    assert_eq!((got[0], got[1], got[2]), (15.into(), 15.into(), 13.into()));
    // Read as the same place (两人并列第一): 16 each, the next is third (16 − 3).
    let got = group_standard_points(&tied, StandardPointTies::SamePlace);
    assert_eq!((got[0], got[1], got[2]), (16.into(), 16.into(), 13.into()));
}

#[test]
fn ties_share_places_in_the_three_rulesets_and_may_take_the_same_place() {
    for rules in [R98, MIL, GB] {
        assert_eq!(rules.standard_point_ties, StandardPointTies::SharePlaces);
    }
    // Two tied first of four under 4/2/1/0: 3 each shared, 4 each as the same place.
    let scores = [600, 600, 500, 400];
    let shared = standard_points(
        &scores,
        StandardPoints::Table4210,
        StandardPointTies::SharePlaces,
    )
    .expect("table");
    assert_eq!(shared, [3, 3, 1, 0].map(Rational::integer));
    let same = standard_points(
        &scores,
        StandardPoints::Table4210,
        StandardPointTies::SamePlace,
    )
    .expect("table");
    assert_eq!(same, [4, 4, 1, 0].map(Rational::integer));
}

#[test]
fn x6_tie_for_second_under_4_2_1_0() {
    // 4, 1.5, 1.5, 0 (1.5 exactly: three halves).
    let half = |n| Rational::new(n, 2).expect("halves");
    for rules in [MIL, GB] {
        assert_eq!(rules.standard_points, StandardPoints::Table4210);
        let got = standard_points(
            &[612, 520, 400, 520],
            rules.standard_points,
            rules.standard_point_ties,
        )
        .expect("table");
        assert_eq!(got, [4.into(), half(3), 0.into(), half(3)]);
    }
    // Ties for second under 4/2/1/0 for the 1998 ruleset too (its table form).
    let got = standard_points(
        &[460, 520, 520, 560],
        StandardPoints::Table4210,
        StandardPointTies::SharePlaces,
    )
    .expect("table");
    assert_eq!(got, [0.into(), half(3), half(3), 4.into()]);
    assert_eq!(got[1].halves(), Some(3));
    // The table form needs four players.
    let errors = standard_points(
        &[1, 2, 3],
        StandardPoints::Table4210,
        StandardPointTies::SharePlaces,
    )
    .expect_err("3 players");
    assert_eq!(fields(&errors), [(ViolationCode::ValueInvalid, "scores")]);
}

#[test]
fn rankings_follow_the_1998_tie_breaks() {
    let session = |sp: i64, score| SessionResult {
        standard_points: Rational::integer(sp),
        score,
    };
    let players = vec![
        // 0: 6 points, total 1000.
        vec![session(4, 520), session(2, 480)],
        // 1: 6 points, total 1010: ahead of 0 on total 比赛分.
        vec![session(2, 505), session(4, 505)],
        // 2: 6 points, total 1000, best single 4 like 0: same place as 0 (one top result each).
        vec![session(2, 500), session(4, 500)],
        // 3: 6 points, total 1000, best single 5: ahead of 0 and 2.
        vec![session(5, 600), session(1, 400)],
        // 4: 7 points: first.
        vec![session(4, 400), session(3, 300)],
    ];
    let standings = rank_players(&players);
    let order: Vec<(usize, usize)> = standings.iter().map(|s| (s.player, s.place)).collect();
    assert_eq!(order, [(4, 1), (1, 2), (3, 3), (0, 4), (2, 4)]);
    // All equal down to the best single session (3): the number of sessions at 3 decides.
    let players = vec![
        vec![session(3, 500), session(2, 500), session(1, 500)],
        vec![session(3, 500), session(3, 500), session(0, 500)],
        vec![session(3, 500), session(1, 500), session(2, 500)],
    ];
    let order: Vec<(usize, usize, usize)> = rank_players(&players)
        .iter()
        .map(|s| (s.player, s.place, s.top_results))
        .collect();
    assert_eq!(order, [(1, 1, 2), (0, 2, 1), (2, 2, 1)]);
}

// ---------------------------------------------------------------------------------------------
// Point 4: judging declared wins from the hand
// ---------------------------------------------------------------------------------------------

struct Declared {
    id: &'static str,
    notation: &'static str,
    self_drawn: bool,
    seat: Seat,
    verdict: WinVerdict,
    distance: i8,
}

const WRONG_TILE: WinVerdict = WinVerdict::False(FalseDeclaration::WrongWinningTile);
const NOT_READY: WinVerdict = WinVerdict::False(FalseDeclaration::NotReadyWin);
const DELIBERATE: WinVerdict = WinVerdict::False(FalseDeclaration::DeliberateFalseWin);

/// Distances worked by hand in each comment.
const DECLARED: [Declared; 16] = [
    Declared {
        // E20: a win of 8.
        id: "E20",
        notation: "33m12456s123456p3s",
        self_drawn: false,
        seat: South,
        verdict: WinVerdict::Valid,
        distance: 0,
    },
    Declared {
        // E47a self-drawn: 8, a win.
        id: "E47a",
        notation: "[123s][456s][789m]1233m3m",
        self_drawn: true,
        seat: South,
        verdict: WinVerdict::Valid,
        distance: 0,
    },
    Declared {
        // E47a on a discard: 7 → 错和.
        id: "E47a-discard",
        notation: "[123s][456s][789m]1233m3m",
        self_drawn: false,
        seat: South,
        verdict: WinVerdict::False(FalseDeclaration::FalseWin),
        distance: 0,
    },
    Declared {
        // E47b: 4 → 错和.
        id: "E47b",
        notation: "[123s][456s]45567m99p6m",
        self_drawn: false,
        seat: South,
        verdict: WinVerdict::False(FalseDeclaration::FalseWin),
        distance: 0,
    },
    Declared {
        // Four melds and C: a single wait on C; W declared.
        id: "public-k_nearmiss-002801",
        notation: "[666s2][456p][567p][555s1]CW",
        self_drawn: false,
        seat: South,
        verdict: WRONG_TILE,
        distance: 0,
    },
    Declared {
        // Four melds and 7m: waits on 7m; E declared.
        id: "public-k_nearmiss-002810",
        notation: "[567p][3333p3][123s][345m]7mE",
        self_drawn: false,
        seat: West,
        verdict: WRONG_TILE,
        distance: 0,
    },
    Declared {
        // Four melds and 8p: waits on 8p; 2m declared.
        id: "public-k_nearmiss-002900",
        notation: "[345m][456m][567m][678m]8p2m",
        self_drawn: false,
        seat: West,
        verdict: WRONG_TILE,
        distance: 0,
    },
    Declared {
        // Four melds and W: waits on W; 2p declared.
        id: "public-k_nearmiss-002922",
        notation: "[123m][456m][456s][567s]W2p",
        self_drawn: false,
        seat: West,
        verdict: WRONG_TILE,
        distance: 0,
    },
    Declared {
        // 111m 333s 999s + 77m 55p: waits on 7m or 5p; 3s drawn.
        id: "public-k_nearmiss-002916",
        notation: "11177m55p333999s3s",
        self_drawn: true,
        seat: West,
        verdict: WRONG_TILE,
        distance: 0,
    },
    Declared {
        // 111s 345s 678s 999s + 6p: a single wait on 6p; 7s drawn.
        id: "public-k_nearmiss-002950",
        notation: "6p111345678999s7s",
        self_drawn: true,
        seat: North,
        verdict: WRONG_TILE,
        distance: 0,
    },
    Declared {
        // Three melds + 2m 5m 7s 9s: one partial (79s), no pair → one short.
        id: "public-k_nearmiss-002800",
        notation: NOT_READY_002800,
        self_drawn: false,
        seat: North,
        verdict: NOT_READY,
        distance: 1,
    },
    Declared {
        // Three melds + 5s 6s 6s P: a pair (66s) or a partial (56s), not both; P single.
        id: "public-k_nearmiss-002845",
        notation: "[111m2][333p1][789p]566sP5s",
        self_drawn: true,
        seat: West,
        verdict: NOT_READY,
        distance: 1,
    },
    Declared {
        // Three melds + 77m 1s 5s: a pair and two isolated tiles → one short.
        id: "public-k_nearmiss-002902",
        notation: "[NNN1][111s3][222p3]77m15s7s",
        self_drawn: true,
        seat: South,
        verdict: NOT_READY,
        distance: 1,
    },
    Declared {
        // 456m 678m 789s + 5m, 34p, N: the 34p partial and the N single both need a tile.
        id: "public-k_nearmiss-002791",
        notation: "4556678m34p789sN2p",
        self_drawn: false,
        seat: West,
        verdict: NOT_READY,
        distance: 1,
    },
    Declared {
        // Two melds + seven isolated tiles: 2·2 + 2 − 1 − 3 = … four short.
        id: "constructed-isolated",
        notation: "[123m][456m]159p37sESW",
        self_drawn: false,
        seat: East,
        verdict: DELIBERATE,
        distance: 4,
    },
    Declared {
        // 13579m 2468p ESWN: four gap partials (13m 57m 24p 68p), no set, no pair → four
        // short (seven pairs 6, thirteen orphans 7, knitted 5).
        id: "constructed-gaps",
        notation: "13579m2468pESWNC",
        self_drawn: false,
        seat: East,
        verdict: DELIBERATE,
        distance: 4,
    },
];

fn declaration_of(d: &Declared) -> (Declaration, WinContext) {
    let source = if d.self_drawn {
        WinSource::SelfDrawn
    } else {
        discard(d.seat.next())
    };
    let context = WinContext {
        method: source.method(),
        seat_wind: d.seat.wind(),
        ..WinContext::default()
    };
    (
        Declaration {
            declarer: d.seat,
            source,
        },
        context,
    )
}

#[test]
fn declared_wins_are_judged_from_the_hand() {
    for rules in ALL {
        for d in &DECLARED {
            let (declaration, context) = declaration_of(d);
            let hand = parse_hand(d.notation).expect("notation parses");
            let j = match decide_declared_win(&declaration, &hand, &context, rules) {
                Ok(j) => j,
                Err(v) => panic!("{}: {v:?}", d.id),
            };
            assert_eq!(j.verdict, d.verdict, "{} under {}", d.id, rules.name);
            if j.verdict == WinVerdict::Valid {
                assert_eq!(j.ruling, None);
            } else {
                assert_eq!(j.distance, d.distance, "{}", d.id);
                let ruling = j.ruling.as_ref().expect("a ruling");
                assert_eq!(ruling.offender, d.seat);
            }
        }
    }
}

#[test]
fn judged_penalties_follow_the_ruleset() {
    // 和错牌 10 each everywhere; 诈和 20 (1998, MIL) or 10 (GB); 有意诈和 disqualifies.
    let cases = [
        ("public-k_nearmiss-002922", [10, 10, 10]),
        ("public-k_nearmiss-002800", [20, 20, 10]),
        ("constructed-isolated", [0, 0, 0]),
    ];
    for (id, each) in cases {
        let d = DECLARED.iter().find(|d| d.id == id).expect("listed");
        let (declaration, context) = declaration_of(d);
        let hand = parse_hand(d.notation).expect("notation parses");
        for (rules, each) in ALL.into_iter().zip(each) {
            let j = decide_declared_win(&declaration, &hand, &context, rules).expect("judged");
            let got = j.payments.deltas();
            for seat in Seat::ALL {
                let want = if seat == d.seat { -3 * each } else { each };
                assert_eq!(got[seat], want, "{id} {} {seat}", rules.name);
            }
        }
    }
}

#[test]
fn judging_reports_a_context_that_contradicts_the_declaration() {
    let hand = parse_hand("33m12456s123456p3s").expect("E20");
    let declaration = Declaration {
        declarer: South,
        source: discard(South),
    };
    let context = WinContext {
        method: WinMethod::SelfDrawn,
        ..WinContext::default()
    };
    let errors = decide_declared_win(&declaration, &hand, &context, R98).expect_err("conflicts");
    assert_eq!(
        fields(&errors),
        [
            (ViolationCode::WinnerIsPayer, "declaration.source.discarder"),
            (ViolationCode::ContextConflict, "context.method"),
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Point 2: several claims on one discard (截和)
// ---------------------------------------------------------------------------------------------

#[test]
fn the_first_claimant_after_the_discarder_wins() {
    // Turn order East → South → West → North → East.
    let r = resolve_win_claims(East, &[North, West]).expect("two claims");
    assert_eq!((r.winner, r.intercepted), (West, vec![North]));
    let r = resolve_win_claims(West, &[South, East, North]).expect("three claims");
    assert_eq!((r.winner, r.intercepted), (North, vec![East, South]));
    let r = resolve_win_claims(North, &[South]).expect("one claim");
    assert_eq!((r.winner, r.intercepted), (South, vec![]));
}

#[test]
fn impossible_claims_are_reported_together() {
    let errors = resolve_win_claims(South, &[South, West, West]).expect_err("bad claims");
    assert_eq!(
        fields(&errors),
        [
            (ViolationCode::ClaimInvalid, "claimants[0]"),
            (ViolationCode::ClaimInvalid, "claimants[2]"),
        ]
    );
    let errors = resolve_win_claims(South, &[]).expect_err("no claim");
    assert_eq!(
        fields(&errors),
        [(ViolationCode::ClaimInvalid, "claimants")]
    );
}

// ---------------------------------------------------------------------------------------------
// Impossible input
// ---------------------------------------------------------------------------------------------

#[test]
fn every_problem_of_a_record_is_reported() {
    let record = HandRecord {
        end: win(East, discard(East)),
        value: Some(WinValue::Counted {
            fan: -3,
            flowers: 9,
        }),
        penalties: vec![
            Offence {
                offender: North,
                infraction: Infraction::ExposingOthersTiles {
                    victim: South,
                    points: 70,
                },
            },
            Offence {
                offender: West,
                infraction: Infraction::LateArrival { minutes: 5 },
            },
            Offence {
                offender: South,
                infraction: Infraction::IllegalSignals(SignalSanction::Points(-10)),
            },
        ],
    };
    let errors = settle(&record, R98).expect_err("impossible record");
    let mut got = fields(&errors);
    got.0.sort_unstable_by(|(_, a), (_, b)| a.cmp(b));
    assert_eq!(
        got,
        [
            (ViolationCode::WinnerIsPayer, "end.source.discarder"),
            (
                ViolationCode::PenaltyAmountOutOfRange,
                "penalties[0].infraction.points"
            ),
            (ViolationCode::PenaltyOutOfScope, "penalties[1].infraction"),
            (
                ViolationCode::ValueNegative,
                "penalties[2].infraction.points"
            ),
            (ViolationCode::ValueNegative, "value.fan"),
            (ViolationCode::FlowerCount, "value.flowers"),
        ]
    );
}

#[test]
fn values_that_do_not_fit_the_end_of_the_hand() {
    let draw_with_value = HandRecord {
        end: HandEnd::DrawGame,
        value: Some(WinValue::Counted { fan: 8, flowers: 0 }),
        penalties: Vec::new(),
    };
    let errors = settle(&draw_with_value, R98).expect_err("draw with a value");
    assert_eq!(fields(&errors), [(ViolationCode::WinValueForDraw, "value")]);
    let win_without_value = HandRecord {
        end: win(South, WinSource::SelfDrawn),
        value: None,
        penalties: Vec::new(),
    };
    let errors = settle(&win_without_value, R98).expect_err("win without a value");
    assert_eq!(fields(&errors), [(ViolationCode::WinValueMissing, "value")]);
    // A robbed player who is the winner; a hand whose tiles are wrong.
    let robbing_himself = HandRecord {
        end: win(West, WinSource::RobbingKong { robbed: West }),
        value: Some(hand(
            "[123m][456p]789s55s67m",
            WinSource::RobbingKong { robbed: West },
            WinContext::default(),
        )),
        penalties: Vec::new(),
    };
    let errors = settle(&robbing_himself, R98).expect_err("impossible");
    assert_eq!(
        fields(&errors),
        [
            (ViolationCode::WinnerIsPayer, "end.source.robbed"),
            (ViolationCode::TileCountWrong, "value.hand.standing"),
        ]
    );
}

#[test]
fn seats_and_infractions_from_outside() {
    let declarer = FieldPath::of("end").field("declarer");
    let v = Seat::from_number(4, declarer).expect_err("no fifth seat");
    assert_eq!(
        (v.code, v.path.to_string().as_str()),
        (ViolationCode::SeatInvalid, "end.declarer")
    );
    let claimant = FieldPath::of("claimants").index(0);
    let v = Seat::from_number(-1, claimant).expect_err("negative seat");
    assert_eq!(v.code, ViolationCode::SeatInvalid);
    let kind = FieldPath::of("penalties").index(0).field("kind");
    let v = InfractionKind::from_code("NAPPING", kind).expect_err("unknown");
    assert_eq!(
        (v.code, v.path.to_string().as_str()),
        (ViolationCode::InfractionUnknown, "penalties[0].kind")
    );
    assert_eq!(
        InfractionKind::from_code("EMPTY_PUNG", FieldPath::of("kind")),
        Ok(InfractionKind::EmptyPung)
    );
}

#[test]
fn rulings_of_the_catalogue() {
    let rule = |offender, infraction| {
        adjudicate(
            &[Offence {
                offender,
                infraction,
            }],
            R98,
        )
        .expect("valid")
        .remove(0)
        .sanctions
    };
    assert_eq!(
        rule(East, Infraction::Cheating),
        [Sanction::Disqualification]
    );
    assert_eq!(
        rule(East, Infraction::WrongKong),
        [Sanction::LoseRightToWin]
    );
    assert_eq!(
        rule(East, Infraction::WrongTileCount),
        [Sanction::LoseRightToWin]
    );
    assert_eq!(
        rule(East, Infraction::SeriousDisturbance),
        [Sanction::Disqualification]
    );
    let tiles = mcr::notation::parse_tiles("5m5m").expect("tiles");
    assert_eq!(
        rule(
            East,
            Infraction::ExposingOwnTiles {
                tiles: tiles.clone()
            }
        ),
        [Sanction::DiscardExposedTiles(tiles.clone())]
    );
    assert_eq!(
        rule(
            East,
            Infraction::LayingDownHand {
                declared_win_valid: true,
                tiles: tiles.clone()
            }
        ),
        [Sanction::Warning]
    );
    assert_eq!(
        rule(
            East,
            Infraction::LayingDownHand {
                declared_win_valid: false,
                tiles: tiles.clone()
            }
        ),
        [
            Sanction::DiscardExposedTiles(tiles),
            Sanction::LoseRightToWin
        ]
    );
    // A wrongly named discard: the misnamer pays what the misled player's 诈和 would cost.
    assert_eq!(
        rule(
            East,
            Infraction::MisleadingDiscardName {
                misled: South,
                misled_into: FalseDeclaration::NotReadyWin
            }
        ),
        [Sanction::PayEachOther(20)]
    );
    assert_eq!(
        rule(East, Infraction::LateArrival { minutes: 8 }),
        [Sanction::Warning, Sanction::SessionDeduction(10)]
    );
    assert_eq!(
        rule(East, Infraction::LateArrival { minutes: 40 }),
        [Sanction::Forfeit]
    );
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

fn any_seat() -> impl Strategy<Value = Seat> {
    (0usize..4).prop_map(|i| Seat::ALL[i])
}

fn any_rules() -> impl Strategy<Value = &'static Ruleset<'static>> {
    (0usize..3).prop_map(|i| ALL[i])
}

/// A winner and where the tile came from (never the winner himself).
fn any_end() -> impl Strategy<Value = (Seat, WinSource)> {
    (any_seat(), 0usize..3, 1usize..4).prop_map(|(winner, kind, offset)| {
        let other = Seat::ALL[(winner.index() + offset) % 4];
        let source = match kind {
            0 => WinSource::SelfDrawn,
            1 => WinSource::Discard { discarder: other },
            _ => WinSource::RobbingKong { robbed: other },
        };
        (winner, source)
    })
}

/// Offences that take nobody's right to win, with amounts in the graded range.
fn any_offence() -> impl Strategy<Value = Offence> {
    let infraction = prop_oneof![
        Just(Infraction::EmptyPung),
        Just(Infraction::EmptyChow),
        Just(Infraction::EarlyDraw),
        Just(Infraction::LatePung),
        proptest::sample::select(R98_GRADES.to_vec())
            .prop_map(|points| Infraction::NamingDiscard { points }),
        proptest::sample::select(R98_GRADES.to_vec())
            .prop_map(|p| Infraction::IllegalSignals(SignalSanction::Points(p))),
        (any_seat(), 5i64..=60)
            .prop_map(|(victim, points)| Infraction::ExposingOthersTiles { victim, points }),
        any_seat().prop_map(|misled| Infraction::MisleadingDiscardName {
            misled,
            misled_into: FalseDeclaration::FalseWin
        }),
    ];
    (any_seat(), infraction).prop_filter_map("a victim other than the offender", |(o, i)| {
        let own = if let Infraction::ExposingOthersTiles { victim, .. } = &i {
            *victim == o
        } else if let Infraction::MisleadingDiscardName { misled, .. } = &i {
            *misled == o
        } else {
            false
        };
        (!own).then_some(Offence {
            offender: o,
            infraction: i,
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Without penalties the four deltas sum to zero, the winner receives exactly what the
    /// others pay, and each pays 8, plus the fan points if he discarded (or always when the
    /// win is self-drawn).
    #[test]
    fn a_win_without_penalties_balances(
        (winner, source) in any_end(),
        fan in 8i64..=400,
        flowers in 0i64..=8,
        rules in any_rules(),
    ) {
        let s = settled(&counted(win(winner, source), fan, flowers), rules);
        prop_assert_eq!(s.deltas.iter().sum::<i64>(), 0);
        prop_assert_eq!((s.unpaid_penalties, s.unbalanced_by), (0, 0));
        let others: i64 = winner.others().iter().map(|&o| s.deltas[o]).sum();
        prop_assert_eq!(s.deltas[winner], -others);
        for o in winner.others() {
            let pays_fan = source.payer().is_none_or(|p| p == o);
            let want = -8 - if pays_fan { fan + flowers } else { 0 };
            prop_assert_eq!(s.deltas[o], want);
            prop_assert!(s.payments.lines[o].iter().all(|l| l.counterparty == Some(winner)));
        }
    }

    /// More fan never costs a loser less nor gives the winner less.
    #[test]
    fn payment_is_monotone_in_the_fan_total(
        (winner, source) in any_end(),
        a in 8i64..=300,
        extra in 0i64..=100,
        flowers in 0i64..=8,
        rules in any_rules(),
    ) {
        let low = settled(&counted(win(winner, source), a, flowers), rules);
        let high = settled(&counted(win(winner, source), a + extra, flowers), rules);
        prop_assert!(high.deltas[winner] >= low.deltas[winner]);
        for o in winner.others() {
            prop_assert!(high.deltas[o] <= low.deltas[o]);
        }
        if extra > 0 {
            prop_assert!(high.deltas[winner] > low.deltas[winner]);
        }
    }

    /// With penalties, only the deductions nobody receives unbalance the hand.
    #[test]
    fn only_unpaid_deductions_unbalance_a_hand(
        (winner, source) in any_end(),
        fan in 8i64..=100,
        offences in proptest::collection::vec(any_offence(), 0..8),
        rules in any_rules(),
    ) {
        let mut record = counted(win(winner, source), fan, 0);
        let deducted: i64 = adjudicate(&offences, rules)
            .expect("valid offences")
            .iter()
            .flat_map(|r| r.sanctions.clone())
            .map(|s| if let Sanction::Deduction(p) = s { p } else { 0 })
            .sum();
        record.penalties = offences;
        let s = settled(&record, rules);
        prop_assert_eq!(s.unpaid_penalties, deducted);
        prop_assert_eq!(s.unbalanced_by, -deducted);
        prop_assert_eq!(s.deltas.iter().sum::<i64>(), -deducted);
    }

    /// Repeated offences never get cheaper and never exceed the cap of 60.
    #[test]
    fn escalation_is_monotone_and_capped(n in 1u32..200, rules in any_rules()) {
        let e = rules.repeat_offences;
        let now = e.points(n).unwrap_or(0);
        let next = e.points(n + 1).unwrap_or(0);
        prop_assert!(now <= next && next <= 60);
    }

    /// Shared places keep the totals: 4 + 2 + 1 + 0 at a table, N + (N−2) + … + 0 in a
    /// group; a higher 局分 never gets fewer standard points.
    #[test]
    fn standard_points_keep_their_totals(scores in proptest::collection::vec(400i64..600, 1..20)) {
        let n = i64::try_from(scores.len()).expect("small");
        let group = group_standard_points(&scores, StandardPointTies::SharePlaces);
        let total: Rational = group.iter().copied().sum();
        prop_assert_eq!(total, Rational::integer(n + (2..=n).map(|r| n - r).sum::<i64>()));
        for (i, j) in (0..scores.len()).flat_map(|i| (0..scores.len()).map(move |j| (i, j))) {
            if scores[i] > scores[j] {
                prop_assert!(group[i] > group[j]);
            }
        }
        if let Ok(table) = <[i64; 4]>::try_from(scores.as_slice()) {
            let points = standard_points(&table, StandardPoints::Table4210, StandardPointTies::SharePlaces).expect("four");
            prop_assert_eq!(points.into_iter().sum::<Rational>(), Rational::integer(7));
        }
    }
}

#[test]
fn an_invalid_penalty_does_not_hide_a_barred_winner() {
    // penalties[0] has an amount out of range; penalties[1] (错碰) bars the winner anyway.
    let mut record = counted(win(East, discard(South)), 10, 0);
    record.penalties = vec![
        Offence {
            offender: North,
            infraction: Infraction::NamingDiscard { points: 99 },
        },
        Offence {
            offender: East,
            infraction: Infraction::WrongPung,
        },
    ];
    let errors = settle(&record, R98).expect_err("two problems");
    assert_eq!(
        fields(&errors),
        [
            (
                ViolationCode::PenaltyAmountOutOfRange,
                "penalties[0].infraction.points"
            ),
            (ViolationCode::WinnerBarred, "end.declarer"),
        ]
    );
    assert!(errors[1].message.contains("penalties[1]"));
}
