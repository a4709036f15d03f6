#!/usr/bin/env python3
"""Cross-platform check: the public corpus scored by a running server through a Python
gRPC client generated from proto/, compared with the independent calculator's results.

Every hand of tests/data/public.jsonl goes through ScoreHand (one call each), through
BatchScoreHands (in chunks) AND through BatchScoreHands with default_view SCORE_VIEW_BASIC
(numbers only: the fan names come once from ListFans, as a game server would do it), under
RULESET_MIL. The comparison rules are those of
tests/jsonl_corpus.rs:

- a win: OUTCOME_WIN, the same fan multiset (name, points, count) and total; the corpus
  names the three waits 独听・边张 / 独听・嵌张 / 独听・单钓, the rulebook 边张 / 坎张 / 单钓将;
- ERROR_FAN_LESS_THAN_8: OUTCOME_BELOW_MINIMUM with the oracle's fans and total;
- ERROR_NOT_WIN: OUTCOME_NOT_WINNING_SHAPE, the total being the flowers alone;
- a malformed hand (any other error): INVALID_ARGUMENT from ScoreHand, an error entry
  (reason INVALID_HAND, violations) in the batch.

A batch entry must moreover equal the ScoreHand response of the same hand (in the basic
view: its numbers, with no names, elements, reading or notation). Exits 0 on
100% agreement, 1 with a summary and the first disagreements otherwise, 2 on a usage or
set-up error.

Usage: python scripts/crosscheck.py --addr 127.0.0.1:50051 [--corpus FILE] [--proto DIR]
       [--out DIR] [--chunk N] [--in-flight N]
"""

from __future__ import annotations

import argparse
import collections
import glob
import importlib
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

WAIT_NAMES = {"独听・边张": "边张", "独听・嵌张": "坎张", "独听・单钓": "单钓将"}
OUT_OF_RANGE_TILE = 99
MELD_KINDS = {
    "chow": "MELD_KIND_CHOW",
    "pung": "MELD_KIND_PUNG",
    "kong": "MELD_KIND_KONG",
    "concealed_kong": "MELD_KIND_CONCEALED_KONG",
}
CLAIM_SOURCES = [
    "CLAIM_SOURCE_UNSPECIFIED",
    "CLAIM_SOURCE_LEFT",
    "CLAIM_SOURCE_OPPOSITE",
    "CLAIM_SOURCE_RIGHT",
]
WINDS = ["WIND_EAST", "WIND_SOUTH", "WIND_WEST", "WIND_NORTH"]
MAX_SHOWN = 20
# The third path: BatchScoreHands in the basic view.
BASIC = "BatchScoreHands BASIC"


def fail(message: str) -> "NoReturn":  # noqa: F821 (a string annotation)
    print(f"crosscheck: {message}", file=sys.stderr)
    sys.exit(2)


# ------------------------------------------------------------------------------------------
# The generated client


def generate(proto_dir: str, out_dir: str):
    """Generates the Python messages and stubs of every proto file into out_dir and imports
    them: (pb2 modules by name, the MahjongService stub class)."""
    protos = sorted(glob.glob(os.path.join(proto_dir, "mahjong", "v1", "*.proto")))
    if not protos:
        fail(f"no proto files under {proto_dir}/mahjong/v1")
    command = [
        sys.executable,
        "-m",
        "grpc_tools.protoc",
        f"-I{proto_dir}",
        f"--python_out={out_dir}",
        f"--grpc_python_out={out_dir}",
        *protos,
    ]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        fail(f"grpc_tools.protoc failed:\n{result.stderr}")
    sys.path.insert(0, out_dir)
    modules = {}
    for proto in protos:
        name = os.path.splitext(os.path.basename(proto))[0]
        modules[name] = importlib.import_module(f"mahjong.v1.{name}_pb2")
    grpc_module = importlib.import_module("mahjong.v1.mahjong_service_pb2_grpc")
    print(f"generated the client of {len(protos)} proto files into {out_dir}")
    return modules, grpc_module.MahjongServiceStub


# ------------------------------------------------------------------------------------------
# The corpus as requests


def tile(code: str) -> int:
    """Corpus tile code → proto Tile number; a bad code becomes a number out of range."""
    if len(code) != 2 or not code[1].isdigit():
        return OUT_OF_RANGE_TILE
    letter, n = code[0], int(code[1])
    bases = {"W": (0, 9), "B": (9, 9), "T": (18, 9), "F": (27, 4), "J": (31, 3)}
    if letter not in bases:
        return OUT_OF_RANGE_TILE
    base, top = bases[letter]
    return base + n if 1 <= n <= top else OUT_OF_RANGE_TILE


def request(pb, case: dict):
    """A corpus case as a ScoreHandRequest with a structured hand under MIL."""
    hand_pb2, scoring_pb2, ruleset_pb2, tile_pb2 = (
        pb["hand"],
        pb["scoring"],
        pb["ruleset"],
        pb["tile"],
    )
    melds = [
        hand_pb2.Meld(
            kind=hand_pb2.MeldKind.Value(MELD_KINDS[m["kind"]]),
            tiles=[tile(t) for t in m["tiles"]],
            claimed_from=hand_pb2.ClaimSource.Value(CLAIM_SOURCES[m["claimed_from"]]),
        )
        for m in case["melds"]
    ]
    self_drawn = case["self_drawn"]
    return scoring_pb2.ScoreHandRequest(
        hand=hand_pb2.Hand(
            melds=melds,
            standing_tiles=[tile(t) for t in case["concealed"]],
            winning_tile=tile(case["win_tile"]),
        ),
        context=hand_pb2.WinContext(
            self_drawn=self_drawn,
            robbing_kong=case["kong_related"] and not self_drawn,
            replacement_draw=case["kong_related"] and self_drawn,
            last_tile=case["last_tile"],
            last_copy=case["fourth_tile"],
            seat_wind=tile_pb2.Wind.Value(WINDS[case["seat_wind"]]),
            prevalent_wind=tile_pb2.Wind.Value(WINDS[case["prevalent_wind"]]),
            flower_count=case["flowers"],
        ),
        ruleset=ruleset_pb2.Ruleset.Value("RULESET_MIL"),
    )


# ------------------------------------------------------------------------------------------
# What a case should get, and the comparison


def fan_multiset(lines) -> list:
    return sorted((WAIT_NAMES.get(name, name), points, count) for name, points, count in lines)


def expectation(case: dict):
    """(kind, fans or None, total or None): kind is the expected outcome name, or
    'INVALID' for a malformed hand."""
    expected = case["expected"]
    error = expected.get("error")
    if error is None:
        return "OUTCOME_WIN", fan_multiset(expected["fans"]), expected["total"]
    if error == "ERROR_FAN_LESS_THAN_8":
        return (
            "OUTCOME_BELOW_MINIMUM",
            fan_multiset(expected["oracle_fans"]),
            expected["oracle_total"],
        )
    if error == "ERROR_NOT_WIN":
        return "OUTCOME_NOT_WINNING_SHAPE", None, case["flowers"]
    return "INVALID", None, None


def judge_score(pb, case: dict, response, name_of=lambda line: line.name_zh) -> str | None:
    """Why a ScoreHandResponse disagrees with the case, or None. name_of gives a fan
    line's Chinese name (from the line itself unless the view has no names)."""
    scoring_pb2, ruleset_pb2 = pb["scoring"], pb["ruleset"]
    kind, fans, total = expectation(case)
    if kind == "INVALID":
        return f"expected a rejection of the malformed hand, got {summary(pb, response)}"
    outcome = scoring_pb2.Outcome.Name(response.outcome)
    got_fans = sorted((name_of(f), f.points, f.count) for f in response.fans)
    problems = []
    if outcome != kind:
        problems.append(f"outcome {outcome} (expected {kind})")
    if response.total != total:
        problems.append(f"total {response.total} (expected {total})")
    if fans is not None and got_fans != fans:
        problems.append(f"fans {got_fans} (expected {fans})")
    if response.violations:
        problems.append(f"{len(response.violations)} violations")
    if response.ruleset != ruleset_pb2.Ruleset.Value("RULESET_MIL"):
        problems.append(f"ruleset {ruleset_pb2.Ruleset.Name(response.ruleset)}")
    return "; ".join(problems) or None


def summary(pb, response) -> str:
    outcome = pb["scoring"].Outcome.Name(response.outcome)
    fans = [(f.name_zh, f.points, f.count) for f in response.fans]
    return f"{outcome} total {response.total} fans {fans}"


# ------------------------------------------------------------------------------------------
# The two paths


def check_score_hand(grpc, pb, stub, cases, requests, in_flight: int, tally, failures):
    """Every case through ScoreHand, in_flight calls at a time. Returns the responses by
    case index (None for a rejected hand)."""
    responses = [None] * len(cases)
    pending = collections.deque()

    def settle(index, future):
        case = cases[index]
        kind, _, _ = expectation(case)
        try:
            response = future.result()
        except grpc.RpcError as error:
            code = error.code()
            if kind == "INVALID" and code == grpc.StatusCode.INVALID_ARGUMENT:
                tally[("ScoreHand", kind, True)] += 1
                return
            tally[("ScoreHand", kind, False)] += 1
            failures.append(
                f"ScoreHand {case['id']}: {code.name} {error.details()!r} (expected {kind})"
            )
            return
        responses[index] = response
        problem = judge_score(pb, case, response)
        tally[("ScoreHand", kind, problem is None)] += 1
        if problem:
            failures.append(f"ScoreHand {case['id']}: {problem}")

    for index, req in enumerate(requests):
        pending.append((index, stub.ScoreHand.future(req, timeout=30)))
        if len(pending) >= in_flight:
            settle(*pending.popleft())
    while pending:
        settle(*pending.popleft())
    return responses


def numbers(response) -> tuple:
    """What the basic view keeps of a ScoreHandResponse."""
    return (
        response.outcome,
        [(f.fan, f.points, f.count, f.total_points) for f in response.fans],
        response.fan_total,
        response.flower_points,
        response.total,
        response.ruleset,
    )


def check_batches(pb, stub, cases, requests, singles, chunk: int, tally, failures,
                  path="BatchScoreHands", names=None):
    """Every case through BatchScoreHands, chunk hands a call; each entry is also compared
    with the ScoreHand response of the same hand. With names (fan number -> Chinese name,
    from ListFans) the batch asks for SCORE_VIEW_BASIC and entries are compared by their
    numbers."""
    scoring_pb2, ruleset_pb2 = pb["scoring"], pb["ruleset"]
    view = "SCORE_VIEW_BASIC" if names is not None else "SCORE_VIEW_UNSPECIFIED"
    name_of = (lambda line: names.get(line.fan, "?")) if names is not None else (
        lambda line: line.name_zh
    )
    calls = 0
    for start in range(0, len(requests), chunk):
        batch = scoring_pb2.BatchScoreHandsRequest(
            requests=requests[start : start + chunk],
            default_ruleset=ruleset_pb2.Ruleset.Value("RULESET_MIL"),
            default_view=scoring_pb2.ScoreView.Value(view),
        )
        results = stub.BatchScoreHands(batch, timeout=60).results
        calls += 1
        if len(results) != len(batch.requests):
            failures.append(
                f"{path} at {start}: {len(results)} results for "
                f"{len(batch.requests)} requests"
            )
            for index in range(start, start + len(batch.requests)):
                tally[(path, expectation(cases[index])[0], False)] += 1
            continue
        for offset, result in enumerate(results):
            index = start + offset
            case = cases[index]
            kind, _, _ = expectation(case)
            which = result.WhichOneof("result")
            if which == "error":
                ok = kind == "INVALID" and result.error.reason == "INVALID_HAND" and bool(
                    result.error.violations
                )
                problem = None if ok else (
                    f"error entry {result.error.reason} with "
                    f"{len(result.error.violations)} violations (expected {kind})"
                )
            elif which == "score":
                score = result.score
                problem = judge_score(pb, case, score, name_of)
                single = singles[index]
                if problem is None and names is None and single is not None and score != single:
                    problem = "the entry differs from the ScoreHand response of the same hand"
                if problem is None and names is not None:
                    if score.HasField("reading") or score.notation or any(
                        f.name_zh or f.name_en or f.element_indices for f in score.fans
                    ):
                        problem = "a basic entry carries names, elements, reading or notation"
                    elif single is not None and numbers(score) != numbers(single):
                        problem = "the entry's numbers differ from the ScoreHand response"
            else:
                problem = "an entry with neither score nor error"
            tally[(path, kind, problem is None)] += 1
            if problem:
                failures.append(f"{path} {case['id']}: {problem}")
    return calls


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--addr", required=True, help="the server, HOST:PORT (plaintext)")
    parser.add_argument(
        "--corpus", default=os.path.join(ROOT, "tests", "data", "public.jsonl")
    )
    parser.add_argument("--proto", default=os.path.join(ROOT, "proto"))
    parser.add_argument("--out", help="where to generate the client (default: a temp dir)")
    parser.add_argument("--chunk", type=int, default=500, help="hands per BatchScoreHands")
    parser.add_argument("--in-flight", type=int, default=16, help="ScoreHand calls at once")
    args = parser.parse_args()
    if args.chunk < 1 or args.in_flight < 1:
        fail("--chunk and --in-flight must be at least 1")

    try:
        import grpc
    except ImportError:
        fail("grpcio is not installed (pip install -r scripts/requirements.txt)")

    with tempfile.TemporaryDirectory(prefix="mahjong-pyclient-") as tmp:
        out_dir = args.out or tmp
        os.makedirs(out_dir, exist_ok=True)
        modules, stub_class = generate(args.proto, out_dir)

        with open(args.corpus, encoding="utf-8") as f:
            cases = [json.loads(line) for line in f if line.strip()]
        requests = [request(modules, case) for case in cases]
        kinds = collections.Counter(expectation(c)[0] for c in cases)
        print(f"corpus: {len(cases)} hands from {args.corpus}: {dict(sorted(kinds.items()))}")

        options = [
            ("grpc.max_receive_message_length", 64 * 1024 * 1024),
            ("grpc.max_send_message_length", 64 * 1024 * 1024),
        ]
        with grpc.insecure_channel(args.addr, options=options) as channel:
            try:
                grpc.channel_ready_future(channel).result(timeout=30)
            except grpc.FutureTimeoutError:
                fail(f"no server at {args.addr} within 30 s")
            stub = stub_class(channel)
            tally = collections.Counter()
            failures = []

            started = time.monotonic()
            singles = check_score_hand(
                grpc, modules, stub, cases, requests, args.in_flight, tally, failures
            )
            single_time = time.monotonic() - started
            started = time.monotonic()
            calls = check_batches(
                modules, stub, cases, requests, singles, args.chunk, tally, failures
            )
            batch_time = time.monotonic() - started
            fan_list = stub.ListFans(
                modules["fan"].ListFansRequest(
                    ruleset=modules["ruleset"].Ruleset.Value("RULESET_MIL")
                ),
                timeout=30,
            )
            names = {info.fan: info.name_zh for info in fan_list.fans}
            started = time.monotonic()
            basic_calls = check_batches(
                modules, stub, cases, requests, singles, args.chunk, tally, failures,
                path=BASIC, names=names,
            )
            basic_time = time.monotonic() - started

    print()
    print(f"{'path':<24} {'expected':<26} {'agree':>6} {'disagree':>8}")
    for path in ("ScoreHand", "BatchScoreHands", BASIC):
        for kind in sorted(kinds):
            good, bad = tally[(path, kind, True)], tally[(path, kind, False)]
            print(f"{path:<24} {kind:<26} {good:>6} {bad:>8}")
    single_ok = sum(v for (p, _, ok), v in tally.items() if p == "ScoreHand" and ok)
    batch_ok = sum(v for (p, _, ok), v in tally.items() if p == "BatchScoreHands" and ok)
    basic_ok = sum(v for (p, _, ok), v in tally.items() if p == BASIC and ok)
    print()
    print(
        f"ScoreHand:       {single_ok}/{len(cases)} agree "
        f"({len(cases)} calls, {single_time:.1f} s)"
    )
    print(
        f"BatchScoreHands: {batch_ok}/{len(cases)} agree "
        f"({calls} calls of up to {args.chunk} hands, {batch_time:.1f} s)"
    )
    print(
        f"{BASIC}: {basic_ok}/{len(cases)} agree "
        f"({basic_calls} calls of up to {args.chunk} hands, {basic_time:.1f} s)"
    )
    if failures:
        print(f"\n{len(failures)} disagreements; the first {min(MAX_SHOWN, len(failures))}:")
        for line in failures[:MAX_SHOWN]:
            print(f"  {line}")
        return 1
    if not single_ok == batch_ok == basic_ok == len(cases):
        print("\nsome hands were not checked")
        return 1
    print("\n100% agreement on the three paths")
    return 0


if __name__ == "__main__":
    sys.exit(main())
