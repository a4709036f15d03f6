//! `Table`: a whole table in-process, the Gym-style environment over
//! [`mcr::play::Table`]. The engine deals, draws, passes through windows nobody can claim in
//! and arbitrates claims; this module only converts its answers for Python.
//!
//! Tiles are Botzone's codes (`W1`, `B5`, `T9`, `F1`, `J3`; flowers `H1`–`H8`), as in the
//! log and in PyMahjongGB; seats are 0–3, East first.

use mcr::hand::{Claim, KongExposure};
use mcr::play::{self, Action as PlayAction, TablePhase};
use mcr::{Seat, Tile, Wind};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::errors::{mcr_error, value_error};
use crate::interned;
use crate::values;

fn wind_letter(wind: Wind) -> &'static str {
    match wind {
        Wind::East => "E",
        Wind::South => "S",
        Wind::West => "W",
        Wind::North => "N",
    }
}

fn seat_number(seat: Seat) -> u8 {
    u8::try_from(seat.index()).unwrap_or(u8::MAX)
}

fn codes(py: Python<'_>, tiles: &[Tile]) -> Vec<Py<PyString>> {
    tiles.iter().map(|&t| interned::code_of(py, t)).collect()
}

/// One action a seat may take: `.line` is its Botzone line, `.id` its number in the fixed
/// space `0..ACTION_SPACE` (docs/python.md, "Action numbers").
#[pyclass(module = "mahjong_mcr._mcr", frozen, eq, hash)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Action {
    seat: Seat,
    chosen: PlayAction,
    fan: Option<u32>,
}

impl Action {
    fn new(seat: Seat, legal: &play::LegalAction) -> Action {
        Action {
            seat,
            chosen: legal.action,
            fan: legal.win.as_ref().map(|w| w.scoring.fan_total),
        }
    }
}

#[pymethods]
impl Action {
    /// The seat, 0–3.
    #[getter]
    fn seat(&self) -> u8 {
        seat_number(self.seat)
    }

    /// `discard`, `chow`, `pung`, `kong`, `concealed_kong`, `added_kong`, `win` or `flower`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.chosen {
            PlayAction::Draw(_) => "draw",
            PlayAction::Flower(_) => "flower",
            PlayAction::Discard(_) => "discard",
            PlayAction::Chow(_) => "chow",
            PlayAction::Pung(_) => "pung",
            PlayAction::Kong(_) => "kong",
            PlayAction::ConcealedKong(_) => "concealed_kong",
            PlayAction::AddedKong(_) => "added_kong",
            PlayAction::Win(_) => "win",
        }
    }

    /// The tile (a chow's middle tile; `H1`–`H8` for a flower).
    #[getter]
    fn tile(&self) -> String {
        match self.chosen {
            PlayAction::Draw(play::Drawn::Flower(f)) | PlayAction::Flower(f) => {
                format!("H{}", f.number())
            }
            PlayAction::Draw(play::Drawn::Tile(t))
            | PlayAction::Discard(t)
            | PlayAction::Chow(t)
            | PlayAction::Pung(t)
            | PlayAction::Kong(t)
            | PlayAction::ConcealedKong(t)
            | PlayAction::AddedKong(t)
            | PlayAction::Win(t) => t.code(),
        }
    }

    /// The Botzone line, e.g. `Player 2 Chi T4`.
    #[getter]
    fn line(&self) -> String {
        play::botzone::action_line(self.seat, self.chosen)
    }

    /// The number in `0..ACTION_SPACE`.
    #[getter]
    fn id(&self) -> usize {
        play::action_id(self.chosen).unwrap_or(usize::MAX)
    }

    /// For a win, its fan total (flowers excluded); `None` otherwise.
    #[getter]
    fn fan(&self) -> Option<u32> {
        self.fan
    }

    fn __repr__(&self) -> String {
        match self.fan {
            Some(fan) => format!("Action({:?}, id={}, fan={fan})", self.line(), self.id()),
            None => format!("Action({:?}, id={})", self.line(), self.id()),
        }
    }
}

/// The action of number `id`, for `seat` (what the table would list for it).
#[pyfunction]
pub fn action_of_id(py: Python<'_>, seat: i64, id: usize) -> PyResult<Action> {
    let seat = values::seat(py, seat, "seat")?;
    let action = play::action_of_id(id).ok_or_else(|| {
        value_error(
            py,
            "VALUE_INVALID",
            "id",
            &format!("{id} is outside the action space 0..{}", play::ACTION_SPACE),
        )
    })?;
    Ok(Action {
        seat,
        chosen: action,
        fan: None,
    })
}

/// A meld in sight: `kind` (`chow`, `pung`, `kong`, `concealed_kong`), its tiles, and the
/// seat it was claimed from relative to its owner (1 left, 2 opposite, 3 right) when known.
#[pyclass(module = "mahjong_mcr._mcr", frozen, get_all)]
#[derive(Debug)]
pub struct Meld {
    kind: &'static str,
    tiles: Vec<Py<PyString>>,
    claimed_from: Option<u8>,
}

impl Meld {
    fn new(py: Python<'_>, meld: mcr::hand::Meld) -> Meld {
        let claim = |c: Option<Claim>| c.map(Claim::digit);
        let input = meld.to_input();
        let (kind, claimed_from) = match meld {
            mcr::hand::Meld::Chow { .. } => ("chow", Some(1)),
            mcr::hand::Meld::Pung { from, .. } => ("pung", claim(from)),
            mcr::hand::Meld::Kong { exposure, .. } => match exposure {
                KongExposure::Concealed => ("concealed_kong", None),
                KongExposure::Direct(from) | KongExposure::Promoted(from) => ("kong", claim(from)),
            },
        };
        Meld {
            kind,
            tiles: codes(py, &input.tiles),
            claimed_from,
        }
    }
}

#[pymethods]
impl Meld {
    fn __repr__(&self, py: Python<'_>) -> String {
        let tiles: Vec<String> = self.tiles.iter().map(|t| t.bind(py).to_string()).collect();
        format!("Meld({:?}, {:?})", self.kind, tiles)
    }
}

/// What every seat sees of one seat.
#[pyclass(module = "mahjong_mcr._mcr", frozen, get_all)]
#[derive(Debug)]
pub struct PublicSeat {
    /// Exposed melds (concealed kongs are counted, not shown).
    melds: Vec<Py<Meld>>,
    concealed_kongs: u8,
    concealed_count: u8,
    flowers: u8,
    discards: Vec<Py<PyString>>,
    /// For each discard, whether another seat took it.
    discards_taken: Vec<bool>,
}

/// One seat's view of the table, with no tile it cannot see.
#[pyclass(module = "mahjong_mcr._mcr", frozen, get_all)]
#[derive(Debug)]
pub struct Observation {
    seat: u8,
    seat_wind: &'static str,
    prevalent_wind: &'static str,
    phase: &'static str,
    turn: Option<u8>,
    offered: Option<String>,
    concealed: Vec<Py<PyString>>,
    drawn: Option<String>,
    concealed_kongs: Vec<Py<PyString>>,
    seats: Vec<Py<PublicSeat>>,
    wall_left: u16,
    legal: Vec<Py<Action>>,
}

#[pymethods]
impl Observation {
    fn __repr__(&self, py: Python<'_>) -> String {
        let concealed: Vec<String> = self
            .concealed
            .iter()
            .map(|t| t.bind(py).to_string())
            .collect();
        format!(
            "Observation(seat={}, phase={:?}, concealed={:?}, wall_left={})",
            self.seat, self.phase, concealed, self.wall_left
        )
    }
}

/// A fan of the win: Chinese (Simplified, Traditional) and English names, points and count.
#[pyclass(module = "mahjong_mcr._mcr", name = "TableFan", frozen, get_all)]
#[derive(Debug)]
pub struct TableFan {
    zh: &'static str,
    zh_hant: &'static str,
    en: &'static str,
    points: u16,
    count: u8,
}

/// The end of a hand: the winner and its fans, or a draw game; each seat's points.
#[allow(clippy::struct_excessive_bools)] // each flag is one circumstance the log shows
#[pyclass(module = "mahjong_mcr._mcr", name = "TableResult", frozen, get_all)]
#[derive(Debug)]
pub struct TableResult {
    winner: Option<u8>,
    /// Who discarded the winning tile (or added it to a kong); `None` when self-drawn.
    discarder: Option<u8>,
    draw_game: bool,
    fan: u32,
    fans: Vec<Py<TableFan>>,
    points: Vec<i64>,
    self_drawn: bool,
    kong_replacement: bool,
    robbing_kong: bool,
    last_tile: bool,
    last_copy: bool,
}

#[pymethods]
impl TableResult {
    fn __repr__(&self) -> String {
        match self.winner {
            Some(w) => format!(
                "TableResult(winner={w}, fan={}, points={:?})",
                self.fan, self.points
            ),
            None => format!("TableResult(draw_game=True, points={:?})", self.points),
        }
    }
}

/// A hand dealt from a 32-byte seed on the shared 136-tile wall and played one decision at
/// a time.
#[pyclass(module = "mahjong_mcr._mcr")]
#[derive(Debug)]
pub struct Table {
    table: play::Table,
}

#[pymethods]
impl Table {
    #[new]
    #[pyo3(signature = (seed, wind = None, ruleset = "mil"))]
    fn new(
        py: Python<'_>,
        seed: &[u8],
        wind: Option<&Bound<'_, PyAny>>,
        ruleset: &str,
    ) -> PyResult<Table> {
        let bytes: [u8; 32] = seed.try_into().map_err(|_| {
            value_error(
                py,
                "VALUE_INVALID",
                "seed",
                &format!("a seed is 32 bytes, not {}", seed.len()),
            )
        })?;
        let wind = match wind {
            Some(w) => values::wind(py, w, "wind")?,
            None => Wind::East,
        };
        let rules = values::rules(py, ruleset, "ruleset")?;
        let table = play::Table::new(play::Seed::new(bytes), wind, rules)
            .map_err(|v| crate::errors::invalid(py, &[v]))?;
        Ok(Table { table })
    }

    /// `act`, `claim` or `over`.
    #[getter]
    fn phase(&self) -> &'static str {
        self.table.phase().as_str()
    }

    /// SHA-256 of the seed, in hex: what a table publishes before the hand.
    #[getter]
    fn commitment(&self) -> String {
        self.table.seed().commitment()
    }

    /// Each seat with a decision now, mapped to its legal actions (passing is not listed).
    fn legal<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        for decision in self.table.decisions() {
            let actions = PyList::empty(py);
            for legal in &decision.actions {
                actions.append(Action::new(decision.seat, legal))?;
            }
            out.set_item(seat_number(decision.seat), actions)?;
        }
        Ok(out)
    }

    /// `ACTION_SPACE` booleans: true at the number of each legal action of `seat`.
    fn action_mask(&self, py: Python<'_>, seat: i64) -> PyResult<Vec<bool>> {
        let seat = values::seat(py, seat, "seat")?;
        let mut mask = vec![false; play::ACTION_SPACE];
        for legal in self.table.legal(seat) {
            if let Some(id) = play::action_id(legal.action) {
                mask[id] = true;
            }
        }
        Ok(mask)
    }

    /// Moves the hand on: in `act`, `{seat: action}` for the seat to act; in `claim`, each
    /// claiming seat's action (a seat left out passes; `{}` passes for all). An action is an
    /// `Action` or its number.
    fn step(&mut self, py: Python<'_>, choice: &Bound<'_, PyAny>) -> PyResult<()> {
        let pairs: Vec<(Bound<'_, PyAny>, Bound<'_, PyAny>)> = match choice.cast::<PyDict>() {
            Ok(dict) => dict.iter().collect(),
            // Any other mapping, by its items.
            Err(_) => choice
                .call_method0("items")
                .and_then(|items| items.try_iter()?.map(|item| item?.extract()).collect())
                .map_err(|_| {
                    value_error(
                        py,
                        "VALUE_INVALID",
                        "choice",
                        "a choice is a mapping of seats to actions",
                    )
                })?,
        };
        let mut choices = Vec::with_capacity(pairs.len());
        for (key, value) in pairs {
            let seat = values::seat(py, key.extract::<i64>().unwrap_or(-1), "choice")?;
            let action = if let Ok(action) = value.cast::<Action>() {
                let action = action.get();
                // An Action names its seat: given for another seat it is a mistake, not that
                // seat's move of the same kind and tile.
                if action.seat != seat {
                    let (theirs, key) = (seat_number(action.seat), seat_number(seat));
                    return Err(value_error(
                        py,
                        "VALUE_INVALID",
                        &format!("choice[{key}]"),
                        &format!("the action is seat {theirs}'s, given for seat {key}"),
                    ));
                }
                action.chosen
            } else if let Ok(id) = value.extract::<usize>() {
                play::action_of_id(id).ok_or_else(|| {
                    value_error(
                        py,
                        "VALUE_INVALID",
                        "choice",
                        &format!("{id} is not an action number"),
                    )
                })?
            } else {
                return Err(value_error(
                    py,
                    "VALUE_INVALID",
                    "choice",
                    "a choice maps a seat to an Action or its number",
                ));
            };
            choices.push((seat, action));
        }
        self.table.step(&choices).map_err(|e| {
            let field = e
                .seat
                .map_or_else(|| "choice".to_owned(), |s| format!("choice[{}]", s.index()));
            mcr_error(
                py,
                e.code.as_str(),
                &e.message,
                vec![(e.code.as_str().to_owned(), field, e.message.clone())],
            )
        })
    }

    /// What `seat` sees now.
    fn observation(&self, py: Python<'_>, seat: i64) -> PyResult<Observation> {
        let seat = values::seat(py, seat, "seat")?;
        let seen = self.table.observation(seat);
        let seats = seen
            .seats
            .iter()
            .map(|s| {
                Py::new(
                    py,
                    PublicSeat {
                        melds: s
                            .melds
                            .iter()
                            .map(|&m| Py::new(py, Meld::new(py, m)))
                            .collect::<PyResult<_>>()?,
                        concealed_kongs: s.concealed_kongs,
                        concealed_count: s.concealed_count,
                        flowers: s.flowers,
                        discards: s
                            .discards
                            .iter()
                            .map(|d| interned::code_of(py, d.tile))
                            .collect(),
                        discards_taken: s.discards.iter().map(|d| d.taken).collect(),
                    },
                )
            })
            .collect::<PyResult<_>>()?;
        Ok(Observation {
            seat: seat_number(seat),
            seat_wind: wind_letter(seat.wind()),
            prevalent_wind: wind_letter(seen.prevalent_wind),
            phase: seen.phase.as_str(),
            turn: seen.turn.map(seat_number),
            offered: seen.offered.map(Tile::code),
            concealed: codes(py, &seen.concealed),
            drawn: seen.drawn.map(Tile::code),
            concealed_kongs: codes(py, &seen.own_concealed_kongs),
            seats,
            wall_left: seen.wall_left,
            legal: seen
                .legal
                .iter()
                .map(|l| Py::new(py, Action::new(seat, l)))
                .collect::<PyResult<_>>()?,
        })
    }

    /// The result once the hand is over; `None` before.
    fn result(&self, py: Python<'_>) -> PyResult<Option<TableResult>> {
        if self.table.phase() != TablePhase::Over {
            return Ok(None);
        }
        let Some(replay) = self.table.result() else {
            return Ok(None);
        };
        let points = replay
            .deltas()
            .map_or_else(|| vec![0; 4], |d| d.into_array().to_vec());
        let rules = self.table.rules();
        Ok(Some(match replay.win() {
            Some(win) => {
                let fans = win
                    .scoring
                    .fans
                    .iter()
                    .map(|(fan, count)| {
                        let spec = fan.spec();
                        Py::new(
                            py,
                            TableFan {
                                zh: spec.name_zh,
                                zh_hant: spec.name_zh_hant,
                                en: spec.name_en,
                                points: rules.points(fan),
                                count,
                            },
                        )
                    })
                    .collect::<PyResult<_>>()?;
                let c = win.circumstances;
                TableResult {
                    winner: Some(seat_number(win.seat)),
                    discarder: match win.source {
                        mcr::declaration::WinSource::SelfDrawn => None,
                        mcr::declaration::WinSource::Discard { discarder } => {
                            Some(seat_number(discarder))
                        }
                        mcr::declaration::WinSource::RobbingKong { robbed } => {
                            Some(seat_number(robbed))
                        }
                    },
                    draw_game: false,
                    fan: win.scoring.fan_total,
                    fans,
                    points,
                    self_drawn: c.self_drawn,
                    kong_replacement: c.kong_replacement,
                    robbing_kong: c.robbing_kong,
                    last_tile: c.last_tile,
                    last_copy: c.last_copy,
                }
            }
            None => TableResult {
                winner: None,
                discarder: None,
                draw_game: true,
                fan: 0,
                fans: Vec::new(),
                points,
                self_drawn: false,
                kong_replacement: false,
                robbing_kong: false,
                last_tile: false,
                last_copy: false,
            },
        }))
    }

    /// The hand so far in Botzone's line format, headed `Match {id}`.
    #[pyo3(signature = (id = "table"))]
    fn log(&self, id: &str) -> String {
        self.table.log(id)
    }

    fn __repr__(&self) -> String {
        format!(
            "Table(phase={:?}, events={}, commitment={:?})",
            self.phase(),
            self.table.record().events.len(),
            self.commitment()
        )
    }
}
