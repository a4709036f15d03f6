//! Hands as declared (unvalidated input) and as validated for scoring.
//!
//! [`HandInput`] is what a caller says: declared melds, the standing tiles and the winning
//! tile, possibly wrong in many ways. [`Hand`] only comes out of [`HandInput::validate`]
//! (together with a [`WinContext`]), which collects every violation it finds.

use crate::tile::RANK_WEIGHT;
pub use crate::tile::Wind;
use crate::tile::{Counts, Tile};
use crate::violation::{FieldPath, Violation, ViolationCode};

/// Where a claimed tile came from, relative to the claimer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Claim {
    /// 上家, the player on the left (the only source of a chow). Notation digit 1.
    Left,
    /// 对家, the player opposite. Notation digit 2.
    Opposite,
    /// 下家, the player on the right. Notation digit 3.
    Right,
}

impl Claim {
    /// The notation digit 1..=3.
    pub const fn digit(self) -> u8 {
        match self {
            Claim::Left => 1,
            Claim::Opposite => 2,
            Claim::Right => 3,
        }
    }

    /// The claim for a notation digit 1..=3.
    pub const fn from_digit(d: u8) -> Option<Claim> {
        match d {
            1 => Some(Claim::Left),
            2 => Some(Claim::Opposite),
            3 => Some(Claim::Right),
            _ => None,
        }
    }
}

/// The kind of a declared meld, as the caller states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeldKind {
    /// 吃: three consecutive tiles of one suit, claimed from the left.
    Chow,
    /// 碰: three identical tiles, one claimed.
    Pung,
    /// 明杠: four identical tiles, claimed directly or promoted from a melded pung (加杠).
    Kong,
    /// 暗杠: four identical self-drawn tiles.
    ConcealedKong,
}

/// A declared meld as input: the tiles may be anything.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MeldInput {
    /// What the caller says the meld is.
    pub kind: MeldKind,
    /// The tiles as given.
    pub tiles: Vec<Tile>,
    /// The source of the claimed tile; `None` when not stated (and always for a concealed kong).
    pub claimed_from: Option<Claim>,
    /// For a kong: it was promoted from the player's own melded pung (加杠).
    pub promoted: bool,
    /// For a chow: which of its tiles was claimed, when stated (kept for the record and
    /// written back by the notation; it changes no fan). Only a chow names one.
    pub claimed_tile: Option<Tile>,
}

/// A hand as the caller declares it, not yet validated.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct HandInput {
    /// Declared melds, in declaration order.
    pub melds: Vec<MeldInput>,
    /// The standing (concealed) tiles, without the winning tile.
    pub standing: Vec<Tile>,
    /// The winning tile.
    pub winning_tile: Option<Tile>,
}

/// How the winning tile was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum WinMethod {
    /// 点和: on another player's discard (including robbing a kong).
    #[default]
    Discard,
    /// 自摸: drawn by the winner (including replacement draws).
    SelfDrawn,
}

/// The circumstances of a win.
#[allow(clippy::struct_excessive_bools)] // each flag is one independent circumstance of the rulebook
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct WinContext {
    /// Self-drawn or on a discard.
    pub method: WinMethod,
    /// 抢杠和: won on the tile another player added to a melded pung.
    pub robbing_kong: bool,
    /// 杠上开花: won on the replacement tile drawn after the winner's own kong.
    pub replacement_draw: bool,
    /// 妙手回春 / 海底捞月: the last tile of the wall (self-drawn) or the last discard.
    pub last_tile: bool,
    /// 和绝张: the winning tile is the last copy (the other three are visible).
    pub last_copy: bool,
    /// 门风.
    pub seat_wind: Wind,
    /// 圈风.
    pub prevalent_wind: Wind,
    /// Number of flowers (0..=8).
    pub flowers: u8,
}

/// How a kong was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KongExposure {
    /// 暗杠.
    Concealed,
    /// 明杠 on a discard of the given player.
    Direct(Option<Claim>),
    /// 加杠: the fourth tile drawn and added to a pung claimed from the given player.
    Promoted(Option<Claim>),
}

/// A validated declared meld.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Meld {
    /// A chow starting at `first` (rank ≤ 7).
    Chow {
        /// The lowest tile.
        first: Tile,
        /// The tile claimed from the left, when stated (one of the three).
        claimed: Option<Tile>,
    },
    /// A melded pung.
    Pung {
        /// The tile.
        tile: Tile,
        /// The source of the claimed tile, when stated.
        from: Option<Claim>,
    },
    /// A kong, melded or concealed.
    Kong {
        /// The tile.
        tile: Tile,
        /// How it was made.
        exposure: KongExposure,
    },
}

impl Meld {
    /// Whether the meld exposes tiles claimed from others (all but a concealed kong).
    pub const fn is_claimed(self) -> bool {
        !matches!(
            self,
            Meld::Kong {
                exposure: KongExposure::Concealed,
                ..
            }
        )
    }

    /// Whether the meld is a kong.
    pub const fn is_kong(self) -> bool {
        matches!(self, Meld::Kong { .. })
    }

    /// The meld as input again.
    pub fn to_input(self) -> MeldInput {
        match self {
            Meld::Chow { first, claimed } => {
                let t = first.index();
                MeldInput {
                    kind: MeldKind::Chow,
                    tiles: (t..t + 3).filter_map(Tile::from_usize).collect(),
                    claimed_from: Some(Claim::Left),
                    promoted: false,
                    claimed_tile: claimed,
                }
            }
            Meld::Pung { tile, from } => MeldInput {
                kind: MeldKind::Pung,
                tiles: vec![tile; 3],
                claimed_from: from,
                promoted: false,
                claimed_tile: None,
            },
            Meld::Kong { tile, exposure } => {
                let (kind, claimed_from, promoted) = match exposure {
                    KongExposure::Concealed => (MeldKind::ConcealedKong, None, false),
                    KongExposure::Direct(from) => (MeldKind::Kong, from, false),
                    KongExposure::Promoted(from) => (MeldKind::Kong, from, true),
                };
                MeldInput {
                    kind,
                    tiles: vec![tile; 4],
                    claimed_from,
                    promoted,
                    claimed_tile: None,
                }
            }
        }
    }
}

/// A validated hand: at most four melds, the right number of tiles, no fifth copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hand {
    /// The declared melds in the first `meld_count` places (fixed storage: no allocation).
    melds: [Meld; 4],
    meld_count: u8,
    /// Standing tiles including the winning tile.
    concealed: Counts,
    /// The division table's code of each suit of `concealed` (by [`Tile::group`]), 21 bits
    /// each in one word, summed a tile at a time as the hand is counted (see [`TILE_WEIGHT`]).
    suit_codes: u64,
    /// The standing tiles in the first `standing_count` places, in input order.
    standing: [Tile; 13],
    standing_count: u8,
    winning_tile: Tile,
}

impl Hand {
    /// The declared melds.
    pub fn melds(&self) -> &[Meld] {
        &self.melds[..usize::from(self.meld_count)]
    }

    /// The standing tiles without the winning tile, in input order.
    pub fn standing(&self) -> &[Tile] {
        &self.standing[..usize::from(self.standing_count)]
    }

    /// The winning tile.
    pub const fn winning_tile(&self) -> Tile {
        self.winning_tile
    }

    /// Counts of the concealed tiles including the winning tile.
    pub const fn concealed_counts(&self) -> &Counts {
        &self.concealed
    }

    /// The division table's codes of the concealed suits, by [`Tile::group`].
    pub(crate) fn suit_codes(&self) -> [usize; 3] {
        [0, 1, 2].map(|g| (self.suit_codes >> (CODE_BITS * g) & CODE_MASK) as usize)
    }

    /// Counts of every tile of the hand: melds (kongs as four) and concealed tiles.
    pub fn all_counts(&self) -> Counts {
        let mut counts = self.concealed;
        for meld in self.melds() {
            add_meld_counts(&mut counts, *meld);
        }
        counts
    }

    /// The hand as input again (for printing and round trips).
    pub fn to_input(&self) -> HandInput {
        HandInput {
            melds: self.melds().iter().map(|m| m.to_input()).collect(),
            standing: self.standing().to_vec(),
            winning_tile: Some(self.winning_tile),
        }
    }
}

impl Hand {
    /// A hand of parts already checked: at most four valid melds and 13 − 3·melds standing
    /// tiles that, with the melds and the winning tile, hold at most four copies of a kind
    /// (what [`HandInput::validate`] checks; the hands in play of the analysis are).
    pub(crate) fn of_checked_parts(melds: &[Meld], standing: &[Tile], winning_tile: Tile) -> Hand {
        let mut all_melds = [Meld::Chow {
            first: Tile::ALL[0],
            claimed: None,
        }; 4];
        let meld_count = melds.len().min(4);
        all_melds[..meld_count].copy_from_slice(&melds[..meld_count]);
        let mut concealed = [0u8; 34];
        let mut suit_codes = 0;
        let mut standing_tiles = [winning_tile; 13];
        let standing_count = standing.len().min(13);
        for (slot, &t) in standing_tiles.iter_mut().zip(&standing[..standing_count]) {
            *slot = t;
            concealed[t.index()] += 1;
            suit_codes += TILE_WEIGHT[t.index()];
        }
        concealed[winning_tile.index()] += 1;
        suit_codes += TILE_WEIGHT[winning_tile.index()];
        Hand {
            melds: all_melds,
            meld_count: u8::try_from(meld_count).unwrap_or(4),
            concealed,
            suit_codes,
            standing: standing_tiles,
            standing_count: u8::try_from(standing_count).unwrap_or(13),
            winning_tile,
        }
    }
}

/// Bits of one suit code in [`Hand`]'s word of them: 5⁹ codes fit in 21 bits.
const CODE_BITS: usize = 21;
const CODE_MASK: u64 = (1 << CODE_BITS) - 1;

/// What a concealed tile adds to [`Hand`]'s word of suit codes, by [`Tile::index`]: its
/// rank's weight in its suit's bits; nothing for an honour.
const TILE_WEIGHT: [u64; 34] = {
    let mut w = [0u64; 34];
    let mut i = 0;
    while i < 27 {
        w[i] = (RANK_WEIGHT[i % 9] as u64) << (CODE_BITS * (i / 9));
        i += 1;
    }
    w
};

pub(crate) fn add_meld_counts(counts: &mut Counts, meld: Meld) {
    match meld {
        Meld::Chow { first, .. } => {
            let i = first.index();
            counts[i] += 1;
            counts[i + 1] += 1;
            counts[i + 2] += 1;
        }
        Meld::Pung { tile, .. } => counts[tile.index()] += 3,
        Meld::Kong { tile, .. } => counts[tile.index()] += 4,
    }
}

/// Checks a declared chow: three consecutive numbered tiles of one suit, from the left.
fn validate_chow(index: usize, meld: &MeldInput) -> Result<Meld, Violation> {
    let tiles = &meld.tiles;
    let mut sorted = [tiles[0], tiles[1], tiles[2]];
    sorted.sort_unstable();
    let text = || tiles_text(tiles);
    if sorted.iter().any(|t| t.is_honor()) {
        return Err(Violation::new(
            ViolationCode::ChowInvalid,
            meld_path(index).field("tiles"),
            format!(
                "chow {} contains an honour tile; only numbered tiles form chows",
                text()
            ),
        ));
    }
    if sorted.iter().any(|t| t.suit() != sorted[0].suit()) {
        return Err(Violation::new(
            ViolationCode::ChowInvalid,
            meld_path(index).field("tiles"),
            format!(
                "chow {} mixes suits; a chow is three consecutive tiles of one suit",
                text()
            ),
        ));
    }
    if sorted[1].index() != sorted[0].index() + 1 || sorted[2].index() != sorted[1].index() + 1 {
        return Err(Violation::new(
            ViolationCode::ChowInvalid,
            meld_path(index).field("tiles"),
            format!(
                "chow {} is not three consecutive ranks (no gaps, no wrapping from 9 to 1)",
                text()
            ),
        ));
    }
    if matches!(meld.claimed_from, Some(Claim::Opposite | Claim::Right)) {
        return Err(Violation::new(
            ViolationCode::ChowNotFromLeft,
            meld_path(index).field("claimed_from"),
            "a chow can only be claimed from the player on the left".to_owned(),
        ));
    }
    if let Some(claimed) = meld.claimed_tile
        && !sorted.contains(&claimed)
    {
        return Err(Violation::new(
            ViolationCode::ChowInvalid,
            meld_path(index).field("claimed_tile"),
            format!(
                "the claimed tile {claimed} is not a tile of the chow {}",
                text()
            ),
        ));
    }
    Ok(Meld::Chow {
        first: sorted[0],
        claimed: meld.claimed_tile,
    })
}

/// Checks one declared meld; `Err` carries the violation.
fn validate_meld(index: usize, meld: &MeldInput) -> Result<Meld, Violation> {
    let tiles = &meld.tiles;
    let expected_len = match meld.kind {
        MeldKind::Chow | MeldKind::Pung => 3,
        MeldKind::Kong | MeldKind::ConcealedKong => 4,
    };
    let kind_name = match meld.kind {
        MeldKind::Chow => "a chow",
        MeldKind::Pung => "a pung",
        MeldKind::Kong => "a melded kong",
        MeldKind::ConcealedKong => "a concealed kong",
    };
    if tiles.len() != expected_len {
        return Err(Violation::new(
            ViolationCode::MeldTileCount,
            meld_path(index).field("tiles"),
            format!(
                "{kind_name} has {expected_len} tiles, found {}",
                tiles.len()
            ),
        ));
    }
    let first = tiles[0];
    if meld.claimed_tile.is_some() && meld.kind != MeldKind::Chow {
        return Err(Violation::new(
            ViolationCode::ValueInvalid,
            meld_path(index).field("claimed_tile"),
            format!(
                "only a chow names its claimed tile; the claimed tile of {kind_name} is its own tile (its source is claimed_from)"
            ),
        ));
    }
    match meld.kind {
        MeldKind::Chow => validate_chow(index, meld),
        MeldKind::Pung | MeldKind::Kong | MeldKind::ConcealedKong => {
            if tiles.iter().any(|&t| t != first) {
                return Err(Violation::new(
                    if meld.kind == MeldKind::Pung {
                        ViolationCode::PungInvalid
                    } else {
                        ViolationCode::KongInvalid
                    },
                    meld_path(index).field("tiles"),
                    format!(
                        "{kind_name} needs {expected_len} identical tiles, found {}",
                        tiles_text(tiles)
                    ),
                ));
            }
            match meld.kind {
                MeldKind::Pung => Ok(Meld::Pung {
                    tile: first,
                    from: meld.claimed_from,
                }),
                MeldKind::Kong if meld.promoted => Ok(Meld::Kong {
                    tile: first,
                    exposure: KongExposure::Promoted(meld.claimed_from),
                }),
                MeldKind::Kong => Ok(Meld::Kong {
                    tile: first,
                    exposure: KongExposure::Direct(meld.claimed_from),
                }),
                MeldKind::ConcealedKong | MeldKind::Chow => {
                    if meld.claimed_from.is_some() || meld.promoted {
                        return Err(Violation::new(
                            ViolationCode::ConcealedKongClaimed,
                            meld_path(index).field("claimed_from"),
                            "a concealed kong is made of four self-drawn tiles and has no claimed tile".to_owned(),
                        ));
                    }
                    Ok(Meld::Kong {
                        tile: first,
                        exposure: KongExposure::Concealed,
                    })
                }
            }
        }
    }
}

/// The path of the declared meld `index`, built only when a violation is reported.
const fn meld_path(index: usize) -> FieldPath {
    FieldPath::of("hand").field("melds").index(index)
}

fn tiles_text(tiles: &[Tile]) -> String {
    tiles
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Adds a violation for each kind with more than four copies in `copies` (counts saturate
/// at 255), at `path`; `place` follows the count in the message (e.g. " with the visible
/// tiles").
pub(crate) fn copies_violations(
    copies: &Counts,
    path: FieldPath,
    place: &str,
    violations: &mut Vec<Violation>,
) {
    if copies.iter().all(|&n| n <= 4) {
        return;
    }
    for t in Tile::ALL {
        let n = copies[t.index()];
        if n > 4 {
            let shown = if n == u8::MAX {
                "255 or more".to_owned()
            } else {
                n.to_string()
            };
            violations.push(Violation::new(
                ViolationCode::TooManyCopies,
                path,
                format!("tile {t} appears {shown} times{place}; there are only 4 copies"),
            ));
        }
    }
}

/// Checks the declared melds (at most four: more is one violation, and four are kept),
/// adding a violation for each bad one.
pub(crate) fn validate_melds(
    melds: &[MeldInput],
    violations: &mut Vec<Violation>,
) -> ([Meld; 4], usize) {
    if melds.len() > 4 {
        violations.push(Violation::new(
            ViolationCode::TooManyMelds,
            FieldPath::of("hand").field("melds"),
            format!("a hand has at most 4 declared melds, found {}", melds.len()),
        ));
    }
    let mut valid = [Meld::Chow {
        first: Tile::ALL[0],
        claimed: None,
    }; 4];
    let mut count = 0;
    for (i, m) in melds.iter().enumerate() {
        match validate_meld(i, m) {
            Ok(meld) => {
                if let Some(slot) = valid.get_mut(count) {
                    *slot = meld;
                    count += 1;
                }
            }
            Err(v) => violations.push(v),
        }
    }
    (valid, count)
}

impl HandInput {
    /// Validates the hand and its winning context together, collecting every violation.
    ///
    /// A well-formed hand that is not a winning shape or scores under 8 fan is *valid*:
    /// that is a scoring outcome, not an input error.
    pub fn validate(&self, context: &WinContext) -> Result<Hand, Vec<Violation>> {
        let mut violations = Vec::new();
        let (melds, meld_count) = validate_melds(&self.melds, &mut violations);
        let winning_tile = self.winning_tile;
        if winning_tile.is_none() {
            violations.push(Violation::new(
                ViolationCode::WinningTileMissing,
                FieldPath::of("hand").field("winning_tile"),
                "the winning tile is missing".to_owned(),
            ));
        }
        // Tile count: every meld stands for three tiles of the 13 (a kong's fourth is extra).
        let expected_standing = 13usize.checked_sub(3 * self.melds.len());
        if self.melds.len() <= 4 && expected_standing != Some(self.standing.len()) {
            violations.push(Violation::new(
                ViolationCode::TileCountWrong,
                FieldPath::of("hand").field("standing"),
                format!(
                    "with {} declared meld(s) the hand needs {} standing tiles plus the winning tile, found {}",
                    self.melds.len(),
                    expected_standing.unwrap_or(0),
                    self.standing.len()
                ),
            ));
        }
        // Copies of each tile: the concealed ones (standing tiles and the winning tile), then
        // those of the melds as given. Saturating: more than 255 copies are still too many.
        let mut concealed = [0u8; 34];
        let mut suit_codes = 0;
        for &t in self.standing.iter().chain(winning_tile.iter()) {
            concealed[t.index()] = concealed[t.index()].saturating_add(1);
            // Wrapping: the codes mean something only once the hand validates.
            suit_codes = TILE_WEIGHT[t.index()].wrapping_add(suit_codes);
        }
        let mut copies = concealed;
        for m in &self.melds {
            for t in &m.tiles {
                copies[t.index()] = copies[t.index()].saturating_add(1);
            }
        }
        copies_violations(&copies, FieldPath::of("hand"), "", &mut violations);
        violations.extend(validate_context(self, &melds[..meld_count], *context));
        let Some(winning_tile) = winning_tile else {
            return Err(violations);
        };
        if !violations.is_empty() {
            return Err(violations);
        }
        let mut standing = [winning_tile; 13];
        for (slot, t) in standing.iter_mut().zip(&self.standing) {
            *slot = *t;
        }
        Ok(Hand {
            melds,
            meld_count: u8::try_from(meld_count).unwrap_or(4),
            concealed,
            suit_codes,
            standing,
            standing_count: u8::try_from(self.standing.len()).unwrap_or(13),
            winning_tile,
        })
    }
}

fn validate_context(hand: &HandInput, melds: &[Meld], ctx: WinContext) -> Vec<Violation> {
    let mut v = Vec::new();
    let mut push = |code, field: &'static str, message: &str| {
        v.push(Violation::new(
            code,
            FieldPath::of("context").field(field),
            message.to_owned(),
        ));
    };
    let self_drawn = ctx.method == WinMethod::SelfDrawn;
    if ctx.robbing_kong && self_drawn {
        push(
            ViolationCode::ContextConflict,
            "robbing_kong",
            "robbing a kong is a win on another player's tile, so it cannot be self-drawn",
        );
    }
    if ctx.replacement_draw && !self_drawn {
        push(
            ViolationCode::ContextConflict,
            "replacement_draw",
            "a replacement draw after a kong is self-drawn; it cannot be a win on a discard",
        );
    }
    if ctx.replacement_draw
        && !melds.iter().any(|m| m.is_kong())
        && !hand
            .melds
            .iter()
            .any(|m| matches!(m.kind, MeldKind::Kong | MeldKind::ConcealedKong))
    {
        push(
            ViolationCode::ContextConflict,
            "replacement_draw",
            "a replacement draw needs a kong in the winner's hand, and there is none",
        );
    }
    if ctx.last_tile && ctx.robbing_kong {
        push(
            ViolationCode::ContextConflict,
            "last_tile",
            "the last tile of the wall or the last discard cannot also be a robbed kong tile",
        );
    }
    if let Some(w) = hand.winning_tile {
        let in_standing = hand.standing.contains(&w);
        let in_melds = hand.melds.iter().any(|m| m.tiles.contains(&w));
        if ctx.robbing_kong && (in_standing || in_melds) {
            push(
                ViolationCode::ContextConflict,
                "robbing_kong",
                "a robbed kong tile is the fourth copy of a melded pung, so the winner cannot hold another copy",
            );
        }
        if ctx.last_copy && in_standing {
            push(
                ViolationCode::ContextConflict,
                "last_copy",
                "the winning tile cannot be the last copy while the winner holds another copy among the standing tiles",
            );
        }
    }
    if ctx.flowers > 8 {
        push(
            ViolationCode::FlowerCount,
            "flower_count",
            "there are only 8 flowers",
        );
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn copies_messages(hand: &HandInput) -> Vec<String> {
        let Err(violations) = hand.validate(&WinContext::default()) else {
            panic!("{hand:?} is valid");
        };
        violations
            .into_iter()
            .filter(|v| v.code == ViolationCode::TooManyCopies)
            .map(|v| v.message)
            .collect()
    }

    #[test]
    fn every_kind_with_too_many_copies_is_reported_with_its_count() {
        let one = |text: &str| text.parse::<Tile>().unwrap();
        // Five 1m among the standing tiles, a pung of 9p beside two more in hand and the
        // winning tile.
        let hand = HandInput {
            melds: vec![MeldInput {
                kind: MeldKind::Pung,
                tiles: vec![one("9p"); 3],
                claimed_from: None,
                promoted: false,
                claimed_tile: None,
            }],
            standing: [vec![one("1m"); 5], vec![one("9p"); 2], vec![one("E"); 3]].concat(),
            winning_tile: Some(one("9p")),
        };
        assert_eq!(
            copies_messages(&hand),
            [
                "tile 1m appears 5 times; there are only 4 copies",
                "tile 9p appears 6 times; there are only 4 copies",
            ]
        );
        // A count past what one byte holds is still reported, without a wrapped number.
        let many = HandInput {
            melds: Vec::new(),
            standing: vec![one("5s"); 300],
            winning_tile: Some(one("5s")),
        };
        assert_eq!(
            copies_messages(&many),
            ["tile 5s appears 255 or more times; there are only 4 copies"]
        );
    }
}
