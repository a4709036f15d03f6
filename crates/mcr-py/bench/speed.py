"""mahjong_mcr's speed beside PyMahjongGB's, in one process (docs/performance.md, "From Python").

    python crates/mcr-py/bench/speed.py [--rounds 5]

Prints, each the best of `--rounds` alternated rounds:
- per call, on the public corpus' winning hands with ``verbose=True``:
  ``MahjongGB.MahjongFanCalculator`` (PyPI pymahjonggb 1.4.0, when installed),
  ``mahjong_mcr.compat.MahjongFanCalculator`` and ``mahjong_mcr.score``;
- ``score_many`` and ``score_many_json`` on the 3,026 corpus requests, in hands/s, and the
  command line's ``score --jsonl`` on the same lines when ``--cli`` names the binary;
- a random-play ``Table`` in steps/s on one core, the Python loop included.

For instruction counts, independent of the machine's load: ``--count NAME --passes N`` runs
only NAME (``pymahjonggb``, ``compat`` or ``score``, reading ``.fans``) over the hands N
times, to be run under ``valgrind --tool=cachegrind``; a call's instructions are
(I(N=3) - I(N=1)) / (2 x 2314).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import mahjong_mcr
from mahjong_mcr import compat

DATA = Path(__file__).resolve().parents[3] / "tests" / "data"


def corpus() -> list[dict[str, Any]]:
    with open(DATA / "public.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def compat_args(case: dict[str, Any]) -> tuple[Any, ...]:
    packs = []
    for m in case["melds"]:
        kind, tiles, offer = m["kind"], m["tiles"], m["claimed_from"]
        if kind == "chow":
            packs.append(("CHI", tiles[1], offer))
        elif kind == "pung":
            packs.append(("PENG", tiles[0], offer))
        else:
            packs.append(("GANG", tiles[0], 0 if kind == "concealed_kong" else offer))
    return (tuple(packs), tuple(case["concealed"]), case["win_tile"], case["flowers"],
            case["self_drawn"], case["fourth_tile"], case["kong_related"], case["last_tile"],
            case["seat_wind"], case["prevalent_wind"])


def pymahjonggb_module() -> Any:
    """PyMahjongGB's module, or None when pymahjonggb is not installed."""
    try:
        import MahjongGB  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    return MahjongGB


def per_call(function: Callable[..., Any], calls: list[tuple[tuple[Any, ...], dict[str, Any]]]) -> float:
    """Seconds a call, over every call once."""
    start = time.perf_counter()
    for args, kwargs in calls:
        function(*args, **kwargs)
    return (time.perf_counter() - start) / len(calls)


def random_table_steps(hands: int, seed: int) -> tuple[int, float]:
    """Steps of `hands` random hands and the seconds they took."""
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    for _ in range(hands):
        table = mahjong_mcr.Table(rng.randbytes(32))
        while table.phase != "over":
            legal = table.legal()
            if table.phase == "act":
                ((seat, actions),) = legal.items()
                table.step({seat: rng.choice(actions)})
            else:
                table.step({s: rng.choice(a) for s, a in legal.items() if rng.random() < 0.5})
            steps += 1
    return steps, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cli", help="the mahjong-referee binary, for score --jsonl")
    parser.add_argument("--count", choices=["pymahjonggb", "compat", "score"])
    parser.add_argument("--passes", type=int, default=1)
    args = parser.parse_args()
    cases = [c for c in corpus() if "total" in c["expected"]]
    calls = [(compat_args(c), {"verbose": True}) for c in cases]
    if args.count:
        count(args.count, args.passes, cases, calls)
        return 0
    MahjongGB = pymahjonggb_module()
    rows: dict[str, float] = {}

    def best(name: str, seconds: float) -> None:
        rows[name] = min(rows.get(name, float("inf")), seconds)

    score = getattr(mahjong_mcr, "score", None)
    score_calls = [((c["notation"],), score_kwargs(c)) for c in cases]
    for _ in range(args.rounds):
        if MahjongGB is not None:
            best("pymahjonggb.MahjongFanCalculator", per_call(MahjongGB.MahjongFanCalculator, calls))
        best("compat.MahjongFanCalculator", per_call(compat.MahjongFanCalculator, calls))
        if score is not None:
            best("score()", per_call(score, score_calls))
    print(f"{len(cases)} winning hands of the public corpus, verbose=True; best of {args.rounds}:")
    reference = rows.get("pymahjonggb.MahjongFanCalculator")
    for name, seconds in rows.items():
        ratio = f"  ({seconds / reference:.2f}x pymahjonggb)" if reference else ""
        print(f"  {name:<36} {seconds * 1e6:6.2f} us a call{ratio}")

    if hasattr(mahjong_mcr, "score_many"):
        lines = [json.dumps(request_of(c)) for c in corpus() if "notation" in c]
        requests = [json.loads(line) for line in lines]
        many = min(timed(lambda: mahjong_mcr.score_many(requests)) for _ in range(args.rounds))
        many_json = min(timed(lambda: mahjong_mcr.score_many_json(lines)) for _ in range(args.rounds))
        print(f"score_many:      {len(lines) / many:10,.0f} hands/s ({os.cpu_count()} cores)")
        print(f"score_many_json: {len(lines) / many_json:10,.0f} hands/s")
        if args.cli:
            text = "\n".join(lines * 20) + "\n"
            cli = min(timed(lambda: subprocess.run([args.cli, "score", "--jsonl"], input=text,
                                                   text=True, check=True,
                                                   stdout=subprocess.DEVNULL))
                      for _ in range(args.rounds))
            print(f"CLI score --jsonl: {20 * len(lines) / cli:10,.0f} hands/s (process start included)")

    steps, seconds = min((random_table_steps(100, k) for k in range(args.rounds)),
                         key=lambda r: r[1] / r[0])
    print(f"Table, random play: {steps / seconds:10,.0f} steps/s (one core, Python loop included)")
    return 0


def count(name: str, passes: int, cases: list[dict[str, Any]],
          calls: list[tuple[tuple[Any, ...], dict[str, Any]]]) -> None:
    """Runs one function over every hand `passes` times, after one warm-up call."""
    if name == "score":
        score_calls = [((c["notation"],), score_kwargs(c)) for c in cases]
        mahjong_mcr.score(*score_calls[0][0], **score_calls[0][1])
        for _ in range(passes):
            for args, kwargs in score_calls:
                mahjong_mcr.score(*args, **kwargs).fans
        return
    if name == "pymahjonggb":
        MahjongGB = pymahjonggb_module()
        assert MahjongGB is not None, "pymahjonggb is not installed"
        function = MahjongGB.MahjongFanCalculator
    else:
        function = compat.MahjongFanCalculator
    function(*calls[0][0], **calls[0][1])
    for _ in range(passes):
        for args, kwargs in calls:
            function(*args, **kwargs)


def timed(function: Callable[[], Any]) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


WINDS = "ESWN"


def score_kwargs(case: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of score() for a corpus case."""
    self_drawn, kong = case["self_drawn"], case["kong_related"]
    return {"self_drawn": self_drawn, "seat_wind": WINDS[case["seat_wind"]],
            "prevalent_wind": WINDS[case["prevalent_wind"]], "flowers": case["flowers"],
            "last_tile": case["last_tile"], "last_copy": case["fourth_tile"],
            "kong_replacement": kong and self_drawn, "robbing_kong": kong and not self_drawn}


def request_of(case: dict[str, Any]) -> dict[str, Any]:
    """The ScoreHandRequest (proto3 JSON) of a corpus case."""
    k = score_kwargs(case)
    context = {"selfDrawn": k["self_drawn"], "seatWind": f"WIND_{['EAST', 'SOUTH', 'WEST', 'NORTH'][case['seat_wind']]}",
               "prevalentWind": f"WIND_{['EAST', 'SOUTH', 'WEST', 'NORTH'][case['prevalent_wind']]}",
               "flowerCount": k["flowers"], "lastTile": k["last_tile"], "lastCopy": k["last_copy"],
               "replacementDraw": k["kong_replacement"], "robbingKong": k["robbing_kong"]}
    return {"notation": case["notation"], "context": context, "ruleset": "RULESET_MIL"}


if __name__ == "__main__":
    sys.exit(main())
