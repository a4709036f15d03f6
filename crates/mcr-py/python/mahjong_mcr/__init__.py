"""mahjong_mcr: Chinese Official Mahjong (MCR) in-process.

The engine of the mahjong-referee service as a Python package: scoring with every fan, the
analysis of a hand in play, settlement, the replay of a whole hand from its log, the legal
actions of a seat, and a whole table (:class:`Table`) for bots. ``score_json`` and
``score_many`` take and return the service's own JSON. See docs/python.md.
"""

from ._api import (
    Analysis,
    DiscardOption,
    Finding,
    LegalAction,
    Replay,
    Settlement,
    Wait,
    analyze,
    call,
    legal_actions,
    replay,
    score_json,
    score_many,
    score_many_json,
    settle,
)
from ._errors import McrError, Violation
from ._mcr import (
    ACTION_SPACE,
    Action,
    Fan,
    Meld,
    Observation,
    PublicSeat,
    Score,
    Table,
    TableFan,
    TableResult,
    action_of_id,
    score,
)

__all__ = [
    "ACTION_SPACE",
    "Action",
    "Analysis",
    "DiscardOption",
    "Fan",
    "Finding",
    "LegalAction",
    "McrError",
    "Meld",
    "Observation",
    "PublicSeat",
    "Replay",
    "Score",
    "Settlement",
    "Table",
    "TableFan",
    "TableResult",
    "Violation",
    "Wait",
    "action_of_id",
    "analyze",
    "call",
    "legal_actions",
    "replay",
    "score",
    "score_json",
    "score_many",
    "score_many_json",
    "settle",
]
