"""The bundled variant corpus (data/variants/iss_fpuzzles.jsonl), read once for every test: its records, by
line and by name, and a record's solution as digits."""

from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data" / "variants" / "iss_fpuzzles.jsonl"
#: One dict per corpus line (``RECORDS[n - 1]`` is data line n).
RECORDS = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
#: The records by their ``name`` field (the corpus' names are unique).
BY_NAME = {rec["name"]: rec for rec in RECORDS}


def solution_of(rec) -> list[int]:
    """The record's solution, one digit per cell (base 36: 16x16 grids write 10-16 as letters)."""
    return [int(ch, 36) for ch in rec["solution"]]
