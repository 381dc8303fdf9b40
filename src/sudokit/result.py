"""What every solver returns: a status, the checked solution, the count found and search statistics.

A solver never hands back an unchecked answer: :func:`checked` verifies a solution against the rules
before a ``solved`` result is made.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sudokit.grid import Grid, is_solution


class Status(StrEnum):
    """How a solve ended."""

    SOLVED = "solved"  #: exactly one solution (or the first one, when uniqueness was not asked)
    NO_SOLUTION = "no_solution"  #: the givens are consistent but nothing completes them
    MULTIPLE = "multiple"  #: two or more solutions (``count`` says how many were found, up to a limit)
    INVALID = "invalid"  #: contradictory givens: a digit twice in a unit
    TIMEOUT = "timeout"  #: a time or node limit stopped the search first

    def __str__(self) -> str:
        return self.value


@dataclass
class Stats:
    """Search statistics, in the columns of tdoku's benchmark table."""

    guesses: int = 0  #: digits tried at a choice point while other digits remained there (the last is forced)
    nodes: int = 0  #: search nodes visited (calls of the propagate-then-branch step)
    backtracks: int = 0  #: dead ends met
    seconds: float = 0.0  #: wall time of the solve

    @property
    def solved_without_guessing(self) -> bool:
        """True when propagation alone finished the puzzle."""
        return self.guesses == 0


@dataclass
class Result:
    """The outcome of solving one puzzle."""

    status: Status
    puzzle: Grid
    solution: Grid | None = None
    count: int | None = None  #: solutions found, up to the limit asked for (None when not counted)
    stats: Stats = field(default_factory=Stats)
    method: str = "engine"
    message: str = ""  #: why, for people: e.g. the conflicting givens of an invalid puzzle
    trace: Any = None  #: a methods Trace when one was recorded

    @property
    def solved(self) -> bool:
        """True when a (checked) solution is present."""
        return self.solution is not None

    def __str__(self) -> str:
        return self.solution.to_line() if self.solution is not None else f"<{self.status}>"

    def _repr_svg_(self) -> str | None:  # pragma: no cover - exercised by the render tests
        grid = self.solution or self.puzzle
        return grid._repr_svg_()


class UncheckedSolutionError(AssertionError):
    """A solver produced a grid that breaks the rules: a bug, never a user error."""


def checked(solution: Grid, puzzle: Grid) -> Grid:
    """Return ``solution`` after verifying it solves ``puzzle``; raise :class:`UncheckedSolutionError` if not."""
    if not is_solution(solution, puzzle):
        raise UncheckedSolutionError(f"solver returned a grid that does not solve the puzzle: {solution.to_line()}")
    return solution


def invalid_result(puzzle: Grid, method: str = "engine") -> Result | None:
    """An ``invalid`` result naming the first conflict when the givens clash, else ``None``."""
    found = puzzle.conflicts()
    if not found:
        return None
    return Result(Status.INVALID, puzzle, method=method, message=found[0].describe(puzzle.geometry))
