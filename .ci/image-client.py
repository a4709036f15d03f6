#!/usr/bin/env python3
"""Load client of .ci/image.sh: ScoreHand calls round-robin over several referee servers, as
a client-side load balancer does, until a stop file appears.

Each backend has its own channel and is polled on grpc.health.v1 (service "") every 0.1 s; a
call goes only to a backend last seen SERVING, so a server that drains (NOT_SERVING after
SIGTERM, still answering) is left, and a new one is used once it says SERVING. Every answer is
also judged against the corpus (scripts/crosscheck.py): a wrong score is a failure too.

Writes the ready file once every backend has answered a call, and at the end prints one JSON
report: calls answered per backend, the failures, and `drained`: calls answered by a backend
while it was seen NOT_SERVING (calls in flight when it started draining).
Exits 0 when no call failed and every backend answered at least one call, 1 otherwise.

Usage: image-client.py --backend HOST:PORT [--backend ...] --ready-file F --stop-file F
       [--threads N] [--out DIR]
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import os
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import crosscheck  # noqa: E402  (the generated client, the corpus as requests, the judge)

HEALTH_CHECK = "/grpc.health.v1.Health/Check"
# HealthCheckResponse { status = 1 }: field 1, varint; 1 SERVING, 2 NOT_SERVING.
SERVING, NOT_SERVING = b"\x08\x01", b"\x08\x02"
CHANNEL_OPTIONS = [
    # A replaced server comes back on the same port within a second or two: reconnect quickly.
    ("grpc.initial_reconnect_backoff_ms", 100),
    ("grpc.min_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 500),
]


class Backend:
    def __init__(self, grpc, address: str, stub_class):
        self.address = address
        self.channel = grpc.insecure_channel(address, options=CHANNEL_OPTIONS)
        self.stub = stub_class(self.channel)
        # Raw bytes both ways: HealthCheckRequest {} is empty, the response is decoded above.
        self.health = self.channel.unary_unary(HEALTH_CHECK)
        self.state = "unknown"
        self.serving = False
        self.states = []  # (seconds since start, state) at every change


def poll_health(grpc, backends, started, stop):
    while not stop.is_set():
        for backend in backends:
            try:
                answer = backend.health(b"", timeout=0.5)
                state = {SERVING: "SERVING", NOT_SERVING: "NOT_SERVING"}.get(answer, repr(answer))
            except grpc.RpcError as error:
                state = f"unreachable ({error.code().name})"
            backend.state = state
            backend.serving = state == "SERVING"
            if not backend.states or backend.states[-1][1] != state:
                backend.states.append((round(time.monotonic() - started, 2), state))
        stop.wait(0.1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", action="append", required=True, help="HOST:PORT")
    parser.add_argument("--ready-file", required=True)
    parser.add_argument("--stop-file", required=True)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--out", help="where to generate the client (default: a temp dir)")
    args = parser.parse_args()

    import grpc

    out_dir = args.out or tempfile.mkdtemp(prefix="mahjong-image-client-")
    os.makedirs(out_dir, exist_ok=True)
    with contextlib.redirect_stdout(sys.stderr):  # stdout is for the report alone
        pb, stub_class = crosscheck.generate(os.path.join(crosscheck.ROOT, "proto"), out_dir)
    corpus = os.path.join(crosscheck.ROOT, "tests", "data", "public.jsonl")
    with open(corpus, encoding="utf-8") as f:
        cases = [json.loads(line) for line in f if line.strip()]
    # Well-formed hands only: every call must succeed.
    cases = [c for c in cases if crosscheck.expectation(c)[0] != "INVALID"]
    requests = [crosscheck.request(pb, c) for c in cases]

    started = time.monotonic()
    stop = threading.Event()
    backends = [Backend(grpc, address, stub_class) for address in args.backend]
    poller = threading.Thread(target=poll_health, args=(grpc, backends, started, stop), daemon=True)
    poller.start()

    lock = threading.Lock()
    answered = collections.Counter()
    drained = collections.Counter()
    failures = []
    waits = collections.Counter()  # loops with no SERVING backend
    turn = [0]

    def next_backend():
        with lock:
            for _ in range(len(backends)):
                backend = backends[turn[0] % len(backends)]
                turn[0] += 1
                if backend.serving:
                    return backend
        return None

    def work(worker: int):
        index = worker
        while not stop.is_set():
            backend = next_backend()
            if backend is None:
                waits[worker] += 1
                time.sleep(0.02)
                continue
            case, req = cases[index % len(cases)], requests[index % len(cases)]
            index += args.threads
            try:
                response = backend.stub.ScoreHand(req, timeout=10)
            except grpc.RpcError as error:
                with lock:
                    failures.append(f"{backend.address} {case['id']}: {error.code().name} "
                                    f"{error.details()!r} at {time.monotonic() - started:.2f} s")
                continue
            problem = crosscheck.judge_score(pb, case, response)
            with lock:
                if problem:
                    failures.append(f"{backend.address} {case['id']}: {problem}")
                else:
                    answered[backend.address] += 1
                    if backend.state == "NOT_SERVING":
                        drained[backend.address] += 1

    workers = [threading.Thread(target=work, args=(n,), daemon=True) for n in range(args.threads)]
    for thread in workers:
        thread.start()

    ready = False
    while not os.path.exists(args.stop_file):
        if not ready and all(answered[b.address] for b in backends):
            with open(args.ready_file, "w") as f:
                f.write("ready\n")
            ready = True
        if time.monotonic() - started > 600:
            failures.append("no stop file within 600 s")
            break
        time.sleep(0.05)
    stop.set()
    for thread in workers:
        thread.join(timeout=15)
    for backend in backends:
        backend.channel.close()

    report = {
        "seconds": round(time.monotonic() - started, 1),
        "answered": {b.address: answered[b.address] for b in backends},
        "drained": {b.address: drained[b.address] for b in backends},
        "failed": len(failures),
        "failures": failures[:20],
        "loops_without_a_serving_backend": sum(waits.values()),
        "health": {b.address: b.states for b in backends},
    }
    print(json.dumps(report, indent=1))
    return 0 if not failures and all(answered[b.address] for b in backends) else 1


if __name__ == "__main__":
    sys.exit(main())
