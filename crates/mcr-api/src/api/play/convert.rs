//! Conversions the play calls share: actions, tiles or flowers drawn, offered tiles,
//! circumstances.

use mcr::play::{Action, Circumstances, Drawn, Flower};
use mcr::violation::FieldPath;
use mcr::{Seat, Tile, Violation, ViolationCode};

use crate::api::kit::values::{required_seat, tile_or_violation, value_invalid};
use crate::api::kit::violations::Violations;
use crate::api::pb;

pub(super) fn flower_of(number: u32, field: FieldPath, v: &mut Violations) -> Option<Flower> {
    let flower = u8::try_from(number).ok().and_then(Flower::new);
    if flower.is_none() {
        v.add(value_invalid(
            field,
            format!("{number} is not a flower (1..8)"),
        ));
    }
    flower
}

pub(super) fn drawn_of(
    tile: i32,
    flower: u32,
    field: FieldPath,
    v: &mut Violations,
) -> Option<Drawn> {
    if flower != 0 {
        if tile != pb::Tile::Unspecified as i32 {
            v.add(value_invalid(
                field,
                "a tile or a flower, not both".to_owned(),
            ));
        }
        return flower_of(flower, field.field("flower"), v).map(Drawn::Flower);
    }
    v.take(tile_or_violation(tile, field.field("tile")))
        .map(Drawn::Tile)
}

/// An action as the record or a claim gives it (`field` is the message's path).
pub(super) fn action_of(
    action: i32,
    tile: i32,
    flower: u32,
    field: FieldPath,
    v: &mut Violations,
) -> Option<Action> {
    let tile_at = |v: &mut Violations| {
        if flower != 0 {
            v.add(value_invalid(
                field.field("flower"),
                format!("a flower ({flower}) goes only with a draw or a flower shown"),
            ));
        }
        v.take(tile_or_violation(tile, field.field("tile")))
    };
    match pb::PlayAction::try_from(action) {
        Ok(pb::PlayAction::Draw) => drawn_of(tile, flower, field, v).map(Action::Draw),
        Ok(pb::PlayAction::Flower) => {
            if tile != pb::Tile::Unspecified as i32 {
                v.add(value_invalid(
                    field.field("tile"),
                    format!("a flower shown names its flower, not a tile ({tile})"),
                ));
            }
            flower_of(flower, field.field("flower"), v).map(Action::Flower)
        }
        Ok(pb::PlayAction::Discard) => tile_at(v).map(Action::Discard),
        Ok(pb::PlayAction::Chow) => {
            let middle = tile_at(v)?;
            if matches!(middle.rank(), Some(2..=8)) {
                Some(Action::Chow(middle))
            } else {
                v.add(Violation::new(
                    ViolationCode::ChowInvalid,
                    field.field("tile"),
                    format!("a chow is named by its middle tile, a numbered tile of rank 2–8; {middle} is not"),
                ));
                None
            }
        }
        Ok(pb::PlayAction::Pung) => tile_at(v).map(Action::Pung),
        Ok(pb::PlayAction::Kong) => tile_at(v).map(Action::Kong),
        Ok(pb::PlayAction::ConcealedKong) => tile_at(v).map(Action::ConcealedKong),
        Ok(pb::PlayAction::AddedKong) => tile_at(v).map(Action::AddedKong),
        Ok(pb::PlayAction::Win) => tile_at(v).map(Action::Win),
        Ok(pb::PlayAction::Unspecified) | Err(_) => {
            v.add(value_invalid(
                field.field("action"),
                format!("{action} is not an action (expected PLAY_ACTION_DRAW..PLAY_ACTION_WIN)"),
            ));
            None
        }
    }
}

pub(super) fn circumstances_from_pb(c: pb::Circumstances) -> Circumstances {
    Circumstances {
        self_drawn: c.self_drawn,
        kong_replacement: c.kong_replacement,
        robbing_kong: c.robbing_kong,
        last_tile: c.last_tile,
        last_copy: c.last_copy,
    }
}

pub(super) fn circumstances_to_pb(c: Circumstances) -> pb::Circumstances {
    let Circumstances {
        self_drawn,
        kong_replacement,
        robbing_kong,
        last_tile,
        last_copy,
    } = c;
    pb::Circumstances {
        self_drawn,
        kong_replacement,
        robbing_kong,
        last_tile,
        last_copy,
    }
}

/// An action as proto: its kind, tile and flower.
pub(super) fn action_to_pb(action: Action) -> (pb::PlayAction, i32, u32) {
    let tile = crate::api::kit::values::tile_to_pb;
    match action {
        Action::Draw(Drawn::Tile(t)) => (pb::PlayAction::Draw, tile(t), 0),
        Action::Draw(Drawn::Flower(f)) => (pb::PlayAction::Draw, 0, u32::from(f.number())),
        Action::Flower(f) => (pb::PlayAction::Flower, 0, u32::from(f.number())),
        Action::Discard(t) => (pb::PlayAction::Discard, tile(t), 0),
        Action::Chow(t) => (pb::PlayAction::Chow, tile(t), 0),
        Action::Pung(t) => (pb::PlayAction::Pung, tile(t), 0),
        Action::Kong(t) => (pb::PlayAction::Kong, tile(t), 0),
        Action::ConcealedKong(t) => (pb::PlayAction::ConcealedKong, tile(t), 0),
        Action::AddedKong(t) => (pb::PlayAction::AddedKong, tile(t), 0),
        Action::Win(t) => (pb::PlayAction::Win, tile(t), 0),
    }
}

/// A tile offered (a discard or a tile added to a kong) and its offerer, at `path`.
pub(super) fn offered_of(
    o: pb::OfferedTile,
    path: FieldPath,
    v: &mut Violations,
) -> Option<(Tile, Seat)> {
    let tile = v.take(tile_or_violation(o.tile, path.field("tile")));
    let from = v.take(required_seat(o.from, path.field("from")));
    Some((tile?, from?))
}
