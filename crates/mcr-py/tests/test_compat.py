"""mahjong_mcr.compat against PyMahjongGB 1.4.0 itself (pymahjonggb from PyPI) on the
3,026 public corpus hands: the same fans and totals, or the same error code, except where
the corpus' generator (not the calculator) gave the verdict: those are the rule readings
docs/python.md lists. Skipped when pymahjonggb is not installed (CI installs it)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from conftest import jsonl
from mahjong_mcr import McrError, compat

MahjongGB = pytest.importorskip("MahjongGB")

CASES = jsonl("public.jsonl")
Pack = tuple[tuple[str, str, int], ...]


def pack_of(case: dict[str, Any]) -> Pack:
    """The corpus' melds as PyMahjongGB's packs."""
    out = []
    for m in case["melds"]:
        kind, tiles, offer = m["kind"], m["tiles"], m["claimed_from"]
        if kind == "chow":
            out.append(("CHI", tiles[1], offer))
        elif kind == "pung":
            out.append(("PENG", tiles[0], offer))
        else:
            out.append(("GANG", tiles[0], 0 if kind == "concealed_kong" else offer))
    return tuple(out)


def arguments(case: dict[str, Any]) -> tuple[Any, ...]:
    return (pack_of(case), tuple(case["concealed"]), case["win_tile"], case["flowers"],
            case["self_drawn"], case["fourth_tile"], case["kong_related"], case["last_tile"],
            case["seat_wind"], case["prevalent_wind"])


def outcome(function: Any, args: tuple[Any, ...], verbose: bool) -> Any:
    """The result, English names aside (this package gives the rulebook's English names,
    docs/python.md), or the error's code."""
    try:
        result = function(*args, verbose=verbose)
    except TypeError as e:
        return ("error", str(e))
    return tuple(item[:3] for item in result) if verbose else result


def test_fan_calculator_agrees_with_pymahjonggb_but_for_documented_readings() -> None:
    agreed, readings, differ = 0, 0, []
    for case in CASES:
        try:
            args = arguments(case)
        except (KeyError, TypeError):
            continue
        for verbose in (False, True):
            theirs = outcome(MahjongGB.MahjongFanCalculator, args, verbose)
            ours = outcome(compat.MahjongFanCalculator, args, verbose)
            if theirs == ours:
                agreed += 1
            elif case["expected"].get("error_source") == "generator":
                readings += 1
            else:
                differ.append((case["id"], verbose, theirs, ours))
    assert not differ, f"{len(differ)} differ, e.g. {differ[:3]}"
    assert agreed > 5_800, agreed
    print(f"{agreed} agree, {readings} differ by a documented reading")


def test_errors_are_type_errors_with_pymahjonggbs_code() -> None:
    scattered = ("W1", "W2", "W4", "W5", "W7", "W8", "B1", "B3", "B5", "T2", "T4", "F1", "J1")
    with pytest.raises(TypeError) as caught:
        compat.MahjongFanCalculator((), scattered, "W9", 0, False, False, False, False, 0, 0)
    assert str(caught.value) == "ERROR_NOT_WIN"
    assert isinstance(caught.value, McrError) and isinstance(caught.value, compat.CompatError)
    with pytest.raises(compat.CompatError, match="ERROE_WRONG_TILE_CODE"):
        compat.MahjongFanCalculator((), ("X1",) * 13, "W2", 0, False, False, False, False, 0, 0)
    with pytest.raises(compat.CompatError, match="ERROR_TILE_COUNT_GREATER_THAN_4"):
        compat.MahjongFanCalculator((), ("W1",) * 13, "W1", 0, False, False, False, False, 0, 0)
    with pytest.raises(TypeError, match="ERROR_WRONG_TILES_COUNT"):
        compat.MahjongFanCalculator((), ("W1",) * 3, "W2", 0, False, False, False, False, 0, 0)


SHAPES = ["ThirteenOrphansShanten", "SevenPairsShanten", "HonorsAndKnittedTilesShanten",
          "KnittedStraightShanten", "RegularShanten"]


def test_shanten_functions_agree_with_pymahjonggb() -> None:
    rng = random.Random(5)
    wall = [f"{s}{r}" for s in "WBT" for r in range(1, 10)] + [f"F{r}" for r in range(1, 5)] \
        + [f"J{r}" for r in range(1, 4)]
    wall = wall * 4
    checked = 0
    for _ in range(2_000):
        size = rng.choice([1, 4, 7, 10, 13, 13, 13, 5])
        hand = tuple(rng.sample(wall, size))
        for name in SHAPES:
            try:
                theirs = getattr(MahjongGB, name)(hand)
            except TypeError as e:
                theirs = ("error", str(e))
            try:
                ours = getattr(compat, name)(hand)
            except TypeError as e:
                ours = ("error", str(e))
            if isinstance(theirs, tuple) and theirs and theirs[0] != "error":
                theirs = (theirs[0], tuple(sorted(theirs[1])))
                ours = (ours[0], tuple(sorted(ours[1]))) if ours[0] != "error" else ours
            assert theirs == ours, (name, hand, theirs, ours)
            checked += 1
        if size == 13:
            assert MahjongGB.MahjongShanten((), hand) == compat.MahjongShanten((), hand), hand
    assert checked == 10_000
