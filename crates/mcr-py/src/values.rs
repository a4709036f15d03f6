//! Rulesets, winds, seats and tiles read from Python arguments; every bad value an
//! `McrError` at its argument.

use mcr::house_rules::Rules;
use mcr::{RulesetId, Seat, Tile, Wind};
use mcr_api::api::kit::values::{ruleset_to_pb, tile_to_pb, wind_to_pb};
use mcr_api::api::pb;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyInt, PyString};

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
    // The letters as Python source writes them are interned: the same objects.
    static LETTERS: PyOnceLock<[Py<PyString>; 4]> = PyOnceLock::new();
    let letters = LETTERS.get_or_init(py, || {
        ["E", "S", "W", "N"].map(|l| PyString::intern(py, l).unbind())
    });
    if let Some(i) = letters.iter().position(|l| value.is(l)) {
        return Ok(Wind::ALL[i]);
    }
    if value.is_instance_of::<PyInt>() {
        let i: i64 = value.extract()?;
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

/// The names the service's JSON gives the values the Python layer converts, each mapped
/// from the package's own form: `TILE_NAMES` (`TILE_1M` → `W1`), `WIND_NAMES` (`E` →
/// `WIND_EAST`) and `RULESET_NAMES` (`mil` → `RULESET_MIL`). Taken from the contract's
/// generated code, so the two cannot drift.
pub fn add_names(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let tiles = PyDict::new(py);
    for tile in Tile::ALL {
        let name = pb::Tile::try_from(tile_to_pb(tile)).map_or("", |t| t.as_str_name());
        tiles.set_item(name, tile.code())?;
    }
    m.add("TILE_NAMES", tiles)?;
    let winds = PyDict::new(py);
    for (wind, letter) in Wind::ALL.into_iter().zip(["E", "S", "W", "N"]) {
        winds.set_item(letter, wind_to_pb(wind).as_str_name())?;
    }
    m.add("WIND_NAMES", winds)?;
    let rulesets = PyDict::new(py);
    for id in RulesetId::ALL {
        rulesets.set_item(id.name(), ruleset_to_pb(id).as_str_name())?;
    }
    m.add("RULESET_NAMES", rulesets)?;
    Ok(())
}
