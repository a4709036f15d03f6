//! A seat's view (`SeatView`) from proto: the seat, its tiles and melds (validated as a hand
//! in play), what is in sight, the wall and the moment.

use mcr::analysis::InPlay;
use mcr::play::state::WallLeft;
use mcr::play::{DrawKind, Moment, Offer, SeatView, Wall};
use mcr::violation::{FieldPath, Step};
use mcr::{BySeat, Tile, Violation, ViolationCode};

use super::convert::{flower_of, offered_of};
use crate::api::kit::hand::draft_hand;
use crate::api::kit::values::{required_seat, tile_or_violation, value_invalid, wind_from_pb};
use crate::api::kit::violations::Violations;
use crate::api::pb;
use crate::limits;

/// The view at `field` (e.g. `view`, `claims[1].view`), or `None` after recording every
/// problem in `v`.
pub(super) fn view_from_pb(
    view: &pb::SeatView,
    field: FieldPath,
    v: &mut Violations,
) -> Option<SeatView> {
    let before = v.len();
    for (list, len, max) in [
        ("concealed", view.concealed.len(), limits::MAX_DEALT_TILES),
        ("melds", view.melds.len(), 4),
        (
            "visible_tiles",
            view.visible_tiles.len(),
            limits::MAX_VISIBLE_TILES,
        ),
        ("seat_walls_left", view.seat_walls_left.len(), 4),
    ] {
        if len > max {
            v.add(value_invalid(
                field.field(list),
                format!("at most {max} elements are accepted here, found {len}"),
            ));
        }
    }
    if v.len() > before {
        return None;
    }
    let seat = v.take(required_seat(view.seat, field.field("seat")));
    let prevalent_wind = v
        .take(wind_from_pb(
            view.prevalent_wind,
            field.field("prevalent_wind"),
        ))
        .unwrap_or_default();
    let moment = moment_of(view, field, seat, v);
    let mut visible_list = Vec::with_capacity(view.visible_tiles.len());
    for (i, &t) in view.visible_tiles.iter().enumerate() {
        visible_list.extend(v.take(tile_or_violation(t, field.field("visible_tiles").index(i))));
    }
    let hand = pb::Hand {
        melds: view.melds.clone(),
        standing_tiles: view.concealed.clone(),
        winning_tile: 0,
    };
    let draft = draft_hand(&hand);
    if !draft.violations.is_empty() {
        v.extend(
            draft
                .violations
                .into_vec()
                .into_iter()
                .map(|x| rerooted(x, field)),
        );
        return None;
    }
    let in_play = match InPlay::new(&draft.input, &visible_list) {
        Ok(h) => h,
        Err(found) => {
            v.extend(found.into_iter().map(|x| rerooted(x, field)));
            return None;
        }
    };
    if view.flower_count > 8 {
        v.add(Violation::new(
            ViolationCode::FlowerCount,
            field.field("flower_count"),
            "there are only 8 flowers".to_owned(),
        ));
    }
    let wall = wall_of(view, field, v);
    let (seat, moment) = (seat?, moment?);
    check_fits(view, field, &in_play, moment, v);
    if v.len() > before {
        return None;
    }
    let mut visible = [0u8; 34];
    for t in &visible_list {
        visible[t.index()] += 1;
    }
    // What is in sight includes the seat's own exposed melds.
    for m in in_play.melds().iter().filter(|m| m.is_claimed()) {
        for t in m.to_input().tiles {
            visible[t.index()] += 1;
        }
    }
    Some(SeatView {
        seat,
        prevalent_wind,
        concealed: *in_play.concealed_counts(),
        melds: in_play.melds().to_vec(),
        flowers: u8::try_from(view.flower_count.min(8)).unwrap_or(8),
        visible,
        wall: Wall::with_left(wall),
        barred: view.barred,
        moment,
    })
}

/// The wall the view gives: the shared count, or Botzone's four.
fn wall_of(view: &pb::SeatView, field: FieldPath, v: &mut Violations) -> WallLeft {
    match view.seat_walls_left.as_slice() {
        [] => WallLeft::Shared(u16::try_from(view.wall_left).unwrap_or(u16::MAX)),
        &[east, south, west, north] => WallLeft::PerSeat(BySeat::from_array(
            [east, south, west, north].map(|n| u8::try_from(n).unwrap_or(u8::MAX)),
        )),
        other => {
            v.add(value_invalid(
                field.field("seat_walls_left"),
                format!(
                    "give four counts (East first) or none, found {}",
                    other.len()
                ),
            ));
            WallLeft::Shared(0)
        }
    }
}

/// The concealed tiles fit the moment: a full hand to act on, or one short of it to claim;
/// the tile drawn is among them.
fn check_fits(
    view: &pb::SeatView,
    field: FieldPath,
    in_play: &InPlay,
    moment: Moment,
    v: &mut Violations,
) {
    // The concealed tiles fit the moment: a full hand to act on, or one short of it to claim.
    let full = matches!(moment, Moment::Drew { .. } | Moment::Claimed);
    if in_play.is_waiting() == full {
        v.add(Violation::new(
            ViolationCode::TileCountWrong,
            field.field("concealed"),
            format!(
                "with {} meld(s) a seat {} holds {} concealed tiles, found {}",
                view.melds.len(),
                if full {
                    "that is to discard"
                } else {
                    "that is offered a tile or drew a flower"
                },
                if full {
                    14 - 3 * view.melds.len()
                } else {
                    13 - 3 * view.melds.len()
                },
                view.concealed.len()
            ),
        ));
    }
    if let Moment::Drew { tile, .. } = moment
        && in_play.concealed_counts()[tile.index()] == 0
    {
        v.add(value_invalid(
            field.field("drew").field("tile"),
            format!("the tile drawn, {tile}, is not among the concealed tiles"),
        ));
    }
}

fn moment_of(
    view: &pb::SeatView,
    field: FieldPath,
    seat: Option<mcr::Seat>,
    v: &mut Violations,
) -> Option<Moment> {
    let offered = |o: &pb::OfferedTile,
                   name: &'static str,
                   v: &mut Violations|
     -> Option<(Tile, mcr::Seat)> {
        let (tile, from) = offered_of(*o, field.field(name), v)?;
        if seat == Some(from) {
            v.add(value_invalid(
                field.field(name).field("from"),
                format!("{from} cannot be offered its own tile"),
            ));
            return None;
        }
        Some((tile, from))
    };
    match &view.moment {
        None => {
            v.add(value_invalid(
                field.field("moment"),
                "say what the seat is asked: drew, drew_flower, just_claimed, discard or added_kong"
                    .to_owned(),
            ));
            None
        }
        Some(pb::seat_view::Moment::Drew(d)) => {
            let tile = v.take(tile_or_violation(d.tile, field.field("drew").field("tile")))?;
            let kind = match (d.after_kong, d.after_flower) {
                (false, false) => DrawKind::Normal,
                (true, false) => DrawKind::AfterKong,
                (false, true) => DrawKind::AfterFlower,
                (true, true) => {
                    v.add(value_invalid(
                        field.field("drew"),
                        "a replacement follows a kong or a flower, not both".to_owned(),
                    ));
                    return None;
                }
            };
            Some(Moment::Drew { tile, kind })
        }
        Some(pb::seat_view::Moment::DrewFlower(f)) => {
            flower_of(*f, field.field("drew_flower"), v).map(Moment::DrewFlower)
        }
        Some(pb::seat_view::Moment::JustClaimed(_)) => Some(Moment::Claimed),
        Some(pb::seat_view::Moment::Discard(o)) => offered(o, "discard", v)
            .map(|(tile, from)| Moment::Offered(Offer::Discard { tile, from })),
        Some(pb::seat_view::Moment::AddedKong(o)) => offered(o, "added_kong", v)
            .map(|(tile, from)| Moment::Offered(Offer::AddedKong { tile, from })),
    }
}

/// A violation of the hand (`hand.melds…`, `hand.standing…`, `visible_tiles…`) placed in the
/// view at `field`.
fn rerooted(mut v: Violation, field: FieldPath) -> Violation {
    let steps = v.path.steps();
    let rest = match steps.first() {
        Some(Step::Field("hand")) => &steps[1..],
        Some(_) | None => steps,
    };
    let mut path = field;
    for (i, step) in rest.iter().enumerate() {
        path = match step {
            Step::Field("standing_tiles" | "standing") if i == 0 => path.field("concealed"),
            Step::Field(_) | Step::Index(_) => path.step(*step),
        };
    }
    v.path = Box::new(path);
    v
}
