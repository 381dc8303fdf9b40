"""Small helpers that write steps in plain English with the grid's own labels."""

from __future__ import annotations

from collections.abc import Iterable

from sudokit.logic.state import State


def cells(state: State, cs: Iterable[int]) -> str:
    """``C5, C8`` for a set of cells (in grid order)."""
    return ", ".join(state.label(s) for s in sorted(set(cs)))


def digit_set(ds: Iterable[int], state: State | None = None) -> str:
    """``{2,3}`` (in the board's symbols when ``state`` is given: ``{A,C}`` for 10 and 12 on 16x16)."""
    show = str if state is None else state.sym
    return "{" + ",".join(show(d) for d in sorted(set(ds))) + "}"


def and_list(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def removals(state: State, eliminations: list[tuple[int, int]]) -> str:
    """``remove 2 and 3 from C5, C8`` (grouped so that cells sharing the same digits read together)."""
    by_cells: dict[tuple[int, ...], list[int]] = {}
    by_digit: dict[int, list[int]] = {}
    for cell, d in eliminations:
        by_digit.setdefault(d, []).append(cell)
    for d, cs in sorted(by_digit.items()):
        by_cells.setdefault(tuple(sorted(set(cs))), []).append(d)
    parts = [f"{and_list([state.sym(d) for d in ds])} from {cells(state, cs)}" for cs, ds in by_cells.items()]
    return "remove " + "; ".join(parts)


def placements(state: State, places: list[tuple[int, int]]) -> str:
    """``place 4 in C5``."""
    return "; ".join(f"place {state.sym(d)} in {state.label(s)}" for s, d in places)
