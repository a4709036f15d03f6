"""Shared test data: the repository's own corpora (tests/data at the repository root)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[3] / "tests" / "data"


def jsonl(name: str) -> list[dict[str, Any]]:
    """Every object of a JSON-lines corpus."""
    with open(DATA / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]
