"""score(), score_json() and score_many() on the public corpus: the corpus' totals and fans,
the service's JSON byte for byte as the command line writes it, and errors with their
codes and fields."""

from __future__ import annotations

import json
import os
import subprocess
from typing import Any

import pytest

import mahjong_mcr
from conftest import DATA, jsonl

CASES = jsonl("public.jsonl")
WINDS = "ESWN"
#: The corpus names the three waits as PyMahjongGB does; the rulebook names are these.
WAIT_NAMES = {"独听・边张": "边张", "独听・嵌张": "坎张", "独听・单钓": "单钓将"}


def kwargs(case: dict[str, Any]) -> dict[str, Any]:
    self_drawn, kong = case["self_drawn"], case["kong_related"]
    return {"self_drawn": self_drawn, "seat_wind": WINDS[case["seat_wind"]],
            "prevalent_wind": WINDS[case["prevalent_wind"]], "flowers": case["flowers"],
            "last_tile": case["last_tile"], "last_copy": case["fourth_tile"],
            "kong_replacement": kong and self_drawn, "robbing_kong": kong and not self_drawn}


def test_the_corpus_scores_as_expected() -> None:
    scored = 0
    for case in CASES:
        expected = case["expected"]
        if "total" not in expected:
            continue
        s = mahjong_mcr.score(case["notation"], **kwargs(case))
        assert s.total == expected["total"], case["id"]
        fans = sorted((f.zh, f.points, f.count) for f in s.fans)
        want = sorted((WAIT_NAMES.get(n, n), p, c) for n, p, c in expected["fans"])
        assert fans == want, case["id"]
        assert s.is_win == (s.fan_total >= 8)
        scored += 1
    assert scored > 2_300


def test_the_same_hand_structured_and_with_a_separate_winning_tile() -> None:
    by_notation = mahjong_mcr.score("[123m][789m][123p]55s89p7p")
    structured = mahjong_mcr.score({"melds": [
        {"kind": "MELD_KIND_CHOW", "tiles": ["TILE_1M", "TILE_2M", "TILE_3M"]},
        {"kind": "MELD_KIND_CHOW", "tiles": ["TILE_7M", "TILE_8M", "TILE_9M"]},
        {"kind": "MELD_KIND_CHOW", "tiles": ["TILE_1P", "TILE_2P", "TILE_3P"]}],
        "standingTiles": ["TILE_5S", "TILE_5S", "TILE_8P", "TILE_9P"], "winningTile": "TILE_7P"})
    separate = mahjong_mcr.score("[123m][789m][123p]55s89p", win_tile="B7")
    assert by_notation.total == structured.total == separate.total == 17
    assert [f.en for f in by_notation.fans] == [f.en for f in structured.fans]
    assert by_notation.to_dict() == structured.to_dict()
    edge = [f for f in by_notation.fans if f.en == "Edge Wait"][0]
    assert edge.tiles == ["B8", "B9", "B7"] or sorted(edge.tiles) == ["B7", "B8", "B9"]


def test_bad_input_raises_mcr_error_with_code_and_fields() -> None:
    with pytest.raises(mahjong_mcr.McrError) as caught:
        mahjong_mcr.score("123m456p789s11z2")
    assert caught.value.code == "NOTATION_SYNTAX"
    assert isinstance(caught.value, ValueError)
    assert caught.value.violations[0].field == "notation"
    with pytest.raises(mahjong_mcr.McrError) as caught:
        mahjong_mcr.score("11111m456p789s11z2z")
    assert caught.value.code == "TILE_COPIES_EXCEEDED"
    with pytest.raises(mahjong_mcr.McrError) as caught:
        mahjong_mcr.score("123m456p789s11z22z", seat_wind="X")
    assert caught.value.code == "VALUE_INVALID" and caught.value.violations[0].field == "seat_wind"
    with pytest.raises(mahjong_mcr.McrError):
        mahjong_mcr.score("123m456p789s11z22z", ruleset="nope")
    lax = mahjong_mcr.score("11111m456p789s11z2z", strict=False)
    assert lax.outcome == "invalid" and lax.violations[0].code == "TILE_COPIES_EXCEEDED"


def test_a_losing_hand_is_a_result() -> None:
    s = mahjong_mcr.score("1235m456p789s11z22z")
    assert s.outcome == "not_winning_shape" and not s.is_win and s.total == 0


def requests() -> list[dict[str, Any]]:
    """Every corpus case as a ScoreHandRequest (malformed ones included)."""
    out = []
    for case in CASES:
        if "notation" not in case:
            continue
        k = kwargs(case)
        context = {"selfDrawn": k["self_drawn"],
                   "seatWind": mahjong_mcr._mcr.WIND_NAMES[k["seat_wind"]],
                   "prevalentWind": mahjong_mcr._mcr.WIND_NAMES[k["prevalent_wind"]],
                   "flowerCount": k["flowers"], "lastTile": k["last_tile"],
                   "lastCopy": k["last_copy"], "replacementDraw": k["kong_replacement"],
                   "robbingKong": k["robbing_kong"]}
        out.append({"notation": case["notation"], "context": context, "ruleset": "RULESET_MIL"})
    return out


def test_score_many_is_score_json_for_each() -> None:
    reqs = requests()
    many = mahjong_mcr.score_many(reqs)
    assert len(many) == len(reqs) > 2_900
    for request, answer in zip(reqs[::50], many[::50]):
        assert mahjong_mcr.score_json(request) == answer
    assert mahjong_mcr.score_json({"notation": "oops"})["outcome"] == "OUTCOME_INVALID"


def test_score_many_json_writes_what_the_command_line_writes() -> None:
    binary = os.environ.get("MAHJONG_REFEREE_BIN")
    if not binary:
        pytest.skip("MAHJONG_REFEREE_BIN names the release binary (CI sets it)")
    lines = [json.dumps(r) for r in requests()] + ["not json"]
    cli = subprocess.run([binary, "score", "--jsonl"], input="\n".join(lines) + "\n",
                         check=False, capture_output=True, text=True).stdout.splitlines()
    ours = mahjong_mcr.score_many_json(lines)
    assert len(cli) == len(ours) == len(lines)
    assert ours == cli
