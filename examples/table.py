#!/usr/bin/env python3
"""A whole MCR table run through the referee's API alone: four random bots and no rules code.

The game server below keeps nothing but the hand's log (a `HandRecord`); after every event it
asks the referee what may come next (`NextActions`) and lets the bots choose among what it
offers. Usage:

    pip install grpcio grpcio-tools protobuf
    python3 examples/table.py --addr 127.0.0.1:50051 --hands 200

For each hand:
1. `DealHand` from a fresh 32-byte seed: the deal, the wall and the commitment SHA-256(seed),
   which a real table publishes before the hand (and reveals the seed after it);
2. `NextActions` after every event: the phase, each seat's legal actions, the next draw with
   its tile (the seed makes the wall known);
3. on a tile on offer, each seat with a decision claims or passes at random, and
   `ArbitrateClaims` says whose claim stands (the others go into the log as overridden);
4. at the end, `ReplayHand` with the seed must find nothing: every event was legal and every
   draw the seed's.

Exits 0 when every hand replays without a finding; prints the outcomes and the calls per
second. The stubs are generated from proto/ into a temporary folder (grpc_tools).
"""

from __future__ import annotations

import argparse
import collections
import glob
import importlib
import os
import random
import subprocess
import sys
import tempfile
import time

import grpc


def generate(proto_dir: str, out_dir: str):
    """The Python messages and stub of proto/, generated into out_dir and imported."""
    protos = sorted(glob.glob(os.path.join(proto_dir, "mahjong", "v1", "*.proto")))
    command = [sys.executable, "-m", "grpc_tools.protoc", f"-I{proto_dir}",
               f"--python_out={out_dir}", f"--grpc_python_out={out_dir}", *protos]
    subprocess.run(command, check=True)
    sys.path.insert(0, out_dir)
    pb = importlib.import_module("mahjong.v1.play_pb2")
    service = importlib.import_module("mahjong.v1.mahjong_service_pb2_grpc")
    return pb, service.MahjongServiceStub


class Table:
    """One hand: the log, and the calls that move it on."""

    def __init__(self, pb, stub, rng: random.Random):
        self.pb, self.stub, self.rng = pb, stub, rng
        self.seed = rng.randbytes(32)
        dealt = stub.DealHand(pb.DealHandRequest(seed=self.seed))
        self.commitment = dealt.commitment
        # The log: the deal, then one event at a time. The wall stays out of it: the seed is
        # enough for the referee to know every draw.
        self.record = pb.HandRecord(prevalent_wind=dealt.prevalent_wind, deal=dealt.deal)
        self.calls = 1

    def next_actions(self):
        self.calls += 1
        return self.stub.NextActions(
            self.pb.NextActionsRequest(structured=self.record, seed=self.seed))

    def append(self, seat, action, tile=0, flower=0, overridden=()):
        self.record.events.append(self.pb.PlayEvent(
            seat=seat, action=action, tile=tile, flower=flower, overridden=list(overridden)))

    def play(self) -> "Result":
        pb = self.pb
        while True:
            now = self.next_actions()
            if now.phase == pb.NEXT_PHASE_OVER:
                return self.finish(now)
            if now.phase == pb.NEXT_PHASE_DRAW:
                self.follow(now.next_draw)
            elif now.phase == pb.NEXT_PHASE_ACT:
                (decision,) = now.decisions
                option = self.choose(decision.actions)
                self.append(decision.seat, option.action, option.tile, option.flower)
            elif now.phase == pb.NEXT_PHASE_CLAIM:
                self.claims(now)
            else:
                raise RuntimeError(f"unexpected phase {now.phase}")

    def choose(self, options):
        """A win when one is offered (each comes scored, above the minimum), else any option."""
        wins = [o for o in options if o.action == self.pb.PLAY_ACTION_WIN]
        return wins[0] if wins else self.rng.choice(options)

    def follow(self, draw):
        """The draw the referee names, or the draw game when the wall is empty."""
        if draw.draw_game:
            self.record.draw_game = True
        else:
            self.append(draw.seat, self.pb.PLAY_ACTION_DRAW, draw.tile, draw.flower)

    def claims(self, now):
        """Each seat with a decision claims (an action it was offered) or passes; the claims
        are arbitrated; with none, the play goes on as the referee says it does."""
        pb = self.pb
        made = []
        for decision in now.decisions:
            option = self.choose(decision.actions)
            if option.action == pb.PLAY_ACTION_WIN or self.rng.random() < 0.5:
                made.append(pb.ClaimToArbitrate(
                    seat=decision.seat, action=option.action, tile=option.tile))
        if not made:
            self.follow(now.next_draw)
            return
        offered = self.record.events[-1]
        offer = pb.OfferedTile(tile=offered.tile, **{"from": offered.seat})
        if offered.action == pb.PLAY_ACTION_ADDED_KONG:
            request = pb.ArbitrateClaimsRequest(added_kong=offer, claims=made)
        else:
            request = pb.ArbitrateClaimsRequest(discard=offer, claims=made)
        self.calls += 1
        ruling = self.stub.ArbitrateClaims(request)
        if not ruling.HasField("stands"):
            raise RuntimeError(f"no claim stands among legal ones: {ruling}")
        stands = made[ruling.stands]
        overridden = [pb.OverriddenClaim(seat=made[i].seat, action=made[i].action,
                                         tile=made[i].tile) for i in ruling.overridden]
        self.append(stands.seat, stands.action, stands.tile, overridden=overridden)

    def finish(self, now) -> "Result":
        """The whole log replayed with the seed: it must find nothing."""
        self.calls += 1
        replay = self.stub.ReplayHand(
            self.pb.ReplayHandRequest(structured=self.record, seed=self.seed))
        findings = [f"{f.code}: {f.message}" for f in replay.findings]
        return Result(outcome=self.pb.ReplayOutcome.Name(replay.outcome),
                      events=len(self.record.events), calls=self.calls, findings=findings,
                      commitment=self.commitment)


Result = collections.namedtuple("Result", "outcome events calls findings commitment")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--addr", default="127.0.0.1:50051", help="the referee's gRPC address")
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--random-seed", type=int, default=1, help="the bots' choices")
    parser.add_argument("--proto", default=os.path.join(os.path.dirname(__file__), "..", "proto"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as out:
        pb, stub_class = generate(args.proto, out)
        stub = stub_class(grpc.insecure_channel(args.addr))
        rng = random.Random(args.random_seed)
        outcomes = collections.Counter()
        calls = 0
        failed = 0
        started = time.monotonic()
        for hand in range(args.hands):
            result = Table(pb, stub, rng).play()
            outcomes[result.outcome] += 1
            calls += result.calls
            if result.findings:
                failed += 1
                print(f"hand {hand} ({result.commitment}): {result.findings}", file=sys.stderr)
        seconds = time.monotonic() - started
        print(f"{args.hands} hands, {calls} calls in {seconds:.1f} s "
              f"({calls / seconds:.0f} calls/s): {dict(outcomes)}; {failed} with findings")
        return 1 if failed or args.hands == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
