//! Rulesets, winds, seats and tiles read from Python arguments; every bad value an
//! `McrError` at its argument.

use mcr::house_rules::Rules;
use mcr::{RulesetId, Seat, Tile, Wind};
use pyo3::prelude::*;

use crate::errors::value_error;

/// The ruleset named `name` (`mil`, `chinese-official-1998`, `green-book-2006`).
pub fn ruleset_id(py: Python<'_>, name: &str, field: &str) -> PyResult<RulesetId> {
    name.parse::<RulesetId>()
        .map_err(|message| value_error(py, "VALUE_INVALID", field, &message))
}

/// The rules of the ruleset named `name`, without house rules.
pub fn rules(py: Python<'_>, name: &str, field: &str) -> PyResult<Rules> {
    let id = ruleset_id(py, name, field)?;
    Rules::new(id, None).map_err(|v| crate::errors::invalid(py, &v))
}

/// A wind given as `E`/`S`/`W`/`N` (or its name) or 0–3 (East first).
pub fn wind(py: Python<'_>, value: &Bound<'_, PyAny>, field: &str) -> PyResult<Wind> {
    if let Ok(i) = value.extract::<i64>() {
        return usize::try_from(i)
            .ok()
            .and_then(|i| Wind::ALL.get(i).copied())
            .ok_or_else(|| value_error(py, "VALUE_INVALID", field, "a wind is 0-3 (East first)"));
    }
    let text: String = value
        .extract()
        .map_err(|_| value_error(py, "VALUE_INVALID", field, "a wind is E, S, W, N or 0-3"))?;
    match text.to_ascii_lowercase().as_str() {
        "e" | "east" => Ok(Wind::East),
        "s" | "south" => Ok(Wind::South),
        "w" | "west" => Ok(Wind::West),
        "n" | "north" => Ok(Wind::North),
        _ => Err(value_error(
            py,
            "VALUE_INVALID",
            field,
            &format!("`{text}` is not a wind (E, S, W, N or 0-3)"),
        )),
    }
}

/// A seat 0–3 (East first).
pub fn seat(py: Python<'_>, index: i64, field: &str) -> PyResult<Seat> {
    usize::try_from(index)
        .ok()
        .and_then(Seat::from_index)
        .ok_or_else(|| value_error(py, "SEAT_INVALID", field, "a seat is 0-3 (East first)"))
}

/// A tile by its code (`W1`…`W9`, `B1`…, `T1`…, `F1`…`F4`, `J1`…`J3`).
pub fn tile(py: Python<'_>, code: &str, field: &str) -> PyResult<Tile> {
    Tile::from_code(code).ok_or_else(|| {
        value_error(
            py,
            "TILE_UNKNOWN",
            field,
            &format!("`{code}` is not a tile code (W1-W9, B1-B9, T1-T9, F1-F4, J1-J3)"),
        )
    })
}
