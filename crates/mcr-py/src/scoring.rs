//! `score()` and its result, and the service's JSON in-process (`score_json_line`,
//! `score_many_json`). A hand is read and judged by `mcr_api::assessment`, the flow every
//! front end of the referee shares: the same violations, the same scores.

use std::num::NonZeroUsize;
use std::sync::{Arc, OnceLock};

use mcr::FanLine;
use mcr::hand::{HandInput, WinContext, WinMethod};
use mcr::house_rules::Rules;
use mcr::score::Outcome;
use mcr::violation::FieldPath;
use mcr_api::api::kit::hand::hand_from_pb;
use mcr_api::api::kit::house_rules::{KeptRules, rules_from_pb};
use mcr_api::api::kit::json;
use mcr_api::api::kit::score_sheet::score_response;
use mcr_api::api::kit::values::ruleset_to_pb;
use mcr_api::api::pb;
use mcr_api::api::scoring::score_json_line;
use mcr_api::assessment::{self, Assessment, Detail, Scored};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::errors::{invalid, mcr_error, shown};
use crate::interned;
use crate::values;

/// The house rules built so far, shared by every call of the process (as a server's calls
/// share them).
pub fn kept() -> &'static KeptRules {
    static KEPT: OnceLock<KeptRules> = OnceLock::new();
    KEPT.get_or_init(KeptRules::default)
}

/// A scored hand as `score()` keeps it: the fans and totals, and the whole sheet (the
/// reading's elements, the ones forming each fan) worked out only when asked for, since
/// most callers read the fans and the total alone.
#[derive(Debug)]
struct Scoring {
    /// Assessed for [`Detail::Totals`].
    totals: Box<Scored>,
    rules: Rules,
    sheet: OnceLock<Box<Scored>>,
}

impl Scoring {
    /// The hand assessed again for the whole sheet (the same hand, context and rules: the
    /// same fans, with their elements).
    fn sheet(&self) -> &Scored {
        self.sheet.get_or_init(|| {
            let t = &self.totals;
            match assessment::assess_with(
                &t.hand.to_input(),
                &t.context,
                &self.rules,
                Detail::Sheet,
            ) {
                Assessment::Scored(sheet) => sheet,
                // A hand once valid stays valid: keep the totals rather than fail.
                Assessment::Invalid(_) => t.clone(),
            }
        })
    }
}

/// A fan of the score: its names, points, how many times it counts, and the tiles of the
/// sets that form it. It shares its score and reads its line on demand.
#[pyclass(module = "mahjong_mcr._mcr", frozen)]
#[derive(Debug)]
pub struct Fan {
    scoring: Arc<Scoring>,
    line: usize,
}

impl Fan {
    fn line(&self) -> &FanLine {
        &self.scoring.totals.lines[self.line]
    }
}

#[pymethods]
impl Fan {
    /// The name in Simplified Chinese (the rulebook's).
    #[getter]
    fn zh(&self, py: Python<'_>) -> Py<PyString> {
        interned::fan_names(py, self.line().fan).zh.clone_ref(py)
    }

    /// The name in Traditional Chinese.
    #[getter]
    fn zh_hant(&self, py: Python<'_>) -> Py<PyString> {
        interned::fan_names(py, self.line().fan)
            .zh_hant
            .clone_ref(py)
    }

    /// The name in English.
    #[getter]
    fn en(&self, py: Python<'_>) -> Py<PyString> {
        interned::fan_names(py, self.line().fan).en.clone_ref(py)
    }

    /// The points of one count under the rules applied.
    #[getter]
    fn points(&self) -> u16 {
        self.line().points
    }

    /// How many times it counts.
    #[getter]
    fn count(&self) -> u8 {
        self.line().count
    }

    /// The tiles of the sets (or tiles) that form it.
    #[getter]
    fn tiles(&self, py: Python<'_>) -> Vec<Py<PyString>> {
        let sheet = self.scoring.sheet();
        let fan = self.line().fan;
        sheet
            .lines
            .iter()
            .find(|l| l.fan == fan)
            .map_or_else(Vec::new, |line| {
                line.elements
                    .iter()
                    .filter_map(|i| sheet.elements.get(i))
                    .flat_map(|e| e.tiles.iter().map(|&t| interned::code_of(py, t)))
                    .collect()
            })
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Fan({}, points={}, count={})",
            self.en(py).bind(py),
            self.points(),
            self.count()
        )
    }
}

/// The score of a hand: a win, a winning shape under the minimum, or not a winning shape
/// (a losing hand is a result, not an error).
#[pyclass(module = "mahjong_mcr._mcr", frozen)]
#[derive(Debug)]
pub struct Score {
    scoring: Option<Arc<Scoring>>,
    ruleset: mcr::RulesetId,
    fans: Vec<Py<Fan>>,
    violations: Vec<crate::errors::Shown>,
}

#[pymethods]
impl Score {
    /// `win`, `below_minimum`, `not_winning_shape`, or `invalid` (with `.violations`).
    #[getter]
    fn outcome(&self) -> &'static str {
        match &self.scoring {
            None => "invalid",
            Some(s) => match s.totals.scoring.outcome {
                Outcome::Win => "win",
                Outcome::BelowMinimum => "below_minimum",
                Outcome::NotWinningShape => "not_winning_shape",
            },
        }
    }

    /// A winning shape worth the minimum (8 fan without flowers under the standard rules).
    #[getter]
    fn is_win(&self) -> bool {
        self.scoring
            .as_ref()
            .is_some_and(|s| s.totals.scoring.outcome == Outcome::Win)
    }

    /// The points of every fan, flowers included.
    #[getter]
    fn total(&self) -> u32 {
        self.scoring.as_ref().map_or(0, |s| s.totals.scoring.total)
    }

    /// The points without flowers (what the minimum is checked against).
    #[getter]
    fn fan_total(&self) -> u32 {
        self.scoring
            .as_ref()
            .map_or(0, |s| s.totals.scoring.fan_total)
    }

    /// The flowers' points.
    #[getter]
    fn flower_points(&self) -> u32 {
        self.scoring
            .as_ref()
            .map_or(0, |s| s.totals.scoring.flower_points)
    }

    /// The fans, highest first, flowers last.
    #[getter]
    fn fans(&self, py: Python<'_>) -> Vec<Py<Fan>> {
        self.fans.iter().map(|f| f.clone_ref(py)).collect()
    }

    /// The reading scored, e.g. `[123m] [789m] [123p] 789p 55s` (empty when not a winning
    /// shape).
    #[getter]
    fn reading(&self) -> String {
        self.scoring
            .as_ref()
            .map_or_else(String::new, |s| s.sheet().reading_text())
    }

    /// The canonical notation of the hand.
    #[getter]
    fn notation(&self) -> String {
        self.scoring
            .as_ref()
            .map_or_else(String::new, |s| s.totals.notation())
    }

    /// With `strict=False`, every problem of a malformed hand (empty otherwise): each
    /// `(code, field, message)`.
    #[getter]
    fn violations<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let violation = py.import("mahjong_mcr._errors")?.getattr("Violation")?;
        self.violations
            .iter()
            .map(|v| violation.call1(v.clone()))
            .collect()
    }

    /// The service's `ScoreHandResponse` for the hand, as proto3 JSON text.
    fn to_json(&self) -> String {
        let assessment = match &self.scoring {
            Some(s) => Assessment::Scored(Box::new(s.sheet().clone())),
            None => Assessment::Invalid(Vec::new()),
        };
        let response = score_response(
            &assessment,
            ruleset_to_pb(self.ruleset) as i32,
            pb::ScoreView::Full,
        );
        json::to_json(&response, false).unwrap_or_else(|e| json::error_line("INTERNAL", &e.message))
    }

    /// The service's `ScoreHandResponse` for the hand, as a dict of its proto3 JSON.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py.import("json")?.call_method1("loads", (self.to_json(),))
    }

    fn __repr__(&self) -> String {
        format!(
            "Score(outcome={:?}, total={}, fans={})",
            self.outcome(),
            self.total(),
            self.fans.len()
        )
    }
}

/// A message of the contract from a Python dict, through its proto3 JSON (the reading the
/// service's JSON gets): text that is not the message is `REQUEST_UNPARSABLE`.
fn message_of<M: prost::Message + prost::Name + Default>(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
) -> PyResult<M> {
    let text: String = py
        .import("json")?
        .call_method1("dumps", (value,))?
        .extract()?;
    json::from_json::<M>(&text)
        .map_err(|e| mcr_error(py, "REQUEST_UNPARSABLE", &e.message, Vec::new()))
}

/// The hand of `score()`: notation, or the service's `Hand` as proto3 JSON text.
fn hand_of(
    py: Python<'_>,
    hand: &Bound<'_, PyAny>,
) -> PyResult<Result<HandInput, Vec<mcr::Violation>>> {
    if let Ok(text) = hand.cast::<PyString>() {
        return Ok(assessment::parse_notation(&text.to_cow()?).map_err(|v| vec![v]));
    }
    let message: pb::Hand = message_of(py, hand)?;
    Ok(hand_from_pb(&message).map_err(|vs| {
        vs.into_iter()
            .map(|v| mcr_api::api::kit::violations::prefixed(FieldPath::of("hand"), v))
            .collect()
    }))
}

/// Scores a hand (docs/python.md, "Scoring").
#[pyfunction]
#[pyo3(signature = (hand, *, win_tile = None, self_drawn = false, seat_wind = None, prevalent_wind = None, flowers = 0, last_tile = false, last_copy = false, kong_replacement = false, robbing_kong = false, ruleset = "mil", overrides = None, strict = true))]
#[allow(clippy::too_many_arguments, clippy::fn_params_excessive_bools)]
pub fn score(
    py: Python<'_>,
    hand: &Bound<'_, PyAny>,
    win_tile: Option<&Bound<'_, PyAny>>,
    self_drawn: bool,
    seat_wind: Option<&Bound<'_, PyAny>>,
    prevalent_wind: Option<&Bound<'_, PyAny>>,
    flowers: u8,
    last_tile: bool,
    last_copy: bool,
    kong_replacement: bool,
    robbing_kong: bool,
    ruleset: &str,
    overrides: Option<&Bound<'_, PyAny>>,
    strict: bool,
) -> PyResult<Score> {
    let ruleset_id = values::ruleset_id(py, ruleset, "ruleset")?;
    let context = WinContext {
        method: if self_drawn {
            WinMethod::SelfDrawn
        } else {
            WinMethod::Discard
        },
        robbing_kong,
        replacement_draw: kong_replacement,
        last_tile,
        last_copy,
        seat_wind: seat_wind.map_or(Ok(mcr::Wind::East), |w| values::wind(py, w, "seat_wind"))?,
        prevalent_wind: prevalent_wind.map_or(Ok(mcr::Wind::East), |w| {
            values::wind(py, w, "prevalent_wind")
        })?,
        flowers,
    };
    let overrides: Option<pb::RuleOverrides> = overrides.map(|o| message_of(py, o)).transpose()?;
    let rules = rules_from_pb(
        ruleset_to_pb(ruleset_id) as i32,
        overrides.as_ref(),
        FieldPath::of("overrides"),
        kept(),
    )
    .map_err(|v| invalid(py, &v))?;
    let mut input = match hand_of(py, hand)? {
        Ok(input) => input,
        Err(violations) => return refuse(py, violations, ruleset_id, strict),
    };
    if let Some(tile) = win_tile {
        let tile = interned::tile_of(tile)?.ok_or_else(|| {
            crate::errors::value_error(
                py,
                "TILE_UNKNOWN",
                "win_tile",
                "not a tile code (W1-W9, B1-B9, T1-T9, F1-F4, J1-J3)",
            )
        })?;
        // The hand's tiles are then all standing, as PyMahjongGB takes them.
        if let Some(last) = input.winning_tile.replace(tile) {
            input.standing.push(last);
        }
    }
    match assessment::assess_with(&input, &context, &rules, Detail::Totals) {
        Assessment::Invalid(violations) => refuse(py, violations, ruleset_id, strict),
        Assessment::Scored(totals) => {
            let lines = totals.lines.len();
            let scoring = Arc::new(Scoring {
                totals,
                rules,
                sheet: OnceLock::new(),
            });
            let fans = (0..lines)
                .map(|line| {
                    Py::new(
                        py,
                        Fan {
                            scoring: Arc::clone(&scoring),
                            line,
                        },
                    )
                })
                .collect::<PyResult<_>>()?;
            Ok(Score {
                scoring: Some(scoring),
                ruleset: ruleset_id,
                fans,
                violations: Vec::new(),
            })
        }
    }
}

/// A malformed hand: an `McrError`, or with `strict=False` a score that says so.
fn refuse(
    py: Python<'_>,
    violations: Vec<mcr::Violation>,
    ruleset: mcr::RulesetId,
    strict: bool,
) -> PyResult<Score> {
    if strict {
        return Err(invalid(py, &violations));
    }
    Ok(Score {
        scoring: None,
        ruleset,
        fans: Vec::new(),
        violations: violations.iter().map(shown).collect(),
    })
}

/// One `ScoreHandRequest` as proto3 JSON text in, its `ScoreHandResponse` out: the line
/// `mahjong-referee score --jsonl` writes for it.
#[pyfunction]
pub fn score_json_text(request: &str) -> String {
    score_json_line(request, kept())
}

/// [`score_json_text`] for every line, the GIL released and the lines shared among the
/// cores.
#[pyfunction]
pub fn score_many_json(py: Python<'_>, requests: Vec<String>) -> Vec<String> {
    py.detach(|| {
        let threads = std::thread::available_parallelism()
            .map_or(1, NonZeroUsize::get)
            .min(requests.len().div_ceil(64).max(1));
        if threads <= 1 {
            return requests
                .iter()
                .map(|r| score_json_line(r, kept()))
                .collect();
        }
        let chunk = requests.len().div_ceil(threads);
        let mut out: Vec<String> = Vec::with_capacity(requests.len());
        std::thread::scope(|scope| {
            let parts: Vec<_> = requests
                .chunks(chunk)
                .map(|part| {
                    scope.spawn(move || {
                        part.iter()
                            .map(|r| score_json_line(r, kept()))
                            .collect::<Vec<String>>()
                    })
                })
                .collect();
            for part in parts {
                match part.join() {
                    Ok(lines) => out.extend(lines),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
        });
        out
    })
}
