//! `ReplayHand` over a real server: Botzone's text and the same record structured give the
//! same verdict; the states after every event conserve the tiles; a record that cannot be
//! read is `INVALID_ARGUMENT` with every problem.

use mahjong_referee::pb;
use mcr::play::botzone::read_match;
use mcr::play::{Action, Drawn};

use crate::helpers::{details, fields, spawn_default};

/// The first match of the public replay corpus: East wins 海底捞月 on West's last discard.
fn first_match() -> String {
    let corpus = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/replay-public.txt"
    ))
    .expect("corpus");
    corpus.split("\n\n").next().expect("a match").to_owned()
}

fn seat(n: usize) -> i32 {
    i32::try_from(n + 1).expect("seat")
}

fn tile(t: mcr::Tile) -> i32 {
    i32::try_from(t.index() + 1).expect("tile")
}

/// The same match as a structured record, written from the engine's reading of the text.
fn structured(text: &str) -> pb::HandRecord {
    let lines: Vec<&str> = text.lines().collect();
    let m = read_match(&lines).expect("reads");
    let r = m.record;
    let wind = match r.prevalent_wind {
        mcr::Wind::East => pb::Wind::East,
        mcr::Wind::South => pb::Wind::South,
        mcr::Wind::West => pb::Wind::West,
        mcr::Wind::North => pb::Wind::North,
    };
    let action = |a: Action| -> (pb::PlayAction, i32) {
        match a {
            Action::Draw(Drawn::Tile(t)) => (pb::PlayAction::Draw, tile(t)),
            Action::Discard(t) => (pb::PlayAction::Discard, tile(t)),
            Action::Chow(t) => (pb::PlayAction::Chow, tile(t)),
            Action::Pung(t) => (pb::PlayAction::Pung, tile(t)),
            Action::Kong(t) => (pb::PlayAction::Kong, tile(t)),
            Action::ConcealedKong(t) => (pb::PlayAction::ConcealedKong, tile(t)),
            Action::AddedKong(t) => (pb::PlayAction::AddedKong, tile(t)),
            Action::Win(t) => (pb::PlayAction::Win, tile(t)),
            Action::Draw(Drawn::Flower(_)) | Action::Flower(_) => panic!("no flowers here"),
        }
    };
    pb::HandRecord {
        prevalent_wind: wind as i32,
        deal: mcr::Seat::ALL
            .iter()
            .map(|s| pb::SeatDeal {
                seat: seat(s.index()),
                tiles: r.deal[*s]
                    .iter()
                    .map(|d| match d {
                        Drawn::Tile(t) => tile(*t),
                        Drawn::Flower(_) => panic!("no flowers here"),
                    })
                    .collect(),
                flowers: Vec::new(),
            })
            .collect(),
        events: r
            .events
            .iter()
            .map(|e| {
                let (a, t) = action(e.action);
                pb::PlayEvent {
                    seat: seat(e.seat.index()),
                    action: a as i32,
                    tile: t,
                    flower: 0,
                    overridden: e
                        .overridden
                        .iter()
                        .map(|c| {
                            let (a, t) = action(c.action);
                            pb::OverriddenClaim {
                                seat: seat(c.seat.index()),
                                action: a as i32,
                                tile: t,
                            }
                        })
                        .collect(),
                }
            })
            .collect(),
        draw_game: r.draw_game,
        wall: Vec::new(),
        stated: Some(pb::StatedResult {
            fan: r.stated.fan.map(|f| i32::try_from(f).unwrap()),
            scores: r
                .stated
                .scores
                .map(|s| s.into_array().map(|p| i32::try_from(p).unwrap()).to_vec())
                .unwrap_or_default(),
            circumstances: None,
        }),
    }
}

#[tokio::test]
async fn a_hand_replays_the_same_from_text_and_from_messages() {
    let server = spawn_default().await;
    let mut client = server.client().await;
    let text = first_match();
    let from_text = client
        .replay_hand(pb::ReplayHandRequest {
            record: Some(pb::replay_hand_request::Record::BotzoneText(text.clone())),
            include_states: true,
            ..Default::default()
        })
        .await
        .expect("replays")
        .into_inner();
    assert_eq!(from_text.match_id, "syn-8282-0");
    assert!(from_text.findings.is_empty(), "{:?}", from_text.findings);
    assert_eq!(from_text.outcome(), pb::ReplayOutcome::Win);
    assert_eq!(from_text.winner(), pb::Seat::East);
    assert_eq!(from_text.payer(), pb::Seat::West);
    let derived = from_text.derived.expect("derived");
    assert!(derived.last_tile && !derived.self_drawn && !derived.last_copy);
    let score = from_text.score.clone().expect("score");
    assert_eq!(score.fan_total, 10);
    let names: Vec<&str> = score.fans.iter().map(|f| f.name_zh.as_str()).collect();
    assert_eq!(names, ["海底捞月", "圈风刻"]);
    let deltas: Vec<i32> = from_text.accounts.iter().map(|a| a.delta).collect();
    assert_eq!(deltas, [34, -8, -18, -8]);
    // MIL by default for Botzone's text: its fingerprint.
    assert_eq!(from_text.rules_fingerprint, "0be21bdad1bd6f45");
    // The states: after the deal and after each event; 52 tiles at the start, and every
    // tile drawn since is held, melded or discarded.
    let events = text
        .lines()
        .filter(|l| l.starts_with("Player") && !l.contains(" Deal "))
        .count();
    assert_eq!(from_text.states.len(), events + 1);
    for state in &from_text.states[..from_text.states.len() - 1] {
        let held: usize = state
            .seats
            .iter()
            .map(|s| {
                let melded: usize = s.melds.iter().map(|m| m.tiles.len()).sum();
                let untaken = s.discards_taken.iter().filter(|t| !**t).count();
                s.concealed.len() + melded + untaken
            })
            .sum();
        assert_eq!(held, 52 + 84 - state.wall_left as usize);
    }

    let from_messages = client
        .replay_hand(pb::ReplayHandRequest {
            record: Some(pb::replay_hand_request::Record::Structured(structured(
                &text,
            ))),
            ruleset: pb::Ruleset::Mil as i32,
            include_states: true,
            ..Default::default()
        })
        .await
        .expect("replays")
        .into_inner();
    assert_eq!(
        pb::ReplayHandResponse {
            match_id: from_text.match_id.clone(),
            ..from_messages
        },
        from_text
    );
}

#[tokio::test]
async fn findings_carry_their_line_rule_and_consequence() {
    let server = spawn_default().await;
    let mut client = server.client().await;
    // West's last discard B8 is claimed by North (seat 3) with a pung it cannot make, and
    // the record states a wrong total.
    let text = first_match()
        .replace("Player 0 Hu B8", "Player 3 Peng B8")
        .replace("Fan 10 ", "Fan 11 ");
    let r = client
        .replay_hand(pb::ReplayHandRequest {
            record: Some(pb::replay_hand_request::Record::BotzoneText(text)),
            ..Default::default()
        })
        .await
        .expect("an illegal event is a finding, not an error")
        .into_inner();
    assert_eq!(r.outcome(), pb::ReplayOutcome::NoResult);
    let first = &r.findings[0];
    assert_eq!(first.code, "CLAIM_ON_LAST_DISCARD");
    assert_eq!(first.line, 191);
    assert_eq!(first.consequence(), pb::Consequence::Stops);
    assert_eq!(first.seat(), pb::Seat::North);
    assert!(
        first
            .rule
            .starts_with("docs/rules/tiles-and-play.md#last-tile"),
        "{}",
        first.rule
    );
    assert!(r.accounts.is_empty() && r.score.is_none());
}

#[tokio::test]
async fn a_record_that_cannot_be_read_is_invalid_argument_with_every_problem() {
    let server = spawn_default().await;
    let mut client = server.client().await;
    let text = first_match().replacen("Player 1 Draw T1", "Player 4 Draw T1", 1);
    let status = client
        .replay_hand(pb::ReplayHandRequest {
            record: Some(pb::replay_hand_request::Record::BotzoneText(text.clone())),
            ..Default::default()
        })
        .await
        .expect_err("player 4");
    let d = details(&status);
    assert_eq!(d.code, tonic::Code::InvalidArgument);
    assert_eq!(d.info.reason, "INVALID_REQUEST");
    assert_eq!(
        fields(&d),
        [(
            "botzone_text".to_owned(),
            "SEAT_INVALID: line 9: player 4 is not 0–3".to_owned()
        )]
    );

    let mut record = structured(&first_match());
    record.deal[0].tiles[0] = 99;
    record.deal[3].seat = 2;
    record.events[5].action = 0;
    record.events[7].tile = pb::Tile::East as i32; // a chow of East: not a chow
    record.events[7].action = pb::PlayAction::Chow as i32;
    let status = client
        .replay_hand(pb::ReplayHandRequest {
            record: Some(pb::replay_hand_request::Record::Structured(record)),
            ..Default::default()
        })
        .await
        .expect_err("four problems");
    let got: Vec<String> = fields(&details(&status))
        .into_iter()
        .map(|(f, _)| f)
        .collect();
    assert_eq!(
        got,
        [
            "structured.deal[0].tiles[0]",
            "structured.deal[3].seat",
            "structured.events[5].action",
            "structured.events[7].tile"
        ]
    );

    // Strict where strictness is free: a player is one digit, a discard carries no flower.
    for player in ["00", "+1", "01"] {
        let text =
            first_match().replacen("Player 1 Draw T1", &format!("Player {player} Draw T1"), 1);
        let status = client
            .replay_hand(pb::ReplayHandRequest {
                record: Some(pb::replay_hand_request::Record::BotzoneText(text)),
                ..Default::default()
            })
            .await
            .expect_err("not a player number");
        assert_eq!(
            fields(&details(&status)),
            [(
                "botzone_text".to_owned(),
                format!("VALUE_INVALID: line 9: `{player}` is not a number")
            )]
        );
    }
    let mut record = structured(&first_match());
    let discard = record
        .events
        .iter()
        .position(|e| e.action == pb::PlayAction::Discard as i32)
        .expect("a discard");
    record.events[discard].flower = 3;
    let status = client
        .replay_hand(pb::ReplayHandRequest {
            record: Some(pb::replay_hand_request::Record::Structured(record)),
            ..Default::default()
        })
        .await
        .expect_err("a discard with a flower");
    assert_eq!(
        fields(&details(&status))
            .into_iter()
            .map(|(f, _)| f)
            .collect::<Vec<_>>(),
        [format!("structured.events[{discard}].flower")]
    );

    let status = client
        .replay_hand(pb::ReplayHandRequest::default())
        .await
        .expect_err("no record");
    assert_eq!(fields(&details(&status))[0].0, "record");
}

fn t(s: &str) -> i32 {
    tile(mcr::notation::parse_tiles(s).expect("a tile")[0])
}

/// South's view when East discards 1m: it holds 1m 1m 234567p 789s 5s E.
fn south_offered_1m() -> pb::SeatView {
    pb::SeatView {
        seat: pb::Seat::South as i32,
        concealed: [
            "1m", "1m", "2p", "3p", "4p", "5p", "6p", "7p", "7s", "8s", "9s", "5s", "E",
        ]
        .iter()
        .map(|s| t(s))
        .collect(),
        visible_tiles: vec![t("1m")],
        moment: Some(pb::seat_view::Moment::Discard(pb::OfferedTile {
            tile: t("1m"),
            from: pb::Seat::East as i32,
        })),
        wall_left: 40,
        ..pb::SeatView::default()
    }
}

#[tokio::test]
async fn legal_actions_offer_a_pung_with_what_it_leaves() {
    let server = spawn_default().await;
    let mut client = server.client().await;
    let r = client
        .legal_actions(pb::LegalActionsRequest {
            view: Some(south_offered_1m()),
            ruleset: pb::Ruleset::Mil as i32,
            call_analysis: true,
            ..Default::default()
        })
        .await
        .expect("legal actions")
        .into_inner();
    let kinds: Vec<(pb::PlayAction, i32)> =
        r.actions.iter().map(|a| (a.action(), a.tile)).collect();
    assert_eq!(kinds, [(pb::PlayAction::Pung, t("1m"))]);
    let call = r.actions[0].call.as_ref().expect("the call analysis");
    assert_eq!(call.hand.as_ref().expect("hand").standing_tiles.len(), 11);
    let analysis = call.analysis.as_ref().expect("analysis");
    assert_eq!(analysis.state(), pb::HandState::Drawn);
    assert!(
        analysis.discards.iter().any(|d| d.shanten == 0),
        "a discard leaves it ready"
    );

    // Drawing the winning tile: a self-drawn win, with its score.
    let mut won = south_offered_1m();
    won.concealed = [
        "1m", "1m", "1m", "2p", "3p", "4p", "5p", "6p", "7p", "7s", "8s", "9s", "5s", "5s",
    ]
    .iter()
    .map(|s| t(s))
    .collect();
    won.moment = Some(pb::seat_view::Moment::Drew(pb::DrawnTile {
        tile: t("5s"),
        ..Default::default()
    }));
    let r = client
        .legal_actions(pb::LegalActionsRequest {
            view: Some(won),
            ruleset: pb::Ruleset::Mil as i32,
            ..Default::default()
        })
        .await
        .expect("legal actions")
        .into_inner();
    let first = &r.actions[0];
    assert_eq!(first.action(), pb::PlayAction::Win);
    let score = first.win.as_ref().expect("a win is scored");
    assert!(score.fan_total >= 8);
    assert!(first.win_circumstances.expect("circumstances").self_drawn);
    assert!(
        r.actions
            .iter()
            .skip(1)
            .all(|a| a.action() == pb::PlayAction::Discard)
    );

    // A view that cannot be: a fifth 1m.
    let mut bad = south_offered_1m();
    bad.visible_tiles = vec![t("1m"); 3];
    let status = client
        .legal_actions(pb::LegalActionsRequest {
            view: Some(bad),
            ..Default::default()
        })
        .await
        .expect_err("five copies");
    let d = details(&status);
    assert_eq!(d.code, tonic::Code::InvalidArgument);
    assert!(
        d.violations[0].field.starts_with("view."),
        "{:?}",
        d.violations
    );
}

#[tokio::test]
async fn arbitration_puts_a_win_first_and_sets_illegal_claims_aside() {
    let server = spawn_default().await;
    let mut client = server.client().await;
    let offer = Some(pb::arbitrate_claims_request::Offer::Discard(
        pb::OfferedTile {
            tile: t("1m"),
            from: pb::Seat::East as i32,
        },
    ));
    let claim =
        |seat: pb::Seat, action: pb::PlayAction, view: Option<pb::SeatView>| pb::ClaimToArbitrate {
            seat: seat as i32,
            action: action as i32,
            tile: t("1m"),
            view,
        };
    // South pungs; West and North both declare a win: West comes first from East.
    let r = client
        .arbitrate_claims(pb::ArbitrateClaimsRequest {
            offer,
            claims: vec![
                claim(pb::Seat::South, pb::PlayAction::Pung, None),
                claim(pb::Seat::North, pb::PlayAction::Win, None),
                claim(pb::Seat::West, pb::PlayAction::Win, None),
            ],
            ..Default::default()
        })
        .await
        .expect("arbitrated")
        .into_inner();
    assert_eq!(r.stands, Some(2));
    assert_eq!(r.overridden, [1, 0]);
    assert!(r.illegal.is_empty());
    // With South's view, a win on 1m is not legal: set aside with its ruling; the pung of
    // another seat without a view stands.
    let r = client
        .arbitrate_claims(pb::ArbitrateClaimsRequest {
            offer,
            claims: vec![
                claim(
                    pb::Seat::South,
                    pb::PlayAction::Win,
                    Some(south_offered_1m()),
                ),
                claim(pb::Seat::West, pb::PlayAction::Pung, None),
            ],
            ..Default::default()
        })
        .await
        .expect("arbitrated")
        .into_inner();
    assert_eq!(r.stands, Some(1));
    assert_eq!(r.illegal.len(), 1);
    assert_eq!(r.illegal[0].index, 0);
    let ruling = r.illegal[0].ruling.as_ref().expect("a false win is ruled");
    assert!(!ruling.sanctions.is_empty());
    // The same seat twice, or the discarder's own claim: INVALID_ARGUMENT.
    let status = client
        .arbitrate_claims(pb::ArbitrateClaimsRequest {
            offer,
            claims: vec![
                claim(pb::Seat::South, pb::PlayAction::Pung, None),
                claim(pb::Seat::South, pb::PlayAction::Win, None),
                claim(pb::Seat::East, pb::PlayAction::Win, None),
            ],
            ..Default::default()
        })
        .await
        .expect_err("bad claims");
    let got: Vec<String> = fields(&details(&status))
        .into_iter()
        .map(|(f, _)| f)
        .collect();
    assert_eq!(got, ["claims[1]", "claims[2]"]);
}
