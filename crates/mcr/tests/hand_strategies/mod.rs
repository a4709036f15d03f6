//! Hands for property tests: complete concealed hands of every shape, as tile indices.

use mcr::tile::Counts;
use proptest::prelude::*;
use proptest::sample::select;

/// A complete fourteen-tile concealed hand of a random shape (copies ≤ 4).
pub fn complete_hand() -> impl Strategy<Value = Vec<usize>> {
    let set = (0usize..34, any::<bool>()).prop_map(|(i, chow)| {
        if chow && i < 27 && i % 9 <= 6 {
            vec![i, i + 1, i + 2]
        } else {
            vec![i; 3]
        }
    });
    let standard = (proptest::collection::vec(set, 4), 0usize..34).prop_map(|(sets, pair)| {
        let mut t: Vec<usize> = sets.concat();
        t.extend([pair, pair]);
        t
    });
    let pairs = proptest::collection::vec(0usize..34, 7)
        .prop_map(|p| p.iter().flat_map(|&i| [i, i]).collect::<Vec<_>>());
    let orphans =
        select(vec![0usize, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]).prop_map(|d| {
            let mut t = vec![0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];
            t.push(d);
            t
        });
    let knitted = (0usize..16, 0usize..15).prop_map(|(a, b)| {
        // 147m 258p 369s and the seven honours, two of the sixteen left out.
        let b = if b >= a { b + 1 } else { b };
        let all = [0, 3, 6, 10, 13, 16, 20, 23, 26, 27, 28, 29, 30, 31, 32, 33];
        all.iter()
            .enumerate()
            .filter(|&(k, _)| k != a && k != b)
            .map(|(_, &i)| i)
            .collect::<Vec<_>>()
    });
    let knitted_straight = (0usize..34, 0usize..34).prop_map(|(s, pair)| {
        let mut t = vec![0, 3, 6, 10, 13, 16, 20, 23, 26];
        if s < 27 && s % 9 <= 6 {
            t.extend([s, s + 1, s + 2]);
        } else {
            t.extend([s; 3]);
        }
        t.extend([pair, pair]);
        t
    });
    prop_oneof![4 => standard, 2 => pairs, 1 => orphans, 1 => knitted, 1 => knitted_straight]
        .prop_filter("at most four copies", |t| {
            t.len() == 14 && (0..34).all(|i| t.iter().filter(|&&x| x == i).count() <= 4)
        })
}

pub fn counts_of(tiles: &[usize]) -> Counts {
    let mut c = [0u8; 34];
    for &i in tiles {
        c[i] += 1;
    }
    c
}
