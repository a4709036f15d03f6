//! Hand notation written in each input form by a writer of the tests' own, independent of
//! the library's (`mcr::notation`): the calculator's digits, a comma before a meld's digit,
//! `z` honours, tile glyphs, whitespace, and all of them mixed tile by tile.

use mcr::{Claim, HandInput, MeldInput, MeldKind, Suit, Tile};

/// An input form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// `[123m2][555p1]EE…`: suited tiles share their suit letter, honours as letters.
    Calculator,
    /// The same with a comma before each meld's digit: `[123m,2]`.
    Comma,
    /// Honours as `1z`–`7z` (E S W N white green red), every tile with its own letter.
    ZHonours,
    /// Every tile as its Unicode glyph.
    Glyphs,
    /// The calculator form with whitespace between random characters.
    Spaced,
    /// Each tile in a form drawn at random (letters, `z`, glyph), commas at random.
    Mixed,
}

/// Every form.
pub const FORMS: [Form; 6] = [
    Form::Calculator,
    Form::Comma,
    Form::ZHonours,
    Form::Glyphs,
    Form::Spaced,
    Form::Mixed,
];

/// A small deterministic generator (`SplitMix64`) for the random choices.
#[derive(Debug, Clone)]
pub struct Choices(u64);

impl Choices {
    pub fn new(seed: u64) -> Self {
        Choices(seed)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    }
}

/// The hand as notation reads it back: a chow's source is the left (not written), a melded
/// kong without a stated source is written as the left's.
pub fn as_notation_reads(hand: &HandInput) -> HandInput {
    let mut hand = hand.clone();
    for m in &mut hand.melds {
        match m.kind {
            MeldKind::Chow => m.claimed_from = None,
            MeldKind::Kong => {
                m.claimed_from = m.claimed_from.or(Some(Claim::Left));
            }
            MeldKind::Pung | MeldKind::ConcealedKong => {}
        }
    }
    hand
}

/// Gives each chow a claimed tile at random (or none), as calculator users write them.
pub fn with_random_claimed_tiles(hand: &HandInput, choices: &mut Choices) -> HandInput {
    let mut hand = hand.clone();
    for m in &mut hand.melds {
        if m.kind == MeldKind::Chow {
            let pick = usize::try_from(choices.below(4)).unwrap_or(0);
            m.claimed_tile = pick.checked_sub(1).and_then(|i| m.tiles.get(i).copied());
        }
    }
    hand
}

/// The glyph of a tile, from the Unicode chart: U+1F000 east … U+1F006 white, then 1–9 of
/// characters (U+1F007), bamboo (U+1F010) and dots (U+1F019).
pub fn glyph_of(t: Tile) -> char {
    let offset = match (t.suit(), t.rank(), t.honor_letter()) {
        (Some(Suit::Characters), Some(r), _) => 0x07 + u32::from(r) - 1,
        (Some(Suit::Bamboo), Some(r), _) => 0x10 + u32::from(r) - 1,
        (Some(Suit::Dots), Some(r), _) => 0x19 + u32::from(r) - 1,
        (_, _, Some(letter)) => {
            u32::try_from("ESWNCFP".find(letter).expect("an honour letter")).unwrap_or(0)
        }
        _ => unreachable!("a tile is suited or an honour"),
    };
    char::from_u32(0x1F000 + offset).expect("a glyph")
}

/// The `z` rank of an honour: E S W N 1–4, white 5, green 6, red 7.
fn z_rank(letter: char) -> usize {
    match letter {
        'E' => 1,
        'S' => 2,
        'W' => 3,
        'N' => 4,
        'P' => 5,
        'F' => 6,
        _ => 7,
    }
}

/// One tile on its own: `5m`, `E` or `3z`, or its glyph.
fn one_tile(t: Tile, style: u64) -> String {
    match (style, t.honor_letter()) {
        (1, Some(letter)) => format!("{}z", z_rank(letter)),
        (0 | 1, _) => t.to_string(),
        _ => glyph_of(t).to_string(),
    }
}

/// Tiles in the calculator's compact form: a run of one suit shares its letter.
fn compact(tiles: &[Tile]) -> String {
    let mut out = String::new();
    let mut pending: Option<char> = None;
    for &t in tiles {
        let suit = t.suit().map(Suit::letter);
        if pending.is_some() && pending != suit {
            out.extend(pending);
        }
        match (t.rank(), t.honor_letter()) {
            (Some(r), _) => out.push(char::from(b'0' + r)),
            (None, letter) => out.extend(letter),
        }
        pending = suit;
    }
    out.extend(pending);
    out
}

/// A meld's digit: a chow's claimed tile place, a pung's seat, a kong's seat (+4 promoted).
fn meld_digit(m: &MeldInput) -> Option<u8> {
    match m.kind {
        MeldKind::Chow => m
            .claimed_tile
            .and_then(|t| m.tiles.iter().position(|&x| x == t))
            .and_then(|i| u8::try_from(i + 1).ok()),
        MeldKind::Pung => m.claimed_from.map(Claim::digit),
        MeldKind::Kong => {
            Some(m.claimed_from.unwrap_or(Claim::Left).digit() + if m.promoted { 4 } else { 0 })
        }
        MeldKind::ConcealedKong => None,
    }
}

/// Tiles written in `form`.
fn tiles_in(tiles: &[Tile], form: Form, choices: &mut Choices) -> String {
    match form {
        Form::Calculator | Form::Comma | Form::Spaced => compact(tiles),
        Form::ZHonours => tiles.iter().map(|&t| one_tile(t, 1)).collect(),
        Form::Glyphs => tiles.iter().map(|&t| one_tile(t, 2)).collect(),
        Form::Mixed => tiles
            .iter()
            .map(|&t| one_tile(t, choices.below(3)))
            .collect(),
    }
}

/// `hand` written in `form` (its chows' claimed tiles as digits).
pub fn write(hand: &HandInput, form: Form, choices: &mut Choices) -> String {
    let mut out = String::new();
    for m in &hand.melds {
        out.push('[');
        out.push_str(&tiles_in(&m.tiles, form, choices));
        if let Some(d) = meld_digit(m) {
            let comma = match form {
                Form::Comma => true,
                Form::Mixed => choices.below(2) == 0,
                Form::Calculator | Form::ZHonours | Form::Glyphs | Form::Spaced => false,
            };
            if comma {
                out.push(',');
            }
            out.push(char::from(b'0' + d));
        }
        out.push(']');
    }
    let standing: Vec<Tile> = hand
        .standing
        .iter()
        .copied()
        .chain(hand.winning_tile)
        .collect();
    out.push_str(&tiles_in(&standing, form, choices));
    if form == Form::Spaced {
        let mut spaced = String::new();
        for c in out.chars() {
            match choices.below(6) {
                0 => spaced.push(' '),
                1 => spaced.push_str(" \t"),
                2 => spaced.push('\n'),
                _ => {}
            }
            spaced.push(c);
        }
        spaced.push(' ');
        return spaced;
    }
    out
}
