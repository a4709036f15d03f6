"""Random legal hands at an in-process table (the Python package mahjong-mcr), each log
replayed with its seed and found legal.

    pip install ./crates/mcr-py
    python3 examples/random_table.py --hands 100

Four random players that know no rule choose among what ``Table.legal()`` offers (a win when
one is offered; in a claim window each seat claims half the time). After each hand the
table's log, in Botzone's line format, is replayed with the seed: it must find nothing and
end as the table says. Prints the outcomes and the steps per second; exits 1 on a finding.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time

import mahjong_mcr


def play(table: mahjong_mcr.Table, rng: random.Random) -> int:
    """Plays the hand to its end; the number of steps."""
    steps = 0
    while table.phase != "over":
        choice: dict[int, mahjong_mcr.Action] = {}
        for seat, actions in table.legal().items():
            wins = [a for a in actions if a.kind == "win"]
            if wins:
                choice[seat] = wins[0]
            elif table.phase == "act" or rng.random() < 0.5:
                choice[seat] = rng.choice(actions)
        table.step(choice)
        steps += 1
    return steps


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--random-seed", type=int, default=1, help="the seeds and the choices")
    args = parser.parse_args()
    rng = random.Random(args.random_seed)
    outcomes: collections.Counter[str] = collections.Counter()
    steps, failed = 0, 0
    started = time.perf_counter()
    for hand in range(args.hands):
        seed = rng.randbytes(32)
        table = mahjong_mcr.Table(seed, wind="ESWN"[hand % 4])
        steps += play(table, rng)
        result = table.result()
        replayed = mahjong_mcr.replay(table.log(f"hand-{hand}"), seed=seed)
        if not replayed.legal or result is None or replayed.points != result.points:
            failed += 1
            print(f"hand {hand} ({table.commitment}): {replayed.findings}", file=sys.stderr)
        outcomes["win" if result and result.winner is not None else "draw game"] += 1
    seconds = time.perf_counter() - started
    print(f"{args.hands} hands, {steps} steps in {seconds:.2f} s ({steps / seconds:,.0f} steps/s, "
          f"replays included): {dict(outcomes)}; {failed} with findings")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
