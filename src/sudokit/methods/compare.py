"""Run every method (and the fast engine, when present) over a puzzle set and tabulate what each did.

The table shows how stronger propagation shrinks search: the same puzzles, solved by methods that
propagate more or less, need fewer or more search nodes and backtracks.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from sudokit.grid import Grid
from sudokit.result import Result, Status


@dataclass
class Row:
    """What one solver did over a puzzle set."""

    name: str
    statuses: dict[str, int] = field(default_factory=dict)
    seconds: list[float] = field(default_factory=list)
    nodes: list[int] = field(default_factory=list)
    guesses: list[int] = field(default_factory=list)
    backtracks: list[int] = field(default_factory=list)
    wrong: int = 0  #: answers that disagree with a known solution or solution count

    def add(
        self, result: Result, known_count: int | None = None, known_solution: Grid | None = None, limit: int = 2
    ) -> None:
        """Count one result, checking it against what the file says when it says something."""
        self.statuses[str(result.status)] = self.statuses.get(str(result.status), 0) + 1
        self.seconds.append(result.stats.seconds)
        self.nodes.append(result.stats.nodes)
        self.guesses.append(result.stats.guesses)
        self.backtracks.append(result.stats.backtracks)
        if _disagrees(result, known_count, known_solution, limit):
            self.wrong += 1

    @property
    def puzzles(self) -> int:
        return len(self.seconds)

    def count(self, status: Status) -> int:
        return self.statuses.get(str(status), 0)


def _disagrees(result: Result, known_count: int | None, known_solution: Grid | None, limit: int) -> bool:
    """True when a finished result contradicts the file's solution count or solution."""
    if result.status in (Status.TIMEOUT, Status.INVALID):
        return False
    if known_count is not None:
        expected = min(known_count, limit)
        found = 0 if result.status == Status.NO_SOLUTION else result.count or 0
        if found != expected:
            return True
    unique = result.status == Status.SOLVED and limit >= 2
    return known_solution is not None and unique and result.solution != known_solution


def solvers(names: Iterable[str] | None = None, engine: bool = True) -> dict[str, Callable[..., Result]]:
    """The solvers to compare by name: the methods (all by default) and, with ``engine``, the fast engine."""
    from sudokit.methods import METHODS, get

    chosen = {name: get(name) for name in (names or METHODS)}
    if engine:
        from sudokit.engine.api import solve_compiled as engine_solve  # timed: the kernel, never the plain port

        chosen["engine"] = engine_solve
    return chosen


def compare(
    puzzles: Iterable[tuple[Grid, int | None, Grid | None]],
    chosen: dict[str, Callable[..., Result]],
    *,
    limit: int = 2,
    time_limit: float | None = None,
    node_limit: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[Row]:
    """Solve each ``(puzzle, known count or None, known solution or None)`` with every solver.

    The engine first solves the first puzzle once untimed, so its one-off compilation is not counted.
    """
    items = list(puzzles)
    rows = {name: Row(name) for name in chosen}
    if "engine" in chosen and items:
        chosen["engine"](items[0][0], limit=1, time_limit=time_limit)
    for i, (puzzle, known_count, known_solution) in enumerate(items):
        for name, solve in chosen.items():
            if name == "engine":  # the engine has no node limit, but stops at the time limit as the methods do
                result = solve(puzzle, limit=limit, time_limit=time_limit)
            else:
                result = solve(puzzle, limit=limit, time_limit=time_limit, node_limit=node_limit)
            rows[name].add(result, known_count, known_solution, limit)
        if progress is not None:
            progress(i + 1)
    return list(rows.values())


def format_table(rows: list[Row]) -> str:
    """The comparison as an aligned text table."""
    head = ["solver", "puzzles", "solved", "multiple", "none", "timeout", "wrong", "mean ms", "max ms",
            "mean nodes", "max nodes", "mean guesses", "mean backtracks"]  # fmt: skip
    table = [head]
    for r in rows:
        n = r.puzzles or 1
        table.append(
            [
                r.name,
                str(r.puzzles),
                str(r.count(Status.SOLVED)),
                str(r.count(Status.MULTIPLE)),
                str(r.count(Status.NO_SOLUTION)),
                str(r.count(Status.TIMEOUT)),
                str(r.wrong),
                f"{1000 * sum(r.seconds) / n:.2f}",
                f"{1000 * max(r.seconds, default=0):.1f}",
                f"{statistics.fmean(r.nodes) if r.nodes else 0:.1f}",
                str(max(r.nodes, default=0)),
                f"{statistics.fmean(r.guesses) if r.guesses else 0:.1f}",
                f"{statistics.fmean(r.backtracks) if r.backtracks else 0:.1f}",
            ]
        )
    widths = [max(len(row[i]) for row in table) for i in range(len(head))]
    lines = []
    for k, row in enumerate(table):
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        lines.append("  ".join(cells))
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)
