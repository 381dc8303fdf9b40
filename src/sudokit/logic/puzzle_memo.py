"""Work kept across the states of one puzzle: what depends on the puzzle's geometry and constraints only, or
on them and the placed cells, and not on the candidates.

``State.memo`` is emptied by every step, so a row that rebuilds its sums, regions or combinations from the
constraints did so after every step of a walk, though most steps only remove candidates. Here such work is
kept per puzzle: the puzzle is its geometry and its constraints tuple, told apart by identity (a state's
copies share both; the memo holds a reference to each, so no other object can take their identity while it
is kept), and within a puzzle per set of placed cells when asked (:func:`placed_memo`). A few puzzles are
kept (:data:`PUZZLES`), a few sets of placed cells each (:data:`PLACED`): a walk moves forward, so the last
ones are those asked for again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from sudokit.logic.state import State

#: Puzzles whose work is kept (the one asked for longest ago forgotten first).
PUZZLES = 4
#: Sets of placed cells kept per puzzle and kind of work.
PLACED = 2

T = TypeVar("T")

_PUZZLES: dict[tuple[int, int], tuple[Any, Any, dict[Any, Any]]] = {}


def puzzle_memo(state: State) -> dict[Any, Any]:
    """A dict shared by every state of ``state``'s puzzle (same geometry and constraints objects): for work
    that depends on them only (string keys; :func:`placed_memo` keeps its own under tuple keys)."""
    key = (id(state.g), id(state.constraints))
    slot = _PUZZLES.pop(key, None)  # put back last: the puzzle asked for longest ago is forgotten first
    if slot is None or slot[0] is not state.g or slot[1] is not state.constraints:
        if len(_PUZZLES) >= PUZZLES:
            del _PUZZLES[next(iter(_PUZZLES))]
        slot = (state.g, state.constraints, {})
    _PUZZLES[key] = slot
    return slot[2]


def placed_memo(state: State, kind: str) -> dict[str, Any]:
    """A dict shared by the states of ``state``'s puzzle with the same placed cells (values), one per ``kind``
    of work: for work that depends on the puzzle and its placed cells, not on the candidates."""
    by_values: dict[tuple[int, ...], dict[str, Any]] = puzzle_memo(state).setdefault(("placed", kind), {})
    key = tuple(state.values)
    found = by_values.get(key)
    if found is None:
        if len(by_values) >= PLACED:
            del by_values[next(iter(by_values))]
        found = by_values[key] = {}
    return found


def kept(state: State, key: str, make: Callable[[], T]) -> T:
    """``make()``, made once for ``state``'s puzzle under ``key`` (work that depends on the puzzle only)."""
    memo = puzzle_memo(state)
    found = memo.get(key)
    if found is None:
        found = memo[key] = make()
    return found
