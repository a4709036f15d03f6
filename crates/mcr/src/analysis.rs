//! Hands in play (牌理): how far a hand is from ready, which tiles help it, what each wait is
//! worth, and which discard leaves the best hand.
//!
//! A hand in play ([`InPlay`]) is the declared melds and the concealed tiles without a
//! winning tile: 13 − 3·melds tiles for a hand waiting for its next tile, 14 − 3·melds for a
//! hand that has just drawn and must discard. [`analyze`] answers:
//!
//! - for a waiting hand ([`Waiting`]): the distance to ready (向听数) over every shape the
//!   hand can still take, the useful tiles with the copies left, and, when ready, each wait
//!   scored as a win on a discard and self-drawn;
//! - for a drawn hand ([`Drawn`]): the distance of the fourteen tiles, its score when it is
//!   already complete, and the discard table: for each kind it can discard, the analysis of
//!   the thirteen tiles left, best first.
//!
//! Copies left of a tile are 4 − the copies in the hand (concealed and melded) − the copies
//! seen on the table. 和绝张 applies by itself when the copies seen and those in the hand's
//! own melds make three.
//!
//! ```
//! use mcr::analysis::{Analysis, InPlay, analyze};
//! use mcr::notation::parse_tiles;
//! use mcr::{HandInput, Ruleset, WinContext};
//! let hand = HandInput { standing: parse_tiles("1112345678999m")?, ..HandInput::default() };
//! let hand = InPlay::new(&hand, &[]).expect("a valid hand in play");
//! let Analysis::Waiting(waiting) = analyze(&hand, &WinContext::default(), &Ruleset::MIL) else {
//!     unreachable!("thirteen tiles wait");
//! };
//! assert_eq!(waiting.distance.shanten, 0);
//! assert_eq!(waiting.waits.len(), 9); // 九莲宝灯 waits on every tile of its suit
//! assert!(waiting.ready_to_win);
//! # Ok::<_, mcr::notation::ParseHandError>(())
//! ```

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::hand::{
    Hand, HandInput, Meld, MeldInput, WinContext, WinMethod, add_meld_counts, copies_violations,
    validate_melds,
};
use crate::ruleset::Ruleset;
use crate::score::sheet::Shape;
use crate::score::{Outcome, Scoring, score};
use crate::shape::shanten::{Draws, ShapeUseful, ready_waits, shanten_by_shape, useful_by_shape};
use crate::tile::{Counts, Tile, TileSet, drawing};
use crate::violation::{FieldPath, Violation, ViolationCode};

/// A validated hand in play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InPlay {
    /// The declared melds as given (for the hands scored on a wait).
    melds: Vec<MeldInput>,
    /// The validated melds.
    valid_melds: Vec<Meld>,
    /// The concealed tiles in the order given; for a drawn hand the last is the drawn tile.
    tiles: Vec<Tile>,
    concealed: Counts,
    /// Copies in the declared melds (a kong counts four).
    melded: Counts,
    /// Copies seen on the table outside the hand.
    visible: Counts,
}

impl InPlay {
    /// Validates a hand in play: the melds and standing tiles of `hand` (its winning tile, if
    /// any, counts as the last concealed tile, the one just drawn), 13 − 3·melds or
    /// 14 − 3·melds of them, and no more than four copies of a kind with `visible`, the
    /// tiles seen on the table outside the hand. Every violation is collected.
    pub fn new(hand: &HandInput, visible: &[Tile]) -> Result<InPlay, Vec<Violation>> {
        let mut violations = Vec::new();
        let (valid, meld_count) = validate_melds(&hand.melds, &mut violations);
        let tiles: Vec<Tile> = hand
            .standing
            .iter()
            .chain(hand.winning_tile.iter())
            .copied()
            .collect();
        let waiting = 13usize.checked_sub(3 * hand.melds.len());
        if waiting.is_none_or(|w| tiles.len() != w && tiles.len() != w + 1) {
            violations.push(Violation::new(
                ViolationCode::TileCountWrong,
                FieldPath::of("hand").field("standing"),
                match waiting {
                    Some(w) => format!(
                        "with {} declared meld(s) a hand in play holds {w} concealed tiles (waiting) or {} (just drawn), found {}",
                        hand.melds.len(),
                        w + 1,
                        tiles.len()
                    ),
                    None => format!(
                        "a hand has at most 4 declared melds, so no tile count fits {} melds",
                        hand.melds.len()
                    ),
                },
            ));
        }
        let mut concealed = [0u8; 34];
        for t in &tiles {
            concealed[t.index()] = concealed[t.index()].saturating_add(1);
        }
        let mut in_hand = concealed;
        for m in &hand.melds {
            for t in &m.tiles {
                in_hand[t.index()] = in_hand[t.index()].saturating_add(1);
            }
        }
        copies_violations(&in_hand, FieldPath::of("hand"), "", &mut violations);
        let mut visible_counts = [0u8; 34];
        for t in visible {
            visible_counts[t.index()] = visible_counts[t.index()].saturating_add(1);
        }
        // Kinds already too many in the hand are reported once, above.
        let with_visible = std::array::from_fn(|i| match in_hand[i] {
            0..=4 => in_hand[i].saturating_add(visible_counts[i]),
            _ => 0,
        });
        copies_violations(
            &with_visible,
            FieldPath::of("visible_tiles"),
            " in the hand and the visible tiles together",
            &mut violations,
        );
        if !violations.is_empty() {
            return Err(violations);
        }
        let valid_melds = valid[..meld_count].to_vec();
        let mut melded = [0u8; 34];
        for m in &valid_melds {
            add_meld_counts(&mut melded, *m);
        }
        Ok(InPlay {
            melds: hand.melds.clone(),
            valid_melds,
            tiles,
            concealed,
            melded,
            visible: visible_counts,
        })
    }

    /// The declared melds.
    pub fn melds(&self) -> &[Meld] {
        &self.valid_melds
    }

    /// The concealed tiles in the order given.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// Counts of the concealed tiles.
    pub const fn concealed_counts(&self) -> &Counts {
        &self.concealed
    }

    /// Copies outside the concealed tiles: in the declared melds and seen on the table.
    fn seen(&self) -> Counts {
        std::array::from_fn(|i| self.melded[i].saturating_add(self.visible[i]))
    }

    /// Whether the hand waits for its next tile (13 − 3·melds tiles) rather than having just
    /// drawn (14 − 3·melds).
    pub fn is_waiting(&self) -> bool {
        self.tiles.len() + 3 * self.melds.len() == 13
    }
}

/// The distance of one shape and its useful tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShapeDistance {
    /// The shape.
    pub shape: Shape,
    /// Tiles short of ready (−1 complete, 0 ready).
    pub shanten: i8,
    /// The kinds whose drawing lowers this shape's distance (a kind held four times
    /// included).
    pub useful: TileSet,
}

/// A tile and the copies of it still to be drawn or claimed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileCopies {
    /// The kind.
    pub tile: Tile,
    /// 4 − the copies in the hand − the copies seen (never negative).
    pub remaining: u8,
}

/// How far a group of concealed tiles is from ready, over every shape it can take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distance {
    /// The lowest distance over the shapes (−1 complete, 0 ready, 1 one tile short, …).
    pub shanten: i8,
    /// Each shape the hand can still take: the standard one, and without declared melds
    /// seven pairs, thirteen orphans and honours-and-knitted; the knitted straight with at
    /// most one declared meld.
    pub shapes: Vec<ShapeDistance>,
    /// The useful tiles of the shapes at the lowest distance, in tile order.
    pub useful: Vec<TileCopies>,
}

impl Distance {
    /// The copies left of every useful tile together.
    pub fn useful_count(&self) -> u32 {
        self.useful.iter().map(|u| u32::from(u.remaining)).sum()
    }
}

/// A hand won on a wait, with its context and score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WonHand {
    /// The circumstances of the win.
    pub context: WinContext,
    /// The score.
    pub scoring: Scoring,
}

/// The hand completed by a wait, and its score either way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaitScores {
    /// The complete hand, the wait as its winning tile.
    pub hand: Hand,
    /// Won on another player's discard.
    pub on_discard: WonHand,
    /// Self-drawn.
    pub on_self_drawn: WonHand,
}

/// One tile a ready hand waits on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wait {
    /// The waiting tile.
    pub tile: Tile,
    /// Copies left.
    pub remaining: u8,
    /// Its scores; `None` when the hand holds all four copies (a wait never to be won).
    pub scores: Option<WaitScores>,
}

impl Wait {
    /// Won on a discard, the hand reaches the minimum.
    pub fn wins_on_discard(&self) -> bool {
        self.scores
            .as_ref()
            .is_some_and(|s| s.on_discard.scoring.outcome == Outcome::Win)
    }

    /// Self-drawn, the hand reaches the minimum.
    pub fn wins_self_drawn(&self) -> bool {
        self.scores
            .as_ref()
            .is_some_and(|s| s.on_self_drawn.scoring.outcome == Outcome::Win)
    }

    /// Copies left of a wait that reaches the minimum one way or the other.
    fn winning_copies(&self) -> u32 {
        if self.wins_on_discard() || self.wins_self_drawn() {
            u32::from(self.remaining)
        } else {
            0
        }
    }
}

/// The analysis of a waiting hand (13 − 3·melds concealed tiles).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waiting {
    /// Distance to ready and useful tiles.
    pub distance: Distance,
    /// When ready, every tile that completes the hand, in tile order.
    pub waits: Vec<Wait>,
    /// At least one wait with copies left reaches the minimum (on a discard or self-drawn).
    pub ready_to_win: bool,
}

/// One row of the discard table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Discard {
    /// The kind discarded.
    pub tile: Tile,
    /// The analysis of the thirteen tiles left (the discarded copy counts as seen).
    pub after: Waiting,
    /// For a discard that leaves the hand one tile from ready: the useful tiles after which
    /// some discard leaves a ready hand with a wait that reaches the minimum and has copies
    /// left.
    pub scoring_useful: TileSet,
}

impl Discard {
    /// Copies left of the waits that reach the minimum.
    pub fn winning_copies(&self) -> u32 {
        self.after.waits.iter().map(Wait::winning_copies).sum()
    }
}

/// A drawn hand that is already complete, scored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completed {
    /// The complete hand, the last tile given as its winning tile.
    pub hand: Hand,
    /// Its score self-drawn.
    pub won: WonHand,
}

/// The analysis of a hand that has just drawn (14 − 3·melds concealed tiles).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drawn {
    /// The distance of the fourteen tiles (−1 when complete); no useful tiles.
    pub distance: Distance,
    /// When the hand is complete: its score self-drawn on the last tile given.
    pub complete: Option<Box<Completed>>,
    /// For each kind among the concealed tiles, best first: lowest distance, then the most
    /// copies left of waits that reach the minimum, then the most copies of useful tiles,
    /// then tile order.
    pub discards: Vec<Discard>,
}

/// The analysis of a hand in play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Analysis {
    /// 13 − 3·melds concealed tiles.
    Waiting(Waiting),
    /// 14 − 3·melds concealed tiles.
    Drawn(Drawn),
}

/// Analyses a hand in play. Of `context` only the winds and the flowers are used: each wait
/// is scored on a discard and self-drawn, with 和绝张 when the copies seen and melded make
/// three, and no other circumstance.
pub fn analyze(hand: &InPlay, context: &WinContext, rules: &Ruleset) -> Analysis {
    let table = Table {
        hand,
        context: WinContext {
            seat_wind: context.seat_wind,
            prevalent_wind: context.prevalent_wind,
            flowers: context.flowers,
            ..WinContext::default()
        },
        rules,
    };
    if hand.is_waiting() {
        Analysis::Waiting(table.waiting(&hand.concealed, &hand.tiles, None))
    } else {
        Analysis::Drawn(table.drawn())
    }
}

/// The distance to ready of a hand in play over every shape and, for a waiting hand, its
/// useful tiles with the copies left: the first part of [`analyze`], without any score.
pub fn distance(hand: &InPlay) -> Distance {
    distance_of(
        &hand.concealed,
        hand.valid_melds.len(),
        &hand.seen(),
        hand.is_waiting(),
    )
}

/// What every part of one analysis shares.
struct Table<'a> {
    hand: &'a InPlay,
    /// The winds and flowers, no circumstance.
    context: WinContext,
    rules: &'a Ruleset<'a>,
}

impl Table<'_> {
    fn meld_count(&self) -> usize {
        self.hand.valid_melds.len()
    }

    /// Copies seen outside the concealed tiles: melded, visible, and a discarded one.
    fn seen(&self, discarded: Option<Tile>) -> Counts {
        let mut seen = self.hand.seen();
        if let Some(d) = discarded {
            seen[d.index()] = seen[d.index()].saturating_add(1);
        }
        seen
    }

    fn distance(&self, concealed: &Counts, seen: &Counts, with_useful: bool) -> Distance {
        distance_of(concealed, self.meld_count(), seen, with_useful)
    }

    /// The analysis of 13 − 3·melds concealed tiles (`tiles`, counted in `concealed`), after
    /// `discarded` was let go.
    fn waiting(&self, concealed: &Counts, tiles: &[Tile], discarded: Option<Tile>) -> Waiting {
        let seen = self.seen(discarded);
        let distance = self.distance(concealed, &seen, true);
        let waits: Vec<Wait> = if distance.shanten == 0 {
            distance
                .useful
                .iter()
                .map(|u| self.wait(concealed, tiles, &seen, u.tile))
                .collect()
        } else {
            Vec::new()
        };
        let ready_to_win = waits.iter().any(|w| w.winning_copies() > 0);
        Waiting {
            distance,
            waits,
            ready_to_win,
        }
    }

    /// Whether the hand holds all four copies of `tile` (a wait never to be won).
    fn holds_all(&self, concealed: &Counts, tile: Tile) -> bool {
        concealed[tile.index()] + self.hand.melded[tile.index()] >= 4
    }

    fn wait(&self, concealed: &Counts, tiles: &[Tile], seen: &Counts, tile: Tile) -> Wait {
        let remaining = remaining(concealed, seen, tile);
        let scores = (!self.holds_all(concealed, tile))
            .then(|| self.won(tiles, tile, last_copy(concealed, seen, tile)));
        Wait {
            tile,
            remaining,
            scores,
        }
    }

    /// The hand `tiles` + `tile` scored both ways.
    fn won(&self, tiles: &[Tile], tile: Tile, last_copy: bool) -> WaitScores {
        let hand = self.complete_hand(tiles, tile);
        let score_with = |method| {
            let context = self.win_context(method, last_copy);
            WonHand {
                context,
                scoring: score(&hand, &context, self.rules),
            }
        };
        WaitScores {
            on_discard: score_with(WinMethod::Discard),
            on_self_drawn: score_with(WinMethod::SelfDrawn),
            hand,
        }
    }

    fn win_context(&self, method: WinMethod, last_copy: bool) -> WinContext {
        WinContext {
            method,
            last_copy,
            ..self.context
        }
    }

    /// The hand of the melds, `tiles` and the winning tile `tile`. The hand in play was
    /// validated, and a wait on a kind the hand holds four of is never scored, so the parts
    /// are sound.
    fn complete_hand(&self, tiles: &[Tile], tile: Tile) -> Hand {
        Hand::of_checked_parts(&self.hand.valid_melds, tiles, tile)
    }

    fn drawn(&self) -> Drawn {
        let hand = self.hand;
        let seen = self.seen(None);
        let distance = self.distance(&hand.concealed, &seen, false);
        let complete = if distance.shanten < 0 {
            hand.tiles.split_last().map(|(&last, rest)| {
                let context = self.win_context(
                    WinMethod::SelfDrawn,
                    !rest.contains(&last) && seen[last.index()] >= 3,
                );
                let hand = self.complete_hand(rest, last);
                let scoring = score(&hand, &context, self.rules);
                Box::new(Completed {
                    hand,
                    won: WonHand { context, scoring },
                })
            })
        } else {
            None
        };
        let mut found = Found::default();
        let mut discards: Vec<Discard> = hand
            .tiles
            .iter()
            .copied()
            .collect::<TileSet>()
            .iter()
            .map(|d| self.discard(d, &mut found))
            .collect();
        discards.sort_by_cached_key(|d| {
            (
                d.after.distance.shanten,
                std::cmp::Reverse(d.winning_copies()),
                std::cmp::Reverse(d.after.distance.useful_count()),
                d.tile,
            )
        });
        Drawn {
            distance,
            complete,
            discards,
        }
    }

    fn discard(&self, tile: Tile, found: &mut Found) -> Discard {
        let (concealed, tiles) = without(&self.hand.concealed, &self.hand.tiles, tile);
        let after = self.waiting(&concealed, &tiles, Some(tile));
        let scoring_useful = if after.distance.shanten == 1 {
            let seen = self.seen(Some(tile));
            // The row's thirteen tiles kept for its draws.
            let draws = Draws::new(&concealed, self.meld_count());
            after
                .distance
                .useful
                .iter()
                .map(|u| u.tile)
                .filter(|&u| self.leads_to_a_scoring_wait(&concealed, &draws, &seen, u, found))
                .collect()
        } else {
            TileSet::default()
        };
        Discard {
            tile,
            after,
            scoring_useful,
        }
    }

    /// Whether drawing `drawn` into `concealed` (one tile from ready, kept in `draws`; `seen`
    /// counts the copies outside them) allows a discard that leaves a ready hand with a wait that has
    /// copies left and reaches the minimum. The answer for each hand of thirteen is kept in
    /// `found` for the rest of the analysis: different discards and draws often meet in one
    /// hand (the first answer found for it stands).
    fn leads_to_a_scoring_wait(
        &self,
        concealed: &Counts,
        draws: &Draws,
        seen: &Counts,
        drawn: Tile,
        found: &mut Found,
    ) -> bool {
        let with_draw = drawing(concealed, drawn);
        if with_draw[drawn.index()] > 4 {
            return false;
        }
        let melds = self.meld_count();
        draws.ready_after_discard(drawn).iter().any(|next| {
            let mut left = with_draw;
            left[next.index()] -= 1;
            let key = Packed::of(&left);
            if let Some(&known) = found.ready_scoring.get(&key) {
                return known;
            }
            let mut seen = *seen;
            seen[next.index()] = seen[next.index()].saturating_add(1);
            let scoring = ready_waits(&left, melds).iter().any(|wait| {
                remaining(&left, &seen, wait) > 0 && self.reaches_minimum(&left, &seen, wait, found)
            });
            found.ready_scoring.insert(key, scoring);
            scoring
        })
    }

    /// Whether the wait `tile` of the ready `concealed` reaches the minimum one way or the
    /// other. Self-drawn first: it scores at least the discard's points but for the few fans
    /// of a win on a discard (全求人), so it decides most hands alone (three in four of the
    /// analysis corpus's), and the discard is scored only when it falls short. The answer
    /// for each complete hand, winning tile and last copy is kept in `found`.
    fn reaches_minimum(
        &self,
        concealed: &Counts,
        seen: &Counts,
        tile: Tile,
        found: &mut Found,
    ) -> bool {
        if self.holds_all(concealed, tile) {
            return false;
        }
        let last_copy = last_copy(concealed, seen, tile);
        let key = Packed::of(&drawing(concealed, tile)).with(tile, last_copy);
        *found.reaches.entry(key).or_insert_with(|| {
            let mut buffer = [tile; 14];
            let hand = self.complete_hand(tiles_of(concealed, &mut buffer), tile);
            [WinMethod::SelfDrawn, WinMethod::Discard]
                .into_iter()
                .any(|method| {
                    score(&hand, &self.win_context(method, last_copy), self.rules).outcome
                        == Outcome::Win
                })
        })
    }
}

/// What the rows of one discard table share: the answers already found, by hand.
#[derive(Default)]
struct Found {
    /// Whether a hand of thirteen is ready with a wait that has copies left and reaches the
    /// minimum.
    ready_scoring: HashMap<Packed, bool, BuildHasherDefault<PackedHasher>>,
    /// Whether a complete hand won on a tile, with or without 和绝张, reaches the minimum.
    reaches: HashMap<Packed, bool, BuildHasherDefault<PackedHasher>>,
}

/// Tile counts (each at most 7) three bits a kind, with room above for a tile and a flag.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Packed(u128);

impl Packed {
    fn of(counts: &Counts) -> Packed {
        Packed(
            counts
                .iter()
                .rev()
                .fold(0, |bits, &n| (bits << 3) | u128::from(n.min(7))),
        )
    }

    /// With a tile and a flag above the 102 bits of the counts.
    fn with(self, tile: Tile, flag: bool) -> Packed {
        Packed(self.0 | (u128::from(tile.index_u8()) << 102) | (u128::from(flag) << 110))
    }
}

/// A hasher for [`Packed`] keys: a multiply and a fold, no protection against chosen keys
/// (the keys come from one analysis's own hands).
#[derive(Default)]
struct PackedHasher(u64);

impl Hasher for PackedHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    #[allow(clippy::cast_possible_truncation)]
    fn write_u64(&mut self, n: u64) {
        let mixed = u128::from(self.0 ^ n) * 0x9E37_79B9_7F4A_7C15;
        // The high and low halves of the product, folded: the cast keeps the low half.
        self.0 = (mixed as u64) ^ ((mixed >> 64) as u64);
    }

    #[allow(clippy::cast_possible_truncation)]
    fn write_u128(&mut self, n: u128) {
        // The two halves of the key: the casts keep each half.
        self.write_u64(n as u64);
        self.write_u64((n >> 64) as u64);
    }
}

/// The tiles of `counts` in tile order, written into `buffer` (a waiting hand holds at most
/// 13: the rest of the buffer is left out). A loop over the counts, not an iterator of
/// repeats, and no allocation: this runs for every hand the discard table scores.
fn tiles_of<'a>(counts: &Counts, buffer: &'a mut [Tile; 14]) -> &'a [Tile] {
    let mut len = 0;
    for (&tile, &n) in Tile::ALL.iter().zip(counts) {
        for _ in 0..n {
            if let Some(slot) = buffer.get_mut(len) {
                *slot = tile;
                len += 1;
            }
        }
    }
    &buffer[..len]
}

/// 和绝张: the wait `tile` is the last copy when the hand holds none and three are seen.
fn last_copy(concealed: &Counts, seen: &Counts, tile: Tile) -> bool {
    concealed[tile.index()] == 0 && seen[tile.index()] >= 3
}

/// The distances of `concealed` beside `melds` declared melds, with the useful tiles when
/// `with_useful`; copies left count `seen`.
fn distance_of(concealed: &Counts, melds: usize, seen: &Counts, with_useful: bool) -> Distance {
    let shapes: [Option<ShapeUseful>; 5] = if with_useful {
        useful_by_shape(concealed, melds).shapes()
    } else {
        let d = shanten_by_shape(concealed, melds);
        [
            Some(d.standard),
            d.seven_pairs,
            d.thirteen_orphans,
            d.honors_and_knitted,
            d.knitted_straight,
        ]
        .map(|d| {
            d.map(|shanten| ShapeUseful {
                shanten,
                useful: TileSet::default(),
            })
        })
    };
    let shanten = shapes
        .iter()
        .flatten()
        .map(|s| s.shanten)
        .min()
        .unwrap_or(i8::MAX);
    let mut best_useful = TileSet::default();
    let shapes: Vec<ShapeDistance> = SHAPES
        .into_iter()
        .zip(shapes)
        .filter_map(|(shape, s)| {
            let s = s?;
            if s.shanten == shanten {
                best_useful = best_useful.union(s.useful);
            }
            Some(ShapeDistance {
                shape,
                shanten: s.shanten,
                useful: s.useful,
            })
        })
        .collect();
    Distance {
        shanten,
        shapes,
        useful: best_useful
            .iter()
            .map(|tile| TileCopies {
                tile,
                remaining: remaining(concealed, seen, tile),
            })
            .collect(),
    }
}

/// The five shapes in the order of the fields of [`ShantenByShape`](crate::shape::shanten::ShantenByShape).
const SHAPES: [Shape; 5] = [
    Shape::Standard,
    Shape::SevenPairs,
    Shape::ThirteenOrphans,
    Shape::HonorsAndKnitted,
    Shape::KnittedStraight,
];

/// 4 − the copies held − the copies seen, never negative.
fn remaining(concealed: &Counts, seen: &Counts, tile: Tile) -> u8 {
    let i = tile.index();
    4u8.saturating_sub(concealed[i]).saturating_sub(seen[i])
}

/// The counts and tiles without one copy of `tile` (the first in input order).
fn without(concealed: &Counts, tiles: &[Tile], tile: Tile) -> (Counts, Vec<Tile>) {
    let mut counts = *concealed;
    counts[tile.index()] -= 1;
    let mut rest = tiles.to_vec();
    if let Some(at) = rest.iter().position(|&t| t == tile) {
        rest.remove(at);
    }
    (counts, rest)
}
