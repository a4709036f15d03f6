//! The errors the binding raises: `mahjong_mcr.McrError` (a `ValueError` with `.code` and
//! `.violations`) and, from the compat module, `mahjong_mcr.compat.CompatError` (also a
//! `TypeError`, its `str()` PyMahjongGB's error code). Both classes are defined in Python
//! (`python/mahjong_mcr/_errors.py`); this module builds their instances.

use mcr::Violation;
use pyo3::prelude::*;

/// One violation as the Python side takes it: code, field path, message.
pub type Shown = (String, String, String);

/// The violation as a tuple.
pub fn shown(v: &Violation) -> Shown {
    (
        v.code.as_str().to_owned(),
        v.path.to_string(),
        v.message.clone(),
    )
}

/// `McrError(message, code, violations)`.
pub fn mcr_error(py: Python<'_>, code: &str, message: &str, violations: Vec<Shown>) -> PyErr {
    raise(py, "McrError", (message, code, violations))
}

/// An `McrError` for `violations` (at least one): its code is the first one's.
pub fn invalid(py: Python<'_>, violations: &[Violation]) -> PyErr {
    let shown: Vec<Shown> = violations.iter().map(shown).collect();
    let (code, message) = shown.first().map_or_else(
        || ("VALUE_INVALID".to_owned(), "invalid input".to_owned()),
        |(code, field, message)| (code.clone(), format!("{field}: {message}")),
    );
    mcr_error(py, &code, &message, shown)
}

/// One violation `code` at `field`.
pub fn value_error(py: Python<'_>, code: &str, field: &str, message: &str) -> PyErr {
    mcr_error(
        py,
        code,
        &format!("{field}: {message}"),
        vec![(code.to_owned(), field.to_owned(), message.to_owned())],
    )
}

/// `CompatError(code)`: PyMahjongGB's error code as the message.
pub fn compat_error(py: Python<'_>, code: &str) -> PyErr {
    raise(py, "CompatError", (code,))
}

fn raise<'py>(py: Python<'py>, class: &str, args: impl pyo3::call::PyCallArgs<'py>) -> PyErr {
    let made = py
        .import("mahjong_mcr._errors")
        .and_then(|m| m.getattr(class))
        .and_then(|c| c.call1(args));
    match made {
        Ok(instance) => PyErr::from_value(instance),
        Err(e) => e,
    }
}
