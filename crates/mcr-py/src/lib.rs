//! `mahjong_mcr._mcr`: the Python binding of the MCR engine (`crates/mcr`) and of the
//! referee's API layer (`crates/mcr-api`). It holds no rule: each function reads its Python
//! arguments, calls the engine or the API layer, and builds the Python result. The typed
//! surface is `python/mahjong_mcr/_mcr.pyi`; `docs/python.md` says how to use it.
//!
//! - [`errors`]: every error raised ([`McrError`](errors) and the compat module's);
//! - [`values`]: rulesets, winds and tiles read from Python;
//! - [`interned`]: tile codes and fan names as Python objects made once;
//! - [`scoring`]: `score()` and the service's JSON lines in-process;
//! - [`rpc`]: the service's other calls by name, proto3 JSON in and out;
//! - [`table`]: a whole table in-process ([`mcr::play::Table`]);
//! - [`compat`]: PyMahjongGB 1.4.0's functions, the same signatures and result shapes.

mod compat;
mod errors;
mod interned;
mod rpc;
mod scoring;
mod table;
mod values;

use pyo3::prelude::*;

/// The extension module.
#[pymodule]
fn _mcr(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ACTION_SPACE", mcr::play::ACTION_SPACE)?;
    values::add_names(m)?;
    m.add_class::<table::Table>()?;
    m.add_class::<table::Action>()?;
    m.add_class::<table::Observation>()?;
    m.add_class::<table::PublicSeat>()?;
    m.add_class::<table::Meld>()?;
    m.add_class::<table::TableResult>()?;
    m.add_class::<table::TableFan>()?;
    m.add_function(wrap_pyfunction!(table::action_of_id, m)?)?;
    m.add_class::<scoring::Score>()?;
    m.add_class::<scoring::Fan>()?;
    m.add_function(wrap_pyfunction!(scoring::score, m)?)?;
    m.add_function(wrap_pyfunction!(scoring::score_json_text, m)?)?;
    m.add_function(wrap_pyfunction!(scoring::score_many_json, m)?)?;
    m.add_function(wrap_pyfunction!(rpc::call_json, m)?)?;
    compat::register(m)?;
    Ok(())
}
