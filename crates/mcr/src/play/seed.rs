//! A deal anyone can verify: the 136 tiles shuffled by a stream drawn from a 32-byte seed,
//! dealt and walled the same way by every implementation (`docs/deal.md`).
//!
//! - The tiles in canonical order: the [`Tile`] order (1m…9m, 1p…9p, 1s…9s, E S W N, red,
//!   green, white), each four times in a row.
//! - The stream: block i = SHA-256(seed ‖ i as an 8-byte big-endian integer), i = 0, 1, …,
//!   read as consecutive 4-byte big-endian words.
//! - `uniform(n)`: the next word x; if x < 2³² − (2³² mod n), x mod n; else another word.
//! - The shuffle: for i from 135 down to 1, j = uniform(i + 1), swap t\[i\] and t\[j\].
//! - The deal: East t\[0..13), South t\[13..26), West t\[26..39), North t\[39..52); the wall
//!   t\[52..136) in drawing order, replacement draws from its end.
//!
//! The table publishes the commitment SHA-256(seed) before the hand and reveals the seed
//! after it. The shuffle covers the 136-tile wall only (no flowers).

use std::fmt;

use sha2::{Digest, Sha256};

use crate::seat::{BySeat, Seat};
use crate::tile::{Tile, Wind};

use super::record::{DEALT_TILES, Drawn, Record};

/// The tiles of a wall without flowers.
pub const SEEDED_TILES: usize = 136;
/// The tiles of the wall after the deal (136 − 4 × 13).
pub const SEEDED_WALL: usize = SEEDED_TILES - 4 * DEALT_TILES;

/// A 32-byte seed.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seed([u8; 32]);

/// Why text is not a seed.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("a seed is 64 hexadecimal digits (32 bytes); {0}")]
pub struct SeedError(String);

impl Seed {
    /// The seed of these bytes.
    pub const fn new(bytes: [u8; 32]) -> Seed {
        Seed(bytes)
    }

    /// The seed written as 64 hexadecimal digits (either case).
    pub fn from_hex(text: &str) -> Result<Seed, SeedError> {
        let digits = text.as_bytes();
        if digits.len() != 64 {
            return Err(SeedError(format!(
                "this has {} characters",
                text.chars().count()
            )));
        }
        let mut bytes = [0u8; 32];
        for (byte, pair) in bytes.iter_mut().zip(digits.chunks_exact(2)) {
            let (Some(high), Some(low)) = (hex_value(pair[0]), hex_value(pair[1])) else {
                return Err(SeedError(format!(
                    "`{}` is not a hexadecimal digit",
                    char::from(if hex_value(pair[0]).is_none() {
                        pair[0]
                    } else {
                        pair[1]
                    })
                )));
            };
            *byte = high << 4 | low;
        }
        Ok(Seed(bytes))
    }

    /// The bytes.
    pub const fn bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The commitment: SHA-256(seed), 64 lowercase hexadecimal digits.
    pub fn commitment(&self) -> String {
        hex(&Sha256::digest(self.0))
    }

    /// The 136 tiles shuffled, in dealing order.
    pub fn shuffled(&self) -> [Tile; SEEDED_TILES] {
        let mut t = [Tile::ALL[0]; SEEDED_TILES];
        for (i, tile) in t.iter_mut().enumerate() {
            *tile = Tile::ALL[i / 4];
        }
        let mut stream = Stream::new(self);
        for i in (1..SEEDED_TILES).rev() {
            // i + 1 ≤ 136, so both casts are exact.
            #[allow(clippy::cast_possible_truncation)]
            let j = stream.uniform(i as u32 + 1) as usize;
            t.swap(i, j);
        }
        t
    }

    /// The deal and the wall of this seed.
    pub fn deal(&self) -> SeededDeal {
        let t = self.shuffled();
        SeededDeal {
            hands: BySeat::new_with(|seat| {
                let start = seat.index() * DEALT_TILES;
                let mut hand = [Tile::ALL[0]; DEALT_TILES];
                hand.copy_from_slice(&t[start..start + DEALT_TILES]);
                hand
            }),
            wall: t[4 * DEALT_TILES..].to_vec(),
        }
    }
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Seed({})", hex(&self.0))
    }
}

/// What a seed deals: each seat's 13 tiles in dealing order, and the wall in drawing order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SeededDeal {
    /// Each seat's tiles, in dealing order.
    pub hands: BySeat<[Tile; DEALT_TILES]>,
    /// The 84 tiles of the wall, in drawing order (replacements from the end).
    pub wall: Vec<Tile>,
}

impl SeededDeal {
    /// The record of a hand dealt so, before its first event: the deal and the wall, under
    /// the prevalent wind `prevalent_wind` (it does not rotate the seats' slices).
    pub fn record(&self, prevalent_wind: Wind) -> Record {
        Record {
            prevalent_wind,
            deal: BySeat::new_with(|seat| {
                self.hands[seat].iter().map(|&t| Drawn::Tile(t)).collect()
            }),
            wall: Some(self.wall_drawn()),
            ..Record::default()
        }
    }

    /// The wall as a record gives it.
    pub fn wall_drawn(&self) -> Vec<Drawn> {
        self.wall.iter().map(|&t| Drawn::Tile(t)).collect()
    }

    /// Whether `seat` is dealt `tiles` by this seed, compared as a multiset.
    pub fn deals(&self, seat: Seat, tiles: &[Drawn]) -> bool {
        let mut counts = [0i16; 34];
        for t in &self.hands[seat] {
            counts[t.index()] += 1;
        }
        for d in tiles {
            match d {
                Drawn::Tile(t) => counts[t.index()] -= 1,
                Drawn::Flower(_) => return false,
            }
        }
        counts.iter().all(|&n| n == 0)
    }
}

/// The words of the stream: SHA-256(seed ‖ i) for i = 0, 1, …, 4 bytes at a time.
struct Stream<'a> {
    seed: &'a Seed,
    block: [u8; 32],
    next_block: u64,
    used: usize,
}

impl<'a> Stream<'a> {
    fn new(seed: &'a Seed) -> Stream<'a> {
        Stream {
            seed,
            block: [0; 32],
            next_block: 0,
            used: 32,
        }
    }

    fn word(&mut self) -> u32 {
        if self.used == 32 {
            let mut hasher = Sha256::new();
            hasher.update(self.seed.0);
            hasher.update(self.next_block.to_be_bytes());
            self.block.copy_from_slice(&hasher.finalize());
            self.next_block += 1;
            self.used = 0;
        }
        let w = &self.block[self.used..self.used + 4];
        self.used += 4;
        u32::from_be_bytes([w[0], w[1], w[2], w[3]])
    }

    /// A uniform integer below `n` (1 ≤ n), by rejection.
    fn uniform(&mut self, n: u32) -> u32 {
        let limit = (1u64 << 32) - (1u64 << 32) % u64::from(n);
        loop {
            let x = self.word();
            if u64::from(x) < limit {
                return x % n;
            }
        }
    }
}

const fn hex_value(digit: u8) -> Option<u8> {
    match digit {
        b'0'..=b'9' => Some(digit - b'0'),
        b'a'..=b'f' => Some(digit - b'a' + 10),
        b'A'..=b'F' => Some(digit - b'A' + 10),
        _ => None,
    }
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_is_64_hex_digits() {
        let seed = Seed::from_hex(&"0A".repeat(32)).unwrap();
        assert_eq!(seed.bytes(), &[10; 32]);
        assert!(Seed::from_hex(&"0".repeat(63)).is_err());
        assert!(Seed::from_hex(&"0".repeat(65)).is_err());
        let bad = Seed::from_hex(&format!("{}g", "0".repeat(63))).unwrap_err();
        assert!(bad.to_string().contains("`g`"), "{bad}");
        // A multi-byte character is not a digit, and not a panic.
        assert!(Seed::from_hex(&format!("é{}", "0".repeat(62))).is_err());
    }

    #[test]
    fn every_tile_four_times() {
        let deal = Seed::new([7; 32]).deal();
        let mut counts = [0u8; 34];
        for t in deal.hands.iter().flatten().chain(&deal.wall) {
            counts[t.index()] += 1;
        }
        assert!(counts.iter().all(|&n| n == 4));
        assert_eq!(deal.wall.len(), SEEDED_WALL);
    }
}
