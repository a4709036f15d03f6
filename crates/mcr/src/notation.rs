//! The common MCR calculator notation (RULES.md §0.2).
//!
//! `[123m]` chow, `[555p2]` pung claimed from seat 2 (1 left, 2 opposite, 3 right; no digit
//! means left), `[5555p]` concealed kong, `[5555p1]` melded kong, `[5555p5]` kong promoted
//! from a pung claimed from seat 1 (digit − 4); then the standing tiles, the winning tile
//! last. Suited tiles are digits followed by `m`, `p` or `s` (`123m`, `2m3p4s`); honours are
//! the letters `E S W N C F P`.

use std::fmt;

use crate::hand::{Claim, Hand, HandInput, KongExposure, Meld, MeldInput, MeldKind};
use crate::tile::{Suit, Tile};

/// Notation that cannot be parsed: where, what was expected, what was found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("at position {position}: expected {expected}, found {}", found.map_or_else(|| "end of input".to_owned(), |c| format!("`{c}`")))]
pub struct ParseHandError {
    /// Character position (0-based) of the problem.
    pub position: usize,
    /// What the parser expected there.
    pub expected: &'static str,
    /// The character found, or `None` at the end of the input.
    pub found: Option<char>,
}

struct Parser<'a> {
    chars: Vec<char>,
    pos: usize,
    _src: &'a str,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn error(&self, expected: &'static str) -> ParseHandError {
        ParseHandError {
            position: self.pos,
            expected,
            found: self.peek(),
        }
    }

    /// Reads tiles until `]` or the end; pending digits at a `]` are returned as the claim digit.
    fn tiles(&mut self, in_meld: bool) -> Result<(Vec<Tile>, Option<u8>), ParseHandError> {
        let mut tiles = Vec::new();
        let mut digits: Vec<(usize, u8)> = Vec::new();
        loop {
            match self.peek() {
                Some(c @ '0'..='9') => {
                    digits.push((self.pos, c as u8 - b'0'));
                    self.pos += 1;
                }
                Some(c @ ('m' | 'p' | 's')) => {
                    if digits.is_empty() {
                        return Err(self.error("a digit 1-9 before the suit letter"));
                    }
                    let suit = Suit::from_letter(c).unwrap_or(Suit::Characters);
                    for (at, d) in digits.drain(..) {
                        match Tile::numbered(suit, d) {
                            Some(t) => tiles.push(t),
                            None => {
                                return Err(ParseHandError {
                                    position: at,
                                    expected: "a rank 1-9",
                                    found: Some(char::from(b'0' + d)),
                                });
                            }
                        }
                    }
                    self.pos += 1;
                }
                Some(c @ ('E' | 'S' | 'W' | 'N' | 'C' | 'F' | 'P')) => {
                    if !digits.is_empty() {
                        return Err(self.error("a suit letter m, p or s after the digits"));
                    }
                    tiles.extend(Tile::honor_from_letter(c));
                    self.pos += 1;
                }
                Some(' ') if !in_meld => self.pos += 1,
                Some(']') if in_meld => break,
                None if !in_meld => break,
                Some('[') if !in_meld => {
                    return Err(self.error("standing tiles (melds come first)"));
                }
                _ => {
                    return Err(self.error(if in_meld {
                        "a tile, a claim digit or `]`"
                    } else {
                        "a tile (1-9 with m/p/s, or E S W N C F P)"
                    }));
                }
            }
        }
        let claim = match digits.as_slice() {
            [] => None,
            [(_, d)] if in_meld => Some(*d),
            [(at, _), ..] => {
                return Err(ParseHandError {
                    position: *at,
                    expected: if in_meld {
                        "a single claim digit before `]`"
                    } else {
                        "a suit letter m, p or s"
                    },
                    found: self.chars.get(*at).copied(),
                });
            }
        };
        Ok((tiles, claim))
    }
}

/// Parses notation into a hand as declared (not yet validated).
pub fn parse_hand(src: &str) -> Result<HandInput, ParseHandError> {
    let mut p = Parser {
        chars: src.trim_end().chars().collect(),
        pos: 0,
        _src: src,
    };
    while p.peek() == Some(' ') {
        p.pos += 1;
    }
    let mut melds = Vec::new();
    while p.peek() == Some('[') {
        p.pos += 1;
        let start = p.pos;
        let (tiles, claim) = p.tiles(true)?;
        p.pos += 1; // the `]`
        if tiles.is_empty() {
            return Err(ParseHandError {
                position: start,
                expected: "meld tiles",
                found: Some(']'),
            });
        }
        melds.push(meld_from(tiles, claim).ok_or(ParseHandError {
            position: p.pos - 2,
            expected: "a claim digit 1-3 (or 5-7 for a promoted kong)",
            found: p.chars.get(p.pos - 2).copied(),
        })?);
        while p.peek() == Some(' ') {
            p.pos += 1;
        }
    }
    let (mut standing, _) = p.tiles(false)?;
    let winning_tile = standing.pop();
    if winning_tile.is_none() {
        return Err(p.error("standing tiles ending with the winning tile"));
    }
    Ok(HandInput {
        melds,
        standing,
        winning_tile,
    })
}

/// Builds a meld from its tiles and claim digit; `None` if the digit does not fit the meld.
fn meld_from(tiles: Vec<Tile>, claim: Option<u8>) -> Option<MeldInput> {
    let same = tiles.iter().all(|&t| t == tiles[0]);
    let n = tiles.len();
    let (kind, claimed_from, promoted) = if same && n >= 4 {
        match claim {
            None => (MeldKind::ConcealedKong, None, false),
            Some(d @ 1..=3) => (MeldKind::Kong, Claim::from_digit(d), false),
            Some(d @ 5..=7) => (MeldKind::Kong, Claim::from_digit(d - 4), true),
            Some(_) => return None,
        }
    } else if same && n == 3 {
        match claim {
            None => (MeldKind::Pung, None, false),
            Some(d @ 1..=3) => (MeldKind::Pung, Claim::from_digit(d), false),
            Some(_) => return None,
        }
    } else {
        match claim {
            None => (MeldKind::Chow, None, false),
            Some(d @ 1..=3) => (MeldKind::Chow, Claim::from_digit(d), false),
            Some(_) => return None,
        }
    };
    Some(MeldInput {
        kind,
        tiles,
        claimed_from,
        promoted,
    })
}

/// Parses a plain run of tiles (`123m45pEE`), for tests and command-line tools.
pub fn parse_tiles(src: &str) -> Result<Vec<Tile>, ParseHandError> {
    let mut p = Parser {
        chars: src.chars().collect(),
        pos: 0,
        _src: src,
    };
    p.tiles(false).map(|(t, _)| t)
}

/// Writes tiles compactly: consecutive numbered tiles of one suit share the suit letter.
pub fn write_tiles(out: &mut String, tiles: &[Tile]) {
    write_tile_run(out, tiles.iter().copied());
}

/// Somewhere notation is written to, one ASCII character at a time: a `String`, or the
/// bytes of a message being encoded.
pub trait NotationSink {
    /// Appends the ASCII character `byte`.
    fn put(&mut self, byte: u8);
}

impl NotationSink for String {
    fn put(&mut self, byte: u8) {
        self.push(char::from(byte));
    }
}

impl NotationSink for Vec<u8> {
    fn put(&mut self, byte: u8) {
        self.push(byte);
    }
}

/// Each tile's notation as bytes: its rank digit or honour letter, and its suit letter (0
/// for an honour, which has none). Read from [`Tile::rank`], [`Suit::letter`] and
/// [`Tile::honor_letter`], all ASCII.
const TILE_TEXT: [(u8, u8); 34] = {
    let mut text = [(0, 0); 34];
    let mut i = 0;
    while i < 34 {
        let t = Tile::ALL[i];
        text[i] = match (t.rank(), t.suit(), t.honor_letter()) {
            (Some(rank), Some(suit), _) => (b'0' + rank, ascii(suit.letter())),
            (_, _, Some(letter)) => (ascii(letter), 0),
            _ => (0, 0),
        };
        i += 1;
    }
    text
};

/// An ASCII character as its byte.
const fn ascii(c: char) -> u8 {
    // Notation letters are ASCII: the cast keeps them.
    #[allow(clippy::cast_possible_truncation)]
    let byte = c as u8;
    byte
}

/// Writes tiles in the order given: consecutive suited tiles of one suit share their letter.
/// Pushes characters directly (no formatting machinery: this runs for every scored hand).
fn write_tile_run(out: &mut impl NotationSink, tiles: impl IntoIterator<Item = Tile>) {
    // The suit letter owed to the digits written since the last letter, or 0.
    let mut pending = 0;
    for t in tiles {
        let (symbol, suit) = TILE_TEXT[t.index()];
        if pending != 0 && pending != suit {
            out.put(pending);
        }
        out.put(symbol);
        pending = suit;
    }
    if pending != 0 {
        out.put(pending);
    }
}

/// Writes a meld's claim digit, if its notation has one.
fn push_digit(out: &mut impl NotationSink, digit: Option<u8>) {
    if let Some(d) = digit {
        out.put(b'0' + d);
    }
}

/// Prints a hand in notation (melds, standing tiles, winning tile last).
pub fn format_hand(hand: &HandInput) -> String {
    let mut out = String::with_capacity(32);
    for m in &hand.melds {
        out.push('[');
        write_tiles(&mut out, &m.tiles);
        // A melded kong always carries a digit (no digit means concealed); a source that was
        // not stated is written as the left player's, the notation's own default.
        let digit = match (m.kind, m.claimed_from, m.promoted) {
            (MeldKind::ConcealedKong, _, _) | (MeldKind::Chow | MeldKind::Pung, None, _) => None,
            (MeldKind::Kong, from, true) => Some(from.unwrap_or(Claim::Left).digit() + 4),
            (MeldKind::Kong, from, false) => Some(from.unwrap_or(Claim::Left).digit()),
            (MeldKind::Chow | MeldKind::Pung, Some(c), _) => Some(c.digit()),
        };
        push_digit(&mut out, digit);
        out.push(']');
    }
    write_tile_run(
        &mut out,
        hand.standing.iter().copied().chain(hand.winning_tile),
    );
    out
}

/// The canonical notation of a validated hand: the melds as declared (a chow without a claim
/// digit, since it always comes from the left; a melded kong whose source is not known as
/// claimed from the left, the notation's default), the standing tiles sorted, the winning
/// tile last. Hands that differ only in the order of their standing tiles print the same.
pub fn format_canonical(hand: &Hand) -> String {
    let mut out = String::with_capacity(32);
    write_canonical(&mut out, hand);
    out
}

/// Appends the canonical notation of a validated hand ([`format_canonical`]) to `out`.
pub fn write_canonical(out: &mut impl NotationSink, hand: &Hand) {
    for &meld in hand.melds() {
        out.put(b'[');
        let digit = match meld {
            Meld::Chow { first } => {
                let second = first.succ();
                let third = second.and_then(Tile::succ);
                write_tile_run(out, [Some(first), second, third].into_iter().flatten());
                None
            }
            Meld::Pung { tile, from } => {
                write_tile_run(out, [tile; 3]);
                from.map(Claim::digit)
            }
            Meld::Kong { tile, exposure } => {
                write_tile_run(out, [tile; 4]);
                match exposure {
                    KongExposure::Concealed => None,
                    KongExposure::Direct(from) => Some(from.unwrap_or(Claim::Left).digit()),
                    KongExposure::Promoted(from) => Some(from.unwrap_or(Claim::Left).digit() + 4),
                }
            }
        };
        push_digit(out, digit);
        out.put(b']');
    }
    let mut standing = [Tile::ALL[0]; 13];
    let standing = &mut standing[..hand.standing().len()];
    standing.copy_from_slice(hand.standing());
    standing.sort_unstable();
    write_tile_run(out, standing.iter().copied().chain([hand.winning_tile()]));
}

/// Displays a hand in notation.
#[derive(Debug)]
pub struct Notation<'a>(pub &'a HandInput);

impl fmt::Display for Notation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_hand(self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_corpus_example() {
        let h = parse_hand("[SSS2][456s][111s3][789s]6s6s").unwrap();
        assert_eq!(h.melds.len(), 4);
        assert_eq!(h.melds[0].kind, MeldKind::Pung);
        assert_eq!(h.melds[0].claimed_from, Some(Claim::Opposite));
        assert_eq!(h.melds[1].kind, MeldKind::Chow);
        assert_eq!(h.standing, vec!["6s".parse().unwrap()]);
        assert_eq!(h.winning_tile, Some("6s".parse().unwrap()));
    }

    #[test]
    fn kongs() {
        let h = parse_hand("[5555p][6666m1][7777s6]EE5s5s").unwrap();
        assert_eq!(h.melds[0].kind, MeldKind::ConcealedKong);
        assert_eq!(
            (
                h.melds[1].kind,
                h.melds[1].claimed_from,
                h.melds[1].promoted
            ),
            (MeldKind::Kong, Some(Claim::Left), false)
        );
        assert_eq!(
            (
                h.melds[2].kind,
                h.melds[2].claimed_from,
                h.melds[2].promoted
            ),
            (MeldKind::Kong, Some(Claim::Opposite), true)
        );
        assert_eq!(format_hand(&h), "[5555p][6666m1][7777s6]EE55s");
        assert_eq!(parse_hand(&format_hand(&h)).unwrap(), h);
    }

    #[test]
    fn a_melded_kong_without_a_stated_source_is_never_printed_as_concealed() {
        let mut h = parse_hand("[5555p1]123m123s11pEE").unwrap();
        h.melds[0].claimed_from = None;
        let again = parse_hand(&format_hand(&h)).unwrap();
        assert_eq!(again.melds[0].kind, MeldKind::Kong);
        assert_eq!(again.melds[0].claimed_from, Some(Claim::Left));
    }

    #[test]
    fn errors_say_where_and_what() {
        let e = parse_hand("123m45x").unwrap_err();
        assert_eq!((e.position, e.found), (6, Some('x')));
        let e = parse_hand("[123m9]45m").unwrap_err();
        assert_eq!(e.expected, "a claim digit 1-3 (or 5-7 for a promoted kong)");
        let e = parse_hand("123").unwrap_err();
        assert_eq!(e.position, 0);
        let e = parse_hand("").unwrap_err();
        assert_eq!(e.found, None);
        let e = parse_hand("[123m").unwrap_err();
        assert_eq!(e.found, None);
        assert!(e.to_string().contains("end of input"));
    }
}
