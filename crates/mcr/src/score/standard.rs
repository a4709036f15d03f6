//! The standard readings (four sets and a pair) of a hand, scored from summaries.
//!
//! Every division of a hand shares its declared melds and its concealed honours (an honour
//! kind is a pung or the pair); only the suits' divisions differ. So the fans that depend
//! on the shared parts and the hand alone are found once a hand ([`Shared`]), and a
//! division adds what its suits' table entries summarise ([`Summary`](crate::shape::division::table::Summary)): chow and pung order
//! keys, how many of each, the traits of its parts, where the winning tile sits. The fans
//! are a [`Tally`], a mask and a few counts; the sets of a reading, and the counts of its
//! fans, are built for the reading kept only.

use super::detect::{
    concealed_pung_fans, four_chows, four_pungs, kong_fans, pung_fans, terminal_chows,
    three_chows_family, three_pungs_family, tile_fans, tile_hog, two_chows, two_pungs, wait_of,
};
use super::exclusion::{Standing, standing};
use super::facts::{Best, Facts};
use super::tally::Tally;
use crate::fan::Fan;
use crate::hand::Meld;
use crate::ruleset::NineGatesTerminalPungs;
use crate::shape::division::{Parts, SuitDivision, standard_parts};
use crate::shape::wait::is_only_wait;
use crate::shape::{Reading, Set, SetKind, order_key, traits};
use crate::tile::{RANK_WEIGHT, Tile};

/// The high nibble of the order keys (see [`order_key`]) of the suits in [`SUIT_ORDER`](crate::shape::division::SUIT_ORDER):
/// characters 1, bamboo 2, dots 3. Suits in that order list their keys in ascending order.
const SUIT_KEYS: [u32; 3] = [1 << 4, 2 << 4, 3 << 4];

/// A one in each of the low `n` bytes: spreads a suit's key nibble over its `n` keys.
const ONES: [u32; 5] = [0, 0x01, 0x0101, 0x01_0101, 0x0101_0101];

/// The place of each suit (by [`Tile::group`]) in [`SUIT_ORDER`](crate::shape::division::SUIT_ORDER) (the order is its own
/// inverse).
const PLACE_IN_ORDER: [usize; 3] = [0, 2, 1];

/// What the declared melds and the concealed honours give every standard reading of a hand.
struct Shared {
    /// The fans of these parts and of the hand alone: the win's events and concealment,
    /// the tile kinds' fans, 四归一, the honour pungs' fans (their combinations, 小三元 and
    /// 小四喜 with the pair, 箭刻, the winds, 幺九刻), the kongs, 九莲宝灯.
    fans: Tally,
    /// The melded chows' order keys (of their middle tiles), sorted, and how many.
    chow_keys: [u8; 4],
    chows: usize,
    /// The melded numbered pungs' and kongs' order keys, sorted, and how many.
    pung_keys: [u8; 4],
    numbered_pungs: usize,
    /// Pungs and kongs: the melds' and the concealed honours'.
    pungs: usize,
    /// The concealed honour pungs and the concealed kongs.
    concealed_pungs: usize,
    /// Melded numbered pungs and kongs of a terminal.
    terminal_pungs: u8,
    /// The AND of the traits of the melds, the honour pungs and an honour pair.
    traits: u8,
    /// A concealed honour pung of the winning tile.
    win_pung: bool,
    /// The winning tile's suit (its place in [`SUIT_ORDER`](crate::shape::division::SUIT_ORDER)) and rank (0–8), if numbered.
    win_suit: Option<(usize, usize)>,
    /// Whether a wait fan may score: the winning tile is the only wait, and neither 全求人
    /// nor 四杠 (which exclude it by rule) stands.
    wait_scores: bool,
    /// 九莲宝灯: one of the 幺九刻 is not counted (or none, by the ruleset).
    nine_gates: bool,
}

impl Shared {
    fn new(f: &Facts<'_>, parts: &Parts, unique_wait: bool, nine_gates: bool) -> Shared {
        let mut fans = f.common;
        tile_fans(f.present, &mut fans);
        fans.add(Fan::TileHog, tile_hog(f.fours, f.kongs, true));
        let mut shared = Shared {
            fans,
            chow_keys: [0; 4],
            chows: 0,
            pung_keys: [0; 4],
            numbered_pungs: 0,
            pungs: parts.honor_pungs.count_ones() as usize,
            concealed_pungs: parts.honor_pungs.count_ones() as usize,
            terminal_pungs: 0,
            traits: traits::ALL,
            win_pung: f.win.is_honor() && parts.honor_pungs >> (f.win.index() - 27) & 1 != 0,
            win_suit: f.win.is_numbered().then(|| {
                (
                    PLACE_IN_ORDER[usize::from(f.win.group())],
                    f.win.index() % 9,
                )
            }),
            wait_scores: false,
            nine_gates,
        };
        // The honour pungs, melded or concealed: bit `k` for the tile of index `27 + k`.
        let mut honors = parts.honor_pungs;
        let (mut melded_kongs, mut concealed_kongs) = (0, 0);
        for &meld in f.hand.melds() {
            match meld {
                Meld::Chow { first, .. } => {
                    shared.chow_keys[shared.chows] = order_key(first.succ().unwrap_or(first));
                    shared.chows += 1;
                    shared.traits &= traits::CHOW[first.index()];
                }
                Meld::Pung { tile, .. } | Meld::Kong { tile, .. } => {
                    shared.pungs += 1;
                    shared.traits &= traits::PUNG[tile.index()];
                    if tile.is_numbered() {
                        shared.pung_keys[shared.numbered_pungs] = order_key(tile);
                        shared.numbered_pungs += 1;
                        shared.terminal_pungs += u8::from(tile.is_terminal());
                    } else {
                        honors |= 1 << (tile.index() - 27);
                    }
                    if meld.is_kong() {
                        if meld.is_claimed() {
                            melded_kongs += 1;
                        } else {
                            concealed_kongs += 1;
                        }
                    }
                }
            }
        }
        shared.chow_keys[..shared.chows].sort_unstable();
        shared.pung_keys[..shared.numbered_pungs].sort_unstable();
        shared.concealed_pungs += concealed_kongs;
        if parts.honor_pungs != 0 || parts.honor_pair.is_some() {
            shared.traits &= traits::OUTSIDE;
        }
        let fans = &mut shared.fans;
        kong_fans(melded_kongs, concealed_kongs, f.rules, fans);
        // Honour pungs combine with honour pungs only (a numbered pung makes no fan of
        // three or of two with one), and the pair that turns two dragon pungs or three wind
        // pungs into more is an honour: these fans are the hand's.
        let mut tiles = [Tile::EAST; 4];
        let mut n = 0;
        while honors != 0 && n < 4 {
            tiles[n] = Tile::ALL[27 + honors.trailing_zeros() as usize];
            honors &= honors - 1;
            n += 1;
        }
        let keys = tiles.map(order_key);
        match n {
            4 => four_pungs(keys, fans),
            3 => three_pungs_family([keys[0], keys[1], keys[2]], fans),
            2 => {
                if let Some(fan) = two_pungs(keys[0], keys[1]) {
                    fans.add(fan, 1);
                }
            }
            _ => {}
        }
        let pair = parts.honor_pair;
        if fans.has(Fan::TwoDragonPungs) {
            if pair.is_some_and(Tile::is_dragon) {
                fans.remove(Fan::TwoDragonPungs);
                fans.add(Fan::LittleThreeDragons, 1);
            }
        } else if fans.has(Fan::BigThreeWinds) && pair.is_some_and(Tile::is_wind) {
            fans.remove(Fan::BigThreeWinds);
            fans.add(Fan::LittleFourWinds, 1);
        }
        if nine_gates {
            fans.add(Fan::NineGates, 1);
        }
        pung_fans(&tiles[..n], f.prevalent, f.seat, fans);
        shared.wait_scores = unique_wait && !fans.has(Fan::MeldedHand) && !fans.has(Fan::FourKongs);
        shared
    }

    /// The fans of the reading of `picks` (one division of each suit, in [`SUIT_ORDER`](crate::shape::division::SUIT_ORDER))
    /// with the pair `pair`, before the exclusion pass.
    fn reading(&self, picks: [&SuitDivision; 3], pair: Tile, f: &Facts<'_>) -> Tally {
        let s = picks.map(|p| &p.summary);
        let mut fans = self.fans;
        let suit_chows = usize::from(s[0].chows + s[1].chows + s[2].chows);
        let suit_pungs = usize::from(s[0].pungs + s[1].pungs + s[2].pungs);
        let chows = self.chows + suit_chows;
        let pungs = self.pungs + suit_pungs;
        let mut concealed = self.concealed_pungs + suit_pungs;
        // The winning tile's places in the concealed chows (bit 0 at an end of one, bit 1
        // in the middle of one: see `wait_of`), and whether a concealed pung is of it.
        let (places, win_pung) = match self.win_suit {
            Some((i, r)) => (
                u8::from(s[i].chow_ends >> r & 1 != 0)
                    | u8::from(s[i].chow_middles >> r & 1 != 0) << 1,
                s[i].pung_mask >> r & 1 != 0,
            ),
            None => (0, self.win_pung),
        };
        // On a discard, a concealed pung completed by the winning tile is melded, unless the
        // winning tile can be read as part of a concealed chow.
        if !f.self_drawn && places == 0 && win_pung {
            concealed -= 1;
        }
        if pungs > 0 {
            concealed_pung_fans(concealed, &mut fans);
            if pungs == 4 {
                fans.add(Fan::AllPungs, 1);
            }
        }
        if chows >= 2 {
            let keys = merged_keys(
                s.map(|x| (x.chow_mids, x.chows)),
                &self.chow_keys[..self.chows],
            );
            match chows {
                4 => {
                    let keys = [keys[0], keys[1], keys[2], keys[3]];
                    match terminal_chows(keys, order_key(pair)) {
                        Some(fan) => fans.add(fan, 1),
                        None => four_chows(keys, &mut fans),
                    }
                    if pair.is_numbered() {
                        fans.add(Fan::AllChows, 1);
                    }
                }
                3 => three_chows_family([keys[0], keys[1], keys[2]], &mut fans),
                _ => {
                    if let Some(fan) = two_chows(keys[0], keys[1]) {
                        fans.add(fan, 1);
                    }
                }
            }
        }
        let numbered_pungs = self.numbered_pungs + suit_pungs;
        if numbered_pungs >= 2 {
            let keys = merged_keys(
                s.map(|x| (x.pung_ranks, x.pungs)),
                &self.pung_keys[..self.numbered_pungs],
            );
            match numbered_pungs {
                4 => four_pungs([keys[0], keys[1], keys[2], keys[3]], &mut fans),
                3 => three_pungs_family([keys[0], keys[1], keys[2]], &mut fans),
                _ => {
                    if let Some(fan) = two_pungs(keys[0], keys[1]) {
                        fans.add(fan, 1);
                    }
                }
            }
        }
        let all = self.traits & s[0].traits & s[1].traits & s[2].traits;
        if all & traits::OUTSIDE != 0 {
            fans.add(Fan::OutsideHand, 1);
        } else if all & traits::FIVE != 0 {
            fans.add(Fan::AllFives, 1);
        } else if all & traits::EVEN != 0 {
            fans.add(Fan::AllEvenPungs, 1);
        }
        let mut terminal =
            self.terminal_pungs + s[0].terminal_pungs + s[1].terminal_pungs + s[2].terminal_pungs;
        if self.nine_gates {
            terminal = match f.rules.nine_gates_terminal_pungs {
                NineGatesTerminalPungs::OneFewer => terminal.saturating_sub(1),
                NineGatesTerminalPungs::None => 0,
            };
        }
        fans.add(Fan::PungOfTerminalsOrHonors, terminal);
        if self.wait_scores
            && let Some(fan) = wait_of(places, pair, f.win)
        {
            fans.add(fan, 1);
        }
        fans
    }
}

/// The order keys of the suits' chows or pungs (each suit's packed ranks and how many, the
/// suits in [`SUIT_ORDER`](crate::shape::division::SUIT_ORDER)) and of the melds' (`melded`, sorted), all sorted.
fn merged_keys(suits: [(u32, u8); 3], melded: &[u8]) -> [u8; 8] {
    let mut packed = 0u64;
    let mut n = 0;
    for ((ranks, count), key) in suits.into_iter().zip(SUIT_KEYS) {
        packed |= u64::from(ranks | (ONES[usize::from(count)] * key)) << (8 * n);
        n += usize::from(count);
    }
    let mut keys = packed.to_le_bytes();
    if !melded.is_empty() {
        keys[n..n + melded.len()].copy_from_slice(melded);
        keys[..n + melded.len()].sort_unstable();
    }
    keys
}

/// Standard readings: every division, scored; the highest replaces `best`. Ties keep the earlier
/// division, except that a reading with 一色三同顺 or 三同刻 (or any standard reading tying
/// with seven pairs) takes the place, as in the reference calculators.
pub(super) fn best_standard(f: &Facts<'_>, best: &mut Option<Best>, seven_pairs_found: bool) {
    let declared = f.hand.melds().len();
    let codes = f.hand.suit_codes();
    let Some(parts) = standard_parts(f.concealed, codes, 4 - declared) else {
        return;
    };
    let win = f.win.index();
    // The suits' codes before the win: the winning tile's rank weighs one less.
    let mut before_codes = codes;
    if f.win.is_numbered() {
        before_codes[win / 9] -= RANK_WEIGHT[win % 9];
    }
    // The wait matters only if the winning tile sits in a concealed chow or the pair of some
    // division (it is otherwise never 边张, 坎张 or 单钓将): skip the search when it cannot.
    let wait_can_score = if f.win.is_numbered() {
        let rank = win % 9;
        parts.suits[PLACE_IN_ORDER[win / 9]].iter().any(|d| {
            let places = d.summary.chow_ends | d.summary.chow_middles;
            places >> rank & 1 != 0 || d.pair() == Some(rank)
        })
    } else {
        parts.honor_pair == Some(f.win)
    };
    let unique_wait = wait_can_score && {
        // Thirteen concealed tiles with one kind held an odd number of times wait on it in
        // seven pairs too.
        let odd_before = f.odd ^ (1 << win);
        let seven_pairs_wait = (declared == 0 && odd_before.is_power_of_two())
            .then(|| odd_before.trailing_zeros() as usize);
        let first = parts.suits.map(|s| &s[0]);
        is_only_wait(
            f.concealed,
            f.all,
            before_codes,
            seven_pairs_wait,
            parts.pair(first),
            f.rules.wait_counts_exhausted_tiles,
            f.win,
        )
    };
    let shared = Shared::new(f, &parts, unique_wait, is_nine_gates(f, before_codes));
    let mut best_total = best.as_ref().map(|b| b.standing.points);
    let mut kept: Option<(Standing, Tally, [&SuitDivision; 3], Tile)> = None;
    for a in parts.suits[0] {
        for b in parts.suits[1] {
            for c in parts.suits[2] {
                let picks = [a, b, c];
                let pair = parts.pair(picks);
                let raw = shared.reading(picks, pair, f);
                let standing = standing(&raw, f.rules);
                let total = standing.points;
                let take = match best_total {
                    None => true,
                    Some(best_total) => {
                        total > best_total
                            || (total == best_total
                                && (standing.has(Fan::PureTripleChow)
                                    || seven_pairs_found
                                    || standing.has(Fan::TriplePung)))
                    }
                };
                if take {
                    best_total = Some(total);
                    kept = Some((standing, raw, picks, pair));
                }
            }
        }
    }
    let Some((standing, raw, picks, pair)) = kept else {
        return;
    };
    // The sets of the reading kept: the declared melds first, then the division's.
    let mut sets = [Set::concealed(SetKind::Pung, Tile::EAST); 4];
    for (slot, meld) in sets.iter_mut().zip(f.hand.melds()) {
        *slot = Set::from_meld(*meld);
    }
    parts.sets(picks, &mut sets[declared..]);
    *best = Some(Best {
        fans: raw,
        standing,
        reading: Reading::Standard { sets, pair },
    });
}

/// The code of the suit 1112345678999 (see [`crate::shape::division::table::code`]).
const NINE_GATES: usize = {
    let digits = [3, 1, 1, 1, 1, 1, 1, 1, 3];
    let mut code = 0;
    let mut r = 0;
    while r < 9 {
        code += digits[r] * RANK_WEIGHT[r];
        r += 1;
    }
    code
};

/// 九莲宝灯: no melds, and the thirteen tiles before the win are 1112345678999 of one suit
/// (by the suits' codes before the win, `before_codes`: that suit's, the others' empty, and
/// no honour).
fn is_nine_gates(f: &Facts<'_>, before_codes: [usize; 3]) -> bool {
    const HONORS: u64 = !((1 << 27) - 1);
    let win = f.win.index();
    f.hand.melds().is_empty()
        && f.win.is_numbered()
        && f.present & HONORS == 0
        && before_codes[win / 9] == NINE_GATES
        && before_codes.iter().sum::<usize>() == NINE_GATES
}
