"""analyze, replay, settle, legal_actions and call() in-process: the analysis and replay
corpora as the service answers them, and bad requests as McrError with every violation."""

from __future__ import annotations

import random
from typing import Any

import pytest

import mahjong_mcr
from conftest import DATA, jsonl

WINDS = "ESWN"
WAIT_CODES = {"discard": "on_discard", "self_drawn": "on_self_drawn"}


def test_the_analysis_corpus_analyses_as_expected() -> None:
    rows = jsonl("analysis-public.jsonl")
    for row in rows[::5]:
        a = mahjong_mcr.analyze(row["notation"], visible=row.get("visible", []),
                                seat_wind=WINDS[row["seat_wind"]],
                                prevalent_wind=WINDS[row["prevalent_wind"]])
        expected = row["expected"]
        # With one declared meld the corpus' calculator leaves the knitted straight out of
        # the useful tiles (tests/data/README.md): those are compared by the engine's tests.
        plain = not row["melds"]
        if row["kind"] == "waiting":
            assert a.state == "waiting"
            assert a.shanten == expected["shanten"], row["id"]
            if plain:
                assert sorted(t for t, _ in a.useful) == sorted(expected["useful"]), row["id"]
            for shape, (distance, useful) in expected["shapes"].items():
                assert a.shapes[shape][0] == distance, (row["id"], shape)
                assert sorted(a.shapes[shape][1]) == sorted(useful), (row["id"], shape)
            waits = {w.tile: w for w in a.waits}
            for w in expected.get("waits", []):
                if w.get("dead"):
                    assert waits[w["tile"]].dead, row["id"]
                    continue
                for key, attribute in WAIT_CODES.items():
                    if w[key]["outcome"] in ("OUTCOME_WIN", "OUTCOME_BELOW_MINIMUM"):
                        assert getattr(waits[w["tile"]], attribute) == w[key]["total"], row["id"]
        else:
            assert a.state == "drawn"
            got = {d.tile: d for d in a.discards}
            for d in expected["discards"]:
                assert got[d["tile"]].shanten == d["shanten"], (row["id"], d["tile"])
                if plain:
                    assert sorted(t for t, _ in got[d["tile"]].useful) == sorted(d["useful"])
        assert a.to_dict()["shanten"] == a.shanten or a.state == "drawn"


def matches() -> list[str]:
    text = (DATA / "replay-public.txt").read_text()
    out: list[str] = []
    current: list[str] = []
    for line in text.splitlines():
        if line.startswith("Match ") and current:
            out.append("\n".join(current) + "\n")
            current = []
        current.append(line)
    out.append("\n".join(current) + "\n")
    return out


def test_the_replay_corpus_replays_as_expected() -> None:
    texts, expected = matches(), jsonl("replay-public-expected.jsonl")
    assert len(texts) == len(expected) == 600
    for text, want in zip(texts, expected):
        r = mahjong_mcr.replay(text)
        if want["mutation"] is None:
            assert r.legal, (want["match"], r.findings)
        else:
            assert not r.legal, want["match"]
        if want["mutation"] in (None, "score_mismatch"):
            assert r.winner == want["winner"], want["match"]
            assert r.fan == want["fan"], want["match"]
            assert r.points == want["scores"], want["match"]


def test_settle_pays_the_winner() -> None:
    s = mahjong_mcr.settle(end="discard", winner=0, discarder=1, fan=10)
    assert s.points == [34, -18, -8, -8] and sum(s.points) == 0
    assert s.outcome == "HAND_OUTCOME_WIN"
    draw = mahjong_mcr.settle(end="draw_game")
    assert draw.points == [0, 0, 0, 0]
    with pytest.raises(mahjong_mcr.McrError) as caught:
        mahjong_mcr.settle(end="discard", winner=0, discarder=0, fan=10)
    assert caught.value.violations and caught.value.code == caught.value.violations[0].code
    with pytest.raises(mahjong_mcr.McrError):
        mahjong_mcr.settle(end="nothing")


def test_legal_actions_of_a_table_seat_match_the_table() -> None:
    rng = random.Random(4)
    table = mahjong_mcr.Table(rng.randbytes(32))
    ((seat, actions),) = table.legal().items()
    seen = table.observation(seat)
    name = {v: k for k, v in mahjong_mcr._mcr.TILE_NAMES.items()}
    drawn = seen.drawn
    assert drawn is not None
    view: dict[str, Any] = {
        "seat": ["SEAT_EAST", "SEAT_SOUTH", "SEAT_WEST", "SEAT_NORTH"][seat],
        "prevalentWind": "WIND_EAST",
        "concealed": [name[t] for t in seen.concealed],
        "drew": {"tile": name[drawn]},
        "wallLeft": seen.wall_left,
    }
    legal = mahjong_mcr.legal_actions(view)
    assert sorted(a.tile or "" for a in legal) == sorted(a.tile for a in actions)


def test_bad_requests_are_mcr_errors() -> None:
    with pytest.raises(mahjong_mcr.McrError) as caught:
        mahjong_mcr.call("AnalyzeHand", {"notation": "1m"})
    assert caught.value.violations
    with pytest.raises(mahjong_mcr.McrError) as caught:
        mahjong_mcr.call("AnalyzeHand", {"nonsense": 1})
    assert caught.value.code == "REQUEST_UNPARSABLE"
    with pytest.raises(mahjong_mcr.McrError):
        mahjong_mcr.call("NoSuchCall", {})
    with pytest.raises(mahjong_mcr.McrError) as caught:
        mahjong_mcr.analyze("123m456p789s1122z", visible=["X9"])
    assert caught.value.code == "TILE_UNKNOWN"
    dealt = mahjong_mcr.call("DealHand", {"seed": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="})
    assert len(dealt["deal"]) == 4


def test_replay_checks_draws_against_a_given_wall() -> None:
    import base64
    dealt = mahjong_mcr.call("DealHand", {"seed": base64.b64encode(bytes(32)).decode()})
    codes = [mahjong_mcr._mcr.TILE_NAMES[name] for name in dealt["wall"]]
    record: dict[str, Any] = {"prevalentWind": "WIND_EAST", "deal": dealt["deal"], "events": [
        {"seat": "SEAT_EAST", "action": "PLAY_ACTION_DRAW", "tile": dealt["wall"][0]}]}
    fine = mahjong_mcr.replay(record, wall=codes)
    assert [f.code for f in fine.findings] == ["HAND_NOT_ENDED"]
    held = set(dealt["deal"][0]["tiles"])
    other = next(t for t in mahjong_mcr._mcr.TILE_NAMES if t != dealt["wall"][0] and t not in held)
    record["events"][0]["tile"] = other
    wrong = mahjong_mcr.replay(record, wall=codes)
    assert "WALL_MISMATCH" in [f.code for f in wrong.findings]
    with pytest.raises(mahjong_mcr.McrError):
        mahjong_mcr.replay("Match 1\n", wall=codes)
