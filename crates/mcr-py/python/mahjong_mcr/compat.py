"""PyMahjongGB 1.4.0's functions over this engine: ``from mahjong_mcr.compat import
MahjongFanCalculator`` where a bot had ``from MahjongGB import MahjongFanCalculator``.

The same signatures and result shapes; errors are :class:`CompatError`, a ``TypeError`` (as
PyMahjongGB raises) whose ``str()`` is PyMahjongGB's error code. Where the results differ,
it is a reading of the rules documented in docs/python.md ("Differences from PyMahjongGB").
"""

from ._errors import CompatError
from ._mcr import (
    HonorsAndKnittedTilesShanten,
    KnittedStraightShanten,
    MahjongFanCalculator,
    MahjongShanten,
    RegularShanten,
    SevenPairsShanten,
    ThirteenOrphansShanten,
)

__all__ = [
    "CompatError",
    "HonorsAndKnittedTilesShanten",
    "KnittedStraightShanten",
    "MahjongFanCalculator",
    "MahjongShanten",
    "RegularShanten",
    "SevenPairsShanten",
    "ThirteenOrphansShanten",
]
