//! Completion tests and waits: which tile kinds complete a hand.
//!
//! The tests work on counts that may exceed four (a "formal" wait on a fifth copy is still a
//! wait under MIL), and are greedy per suit: inside one suit, a set-only decomposition exists
//! iff taking `count mod 3` chows from the lowest rank upwards succeeds, because three equal
//! chows hold the same tiles as three pungs.

use crate::tile::{Counts, Tile};

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
pub(crate) fn is_seven_pairs(c: &Counts) -> bool {
    c.iter().map(|&n| usize::from(n)).sum::<usize>() == 14 && c.iter().all(|&n| n % 2 == 0)
}

/// Whether one group (a suit, or a single honour kind) cannot be part of a complete hand, and
/// whether it holds the pair.
#[derive(Clone, Copy)]
struct GroupState {
    bad: bool,
    pair: bool,
}

fn suit_state(c: &Counts, suit: usize) -> GroupState {
    let mut a = [0i16; 9];
    let mut sum = 0;
    for r in 0..9 {
        a[r] = i16::from(c[suit * 9 + r]);
        sum += a[r];
    }
    match sum % 3 {
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

const fn honor_state(n: u8) -> GroupState {
    match n % 3 {
        0 => GroupState {
            bad: false,
            pair: false,
        },
        2 => GroupState {
            bad: false,
            pair: true,
        },
        _ => GroupState {
            bad: true,
            pair: false,
        },
    }
}

/// The tile kinds that complete `before` (the concealed tiles before the winning tile) into
/// the standard shape, or into seven pairs when `before` holds 13 tiles. `held` counts every
/// tile of the hand (melds included); when `formal` is false a kind whose four copies are all
/// held is not a wait.
///
/// Only the group of the added tile changes, so the state of every group is computed once
/// and each candidate re-examines one suit.
pub(crate) fn waits(before: &Counts, held: &Counts, formal: bool) -> u64 {
    waits_up_to(before, held, formal, 34)
}

/// Whether `win` is the only tile kind that completes `before` (see [`waits`]).
pub(crate) fn is_only_wait(before: &Counts, held: &Counts, formal: bool, win: Tile) -> bool {
    waits_up_to(before, held, formal, 2) == 1 << win.index()
}

/// [`waits`], stopping once `limit` waits are found.
fn waits_up_to(before: &Counts, held: &Counts, formal: bool, limit: u32) -> u64 {
    let mut states = [GroupState {
        bad: false,
        pair: false,
    }; 10];
    for (suit, state) in states.iter_mut().enumerate().take(3) {
        *state = suit_state(before, suit);
    }
    for h in 0..7 {
        states[3 + h] = honor_state(before[27 + h]);
    }
    let bad = states.iter().filter(|s| s.bad).count();
    let pairs = states.iter().filter(|s| s.pair).count();
    let mut near = 0u64;
    let mut odd = 0u64;
    let mut total = 0usize;
    for (i, &n) in before.iter().enumerate() {
        if n == 0 {
            continue;
        }
        total += usize::from(n);
        if n % 2 == 1 {
            odd |= 1 << i;
        }
        near |= 1 << i;
        if i < 27 {
            let r = i % 9;
            for (ok, j) in [
                (r >= 2, i.wrapping_sub(2)),
                (r >= 1, i.wrapping_sub(1)),
                (r <= 7, i + 1),
                (r <= 6, i + 2),
            ] {
                if ok {
                    near |= 1 << j;
                }
            }
        }
    }
    let mut result = 0u64;
    let mut c = *before;
    let mut bits = near;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let g = if i < 27 { i / 9 } else { i - 24 };
        // Every other group must already be sound, and the pair count must come out at one.
        let other_pairs = pairs - usize::from(states[g].pair);
        if bad - usize::from(states[g].bad) > 0 || other_pairs > 1 {
            continue;
        }
        c[i] += 1;
        let new = if i < 27 {
            suit_state(&c, g)
        } else {
            honor_state(c[i])
        };
        c[i] -= 1;
        let old = states[g];
        let bad = bad - usize::from(old.bad) + usize::from(new.bad);
        let pairs = pairs - usize::from(old.pair) + usize::from(new.pair);
        if bad == 0 && pairs == 1 && (formal || held[i] < 4) {
            result |= 1 << i;
            if result.count_ones() >= limit {
                return result;
            }
        }
    }
    // Seven pairs: thirteen tiles with exactly one odd kind wait on that kind.
    if total == 13 && odd.is_power_of_two() && (formal || held[odd.trailing_zeros() as usize] < 4) {
        result |= odd;
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(tiles: &str) -> Counts {
        let mut c = [0; 34];
        for t in crate::notation::parse_tiles(tiles).unwrap() {
            c[t.index()] += 1;
        }
        c
    }

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
