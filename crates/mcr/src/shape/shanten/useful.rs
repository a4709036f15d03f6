//! Which kinds are useful to a shape: those whose drawing lowers its distance.

use crate::tile::{Counts, Tile, TileSet};

/// The kinds whose drawing lowers `distance`, the distance of `counts`, given the distance
/// after drawing each kind. A kind held four times is only a formal wait: it is listed where
/// it completes a ready hand, never as a step towards ready (and `after_drawing` is not
/// asked about it otherwise).
pub(super) fn useful_kinds(
    counts: &Counts,
    distance: i8,
    mut after_drawing: impl FnMut(Tile) -> i8,
) -> TileSet {
    Tile::ALL
        .into_iter()
        .filter(|&t| (counts[t.index()] < 4 || distance == 0) && after_drawing(t) < distance)
        .collect()
}
