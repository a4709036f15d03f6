"""The service's calls in-process: each function builds the service's request (proto3 JSON),
runs it through the very handler the gRPC server runs (``_mcr.call_json``), and reads the
response into a typed result whose ``to_dict()`` is that response.

Tiles are Botzone's codes (``W1`` characters, ``B1`` dots, ``T1`` bamboo, ``F1``-``F4``
winds, ``J1``-``J3`` red, green, white); seats 0-3, East first; winds ``E S W N``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Sequence, Union

from . import _mcr
from ._errors import McrError

JSON = dict[str, Any]

_CODE_OF: dict[str, str] = dict(_mcr.TILE_NAMES)
_NAME_OF: dict[str, str] = {code: name for name, code in _CODE_OF.items()}
_SEATS = ["SEAT_EAST", "SEAT_SOUTH", "SEAT_WEST", "SEAT_NORTH"]


def _code(name: Optional[str]) -> Optional[str]:
    """A tile of the service's JSON (``TILE_5M``) as its code (``W5``)."""
    return _CODE_OF.get(name) if name else None


def _codes(names: Sequence[str]) -> list[str]:
    return [_CODE_OF[n] for n in names if n in _CODE_OF]


def _tile_name(code: str, where: str) -> str:
    try:
        return _NAME_OF[code]
    except KeyError:
        raise McrError(f"{where}: `{code}` is not a tile code", "TILE_UNKNOWN",
                       [("TILE_UNKNOWN", where, f"`{code}` is not a tile code")]) from None


def _wind(value: Union[str, int], where: str) -> str:
    letter = "ESWN"[value] if isinstance(value, int) and 0 <= value < 4 else str(value)[:1].upper()
    try:
        return str(_mcr.WIND_NAMES[letter])
    except KeyError:
        raise McrError(f"{where}: `{value}` is not a wind", "VALUE_INVALID",
                       [("VALUE_INVALID", where, "a wind is E, S, W, N or 0-3")]) from None


def _ruleset(name: str) -> str:
    try:
        return str(_mcr.RULESET_NAMES[name])
    except KeyError:
        raise McrError(f"ruleset: unknown ruleset `{name}`", "VALUE_INVALID",
                       [("VALUE_INVALID", "ruleset", f"unknown ruleset `{name}`")]) from None


def _seat(name: Optional[str]) -> Optional[int]:
    return _SEATS.index(name) if name in _SEATS else None


def _seat_name(seat: int) -> Union[str, int]:
    """A seat 0-3 as the service names it; any other number as given, for the service to
    refuse at its field."""
    return _SEATS[seat] if 0 <= seat < 4 else seat


def call(method: str, request: Mapping[str, Any]) -> JSON:
    """Any call of the service by its name (``AnalyzeHand``, ``SettleHand``,
    ``AdjudicatePenalty``, ``ComputeStandings``, ``ReplayHand``, ``NextActions``,
    ``LegalActions``, ``ArbitrateClaims``, ``DealHand``): the request and the response as
    the service's proto3 JSON. Raises :class:`McrError` as the service answers
    ``INVALID_ARGUMENT``."""
    return dict(json.loads(_mcr.call_json(method, json.dumps(request))))


def score_json(request: Mapping[str, Any]) -> JSON:
    """A ``ScoreHandRequest`` in, its ``ScoreHandResponse`` out, as
    ``mahjong-referee score --jsonl`` reads and writes them (an invalid hand is a response
    with ``OUTCOME_INVALID`` and its violations, not an error)."""
    return dict(json.loads(_mcr.score_json_text(json.dumps(request))))


def score_many(requests: Sequence[Mapping[str, Any]]) -> list[JSON]:
    """:func:`score_json` for each request, scored on every core with the GIL released."""
    lines = _mcr.score_many_json([json.dumps(r) for r in requests])
    return [json.loads(line) for line in lines]


def score_many_json(lines: Sequence[str]) -> list[str]:
    """:func:`score_many` on JSON text: each line a ``ScoreHandRequest``, each answer the line
    the command line writes for it (for callers that already hold JSON lines)."""
    return list(_mcr.score_many_json(list(lines)))


def _hand_request(hand: Union[str, Mapping[str, Any]]) -> JSON:
    return {"notation": hand} if isinstance(hand, str) else {"hand": dict(hand)}


def _rules(ruleset: str, overrides: Optional[Mapping[str, Any]]) -> JSON:
    out: JSON = {"ruleset": _ruleset(ruleset)}
    if overrides is not None:
        out["overrides"] = dict(overrides)
    return out


# --- analysis --------------------------------------------------------------------------

@dataclass(frozen=True)
class Wait:
    """A tile that completes the hand: copies left, and what a win on it scores."""

    tile: str
    remaining: int
    #: Every copy is in sight: no win can come.
    dead: bool
    #: The fan total of a win on a discard, and self-drawn (``None``: not a winning shape).
    on_discard: Optional[int]
    on_self_drawn: Optional[int]
    #: Whether the win reaches the minimum.
    wins_on_discard: bool
    wins_self_drawn: bool


@dataclass(frozen=True)
class DiscardOption:
    """A discard of a drawn hand and what it leaves."""

    tile: str
    shanten: int
    useful: list[tuple[str, int]]
    useful_count: int
    waits: list[Wait]
    winning_count: int


@dataclass(frozen=True)
class Analysis:
    """A hand in play analysed: the distance to ready per shape, useful tiles, the waits
    with their worth, and for a drawn hand each discard."""

    #: ``waiting`` (13 tiles) or ``drawn`` (14).
    state: str
    shanten: int
    #: Each shape's distance and useful tiles (``SHAPE_STANDARD``, ``SHAPE_SEVEN_PAIRS``…).
    shapes: dict[str, tuple[int, list[str]]]
    useful: list[tuple[str, int]]
    waits: list[Wait]
    discards: list[DiscardOption]
    ready_to_win: bool
    response: JSON = field(repr=False, compare=False)

    def to_dict(self) -> JSON:
        """The service's ``AnalyzeHandResponse``."""
        return self.response


def _total(sheet: Optional[Mapping[str, Any]]) -> Optional[int]:
    if not sheet or sheet.get("outcome") in (None, "OUTCOME_NOT_WINNING_SHAPE", "OUTCOME_INVALID"):
        return None
    return int(sheet.get("fanTotal", 0))


def _useful(items: Sequence[Mapping[str, Any]]) -> list[tuple[str, int]]:
    return [(_CODE_OF[u["tile"]], int(u.get("remaining", 0))) for u in items]


def _waits(items: Sequence[Mapping[str, Any]]) -> list[Wait]:
    return [Wait(tile=_CODE_OF[w["tile"]], remaining=int(w.get("remaining", 0)),
                 dead=bool(w.get("dead", False)), on_discard=_total(w.get("onDiscard")),
                 on_self_drawn=_total(w.get("onSelfDrawn")),
                 wins_on_discard=bool(w.get("winsOnDiscard", False)),
                 wins_self_drawn=bool(w.get("winsSelfDrawn", False))) for w in items]


def analyze(hand: Union[str, Mapping[str, Any]], *, visible: Sequence[str] = (),
            seat_wind: Union[str, int] = "E", prevalent_wind: Union[str, int] = "E",
            flowers: int = 0, ruleset: str = "mil",
            overrides: Optional[Mapping[str, Any]] = None) -> Analysis:
    """Analyses a hand in play (13 tiles waiting, or 14 with the drawn tile last): notation,
    or the service's ``Hand`` as a dict. ``visible``: the tiles seen outside the hand."""
    request = {**_hand_request(hand), **_rules(ruleset, overrides),
               "context": {"seatWind": _wind(seat_wind, "seat_wind"),
                           "prevalentWind": _wind(prevalent_wind, "prevalent_wind"),
                           "flowerCount": flowers},
               "visibleTiles": [_tile_name(t, f"visible[{i}]") for i, t in enumerate(visible)]}
    response = call("AnalyzeHand", request)
    return Analysis(
        state="waiting" if response.get("state") == "HAND_STATE_WAITING" else "drawn",
        shanten=int(response.get("shanten", 0)),
        shapes={s["shape"]: (int(s.get("shanten", 0)), _codes(s.get("useful", [])))
                for s in response.get("shapes", [])},
        useful=_useful(response.get("useful", [])),
        waits=_waits(response.get("waits", [])),
        discards=[DiscardOption(tile=_CODE_OF[d["tile"]], shanten=int(d.get("shanten", 0)),
                                useful=_useful(d.get("useful", [])),
                                useful_count=int(d.get("usefulCount", 0)),
                                waits=_waits(d.get("waits", [])),
                                winning_count=int(d.get("winningCount", 0)))
                  for d in response.get("discards", [])],
        ready_to_win=bool(response.get("readyToWin", False)),
        response=response)


# --- settlement ------------------------------------------------------------------------

_ENDS = {"self_drawn": "HAND_END_SELF_DRAWN", "discard": "HAND_END_DISCARD",
         "robbing_kong": "HAND_END_ROBBING_KONG", "draw_game": "HAND_END_DRAW_GAME"}


@dataclass(frozen=True)
class Settlement:
    """A hand settled: each seat's net points, and the rulings on its offences."""

    #: Each seat's net points, East first (they sum to zero).
    points: list[int]
    #: ``HAND_OUTCOME_WIN``, ``HAND_OUTCOME_FALSE_DECLARATION``…
    outcome: str
    #: What the winner is paid by each loser besides the base points.
    basic_points: int
    response: JSON = field(repr=False, compare=False)

    def to_dict(self) -> JSON:
        """The service's ``SettleHandResponse``."""
        return self.response


def settle(*, end: str, winner: Optional[int] = None, discarder: Optional[int] = None,
           fan: Optional[int] = None, flowers: int = 0,
           hand: Optional[Mapping[str, Any]] = None, claimants: Sequence[int] = (),
           penalties: Sequence[Mapping[str, Any]] = (), ruleset: str = "mil",
           overrides: Optional[Mapping[str, Any]] = None) -> Settlement:
    """Settles a hand. ``end``: ``self_drawn``, ``discard``, ``robbing_kong`` or
    ``draw_game``; the win's value as counted at the table (``fan``, ``flowers``) or the
    hand itself (``hand``: the service's ``WinningHand``, judged and scored here);
    ``penalties``: the service's ``Penalty`` messages."""
    if end not in _ENDS:
        raise McrError(f"end: `{end}` is not one of {sorted(_ENDS)}", "VALUE_INVALID",
                       [("VALUE_INVALID", "end", f"one of {sorted(_ENDS)}")])
    request: JSON = {"end": _ENDS[end], **_rules(ruleset, overrides),
                     "claimants": [_seat_name(s) for s in claimants],
                     "penalties": [dict(p) for p in penalties]}
    if winner is not None:
        request["winner"] = _seat_name(winner)
    if discarder is not None:
        request["discarder"] = _seat_name(discarder)
    if fan is not None:
        request["fanCount"] = {"fanTotal": fan, "flowerCount": flowers}
    if hand is not None:
        request["winningHand"] = dict(hand)
    response = call("SettleHand", request)
    deltas = {a["seat"]: int(a.get("delta", 0)) for a in response.get("accounts", [])}
    result = response.get("result", {})
    return Settlement(points=[deltas.get(s, 0) for s in _SEATS],
                      outcome=str(result.get("outcome", "HAND_OUTCOME_UNSPECIFIED")),
                      basic_points=int(result.get("basicPoints", 0)), response=response)


# --- replay ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Finding:
    """What the replay found at one place of the log."""

    code: str
    #: The log's line (Botzone text), or 0.
    line: int
    seat: Optional[int]
    message: str
    #: ``CONSEQUENCE_STOPS`` and the others: what the rules do.
    consequence: str


@dataclass(frozen=True)
class Replay:
    """A whole hand judged from its log."""

    #: ``REPLAY_OUTCOME_WIN``, ``REPLAY_OUTCOME_DRAW_GAME`` or ``REPLAY_OUTCOME_NO_RESULT``.
    outcome: str
    findings: list[Finding]
    winner: Optional[int]
    #: The win's fan total (flowers excluded); 0 without a win.
    fan: int
    #: Each seat's net points, East first; empty without a result.
    points: list[int]
    #: The circumstances the log shows (``selfDrawn``, ``kongReplacement``…).
    circumstances: dict[str, bool]
    response: JSON = field(repr=False, compare=False)

    @property
    def legal(self) -> bool:
        """No finding at all."""
        return not self.findings

    def to_dict(self) -> JSON:
        """The service's ``ReplayHandResponse``."""
        return self.response


def replay(record: Union[str, Mapping[str, Any]], *, wall: Optional[Sequence[str]] = None,
           seed: Optional[bytes] = None, ruleset: Optional[str] = None,
           overrides: Optional[Mapping[str, Any]] = None) -> Replay:
    """Replays a hand from its log: Botzone's text, or the service's ``HandRecord`` as a
    dict. ``wall``: the wall after the deal in drawing order (tile codes, ``H1``-``H8`` for
    flowers), for a structured record that does not carry it; the draws are then checked
    against it. With ``seed`` (32 bytes) the deal and every draw are checked against the
    seed's. The ruleset defaults to MIL for Botzone text."""
    if isinstance(record, str):
        if wall is not None:
            raise McrError("wall: Botzone text carries its own draws; give a wall with a "
                           "structured record", "VALUE_INVALID",
                           [("VALUE_INVALID", "wall", "only with a structured record")])
        request: JSON = {"botzoneText": record}
    else:
        structured = dict(record)
        if wall is not None:
            structured["wall"] = [
                {"flower": int(t[1:])} if t[:1] == "H" and t[1:].isdigit()
                else {"tile": _tile_name(t, f"wall[{i}]")} for i, t in enumerate(wall)]
        request = {"structured": structured}
    if ruleset is not None:
        request["ruleset"] = _ruleset(ruleset)
    if overrides is not None:
        request["overrides"] = dict(overrides)
    if seed is not None:
        import base64
        request["seed"] = base64.b64encode(seed).decode()
    response = call("ReplayHand", request)
    deltas = {a["seat"]: int(a.get("delta", 0)) for a in response.get("accounts", [])}
    score = response.get("score") or {}
    return Replay(
        outcome=str(response.get("outcome", "REPLAY_OUTCOME_UNSPECIFIED")),
        findings=[Finding(code=str(f.get("code", "")), line=int(f.get("line", 0)),
                          seat=_seat(f.get("seat")), message=str(f.get("message", "")),
                          consequence=str(f.get("consequence", "")))
                  for f in response.get("findings", [])],
        winner=_seat(response.get("winner")),
        fan=int(score.get("fanTotal", 0)),
        points=[deltas.get(s, 0) for s in _SEATS] if deltas else [],
        circumstances={k: bool(v) for k, v in (response.get("derived") or {}).items()},
        response=response)


# --- legal actions ---------------------------------------------------------------------

@dataclass(frozen=True)
class LegalAction:
    """An action a seat may take: its kind (``PLAY_ACTION_DISCARD``…), tile, and for a win
    its fan total."""

    action: str
    tile: Optional[str]
    flower: int
    #: For a win, the fan total (flowers excluded).
    fan: Optional[int]
    #: With ``call_analysis``, for a chow, pung or kong of a discard: the service's
    #: ``CallAnalysis`` (the hand it leaves, analysed).
    call: Optional[JSON] = field(repr=False, compare=False)


def legal_actions(view: Mapping[str, Any], *, ruleset: str = "mil",
                  overrides: Optional[Mapping[str, Any]] = None,
                  call_analysis: bool = False) -> list[LegalAction]:
    """Every legal action of one seat from its own view (the service's ``SeatView`` as a
    dict), wins first, each scored."""
    request = {"view": dict(view), **_rules(ruleset, overrides), "callAnalysis": call_analysis}
    response = call("LegalActions", request)
    return [LegalAction(action=str(o.get("action", "")), tile=_code(o.get("tile")),
                        flower=int(o.get("flower", 0)), fan=_total(o.get("win")),
                        call=o.get("call"))
            for o in response.get("actions", [])]
