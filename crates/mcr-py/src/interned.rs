//! Python objects made once a process and reused by every call: the tile codes and the
//! fans' names. A tile code is read without copying the string (the abi3 API of Python 3.9
//! has no borrowed view of a string's text), and a fan's name is a shared string, not a new
//! one each call.

use mcr::{Fan, Tile};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyString;

/// Slots of the tile codes' hash table: a power of two, about four times the 34 codes.
const SLOTS: usize = 128;

/// Botzone's code of every tile kind (`W1`…`J3`), placed by its string's hash (open
/// addressing, linear probing): each slot the hash, the code and the tile.
struct TileCodes {
    slots: Vec<Option<(isize, Py<PyString>, Tile)>>,
}

static TILE_CODES: PyOnceLock<TileCodes> = PyOnceLock::new();

#[allow(clippy::cast_sign_loss)] // the hash's bits index the table
const fn slot_of(hash: isize) -> usize {
    (hash as usize) & (SLOTS - 1)
}

/// The tile of a code, `None` for anything else (not a string, not a code).
///
/// Python caches a string's hash: the code is found by its hash in a small table, then the
/// strings are compared (the same object for codes written in Python source, which are
/// interned). A third of a dictionary lookup's instructions (docs/performance.md, "From
/// Python").
pub fn tile_of(value: &Bound<'_, PyAny>) -> PyResult<Option<Tile>> {
    let py = value.py();
    let Ok(text) = value.cast::<PyString>() else {
        return Ok(None);
    };
    let codes = TILE_CODES.get_or_try_init(py, || -> PyResult<TileCodes> {
        let mut slots: Vec<Option<(isize, Py<PyString>, Tile)>> =
            (0..SLOTS).map(|_| None).collect();
        for tile in Tile::ALL {
            let code = PyString::intern(py, &tile.code());
            let hash = code.hash()?;
            let mut slot = slot_of(hash);
            while slots[slot].is_some() {
                slot = (slot + 1) & (SLOTS - 1);
            }
            slots[slot] = Some((hash, code.unbind(), tile));
        }
        Ok(TileCodes { slots })
    })?;
    let hash = text.hash()?;
    let mut slot = slot_of(hash);
    while let Some((code_hash, code, tile)) = &codes.slots[slot] {
        if *code_hash == hash && (text.is(code) || PyAnyMethods::eq(text.as_any(), code.bind(py))?)
        {
            return Ok(Some(*tile));
        }
        slot = (slot + 1) & (SLOTS - 1);
    }
    Ok(None)
}

/// Every tile kind's code as a Python string, in [`Tile::ALL`]'s order.
static CODE_STRINGS: PyOnceLock<Vec<Py<PyString>>> = PyOnceLock::new();

/// The code of `tile` (`W5`), a string made once a process.
pub fn code_of(py: Python<'_>, tile: Tile) -> Py<PyString> {
    let codes = CODE_STRINGS.get_or_init(py, || {
        Tile::ALL
            .iter()
            .map(|t| PyString::intern(py, &t.code()).unbind())
            .collect()
    });
    codes[tile.index()].clone_ref(py)
}

/// One fan's names as Python strings.
#[derive(Debug)]
pub struct FanNames {
    /// Simplified Chinese.
    pub zh: Py<PyString>,
    /// Traditional Chinese.
    pub zh_hant: Py<PyString>,
    /// English.
    pub en: Py<PyString>,
}

/// Indexed by the fan's discriminant (`Fan` is `repr(u8)`).
static FAN_NAMES: PyOnceLock<Vec<Option<FanNames>>> = PyOnceLock::new();

/// The names of `fan`.
pub fn fan_names(py: Python<'_>, fan: Fan) -> &FanNames {
    let names = FAN_NAMES.get_or_init(py, || {
        let mut names: Vec<Option<FanNames>> = (0..=u8::MAX).map(|_| None).collect();
        for f in Fan::ALL {
            let spec = f.spec();
            names[f as usize] = Some(FanNames {
                zh: PyString::intern(py, spec.name_zh).unbind(),
                zh_hant: PyString::intern(py, spec.name_zh_hant).unbind(),
                en: PyString::intern(py, spec.name_en).unbind(),
            });
        }
        names
    });
    names[fan as usize]
        .as_ref()
        .expect("every fan of Fan::ALL is named")
}
