//! PyMahjongGB 1.4.0's seven functions with its signatures and result shapes, over this
//! engine (`mahjong_mcr.compat` re-exports them): a bot switches by changing one import.
//!
//! Where the two differ, it is a reading of `docs/` (docs/python.md, "Differences from
//! PyMahjongGB"): a fifth copy of a tile and a meld that cannot be are errors here, and a
//! hand is scored under MIL (the 1998 table's fans and points).
//!
//! Errors are `mahjong_mcr.compat.CompatError`, a `TypeError` (what PyMahjongGB raises) and
//! an `McrError`, whose `str()` is PyMahjongGB's error code, its spelling kept
//! (`ERROE_WRONG_TILE_CODE`).

#![allow(non_snake_case)] // PyMahjongGB's keyword names (`winTile`, `isSelfDrawn`).

use mcr::hand::{Claim, HandInput, MeldInput, MeldKind, WinContext, WinMethod};
use mcr::score::Outcome;
use mcr::shape::shanten::{ShapeUseful, useful_by_shape};
use mcr::tile::Counts;
use mcr::{Fan, Ruleset, RulesetId, Tile, TileSet, ViolationCode, Wind, score};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyString, PyTuple};

use crate::errors::compat_error;
use crate::interned;

/// Registers the functions under PyMahjongGB's names.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(MahjongFanCalculator, m)?)?;
    m.add_function(wrap_pyfunction!(MahjongShanten, m)?)?;
    m.add_function(wrap_pyfunction!(ThirteenOrphansShanten, m)?)?;
    m.add_function(wrap_pyfunction!(SevenPairsShanten, m)?)?;
    m.add_function(wrap_pyfunction!(HonorsAndKnittedTilesShanten, m)?)?;
    m.add_function(wrap_pyfunction!(KnittedStraightShanten, m)?)?;
    m.add_function(wrap_pyfunction!(RegularShanten, m)?)?;
    Ok(())
}

fn code_of(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<Tile> {
    if let Some(tile) = interned::tile_of(value)? {
        return Ok(tile);
    }
    Err(if value.is_instance_of::<PyString>() {
        compat_error(py, "ERROE_WRONG_TILE_CODE")
    } else {
        compat_error(py, "Param `hand` must be a tuple of strs!")
    })
}

/// `hand`: a tuple of tile codes.
fn standing(py: Python<'_>, hand: &Bound<'_, PyAny>) -> PyResult<Vec<Tile>> {
    let tuple = hand
        .cast::<PyTuple>()
        .map_err(|_| compat_error(py, "Param `hand` must be a tuple!"))?;
    tuple.iter().map(|t| code_of(py, &t)).collect()
}

/// A pack's type: `PENG`, `GANG` or `CHI`.
#[derive(Clone, Copy, Debug)]
enum PackKind {
    Pung,
    Kong,
    Chow,
}

/// The pack type `value` names, compared with interned strings (no copy of the text).
fn pack_kind(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<PackKind> {
    static KINDS: PyOnceLock<[(PackKind, Py<PyString>); 3]> = PyOnceLock::new();
    let kinds = KINDS.get_or_init(py, || {
        [
            (PackKind::Pung, PyString::intern(py, "PENG").unbind()),
            (PackKind::Kong, PyString::intern(py, "GANG").unbind()),
            (PackKind::Chow, PyString::intern(py, "CHI").unbind()),
        ]
    });
    for (kind, name) in kinds {
        if value.is(name) || value.eq(name.bind(py))? {
            return Ok(*kind);
        }
    }
    Err(compat_error(py, "ERROE_WRONG_PACK_CODE"))
}

/// `pack`: a tuple of `(type, tile, offer)`, PyMahjongGB's declared melds.
fn packs(py: Python<'_>, pack: &Bound<'_, PyAny>) -> PyResult<Vec<MeldInput>> {
    let tuple = pack
        .cast::<PyTuple>()
        .map_err(|_| compat_error(py, "Param `pack` must be a tuple!"))?;
    let mut melds = Vec::with_capacity(tuple.len());
    for item in tuple.iter() {
        let item = item
            .cast::<PyTuple>()
            .map_err(|_| compat_error(py, "Param `pack` must be a tuple of tuples!"))?;
        if item.len() != 3 {
            return Err(compat_error(py, "Param `pack` must be a tuple of tuples!"));
        }
        let kind = item.get_item(0)?;
        let tile = interned::tile_of(&item.get_item(1)?)?
            .ok_or_else(|| compat_error(py, "ERROE_WRONG_TILE_CODE"))?;
        let offer: i64 = item.get_item(2)?.extract()?;
        if !(0..4).contains(&offer) {
            return Err(compat_error(py, "ERROE_WRONG_OFFER_CODE"));
        }
        let digit = u8::try_from(offer).unwrap_or(0);
        let meld = match pack_kind(py, &kind)? {
            PackKind::Pung => MeldInput {
                kind: MeldKind::Pung,
                tiles: vec![tile; 3],
                claimed_from: Claim::from_digit(digit),
                promoted: false,
                claimed_tile: None,
            },
            // Offer 0: a concealed kong; 1–3: a melded one, from that seat.
            PackKind::Kong => MeldInput {
                kind: if digit == 0 {
                    MeldKind::ConcealedKong
                } else {
                    MeldKind::Kong
                },
                tiles: vec![tile; 4],
                claimed_from: Claim::from_digit(digit),
                promoted: false,
                claimed_tile: None,
            },
            // The middle tile; offer 1–3: which of the three was claimed.
            PackKind::Chow => {
                let tiles: Vec<Tile> = [-1i8, 0, 1]
                    .iter()
                    .filter_map(|&d| {
                        Tile::from_usize(tile.index().checked_add_signed(isize::from(d))?)
                    })
                    .collect();
                let claimed_tile = (1..=3)
                    .contains(&digit)
                    .then(|| tiles.get(usize::from(digit) - 1).copied())
                    .flatten();
                MeldInput {
                    kind: MeldKind::Chow,
                    tiles,
                    claimed_from: Some(Claim::Left),
                    promoted: false,
                    claimed_tile,
                }
            }
        };
        melds.push(meld);
    }
    Ok(melds)
}

/// PyMahjongGB's error code for the first violation of a hand.
fn error_code(code: ViolationCode) -> &'static str {
    match code {
        ViolationCode::TileCountWrong | ViolationCode::WinningTileMissing => {
            "ERROR_WRONG_TILES_COUNT"
        }
        ViolationCode::TooManyCopies => "ERROR_TILE_COUNT_GREATER_THAN_4",
        ViolationCode::TileUnknown | ViolationCode::NotationSyntax => "ERROE_WRONG_TILE_CODE",
        ViolationCode::TooManyMelds
        | ViolationCode::MeldTileCount
        | ViolationCode::ChowInvalid
        | ViolationCode::ChowNotFromLeft
        | ViolationCode::PungInvalid
        | ViolationCode::KongInvalid
        | ViolationCode::ConcealedKongClaimed => "ERROR_INVALID_MELD",
        ViolationCode::ContextConflict
        | ViolationCode::FlowerCount
        | ViolationCode::ValueInvalid
        | ViolationCode::SeatInvalid
        | ViolationCode::InfractionUnknown
        | ViolationCode::PenaltyAmountOutOfRange
        | ViolationCode::ValueNegative
        | ViolationCode::WinnerIsPayer
        | ViolationCode::WinnerBarred
        | ViolationCode::ClaimInvalid
        | ViolationCode::PenaltyOutOfScope
        | ViolationCode::WinValueMissing
        | ViolationCode::WinValueForDraw => "ERROR_INVALID_CONTEXT",
    }
}

fn wind_of(py: Python<'_>, index: i64) -> PyResult<Wind> {
    usize::try_from(index)
        .ok()
        .and_then(|i| Wind::ALL.get(i).copied())
        .ok_or_else(|| compat_error(py, "ERROR_WRONG_WIND"))
}

/// PyMahjongGB's `MahjongFanCalculator`: each fan as `(points × count, name)`, or with
/// `verbose` `(points, count, name, English name)`, flowers included, under 8 fan too.
#[pyfunction]
#[pyo3(signature = (pack, hand, winTile, flowerCount, isSelfDrawn, is4thTile, isAboutKong, isWallLast, seatWind, prevalentWind, verbose = false))]
#[allow(clippy::too_many_arguments, clippy::fn_params_excessive_bools)]
pub fn MahjongFanCalculator<'py>(
    py: Python<'py>,
    pack: &Bound<'py, PyAny>,
    hand: &Bound<'py, PyAny>,
    winTile: &Bound<'py, PyAny>,
    flowerCount: i64,
    isSelfDrawn: bool,
    is4thTile: bool,
    isAboutKong: bool,
    isWallLast: bool,
    seatWind: i64,
    prevalentWind: i64,
    verbose: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let input = HandInput {
        melds: packs(py, pack)?,
        standing: standing(py, hand)?,
        winning_tile: Some(code_of(py, winTile)?),
    };
    let context = WinContext {
        method: if isSelfDrawn {
            WinMethod::SelfDrawn
        } else {
            WinMethod::Discard
        },
        robbing_kong: isAboutKong && !isSelfDrawn,
        replacement_draw: isAboutKong && isSelfDrawn,
        last_tile: isWallLast,
        last_copy: is4thTile,
        seat_wind: wind_of(py, seatWind)?,
        prevalent_wind: wind_of(py, prevalentWind)?,
        flowers: u8::try_from(flowerCount)
            .map_err(|_| compat_error(py, "ERROR_WRONG_FLOWER_COUNT"))?,
    };
    let hand = input.validate(&context).map_err(|v| {
        compat_error(
            py,
            v.first()
                .map_or("ERROR_WRONG_TILES_COUNT", |v| error_code(v.code)),
        )
    })?;
    let rules = Ruleset::get(RulesetId::Mil);
    let scoring = score(&hand, &context, rules);
    match scoring.outcome {
        Outcome::NotWinningShape => return Err(compat_error(py, "ERROR_NOT_WIN")),
        Outcome::Win | Outcome::BelowMinimum => {}
    }
    let mut items = Vec::new();
    for (fan, count) in scoring.fans.iter() {
        if count == 0 {
            continue;
        }
        let names = interned::fan_names(py, fan);
        let points = rules.points(fan);
        let name = match their_name(py, fan) {
            Some(theirs) => theirs.bind(py).clone(),
            None => names.zh.bind(py).clone(),
        };
        let item = if verbose {
            (points, count, name, names.en.bind(py)).into_pyobject(py)?
        } else {
            (u32::from(points) * u32::from(count), name).into_pyobject(py)?
        };
        items.push(item);
    }
    PyTuple::new(py, items)
}

/// The Chinese name PyMahjongGB gives a fan: the rulebook's, but for the three waits, which
/// it calls 独听 (a lone wait) of each kind.
fn their_name(py: Python<'_>, fan: Fan) -> Option<&Py<PyString>> {
    const WAITS: [(Fan, &str); 3] = [
        (Fan::EdgeWait, "独听・边张"),
        (Fan::ClosedWait, "独听・嵌张"),
        (Fan::SingleWait, "独听・单钓"),
    ];
    static NAMES: PyOnceLock<[(Fan, Py<PyString>); 3]> = PyOnceLock::new();
    let names = NAMES.get_or_init(py, || {
        WAITS.map(|(f, name)| (f, PyString::intern(py, name).unbind()))
    });
    names.iter().find(|(f, _)| *f == fan).map(|(_, name)| name)
}

fn useful_tuple(py: Python<'_>, useful: TileSet) -> PyResult<Bound<'_, PyTuple>> {
    PyTuple::new(py, useful.iter().map(Tile::code).collect::<Vec<_>>())
}

fn counts_of(tiles: &[Tile]) -> Counts {
    let mut counts = [0u8; 34];
    for t in tiles {
        counts[t.index()] = counts[t.index()].saturating_add(1);
    }
    counts
}

/// One shape's function: `(shanten, useful)` for the sizes PyMahjongGB accepts.
fn shape_shanten<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    sizes: &[usize],
    pick: fn(&mcr::shape::shanten::UsefulByShape) -> Option<ShapeUseful>,
) -> PyResult<(i8, Bound<'py, PyTuple>)> {
    let tiles = standing(py, hand)?;
    if !sizes.contains(&tiles.len()) {
        return Err(compat_error(py, "ERROR_INVALID_HAND"));
    }
    let melds = (13 - tiles.len()) / 3;
    let shape = pick(&useful_by_shape(&counts_of(&tiles), melds))
        .ok_or_else(|| compat_error(py, "ERROR_INVALID_HAND"))?;
    Ok((shape.shanten, useful_tuple(py, shape.useful)?))
}

/// Thirteen orphans: 13 tiles.
#[pyfunction]
pub fn ThirteenOrphansShanten<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
) -> PyResult<(i8, Bound<'py, PyTuple>)> {
    shape_shanten(py, hand, &[13], |u| u.thirteen_orphans)
}

/// Seven pairs: 13 tiles.
#[pyfunction]
pub fn SevenPairsShanten<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
) -> PyResult<(i8, Bound<'py, PyTuple>)> {
    shape_shanten(py, hand, &[13], |u| u.seven_pairs)
}

/// Honours and knitted tiles: 13 tiles.
#[pyfunction]
pub fn HonorsAndKnittedTilesShanten<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
) -> PyResult<(i8, Bound<'py, PyTuple>)> {
    shape_shanten(py, hand, &[13], |u| u.honors_and_knitted)
}

/// Knitted straight: 10 or 13 tiles.
#[pyfunction]
pub fn KnittedStraightShanten<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
) -> PyResult<(i8, Bound<'py, PyTuple>)> {
    shape_shanten(py, hand, &[10, 13], |u| u.knitted_straight)
}

/// The standard shape: 1, 4, 7, 10 or 13 tiles.
#[pyfunction]
pub fn RegularShanten<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
) -> PyResult<(i8, Bound<'py, PyTuple>)> {
    shape_shanten(py, hand, &[1, 4, 7, 10, 13], |u| Some(u.standard))
}

/// The lowest distance over the five shapes, the declared melds counted.
#[pyfunction]
pub fn MahjongShanten(
    py: Python<'_>,
    pack: &Bound<'_, PyAny>,
    hand: &Bound<'_, PyAny>,
) -> PyResult<i8> {
    let melds = packs(py, pack)?;
    let tiles = standing(py, hand)?;
    if tiles.len() + 3 * melds.len() != 13 {
        return Err(compat_error(py, "ERROR_INVALID_HAND_OR_PACK"));
    }
    let by_shape = useful_by_shape(&counts_of(&tiles), melds.len());
    [
        Some(by_shape.standard),
        by_shape.seven_pairs,
        by_shape.thirteen_orphans,
        by_shape.honors_and_knitted,
        by_shape.knitted_straight,
    ]
    .into_iter()
    .flatten()
    .map(|s| s.shanten)
    .min()
    .ok_or_else(|| compat_error(py, "ERROR_INVALID_HAND_OR_PACK"))
}
