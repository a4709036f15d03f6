//! The service's calls in-process, by name: a request as proto3 JSON text in, the response
//! as proto3 JSON text out, through the very handlers the gRPC server runs
//! (`mcr_api::api`), so a request means the same here and over the wire. The Python layer
//! (`python/mahjong_mcr/_api.py`) builds the requests of `analyze`, `settle`, `replay` and
//! `legal_actions` and reads their responses into typed results.

use mcr::Violation;
use mcr_api::api::kit::house_rules::KeptRules;
use mcr_api::api::kit::json;
use mcr_api::api::{accounting, analysis, pb, play};
use prost::{Message, Name};
use pyo3::prelude::*;

use crate::errors::{invalid, mcr_error};
use crate::scoring::kept;

type Handler<Q, R> = fn(&Q, &KeptRules) -> Result<R, Vec<Violation>>;

/// Reads `text` as a `Q`, answers it with `handler` (the GIL released), writes the answer.
fn answer<Q, R>(py: Python<'_>, text: &str, handler: Handler<Q, R>) -> PyResult<String>
where
    Q: Message + Name + Default + Send + Sync,
    R: Message + Name + Send,
{
    let request = json::from_json::<Q>(text)
        .map_err(|e| mcr_error(py, "REQUEST_UNPARSABLE", &e.message, Vec::new()))?;
    let response = py
        .detach(|| handler(&request, kept()))
        .map_err(|v| invalid(py, &v))?;
    json::to_json(&response, false).map_err(|e| mcr_error(py, "INTERNAL", &e.message, Vec::new()))
}

fn deal(
    request: &pb::DealHandRequest,
    _: &KeptRules,
) -> Result<pb::DealHandResponse, Vec<Violation>> {
    play::deal::deal_hand(request)
}

/// Calls the service's `method` (`AnalyzeHand`, `SettleHand`, `AdjudicatePenalty`,
/// `ComputeStandings`, `ReplayHand`, `NextActions`, `LegalActions`, `ArbitrateClaims`,
/// `DealHand`) with a request in proto3 JSON; its response in proto3 JSON. A request with
/// problems raises `McrError` with every violation, as the service answers
/// `INVALID_ARGUMENT`.
#[pyfunction]
pub fn call_json(py: Python<'_>, method: &str, request: &str) -> PyResult<String> {
    match method {
        "AnalyzeHand" => answer(py, request, analysis::analyze_hand),
        "SettleHand" => answer(py, request, accounting::settle::settle_hand),
        "AdjudicatePenalty" => answer(py, request, accounting::penalty::adjudicate_penalty),
        "ComputeStandings" => answer(py, request, accounting::standings::compute_standings),
        "ReplayHand" => answer(py, request, play::replay::replay_hand),
        "NextActions" => answer(py, request, play::next::next_actions_of),
        "LegalActions" => answer(py, request, play::actions::legal_actions_of),
        "ArbitrateClaims" => answer(py, request, play::arbitrate::arbitrate_claims),
        "DealHand" => answer(py, request, deal),
        _ => Err(crate::errors::value_error(
            py,
            "VALUE_INVALID",
            "method",
            &format!("`{method}` is not a call of the service"),
        )),
    }
}
