"""What the three methods share: limits on time and nodes, and turning found solutions into a Result.

A method supplies a *search*: a generator that yields each solution it finds (as a tuple of digits, one per
cell) and counts its work in a :class:`Budget`. :func:`run` checks the givens, counts solutions up to the
limit, stops the search when a limit is hit, verifies the first solution and fills in the statistics.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from sudokit.errors import SudokitError
from sudokit.grid import Grid
from sudokit.methods.trace import Trace
from sudokit.result import Result, Stats, Status, checked, invalid_result

#: A search: given the puzzle, a budget and an optional trace, yield the solutions found.
Search = Callable[[Grid, "Budget", "Trace | None"], Iterator[tuple[int, ...]]]


class LimitReached(Exception):
    """Raised inside a search when its time or node budget is spent."""


class Budget:
    """Counts search nodes, guesses and backtracks, and stops the search at a time or node limit."""

    def __init__(self, time_limit: float | None = None, node_limit: int | None = None):
        if time_limit is not None and time_limit <= 0:
            raise SudokitError("the time limit must be positive")
        if node_limit is not None and node_limit < 1:
            raise SudokitError("the node limit must be at least 1")
        self.start = time.perf_counter()
        self.deadline = None if time_limit is None else self.start + time_limit
        self.node_limit = node_limit
        self.nodes = 0
        self.guesses = 0
        self.backtracks = 0
        self.reason = ""

    def node(self) -> None:
        """Count one search node; raise :class:`LimitReached` when a limit is passed."""
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            self.reason = f"node limit of {self.node_limit} reached"
            raise LimitReached(self.reason)
        if self.deadline is not None and time.perf_counter() > self.deadline:
            self.reason = f"time limit of {self.deadline - self.start:g} s reached"
            raise LimitReached(self.reason)

    def branch(self, index: int, choices: int) -> None:
        """Count trying digit ``index`` of ``choices`` at a choice point: a guess while other digits
        remain there (the last one is forced), as the engine counts, so zero guesses means propagation
        alone solved the puzzle."""
        if index < choices - 1:
            self.guesses += 1

    def stats(self) -> Stats:
        """The statistics so far."""
        return Stats(self.guesses, self.nodes, self.backtracks, time.perf_counter() - self.start)


def run(
    method: str,
    search: Search,
    puzzle: Grid,
    *,
    limit: int = 2,
    time_limit: float | None = None,
    node_limit: int | None = None,
    trace: bool = False,
    outcome: Callable[[Status, Stats], str] | None = None,
) -> Result:
    """Run ``search`` on ``puzzle`` and report: solved / multiple / no_solution / invalid / timeout.

    Solutions are counted up to ``limit`` (``limit=1`` stops at the first). ``outcome`` may name, for the
    trace, how the solve ended in the method's own words.
    """
    if limit < 1:
        raise SudokitError("the solution limit must be at least 1")
    budget = Budget(time_limit, node_limit)
    record = Trace(method, puzzle.geometry, puzzle) if trace else None
    bad = invalid_result(puzzle, method)
    if bad is not None:
        bad.stats = budget.stats()
        if record is not None:
            record.add("fail", rule="givens")
            record.outcome = "invalid"
            bad.trace = record
        return bad
    found: list[tuple[int, ...]] = []
    stopped = False
    try:
        for values in search(puzzle, budget, record):
            found.append(values)
            if len(found) >= limit:
                break
    except LimitReached:
        stopped = True
    stats = budget.stats()
    solution = checked(Grid(puzzle.geometry, found[0]), puzzle) if found else None
    if stopped:
        status = Status.TIMEOUT
        message = budget.reason + (f" after {len(found)} solution(s)" if found else " before any solution")
    elif not found:
        status, message = Status.NO_SOLUTION, ""
    elif len(found) == 1:
        status, message = Status.SOLVED, ""
    else:
        status, message = Status.MULTIPLE, ""
    result = Result(status, puzzle, solution, len(found), stats, method, message)
    if record is not None:
        record.outcome = outcome(status, stats) if outcome else str(status)
        result.trace = record
    return result
