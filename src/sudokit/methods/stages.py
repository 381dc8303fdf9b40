"""The three stages of a solve side by side, as the AC-3 seed prints them: original | after propagation | solution.

The middle board shows every unsolved cell's candidates, like the notebook's ``display``.
"""

from __future__ import annotations

from dataclasses import dataclass

from sudokit.errors import SudokitError
from sudokit.formats import display
from sudokit.grid import Candidates, Grid
from sudokit.result import Result


@dataclass
class Stages:
    """A puzzle, its candidates after the method's propagation (None on a contradiction), and the solve."""

    method: str
    puzzle: Grid
    propagated: Candidates | None
    result: Result


def stages(
    puzzle: Grid,
    method: str,
    *,
    limit: int = 2,
    time_limit: float | None = None,
    node_limit: int | None = None,
    trace: bool = False,
) -> Stages:
    """Propagate ``puzzle`` with ``method`` alone, then solve it with the method."""
    from sudokit.methods import PROPAGATORS, get

    solve = get(method)
    result = solve(puzzle, limit=limit, time_limit=time_limit, node_limit=node_limit, trace=trace)
    masks = None if puzzle.conflicts() else PROPAGATORS[method.lower()](puzzle)
    propagated = None if masks is None else Candidates(puzzle.geometry, tuple(masks))
    return Stages(method.lower(), puzzle, propagated, result)


def side_by_side(blocks: list[tuple[str, str]], gap: int = 4) -> str:
    """Lay out ``(title, text)`` blocks next to each other, each title over its block."""
    if not blocks:
        raise SudokitError("nothing to lay out")
    columns = []
    for title, text in blocks:
        lines = [title, "-" * len(title), *text.splitlines()]
        width = max(len(line) for line in lines)
        columns.append((lines, width))
    height = max(len(lines) for lines, _ in columns)
    rows = []
    for i in range(height):
        parts = [(lines[i] if i < len(lines) else "").ljust(width) for lines, width in columns]
        rows.append((" " * gap).join(parts).rstrip())
    return "\n".join(rows)


def format_stages(st: Stages, candidates: bool = True) -> str:
    """Original | after propagation (with candidates) | solution, as one block of text."""
    after_title = f"After propagation ({st.method})"
    if st.propagated is None:
        after = "contradiction: a cell or a unit\nhas no candidate left"
    elif candidates:
        after = display(st.propagated.to_grid(), st.propagated)
    else:
        after = display(st.propagated.to_grid())
    if st.result.solution is not None:
        solution = display(st.result.solution)
    else:
        solution = f"no solution shown:\n{st.result.status}" + (f"\n{st.result.message}" if st.result.message else "")
    return side_by_side([("Original puzzle", display(st.puzzle)), (after_title, after), ("Solution", solution)])
