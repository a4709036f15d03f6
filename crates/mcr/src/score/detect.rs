//! Fan detection for one reading, before the exclusion pass.
//!
//! The combination fans of sets (chow and pung families) follow the procedure of the
//! reference calculators: a fan of four sets stops the search; otherwise the first fan of three
//! sets is taken and the fourth set pairs once (套算一次); otherwise pairs of sets are counted,
//! trimmed so that `k` chows give at most `k − 1` pairings, each bringing in a new chow.
//! Sets are compared through [`crate::shape::order_key`], which keeps suits apart (`suit * 16 + rank`).

use super::tally::Tally;
use crate::fan::Fan;
use crate::ruleset::{Ruleset, ThreeKongsRule};
use crate::shape::{Set, SetKind};
use crate::tile::Tile;

const fn suit_of(k: u8) -> u8 {
    k >> 4
}
const fn rank_of(k: u8) -> u8 {
    k & 15
}

/// Fans of two chows given by the order keys of their middle tiles.
pub(crate) fn two_chows(a: u8, b: u8) -> Option<Fan> {
    if suit_of(a) != suit_of(b) {
        return (rank_of(a) == rank_of(b)).then_some(Fan::MixedDoubleChow);
    }
    if a + 3 == b || b + 3 == a {
        Some(Fan::ShortStraight)
    } else if (rank_of(a) == 2 && rank_of(b) == 8) || (rank_of(a) == 8 && rank_of(b) == 2) {
        Some(Fan::TwoTerminalChows)
    } else if a == b {
        Some(Fan::PureDoubleChow)
    } else {
        None
    }
}

const fn consecutive(a: u8, b: u8, c: u8) -> bool {
    a + 1 == b && b + 1 == c
}

/// Three ranks that are consecutive in some order.
fn consecutive_unordered(a: u8, b: u8, c: u8) -> bool {
    let mut r = [a, b, c];
    r.sort_unstable();
    consecutive(r[0], r[1], r[2])
}

fn all_suits_differ(a: u8, b: u8, c: u8) -> bool {
    suit_of(a) != suit_of(b) && suit_of(a) != suit_of(c) && suit_of(b) != suit_of(c)
}

/// Fans of three chows (sorted middle keys).
fn three_chows(a: u8, b: u8, c: u8) -> Option<Fan> {
    if all_suits_differ(a, b, c) {
        let (ra, rb, rc) = (rank_of(a), rank_of(b), rank_of(c));
        if consecutive_unordered(ra, rb, rc) {
            return Some(Fan::MixedShiftedChows);
        }
        if ra == rb && rb == rc {
            return Some(Fan::MixedTripleChow);
        }
        let mut r = [ra, rb, rc];
        r.sort_unstable();
        if r == [2, 5, 8] {
            return Some(Fan::MixedStraight);
        }
        return None;
    }
    if a + 3 == b && b + 3 == c {
        Some(Fan::PureStraight)
    } else if (a + 2 == b && b + 2 == c) || consecutive(a, b, c) {
        Some(Fan::PureShiftedChows)
    } else if a == b && b == c {
        Some(Fan::PureTripleChow)
    } else {
        None
    }
}

/// The best single pairing of a spare chow with the three chows of a three-chow fan.
fn spare_chow(t: [u8; 3], extra: u8) -> Option<Fan> {
    let fans = t.map(|x| two_chows(x, extra));
    [
        Fan::PureDoubleChow,
        Fan::MixedDoubleChow,
        Fan::ShortStraight,
        Fan::TwoTerminalChows,
    ]
    .into_iter()
    .find(|f| fans.contains(&Some(*f)))
}

/// Trims pairing fans so at most `max` remain: repeated fans go first, from 老少副 upwards.
fn trim_pairings(found: &[Option<Fan>], max: usize, fans: &mut Tally) {
    const ORDER: [Fan; 4] = [
        Fan::PureDoubleChow,
        Fan::MixedDoubleChow,
        Fan::ShortStraight,
        Fan::TwoTerminalChows,
    ];
    let mut table = [0usize; 4];
    for f in found.iter().flatten() {
        if let Some(i) = ORDER.iter().position(|o| o == f) {
            table[i] += 1;
        }
    }
    let mut count: usize = table.iter().sum();
    for limit in [1usize, 0] {
        for i in (0..4).rev() {
            while table[i] > limit && count > max {
                table[i] -= 1;
                count -= 1;
            }
        }
    }
    for (f, n) in ORDER.iter().zip(table) {
        fans.add(*f, u8::try_from(n).unwrap_or(u8::MAX));
    }
}

#[allow(clippy::many_single_char_names)] // a ≤ b ≤ c ≤ d: the sorted keys of the four chows
pub(crate) fn four_chows(mids: [u8; 4], fans: &mut Tally) {
    let [a, b, c, d] = mids;
    if (a + 2 == b && b + 2 == c && c + 2 == d) || (consecutive(a, b, c) && c + 1 == d) {
        fans.add(Fan::FourPureShiftedChows, 1);
        return;
    }
    if a == b && b == c && c == d {
        fans.add(Fan::QuadrupleChow, 1);
        return;
    }
    for (three, extra) in [
        ([a, b, c], d),
        ([a, b, d], c),
        ([a, c, d], b),
        ([b, c, d], a),
    ] {
        if let Some(f) = three_chows(three[0], three[1], three[2]) {
            fans.add(f, 1);
            if let Some(p) = spare_chow(three, extra) {
                fans.add(p, 1);
            }
            return;
        }
    }
    let pairs = [
        two_chows(a, b),
        two_chows(a, c),
        two_chows(a, d),
        two_chows(b, c),
        two_chows(b, d),
        two_chows(c, d),
    ];
    // A chow related to none of the others cannot bring in a pairing.
    let lonely = |x: [usize; 3]| x.iter().all(|&i| pairs[i].is_none());
    let lonely_chows = [[0, 1, 2], [0, 3, 4], [1, 3, 5], [2, 4, 5]]
        .into_iter()
        .filter(|&idx| lonely(idx))
        .count();
    if let Some(max) = 3usize.checked_sub(lonely_chows).filter(|&m| m > 0) {
        trim_pairings(&pairs, max, fans);
    }
}

pub(crate) fn three_chows_family(m: [u8; 3], fans: &mut Tally) {
    if let Some(f) = three_chows(m[0], m[1], m[2]) {
        fans.add(f, 1);
        return;
    }
    let pairs = [
        two_chows(m[0], m[1]),
        two_chows(m[0], m[2]),
        two_chows(m[1], m[2]),
    ];
    trim_pairings(&pairs, 2, fans);
}

/// Fans of two pungs (order keys).
pub(crate) fn two_pungs(a: u8, b: u8) -> Option<Fan> {
    if suit_of(a) < 4 && suit_of(b) < 4 {
        (rank_of(a) == rank_of(b)).then_some(Fan::DoublePung)
    } else if a >= 0x45 && b >= 0x45 {
        Some(Fan::TwoDragonPungs)
    } else {
        None
    }
}

/// Fans of three pungs (sorted keys).
fn three_pungs(a: u8, b: u8, c: u8) -> Option<Fan> {
    if suit_of(a) < 4 && suit_of(b) < 4 && suit_of(c) < 4 {
        if all_suits_differ(a, b, c) {
            let (ra, rb, rc) = (rank_of(a), rank_of(b), rank_of(c));
            if consecutive_unordered(ra, rb, rc) {
                return Some(Fan::MixedShiftedPungs);
            }
            if ra == rb && rb == rc {
                return Some(Fan::TriplePung);
            }
        } else if consecutive(a, b, c) {
            return Some(Fan::PureShiftedPungs);
        }
        return None;
    }
    let winds = |k: u8| (0x41..=0x44).contains(&k);
    if winds(a) && winds(b) && winds(c) {
        Some(Fan::BigThreeWinds)
    } else if a == 0x45 && b == 0x46 && c == 0x47 {
        Some(Fan::BigThreeDragons)
    } else {
        None
    }
}

#[allow(clippy::many_single_char_names)] // a ≤ b ≤ c ≤ d: the sorted keys of the four pungs
pub(crate) fn four_pungs(k: [u8; 4], fans: &mut Tally) {
    let [a, b, c, d] = k;
    if suit_of(a) < 4 && consecutive(a, b, c) && c + 1 == d {
        fans.add(Fan::FourPureShiftedPungs, 1);
        return;
    }
    if k == [0x41, 0x42, 0x43, 0x44] {
        fans.add(Fan::BigFourWinds, 1);
        return;
    }
    for (three, free) in [
        ([a, b, c], 3usize),
        ([a, b, d], 2),
        ([a, c, d], 1),
        ([b, c, d], 0),
    ] {
        if let Some(f) = three_pungs(three[0], three[1], three[2]) {
            fans.add(f, 1);
            // The spare pung may pair once with one of the three.
            for (i, &other) in k.iter().enumerate() {
                if i != free
                    && let Some(p) = two_pungs(other, k[free])
                {
                    fans.add(p, 1);
                    break;
                }
            }
            return;
        }
    }
    for (i, j) in [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)] {
        if let Some(f) = two_pungs(k[i], k[j]) {
            fans.add(f, 1);
        }
    }
}

pub(crate) fn three_pungs_family(k: [u8; 3], fans: &mut Tally) {
    if let Some(f) = three_pungs(k[0], k[1], k[2]) {
        fans.add(f, 1);
        return;
    }
    for (i, j) in [(0, 1), (0, 2), (1, 2)] {
        if let Some(f) = two_pungs(k[i], k[j]) {
            fans.add(f, 1);
        }
    }
}

/// Kong fans: one of the kong family, from the declared kongs.
pub(crate) fn kong_fans(
    melded_kongs: usize,
    concealed_kongs: usize,
    rules: &Ruleset,
    fans: &mut Tally,
) {
    let kong = match (melded_kongs, concealed_kongs) {
        (0, 0) => None,
        (1, 0) => Some(Fan::MeldedKong),
        (0, 1) => Some(Fan::ConcealedKong),
        (2, 0) => Some(Fan::TwoMeldedKongs),
        (1, 1) => Some(Fan::MeldedAndConcealedKongs),
        (0, 2) => Some(Fan::TwoConcealedKongs),
        (m, c) if m + c == 3 => {
            if c == 1 && rules.three_kongs == ThreeKongsRule::ConcealedKongAdds {
                fans.add(Fan::ConcealedKong, 1);
            }
            Some(Fan::ThreeKongs)
        }
        _ => Some(Fan::FourKongs),
    };
    if let Some(k) = kong {
        fans.add(k, 1);
    }
}

/// Concealed-pung fans (one of that family) from the concealed pungs and kongs.
pub(crate) fn concealed_pung_fans(concealed: usize, fans: &mut Tally) {
    match concealed {
        2 => fans.add(Fan::TwoConcealedPungs, 1),
        3 => fans.add(Fan::ThreeConcealedPungs, 1),
        4 => fans.add(Fan::FourConcealedPungs, 1),
        _ => {}
    }
}

/// Per-set pung fans: 箭刻 for dragons, 圈风刻/门风刻 for the round and seat winds, and
/// 幺九刻 for every other terminal or wind pung not already used by a wind fan.
pub(crate) fn pung_fans(pungs: &[Tile], prevalent: Tile, seat: Tile, fans: &mut Tally) {
    let winds_used = fans.has(Fan::BigFourWinds)
        || fans.has(Fan::LittleFourWinds)
        || fans.has(Fan::BigThreeWinds);
    let mut terminal_pungs = 0u8;
    for &t in pungs {
        if t.is_dragon() {
            fans.add(Fan::DragonPung, 1);
        } else if t.is_wind() {
            let round = t == prevalent;
            let own = t == seat;
            if round {
                fans.add(Fan::PrevalentWind, 1);
            }
            if own {
                fans.add(Fan::SeatWind, 1);
            }
            if !(round || own || winds_used) {
                terminal_pungs += 1;
            }
        } else if t.is_terminal() {
            terminal_pungs += 1;
        }
    }
    fans.add(Fan::PungOfTerminalsOrHonors, terminal_pungs);
}

/// The tile kinds satisfying a `Tile` predicate, as a bit mask over [`Tile::index`].
macro_rules! mask {
    ($pred:ident) => {{
        let mut m = 0u64;
        let mut i = 0;
        while i < 34 {
            if Tile::ALL[i].$pred() {
                m |= 1 << i;
            }
            i += 1;
        }
        m
    }};
}

const HONORS: u64 = mask!(is_honor);
const WINDS: u64 = mask!(is_wind);
const DRAGONS: u64 = mask!(is_dragon);
const TERMINALS: u64 = mask!(is_terminal);
const GREEN: u64 = mask!(is_green);
const REVERSIBLE: u64 = mask!(is_reversible);
const SUIT: [u64; 3] = [0x1ff, 0x1ff << 9, 0x1ff << 18];

/// Numbered tiles of the given ranks, in all three suits.
const fn ranks_mask(ranks: &[u8]) -> u64 {
    let mut m = 0u64;
    let mut k = 0;
    while k < ranks.len() {
        let r = ranks[k] as u64 - 1;
        m |= (1 << r) | (1 << (r + 9)) | (1 << (r + 18));
        k += 1;
    }
    m
}

const LOW: u64 = ranks_mask(&[1, 2, 3, 4]);
const HIGH: u64 = ranks_mask(&[6, 7, 8, 9]);
const MIDDLE: u64 = ranks_mask(&[4, 5, 6]);

/// Fans that depend only on which tile kinds the hand holds: suits (无字, 缺一门, 混一色, 清一色,
/// 五门齐), tile classes (断幺, 推不倒, 绿一色, 字一色, 清幺九, 混幺九) and ranges (大于五 …).
pub(crate) fn tile_fans(present: u64, fans: &mut Tally) {
    let honors = present & HONORS != 0;
    let suits = SUIT.iter().filter(|&&s| present & s != 0).count();
    if !honors {
        fans.add(Fan::NoHonors, 1);
    }
    match suits {
        2 => fans.add(Fan::OneVoidedSuit, 1),
        1 if honors => fans.add(Fan::HalfFlush, 1),
        1 => fans.add(Fan::FullFlush, 1),
        _ => {}
    }
    if suits == 3 && present & WINDS != 0 && present & DRAGONS != 0 {
        fans.add(Fan::AllTypes, 1);
    }
    let simples = present & (TERMINALS | HONORS) == 0;
    if simples {
        fans.add(Fan::AllSimples, 1);
    }
    if present & !REVERSIBLE == 0 {
        fans.add(Fan::ReversibleTiles, 1);
    }
    if present & !GREEN == 0 {
        fans.add(Fan::AllGreen, 1);
    }
    if !simples {
        if present & !HONORS == 0 {
            fans.add(Fan::AllHonors, 1);
        } else if present & !TERMINALS == 0 {
            fans.add(Fan::AllTerminals, 1);
        } else if present & !(TERMINALS | HONORS) == 0 {
            fans.add(Fan::AllTerminalsAndHonors, 1);
        }
    }
    if honors {
        return;
    }
    if present & !LOW == 0 {
        let four = present & ranks_mask(&[4]) != 0;
        fans.add(
            if four {
                Fan::LowerFour
            } else {
                Fan::LowerTiles
            },
            1,
        );
    } else if present & !HIGH == 0 {
        let six = present & ranks_mask(&[6]) != 0;
        fans.add(if six { Fan::UpperFour } else { Fan::UpperTiles }, 1);
    } else if present & !MIDDLE == 0 {
        fans.add(Fan::MiddleTiles, 1);
    }
}

/// 边张, 坎张 or 单钓将 from the winning tile's place among the concealed sets and the pair
/// (edge before closed before single).
pub(crate) fn wait_fan<'a>(
    sets: impl Iterator<Item = &'a Set>,
    pair: Tile,
    win: Tile,
) -> Option<Fan> {
    let places = sets
        .filter(|s| s.kind == SetKind::Chow)
        .fold(0, |places, s| places | place_in_chow(s.tile, win));
    wait_of(places, pair, win)
}

/// Where `win` sits in the chow whose lowest tile is `lowest`: bit `k` for `k` tiles above
/// the lowest, none when the chow does not hold it.
pub(crate) fn place_in_chow(lowest: Tile, win: Tile) -> u8 {
    let above = win.index().wrapping_sub(lowest.index());
    if above < 3 && win.group() == lowest.group() {
        1 << above
    } else {
        0
    }
}

/// [`wait_fan`] from the winning tile's places in the concealed chows (see
/// [`place_in_chow`]): at either end 边张, in the middle 坎张, else 单钓将 on the pair.
pub(crate) fn wait_of(places: u8, pair: Tile, win: Tile) -> Option<Fan> {
    if places & 0b101 != 0 {
        Some(Fan::EdgeWait)
    } else if places & 0b010 != 0 {
        Some(Fan::ClosedWait)
    } else if pair == win {
        Some(Fan::SingleWait)
    } else {
        None
    }
}

/// 三色双龙会 and 一色双龙会 from the four chows' sorted order keys (of their middle tiles,
/// see [`crate::shape::order_key`]) and the pair's order key: 123 and 789 of the two suits
/// other than the pair's, or 123 123 789 789 of the pair's suit, with a pair of 5.
pub(crate) fn terminal_chows(keys: [u8; 4], pair: u8) -> Option<Fan> {
    if rank_of(pair) != 5 || suit_of(pair) > 3 {
        return None;
    }
    let p = suit_of(pair);
    let chows = |low: u8, high: u8| [low << 4 | 2, low << 4 | 8, high << 4 | 2, high << 4 | 8];
    // The two other suits, in key order.
    let (x, y) = match p {
        1 => (2, 3),
        2 => (1, 3),
        _ => (1, 2),
    };
    if keys == chows(x, y) {
        Some(Fan::ThreeSuitedTerminalChows)
    } else if keys == [p << 4 | 2, p << 4 | 2, p << 4 | 8, p << 4 | 8] {
        Some(Fan::PureTerminalChows)
    } else {
        None
    }
}

/// Win-event fans: 和绝张, 自摸, 妙手回春, 杠上开花, 海底捞月, 抢杠和.
#[allow(clippy::fn_params_excessive_bools)] // the four circumstances of the rulebook
pub(crate) fn event_fans(
    self_drawn: bool,
    last_copy: bool,
    last_tile: bool,
    kong: bool,
    fans: &mut Tally,
) {
    if last_copy {
        fans.add(Fan::LastTile, 1);
    }
    if self_drawn {
        fans.add(Fan::SelfDrawn, 1);
        if last_tile {
            fans.add(Fan::LastTileDraw, 1);
        }
        if kong {
            fans.add(Fan::OutWithReplacementTile, 1);
        }
    } else {
        if last_tile {
            fans.add(Fan::LastTileClaim, 1);
        }
        if kong {
            fans.add(Fan::RobbingTheKong, 1);
        }
    }
}

/// 门前清 / 不求人 / 全求人 from the number of claimed melds.
pub(crate) fn concealment_fans(claimed_melds: usize, self_drawn: bool, fans: &mut Tally) {
    match (claimed_melds, self_drawn) {
        (0, true) => fans.add(Fan::FullyConcealedHand, 1),
        (0, false) => fans.add(Fan::ConcealedHand, 1),
        (4, false) => fans.add(Fan::MeldedHand, 1),
        _ => {}
    }
}

/// 四归一: tile kinds used four times (`fours`, a mask over [`Tile::index`]), not as a kong.
pub(crate) fn tile_hog(fours: u64, kongs: usize, honors_count: bool) -> u8 {
    let counted = if honors_count { fours } else { fours & !HONORS };
    let hogs = (counted.count_ones() as usize).saturating_sub(kongs);
    u8::try_from(hogs).unwrap_or(u8::MAX)
}
