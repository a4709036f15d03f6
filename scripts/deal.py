#!/usr/bin/env python3
"""The seeded deal of docs/deal.md, written from the text alone (standard library only), for
anyone who wants to check a hand dealt by the referee.

Usage: `scripts/deal.py SEED_HEX [WIND]` prints the same JSON object as
`mahjong-referee deal --seed SEED_HEX --json` (WIND 0-3, default 0).
"""

import hashlib
import json
import struct
import sys

CODES = (
    [f"W{r}" for r in range(1, 10)]
    + [f"B{r}" for r in range(1, 10)]
    + [f"T{r}" for r in range(1, 10)]
    + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
)


def words(seed: bytes):
    i = 0
    while True:
        block = hashlib.sha256(seed + struct.pack(">Q", i)).digest()
        yield from struct.unpack(">8I", block)
        i += 1


def deal(seed: bytes):
    stream = words(seed)

    def uniform(n):
        while True:
            x = next(stream)
            if x < 2**32 - (2**32 % n):
                return x % n

    t = [CODES[k // 4] for k in range(136)]
    for i in range(135, 0, -1):
        j = uniform(i + 1)
        t[i], t[j] = t[j], t[i]
    return [t[13 * s : 13 * s + 13] for s in range(4)], t[52:]


def main():
    seed = bytes.fromhex(sys.argv[1])
    assert len(seed) == 32, "a seed is 32 bytes (64 hex digits)"
    wind = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    hands, wall = deal(seed)
    print(
        json.dumps(
            {
                "commitment": hashlib.sha256(seed).hexdigest(),
                "wind": wind,
                "deal": hands,
                "wall": wall,
            },
            separators=(",", ":"),
        )
    )


if __name__ == "__main__":
    main()
