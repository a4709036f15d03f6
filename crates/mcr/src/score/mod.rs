//! Scoring a validated hand: every reading, its fans, and the best one.
//!
//! - `detect`: the fans of one reading, before exclusions;
//! - `exclusion`: the exclusion pass (不计) and the points of what stands;
//! - [`sheet`]: the score sheet of a scoring (elements, fan lines, which sets form a fan).

pub(crate) mod detect;
mod exclusion;
pub mod sheet;

pub use exclusion::points;

use crate::fan::{Fan, FanCounts};
use crate::hand::{Hand, WinContext, WinMethod, Wind};
use crate::ruleset::Ruleset;
use crate::shape::division::{standard_divisions, suit_codes};
use crate::shape::wait::{is_only_wait, waits};
use crate::shape::{KNITTED_STRAIGHTS, Reading, Set, SetKind, is_orphan};
use crate::tile::{Counts, RANK_WEIGHT, Tile};
use detect::{
    StandardInput, concealment_fans, event_fans, kong_fans, pung_fans, standard_fans, tile_fans,
    tile_hog, wait_fan,
};
use exclusion::{apply_exclusions, standing};

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

/// Facts about the hand shared by every reading.
struct Facts<'a> {
    rules: &'a Ruleset<'a>,
    hand: &'a Hand,
    win: Tile,
    self_drawn: bool,
    concealed: Counts,
    all: Counts,
    /// Tile kinds as bit masks (bit `i` for [`Tile::index`] `i`), read once: those in the
    /// hand, those concealed and those concealed an odd number of times (with at most one
    /// declared meld; else none), those held four times.
    present: u64,
    held: u64,
    odd: u64,
    fours: u64,
    kongs: usize,
    prevalent: Tile,
    seat: Tile,
    /// Event and concealment fans, the same for every reading.
    common: FanCounts,
}

impl Facts<'_> {
    fn meld_sets(&self) -> impl Iterator<Item = Set> + '_ {
        self.hand.melds().iter().map(|m| Set::from_meld(*m))
    }
}

/// Tile kinds of some counts as bit masks over [`Tile::index`]: those held, those held an
/// odd number of times, those held four times.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Kinds {
    held: u64,
    odd: u64,
    four: u64,
}

/// Reads [`Kinds`] eight counts at a time: each count is a byte of a word, a byte's test
/// leaves its high bit, and one multiplication gathers the eight high bits. The counts are a
/// hand's (a validated hand holds no fifth copy): at most four, so no byte carries into the
/// next, and four is the one count with its third bit set.
#[inline] // each caller reads two of the three masks: the third is not computed
fn kinds(counts: &Counts) -> Kinds {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = LOW << 7;
    // The high bit of byte k moves to bit k.
    let gather = |high: u64| (high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
    let nonzero = |w: u64| (w + 0x7f * LOW) & HIGH;
    let mut k = Kinds::default();
    let mut read = |w: u64, shift: usize| {
        k.held |= gather(nonzero(w)) << shift;
        k.odd |= gather((w & LOW) << 7) << shift;
        k.four |= gather((w & (4 * LOW)) << 5) << shift;
    };
    for shift in [0, 8, 16, 24] {
        let word: [u8; 8] = counts[shift..shift + 8].try_into().unwrap_or([0; 8]);
        read(u64::from_le_bytes(word), shift);
    }
    // The last two kinds.
    read(u64::from(counts[32]) | u64::from(counts[33]) << 8, 32);
    k
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
    let concealed = *hand.concealed_counts();
    let all = hand.all_counts();
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
    let mut common = FanCounts::default();
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
    let all_kinds = kinds(&all);
    let concealed_kinds = match hand.melds().len() {
        0 => all_kinds,
        1 => kinds(&concealed),
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

    let mut best: Option<(u32, FanCounts, Reading)> = None;
    let special = special_reading(&facts);
    let mut seven_pairs_found = false;
    if let Some((fans, reading)) = special {
        seven_pairs_found =
            matches!(reading, Reading::SevenPairs { .. }) && fans.has(Fan::SevenPairs);
        best = Some((points(&fans, rules), fans, reading));
    }
    if best.is_none() || seven_pairs_found {
        best = best_standard(&facts, best, seven_pairs_found);
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
        Some((fan_total, mut fans, reading)) => {
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
                reading: Some(reading),
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

/// Standard readings: every division, scored; keep the highest. Ties keep the earlier
/// division, except that a reading with 一色三同顺 or 三同刻 (or any standard reading tying
/// with seven pairs) takes the place, as in the reference calculators.
fn best_standard(
    f: &Facts<'_>,
    mut best: Option<(u32, FanCounts, Reading)>,
    seven_pairs_found: bool,
) -> Option<(u32, FanCounts, Reading)> {
    let declared = f.hand.melds().len();
    let divisions = standard_divisions(&f.concealed, f.hand.suit_codes(), 4 - declared);
    if divisions.len == 0 {
        return best;
    }
    let mut before = f.concealed;
    before[f.win.index()] -= 1;
    let mut held = f.all;
    held[f.win.index()] -= 1;
    // The wait matters only if the winning tile sits in a concealed chow or the pair of some
    // division (it is otherwise never 边张, 坎张 or 单钓将): skip the search when it cannot.
    let wait_can_score = divisions.items[..divisions.len]
        .iter()
        .any(|d| wait_fan(d.sets[..d.len].iter(), d.pair, f.win).is_some());
    // Thirteen concealed tiles with one kind held an odd number of times wait on it in seven
    // pairs too.
    let odd_before = f.odd ^ (1 << f.win.index());
    let seven_pairs_wait = (declared == 0 && odd_before.is_power_of_two())
        .then(|| odd_before.trailing_zeros() as usize);
    // The suits' codes before the win: the winning tile's rank weighs one less.
    let mut before_codes = f.hand.suit_codes();
    if f.win.is_numbered() {
        let w = f.win.index();
        before_codes[w / 9] -= RANK_WEIGHT[w % 9];
    }
    let unique_wait = wait_can_score
        && is_only_wait(
            &before,
            before_codes,
            &held,
            seven_pairs_wait,
            divisions.items[0].pair,
            f.rules.wait_counts_exhausted_tiles,
            f.win,
        );
    let nine_gates = is_nine_gates(f, &before);
    let mut hand_fans = f.common;
    tile_fans(f.present, &mut hand_fans);
    hand_fans.add(Fan::TileHog, tile_hog(f.fours, f.kongs, true));
    for d in &divisions.items[..divisions.len] {
        let mut sets = [d.sets[0]; 4];
        for (slot, s) in sets
            .iter_mut()
            .zip(f.meld_sets().chain(d.sets[..d.len].iter().copied()))
        {
            *slot = s;
        }
        let mut raw = hand_fans;
        let input = StandardInput {
            sets: &sets,
            pair: d.pair,
            win: f.win,
            self_drawn: f.self_drawn,
            unique_wait,
            nine_gates,
            prevalent: f.prevalent,
            seat: f.seat,
        };
        standard_fans(&input, f.rules, &mut raw);
        let standing = standing(&raw, f.rules);
        let total = standing.points;
        let take = match &best {
            None => true,
            Some((best_total, _, _)) => {
                total > *best_total
                    || (total == *best_total
                        && (standing.has(Fan::PureTripleChow)
                            || seven_pairs_found
                            || standing.has(Fan::TriplePung)))
            }
        };
        if take {
            let keep_total = best.as_ref().map_or(total, |(t, _, _)| total.max(*t));
            let reading = Reading::Standard { sets, pair: d.pair };
            best = Some((keep_total, standing.fans(&raw), reading));
        }
    }
    best
}

/// 九莲宝灯: no melds, and the thirteen tiles before the win are 1112345678999 of one suit.
fn is_nine_gates(f: &Facts<'_>, before: &Counts) -> bool {
    if !f.hand.melds().is_empty() {
        return false;
    }
    let Some(suit) = f.win.suit() else {
        return false;
    };
    let base = suit.index() * 9;
    let pattern = [3, 1, 1, 1, 1, 1, 1, 1, 3];
    before[base..base + 9] == pattern && before.iter().map(|&n| usize::from(n)).sum::<usize>() == 13
}

/// The special shapes, in the order the reference calculators try them: seven pairs,
/// honours and knitted, thirteen orphans (all without melds), then the knitted straight
/// with one set and a pair (at most one declared meld).
fn special_reading(f: &Facts<'_>) -> Option<(FanCounts, Reading)> {
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
            return Some((
                apply_exclusions(&raw, f.rules),
                Reading::ThirteenOrphans { pair },
            ));
        }
    }
    if declared <= 1 {
        return knitted_straight(f);
    }
    None
}

fn seven_pairs(f: &Facts<'_>) -> (FanCounts, Reading) {
    let mut pairs = [Tile::EAST; 7];
    let mut n = 0;
    for t in Tile::ALL {
        for _ in 0..f.concealed[t.index()] / 2 {
            pairs[n] = t;
            n += 1;
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
    (
        apply_exclusions(&raw, f.rules),
        Reading::SevenPairs { pairs },
    )
}

fn honors_and_knitted(f: &Facts<'_>) -> Option<(FanCounts, Reading)> {
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
    Some((
        apply_exclusions(&raw, f.rules),
        Reading::HonorsAndKnitted { tiles },
    ))
}

/// 组合龙 + one set + a pair (the set may be the one declared meld).
fn knitted_straight(f: &Facts<'_>) -> Option<(FanCounts, Reading)> {
    let knitted = KNITTED_STRAIGHTS
        .into_iter()
        .zip(KNITTED_MASKS)
        .find(|&(_, mask)| mask & !f.held == 0)?
        .0;
    let mut rest = f.concealed;
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
            kong_fans(0, melded, concealed, f.rules, &mut raw);
        }
    }
    // Waits are read in the part outside the knitted tiles.
    if declared.is_empty() {
        if rest[f.win.index()] > 0 {
            let mut before = rest;
            before[f.win.index()] -= 1;
            let mut held = f.all;
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
    Some((
        apply_exclusions(&raw, f.rules),
        Reading::KnittedStraight { knitted, set, pair },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time reading agrees with counting kind by kind (counts of at most
    /// four, a hand's).
    #[test]
    fn kinds_agree_with_a_kind_by_kind_reading() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..10_000 {
            let mut counts = [0u8; 34];
            for n in &mut counts {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                *n = u8::try_from(seed % 5).unwrap_or(0);
            }
            let mask = |pred: fn(u8) -> bool| {
                (0..34).fold(0u64, |m, i| m | u64::from(pred(counts[i])) << i)
            };
            let expected = Kinds {
                held: mask(|n| n > 0),
                odd: mask(|n| n % 2 == 1),
                four: mask(|n| n == 4),
            };
            assert_eq!(kinds(&counts), expected, "{counts:?}");
        }
    }
}
