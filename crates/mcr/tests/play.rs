//! The play referee on hands written for one rule each: Botzone's walls against the shared
//! wall, added kongs, claims on the last discard, false wins and the right to win, flowers,
//! and the pure transition.

use std::fmt::Write as _;

use mcr::play::botzone::read_match;
use mcr::play::{Consequence, PlayState, ReplayEnd, ReplayOptions, replay};
use mcr::ruleset::{AddedKongTile, LastDiscardClaims, WallRule};
use mcr::{Ruleset, Seat};

fn rules(wall: WallRule) -> Ruleset<'static> {
    let mut r = Ruleset::MIL;
    r.play.wall = wall;
    if wall == WallRule::Botzone {
        r.play.added_kong_tile = AddedKongTile::AnyHeld;
    }
    r
}

/// Replays a Botzone text; returns (line, code) of every finding, and the replay.
fn run(text: &str, rules: &Ruleset) -> (Vec<(usize, &'static str)>, mcr::play::Replay) {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let m = read_match(&lines).unwrap_or_else(|e| panic!("{e}"));
    let r = replay(&m.record, rules, ReplayOptions { snapshots: true });
    let found = r
        .findings
        .iter()
        .map(|v| (m.line_of(v.at), v.code.as_str()))
        .collect();
    (found, r)
}

const DEAL: &str = "Match t
Wind 0
Player 0 Deal B5 B5 B5 W1 W2 W3 W4 W5 W6 W7 W8 W9 T1
Player 1 Deal B5 F1 F1 F2 F2 F3 F3 F4 F4 J1 J1 J2 J2
Player 2 Deal T2 T2 T3 T3 T4 T4 T5 T5 T6 T6 T7 T7 T8
Player 3 Deal B1 B1 B2 B2 B3 B3 B4 B4 B6 B6 B7 B7 B8";

#[test]
fn an_added_kong_with_a_tile_held_since_earlier_is_botzone_only() {
    // East pungs South's B5 and adds the fourth, kept since the pung, after drawing J3.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/replay-added-kong-held.txt"
    ))
    .expect("the record");
    // Line 20 is the BuGang: the B5 was kept since the pung, the tile drawn is J3.
    let (found, _) = run(&text, &rules(WallRule::Shared136));
    assert_eq!(found[0], (20, "ADDED_KONG_NOT_DRAWN"), "{found:?}");
    let (found, r) = run(&text, &rules(WallRule::Botzone));
    assert_eq!(found, [(22, "HAND_NOT_ENDED")], "{found:?}");
    let east = &r.snapshots.last().unwrap().seats()[Seat::East];
    assert!(east.melds().iter().any(|m| m.is_kong()));
}

/// A hand with no win: every seat discards what it draws, except that West pungs East's
/// first discard. Returns the text and how many draws each seat made, ending with `Huang`
/// where the given wall says the hand ends: the shared wall after 84 draws; Botzone's when
/// the seat to draw has drawn its 21.
fn pung_then_discards(wall: WallRule) -> String {
    // The four walls as Botzone would split them, 34 tiles each: 13 dealt, 21 drawn. Seats
    // draw only from their own, so a deterministic sequence is enough.
    let kinds: Vec<String> = ["W", "B", "T"]
        .iter()
        .flat_map(|s| (1..=9).map(move |r| format!("{s}{r}")))
        .chain((1..=4).map(|r| format!("F{r}")))
        .chain((1..=3).map(|r| format!("J{r}")))
        .collect();
    // Each seat's wall holds the 34 kinds once, in order: 13 dealt (W1–W9, B1–B4), then
    // B5 first. West (seat 2) is given a pair of B5 for its pung of East's first draw: its
    // dealt W1 and W2 trade places with its own B5 and North's.
    let mut walls: Vec<Vec<String>> = (0..4).map(|_| kinds.clone()).collect();
    walls[2].swap(0, 13);
    let (w2, b5) = (walls[2][1].clone(), walls[3][13].clone());
    walls[2][1] = b5;
    walls[3][13] = w2;
    let mut out = String::from("Match w\nWind 0\n");
    for (s, w) in walls.iter().enumerate() {
        let _ = writeln!(out, "Player {s} Deal {}", w[..13].join(" "));
    }
    let mut drawn = [0usize; 4];
    let mut shared_left = 84usize;
    let mut seat = 0usize;
    let mut first = true;
    loop {
        let can_draw = match wall {
            WallRule::Botzone => drawn[seat] < 21,
            WallRule::Shared136 | WallRule::Shared144 => shared_left > 0,
        };
        if !can_draw {
            out.push_str("Huang\nScore 0 0 0 0\n");
            return out;
        }
        // Botzone: the seat's own wall; shared: the 84 tiles after the deal in one row.
        let tile = match wall {
            WallRule::Botzone => walls[seat][13 + drawn[seat]].clone(),
            WallRule::Shared136 | WallRule::Shared144 => {
                let k = 84 - shared_left;
                walls[k / 21][13 + k % 21].clone()
            }
        };
        drawn[seat] += 1;
        shared_left -= 1;
        let _ = write!(
            out,
            "Player {seat} Draw {tile}\nPlayer {seat} Play {tile}\n"
        );
        if first {
            first = false;
            let _ = writeln!(out, "Player 2 Peng {tile}");
            // West discards one of its dealt tiles other than the pung's.
            let other = walls[2][..13].iter().find(|t| **t != tile).unwrap().clone();
            let _ = writeln!(out, "Player 2 Play {other}");
            seat = 3;
            continue;
        }
        seat = (seat + 1) % 4;
    }
}

#[test]
fn botzone_walls_end_the_hand_when_the_seat_to_draw_has_none_left() {
    let botzone = pung_then_discards(WallRule::Botzone);
    let shared = pung_then_discards(WallRule::Shared136);
    assert_ne!(botzone, shared, "the pung makes the walls end differently");
    let (found, r) = run(&botzone, &rules(WallRule::Botzone));
    assert!(found.is_empty(), "{found:?}");
    assert_eq!(r.end, ReplayEnd::DrawGame);
    let (found, r) = run(&shared, &rules(WallRule::Shared136));
    assert!(found.is_empty(), "{found:?}");
    assert_eq!(r.end, ReplayEnd::DrawGame);
    // Each log read under the other wall is wrong at its end.
    let (found, r) = run(&botzone, &rules(WallRule::Shared136));
    assert!(
        !found.is_empty() && r.end == ReplayEnd::NoResult,
        "{found:?}"
    );
    let (found, r) = run(&shared, &rules(WallRule::Botzone));
    assert!(
        !found.is_empty() && r.end == ReplayEnd::NoResult,
        "{found:?}"
    );
}

#[test]
fn only_a_win_may_be_claimed_on_the_last_discard() {
    let shared = pung_then_discards(WallRule::Shared136);
    // Replace `Huang` by a pung of the last discard (West holds no pair of it: any claim
    // is refused before the tiles are looked at).
    let mut lines: Vec<&str> = shared.lines().collect();
    let huang = lines.iter().position(|l| *l == "Huang").unwrap();
    let last_discard = lines[huang - 1].rsplit(' ').next().unwrap().to_owned();
    let claimer = if lines[huang - 1].starts_with("Player 1") {
        3
    } else {
        1
    };
    let pung = format!("Player {claimer} Peng {last_discard}");
    lines.truncate(huang);
    lines.push(&pung);
    let text = lines.join("\n");
    let (found, _) = run(&text, &rules(WallRule::Shared136));
    assert_eq!(found[0], (huang + 1, "CLAIM_ON_LAST_DISCARD"), "{found:?}");
    let mut all = rules(WallRule::Shared136);
    all.play.last_discard_claims = LastDiscardClaims::All;
    let (found, _) = run(&text, &all);
    assert_ne!(found[0].1, "CLAIM_ON_LAST_DISCARD", "{found:?}");
}

#[test]
fn a_false_win_costs_the_right_to_win_and_its_penalty_and_play_goes_on() {
    let text = format!(
        "{DEAL}
Player 0 Draw J3
Player 0 Hu J3
Player 0 Play J3
Player 1 Draw B9
Player 1 Play B9
Player 2 Draw B9
Player 2 Play B9
Player 3 Draw B9
Player 3 Play B9
Player 0 Draw J3
Player 0 Hu J3"
    );
    let (found, r) = run(&text, &rules(WallRule::Shared136));
    assert_eq!(
        found,
        [
            (8, "FALSE_WIN"),
            (17, "WINNER_BARRED"),
            (17, "HAND_NOT_ENDED")
        ],
        "{found:?}"
    );
    assert_eq!(r.findings[0].consequence(), Consequence::LosesRightToWin);
    assert_eq!(r.false_wins.len(), 1);
    assert!(r.snapshots.last().unwrap().seats()[Seat::East].barred());
    // No result (the record ends early), so no points are settled.
    assert_eq!(r.end, ReplayEnd::NoResult);
}

#[test]
fn a_chow_from_across_the_table_costs_the_right_to_win() {
    let text = format!(
        "{DEAL}
Player 0 Draw T9
Player 0 Play W2
Player 1 Draw T9
Player 1 Play F1
Player 2 Draw T9
Player 2 Play T9"
    );
    // Player 0 chows West's (seat 2) T7? West discarded T9; East holds no T7/T8.
    let with_chow = format!("{text}\nPlayer 0 Chi T8");
    let (found, _) = run(&with_chow, &rules(WallRule::Shared136));
    assert_eq!(found[0], (13, "CHOW_WITHOUT_TILES"), "{found:?}");
    // Player 3 chows its left neighbour's (West) T9 with T7 T8: legal; player 1 could not.
    let text = format!(
        "{DEAL}
Player 0 Draw T9
Player 0 Play W1
Player 1 Draw T1
Player 1 Play T1
Player 2 Draw J3
Player 2 Play T8
Player 3 Chi T8"
    );
    let (found, _) = run(&text, &rules(WallRule::Shared136));
    assert_eq!(found[0], (13, "CHOW_WITHOUT_TILES"), "{found:?}");
    let text = format!(
        "{DEAL}
Player 0 Draw T9
Player 0 Play W1
Player 1 Draw T1
Player 1 Play T1
Player 2 Draw J3
Player 2 Play T8
Player 0 Chi W2"
    );
    let (found, _) = run(&text, &rules(WallRule::Shared136));
    assert_eq!(found[0], (13, "CHOW_INVALID"), "across suits: {found:?}");
    let text = format!(
        "{DEAL}
Player 0 Draw T9
Player 0 Play W1
Player 1 Draw T1
Player 1 Play J2
Player 3 Peng J2"
    );
    let (found, _) = run(&text, &rules(WallRule::Shared136));
    assert_eq!(found[0], (11, "PUNG_WITHOUT_PAIR"), "{found:?}");
    // East (seat 0) chows West's (seat 2) W4 with W3 W5: not from its left.
    let text = format!(
        "{DEAL}
Player 0 Draw J3
Player 0 Play J3
Player 1 Draw W4
Player 1 Play W4
Player 2 Draw W4
Player 2 Play W4
Player 0 Chi W4
Player 0 Play W4"
    );
    let (found, r) = run(&text, &rules(WallRule::Shared136));
    assert_eq!(found[0], (13, "CHOW_NOT_FROM_LEFT"), "{found:?}");
    assert!(r.snapshots.last().unwrap().seats()[Seat::East].barred());
}

#[test]
fn flowers_are_shown_replaced_and_counted_on_a_144_tile_wall() {
    let text = "Match f
Wind 0
Player 0 Deal B5 B5 B5 W1 W2 W3 W4 W5 W6 W7 W8 W9 H1
Player 1 Deal B5 F1 F1 F2 F2 F3 F3 F4 F4 J1 J1 J2 J2
Player 2 Deal T2 T2 T3 T3 T4 T4 T5 T5 T6 T6 T7 T7 T8
Player 3 Deal B1 B1 B2 B2 B3 B3 B4 B4 B6 B6 B7 B7 B8
Player 0 BuHua H1
Player 0 Draw T1
Player 0 Draw H2
Player 0 BuHua H2
Player 0 Draw J3
Player 0 Play J3";
    let (found, r) = run(text, &rules(WallRule::Shared144));
    assert_eq!(found, [(12, "HAND_NOT_ENDED")], "{found:?}");
    assert_eq!(
        r.snapshots.last().unwrap().seats()[Seat::East].flower_count(),
        2
    );
    let (found, _) = run(text, &rules(WallRule::Shared136));
    assert_eq!(found[0].1, "WALL_MISMATCH", "{found:?}");
}

#[test]
fn the_pure_transition_gives_what_apply_gives() {
    let text = pung_then_discards(WallRule::Shared136);
    let lines: Vec<&str> = text.lines().collect();
    let m = read_match(&lines).unwrap();
    let rules = rules(WallRule::Shared136);
    let mut state =
        PlayState::deal(rules.play, m.record.prevalent_wind, &m.record.deal, None).unwrap();
    for (i, event) in m.record.events.iter().enumerate() {
        let (next, effects) = state.next(i, event, &rules);
        let mut applied = state.clone();
        let mut effects_applied = mcr::play::Effects::default();
        applied.apply(i, event, &rules, &mut effects_applied);
        assert_eq!(next, applied);
        assert_eq!(effects, effects_applied);
        state = next;
    }
}

#[test]
fn a_claim_comes_with_what_it_leaves() {
    use mcr::analysis::Analysis;
    use mcr::notation::parse_tiles;
    use mcr::play::state::WallLeft;
    use mcr::play::{Action, Moment, Offer, SeatView, Wall, legal_actions_with_calls};
    use mcr::{Tile, Wind};
    let mut concealed = [0u8; 34];
    for t in parse_tiles("11m234567p789s5sE").unwrap() {
        concealed[t.index()] += 1;
    }
    let one = parse_tiles("1m").unwrap()[0];
    let mut visible = [0u8; 34];
    visible[one.index()] = 1;
    let view = SeatView {
        seat: Seat::South,
        prevalent_wind: Wind::East,
        concealed,
        melds: Vec::new(),
        flowers: 0,
        visible,
        wall: Wall::with_left(WallLeft::Shared(40)),
        barred: false,
        moment: Moment::Offered(Offer::Discard {
            tile: one,
            from: Seat::East,
        }),
    };
    let actions = legal_actions_with_calls(&view, &Ruleset::MIL);
    let pung = actions
        .iter()
        .find(|a| a.action == Action::Pung(one))
        .expect("a pung of 1m is offered");
    let call = pung.call.as_ref().expect("with its analysis");
    assert_eq!(call.hand.melds.len(), 1);
    assert_eq!(call.hand.standing.len(), 11);
    let Analysis::Drawn(drawn) = &call.analysis else {
        panic!("after a pung the seat discards: {:?}", call.analysis);
    };
    let east = Tile::EAST;
    let row = drawn
        .discards
        .iter()
        .find(|d| d.tile == east)
        .expect("discarding East");
    assert_eq!(row.after.distance.shanten, 0, "ready on 5s");
    let five = parse_tiles("5s").unwrap()[0];
    assert_eq!(
        row.after
            .waits
            .iter()
            .map(|w| w.tile)
            .collect::<Vec<Tile>>(),
        [five]
    );
    // South is East's right-hand neighbour: no chow of 1m (it holds no 2m 3m) — and the
    // seat across (West) could not chow at all.
    assert!(actions.iter().all(|a| !matches!(a.action, Action::Chow(_))));
    assert!(actions.iter().all(|a| a.call.is_some()
        == matches!(
            a.action,
            Action::Pung(_) | Action::Kong(_) | Action::Chow(_)
        )));
}
