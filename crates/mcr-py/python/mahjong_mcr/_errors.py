"""The errors of mahjong_mcr: raised by the extension module, defined here."""

from __future__ import annotations

from typing import NamedTuple


class Violation(NamedTuple):
    """One problem with the input: its stable code, the field path, and a sentence."""

    code: str
    field: str
    message: str


class McrError(ValueError):
    """Bad input, or a step the rules do not allow.

    ``code`` is the stable code the service gives (``TILE_UNKNOWN``, ``DISCARD_NOT_HELD``…),
    ``violations`` every problem found, each with its field path.
    """

    code: str
    violations: list[Violation]

    def __init__(self, message: str, code: str = "VALUE_INVALID",
                 violations: list[tuple[str, str, str]] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.violations = [Violation(*v) for v in (violations or [])]


class CompatError(McrError, TypeError):
    """An error of the PyMahjongGB-compatible functions: also a ``TypeError``, as
    PyMahjongGB raises, and its ``str()`` is PyMahjongGB's error code."""

    def __init__(self, code: str) -> None:
        super().__init__(code, code, [])
