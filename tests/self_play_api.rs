//! Self-play through the service's calls: the seeded hands of `self_play_support` (the
//! engine's self-play test drives the same players) choose only among what `LegalActions`
//! offers, settle several claims with `ArbitrateClaims`, and are written in Botzone's format
//! for `ReplayHand`, which must find nothing and agree on the winner, the fan and the points.
//! The calls are the service's handlers on proto messages, as the server runs them.

#[path = "../crates/mcr/tests/self_play_support/mod.rs"]
mod self_play_support;

use mahjong_referee::api::KeptRules;
use mahjong_referee::api::kit::hand::hand_to_pb;
use mahjong_referee::api::pb;
use mahjong_referee::api::play::{arbitrate_claims, legal_actions_of, replay_hand};
use mcr::play::botzone::write_match;
use mcr::play::state::WallLeft;
use mcr::play::{Action, ClaimMade, DrawKind, Drawn, Moment, Offer, SeatView};
use mcr::{HandInput, Seat, Tile};
use self_play_support::{Ended, Offered, Referee, Verdict, play};

fn tile_pb(t: Tile) -> i32 {
    i32::try_from(t.index() + 1).expect("tile")
}

fn seat_pb(s: Seat) -> i32 {
    i32::try_from(s.index() + 1).expect("seat")
}

fn tiles_of(counts: &[u8; 34]) -> Vec<i32> {
    Tile::ALL
        .iter()
        .flat_map(|&t| std::iter::repeat_n(tile_pb(t), usize::from(counts[t.index()])))
        .collect()
}

/// The view as a client sends it: what is in sight without the seat's own melds.
fn view_pb(view: &SeatView) -> pb::SeatView {
    let mut seen = view.visible;
    for m in view.melds.iter().filter(|m| m.is_claimed()) {
        for t in m.to_input().tiles {
            seen[t.index()] -= 1;
        }
    }
    let offered = |tile: Tile, from: Seat| pb::OfferedTile {
        tile: tile_pb(tile),
        from: seat_pb(from),
    };
    let moment = match view.moment {
        Moment::Drew { tile, kind } => pb::seat_view::Moment::Drew(pb::DrawnTile {
            tile: tile_pb(tile),
            after_kong: kind == DrawKind::AfterKong,
            after_flower: kind == DrawKind::AfterFlower,
        }),
        Moment::DrewFlower(f) => pb::seat_view::Moment::DrewFlower(u32::from(f.number())),
        Moment::Claimed => pb::seat_view::Moment::JustClaimed(true),
        Moment::Offered(Offer::Discard { tile, from }) => {
            pb::seat_view::Moment::Discard(offered(tile, from))
        }
        Moment::Offered(Offer::AddedKong { tile, from }) => {
            pb::seat_view::Moment::AddedKong(offered(tile, from))
        }
    };
    let WallLeft::Shared(left) = *view.wall.left() else {
        panic!("self-play uses the shared wall");
    };
    let melds = HandInput {
        melds: view.melds.iter().map(|m| m.to_input()).collect(),
        ..HandInput::default()
    };
    pb::SeatView {
        seat: seat_pb(view.seat),
        prevalent_wind: i32::try_from(Seat::from(view.prevalent_wind).index() + 1).unwrap(),
        concealed: tiles_of(&view.concealed),
        melds: hand_to_pb(&melds).melds,
        flower_count: u32::from(view.flowers),
        visible_tiles: tiles_of(&seen),
        moment: Some(moment),
        wall_left: u32::from(left),
        seat_walls_left: Vec::new(),
        barred: view.barred,
    }
}

fn action_of(kind: i32, tile: i32) -> Action {
    let t = Tile::ALL[usize::try_from(tile - 1).expect("a tile")];
    match pb::PlayAction::try_from(kind).expect("an action") {
        pb::PlayAction::Discard => Action::Discard(t),
        pb::PlayAction::Chow => Action::Chow(t),
        pb::PlayAction::Pung => Action::Pung(t),
        pb::PlayAction::Kong => Action::Kong(t),
        pb::PlayAction::ConcealedKong => Action::ConcealedKong(t),
        pb::PlayAction::AddedKong => Action::AddedKong(t),
        pb::PlayAction::Win => Action::Win(t),
        pb::PlayAction::Draw => Action::Draw(Drawn::Tile(t)),
        pb::PlayAction::Flower | pb::PlayAction::Unspecified => panic!("not offered here"),
    }
}

fn action_pb(a: Action) -> (i32, i32) {
    let (kind, t) = match a {
        Action::Chow(t) => (pb::PlayAction::Chow, t),
        Action::Pung(t) => (pb::PlayAction::Pung, t),
        Action::Kong(t) => (pb::PlayAction::Kong, t),
        Action::Win(t) => (pb::PlayAction::Win, t),
        Action::Discard(t) => (pb::PlayAction::Discard, t),
        Action::ConcealedKong(t) => (pb::PlayAction::ConcealedKong, t),
        Action::AddedKong(t) => (pb::PlayAction::AddedKong, t),
        Action::Draw(_) | Action::Flower(_) => panic!("not a claim"),
    };
    (kind as i32, tile_pb(t))
}

/// The service's handlers as referee.
struct Service;

impl Referee for Service {
    fn legal(&self, view: &SeatView) -> Vec<Offered> {
        let response = legal_actions_of(
            &pb::LegalActionsRequest {
                view: Some(view_pb(view)),
                ruleset: pb::Ruleset::Mil as i32,
                ..Default::default()
            },
            &KeptRules::default(),
        )
        .unwrap_or_else(|v| panic!("the view is valid: {v:?}"));
        response
            .actions
            .iter()
            .map(|a| Offered {
                action: action_of(a.action, a.tile),
                win: a.win.as_ref().map(|w| (w.fan_total, w.total)),
            })
            .collect()
    }

    fn arbitrate(&self, offer: Offer, claims: &[ClaimMade]) -> Verdict {
        let offered = pb::OfferedTile {
            tile: tile_pb(offer.tile()),
            from: seat_pb(offer.from()),
        };
        let offer = match offer {
            Offer::Discard { .. } => pb::arbitrate_claims_request::Offer::Discard(offered),
            Offer::AddedKong { .. } => pb::arbitrate_claims_request::Offer::AddedKong(offered),
        };
        let response = arbitrate_claims(
            &pb::ArbitrateClaimsRequest {
                offer: Some(offer),
                claims: claims
                    .iter()
                    .map(|c| {
                        let (action, tile) = action_pb(c.action);
                        pb::ClaimToArbitrate {
                            seat: seat_pb(c.seat),
                            action,
                            tile,
                            view: c.view.as_ref().map(view_pb),
                        }
                    })
                    .collect(),
                ruleset: pb::Ruleset::Mil as i32,
                overrides: None,
            },
            &KeptRules::default(),
        )
        .unwrap_or_else(|v| panic!("the claims are well formed: {v:?}"));
        let index = |i: u32| usize::try_from(i).expect("an index");
        Verdict {
            stands: response.stands.map(index),
            overridden: response.overridden.iter().map(|&i| index(i)).collect(),
            illegal: response.illegal.len(),
        }
    }
}

#[test]
fn hands_played_through_legal_actions_and_arbitrate_claims_replay_without_a_finding() {
    let mut wins = 0;
    for seed in 0..2_000 {
        let (table, ended) = play(seed, false, &Service);
        let text = write_match(&format!("self-{seed}"), &table.record(&ended), None);
        let r = replay_hand(
            &pb::ReplayHandRequest {
                record: Some(pb::replay_hand_request::Record::BotzoneText(text.clone())),
                ruleset: pb::Ruleset::Mil as i32,
                ..Default::default()
            },
            &KeptRules::default(),
        )
        .unwrap_or_else(|v| panic!("seed {seed}: {v:?}\n{text}"));
        assert!(
            r.findings.is_empty(),
            "seed {seed}: {:?}\n{text}",
            r.findings
        );
        let deltas: Vec<i64> = r.accounts.iter().map(|a| i64::from(a.delta)).collect();
        match ended {
            Ended::Win(seat, fan, scores) => {
                wins += 1;
                assert_eq!(r.winner, seat_pb(seat), "seed {seed}");
                assert_eq!(r.score.map(|s| s.fan_total), Some(fan), "seed {seed}");
                assert_eq!(deltas, scores, "seed {seed}");
            }
            Ended::DrawGame => {
                assert_eq!(r.outcome(), pb::ReplayOutcome::DrawGame, "seed {seed}");
            }
            Ended::Spliced(_) => unreachable!("no splice"),
        }
    }
    assert!(wins > 200, "{wins} wins");
}
