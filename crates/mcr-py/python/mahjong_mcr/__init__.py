"""mahjong_mcr: Chinese Official Mahjong (MCR) in-process.

The engine of the mahjong-referee service as a Python package: scoring with every fan, the
analysis of a hand in play, settlement, the replay of a whole hand from its log, the legal
actions of a seat, and a whole table (:class:`Table`) for bots. ``score_json`` and
``score_many`` take and return the service's own JSON. See docs/python.md.
"""

from ._errors import McrError, Violation
from ._mcr import (
    ACTION_SPACE,
    Action,
    Meld,
    Observation,
    PublicSeat,
    Table,
    TableFan,
    TableResult,
    action_of_id,
)

__all__ = [
    "ACTION_SPACE",
    "Action",
    "McrError",
    "Meld",
    "Observation",
    "PublicSeat",
    "Table",
    "TableFan",
    "TableResult",
    "Violation",
    "action_of_id",
]
