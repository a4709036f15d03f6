//! `NextActions` and `DealHand` over a real server: the public next-line sample answered as
//! its expected file; hands played through the API alone (deal, what may come next, claims
//! arbitrated) replay without a finding with their seed; a forged deal is found; requests
//! that cannot be read are `INVALID_ARGUMENT` at their field.

use std::collections::BTreeSet;

use mahjong_referee::pb;
use mcr::play::Seed;

use crate::helpers::{details, fields, spawn_default};

fn corpus(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR")))
        .expect("corpus")
}

fn next_request(text: &str) -> pb::NextActionsRequest {
    pb::NextActionsRequest {
        record: Some(pb::next_actions_request::Record::BotzoneText(
            text.to_owned(),
        )),
        ..pb::NextActionsRequest::default()
    }
}

#[tokio::test]
async fn next_actions_answers_the_public_sample_as_its_expected_file() {
    let server = spawn_default().await;
    let mut client = server.client().await;
    let text = corpus("next-public.txt");
    let expected = corpus("next-public-expected.jsonl");
    let matches: Vec<&str> = text
        .split("\n\n")
        .filter(|m| !m.trim().is_empty())
        .collect();
    let expected: Vec<serde_json::Value> = expected
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(matches.len(), expected.len());
    assert!(matches.len() >= 600, "the whole sample");
    let mut phases = BTreeSet::new();
    for (m, want) in matches.iter().zip(&expected) {
        let got = client
            .next_actions(next_request(m))
            .await
            .unwrap_or_else(|e| panic!("{}: {e:?}", want["match"]))
            .into_inner();
        let phase = match pb::NextPhase::try_from(got.phase).expect("a phase") {
            pb::NextPhase::Unspecified => "unspecified",
            pb::NextPhase::Draw => "draw",
            pb::NextPhase::Act => "act",
            pb::NextPhase::Claim => "claim",
            pb::NextPhase::Over => "over",
        };
        phases.insert(phase);
        let id = &want["match"];
        assert_eq!(phase, want["phase"], "{id}");
        let lines: BTreeSet<&str> = got.next_lines.iter().map(String::as_str).collect();
        let want_lines: BTreeSet<&str> = want["next"]
            .as_array()
            .expect("next")
            .iter()
            .map(|l| l.as_str().expect("a line"))
            .collect();
        assert_eq!(lines, want_lines, "{id}");
        assert_eq!(
            got.replay.expect("the verdict so far").match_id,
            id.as_str().unwrap()
        );
        // Each seat with a decision is offered what its lines say, and nothing else.
        let offered: usize = got.decisions.iter().map(|d| d.actions.len()).sum();
        assert!(offered <= lines.len(), "{id}");
    }
    assert_eq!(phases.len(), 4, "every phase: {phases:?}");
}

/// A small generator for the bots' choices (the test needs no quality, only repeatability).
struct Choices(u64);

impl Choices {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        usize::try_from(self.0 % u64::try_from(n).expect("n")).expect("index")
    }
}

#[tokio::test]
async fn hands_played_through_the_api_alone_replay_without_a_finding() {
    let server = spawn_default().await;
    let mut client = server.client().await;
    let mut choices = Choices(0x5eed);
    let mut outcomes = BTreeSet::new(); // REPLAY_OUTCOME_WIN or _DRAW_GAME, never _NO_RESULT
    for hand in 0..12u8 {
        let seed = vec![hand; 32];
        let dealt = client
            .deal_hand(pb::DealHandRequest {
                seed: seed.clone(),
                prevalent_wind: pb::Wind::South as i32,
            })
            .await
            .expect("dealt")
            .into_inner();
        assert_eq!(dealt.commitment, Seed::new([hand; 32]).commitment());
        let mut record = pb::HandRecord {
            prevalent_wind: dealt.prevalent_wind,
            deal: dealt.deal,
            ..pb::HandRecord::default()
        };
        loop {
            let now = client
                .next_actions(pb::NextActionsRequest {
                    record: Some(pb::next_actions_request::Record::Structured(record.clone())),
                    seed: seed.clone(),
                    ..pb::NextActionsRequest::default()
                })
                .await
                .expect("next")
                .into_inner();
            let verdict = now.replay.as_ref().expect("the verdict so far");
            assert!(verdict.findings.is_empty(), "{:?}", verdict.findings);
            let event = |seat, option: &pb::LegalOption| pb::PlayEvent {
                seat,
                action: option.action,
                tile: option.tile,
                flower: option.flower,
                overridden: Vec::new(),
            };
            let win = |options: &[pb::LegalOption]| {
                options
                    .iter()
                    .position(|o| o.action == pb::PlayAction::Win as i32)
            };
            match pb::NextPhase::try_from(now.phase).expect("a phase") {
                pb::NextPhase::Over => break,
                pb::NextPhase::Unspecified => panic!("no phase"),
                pb::NextPhase::Act => {
                    let d = &now.decisions[0];
                    let i = win(&d.actions).unwrap_or_else(|| choices.below(d.actions.len()));
                    record.events.push(event(d.seat, &d.actions[i]));
                }
                pb::NextPhase::Draw | pb::NextPhase::Claim => {
                    // A win is always claimed; a chow, pung or kong one time in four, by the
                    // first seat offered one (claims among seats are ArbitrateClaims' to
                    // order, tested on their own).
                    let claim = now.decisions.iter().find_map(|d| {
                        let i = win(&d.actions).or_else(|| {
                            (choices.below(4) == 0).then(|| choices.below(d.actions.len()))
                        })?;
                        Some(event(d.seat, &d.actions[i]))
                    });
                    let draw = now.next_draw.expect("a draw or the draw game");
                    match claim {
                        Some(claim) => record.events.push(claim),
                        None if draw.draw_game => record.draw_game = true,
                        None => record.events.push(pb::PlayEvent {
                            seat: draw.seat,
                            action: pb::PlayAction::Draw as i32,
                            tile: draw.tile,
                            ..pb::PlayEvent::default()
                        }),
                    }
                }
            }
        }
        let replay = client
            .replay_hand(pb::ReplayHandRequest {
                record: Some(pb::replay_hand_request::Record::Structured(record.clone())),
                seed: seed.clone(),
                ..pb::ReplayHandRequest::default()
            })
            .await
            .expect("replayed")
            .into_inner();
        assert!(replay.findings.is_empty(), "{:?}", replay.findings);
        assert_ne!(replay.outcome, pb::ReplayOutcome::NoResult as i32);
        outcomes.insert(replay.outcome);
        // Replayed with another seed, the deal is not its: one finding a seat, at the deal.
        let forged = client
            .replay_hand(pb::ReplayHandRequest {
                record: Some(pb::replay_hand_request::Record::Structured(record)),
                seed: vec![hand.wrapping_add(100); 32],
                ..pb::ReplayHandRequest::default()
            })
            .await
            .expect("replayed")
            .into_inner();
        let codes: Vec<&str> = forged.findings.iter().map(|f| f.code.as_str()).collect();
        assert_eq!(codes, ["DEAL_NOT_FROM_SEED"; 4], "hand {hand}");
    }
    // Random bots rarely win (about one hand in 30 in examples/table.py, which CI runs for
    // 200 hands); the wins of the public sample are the first test's.
    assert!(!outcomes.is_empty());
}

#[tokio::test]
async fn deal_hand_is_the_published_deal() {
    let server = spawn_default().await;
    let mut client = server.client().await;
    let bytes: [u8; 32] = std::array::from_fn(|i| u8::try_from(i * 7).expect("byte"));
    let dealt = client
        .deal_hand(pb::DealHandRequest {
            seed: bytes.to_vec(),
            prevalent_wind: pb::Wind::Unspecified as i32,
        })
        .await
        .expect("dealt")
        .into_inner();
    let deal = Seed::new(bytes).deal();
    let tile = |t: mcr::Tile| i32::try_from(t.index() + 1).expect("tile");
    for (seat, d) in dealt.deal.iter().enumerate() {
        assert_eq!(d.seat, i32::try_from(seat + 1).expect("seat"));
        let want: Vec<i32> = deal.hands[mcr::Seat::ALL[seat]]
            .iter()
            .map(|&t| tile(t))
            .collect();
        assert_eq!(d.tiles, want, "seat {seat} in dealing order");
    }
    let wall: Vec<i32> = deal.wall.iter().map(|&t| tile(t)).collect();
    assert_eq!(dealt.wall, wall);
    assert_eq!(dealt.prevalent_wind, pb::Wind::East as i32);
    let header: Vec<&str> = dealt.botzone_text.lines().collect();
    assert_eq!(header.len(), 6);
    assert_eq!(header[0], format!("Match {}", dealt.commitment));
    assert_eq!(header[1], "Wind 0");
    // The header, with no event yet, is a hand whose dealer draws next, the seed's tile.
    let next = client
        .next_actions(pb::NextActionsRequest {
            seed: bytes.to_vec(),
            ..next_request(&dealt.botzone_text)
        })
        .await
        .expect("next")
        .into_inner();
    assert_eq!(next.phase, pb::NextPhase::Draw as i32);
    let draw = next.next_draw.expect("the dealer's draw");
    assert_eq!((draw.seat, draw.tile), (pb::Seat::East as i32, wall[0]));
}

#[tokio::test]
async fn requests_that_cannot_be_read_are_invalid_at_their_field() {
    let server = spawn_default().await;
    let mut client = server.client().await;
    let short = client
        .deal_hand(pb::DealHandRequest {
            seed: vec![1; 31],
            prevalent_wind: 9,
        })
        .await
        .expect_err("a seed of 31 bytes, a wind outside the enum");
    assert_eq!(short.code(), tonic::Code::InvalidArgument);
    let found: Vec<String> = fields(&details(&short)).into_iter().map(|f| f.0).collect();
    assert_eq!(found, ["seed", "prevalent_wind"]);
    let none = client
        .deal_hand(pb::DealHandRequest::default())
        .await
        .expect_err("no seed");
    assert_eq!(fields(&details(&none))[0].0, "seed");

    let first = corpus("next-public.txt");
    let first = first.split("\n\n").next().expect("a match");
    let long_seed = client
        .next_actions(pb::NextActionsRequest {
            seed: vec![0; 33],
            ..next_request(first)
        })
        .await
        .expect_err("a seed of 33 bytes");
    assert_eq!(fields(&details(&long_seed))[0].0, "seed");
    let no_record = client
        .next_actions(pb::NextActionsRequest::default())
        .await
        .expect_err("no record");
    assert_eq!(fields(&details(&no_record))[0].0, "record");
    // A seed with Botzone's per-seat walls cannot apply: at `seed`.
    let botzone_walls = client
        .next_actions(pb::NextActionsRequest {
            seed: vec![0; 32],
            overrides: Some(pb::RuleOverrides {
                wall: Some(pb::Wall::Botzone as i32),
                ..pb::RuleOverrides::default()
            }),
            ..next_request(first)
        })
        .await
        .expect_err("a seed on Botzone's walls");
    assert_eq!(fields(&details(&botzone_walls))[0].0, "seed");
    // A fifth copy dealt: the deal cannot be played, as for ReplayHand.
    let fifth = "Match x\nWind 0\nPlayer 0 Deal W1 W1 W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9\n\
                 Player 1 Deal B1 B2 B3 B4 B5 B6 B7 B8 B9 T1 T2 T3 T4\n\
                 Player 2 Deal B1 B2 B3 B4 B5 B6 B7 B8 B9 T1 T2 T3 T4\n\
                 Player 3 Deal B1 B2 B3 B4 B5 B6 B7 B8 B9 T1 T2 T3 T4\n";
    let unplayable = client
        .next_actions(next_request(fifth))
        .await
        .expect_err("a fifth copy");
    assert_eq!(unplayable.code(), tonic::Code::InvalidArgument);
    assert_eq!(fields(&details(&unplayable))[0].0, "botzone_text");
}
