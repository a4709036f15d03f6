"""Writes the corpus hands in the reference driver's input format (see driver.cpp).

    python3 hands.py score   tests/data/public.jsonl          > score-hands.txt
    python3 hands.py shanten tests/data/analysis-public.jsonl > shanten-hands.txt

`score`: every case that expects a score (no `error`), as the `score_corpus` example loads
them; `shanten`: every waiting (13-tile) case, as `analyze/shanten` and the `shanten_corpus`
example take them. Tiles and packs in the reference's encoding: suits 1 characters (W),
2 bamboo (T), 3 dots (B), 4 honours (F1-F4 winds, J1-J3 red, green, white dragons); a pack
is offer << 12 | type << 8 | tile, a chow named by its middle tile.
"""

import json
import sys

SUIT = {"W": 0x10, "T": 0x20, "B": 0x30, "F": 0x40}
PACK_TYPE = {"chow": 1, "pung": 2, "kong": 3, "concealed_kong": 3}


def tile(code):
    if code[0] == "J":
        return 0x44 + int(code[1:])
    return SUIT[code[0]] + int(code[1:])


def hand(case):
    fields = [len(case["melds"])]
    for meld in case["melds"]:
        tiles = sorted(tile(t) for t in meld["tiles"])
        offer = 0 if meld["kind"] == "concealed_kong" else meld["claimed_from"]
        named = tiles[1] if meld["kind"] == "chow" else tiles[0]
        fields.append(offer << 12 | PACK_TYPE[meld["kind"]] << 8 | named)
    fields.append(len(case["concealed"]))
    fields += [tile(t) for t in case["concealed"]]
    return fields


def flags(case):
    return (
        case["self_drawn"] * 1
        + case["fourth_tile"] * 2
        + case["kong_related"] * 4
        + case["last_tile"] * 8
    )


def main(mode, path):
    with open(path, encoding="utf-8") as corpus:
        cases = [json.loads(line) for line in corpus if line.strip()]
    for case in cases:
        if mode == "score" and "error" not in case["expected"]:
            fields = hand(case) + [
                tile(case["win_tile"]),
                flags(case),
                case["flowers"],
                case["prevalent_wind"],
                case["seat_wind"],
            ]
        elif mode == "shanten" and case["kind"] == "waiting":
            fields = hand(case)
        else:
            continue
        print(" ".join(str(v) for v in fields))


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("score", "shanten"):
        sys.exit("usage: hands.py score|shanten CORPUS.jsonl")
    main(sys.argv[1], sys.argv[2])
