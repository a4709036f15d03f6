//! The depth-first division search over the whole hand: the test oracle of the tables.

use super::{Division, Divisions, MAX_DIVISIONS};
use crate::shape::{Set, SetKind, order_key};
use crate::tile::{Counts, Tile};

/// Sort key of a concealed set: by tile, a pung before the chow starting on the same tile.
const fn set_key(s: Set) -> (u8, u8) {
    (
        order_key(s.tile),
        if matches!(s.kind, SetKind::Chow) {
            1
        } else {
            0
        },
    )
}

/// Every division of `concealed` into `needed` sets and one pair.
pub(super) fn search_divisions(concealed: &Counts, needed: usize) -> Divisions {
    let empty = Division {
        sets: [Set::concealed(SetKind::Pung, Tile::EAST); 4],
        len: 0,
        pair: Tile::EAST,
    };
    let mut out = Divisions {
        items: [empty; MAX_DIVISIONS],
        len: 0,
    };
    let mut c = *concealed;
    let mut work = empty;
    divide(&mut c, (0, 0), needed, None, &mut work, &mut out);
    // Sort each division's sets and the divisions themselves into calculator order.
    for d in &mut out.items[..out.len] {
        d.sets[..d.len].sort_unstable_by_key(|s| set_key(*s));
    }
    out.items[..out.len].sort_by(|a, b| {
        let ka = a.sets[..a.len].iter().map(|s| set_key(*s));
        let kb = b.sets[..b.len].iter().map(|s| set_key(*s));
        ka.cmp(kb)
    });
    out
}

/// Depth-first division. The lowest remaining tile is covered first, by a pair, a pung or a
/// chow starting on it; `(from, min_kind)` forbids going back to a smaller kind on the same
/// tile (pair 0 < pung 1 < chow 2), so every division is found exactly once.
fn divide(
    c: &mut Counts,
    (from, min_kind): (usize, u8),
    needed: usize,
    pair: Option<Tile>,
    work: &mut Division,
    out: &mut Divisions,
) {
    let Some(i) = (from..34).find(|&i| c[i] > 0) else {
        if work.len == needed
            && let Some(p) = pair
            && out.len < MAX_DIVISIONS
        {
            let mut d = *work;
            d.pair = p;
            out.items[out.len] = d;
            out.len += 1;
        }
        return;
    };
    let min_kind = if i == from { min_kind } else { 0 };
    let Some(t) = Tile::from_usize(i) else {
        return;
    };
    if min_kind == 0 && pair.is_none() && c[i] >= 2 {
        c[i] -= 2;
        divide(c, (i, 1), needed, Some(t), work, out);
        c[i] += 2;
    }
    if min_kind <= 1 && work.len < needed && c[i] >= 3 {
        c[i] -= 3;
        work.sets[work.len] = Set::concealed(SetKind::Pung, t);
        work.len += 1;
        divide(c, (i, 2), needed, pair, work, out);
        work.len -= 1;
        c[i] += 3;
    }
    if work.len < needed && t.is_numbered() && t.rank_or_zero() <= 7 && c[i + 1] > 0 && c[i + 2] > 0
    {
        c[i] -= 1;
        c[i + 1] -= 1;
        c[i + 2] -= 1;
        work.sets[work.len] = Set::concealed(SetKind::Chow, t);
        work.len += 1;
        divide(c, (i, 2), needed, pair, work, out);
        work.len -= 1;
        c[i] += 1;
        c[i + 1] += 1;
        c[i + 2] += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::notation::test_counts as counts;

    #[test]
    fn every_division_is_found_once() {
        // 77789p: 77 + 789 only, although the pair and the chow both start on 7p.
        assert_eq!(search_divisions(&counts("77789p"), 1).len, 1);
        // 112233m55p: 123 + 123 + 55 only.
        assert_eq!(search_divisions(&counts("112233m55p"), 2).len, 1);
        // 111222333m + 44p: pungs, or three chows 123.
        assert_eq!(search_divisions(&counts("111222333m44p"), 3).len, 2);
    }

    #[test]
    fn divisions_of_a_triple_run_include_pungs_and_chows() {
        let d = search_divisions(&counts("555666777p55567s"), 4);
        assert_eq!(d.len, 2);
        // Sets sort bamboo before dots, and a pung before the chow on the same tile: both
        // readings open with 567s, then the pung reading comes first.
        assert_eq!(d.items[0].sets[1].kind, SetKind::Pung);
        assert_eq!(d.items[1].sets[1].kind, SetKind::Chow);
    }
}
