//! Scoring a validated hand: every reading, its fans, and the best one.
//!
//! - `facts`: what is read of a hand once for every reading, and the best reading so far;
//! - `detect`: the fans of one reading, before exclusions;
//! - `standard`: the standard readings, scored from the division table's summaries;
//! - `tally`: the fans of one reading as a mask and a few counts;
//! - `exclusion`: the exclusion pass (不计) and the points of what stands;
//! - [`sheet`]: the score sheet of a scoring (elements, fan lines, which sets form a fan).

pub(crate) mod detect;
mod exclusion;
mod facts;
pub mod sheet;
mod standard;
mod tally;

pub use exclusion::points;

use crate::fan::{Fan, FanCounts};
use crate::hand::{Hand, WinContext, WinMethod, Wind};
use crate::ruleset::Ruleset;
use crate::shape::division::{standard_divisions, suit_codes};
use crate::shape::wait::waits;
use crate::shape::{KNITTED_STRAIGHTS, Reading, Set, SetKind, is_orphan};
use crate::tile::Tile;
use detect::{concealment_fans, event_fans, kong_fans, pung_fans, tile_fans, tile_hog, wait_fan};
use exclusion::standing;
use facts::{Best, Facts, Kinds, kinds};
use standard::best_standard;
use tally::Tally;

/// The minimum a hand must score, flowers excluded (起和分).
pub use crate::ruleset::MINIMUM_FAN;

/// What a scored hand amounts to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// A winning shape worth at least 8 fan without flowers.
    Win,
    /// A winning shape under 8 fan (flowers do not count toward the minimum).
    BelowMinimum,
    /// Not a winning shape.
    NotWinningShape,
}

/// The result of scoring a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scoring {
    /// Win, under the minimum, or not a winning shape.
    pub outcome: Outcome,
    /// The fans of the chosen reading, flowers (花牌) included.
    pub fans: FanCounts,
    /// The chosen reading; `None` when the hand is not a winning shape.
    pub reading: Option<Reading>,
    /// Points of the fans without flowers.
    pub fan_total: u32,
    /// Points from flowers (one each).
    pub flower_points: u32,
    /// `fan_total + flower_points`.
    pub total: u32,
    /// The winning tile (for the score sheet).
    pub winning_tile: Tile,
    /// The seat wind of the win.
    pub seat_wind: Wind,
    /// The prevalent wind of the win.
    pub prevalent_wind: Wind,
}

/// A mask of tile kinds (see [`Kinds`]).
const fn mask_of(tiles: &[Tile]) -> u64 {
    let mut m = 0;
    let mut k = 0;
    while k < tiles.len() {
        m |= 1 << tiles[k].index();
        k += 1;
    }
    m
}

/// The thirteen orphans' kinds.
const ORPHANS: u64 = {
    let mut m = 0u64;
    let mut i = 0;
    while i < 34 {
        if is_orphan(i) {
            m |= 1 << i;
        }
        i += 1;
    }
    m
};

/// The kinds of each knitted straight of [`KNITTED_STRAIGHTS`].
const KNITTED_MASKS: [u64; 6] = {
    let mut masks = [0; 6];
    let mut k = 0;
    while k < 6 {
        masks[k] = mask_of(&KNITTED_STRAIGHTS[k]);
        k += 1;
    }
    masks
};

/// Scores a validated hand under a ruleset.
pub fn score(hand: &Hand, context: &WinContext, rules: &Ruleset) -> Scoring {
    let win = hand.winning_tile();
    let concealed = hand.concealed_counts();
    // Without melds every tile is concealed: the counts are not copied.
    let with_melds;
    let all = if hand.melds().is_empty() {
        concealed
    } else {
        with_melds = hand.all_counts();
        &with_melds
    };
    let self_drawn = context.method == WinMethod::SelfDrawn;
    let claimed_melds = hand.melds().iter().filter(|m| m.is_claimed()).count();
    let kongs = hand.melds().iter().filter(|m| m.is_kong()).count();
    // The winning tile is the last copy when the winner's own melds show the other three.
    let melded_copies = all[win.index()] - concealed[win.index()];
    let last_copy = (context.last_copy || melded_copies == 3) && concealed[win.index()] == 1;
    let kong_event = if self_drawn {
        context.replacement_draw
    } else {
        context.robbing_kong
    };
    let mut common = Tally::default();
    event_fans(
        self_drawn,
        last_copy,
        context.last_tile,
        kong_event,
        &mut common,
    );
    concealment_fans(claimed_melds, self_drawn, &mut common);
    // The concealed kinds serve the shapes of at most one declared meld (the special ones, and
    // the seven-pairs wait without melds).
    // Without melds the concealed tiles are all the tiles: one reading serves both.
    let all_kinds = kinds(all);
    let concealed_kinds = match hand.melds().len() {
        0 => all_kinds,
        1 => kinds(concealed),
        _ => Kinds::default(),
    };
    let facts = Facts {
        rules,
        hand,
        win,
        self_drawn,
        concealed,
        all,
        present: all_kinds.held,
        held: concealed_kinds.held,
        odd: concealed_kinds.odd,
        fours: all_kinds.four,
        kongs,
        prevalent: context.prevalent_wind.tile(),
        seat: context.seat_wind.tile(),
        common,
    };

    let mut best = special_reading(&facts);
    // A standard reading tying with seven pairs takes its place.
    let seven_pairs_found = best.as_ref().is_some_and(|b| {
        matches!(b.reading, Reading::SevenPairs { .. }) && b.standing.has(Fan::SevenPairs)
    });
    if best.is_none() || seven_pairs_found {
        best_standard(&facts, &mut best, seven_pairs_found);
    }

    let flower_points = u32::from(context.flowers) * u32::from(rules.points(Fan::FlowerTiles));
    match best {
        None => Scoring {
            outcome: Outcome::NotWinningShape,
            fans: FanCounts::default(),
            reading: None,
            fan_total: 0,
            flower_points,
            total: flower_points,
            winning_tile: win,
            seat_wind: context.seat_wind,
            prevalent_wind: context.prevalent_wind,
        },
        Some(best) => {
            let fan_total = best.standing.points;
            let mut fans = best.standing.fans(&best.fans);
            if context.flowers > 0 {
                fans.set(Fan::FlowerTiles, context.flowers);
            }
            Scoring {
                outcome: if fan_total >= rules.minimum_fan {
                    Outcome::Win
                } else {
                    Outcome::BelowMinimum
                },
                fans,
                reading: Some(best.reading),
                fan_total,
                flower_points,
                total: fan_total + flower_points,
                winning_tile: win,
                seat_wind: context.seat_wind,
                prevalent_wind: context.prevalent_wind,
            }
        }
    }
}

/// The special shapes, in the order the reference calculators try them: seven pairs,
/// honours and knitted, thirteen orphans (all without melds), then the knitted straight
/// with one set and a pair (at most one declared meld).
fn special_reading(f: &Facts<'_>) -> Option<Best> {
    let declared = f.hand.melds().len();
    if declared == 0 {
        // Without melds the fourteen tiles are concealed: seven pairs hold every kind an even
        // number of times.
        if f.odd == 0 {
            return Some(seven_pairs(f));
        }
        let distinct = f.held.count_ones();
        if distinct == 14
            && let Some(r) = honors_and_knitted(f)
        {
            return Some(r);
        }
        if f.held == ORPHANS {
            let pair = Tile::ALL
                .into_iter()
                .find(|t| f.concealed[t.index()] == 2)
                .unwrap_or(Tile::EAST);
            let mut raw = f.common;
            raw.add(Fan::ThirteenOrphans, 1);
            return Some(kept(&raw, f.rules, Reading::ThirteenOrphans { pair }));
        }
    }
    if declared <= 1 {
        return knitted_straight(f);
    }
    None
}

/// A reading with its fans `raw`, and what stands of them.
fn kept(raw: &Tally, rules: &Ruleset, reading: Reading) -> Best {
    Best {
        fans: *raw,
        standing: standing(raw, rules),
        reading,
    }
}

fn seven_pairs(f: &Facts<'_>) -> Best {
    // The kinds held (every count is two or four), in tile order; a kind held four times
    // is two pairs.
    let mut pairs = [Tile::EAST; 7];
    let mut slots = pairs.iter_mut();
    let mut held = f.held;
    while held != 0 {
        let i = held.trailing_zeros() as usize;
        held &= held - 1;
        let t = Tile::ALL[i];
        for _ in 0..=(f.fours >> i & 1) {
            if let Some(slot) = slots.next() {
                *slot = t;
            }
        }
    }
    let mut raw = f.common;
    let shifted = pairs[0].is_numbered()
        && pairs
            .windows(2)
            .all(|w| w[1].index() == w[0].index() + 1 && w[1].suit() == w[0].suit());
    raw.add(
        if shifted {
            Fan::SevenShiftedPairs
        } else {
            Fan::SevenPairs
        },
        1,
    );
    tile_fans(f.present, &mut raw);
    raw.add(
        Fan::TileHog,
        tile_hog(f.fours, 0, f.rules.seven_pairs_honor_tile_hog),
    );
    kept(&raw, f.rules, Reading::SevenPairs { pairs })
}

fn honors_and_knitted(f: &Facts<'_>) -> Option<Best> {
    // No melds: the tiles present are the concealed ones.
    let numbered = f.present & ((1 << 27) - 1);
    let count = numbered.count_ones();
    if !(7..=9).contains(&count) {
        return None;
    }
    let mask = |k: &[Tile; 9]| k.iter().fold(0u64, |m, t| m | 1 << t.index());
    if !KNITTED_STRAIGHTS.iter().any(|k| numbered & !mask(k) == 0) {
        return None;
    }
    let mut raw = f.common;
    if count == 7 {
        raw.add(Fan::GreaterHonorsAndKnittedTiles, 1);
    } else {
        raw.add(Fan::LesserHonorsAndKnittedTiles, 1);
        if count == 9 && f.rules.lesser_honors_knitted_straight {
            raw.add(Fan::KnittedStraight, 1);
        }
    }
    let mut tiles = [Tile::EAST; 14];
    for (slot, t) in tiles
        .iter_mut()
        .zip(Tile::ALL.into_iter().filter(|t| f.concealed[t.index()] > 0))
    {
        *slot = t;
    }
    Some(kept(&raw, f.rules, Reading::HonorsAndKnitted { tiles }))
}

/// 组合龙 + one set + a pair (the set may be the one declared meld).
fn knitted_straight(f: &Facts<'_>) -> Option<Best> {
    let knitted = KNITTED_STRAIGHTS
        .into_iter()
        .zip(KNITTED_MASKS)
        .find(|&(_, mask)| mask & !f.held == 0)?
        .0;
    let mut rest = *f.concealed;
    for t in &knitted {
        rest[t.index()] -= 1;
    }
    let declared = f.hand.melds();
    let divisions = standard_divisions(&rest, suit_codes(&rest), 1 - declared.len());
    if divisions.len != 1 {
        return None;
    }
    let d = divisions.items[0];
    let set = match declared.first() {
        Some(m) => Set::from_meld(*m),
        None => d.sets[0],
    };
    let pair = d.pair;
    let mut raw = f.common;
    raw.add(Fan::KnittedStraight, 1);
    tile_fans(f.present, &mut raw);
    raw.add(Fan::TileHog, tile_hog(f.fours, f.kongs, true));
    if set.kind == SetKind::Chow {
        if pair.is_numbered() && f.rules.knitted_straight_all_chows {
            raw.add(Fan::AllChows, 1);
        }
    } else {
        pung_fans(&[set.tile], f.prevalent, f.seat, &mut raw);
        if set.kind == SetKind::Kong {
            let (melded, concealed) = if set.claimed { (1, 0) } else { (0, 1) };
            kong_fans(melded, concealed, f.rules, &mut raw);
        }
    }
    // Waits are read in the part outside the knitted tiles.
    if declared.is_empty() {
        if rest[f.win.index()] > 0 {
            let mut before = rest;
            before[f.win.index()] -= 1;
            let mut held = *f.all;
            held[f.win.index()] -= 1;
            let w = waits(&before, &held, f.rules.wait_counts_exhausted_tiles);
            if w.is_power_of_two()
                && let Some(fan) = wait_fan(std::iter::once(&set), pair, f.win)
            {
                raw.add(fan, 1);
            }
        }
    } else if !knitted.contains(&f.win) || f.concealed[f.win.index()] == 3 {
        raw.add(Fan::SingleWait, 1);
    }
    Some(kept(
        &raw,
        f.rules,
        Reading::KnittedStraight { knitted, set, pair },
    ))
}
