"""``sudokit solve PUZZLE|FILE|-``: solve one puzzle (pretty) or a file (one line per puzzle, with a summary).

Exit status (the rule of every batch command, see the README): 0 when every puzzle was solved (or counted),
1 when one had no solution, several solutions or clashing givens, 2 when the input (or a line of it) could not
be read or an option is wrong, 130 after Ctrl-C (with the summary of what was written).
"""

from __future__ import annotations

import signal
import sys
import time
from dataclasses import dataclass, field

import click

from sudokit.cli.inputs import (
    MIN_PUZZLE_LENGTH,
    POSITIVE_INT,
    SECONDS,
    cluster_option,
    input_format_option,
    open_puzzles,
    strict_option,
)
from sudokit.cli.report import count_text, describe_result
from sudokit.errors import ParseError, SudokitError
from sudokit.formats import WRITE_FORMATS, Entry
from sudokit.grid import Grid
from sudokit.jobs.batch import Answer, Batch, lines_of, split_blocks

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
    counting: bool = False  #: a ``--count`` run (only clashing givens fail it)

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

    def add_many(self, status, seconds, guesses) -> None:
        """A chunk solved together: arrays of status codes (:data:`~sudokit.engine.batch.STATUS_NAMES`), each
        puzzle's seconds (None when the processor has no cycle counter) and guesses."""
        import numpy as np

        from sudokit.engine.batch import STATUS_NAMES

        self.seen += len(status)
        for code, n in zip(*np.unique(status, return_counts=True), strict=True):
            name = STATUS_NAMES[int(code)]
            self.by_status[name] = self.by_status.get(name, 0) + int(n)
        self.guesses += int(guesses.sum())
        self.guess_free += int((guesses == 0).sum())
        if seconds is not None and len(seconds):
            self.timed += len(seconds)
            self.seconds += float(seconds.sum())
            self.slowest = max(self.slowest, float(seconds.max()))

    def merge(self, other: Tally) -> None:
        """Count ``other``'s puzzles too (a chunk's, once its lines are written)."""
        self.seen += other.seen
        for name, n in other.by_status.items():
            self.by_status[name] = self.by_status.get(name, 0) + n
        self.unreadable += other.unreadable
        self.seconds += other.seconds
        self.busy += other.busy
        self.slowest = max(self.slowest, other.slowest)
        self.guesses += other.guesses
        self.guess_free += other.guess_free
        self.timed += other.timed

    def summary(self, stats: bool, interrupted: bool, jobs: int = 1) -> list[str]:
        """The Norvig-style summary. ``avg`` is the puzzles' own solve time (kernel loading left out) and
        ``Hz`` its inverse, puzzles per second on one thread; with ``jobs`` > 1 the wall-clock rate follows."""
        solved = self.by_status.get("solved", 0)
        total = self.seen + self.unreadable
        avg = self.seconds / self.timed if self.timed else 0.0
        hz = f"{1.0 / avg:.0f} Hz" if avg > 0 else "0 Hz"
        slow = f", max {_duration(self.slowest)}" if self.timed == self.seen and self.seen else ""
        wall = f", {self.seen / self.busy:.0f} puzzles/s on {jobs} threads" if jobs > 1 and self.busy > 0 else ""
        lines = [f"Solved {solved} of {total} puzzles (avg {_duration(avg)}, {hz}{slow}{wall})"]
        others = [(k, self.by_status.get(k, 0)) for k in ("no_solution", "multiple", "invalid", "timeout")]
        others.append(("unreadable", self.unreadable))
        if self.by_status.get("failed"):  # chunks the batch layer could not answer (a worker's failure)
            others.append(("failed", self.by_status["failed"]))
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

        return solve(grid, limit=limit, time_limit=time_limit)
    return solver(grid, limit=limit, time_limit=time_limit, trace=False)


def _removes_candidates(entry: Entry) -> bool:
    """True when the entry's pencilmarks remove candidates that its givens leave (a state, not just a puzzle)."""
    from sudokit.grid import Candidates

    if entry.candidates is None or entry.grid is None:
        return False
    plain = Candidates.of(entry.grid).masks
    return any(p & ~m for p, m in zip(plain, entry.candidates.masks, strict=True))


def _solve_pencilmarks(entry: Entry, solver, limit: int, time_limit: float | None):
    """A pencilmark state solved from its givens, the answer checked against its candidates: the solvers work
    from givens, so a unique solution that breaks a pencilmark means none within them, and several solutions of
    the givens are refused (the pencilmarks might leave one) rather than reported wrongly."""
    from sudokit.result import Result, Status

    assert entry.grid is not None and entry.candidates is not None  # callers check _removes_candidates first
    result = _solve_one(entry.grid, solver, max(limit, 2), time_limit)
    if result.status is Status.SOLVED:
        masks = entry.candidates.masks
        broken = [s for s, v in enumerate(result.solution.values) if not masks[s] >> (v - 1) & 1]
        if not broken:
            return result
        return Result(Status.NO_SOLUTION, entry.grid, count=0, stats=result.stats, method=result.method)
    if result.status is Status.MULTIPLE:
        why = "the givens have several solutions, and solve does not use the eliminations of pencilmarks"
        raise ParseError(why, entry.source, entry.line, None)
    return result


#: The largest ``--count`` limit: counts are 64-bit integers in the kernels.
MAX_COUNT = 1 << 62


def _count_and_puzzle(count: str | None, puzzle: str | None) -> tuple[int | None, str]:
    """The ``--count`` limit and the puzzle argument. ``--count`` takes an optional LIMIT, so click hands the
    word after it to ``--count`` when no limit is written (``solve --count PUZZLE``): that word is the puzzle."""

    def is_number(word: str) -> bool:
        return word.strip().isascii() and word.strip().isdigit()

    if count is not None and puzzle is None and (not is_number(count) or len(count.strip()) >= MIN_PUZZLE_LENGTH):
        puzzle, count = count, str(DEFAULT_COUNT)  # a puzzle written in digits (0 for empty) is a puzzle too
    if count is not None and not is_number(count):
        raise SudokitError(f"--count takes a whole number of solutions, got {count!r}")
    if puzzle is None:
        raise SudokitError("missing PUZZLE: give a puzzle, a file, or - for stdin")
    if count is None:
        return None, puzzle
    limit = int(count)
    if not 1 <= limit <= MAX_COUNT:
        raise SudokitError(f"--count takes a limit from 1 to {MAX_COUNT}, got {limit}")
    return limit, puzzle


DEFAULT_COUNT = 1000


@click.command()
@click.argument("puzzle", required=False)
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
    is_flag=False,
    flag_value=str(DEFAULT_COUNT),
    default=None,
    metavar="[LIMIT]",
    help=f"Count solutions instead of printing one, up to LIMIT ({DEFAULT_COUNT} when no LIMIT is given).",
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
    "--jobs",
    "-j",
    type=POSITIVE_INT,
    default=1,
    show_default=True,
    help="Files: the engine's threads (or processes for --method).",
)
@cluster_option
@click.option("--method", "-m", default="engine", show_default=True, help="Solver: engine, or a method name.")
@click.option("--time-limit", type=SECONDS, default=None, metavar="SECONDS", help="Time limit per puzzle.")
@click.option("--no-progress", is_flag=True, help="No progress bar, even on a terminal.")
def command(
    puzzle: str | None,
    variant: str | None,
    input_format: str,
    strict: bool,
    count_limit: str | None,
    first: bool,
    stats: bool,
    out_format: str | None,
    jobs: int,
    method: str,
    time_limit: float | None,
    no_progress: bool,
    cluster: str | None,
) -> None:
    """Solve PUZZLE (a puzzle string, several puzzles, a file with one puzzle per line, or - for stdin; or a
    variant puzzle: an f-puzzles / SudokuPad link, f-puzzles JSON, or a .json / .jsonl file)."""
    tally = Tally()
    # the engine's threads where a chunk is solved (the summary's wall-clock rate is theirs); a method's
    # puzzles run on processes and a cluster's chunks on one thread each, and their summary has no such rate
    threads = jobs if cluster is None and method == "engine" else 1
    try:
        counted, puzzle = _count_and_puzzle(count_limit, puzzle)
        solver = _method_solver(method)
        limit = counted if counted is not None else (1 if first else 2)
        from sudokit.cli import variants

        if variants.is_variant_arg(puzzle):  # an f-puzzles / SudokuPad link or JSON: the constraint solver
            sys.exit(variants.solve(puzzle, limit, counted is not None, stats, time_limit, out_format, method))
        source = open_puzzles(puzzle, variant, input_format, strict)
        if source.single:
            (entry,) = source.entries
            sys.exit(_solve_single(entry, solver, limit, counted is not None, stats, out_format, time_limit))
        tally.counting = counted is not None
        run = _Run(method, limit, tally.counting, out_format or "line", threads, time_limit)
        if _solve_file(source.blocks, run, tally, jobs, cluster, no_progress):
            _finish(tally, stats, True, threads)
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C does not cut the summary short
        _finish(tally, stats, True, threads)
    sys.exit(_finish(tally, stats, False, threads))


def _finish(tally: Tally, stats: bool, interrupted: bool, jobs: int) -> int:
    """Print the summary (exit at once after Ctrl-C); the exit status of the batch."""
    for line in tally.summary(stats, interrupted, jobs):
        click.echo(line, err=True)
    if interrupted:
        sys.exit(130)
    if tally.unreadable:
        return 2
    failed = sum(v for k, v in tally.by_status.items() if k != "solved")
    if tally.counting:
        failed = sum(tally.by_status.get(k, 0) for k in ("invalid", "timeout", "failed"))
    return 1 if failed else 0


def _solve_single(entry: Entry, solver, limit, counting, stats, out_format, time_limit) -> int:
    from sudokit.formats import format_grid

    if entry.grid is None:
        assert entry.error is not None  # a bad entry carries its error
        raise entry.error
    result = _solve_pencilmarks(entry, solver, limit, time_limit) if _removes_candidates(entry) else None
    if result is None:  # the engine's solve asks the pure-Python port first while numba is not loaded
        result = _solve_one(entry.grid, solver, limit, time_limit)
    status = str(result.status)
    if counting or status == "timeout":
        click.echo(describe_result(result, limit, counting))
    elif result.solution is not None:
        fmt = out_format or "pretty"
        click.echo(format_grid(result.solution, "grid" if fmt == "pretty" else fmt, solution=result.solution))
    else:
        click.echo(describe_result(result, limit, False))
    if stats:
        s = result.stats
        click.echo(
            f"status {status}, guesses {s.guesses}, nodes {s.nodes}, backtracks {s.backtracks}, "
            f"{s.seconds * 1e3:.3f} ms ({result.method})"
        )
    if status == "solved" or (counting and status in ("solved", "multiple")):
        return 0
    return 1


#: Puzzles per chunk: the reader's blocks as they come for the engine (thousands of puzzles, solved together by
#: the batch kernels), a few at a time for a method (pure Python, one puzzle at a time).
ENGINE_CHUNK = None
METHOD_CHUNK = 8


@dataclass(frozen=True)
class _Run:
    """What a batch run does to each puzzle and how it writes it; it goes to the workers with each chunk.
    ``threads``: the engine's threads in the process that solves a chunk."""

    method: str
    limit: int
    counting: bool
    out_format: str
    threads: int
    time_limit: float | None

    @property
    def solver(self):
        return _method_solver(self.method)

    def marker(self, entry: Entry, result) -> str:
        return f"# line {entry.line}: {describe_result(result, self.limit, False)}"

    def text(self, entry: Entry, result) -> str:
        """The output of one puzzle solved on its own."""
        from sudokit.formats import format_grid

        if result.status == "timeout":
            return self.marker(entry, result)
        if self.counting:
            return count_text(result.count, self.limit)
        if result.solution is None:
            return self.marker(entry, result)
        if self.out_format == "csv":
            assert entry.grid is not None  # only entries that were read get solved
            return format_grid(entry.grid, "csv", solution=result.solution)
        return format_grid(result.solution, "grid" if self.out_format == "pretty" else self.out_format)

    @property
    def gap(self) -> str:
        """What goes between two puzzles' outputs: a blank line between multi-line grids."""
        from sudokit.formats import separator

        return "\n" if separator(self.out_format) == "\n\n" else ""

    def joined(self, texts: list[str]) -> bytes:
        """Puzzles' outputs as the bytes to write (the batch puts :attr:`gap` between two chunks)."""
        return self.gap.join(t + "\n" for t in texts).encode("utf-8")


def _solve_file(blocks, run: _Run, tally: Tally, jobs: int, cluster: str | None, no_progress: bool) -> bool:
    """Solve every block in input order through the batch layer; True when Ctrl-C stopped it. The engine runs
    on ``run.threads`` threads in this process (its batch kernels are threaded), a method on ``jobs``
    processes; ``--cluster`` sends either to a Dask cluster."""
    import functools

    from sudokit.formats import csv_header
    from sudokit.jobs.runner import open_runner

    batch = Batch(tally, gap=run.gap.encode())
    if run.out_format == "csv" and not run.counting:
        batch.write(Answer((csv_header() + "\n").encode()))
    size = ENGINE_CHUNK if run.method == "engine" else METHOD_CHUNK
    workers = 1 if run.method == "engine" else jobs
    with open_runner(workers, cluster) as runner:
        return batch.run(
            runner,
            functools.partial(_solve_block, run),
            split_blocks(blocks, size),
            functools.partial(_lost, run),
            label="solving",
            show_progress=False if no_progress else None,
        )


def _solve_block(run: _Run, block) -> Answer:
    """The answer of one block: the engine's batch kernels, or a method one puzzle at a time."""
    return _engine_block(block, run) if run.method == "engine" else _method_block(block, run)


def _lost(run: _Run, block, why: str) -> Answer:
    """A block whose task failed twice: a marker for each of its puzzles, its lines named on stderr."""
    chunk = Tally()
    chunk.seen = len(block)
    chunk.by_status["failed"] = len(block)
    markers = [f"# line {n}: failed: {why}" for n in block.lines.tolist()]
    message = f"sudokit: error: {block.source}: {lines_of(block)}: not solved: {why}"
    return Answer(run.joined(markers), [message], chunk, len(block))


def _bad(entry: Entry, chunk: Tally, messages: list[str], what: str = "unreadable") -> str:
    """Report an entry that cannot be answered (counted with the unreadable ones); its marker line."""
    from sudokit.cli.report import bad_entry_message

    messages.append(bad_entry_message(entry))
    chunk.unreadable += 1
    return f"# line {entry.line}: {what}"


def _method_block(block, run: _Run) -> Answer:
    """A block solved one puzzle at a time by a method."""
    chunk = Tally()
    messages: list[str] = []
    texts = []
    solver = run.solver
    for entry in block:
        if not entry.ok:
            texts.append(_bad(entry, chunk, messages))
            continue
        try:
            if _removes_candidates(entry):
                result = _solve_pencilmarks(entry, solver, run.limit, run.time_limit)
            else:
                result = _solve_one(entry.grid, solver, run.limit, run.time_limit)
        except ParseError as exc:
            entry.error = exc
            texts.append(_bad(entry, chunk, messages, "refused"))
            continue
        chunk.add_alone(str(result.status), result.stats.seconds, result.stats.guesses)
        texts.append(run.text(entry, result))
    return Answer(run.joined(texts), messages, chunk, len(block))


_warm: set = set()


def _warm_up(geometry, jobs: int) -> None:
    """Load the kernels of ``geometry`` once, outside the puzzles' timings."""
    from sudokit.engine.batch import warm_up

    if (geometry, jobs) not in _warm:
        warm_up(geometry, jobs)
        _warm.add((geometry, jobs))


def _engine_block(block, run: _Run) -> Answer:
    """The block's puzzles of its geometry solved together by the batch kernels (each timed inside the kernel,
    every solution checked); the others (another size, unreadable) one by one; lines in input order."""
    import numpy as np

    from sudokit.engine.api import solve as solve_grid
    from sudokit.engine.batch import solve_chunk

    chunk = Tally()
    messages: list[str] = []
    special: dict[int, str] = {}
    usable = block.usable.copy()
    for i, entry in block.entries.items():
        usable[i] &= not _removes_candidates(entry)  # pencilmark states: one by one, checked against their marks
    rows = np.flatnonzero(usable)
    batch = None
    if len(rows):
        _warm_up(block.geometry, run.threads)
        start = time.perf_counter()
        batch = solve_chunk(
            block.grids[rows],
            block.geometry,
            limit=run.limit,
            workers=run.threads,
            time_limit=run.time_limit,
            timing="puzzle",  # the summary's slowest puzzle
        )
        chunk.busy = time.perf_counter() - start
        seconds = batch.seconds()
        if seconds is None:  # no cycle counter on this processor: the chunk's average for each puzzle
            seconds = np.full(len(rows), chunk.busy / len(rows))
        chunk.add_many(batch.status, seconds, batch.guesses)
    for i, entry in block.entries.items():
        if usable[i]:
            continue
        if not entry.ok:
            special[i] = _bad(entry, chunk, messages)
            continue
        _warm_up(entry.grid.geometry, 1)
        if _removes_candidates(entry):
            try:
                result = _solve_pencilmarks(entry, None, run.limit, None)
            except ParseError as exc:
                entry.error = exc
                special[i] = _bad(entry, chunk, messages, "refused")
                continue
        else:
            result = solve_grid(entry.grid, limit=run.limit, time_limit=run.time_limit)
        chunk.add_alone(str(result.status), result.stats.seconds, result.stats.guesses)
        special[i] = run.text(entry, result)
    return Answer(_block_text(block, rows, batch, special, run), messages, chunk, len(block))


def _block_text(block, rows, batch, special: dict[int, str], run: _Run) -> bytes:
    """The output of a block: numpy writes the solutions of one-line layouts in one go, the rest per puzzle."""
    import numpy as np

    from sudokit.engine.batch import SOLVED, TIMEOUT
    from sudokit.formats import line_rows, spliced
    from sudokit.result import Result, Status, invalid_result

    k = len(block)
    if batch is not None:
        unsolved = rows[batch.status != SOLVED] if not run.counting else rows[batch.status == TIMEOUT]
        for i in unsolved.tolist():
            at = int(np.searchsorted(rows, i))
            entry = block.entry(i)
            status = Status(_status_name(int(batch.status[at])))
            if status is Status.INVALID:
                result = invalid_result(entry.grid) or Result(status, entry.grid, count=0)
            else:
                result = Result(status, entry.grid, count=int(batch.counts[at]))
            special[i] = run.marker(entry, result)
    if run.counting:
        counts = np.zeros(k, dtype=np.int64)
        if batch is not None:
            counts[rows] = batch.counts
        texts = [special.get(i) or count_text(c, run.limit) for i, c in enumerate(counts.tolist())]
        return run.joined(texts)
    fmt = run.out_format
    if fmt in ("line", "sdm", "csv") and batch is not None:
        solutions = np.zeros_like(block.grids)
        solutions[rows] = batch.solutions
        text = line_rows(solutions, block.geometry)
        if fmt == "csv":
            puzzles = line_rows(block.grids, block.geometry)
            puzzles[:, -1] = ord(",")
            text = np.concatenate([puzzles, text], axis=1)
        return spliced(text, special)
    texts = []
    solutions = batch.solutions.tolist() if batch is not None else []
    for i in range(k):
        if i in special:
            texts.append(special[i])
            continue
        at = int(np.searchsorted(rows, i))
        entry = block.entry(i)
        solution = Grid(block.geometry, tuple(solutions[at]))
        texts.append(run.text(entry, Result(Status.SOLVED, entry.grid, solution=solution)))
    return run.joined(texts)


def _status_name(code: int) -> str:
    from sudokit.engine.batch import STATUS_NAMES

    return STATUS_NAMES[code]
