//! Hand notation (docs/notation.md): the common MCR calculator syntax and the forms other
//! tools write, read by one grammar that never guesses.
//!
//! Declared melds come first, each in brackets, then the standing tiles, the winning tile
//! last. A tile is a digit followed by its suit letter (`123m` characters, `123p` dots,
//! `123s` bamboo, `1234567z` honours in the riichi order E S W N white green red), an honour
//! letter (`E S W N`, `C F P` for red, green, white) or a Unicode mahjong glyph
//! (U+1F000–U+1F021, a variation selector after it ignored). Whitespace is ignored anywhere.
//!
//! A meld may end with one digit, written straight after its tiles or after a comma
//! (`[123m,1]`). Its meaning depends on the meld, which the tiles decide:
//! - a chow (tiles not all the same): the claimed tile, 1st, 2nd or 3rd as written;
//! - a pung: the seat it was claimed from (1 left, 2 opposite, 3 right);
//! - four of a kind: no digit a concealed kong, 1–3 a melded kong claimed from that seat,
//!   5–7 a kong promoted from a pung claimed from seat digit − 4.

use std::fmt;

use crate::hand::{Claim, Hand, HandInput, KongExposure, Meld, MeldInput, MeldKind};
use crate::tile::{Suit, Tile};

/// Notation that cannot be parsed: where, what was expected, what was found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("at position {position}: expected {expected}, found {}", found.map_or_else(|| "end of input".to_owned(), |c| format!("`{c}`")))]
pub struct ParseHandError {
    /// Character position (0-based, whitespace included) of the problem.
    pub position: usize,
    /// What the parser expected there.
    pub expected: &'static str,
    /// The character found, or `None` at the end of the input.
    pub found: Option<char>,
}

/// The first glyph of the Unicode mahjong tiles (🀀, the east wind).
const FIRST_GLYPH: u32 = 0x1F000;

/// The tile of a Unicode mahjong glyph: U+1F000–U+1F006 east, south, west, north, red,
/// green, white; U+1F007–U+1F00F 1–9 characters; U+1F010–U+1F018 1–9 bamboo;
/// U+1F019–U+1F021 1–9 dots. `None` for any other character (flowers and seasons too).
fn tile_of_glyph(c: char) -> Option<Tile> {
    let offset = u32::from(c).checked_sub(FIRST_GLYPH)?;
    let offset = u8::try_from(offset).ok()?;
    match offset {
        0..=6 => Tile::honor_from_letter(['E', 'S', 'W', 'N', 'C', 'F', 'P'][usize::from(offset)]),
        7..=15 => Tile::numbered(Suit::Characters, offset - 6),
        16..=24 => Tile::numbered(Suit::Bamboo, offset - 15),
        25..=33 => Tile::numbered(Suit::Dots, offset - 24),
        _ => None,
    }
}

/// The Unicode mahjong glyph of a tile (the inverse of `tile_of_glyph`).
pub fn glyph(tile: Tile) -> char {
    let offset = match (tile.suit(), tile.rank(), tile.honor_letter()) {
        (Some(Suit::Characters), Some(rank), _) => 6 + u32::from(rank),
        (Some(Suit::Bamboo), Some(rank), _) => 15 + u32::from(rank),
        (Some(Suit::Dots), Some(rank), _) => 24 + u32::from(rank),
        (_, _, Some('E')) => 0,
        (_, _, Some('S')) => 1,
        (_, _, Some('W')) => 2,
        (_, _, Some('N')) => 3,
        (_, _, Some('C')) => 4,
        (_, _, Some('F')) => 5,
        _ => 6,
    };
    char::from_u32(FIRST_GLYPH + offset).unwrap_or('\u{1F02B}')
}

/// The honour written `Nz` (riichi order: E S W N, then white, green, red).
fn honor_of_z(rank: u8) -> Option<Tile> {
    let letter = match rank {
        1 => 'E',
        2 => 'S',
        3 => 'W',
        4 => 'N',
        5 => 'P',
        6 => 'F',
        7 => 'C',
        _ => return None,
    };
    Tile::honor_from_letter(letter)
}

/// Text to read: its characters that count (whitespace dropped), each with its position.
struct Parser {
    chars: Vec<(usize, char)>,
    /// The index in `chars` of the next character.
    at: usize,
    /// The position of the end of the input.
    end: usize,
}

/// A claim digit and its position.
type Digit = (usize, u8);

impl Parser {
    fn new(src: &str) -> Self {
        // One allocation, sized for the text: no character takes less than a byte.
        let mut chars = Vec::with_capacity(src.len());
        let mut end = 0;
        for (i, c) in src.chars().enumerate() {
            if !c.is_whitespace() {
                chars.push((i, c));
            }
            end = i + 1;
        }
        Parser { chars, at: 0, end }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).map(|&(_, c)| c)
    }

    /// The position of the next character (the end of the input after the last).
    fn position(&self) -> usize {
        self.chars.get(self.at).map_or(self.end, |&(p, _)| p)
    }

    fn error(&self, expected: &'static str) -> ParseHandError {
        ParseHandError {
            position: self.position(),
            expected,
            found: self.peek(),
        }
    }

    /// Reads tiles until `]` (not consumed) or the end; a meld's closing digit, if any, is
    /// returned with them.
    fn tiles(&mut self, in_meld: bool) -> Result<(Vec<Tile>, Option<Digit>), ParseHandError> {
        // At most a tile a character: the list does not grow as it is read.
        let mut tiles = Vec::with_capacity(self.chars.len().saturating_sub(self.at));
        // The digits waiting for their suit letter are the characters from `run` to `at`.
        let mut run = self.at;
        loop {
            match self.peek() {
                Some('0'..='9') => self.at += 1,
                Some(c @ ('m' | 'p' | 's')) => {
                    if run == self.at {
                        return Err(self.error("a digit 1-9 before the suit letter"));
                    }
                    let suit = Suit::from_letter(c).unwrap_or(Suit::Characters);
                    for (at, d) in self.digits(run) {
                        tiles.push(Tile::numbered(suit, d).ok_or(ParseHandError {
                            position: at,
                            expected: "a rank 1-9",
                            found: Some(char::from(b'0' + d)),
                        })?);
                    }
                    self.at += 1;
                    run = self.at;
                }
                Some('z') => {
                    if run == self.at {
                        return Err(self.error("a digit 1-7 before `z`"));
                    }
                    for (at, d) in self.digits(run) {
                        tiles.push(honor_of_z(d).ok_or(ParseHandError {
                            position: at,
                            expected: "an honour rank 1-7 (E S W N white green red)",
                            found: Some(char::from(b'0' + d)),
                        })?);
                    }
                    self.at += 1;
                    run = self.at;
                }
                Some(c) if Tile::honor_from_letter(c).is_some() || tile_of_glyph(c).is_some() => {
                    if run != self.at {
                        return Err(self.error("a suit letter m, p, s or z after the digits"));
                    }
                    tiles.extend(Tile::honor_from_letter(c).or_else(|| tile_of_glyph(c)));
                    self.at += 1;
                    if tile_of_glyph(c).is_some()
                        && matches!(self.peek(), Some('\u{FE0E}' | '\u{FE0F}'))
                    {
                        self.at += 1;
                    }
                    run = self.at;
                }
                Some(',') if in_meld && run == self.at && !tiles.is_empty() => {
                    self.at += 1;
                    let Some(c @ '0'..='9') = self.peek() else {
                        return Err(self.error("the meld's digit after `,`"));
                    };
                    let digit = (self.position(), c as u8 - b'0');
                    self.at += 1;
                    if self.peek() != Some(']') {
                        return Err(self.error("`]` after the meld's digit"));
                    }
                    return Ok((tiles, Some(digit)));
                }
                Some(']') if in_meld => break,
                None if !in_meld => break,
                Some('[') if !in_meld => {
                    return Err(self.error("standing tiles (melds come first)"));
                }
                _ => {
                    return Err(self.error(if in_meld {
                        "a tile, the meld's digit or `]`"
                    } else {
                        "a tile (1-9 m/p/s, 1-7 z, E S W N C F P, a glyph)"
                    }));
                }
            }
        }
        let mut digits = self.digits(run);
        match (digits.next(), digits.next()) {
            (None, _) => Ok((tiles, None)),
            (Some(digit), None) if in_meld => Ok((tiles, Some(digit))),
            (Some((at, d)), _) => Err(ParseHandError {
                position: at,
                expected: if in_meld {
                    "a single digit before `]`"
                } else {
                    "a suit letter m, p, s or z"
                },
                found: Some(char::from(b'0' + d)),
            }),
        }
    }

    /// The digits from `run` to the next character, each with its position.
    fn digits(&self, run: usize) -> impl Iterator<Item = Digit> + '_ {
        self.chars
            .get(run..self.at)
            .unwrap_or_default()
            .iter()
            .map(|&(at, c)| (at, c as u8 - b'0'))
    }
}

/// Parses notation in any of its forms into a hand as declared (not yet validated).
///
/// # Errors
/// Where the text stops being notation, and what was expected there.
pub fn parse_hand(src: &str) -> Result<HandInput, ParseHandError> {
    let mut p = Parser::new(src);
    let mut melds = Vec::new();
    while p.peek() == Some('[') {
        p.at += 1;
        let start = p.position();
        let (tiles, digit) = p.tiles(true)?;
        if tiles.is_empty() {
            return Err(ParseHandError {
                position: start,
                expected: "meld tiles",
                found: p.peek(),
            });
        }
        p.at += 1; // the `]`
        melds.push(meld_from(tiles, digit)?);
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

/// Builds a meld from its tiles and digit; the error points at a digit that does not fit.
fn meld_from(tiles: Vec<Tile>, digit: Option<Digit>) -> Result<MeldInput, ParseHandError> {
    let same = tiles.iter().all(|&t| t == tiles[0]);
    let n = tiles.len();
    let wrong = |expected: &'static str| {
        let (position, d) = digit.unwrap_or_default();
        ParseHandError {
            position,
            expected,
            found: Some(char::from(b'0' + d)),
        }
    };
    let mut meld = MeldInput {
        kind: MeldKind::Chow,
        tiles,
        claimed_from: None,
        promoted: false,
        claimed_tile: None,
    };
    let d = digit.map(|(_, d)| d);
    if same && n >= 4 {
        meld.kind = MeldKind::Kong;
        match d {
            None => meld.kind = MeldKind::ConcealedKong,
            Some(d @ 1..=3) => meld.claimed_from = Claim::from_digit(d),
            Some(d @ 5..=7) => {
                meld.claimed_from = Claim::from_digit(d - 4);
                meld.promoted = true;
            }
            Some(_) => {
                return Err(wrong("a kong's seat digit 1-3, or 5-7 if promoted"));
            }
        }
    } else if same && n == 3 {
        meld.kind = MeldKind::Pung;
        match d {
            None => {}
            Some(d @ 1..=3) => meld.claimed_from = Claim::from_digit(d),
            Some(_) => return Err(wrong("a pung's seat digit 1-3")),
        }
    } else if let Some(d) = d {
        meld.claimed_tile = match d {
            1..=3 => meld.tiles.get(usize::from(d) - 1).copied(),
            _ => None,
        };
        if meld.claimed_tile.is_none() {
            return Err(wrong("a chow's claimed-tile digit 1-3"));
        }
    }
    Ok(meld)
}

/// Parses a plain run of tiles (`123m45pEE`), for tests and command-line tools.
pub fn parse_tiles(src: &str) -> Result<Vec<Tile>, ParseHandError> {
    Parser::new(src).tiles(false).map(|(t, _)| t)
}

/// Writes tiles compactly: consecutive numbered tiles of one suit share the suit letter.
pub fn write_tiles(out: &mut String, tiles: &[Tile]) {
    write_tile_run(out, tiles.iter().copied());
}

/// The counts of a plain run of tiles (`123m45pEE`), for the engine's unit tests.
#[cfg(test)]
pub(crate) fn test_counts(tiles: &str) -> crate::tile::Counts {
    let mut counts = [0; 34];
    for t in parse_tiles(tiles).unwrap() {
        counts[t.index()] += 1;
    }
    counts
}

/// Somewhere notation is written to: a `String`, or the bytes of a message being encoded.
pub trait NotationSink {
    /// Appends the ASCII character `byte`.
    fn put(&mut self, byte: u8);
    /// Appends any character (a glyph), UTF-8 encoded.
    fn put_char(&mut self, c: char);
}

impl NotationSink for String {
    fn put(&mut self, byte: u8) {
        self.push(char::from(byte));
    }

    fn put_char(&mut self, c: char) {
        self.push(c);
    }
}

impl NotationSink for Vec<u8> {
    fn put(&mut self, byte: u8) {
        self.push(byte);
    }

    fn put_char(&mut self, c: char) {
        let mut buf = [0; 4];
        self.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
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

/// How tiles are written: letters and digits, or one glyph each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TileStyle {
    Letters,
    Glyphs,
}

fn write_tiles_in(
    out: &mut impl NotationSink,
    style: TileStyle,
    tiles: impl IntoIterator<Item = Tile>,
) {
    match style {
        TileStyle::Letters => write_tile_run(out, tiles),
        TileStyle::Glyphs => {
            for t in tiles {
                out.put_char(glyph(t));
            }
        }
    }
}

/// Writes a meld's digit, if its notation has one.
fn push_digit(out: &mut impl NotationSink, digit: Option<u8>) {
    if let Some(d) = digit {
        out.put(b'0' + d);
    }
}

/// The digit of a pung or kong: its seat (1-3), plus 4 for a promoted kong; a melded kong
/// always carries one (no digit means concealed), the left player's when not stated, the
/// notation's own default.
fn seat_digit(kind: MeldKind, from: Option<Claim>, promoted: bool) -> Option<u8> {
    match (kind, from, promoted) {
        (MeldKind::ConcealedKong | MeldKind::Chow, _, _) | (MeldKind::Pung, None, _) => None,
        (MeldKind::Kong, from, true) => Some(from.unwrap_or(Claim::Left).digit() + 4),
        (MeldKind::Kong, from, false) => Some(from.unwrap_or(Claim::Left).digit()),
        (MeldKind::Pung, Some(c), _) => Some(c.digit()),
    }
}

/// Prints a hand in notation (melds, standing tiles, winning tile last). A chow's digit is
/// its claimed tile's place among its tiles as given (a chow's `claimed_from` is not
/// written: the left is its only source); a claimed tile that is not among them is not
/// written.
pub fn format_hand(hand: &HandInput) -> String {
    let mut out = String::with_capacity(32);
    for m in &hand.melds {
        out.push('[');
        write_tiles(&mut out, &m.tiles);
        let digit = match m.kind {
            MeldKind::Chow => m
                .claimed_tile
                .and_then(|t| m.tiles.iter().take(3).position(|&x| x == t))
                .and_then(|i| u8::try_from(i + 1).ok()),
            MeldKind::Pung | MeldKind::Kong | MeldKind::ConcealedKong => {
                seat_digit(m.kind, m.claimed_from, m.promoted)
            }
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

/// The canonical notation of a validated hand: the melds as declared (a chow with its
/// claimed tile's digit when one is stated, a melded kong whose source is not known as
/// claimed from the left, the notation's default), the standing tiles sorted, the winning
/// tile last. Hands that differ only in the order of their standing tiles print the same.
pub fn format_canonical(hand: &Hand) -> String {
    let mut out = String::with_capacity(32);
    write_canonical(&mut out, hand);
    out
}

/// The canonical notation of a validated hand ([`format_canonical`]) with every tile as its
/// Unicode glyph (`[🀇🀈🀉]🀙🀙…`); it reads back as the same hand.
pub fn format_glyphs(hand: &Hand) -> String {
    let mut out = String::with_capacity(64);
    write_glyphs(&mut out, hand);
    out
}

/// Appends the canonical notation of a validated hand ([`format_canonical`]) to `out`.
pub fn write_canonical(out: &mut impl NotationSink, hand: &Hand) {
    write_validated(out, hand, TileStyle::Letters);
}

/// Appends the glyph form of a validated hand ([`format_glyphs`]) to `out`.
pub fn write_glyphs(out: &mut impl NotationSink, hand: &Hand) {
    write_validated(out, hand, TileStyle::Glyphs);
}

fn write_validated(out: &mut impl NotationSink, hand: &Hand, style: TileStyle) {
    for &meld in hand.melds() {
        out.put(b'[');
        let digit = match meld {
            Meld::Chow { first, claimed } => {
                let second = first.succ();
                let third = second.and_then(Tile::succ);
                write_tiles_in(
                    out,
                    style,
                    [Some(first), second, third].into_iter().flatten(),
                );
                claimed.and_then(|t| u8::try_from(t.index() + 1 - first.index()).ok())
            }
            Meld::Pung { tile, from } => {
                write_tiles_in(out, style, [tile; 3]);
                seat_digit(MeldKind::Pung, from, false)
            }
            Meld::Kong { tile, exposure } => {
                write_tiles_in(out, style, [tile; 4]);
                match exposure {
                    KongExposure::Concealed => None,
                    KongExposure::Direct(from) => seat_digit(MeldKind::Kong, from, false),
                    KongExposure::Promoted(from) => seat_digit(MeldKind::Kong, from, true),
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
    write_tiles_in(
        out,
        style,
        standing.iter().copied().chain([hand.winning_tile()]),
    );
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
        assert_eq!(
            (e.position, e.expected),
            (5, "a chow's claimed-tile digit 1-3")
        );
        let e = parse_hand("[555m4]45m").unwrap_err();
        assert_eq!((e.position, e.expected), (5, "a pung's seat digit 1-3"));
        let e = parse_hand("123").unwrap_err();
        assert_eq!(e.position, 0);
        let e = parse_hand("").unwrap_err();
        assert_eq!(e.found, None);
        let e = parse_hand("[123m").unwrap_err();
        assert_eq!(e.found, None);
        assert!(e.to_string().contains("end of input"));
    }

    fn tile(text: &str) -> Tile {
        text.parse().unwrap()
    }

    #[test]
    fn a_chow_digit_names_the_claimed_tile_as_written() {
        let h = parse_hand("[123p1][345s2][999s3]6m6pEW1m").unwrap();
        assert_eq!(h.melds[0].kind, MeldKind::Chow);
        assert_eq!(h.melds[0].claimed_tile, Some(tile("1p")));
        assert_eq!(h.melds[0].claimed_from, None);
        assert_eq!(h.melds[1].claimed_tile, Some(tile("4s")));
        assert_eq!(h.melds[2].kind, MeldKind::Pung);
        assert_eq!(h.melds[2].claimed_from, Some(Claim::Right));
        assert_eq!(h.melds[2].claimed_tile, None);
        // As written, not as sorted: the 3rd tile of `[543m]` is 3m.
        let h = parse_hand("[543m3]258m1477s369p7s").unwrap();
        assert_eq!(h.melds[0].claimed_tile, Some(tile("3m")));
        let valid = h.validate(&crate::WinContext::default()).unwrap();
        assert_eq!(format_canonical(&valid), "[345m1]258m369p14777s");
        let again = parse_hand(&format_canonical(&valid)).unwrap();
        let again = again.validate(&crate::WinContext::default()).unwrap();
        assert_eq!(again.melds(), valid.melds());
    }

    #[test]
    fn every_form_reads_as_the_same_hand() {
        let plain = parse_hand("[123m2][555p2][7777s5]ESWNCFPP").unwrap();
        for form in [
            "[123m,2][555p,2][7777s,5]ESWNCFPP",
            "[123m2][555p2][7777s5]1234z7z6z55z",
            "[🀇🀈🀉2][🀝🀝🀝2][🀖🀖🀖🀖5]🀀🀁🀂🀃🀄\u{FE0F}🀅🀆🀆",
            "[1 2 3 m , 2]\t[555p2]\n[7777s5] E S W N C F P P ",
            "[🀇23m2][5p🀝5p,2][77s🀖🀖5]ES3zN🀄F5zP",
        ] {
            assert_eq!(parse_hand(form), Ok(plain.clone()), "{form}");
        }
    }

    #[test]
    fn glyphs_cover_the_34_tiles_once() {
        let mut seen = std::collections::HashSet::new();
        for t in Tile::ALL {
            let g = glyph(t);
            assert!(('\u{1F000}'..='\u{1F021}').contains(&g), "{t}");
            assert!(seen.insert(g));
            assert_eq!(tile_of_glyph(g), Some(t));
        }
        assert_eq!(glyph(tile("C")), '🀄');
        assert_eq!(glyph(tile("P")), '🀆');
        assert_eq!(glyph(tile("1s")), '🀐');
        assert_eq!(glyph(tile("9p")), '🀡');
        assert_eq!(tile_of_glyph('🀢'), None);
    }

    #[test]
    fn new_forms_fail_where_they_stop_making_sense() {
        let at = |text: &str| {
            let e = parse_hand(text).unwrap_err();
            (e.position, e.expected, e.found)
        };
        assert_eq!(
            at("8z"),
            (0, "an honour rank 1-7 (E S W N white green red)", Some('8'))
        );
        assert_eq!(
            at("1🀇"),
            (1, "a suit letter m, p, s or z after the digits", Some('🀇'))
        );
        assert_eq!(
            at("[123m,]1m"),
            (6, "the meld's digit after `,`", Some(']'))
        );
        assert_eq!(
            at("[123m,12]1m"),
            (7, "`]` after the meld's digit", Some('2'))
        );
        assert_eq!(
            at("[,1]1m"),
            (1, "a tile, the meld's digit or `]`", Some(','))
        );
        assert_eq!(
            at("123m,1m"),
            (
                4,
                "a tile (1-9 m/p/s, 1-7 z, E S W N C F P, a glyph)",
                Some(',')
            )
        );
        assert_eq!(
            at("🀢"),
            (
                0,
                "a tile (1-9 m/p/s, 1-7 z, E S W N C F P, a glyph)",
                Some('🀢')
            )
        );
        // Positions count the whitespace the parser skips.
        assert_eq!(at(" 1 2 3 m x").0, 9);
        assert_eq!(
            at("[123m4]1m"),
            (5, "a chow's claimed-tile digit 1-3", Some('4'))
        );
        assert_eq!(
            at("[12m3]1m"),
            (4, "a chow's claimed-tile digit 1-3", Some('3'))
        );
    }

    /// Every error, as the API words it (`cannot read the hand notation …`) at a position of
    /// three digits, fits the 120 bytes a violation message is listed with.
    #[test]
    fn every_error_fits_a_listed_violation_message() {
        let inputs = [
            "m",
            "1mz",
            "8z",
            "1E",
            "[123m,]1m",
            "[123m,1x]1m",
            "1m[",
            "[]1m",
            "[1m",
            "",
            "[1111m4]1m",
            "[111m4]1m",
            "[123m4]1m",
            "[123m11]1m",
            "123",
            "x",
            "[x]",
        ];
        for text in inputs {
            let padded = format!("{}{text}", " ".repeat(100));
            let e = parse_hand(&padded).unwrap_err();
            let message = format!("cannot read the hand notation {e}");
            assert!(message.len() <= 120, "{} bytes: {message}", message.len());
        }
    }
}
