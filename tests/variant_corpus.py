"""The bundled variant corpus (data/variants/iss_fpuzzles.jsonl), read once for every test: its records, by
line and by name, a record's solution as digits, and its walk by logic (taken once: several tests check it)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

DATA = Path(__file__).resolve().parent.parent / "data" / "variants" / "iss_fpuzzles.jsonl"
#: One dict per corpus line (``RECORDS[n - 1]`` is data line n).
RECORDS = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
#: The records by their ``name`` field (the corpus' names are unique).
BY_NAME = {rec["name"]: rec for rec in RECORDS}


def solution_of(rec) -> list[int]:
    """The record's solution, one digit per cell (base 36: 16x16 grids write 10-16 as letters)."""
    return [int(ch, 36) for ch in rec["solution"]]


def start_state(index: int):
    """``RECORDS[index]``'s logic state before any step."""
    from sudokit.formats.fpuzzles import read_fpuzzles
    from sudokit.logic.state import State

    return State.from_variant(read_fpuzzles(RECORDS[index]["fpuzzles"]))


class Walk(NamedTuple):
    """A bundled puzzle walked by logic: every step taken, in order, and the state after the last one (solved,
    or where every row is stuck). Shared by the tests that read it: copy the state before changing it."""

    steps: tuple[Any, ...]
    state: Any


@cache
def logic_walk(index: int) -> Walk:
    """``RECORDS[index]`` walked by logic without forcing chains (``next_step`` with every other row) until it is
    solved or stuck; taken once per test session (the walks of the bundled killers are the suite's costliest
    logic, and several tests check the same walk). A walk of more than 1,000 steps is a bug."""
    from sudokit.logic import registry
    from sudokit.logic.explain import next_step

    state = start_state(index)
    rows = registry.applicable(state, techniques=registry.technique_set(exclude="forcing chain"))
    steps = []
    while not state.is_solved() and (step := next_step(state, rows)) is not None:
        steps.append(step)
        state.apply(step)
        assert len(steps) <= 1000, RECORDS[index]["name"]
    return Walk(tuple(steps), state)
