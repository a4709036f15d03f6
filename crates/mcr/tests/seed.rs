//! The seeded deal (`docs/deal.md`): the engine agrees with a second, deliberately naive
//! implementation of the published algorithm written here from its text on 1,000 seeds, and
//! with two seeds worked out independently (Python's `hashlib`, `scripts/deal.py`); a record
//! dealt from a seed replays with it, and a forged deal or draw is found at its line.

use mcr::play::botzone::{next_lines, read_match};
use mcr::play::{
    NextOptions, NextPhase, PlayCode, ReplayOptions, Seed, next_actions, replay, replay_seeded,
};
use mcr::ruleset::{AddedKongTile, WallRule};
use mcr::{Ruleset, Seat, Tile};
use std::fmt::Write as _;

use sha2::{Digest, Sha256};

/// The algorithm as `docs/deal.md` writes it, as plainly as possible: tile kinds 0–33.
fn reference(seed: &[u8; 32]) -> (Vec<Vec<usize>>, Vec<usize>) {
    let mut words: Vec<u32> = Vec::new();
    let mut next_word = 0;
    let mut word = || {
        if next_word == words.len() {
            let block_index = (words.len() / 8) as u64;
            let mut input = seed.to_vec();
            input.extend_from_slice(&block_index.to_be_bytes());
            let block = Sha256::digest(&input);
            for k in 0..8 {
                words.push(u32::from_be_bytes([
                    block[4 * k],
                    block[4 * k + 1],
                    block[4 * k + 2],
                    block[4 * k + 3],
                ]));
            }
        }
        next_word += 1;
        words[next_word - 1]
    };
    let mut t: Vec<usize> = (0..136).map(|k| k / 4).collect();
    for i in (1..=135usize).rev() {
        let n = (i + 1) as u64;
        let j = loop {
            let x = u64::from(word());
            if x < (1u64 << 32) - ((1u64 << 32) % n) {
                break usize::try_from(x % n).expect("below 136");
            }
        };
        t.swap(i, j);
    }
    let hands = (0..4).map(|s| t[13 * s..13 * s + 13].to_vec()).collect();
    (hands, t[52..].to_vec())
}

fn seed_number(k: u32) -> [u8; 32] {
    Sha256::digest(format!("seed {k}").as_bytes()).into()
}

#[test]
fn the_deal_agrees_with_a_naive_reference_on_1000_seeds() {
    for k in 0..1000 {
        let bytes = seed_number(k);
        let deal = Seed::new(bytes).deal();
        let (hands, wall) = reference(&bytes);
        for seat in Seat::ALL {
            let got: Vec<usize> = deal.hands[seat].iter().map(|t| t.index()).collect();
            assert_eq!(got, hands[seat.index()], "seed {k}, {seat}");
        }
        let got: Vec<usize> = deal.wall.iter().map(|t| t.index()).collect();
        assert_eq!(got, wall, "seed {k}: the wall");
        let commitment = Sha256::digest(bytes)
            .iter()
            .fold(String::new(), |mut hex, b| {
                let _ = write!(hex, "{b:02x}");
                hex
            });
        assert_eq!(Seed::new(bytes).commitment(), commitment);
    }
}

fn codes(tiles: &[Tile]) -> String {
    tiles.iter().map(|t| t.code()).collect::<Vec<_>>().join(" ")
}

/// Worked out with Python's `hashlib` (`scripts/deal.py`), not with this crate.
#[test]
fn two_seeds_pinned() {
    let zero = Seed::from_hex(&"00".repeat(32)).unwrap();
    assert_eq!(
        zero.commitment(),
        "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    );
    let deal = zero.deal();
    assert_eq!(
        codes(&deal.hands[Seat::East]),
        "J3 W4 B1 W5 W4 T7 J1 W2 B6 W9 T4 W6 F1"
    );
    assert_eq!(
        codes(&deal.hands[Seat::North]),
        "W1 F4 T1 W2 W3 W8 W3 B4 W6 W5 T3 F3 T4"
    );
    assert_eq!(codes(&deal.wall[..6]), "W9 B2 T9 B9 J2 W2");
    assert_eq!(codes(&deal.wall[80..]), "B4 F2 W9 T6");

    let counting =
        Seed::from_hex("000102030405060708090A0B0C0D0E0F101112131415161718191a1b1c1d1e1f").unwrap();
    assert_eq!(
        counting.commitment(),
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    );
    let deal = counting.deal();
    assert_eq!(
        codes(&deal.hands[Seat::South]),
        "J2 W9 W8 F4 T1 T1 T6 F2 J2 T5 B7 B9 W4"
    );
    assert_eq!(
        codes(&deal.hands[Seat::West]),
        "B2 B3 T7 T7 W5 F2 F1 B4 W6 W3 T8 T4 B9"
    );
    assert_eq!(codes(&deal.wall[..4]), "W3 F4 W7 W5");
    assert_eq!(codes(&deal.wall[80..]), "B1 F4 W5 W1");
}

/// The seed's deal and eight turns of draw-and-discard the tile drawn, in Botzone's format.
fn dealt_record(seed: &Seed) -> Vec<String> {
    let deal = seed.deal();
    let mut lines = vec!["Match seeded".to_owned(), "Wind 0".to_owned()];
    for seat in Seat::ALL {
        lines.push(format!(
            "Player {} Deal {}",
            seat.index(),
            codes(&deal.hands[seat])
        ));
    }
    for (turn, tile) in deal.wall[..8].iter().enumerate() {
        let p = turn % 4;
        lines.push(format!("Player {p} Draw {}", tile.code()));
        lines.push(format!("Player {p} Play {}", tile.code()));
    }
    lines
}

fn codes_at(lines: &[String], seed: &Seed) -> Vec<(usize, PlayCode)> {
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let m = read_match(&lines).unwrap();
    let r = replay_seeded(&m.record, &Ruleset::MIL, ReplayOptions::default(), seed).unwrap();
    r.findings
        .iter()
        .map(|v| (m.line_of(v.at), v.code))
        .collect()
}

#[test]
fn a_dealt_hand_replays_with_its_seed_and_forgeries_are_found_at_their_line() {
    let seed = Seed::new(seed_number(7));
    let lines = dealt_record(&seed);
    let end = lines.len();
    // Nothing but the end of the record, which stops early.
    assert_eq!(codes_at(&lines, &seed), [(end, PlayCode::HandNotEnded)]);

    // Another seed: every seat's deal differs, and the hand stops there.
    let other = Seed::new(seed_number(8));
    let found = codes_at(&lines, &other);
    assert_eq!(
        found,
        [3, 4, 5, 6].map(|l| (l, PlayCode::DealNotFromSeed)),
        "{found:?}"
    );

    // East and South swap their first dealt tile (when they differ): those two seats.
    let deal = seed.deal();
    let (east, south) = (deal.hands[Seat::East][0], deal.hands[Seat::South][0]);
    assert_ne!(east, south, "pick another seed");
    let mut forged = lines.clone();
    forged[2] = forged[2].replacen(&east.code(), &south.code(), 1);
    forged[3] = forged[3].replacen(&south.code(), &east.code(), 1);
    assert_eq!(
        codes_at(&forged, &seed),
        [
            (3, PlayCode::DealNotFromSeed),
            (4, PlayCode::DealNotFromSeed)
        ]
    );
    // A forgery that also makes a fifth copy, or a fourteenth tile: still that finding alone.
    let copies = |t: Tile| -> usize {
        lines[2..6]
            .iter()
            .map(|line| line.split(' ').filter(|w| *w == t.code()).count())
            .sum()
    };
    let most = Tile::ALL.into_iter().max_by_key(|&t| copies(t)).unwrap();
    let mut missing = 5 - copies(most);
    let east_words: Vec<String> = lines[2]
        .split(' ')
        .enumerate()
        .map(|(i, w)| {
            if i >= 3 && missing > 0 && w != most.code() {
                missing -= 1;
                most.code()
            } else {
                w.to_owned()
            }
        })
        .collect();
    let mut forged = lines.clone();
    forged[2] = east_words.join(" ");
    assert_eq!(codes_at(&forged, &seed), [(3, PlayCode::DealNotFromSeed)]);
    let unseeded: Vec<&str> = forged.iter().map(String::as_str).collect();
    let plain = replay(
        &read_match(&unseeded).unwrap().record,
        &Ruleset::MIL,
        ReplayOptions::default(),
    );
    assert_eq!(plain.findings[0].code, PlayCode::TileCopiesExceeded);
    let mut forged = lines.clone();
    forged[5].push_str(" W1");
    assert_eq!(codes_at(&forged, &seed), [(6, PlayCode::DealNotFromSeed)]);
    // The same deal read in another order is the same deal.
    let mut reordered = lines.clone();
    let mut words: Vec<&str> = lines[2].split(' ').collect();
    words[3..].reverse();
    reordered[2] = words.join(" ");
    assert_eq!(codes_at(&reordered, &seed), [(end, PlayCode::HandNotEnded)]);

    // West draws (line 11) a tile other than the wall's next: WALL_MISMATCH there.
    let drawn = deal.wall[2];
    let wrong = Tile::ALL.into_iter().find(|&t| t != drawn).unwrap();
    let mut forged = lines.clone();
    forged[10] = format!("Player 2 Draw {}", wrong.code());
    forged[11] = format!("Player 2 Play {}", wrong.code());
    assert_eq!(codes_at(&forged, &seed)[0], (11, PlayCode::WallMismatch));
    // Without the seed the same draw is no finding.
    let forged: Vec<&str> = forged.iter().map(String::as_str).collect();
    let m = read_match(&forged).unwrap();
    let plain = replay(&m.record, &Ruleset::MIL, ReplayOptions::default());
    assert_eq!(plain.findings.len(), 1, "{:?}", plain.findings);
}

#[test]
fn a_seed_applies_to_one_shared_136_tile_wall_only() {
    let seed = Seed::new(seed_number(1));
    let lines = dealt_record(&seed);
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let m = read_match(&lines).unwrap();
    for wall in [WallRule::Botzone, WallRule::Shared144] {
        let mut rules = Ruleset::MIL;
        rules.play.wall = wall;
        rules.play.added_kong_tile = AddedKongTile::AnyHeld;
        let e = replay_seeded(&m.record, &rules, ReplayOptions::default(), &seed).unwrap_err();
        assert_eq!(e.path.to_string(), "seed", "{e:?}");
    }
    // A record that carries its own wall: the seed's is accepted, another is an error.
    let mut record = m.record.clone();
    record.wall = Some(seed.deal().wall_drawn());
    assert!(replay_seeded(&record, &Ruleset::MIL, ReplayOptions::default(), &seed).is_ok());
    record.wall.as_mut().unwrap().swap(0, 1);
    let e = replay_seeded(&record, &Ruleset::MIL, ReplayOptions::default(), &seed).unwrap_err();
    assert_eq!(e.path.to_string(), "seed");
}

/// With the seed, what comes next names the tile of the next draw, and a forged deal ends
/// the hand.
#[test]
fn next_actions_with_the_seed_know_the_next_draw() {
    let seed = Seed::new(seed_number(7));
    let mut lines = dealt_record(&seed);
    lines.pop(); // North's discard: North's draw is the last line
    let wall = seed.deal().wall;
    let read = |lines: &[String]| {
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        read_match(&lines).unwrap().record
    };
    let options = NextOptions {
        seed: Some(seed),
        ..NextOptions::default()
    };
    let next = next_actions(&read(&lines), &Ruleset::MIL, &options).unwrap();
    assert_eq!(next.phase, NextPhase::Act);
    lines.push(format!("Player 3 Play {}", wall[7].code()));
    let next = next_actions(&read(&lines), &Ruleset::MIL, &options).unwrap();
    assert_eq!(next.phase, NextPhase::Claim);
    let pass = format!("Player 0 Draw {}", wall[8].code());
    assert!(next_lines(&next).contains(&pass), "{:?}", next_lines(&next));
    assert!(next.findings().is_empty());
    let plain = next_actions(&read(&lines), &Ruleset::MIL, &NextOptions::default()).unwrap();
    assert!(next_lines(&plain).contains(&"Player 0 Draw".to_owned()));

    let other = NextOptions {
        seed: Some(Seed::new(seed_number(8))),
        ..NextOptions::default()
    };
    let next = next_actions(&read(&lines), &Ruleset::MIL, &other).unwrap();
    assert_eq!(next.phase, NextPhase::Over);
    assert!(next_lines(&next).is_empty());
    assert_eq!(next.findings().len(), 4);
    assert!(
        next.findings()
            .iter()
            .all(|v| v.code == PlayCode::DealNotFromSeed)
    );
}
