"""``sudokit solve PUZZLE|FILE|-``: solve one puzzle (pretty) or a file (one line per puzzle, with a summary).

Exit status: 0 when every puzzle was solved (or counted), 1 when one had no solution, several solutions or
clashing givens, 2 for unreadable input or a bad option, 130 after Ctrl-C.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field

import click

from sudokit.cli.inputs import input_format_option, open_puzzles, strict_option
from sudokit.errors import SudokitError
from sudokit.formats import WRITE_FORMATS, Entry
from sudokit.grid import Grid

_OUT_FORMATS = ("pretty", *WRITE_FORMATS)


@dataclass
class Tally:
    """What a batch run has done so far, for the Norvig-style summary."""

    seen: int = 0
    by_status: dict[str, int] = field(default_factory=dict)
    unreadable: int = 0
    seconds: float = 0.0  #: the puzzles' own solve times, added up
    busy: float = 0.0  #: wall time spent solving (less than ``seconds`` when puzzles are solved on several threads)
    slowest: float = 0.0
    guesses: int = 0
    guess_free: int = 0
    timed: int = 0  #: puzzles with their own time (max is only known for those)

    def add(self, status: str, seconds: float | None, guesses: int) -> None:
        self.seen += 1
        self.by_status[status] = self.by_status.get(status, 0) + 1
        self.guesses += guesses
        self.guess_free += guesses == 0
        if seconds is not None:
            self.timed += 1
            self.seconds += seconds
            self.slowest = max(self.slowest, seconds)

    def add_alone(self, status: str, seconds: float, guesses: int) -> None:
        """A puzzle solved on its own: its time is also wall time."""
        self.add(status, seconds, guesses)
        self.busy += seconds

    def summary(self, stats: bool, interrupted: bool) -> list[str]:
        solved = self.by_status.get("solved", 0)
        total = self.seen + self.unreadable
        done = max(self.seen, 1)
        avg = self.seconds / done
        hz = self.seen / self.busy if self.busy > 0 else 0.0
        slow = f", max {_duration(self.slowest)}" if self.timed == self.seen and self.seen else ""
        lines = [f"Solved {solved} of {total} puzzles (avg {_duration(avg)}, {hz:.0f} Hz{slow})"]
        others = [(k, self.by_status.get(k, 0)) for k in ("no_solution", "multiple", "invalid", "timeout")]
        others.append(("unreadable", self.unreadable))
        if any(v for _, v in others):
            lines.append(", ".join(f"{k.replace('_', ' ')}: {v}" for k, v in others))
        if stats and self.seen:
            lines.append(
                f"guesses/puzzle {self.guesses / self.seen:.2f}, "
                f"solved without guessing {100.0 * self.guess_free / self.seen:.1f}%"
            )
        if interrupted:
            lines.append("interrupted: the results above cover the puzzles done so far")
        return lines


def _duration(seconds: float) -> str:
    """A time with a unit that shows its digits: ``4.9 µs``, ``0.75 ms``, ``1.20 s``."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1.0:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def _method_solver(method: str):
    """The solve function for ``--method``: None for the engine, else the registered method."""
    if method == "engine":
        return None
    from sudokit import methods

    if method not in methods.METHODS:
        known = ", ".join(["engine", *sorted(methods.METHODS)])
        raise SudokitError(f"unknown method {method!r}; known: {known}")
    return methods.METHODS[method]


def _solve_one(grid: Grid, solver, limit: int, time_limit: float | None):
    if solver is None:
        from sudokit.engine import solve

        return solve(grid, limit=limit)
    return solver(grid, limit=limit, time_limit=time_limit, trace=False)


def _count_text(count: int | None, limit: int) -> str:
    if count is None:
        return "?"
    return f"{count}+" if count >= limit else str(count)


def _describe(result, limit: int, counting: bool) -> str:
    """A short sentence for a result that is not a plain solution."""
    status = str(result.status)
    if counting:
        return f"{_count_text(result.count, limit)} solution{'' if result.count == 1 and limit > 1 else 's'}"
    if status == "multiple":
        return f"multiple solutions (at least {result.count})"
    if status == "no_solution":
        return "no solution"
    if status == "invalid":
        return f"invalid: {result.message}"
    if status == "timeout":
        return "timeout"
    return status


@click.command()
@click.argument("puzzle")
@click.option(
    "--variant",
    "--geometry",
    "-V",
    "variant",
    default=None,
    metavar="NAME",
    help="Puzzle family: standard, diagonal, windoku, jigsaw:MAP, or a size such as 4x4, 6x6, 16x16.",
)
@input_format_option
@strict_option
@click.option(
    "--count",
    "count_limit",
    type=click.IntRange(min=1),
    is_flag=False,
    flag_value=1000,
    default=None,
    metavar="[LIMIT]",
    help="Count solutions instead of printing one, up to LIMIT (1000 when no LIMIT is given).",
)
@click.option("--first", is_flag=True, help="Take the first solution found; do not check uniqueness.")
@click.option("--stats", is_flag=True, help="Print search statistics (guesses, nodes, backtracks, time).")
@click.option(
    "--format",
    "-f",
    "out_format",
    type=click.Choice(_OUT_FORMATS),
    default=None,
    help="Solution layout (default: pretty for one puzzle, line for a file).",
)
@click.option(
    "--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True, help="Worker threads (engine, files)."
)
@click.option("--method", "-m", default="engine", show_default=True, help="Solver: engine, or a method name.")
@click.option("--time-limit", type=float, default=None, metavar="SECONDS", help="Time limit per puzzle (methods).")
@click.option("--no-progress", is_flag=True, help="No progress bar, even on a terminal.")
def command(
    puzzle: str,
    variant: str | None,
    input_format: str,
    strict: bool,
    count_limit: int | None,
    first: bool,
    stats: bool,
    out_format: str | None,
    jobs: int,
    method: str,
    time_limit: float | None,
    no_progress: bool,
) -> None:
    """Solve PUZZLE (a puzzle string, a file with one puzzle per line, or - for stdin; or a variant puzzle:
    an f-puzzles / SudokuPad link, f-puzzles JSON, or a .json / .jsonl file)."""
    solver = _method_solver(method)
    limit = count_limit if count_limit is not None else (1 if first else 2)
    from sudokit.cli import variants

    if variants.is_variant_arg(puzzle):  # an f-puzzles / SudokuPad link or JSON: the constraint solver
        sys.exit(variants.solve(puzzle, limit, count_limit is not None, stats, time_limit, out_format, method))
    source = open_puzzles(puzzle, variant, input_format, strict)
    if source.single:
        entries = list(source.entries)
        if len(entries) == 1:
            sys.exit(_solve_single(entries[0], solver, limit, count_limit is not None, stats, out_format, time_limit))
    code = _solve_file(
        source.entries,
        solver,
        limit,
        count_limit is not None,
        stats,
        out_format or "line",
        jobs,
        time_limit,
        no_progress,
    )
    sys.exit(code)


def _solve_single(entry: Entry, solver, limit, counting, stats, out_format, time_limit) -> int:
    from sudokit.formats import format_grid

    if not entry.ok:
        raise entry.error
    result = None
    if solver is None:
        # One puzzle: the pure-Python port usually finishes before numba would have loaded.
        from sudokit.engine.pure import BudgetExceeded, solve_small

        try:
            result = solve_small(entry.grid, limit=limit)
        except BudgetExceeded:
            result = None
    if result is None:
        result = _solve_one(entry.grid, solver, limit, time_limit)
    status = str(result.status)
    if counting:
        click.echo(_describe(result, limit, True))
    elif result.solution is not None:
        fmt = out_format or "pretty"
        click.echo(format_grid(result.solution, "grid" if fmt == "pretty" else fmt, solution=result.solution))
    else:
        click.echo(_describe(result, limit, False))
    if stats:
        s = result.stats
        click.echo(
            f"status {status}, guesses {s.guesses}, nodes {s.nodes}, backtracks {s.backtracks}, "
            f"{s.seconds * 1e3:.3f} ms ({result.method})"
        )
    if status == "solved" or (counting and status in ("solved", "multiple")):
        return 0
    return 1


class _Output:
    """Result lines for stdout, written in one go per chunk of puzzles (``gap`` between two puzzles)."""

    def __init__(self, gap: str) -> None:
        self.gap = gap
        self.parts: list[str] = []
        self.started = False

    def add(self, text: str) -> None:
        if self.started and self.gap:
            self.parts.append(self.gap)
        self.started = True
        self.parts.append(text)
        self.parts.append("\n")

    def flush(self) -> None:
        if self.parts:
            sys.stdout.write("".join(self.parts))
            sys.stdout.flush()
            self.parts.clear()


def _progress(no_progress: bool):
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    return Progress(
        SpinnerColumn(),
        TextColumn("solving"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=no_progress or not console.is_terminal,
    )


def _solve_file(entries, solver, limit, counting, stats, out_format, jobs, time_limit, no_progress) -> int:
    from sudokit.cli.report import report_bad_entry
    from sudokit.formats import csv_header, format_grid, separator

    tally = Tally()
    sep = separator(out_format)
    if out_format == "csv" and not counting:
        click.echo(csv_header())
    out = _Output("\n" if sep == "\n\n" else "")

    def emit(entry: Entry, result) -> None:
        if counting:
            text = _count_text(result.count, limit)
        elif result.solution is not None:
            text = format_grid(result.solution, "grid" if out_format == "pretty" else out_format, solution=None)
            if out_format == "csv":
                text = format_grid(entry.grid, "csv", solution=result.solution)
        else:
            text = f"# line {entry.line}: {_describe(result, limit, False)}"
        out.add(text)

    def emit_bad(entry: Entry) -> None:
        report_bad_entry(entry)
        tally.unreadable += 1
        out.add(f"# line {entry.line}: unreadable")

    interrupted = False
    with _progress(no_progress) as progress:
        task = progress.add_task("solve", total=None)
        try:
            if solver is None:
                _run_engine(entries, limit, jobs, tally, emit, emit_bad, out.flush, progress, task)
            else:
                for entry in entries:
                    if not entry.ok:
                        emit_bad(entry)
                    else:
                        result = _solve_one(entry.grid, solver, limit, time_limit)
                        tally.add_alone(str(result.status), result.stats.seconds, result.stats.guesses)
                        emit(entry, result)
                    out.flush()
                    progress.advance(task)
        except KeyboardInterrupt:
            interrupted = True
    out.flush()  # what was tallied is written, even after Ctrl-C
    sys.stdout.flush()
    for line in tally.summary(stats, interrupted):
        click.echo(line, err=True)
    if interrupted:
        return 130
    failed = tally.unreadable + sum(v for k, v in tally.by_status.items() if k != "solved")
    if counting:
        failed = tally.unreadable + tally.by_status.get("invalid", 0)
    return 1 if failed else 0


def _run_engine(entries, limit, jobs, tally, emit, emit_bad, flush, progress, task, chunk: int = 4096) -> None:
    """The engine's batch path on ``jobs`` threads: entries are gathered in chunks, solved together (each
    puzzle timed inside the kernel, every solution checked), and reported in input order."""
    from itertools import islice

    import numpy as np

    from sudokit.engine.api import solve as solve_grid
    from sudokit.engine.batch import STATUS_NAMES, solve_chunk, warm_up
    from sudokit.result import Result, Stats, Status, invalid_result

    it = iter(entries)
    warm: set = set()
    while True:
        items = list(islice(it, chunk))
        if not items:
            return
        good = [e for e in items if e.ok]
        geos = {e.grid.geometry for e in good}
        if len(geos) != 1:  # mixed or no geometries: one at a time
            for entry in items:
                if not entry.ok:
                    emit_bad(entry)
                else:
                    result = solve_grid(entry.grid, limit=limit)
                    tally.add_alone(str(result.status), result.stats.seconds, result.stats.guesses)
                    emit(entry, result)
            flush()
            progress.advance(task, len(items))
            continue
        geo = geos.pop()
        arr = np.array([e.grid.values for e in good], dtype=np.uint8).reshape(len(good), geo.n_cells)
        if geo not in warm:  # load the compiled kernels outside the timings
            warm_up(geo, jobs)
            warm.add(geo)
        start = time.perf_counter()
        batch = solve_chunk(arr, geo, limit=limit, workers=jobs)
        tally.busy += time.perf_counter() - start
        seconds = batch.seconds()
        if seconds is None:  # no cycle counter on this processor: the chunk's average for each puzzle
            seconds = np.full(len(good), (time.perf_counter() - start) / len(good))
        row = 0
        solutions = batch.solutions.tolist()
        for entry in items:
            if not entry.ok:
                emit_bad(entry)
                continue
            status = Status(STATUS_NAMES[int(batch.status[row])])
            count = int(batch.counts[row])
            spent = float(seconds[row])
            stats = Stats(int(batch.guesses[row]), int(batch.nodes[row]), int(batch.backtracks[row]), spent)
            if status is Status.INVALID:
                result = invalid_result(entry.grid) or Result(status, entry.grid, count=0, stats=stats)
            elif status is Status.SOLVED:  # solve_chunk has checked the solution against the rules
                result = Result(status, entry.grid, solution=Grid(geo, tuple(solutions[row])), count=count, stats=stats)
            else:
                result = Result(status, entry.grid, count=count, stats=stats)
            tally.add(str(status), spent, result.stats.guesses)
            emit(entry, result)
            row += 1
        flush()
        progress.advance(task, len(items))
