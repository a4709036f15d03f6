#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz targets into fuzz/seeds/<target>/ (run from fuzz/).

The protobuf seeds are encoded by hand here (varints and length-delimited fields only), so
this needs nothing but Python 3. The seeds are small on purpose: libFuzzer grows its own
corpus from them.
"""
import json
import os


def varint(n):
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def vint(field, n):
    return varint(field << 3) + varint(n) if n else b""


def ld(field, payload):
    return varint(field << 3 | 2) + varint(len(payload)) + payload


def packed(field, values):
    return ld(field, b"".join(varint(v) for v in values)) if values else b""


def meld(kind, tiles, claimed_from=0, promoted=False):
    return vint(1, kind) + packed(2, tiles) + vint(3, claimed_from) + vint(4, int(promoted))


def hand(melds, standing, winning):
    return b"".join(ld(1, m) for m in melds) + packed(2, standing) + vint(3, winning)


def context(self_drawn=False, seat=0, prevalent=0, flowers=0, last_tile=False):
    return vint(1, int(self_drawn)) + vint(4, int(last_tile)) + vint(6, seat) + vint(7, prevalent) + vint(8, flowers)


def score_request(hand_bytes=None, notation=None, ctx=None, ruleset=0, view=0):
    out = b""
    if notation is not None:
        out += ld(1, notation.encode())
    if hand_bytes is not None:
        out += ld(2, hand_bytes)
    if ctx is not None:
        out += ld(3, ctx)
    return out + vint(4, ruleset) + vint(5, view)


def write(target, name, data):
    os.makedirs(f"seeds/{target}", exist_ok=True)
    with open(f"seeds/{target}/{name}", "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


# notation
for i, text in enumerate([
    "[123m][789m][123p]55s89p7p",
    "[SSS2][456s][111s3][789s]6s6s",
    "[5555p5][1111m]234s99sEEE9s",
    "19m19p19sESWNCFP1m",
    "1122m3344p5566s7s7s",
    "147m258p369sESWC F",
    "[123m] 456m 234p 67s 55p 8s",
    "123x",
]):
    write("notation", f"{i:02}", text)

# fast_request: selector byte (even: ScoreHandRequest, odd: batch), then the message.
clean = score_request(
    hand([meld(2, [5, 5, 5], 2), meld(1, [10, 11, 12])], [19, 20, 21, 28, 28, 28, 31], 31),
    ctx=context(True, 2, 1, 2), ruleset=2, view=1)
seven = score_request(hand([], [1, 1, 3, 3, 5, 5, 12, 12, 14, 14, 30, 30, 33], 33), view=2)
notation = score_request(notation="[123m][789m][123p]55s89p7p", ctx=context(seat=3))
bad = score_request(hand([meld(9, [1, 2, 99], 7)], [1, 2, 3], 40), ruleset=9)
singles = [clean, seven, notation, bad, b""]
for i, r in enumerate(singles):
    write("fast_request", f"single{i}", b"\x00" + r)
write("fast_request", "batch0", b"\x01" + b"".join(ld(1, r) for r in singles) + vint(2, 1) + vint(3, 2))
write("fast_request", "batch1", b"\x03" + ld(1, clean) + ld(1, clean) + vint(3, 1))
write("fast_request", "batch2", b"\x05" + ld(1, seven) + ld(1, bad) + vint(2, 7))

# fast_response: arbitrary bytes, read by `arbitrary` into shapes.
for i in range(4):
    write("fast_response", f"{i:02}", bytes((i * 37 + j * 11) % 256 for j in range(64)))

# cli_json: selector byte (0 score --jsonl, 1 analyze --jsonl, 2-7 one-shot requests).
score_lines = "\n".join([
    '{"notation": "[123m][789m][123p]55s89p7p", "context": {"selfDrawn": true}}',
    "",
    '{"hand": {"standingTiles": [1, 2, 3], "winningTile": 99}, "ruleset": "RULESET_MIL"}',
    '{"notation": "[123m]456m234p67s55p8s", "ruleset": "RULESET_GREEN_BOOK_2006", "view": "SCORE_VIEW_FULL"}',
    '{"notation": "123m", "bogus": true}',
    "not json",
]) + "\n"
write("cli_json", "score", "\x00" + score_lines)
write("cli_json", "analyze", "\x01" + "\n".join([
    '{"notation": "[123m][789m][123p]55s89p", "visibleTiles": ["TILE_7P", 3]}',
    '{"hand": {"standingTiles": [1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 20]}, "view": "SCORE_VIEW_FULL"}',
    "   ",
    '{"notation": "19m19p19sESWNCFP"}',
]))
write("cli_json", "score_one", "\x02" + '{"notation": "[SSS2][456s][111s3][789s]6s6s", "context": {"seatWind": "WIND_SOUTH", "prevalentWind": "WIND_SOUTH"}}')
write("cli_json", "validate", "\x03" + '{"hand": {"melds": [{"kind": "MELD_KIND_PUNG", "tiles": [5, 5, 5], "claimedFrom": "CLAIM_SOURCE_OPPOSITE"}], "standingTiles": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], "winningTile": 10}}')
write("cli_json", "analyze_one", "\x04" + '{"notation": "1122m3344p5566s7s"}')
write("cli_json", "settle", "\x05" + json.dumps({
    "end": "HAND_END_DISCARD", "winner": "SEAT_SOUTH", "discarder": "SEAT_WEST",
    "fanCount": {"fanTotal": 12, "flowerCount": 1},
    "penalties": [{"offender": "SEAT_EAST", "infraction": "INFRACTION_WRONG_CHOW"}],
    "ruleset": "RULESET_MIL"}))
write("cli_json", "penalty", "\x06" + '{"offences": [{"offender": "SEAT_EAST", "infraction": "INFRACTION_NAMING_DISCARD", "points": 5}], "occurrence": 2}')
write("cli_json", "standings", "\x07" + json.dumps({"players": [
    {"name": "A", "sessions": [{"handResults": [10, -8, 32], "lateMinutes": 3}]},
    {"name": "B", "sessions": [{"handResults": [-8, 40, -8]}]},
    {"name": "C", "sessions": [{"handResults": [-2, -16, -8]}]},
    {"name": "D", "sessions": [{"handResults": [0, -16, -16]}]}]}))

# accounting: selector byte (0 SettleHand, 1 AdjudicatePenalty, 2 ComputeStandings).
def penalty(offender, infraction, points=0, victim=0, tiles=(), late=0):
    return vint(1, offender) + vint(2, infraction) + packed(3, list(tiles)) + vint(5, victim) + vint(6, points) + vint(10, late)

fan_count = vint(1, 12) + vint(2, 1)
winning_hand = ld(1, b"[123m][789m][123p]55s89p7p") + ld(3, context(seat=2))
write("accounting", "settle_discard", b"\x00" + vint(1, 2) + vint(2, 2) + vint(3, 3) + ld(5, fan_count) + vint(8, 2))
write("accounting", "settle_self", b"\x00" + vint(1, 1) + vint(2, 4) + ld(6, winning_hand) + ld(7, penalty(1, 2)) + ld(7, penalty(3, 5, 10, 2)))
write("accounting", "settle_claims", b"\x00" + vint(1, 2) + vint(3, 1) + packed(4, [2, 4]) + ld(5, fan_count))
write("accounting", "settle_draw", b"\x00" + vint(1, 4) + ld(7, penalty(2, 3)))
write("accounting", "penalty", b"\x01" + ld(1, penalty(1, 2)) + ld(1, penalty(1, 2)) + vint(2, 1) + vint(4, 1))
declared = vint(1, 2) + vint(2, 2) + vint(3, 1) + ld(4, winning_hand)
write("accounting", "declared", b"\x01" + ld(3, declared) + vint(4, 3))
session = lambda results, late=0, table=0: packed(1, results) + vint(2, late) + vint(3, table)
players = b"".join(ld(1, ld(1, name.encode()) + ld(2, session(r, late, 1))) for name, r, late in [
    ("A", [10, -8, 32], 3), ("B", [-8, 40, -8], 0), ("C", [-2, -16, -8], 0), ("D", [0, -16, -16], 20)])
write("accounting", "standings", b"\x02" + players + vint(2, 1))
write("accounting", "standings_4210", b"\x02" + players + vint(2, 2) + vint(3, 2))

# replay: whole matches of the public replay corpus in Botzone's text: a win on a discard, a
# draw game, a claim with an overridden one, a kong, and a mutated match.
with open("../tests/data/replay-public.txt", encoding="utf-8") as f:
    blocks = f.read().strip().split("\n\n")
picked = [blocks[0], blocks[1]]
picked += [next(b for b in blocks if " Ignore " in b)]
picked += [next(b for b in blocks if " BuGang " in b)]
picked += [next(b for b in blocks if " AnGang " in b)]
picked += [blocks[2]]
# The first byte chooses the form: 0 Botzone's text to the engine, 1 a ReplayHandRequest.
for i, block in enumerate(picked):
    write("replay", f"{i:02}", b"\x00" + (block + "\n").encode())
write("replay", "two", b"\x00" + ("\n\n".join(picked[:2]) + "\n").encode())
for i, block in enumerate(picked[:3]):
    write("replay", f"request{i}", b"\x01" + ld(2, block.encode()) + vint(5, 1))

# replay, selectors 2 and 3: a seat's view (South offered East's 1m) and claims on it.
south = (vint(1, 2) + packed(3, [1, 1, 11, 12, 13, 14, 15, 16, 25, 26, 27, 23, 28])
         + packed(6, [1]) + ld(10, vint(1, 1) + vint(2, 1)) + vint(12, 40))
write("replay", "actions", b"\x02" + ld(1, south) + vint(2, 2) + vint(4, 1))
claim = lambda seat, action, view=b"": vint(1, seat) + vint(2, action) + vint(3, 1) + (ld(4, view) if view else b"")
write("replay", "claims", b"\x03" + ld(1, vint(1, 1) + vint(2, 1)) + ld(3, claim(2, 5, south)) + ld(3, claim(4, 9)) + ld(3, claim(3, 9)))

# next: hands of the public next-line corpus cut at random. The first byte chooses the wall
# (0 shared, 1 shared-144, 2 Botzone's; +0x80 a seed from the text's first 32 bytes), the
# second where each record is cut (a fraction of its events, 255 the whole).
with open("../tests/data/next-public.txt", encoding="utf-8") as f:
    cuts = f.read().strip().split("\n\n")
picked = [cuts[0], next(b for b in cuts if " BuGang " in b)]
picked += [next(b for b in cuts if b.rstrip().endswith("Huang") and b not in picked)]
for i, block in enumerate(picked):
    write("next", f"{i:02}", b"\x00\xff" + (block + "\n").encode())
write("next", "half", b"\x00\x80" + (picked[0] + "\n").encode())
write("next", "botzone", b"\x02\xc0" + (picked[1] + "\n").encode())

# replay, selectors 4 and 5: NextActions on a record cut after its deal and on one in play
# (with call analysis), and DealHand on a 32-byte seed with the South wind.
write("replay", "next_actions", b"\x04" + ld(2, (picked[0] + "\n").encode()) + vint(6, 1))
write("replay", "next_deal", b"\x04" + ld(2, "\n".join(picked[1].split("\n")[:6]).encode() + b"\n"))
write("replay", "deal_hand", b"\x05" + ld(1, bytes(range(32))) + vint(2, 2))

# table: a 32-byte seed, then choices (seat byte, action number; a seat byte with the high
# bit set ends a step's choices). With none, each step takes every deciding seat's first
# legal action, so the hand plays to its end; one with a discard of each East tile tried,
# legal or not (numbers 0-33), and one claiming in every window (pungs, then wins).
write("table", "first_actions", bytes(range(32)))
write("table", "discards", bytes(32) + b"".join(bytes([0x80, n]) for n in range(34)))
write("table", "claims", bytes([7] * 32) + b"".join(bytes([s | 0x80 if s == 3 else s, 2 * 34 + n])
                                                  for n in range(34) for s in range(4)))
