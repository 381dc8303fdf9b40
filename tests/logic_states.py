"""States met along logical solving paths, shared by the tests of the logic kernels (each kernel is tested
against its plain Python reference on these states; the fixtures are in ``conftest.py``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sudokit.formats import parse_grid
from sudokit.geometry import from_name
from sudokit.logic.explain import next_step
from sudokit.logic.registry import applicable
from sudokit.logic.state import State

DATA = Path(__file__).resolve().parents[1] / "data"


def lines(name: str) -> list[str]:
    return (DATA / name).read_text().split()


def path_states(grid, every: int = 3, most: int = 12) -> list[State]:
    """States met along the logical path of ``grid`` (every ``every``-th step, at most ``most``)."""
    state = State.from_grid(grid)
    techniques = applicable(state)
    out = []
    for i in range(200):
        if state.is_solved() or len(out) >= most:
            break
        if i % every == 0:
            out.append(state.copy())
        step = next_step(state, techniques)
        if step is None:
            break
        state.apply(step)
    return out


def hard_states() -> list[State]:
    """A few states on the paths of five top1465 puzzles."""
    out = []
    for p in lines("top1465.txt")[:60:12]:
        out += path_states(parse_grid(p), every=4, most=8)
    return out


def variant_states() -> list[State]:
    """States of a diagonal, a 16x16 and a 4x4 puzzle."""
    diagonal = from_name("diagonal")
    out = path_states(parse_grid(lines("xsudoku9.txt")[0], geometry=diagonal), every=5, most=4)
    out += path_states(parse_grid(lines("sudoku16_vu.txt")[0]), every=40, most=3)
    out += path_states(parse_grid(lines("sudoku4_vu.txt")[0]), every=1, most=3)
    return out


def loop_states(hard: list[State], variant: list[State]) -> list[State]:
    """``hard`` and ``variant`` plus every state on a few top1465 paths (where loops and chains exist)."""
    out = list(hard + variant)
    for p in lines("top1465.txt")[1:400:23]:
        out += path_states(parse_grid(p), every=1, most=150)
    return out


def fresh(state: State) -> State:
    """A copy of ``state`` with nothing computed yet (an empty memo)."""
    return State(state.g, state.values[:], state.cands[:])


def words_of(values: list[int], total: int) -> np.ndarray:
    """Python int bitsets as rows of 64-bit words, lowest first (plainly, through bytes)."""
    n_words = (total + 63) // 64
    raw = b"".join(v.to_bytes(n_words * 8, "little") for v in values)
    return np.frombuffer(raw, dtype=np.uint64).reshape(len(values), n_words)
