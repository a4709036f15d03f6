//! Completion tests and waits: which tile kinds complete a hand.
//!
//! The tests work on counts that may exceed four (a "formal" wait on a fifth copy is still a
//! wait under MIL), and are greedy per suit: inside one suit, a set-only decomposition exists
//! iff taking `count mod 3` chows from the lowest rank upwards succeeds, because three equal
//! chows hold the same tiles as three pungs.

use super::division::table;
use crate::tile::{Counts, RANK_WEIGHT, Tile};

/// Whether nine counts of one suit split into sets only.
fn suit_sets_only(mut a: [i16; 9]) -> bool {
    for i in 0..9 {
        if a[i] < 0 {
            return false;
        }
        let chows = a[i] % 3;
        if chows > 0 {
            if i > 6 {
                return false;
            }
            a[i + 1] -= chows;
            a[i + 2] -= chows;
        }
    }
    true
}

/// Whether nine counts of one suit split into sets and exactly one pair.
///
/// Every set has a rank sum divisible by 3 (3r for a pung, 3r + 3 for a chow), so the pair's
/// rank `p` satisfies `2p ≡ Σ r·count (mod 3)`: only a third of the ranks need trying.
fn suit_sets_and_pair(a: [i16; 9]) -> bool {
    let weighted: i16 = (0i16..).zip(a).map(|(r, n)| r * n).sum();
    let first = usize::try_from((2 * weighted).rem_euclid(3)).unwrap_or(0);
    (first..9).step_by(3).any(|r| {
        if a[r] < 2 {
            return false;
        }
        let mut b = a;
        b[r] -= 2;
        suit_sets_only(b)
    })
}

/// Whether the tiles form any number of sets plus exactly one pair (the standard shape): the
/// direct test, which the incremental [`waits`] is checked against.
#[cfg(test)]
fn is_standard_complete(c: &Counts) -> bool {
    let mut pair_groups = 0;
    for s in 0..3 {
        let mut a = [0i16; 9];
        let mut sum = 0;
        for r in 0..9 {
            a[r] = i16::from(c[s * 9 + r]);
            sum += a[r];
        }
        match sum % 3 {
            0 => {
                if !suit_sets_only(a) {
                    return false;
                }
            }
            2 => {
                pair_groups += 1;
                if pair_groups > 1 || !suit_sets_and_pair(a) {
                    return false;
                }
            }
            _ => return false,
        }
    }
    for &n in &c[27..34] {
        match n % 3 {
            0 => {}
            2 => {
                pair_groups += 1;
                if pair_groups > 1 {
                    return false;
                }
            }
            _ => return false,
        }
    }
    pair_groups == 1
}

/// Whether fourteen concealed tiles form seven pairs (four of a kind counts as two pairs).
#[cfg(test)]
fn is_seven_pairs(c: &Counts) -> bool {
    c.iter().map(|&n| usize::from(n)).sum::<usize>() == 14 && c.iter().all(|&n| n % 2 == 0)
}

/// Whether one group (a suit, or a single honour kind) cannot be part of a complete hand, and
/// whether it holds the pair.
#[derive(Clone, Copy)]
struct GroupState {
    bad: bool,
    pair: bool,
}

/// The state of a group holding the counts `a` (see [`Group::counts`]).
fn group_state(a: [i16; 9]) -> GroupState {
    match a.iter().sum::<i16>() % 3 {
        0 => GroupState {
            bad: !suit_sets_only(a),
            pair: false,
        },
        2 => GroupState {
            bad: !suit_sets_and_pair(a),
            pair: true,
        },
        _ => GroupState {
            bad: true,
            pair: false,
        },
    }
}

/// A group of tile kinds that sets never cross: a suit, or one honour.
#[derive(Clone, Copy)]
struct Group {
    /// Its first kind.
    first: usize,
    /// Its kinds: 9 for a suit, 1 for an honour.
    len: usize,
}

impl Group {
    /// The group of kind `i`.
    fn of(i: usize) -> Group {
        if i < 27 {
            Group {
                first: i / 9 * 9,
                len: 9,
            }
        } else {
            Group { first: i, len: 1 }
        }
    }

    /// Group `n`: the three suits, then the seven honours.
    fn nth(n: usize) -> Group {
        Group::of(if n < 3 { n * 9 } else { 24 + n })
    }

    /// Its counts in `c`, as a suit's nine ranks (an honour in the first, the rest empty:
    /// the completion tests then read it right, no chow reaching past it).
    fn counts(self, c: &Counts) -> [i16; 9] {
        let mut a = [0i16; 9];
        for (slot, &n) in a.iter_mut().zip(&c[self.first..self.first + self.len]) {
            *slot = i16::from(n);
        }
        a
    }

    /// The ranks (bit `r` for kind `first + r`) whose one more tile could complete the group
    /// holding `a`: those at most one rank from a tile held, since an added tile forms a pair
    /// or pung with its own kind or a chow, whose other two tiles include a neighbour of it.
    fn candidates(self, a: [i16; 9]) -> u16 {
        // All nine slots: an honour's past the first are empty (see [`Group::counts`]).
        let present = (0..9).fold(0u16, |p, r| p | u16::from(a[r] > 0) << r);
        if self.len == 9 {
            (present | present << 1 | present >> 1) & 0x1ff
        } else {
            present
        }
    }

    /// The division-table code of this group in `codes` (by [`Tile::group`]), if a suit.
    fn code(self, codes: [usize; 3]) -> Option<usize> {
        (self.len == 9).then(|| codes[self.first / 9])
    }

    /// Whether one more tile of a kind `may_add` accepts leaves the group holding `a` as sets
    /// only, or (`pair`) as sets and a pair. A suit of at most four copies a rank asks the
    /// division table, by its code and the weight of the added rank; a fifth copy, or an
    /// honour, is tested here.
    /// `code` is the suit's division-table code (`None` for an honour, or a suit the caller
    /// has no code for).
    fn completed_by(
        self,
        a: [i16; 9],
        code: Option<usize>,
        pair: bool,
        may_add: impl Fn(usize) -> bool,
    ) -> bool {
        let sum: i16 = a.iter().sum();
        // A suit divides with a pair exactly when it holds 2 modulo 3 tiles.
        let count_fits = ((sum + 1) % 3 == 2) == pair;
        ranks(self.candidates(a))
            .filter(|&r| may_add(self.first + r))
            .any(|r| match code {
                Some(code) if a[r] < 4 => count_fits && table::divides(code + RANK_WEIGHT[r]),
                _ => {
                    let mut b = a;
                    b[r] += 1;
                    if pair {
                        suit_sets_and_pair(b)
                    } else {
                        suit_sets_only(b)
                    }
                }
            })
    }
}

/// The ranks whose bits are set, lowest first.
fn ranks(mut bits: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let r = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            r
        })
    })
}

/// The seven-pairs wait of `before`: thirteen tiles with exactly one kind held an odd number
/// of times wait on that kind.
fn seven_pairs_wait(before: &Counts) -> Option<usize> {
    if before.iter().map(|&n| usize::from(n)).sum::<usize>() != 13 {
        return None;
    }
    let odd = (0..34).fold(0u64, |odd, i| odd | u64::from(before[i] & 1) << i);
    odd.is_power_of_two().then(|| odd.trailing_zeros() as usize)
}

/// Whether `win` is the only tile kind that completes the concealed tiles before it (see
/// [`waits`]), given that it completes them into the standard shape with `pair` as the
/// pair: the caller found that division. `concealed` counts the concealed tiles with the
/// winning tile, `all` every tile of the hand; `before_codes` are the division table's
/// codes of the suits before the winning tile (by [`Tile::group`]; see [`table::code`]);
/// `seven_pairs_wait` is the kind the tiles before it wait on in seven pairs, if any (see
/// [`seven_pairs_wait`]; the caller reads it from its own masks).
///
/// A group's completing kinds come from the division table by its code ([`table::
/// completions`]): the winning tile completes the hand, so another kind of its group, or
/// of the pair's, leaves that group with the count it needs. The table knows no fifth copy:
/// a group holding four of a kind, and physical waits, take the counting test
/// ([`is_only_wait_by_counts`]).
pub(crate) fn is_only_wait(
    concealed: &Counts,
    all: &Counts,
    before_codes: [usize; 3],
    seven_pairs_wait: Option<usize>,
    pair: Tile,
    formal: bool,
    win: Tile,
) -> bool {
    let w = win.index();
    let winning = Group::of(w);
    let pair_group = Group::of(pair.index());
    // A kind of the group held four times concealed (a superset of those held four times
    // before the winning tile): a count's third bit, nine counts at once.
    let four = |g: Group| {
        if g.len == 9 {
            let first: [u8; 8] = concealed[g.first..g.first + 8].try_into().unwrap_or([4; 8]);
            u64::from_le_bytes(first) & (4 * 0x0101_0101_0101_0101) != 0
                || concealed[g.first + 8] == 4
        } else {
            concealed[g.first] == 4
        }
    };
    if !formal || four(winning) || four(pair_group) {
        let mut before = *concealed;
        before[w] -= 1;
        let mut held = *all;
        held[w] -= 1;
        return is_only_wait_by_counts(
            &before,
            before_codes,
            &held,
            seven_pairs_wait,
            pair,
            formal,
            win,
        );
    }
    // Every kind but the winning tile's may be another wait (formal waits).
    let others = !(1u64 << w);
    if seven_pairs_wait.is_some_and(|i| i != w) {
        return false;
    }
    // The kinds one more tile of which completes a group: a suit's by its code; an honour
    // held once or twice (a pair, or a pung with one more).
    let completing = |g: Group| -> u64 {
        if g.len == 9 {
            u64::from(table::completions(before_codes[g.first / 9])) << g.first
        } else if matches!(concealed[g.first] - u8::from(g.first == w), 1 | 2) {
            1 << g.first
        } else {
            0
        }
    };
    if pair_group.first == winning.first {
        // Every other group is a multiple of three, sound already, and takes no tile.
        return completing(winning) & others == 0;
    }
    // The pair is in another group. A kind of the winning tile's group completes it alone;
    // a kind of the pair's group needs the winning tile's group sound with a pair before it.
    if completing(winning) & others != 0 {
        return false;
    }
    let sound_with_pair = if winning.len == 9 {
        table::divides(before_codes[w / 9])
    } else {
        concealed[w] == 3
    };
    !sound_with_pair || completing(pair_group) & others == 0
}

/// [`is_only_wait`] by the groups' counts, `before` (the concealed tiles before the winning
/// tile) and `held` (every tile of the hand but the winning tile).
///
/// Then every group but the winning tile's is sound, and the pair's group holds the pair;
/// only the winning tile's group, and the pair's group when the winning tile's is sound
/// without the winning tile, can take another kind (the cases of [`waits`], narrowed by
/// that).
fn is_only_wait_by_counts(
    before: &Counts,
    codes: [usize; 3],
    held: &Counts,
    seven_pairs_wait: Option<usize>,
    pair: Tile,
    formal: bool,
    win: Tile,
) -> bool {
    let w = win.index();
    let other_kind = |i: usize| i != w && (formal || held[i] < 4);
    if seven_pairs_wait.is_some_and(other_kind) {
        return false;
    }
    let winning = Group::of(w);
    let counts = winning.counts(before);
    let code = winning.code(codes);
    let pair_group = Group::of(pair.index());
    if pair_group.first == winning.first {
        // Every other group is a multiple of three, sound already, and takes no tile.
        return !winning.completed_by(counts, code, true, other_kind);
    }
    // The pair is in another group. A kind of the winning tile's group completes it alone;
    // a kind of the pair's group needs the winning tile's group sound with a pair before it.
    if winning.completed_by(counts, code, false, other_kind) {
        return false;
    }
    let sound_with_pair = match code {
        Some(code) => table::divides(code),
        None => suit_sets_and_pair(counts),
    };
    !sound_with_pair
        || !pair_group.completed_by(
            pair_group.counts(before),
            pair_group.code(codes),
            false,
            other_kind,
        )
}

/// The tile kinds that complete `before` (the concealed tiles before the winning tile) into
/// the standard shape, or into seven pairs when `before` holds 13 tiles. `held` counts every
/// tile of the hand (melds included); when `formal` is false a kind whose four copies are all
/// held is not a wait.
///
/// Only the group of the added tile changes, so the state of every group is computed once
/// and each candidate re-examines one group. A kind can complete the hand only if every
/// other group is already sound and holds at most one pair between them: at most two groups
/// qualify, and only their [`Group::candidates`] are tried.
pub(crate) fn waits(before: &Counts, held: &Counts, formal: bool) -> u64 {
    let groups: [(Group, [i16; 9], GroupState); 10] = std::array::from_fn(|n| {
        let group = Group::nth(n);
        let a = group.counts(before);
        (group, a, group_state(a))
    });
    let bad = groups.iter().filter(|(_, _, s)| s.bad).count();
    let pairs = groups.iter().filter(|(_, _, s)| s.pair).count();
    let mut result = 0u64;
    for &(group, a, state) in &groups {
        let other_pairs = pairs - usize::from(state.pair);
        if bad - usize::from(state.bad) > 0 || other_pairs > 1 {
            continue;
        }
        for r in ranks(group.candidates(a)) {
            let i = group.first + r;
            let mut b = a;
            b[r] += 1;
            let new = group_state(b);
            if !new.bad && other_pairs + usize::from(new.pair) == 1 && (formal || held[i] < 4) {
                result |= 1 << i;
            }
        }
    }
    if let Some(i) = seven_pairs_wait(before)
        && (formal || held[i] < 4)
    {
        result |= 1 << i;
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::notation::test_counts as counts;
    use crate::shape::division::suit_codes;

    fn wait_list(tiles: &str) -> Vec<String> {
        let c = counts(tiles);
        let w = waits(&c, &c, true);
        Tile::ALL
            .iter()
            .filter(|t| w & (1 << t.index()) != 0)
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn waits_of_rulebook_examples() {
        assert_eq!(wait_list("12345sEE"), ["3s", "6s"]);
        assert_eq!(wait_list("56789sEE"), ["4s", "7s"]);
        assert_eq!(wait_list("1233m"), ["3m"]);
        assert_eq!(wait_list("45567mEE"), ["3m", "6m"]);
        assert_eq!(wait_list("5677999s"), ["4s", "7s", "8s"]);
        assert_eq!(wait_list("4444567s"), ["4s", "7s"]);
        assert_eq!(
            wait_list("1112345678999p"),
            ["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p"]
        );
        assert_eq!(wait_list("19m19s19pESWNCFP"), Vec::<String>::new());
        assert_eq!(wait_list("2233445566778s"), ["2s", "5s", "8s"]);
    }

    #[test]
    fn physical_waits_skip_exhausted_kinds() {
        let c = counts("4444567s");
        let w = waits(&c, &c, false);
        assert_eq!(
            w,
            1 << Tile::numbered(crate::Suit::Bamboo, 7).unwrap().index()
        );
    }

    #[test]
    fn incremental_waits_agree_with_the_direct_test() {
        // Every 13-tile hand drawn from a small deterministic generator: the waits found
        // group by group equal the kinds whose addition completes the hand directly.
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..20_000 {
            let mut c = [0u8; 34];
            let span = 9 + usize::try_from(next() % 26).unwrap();
            let mut n = 0;
            while n < 13 {
                let i = usize::try_from(next() % u64::try_from(span).unwrap()).unwrap();
                if c[i] < 4 {
                    c[i] += 1;
                    n += 1;
                }
            }
            let mut direct = 0u64;
            for i in 0..34 {
                let mut d = c;
                d[i] += 1;
                if is_standard_complete(&d) || d.iter().all(|&k| k % 2 == 0) {
                    direct |= 1 << i;
                }
            }
            assert_eq!(waits(&c, &c, true), direct, "{c:?}");
        }
    }

    #[test]
    fn waits_of_one_tile_short_hands_agree_with_the_direct_test() {
        // Complete hands of every size (0 to 4 sets and a pair) less one tile, so that
        // they all wait on the tile taken out and often on other kinds; `held` adds a
        // melded pung that can exhaust a kind, for the physical waits.
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            usize::try_from(seed % u64::try_from(n).unwrap()).unwrap()
        };
        let mut several = 0;
        for round in 0..20_000 {
            let sets = round % 5;
            let mut c = [0u8; 34];
            let span = 9 + next(26);
            let mut placed = 0;
            while placed < sets {
                let i = next(span);
                let chow = i < 27 && i % 9 <= 6 && next(2) == 0;
                let tiles = if chow { [i, i + 1, i + 2] } else { [i; 3] };
                if tiles.iter().all(|&t| c[t] < 4 - u8::from(!chow) * 2) {
                    for t in tiles {
                        c[t] += 1;
                    }
                    placed += 1;
                }
            }
            let pair = loop {
                let i = next(span);
                if c[i] <= 2 {
                    break i;
                }
            };
            c[pair] += 2;
            let tiles: Vec<usize> = (0..34).filter(|&i| c[i] > 0).collect();
            let win = tiles[next(tiles.len())];
            let mut before = c;
            before[win] -= 1;
            let mut held = before;
            // Never a fifth copy, the winning tile included.
            let melded = next(34);
            if c[melded] <= 1 {
                held[melded] += 3;
            }
            for formal in [true, false] {
                let mut direct = 0u64;
                for i in 0..34 {
                    let mut d = before;
                    d[i] += 1;
                    let seven = sets == 4 && d.iter().all(|&k| k % 2 == 0);
                    if (is_standard_complete(&d) || seven) && (formal || held[i] < 4) {
                        direct |= 1 << i;
                    }
                }
                assert_eq!(waits(&before, &held, formal), direct, "{before:?} {held:?}");
                let tile = Tile::ALL[win];
                let by_counts = is_only_wait_by_counts(
                    &before,
                    suit_codes(&before),
                    &held,
                    seven_pairs_wait(&before),
                    Tile::ALL[pair],
                    formal,
                    tile,
                );
                assert_eq!(by_counts, direct == 1 << win, "{before:?} {held:?} {win}");
                let mut all = held;
                all[win] += 1;
                let by_table = is_only_wait(
                    &c,
                    &all,
                    suit_codes(&before),
                    seven_pairs_wait(&before),
                    Tile::ALL[pair],
                    formal,
                    tile,
                );
                assert_eq!(by_table, by_counts, "{before:?} {held:?} {win}");
                several += usize::from(direct.count_ones() > 1);
            }
        }
        // The generator reaches the hands with several waits, where `is_only_wait` must
        // find the other one.
        assert!(several > 5_000, "{several}");
    }

    #[test]
    fn completion() {
        assert!(!is_standard_complete(&counts("1112345678999m")));
        assert!(is_standard_complete(&counts("11123455678999m")));
        assert!(is_standard_complete(&counts("11122345678999m")));
        assert!(!is_standard_complete(&counts("EEE")));
        assert!(is_standard_complete(&counts("EEEPP")));
        assert!(!is_seven_pairs(&counts("2233334466888s9s")));
        assert!(is_seven_pairs(&counts("22333344668888s")));
    }
}
