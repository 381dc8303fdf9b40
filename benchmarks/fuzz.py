"""Fuzz the library and the command line: random inputs, every answer checked, a table of what went wrong.

    python benchmarks/fuzz.py            # the full campaign: >= 100,000 API inputs, >= 2,000 CLI runs
    python benchmarks/fuzz.py --quick    # a short run (CI runs the same targets as tests/test_fuzz.py)

Library targets draw their inputs with hypothesis (no shrinking: every input is run once and judged):

* ``parse``       any text (layout characters, every Unicode character, puzzles with edits) in every mode;
                   a grid read back from its own line must be the same grid;
* ``readers``     several lines in each input format (comments, CSV headers, tdoku counts, bad lines);
* ``geometry``    variant names (sizes with any digits, jigsaw maps, junk) and cell counts;
* ``solve``       puzzles made from known solutions (a subset of a solution always has one) plus stray
                   givens, with good and bad ``limit``/``time_limit`` arguments: every solution is checked
                   against the givens and the rules, a subset reported unsolvable is a wrong answer;
* ``solve_many``  arrays of every dtype with digits, out-of-range values, NaN and infinities, and lists of
                   lines: as many results as puzzles, every solution checked;
* ``logic``       ``next_step``/``hint`` on states with random candidates removed (never the solution's):
                   a placement other than the solution's digit or an elimination of it is a wrong answer.

CLI runs take random argv made from the real options of every command (click's parameters, values from
pools of good, edge and bad values), puzzle arguments and files with bad lines, in process through click's
``CliRunner``; a sample goes through ``python -m sudokit`` subprocesses. The ``batch`` target solves files
of mixed lines and checks that each input line has its output line and each solution is right.

A *traceback* is any exception other than :class:`~sudokit.errors.SudokitError` (or a click usage error);
a *hang* a call over the per-call limit; *lost* lines are output lines missing from a batch.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import random
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"

#: A call slower than this is a hang (the engine calls get a time limit well below it).
HANG_SECONDS = 20.0


# ---- what a target found -------------------------------------------------------------------------------------
@dataclass
class Tally:
    """Inputs tried and failures found by one target, with the first few failures described."""

    name: str
    tried: int = 0
    tracebacks: int = 0
    wrong: int = 0
    hangs: int = 0
    lost: int = 0
    times: list[float] = field(default_factory=list)
    #: interrupts that fell in Python's start-up, before any sudokit code ran (reported below the table)
    startup: int = 0
    examples: list[str] = field(default_factory=list)

    def note(self, kind: str, what: str) -> None:
        setattr(self, kind, getattr(self, kind) + 1)
        if len(self.examples) < 5:
            self.examples.append(f"{kind}: {what}"[:2000])

    def row(self) -> str:
        t = np.array(self.times) if self.times else np.zeros(1)
        p50, p99 = np.percentile(t, 50) * 1e3, np.percentile(t, 99) * 1e3
        return (
            f"| {self.name} | {self.tried:,} | {self.tracebacks} | {self.wrong} | {self.hangs} | {self.lost} "
            f"| {p50:.2f} | {p99:.1f} |"
        )


def attempt(tally: Tally, label: str, fn: Callable[[], object], check: Callable[[object], str | None] | None = None):
    """Run ``fn`` once: a SudokitError is a fair answer, any other exception a traceback; ``check`` judges a
    returned value (a string says what is wrong with it). Returns the value, or None after an error."""
    from sudokit.errors import SudokitError

    tally.tried += 1
    start = time.perf_counter()
    value = None
    try:
        value = fn()
    except SudokitError:
        value = None
    except Exception:  # noqa: BLE001 - counting them is the point
        tally.note("tracebacks", f"{label}\n{traceback.format_exc(limit=4)}")
        value = None
    spent = time.perf_counter() - start
    tally.times.append(spent)
    if spent > HANG_SECONDS:
        tally.note("hangs", f"{label}: {spent:.1f} s")
    if value is not None and check is not None:
        problem = check(value)
        if problem:
            tally.note("wrong", f"{label}: {problem}")
    return value


# ---- known puzzles and solutions -----------------------------------------------------------------------------
@dataclass
class Pool:
    """Solved grids of several geometries (strings), and 9x9 puzzles with a unique solution for the logic."""

    solutions: list[tuple[str, str]]  # (variant name, solution line)
    unique9: list[tuple[str, str]]  # (puzzle, solution)


def _lines(name: str, k: int) -> list[str]:
    with open(DATA / name, encoding="utf-8") as fh:
        out = []
        for line in fh:
            line = line.strip()
            if line and not line.startswith("#"):
                out.append(line.split()[0])
            if len(out) >= k:
                break
        return out


_POOL: list[Pool] = []


def pool() -> Pool:
    """The puzzles the targets start from, read once (solutions of 4x4, 6x6, 9x9, diagonal and 16x16)."""
    if _POOL:
        return _POOL[0]
    import sudokit

    solutions = [("standard", s) for s in _lines("kaggle_sample.solutions.txt", 40)]
    solutions += [("standard", s) for s in _lines("sudoku16_janko.solutions.txt", 6)]
    for variant, puzzle in (("4x4", "." * 16), ("6x6", "." * 36), ("diagonal", "." * 81), ("windoku", "." * 81)):
        r = sudokit.solve(sudokit.parse(puzzle, geometry=sudokit.from_name(variant)), limit=1)
        solutions.append((variant, r.solution.to_line()))
    unique = []
    for puzzle in _lines("norvig_top95.txt", 30) + _lines("kaggle_sample.txt", 30):
        r = sudokit.solve(puzzle)
        unique.append((puzzle, r.solution.to_line()))
    _POOL.append(Pool(solutions, unique))
    return _POOL[0]


def _geometry(variant: str, line: str):
    from sudokit.geometry import from_name

    return from_name(variant, len(line))


# ---- library targets (hypothesis strategies and their checks) -----------------------------------------------
def strategies():
    """The hypothesis strategies of the library targets, by target name (built on first use)."""
    from hypothesis import strategies as st

    layout = st.text(alphabet=st.sampled_from("123456789.0 |-+*\n\r\tABCDEFGabcdefg#:,x"), max_size=400)

    @st.composite
    def edited_puzzle(draw):
        variant, sol = draw(st.sampled_from(pool().solutions))
        chars = [ch if draw(st.booleans()) else "." for ch in sol]
        for _ in range(draw(st.integers(0, 3))):
            op = draw(st.sampled_from(["set", "del", "ins"]))
            i = draw(st.integers(0, max(0, len(chars) - 1)))
            ch = draw(st.one_of(st.characters(), st.sampled_from(list("0123456789.GHQZ²٣\x00\ufeff"))))
            if op == "set" and chars:
                chars[i] = ch
            elif op == "del" and chars:
                del chars[i]
            else:
                chars.insert(i, ch)
        return "".join(chars)

    text = st.one_of(layout, st.text(max_size=300), edited_puzzle())
    geometry_name = st.sampled_from([None, "standard", "diagonal", "windoku", "4x4", "6x6", "16x16", "2x3"])
    parse = st.tuples(text, geometry_name, st.sampled_from(["lenient", "strict", "grid", None]))

    from sudokit.formats import FORMATS

    line = st.one_of(
        edited_puzzle(),
        st.sampled_from(["", "# a comment", "puzzle,solution", "quizzes,solutions", "#A author", "*-----*"]),
        st.builds(lambda p, c: f"{p}:{c}", edited_puzzle(), st.sampled_from(["1", "0", "x", "99999999999999999999"])),
        st.builds(lambda p, s: f"{p},{s}", edited_puzzle(), edited_puzzle()),
        st.text(max_size=120),
    )
    readers = st.tuples(st.lists(line, max_size=12), st.sampled_from(list(FORMATS)), geometry_name)

    digits = st.one_of(
        st.sampled_from(["0", "1", "2", "3", "6", "9", "10", "99", "999"]), st.text(st.characters(), max_size=3)
    )
    name = st.one_of(
        st.builds(lambda a, b: f"{a}x{b}", digits, digits),
        st.sampled_from(["standard", "diagonal", "windoku", "hyper", "x", "sudoku-x", "", " ", "jigsaw:"]),
        st.builds(lambda m: "jigsaw:" + m, st.text(alphabet="abcd12 \n", max_size=90)),
        st.text(max_size=40),
    )
    geometry = st.tuples(
        name, st.one_of(st.none(), st.integers(-5, 2000), st.sampled_from([16, 36, 81, 256, 625, 10**40]))
    )

    bad_numbers = [None, 0, -1, 1.5, True, 2**63, 2**70, float("nan"), float("inf"), "2", np.int32(2)]
    small = st.integers(1, 3)
    limit = st.one_of(small, small, small, st.integers(1, 2**62), st.sampled_from(bad_numbers))
    time_limit = st.one_of(st.none(), st.sampled_from([0.3, 1, np.float32(0.3)]), st.sampled_from(bad_numbers))

    @st.composite
    def made_puzzle(draw):
        """(variant, puzzle line, solution line or None): a subset of a solution, sometimes with a stray given."""
        variant, sol = draw(st.sampled_from(pool().solutions))
        keep = draw(st.floats(0.0, 1.0))
        rnd = random.Random(draw(st.integers(0, 2**32)))
        chars = [ch if rnd.random() < keep else "." for ch in sol]
        stray = draw(st.booleans()) and draw(st.booleans())
        if stray:
            i = rnd.randrange(len(chars))
            chars[i] = rnd.choice(sol[:9] if len(sol) <= 81 else sol)
        return variant, "".join(chars), None if stray else sol

    solve = st.tuples(made_puzzle(), limit, time_limit, st.sampled_from(["solve", "count"]))

    values = st.one_of(
        st.integers(0, 9), st.integers(0, 9), st.sampled_from([257, -1, 10, 0.5, 1.9, math.nan, math.inf, -math.inf])
    )
    rows = st.lists(
        st.one_of(made_puzzle().map(lambda m: m[1] if m[0] == "standard" and len(m[1]) == 81 else "." * 81), st.none()),
        min_size=1,
        max_size=6,
    )
    array_case = st.tuples(
        rows,
        st.sampled_from(["uint8", "int64", "float64", "int8", "uint16", "bool", "object", "lines"]),
        st.lists(st.tuples(st.integers(0, 5), st.integers(0, 80), values), max_size=2),
        st.sampled_from([1, 2, 2, 2**40]),
    )

    @st.composite
    def logic_case(draw):
        puzzle, sol = draw(st.sampled_from(pool().unique9))
        return puzzle, sol, draw(st.integers(0, 2**32)), draw(st.floats(0.0, 0.6)), draw(st.booleans())

    return {
        "parse": parse,
        "readers": readers,
        "geometry": geometry,
        "solve": solve,
        "solve_many": array_case,
        "logic": logic_case(),
    }


def run_parse(tally: Tally, case) -> None:
    import sudokit
    from sudokit.formats import parse_grid

    text, variant, mode = case

    def go():
        geometry = sudokit.from_name(variant, 81 if variant in ("diagonal", "windoku") else None) if variant else None
        return parse_grid(text, geometry=geometry, mode=mode)

    def check(grid) -> str | None:
        again = parse_grid(grid.to_line(), geometry=grid.geometry)
        return None if again == grid else f"{text!r} read back as a different grid"

    attempt(tally, f"parse({text!r}, {variant}, {mode})", go, check)


def run_readers(tally: Tally, case) -> None:
    import sudokit
    from sudokit.formats import entries_from_text

    lines, fmt, variant = case
    text = "\n".join(lines)

    def go():
        geometry = sudokit.from_name(variant, 81 if variant in ("diagonal", "windoku") else None) if variant else None
        return list(entries_from_text(text, fmt=fmt, geometry=geometry))

    def check(entries) -> str | None:
        for e in entries:
            if e.ok and e.grid is None:
                return "an entry marked ok without a grid"
            if not e.ok and e.error is None:
                return "a bad entry without its error"
        return None

    attempt(tally, f"entries_from_text({text!r}, {fmt}, {variant})", go, check)


def run_geometry(tally: Tally, case) -> None:
    from sudokit.geometry import from_name

    name, n_cells = case

    def check(g) -> str | None:
        if not all(len(set(u)) == g.size for u in g.units):
            return f"{name!r}: a unit without {g.size} distinct cells"
        return None

    attempt(tally, f"from_name({name!r}, {n_cells})", lambda: from_name(name, n_cells), check)


def _solution_problem(result, puzzle, solution_known: str | None) -> str | None:
    from sudokit.grid import is_solution

    if result.solution is not None and not is_solution(result.solution, puzzle):
        return "a solution that breaks the rules or the givens"
    if solution_known is not None and str(result.status) in ("no_solution", "invalid"):
        return f"status {result.status} for a subset of a solution"
    if str(result.status) == "solved" and result.solution is None:
        return "solved without a solution"
    return None


def run_solve(tally: Tally, case) -> None:
    import sudokit

    (variant, line, known), limit, time_limit, what = case
    if type(limit) is int and limit > 1000 and time_limit is None:
        time_limit = 0.3  # counting up to a huge limit is long by request: bound it, as a user would
    if known is None and len(line) > 81 and time_limit is None:
        # A stray given on a board of 16x16 or more can leave a puzzle with no solution that no propagation
        # sees, and proving that may take a search of the whole tree: what ``time_limit`` is for. Bound it, as
        # a user would. (Subsets of a solution are not bounded: they must be solved within the hang limit.)
        time_limit = 2.0
    geometry = _geometry(variant, line)
    puzzle = sudokit.parse(line, geometry=geometry)
    label = f"{what}({line!r}, {variant}, limit={limit!r}, time_limit={time_limit!r})"
    if what == "solve":
        attempt(
            tally,
            label,
            lambda: sudokit.solve(puzzle, limit=limit, time_limit=time_limit),
            lambda r: _solution_problem(r, puzzle, known),
        )
        return

    def check(count) -> str | None:
        if not 0 <= count <= limit:
            return f"count {count} outside 0..{limit}"
        if known is not None and count == 0:
            return "no solution counted for a subset of a solution"
        return None

    attempt(tally, label, lambda: sudokit.count_solutions(puzzle, limit=limit, time_limit=time_limit), check)


def run_solve_many(tally: Tally, case) -> None:
    from sudokit.engine import solve_all
    from sudokit.geometry import standard
    from sudokit.grid import Grid, is_solution

    rows, dtype, edits, limit = case
    lines = [r if r is not None else "".join(random.choice("123456789..") for _ in range(81)) for r in rows]
    arr = np.array([[0 if ch == "." else int(ch) for ch in line] for line in lines], dtype=np.float64)
    for r, c, v in edits:
        arr[r % len(arr), c] = v
    if dtype == "lines":
        data = [
            "".join("." if v == 0 else str(int(v)) if 0 < v <= 9 and v == int(v) else "?" for v in row) for row in arr
        ]
    else:
        with np.errstate(invalid="ignore"), warnings_off():
            data = arr.astype(dtype)
    puzzles = [None] * len(arr)

    def go():
        return solve_all(data, limit=limit, time_limit=0.05)

    def check(batch) -> str | None:
        if len(batch) != len(arr):
            tally.note("lost", f"{len(arr)} puzzles in, {len(batch)} results out")
        for i in range(len(batch)):
            if int(batch.status[i]) in (0, 2):
                puzzles[i] = Grid(standard(), tuple(int(v) for v in batch.puzzles[i]))
                if not is_solution(Grid(standard(), tuple(int(v) for v in batch.solutions[i])), puzzles[i]):
                    return f"row {i}: a solution that breaks the rules or the givens"
        return None

    attempt(tally, f"solve_many({dtype}, {lines}, {edits}, limit={limit})", go, check)


@contextlib.contextmanager
def warnings_off():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def run_logic(tally: Tally, case) -> None:
    import sudokit
    from sudokit.logic import State, hint, next_step

    puzzle, sol, seed, drop, garbage = case
    rnd = random.Random(seed)
    state = State.from_grid(sudokit.parse(puzzle))
    digits = [int(ch) for ch in sol]
    for cell in range(81):
        if state.values[cell] == 0:
            for d in range(1, 10):
                if rnd.random() < drop and (garbage or d != digits[cell]) and state.cands[cell] >> (d - 1) & 1:
                    state.eliminate(cell, d)

    def check(step) -> str | None:
        if step is None or garbage:
            return None
        for cell, d in step.placements:
            if digits[cell] != d:
                return f"{step.technique} places {d} at cell {cell}, the solution has {digits[cell]}"
        for cell, d in step.eliminations:
            if digits[cell] == d:
                return f"{step.technique} removes the solution's {d} from cell {cell}"
        return None

    use_hint = rnd.random() < 0.3
    label = f"{'hint' if use_hint else 'next_step'}({puzzle}, seed={seed}, drop={drop}, garbage={garbage})"
    level = rnd.choice([1, 2])
    attempt(tally, label, (lambda: hint(state, level=level)) if use_hint else (lambda: next_step(state)), check)


def warm_up() -> None:
    """Load (or compile, in a fresh checkout) the kernels the targets use, so no input is timed with it."""
    import sudokit
    from sudokit.logic import State, next_step

    p = pool()
    for variant, sol in p.solutions[-6:]:
        sudokit.solve(sudokit.parse("." * len(sol), geometry=_geometry(variant, sol)), limit=2, time_limit=1.0)
    list(sudokit.solve_many(np.zeros((2, 81)), limit=1, time_limit=1.0))
    list(sudokit.solve_many(np.zeros((2, 256)), limit=1, time_limit=1.0))
    next_step(State.from_grid(sudokit.parse(p.unique9[0][0])))


RUNNERS = {
    "parse": run_parse,
    "readers": run_readers,
    "geometry": run_geometry,
    "solve": run_solve,
    "solve_many": run_solve_many,
    "logic": run_logic,
}


def run_target(name: str, examples: int, tally: Tally | None = None, seed: int = 0) -> Tally:
    """Run one library target on ``examples`` hypothesis inputs (no shrinking, no example database)."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    tally = tally or Tally(name)
    runner = RUNNERS[name]
    warm_up()

    @hseed(seed)
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategies()[name])
    def each(case):
        runner(tally, case)

    each()
    return tally


# ---- the command line ----------------------------------------------------------------------------------------
#: Commands left out: they serve forever, or are long benchmarks/proofs by design.
SKIP_COMMANDS = {"serve", "bench"}
SKIP_SUBCOMMANDS = {("rules", "reproduce"), ("rules", "classify"), ("rules", "beyond")}
#: Options that start a long computation by design (a SAT call per constraint pair).
SKIP_OPTIONS = {("rules", "small"): {"minimality"}}
#: Options given a bounded value on every run: each is what stops a legitimately long run.
BOUNDED = {"time_limit": ["0.5", "1", "2"], "count": ["1", "2"], "max_puzzles": ["1", "3"], "limit": ["1", "2", "5"]}


def cli_values(puzzles: list[str], files: list[str]) -> dict[str, list[str]]:
    """Pools of values for option and argument names (good, edge and bad)."""
    bad_ints = ["0", "-1", "1e20", "99999999999999999999", "x", ""]
    return {
        "int": ["1", "2", "3", *bad_ints],
        "float": ["0.5", "2", "0", "-1", "nan", "inf", "1e400", "x"],
        "variant": [
            "standard",
            "diagonal",
            "windoku",
            "4x4",
            "6x6",
            "2x3",
            "16x16",
            "²x3",
            "100x100",
            "jigsaw:ab",
            "x",
        ],
        "output": ["out.png", "out.svg", "out.pdf", "out.txt", "out.gif", "out.html", "-", "no/such/dir/out.png"],
        "method": ["engine", "norvig", "ac3", "udacity", "backtrack", "bogus"],
        "clues": ["25", "22-30", "x", "-5", "99999999999999999999", "30-20"],
        "rating": ["1-3", "x", "5-1", "1.5-9", "nan-inf"],
        "pattern": ["x" * 30 + "." * 51, "xx", "x" * 81, "abc"],
        "str": ["x", "", "1", "²", "-"],
        "puzzle": puzzles + files + ["-", "no_such_file.txt", ".", "123"],
    }


def _param_pool(cmd_name: str, param, pools: dict[str, list[str]]) -> list[str] | None:
    import click

    from sudokit.cli.inputs import Seconds

    name = param.name or ""
    if isinstance(param, click.Argument):
        return pools["puzzle"] if name in ("puzzle", "puzzles", "file", "grid", "target") else pools["str"] + ["all"]
    if name in BOUNDED and not (cmd_name == "solve" and name == "count"):
        return BOUNDED[name] + ["0", "-1", "nan", "x"]
    t = param.type
    if isinstance(t, click.Choice):
        return list(t.choices) + ["bogus"]
    if isinstance(t, (click.types.IntParamType, click.IntRange)):
        return pools["int"]
    if isinstance(t, (click.types.FloatParamType, Seconds, click.FloatRange)):
        return pools["float"]
    for key in ("variant", "output", "method", "clues", "rating", "pattern"):
        if key in name:
            return pools[key]
    return pools["str"]


def commands() -> list[tuple[list[str], object]]:
    """Every (command path, click command) the CLI fuzz runs."""
    import click

    from sudokit.cli import main

    ctx = click.Context(main)
    out = []
    for name in main.list_commands(ctx):
        if name in SKIP_COMMANDS:
            continue
        cmd = main.get_command(ctx, name)
        if isinstance(cmd, click.Group):
            for sub in cmd.list_commands(ctx):
                if (name, sub) not in SKIP_SUBCOMMANDS:
                    out.append(([name, sub], cmd.get_command(ctx, sub)))
        else:
            out.append(([name], cmd))
    return out


def random_argv(rnd: random.Random, path: list[str], cmd, pools) -> list[str]:
    """An argv for one command: a random subset of its options with values from the pools, its arguments."""
    import click

    argv = list(path)
    for param in cmd.params:
        if isinstance(param, click.Option):
            if param.name in ("help", "version") or param.name in SKIP_OPTIONS.get(tuple(path), ()):
                continue
            bounded = param.name in BOUNDED and not (path[0] == "solve" and param.name == "count")
            if not (param.required or bounded or rnd.random() < 0.3):
                continue
            flag = rnd.choice(param.opts)
            if param.is_flag:
                argv.append(rnd.choice(param.opts + param.secondary_opts))
            elif getattr(param, "_flag_needs_value", False) and rnd.random() < 0.3:
                argv.append(flag)  # an option whose value may be left out (solve --count)
            else:
                argv += [flag, rnd.choice(_param_pool(path[0], param, pools))]
        elif isinstance(param, click.Argument):
            pool_ = _param_pool(path[0], param, pools)
            k = 1 if param.nargs == 1 else rnd.randint(1, 3)
            argv += [rnd.choice(pool_) for _ in range(k)]
    if rnd.random() < 0.05:
        argv.insert(rnd.randint(1, len(argv)), rnd.choice(["--bogus", "-Z", "--", "--help"]))
    return argv


def cli_files(folder: Path, rnd: random.Random) -> list[str]:
    """Puzzle files with good lines and bad ones (wrong length, stray letters, clashes, blank and comment lines)."""
    good = _lines("kaggle_sample.txt", 40) + _lines("norvig_top95.txt", 5)
    bad = [
        "4....x8.5" + "." * 72,
        "1" * 81,
        "." * 80,
        "." * 82,
        "G" + "." * 80,
        "# a comment",
        "",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4....4.",
    ]
    paths = []
    for i in range(4):
        lines = [rnd.choice(good) if rnd.random() < 0.7 else rnd.choice(bad) for _ in range(rnd.randint(1, 30))]
        p = folder / f"puzzles{i}.txt"
        p.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(str(p))
    (folder / "one.txt").write_text(good[0] + "\n", encoding="utf-8")
    (folder / "sixteen.txt").write_text("\n".join(_lines("sudoku16_janko.txt", 2)) + "\n", encoding="utf-8")
    (folder / "kaggle.csv").write_text(
        "puzzle,solution\n" + "\n".join(f"{p},{s}" for p, s in zip(good[:5], _lines("kaggle_sample.solutions.txt", 5)))
    )
    return paths + [str(folder / n) for n in ("one.txt", "sixteen.txt", "kaggle.csv")]


def run_cli(runs: int, subprocess_share: float, seed: int = 1, verbose: bool = False) -> Tally:
    """``runs`` random command lines; ``subprocess_share`` of them through ``python -m sudokit``."""
    from click.testing import CliRunner

    from sudokit.cli import main

    tally = Tally("cli")
    rnd = random.Random(seed)
    puzzles = _lines("kaggle_sample.txt", 5) + _lines("norvig_top95.txt", 2) + _lines("sudoku4_vu.txt", 2)
    puzzles += _lines("sudoku16_janko.txt", 1) + ["4....x8.5" + "." * 72, "1" * 81, "." * 81]
    all_commands = commands()
    warm_up()
    for path, _ in all_commands:  # each command's kernels loaded (or compiled) once, untimed
        for puzzle in (puzzles[0], "1..4..1..3..4..3"):
            CliRunner().invoke(main, [*path, puzzle], catch_exceptions=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        pools = cli_values(puzzles, cli_files(folder, rnd))
        old = os.getcwd()
        os.chdir(folder)
        try:
            for _ in range(runs):
                path, cmd = rnd.choice(all_commands)
                argv = random_argv(rnd, path, cmd, pools)
                stdin = "\n".join(rnd.sample(puzzles, 2)) + "\n"
                if verbose:
                    print(f"{time.strftime('%H:%M:%S')} sudokit {' '.join(argv)}", file=sys.stderr, flush=True)
                if rnd.random() < subprocess_share:
                    _cli_subprocess(tally, argv, stdin)
                    continue

                def go(argv=argv, stdin=stdin):
                    result = CliRunner().invoke(main, argv, input=stdin, catch_exceptions=True)
                    exc = result.exception
                    if exc is not None and not isinstance(exc, SystemExit):
                        tb = "".join(traceback.format_exception(exc, limit=4))
                        tally.note("tracebacks", f"sudokit {' '.join(argv)}\n{tb}")
                    elif "Traceback (most recent call last)" in result.output:
                        tally.note("tracebacks", f"sudokit {' '.join(argv)}: a traceback in the output")
                    return result

                attempt(tally, f"sudokit {' '.join(argv)}", go)
        finally:
            os.chdir(old)
    return tally


def _cli_subprocess(tally: Tally, argv: list[str], stdin: str) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    tally.tried += 1
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "sudokit", *argv],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=HANG_SECONDS * 3,
            env=env,
        )
    except subprocess.TimeoutExpired:
        tally.note("hangs", f"python -m sudokit {' '.join(argv)}")
        return
    tally.times.append(time.perf_counter() - start)
    if "Traceback (most recent call last)" in done.stderr:
        tally.note("tracebacks", f"python -m sudokit {' '.join(argv)}\n{done.stderr[-1500:]}")


def run_batch(files: int, lines_per_file: int, seed: int = 2) -> Tally:
    """``sudokit solve FILE`` on files of mixed lines: one output line per input line, each solution right."""
    from click.testing import CliRunner

    import sudokit
    from sudokit.cli import main
    from sudokit.grid import is_solution

    tally = Tally("batch")
    rnd = random.Random(seed)
    good = _lines("17_clue.txt", 400) + _lines("norvig_top95.txt", 95)
    sol = [s for _, s in pool().solutions if len(s) == 81][:20]
    bad = ["4....x8.5" + "." * 72, "." * 80, "." * 82, "G" + "." * 80, "é" * 81, "1" * 81, "." * 81]
    with tempfile.TemporaryDirectory() as tmp:
        for f in range(files):
            lines = []
            for _ in range(lines_per_file):
                r = rnd.random()
                lines.append(rnd.choice(good) if r < 0.8 else rnd.choice(sol) if r < 0.85 else rnd.choice(bad))
            path = Path(tmp) / f"batch{f}.txt"
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            args = ["solve", str(path), "--no-progress", "--first"] + (["--jobs", "2"] if f % 2 else [])

            def go(args=args):
                return CliRunner().invoke(main, args, catch_exceptions=True)

            def check(result, lines=lines) -> str | None:
                if result.exception is not None and not isinstance(result.exception, SystemExit):
                    tally.note("tracebacks", "".join(traceback.format_exception(result.exception, limit=4)))
                    return None
                out = result.stdout.splitlines()
                if len(out) != len(lines):
                    tally.note("lost", f"{len(lines)} lines in, {len(out)} out")
                for number, (inp, got) in enumerate(zip(lines, out), 1):
                    if got.startswith("#"):
                        if not got.startswith(f"# line {number}:"):
                            return f"line {number} answered by {got!r}"
                        continue
                    grid = sudokit.parse(got)
                    if not is_solution(grid, sudokit.parse(inp)):
                        return f"{got} does not solve {inp}"
                return None

            attempt(tally, f"sudokit {' '.join(args)}", go, check)
            tally.tried += lines_per_file - 1  # each line is one input
    return tally


def run_interrupt(runs: int, seed: int = 3) -> Tally:
    """Ctrl-C at a random instant of ``sudokit solve FILE`` (while it loads, compiles or solves), through the
    console script's launcher: no traceback, no bare "Aborted!", and every line the summary counts was written."""
    import signal

    tally = Tally("interrupt")
    rnd = random.Random(seed)
    launcher = "import sys, _sudokit_command as c; sys.argv[0] = 'sudokit'; c.main()"
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    lines = _lines("17_clue.txt", 400) * 10
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "puzzles.txt"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        for _ in range(runs):
            delay = rnd.uniform(0.0, 0.8)
            args = [sys.executable, "-c", launcher, "solve", str(path), "--no-progress"]
            tally.tried += 1
            start = time.perf_counter()
            child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
            time.sleep(delay)
            child.send_signal(signal.SIGINT)
            try:
                out, err = child.communicate(timeout=HANG_SECONDS)
            except subprocess.TimeoutExpired:
                child.kill()
                tally.note("hangs", f"Ctrl-C after {delay:.3f} s")
                continue
            tally.times.append(time.perf_counter() - start)
            text = err.decode("utf-8", "replace")
            if "Traceback (most recent call last)" in text and not _in_sudokit(text):
                tally.startup += 1  # Python's own start-up, before the launcher's first line: not ours to catch
            elif "Traceback (most recent call last)" in text:
                tally.note("tracebacks", f"Ctrl-C after {delay:.3f} s\n{text[-1500:]}")
            elif "Aborted!" in text:
                tally.note("tracebacks", f"Ctrl-C after {delay:.3f} s: a bare Aborted!")
            written = len(out.splitlines())
            counted = _summary_count(text)
            if counted is not None and counted != written:
                tally.note("lost", f"Ctrl-C after {delay:.3f} s: the summary counts {counted}, {written} written")
    return tally


def _in_sudokit(traceback_text: str) -> bool:
    """Whether a traceback passes through sudokit's code (the launcher or the package), not only the interpreter's
    start-up and the ``-c`` line that imports the launcher."""
    return "_sudokit_command.py" in traceback_text or f"{os.sep}sudokit{os.sep}" in traceback_text


def _summary_count(stderr: str) -> int | None:
    """The puzzle count of a ``Solved K of N`` summary line, if there is one."""
    import re

    found = re.search(r"of ([\d,]+) puzzle", stderr)
    return int(found.group(1).replace(",", "")) if found else None


# ---- the report ----------------------------------------------------------------------------------------------
SIZES = {
    "full": {"examples": 17_000, "cli": 2_200, "subprocess": 0.03, "batch": (20, 1_000), "interrupt": 60},
    "quick": {"examples": 300, "cli": 120, "subprocess": 0.02, "batch": (2, 100), "interrupt": 6},
}


def _run_task(task) -> Tally:
    fn, args = task
    return fn(*args)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run (minutes)")
    parser.add_argument("--examples", type=int, default=None, help="hypothesis inputs per library target")
    parser.add_argument("--cli", type=int, default=None, help="CLI runs")
    parser.add_argument("--only", default=None, help="comma-separated targets (parse,...,logic,cli,batch,interrupt)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--verbose", action="store_true", help="print each command line before it runs")
    parser.add_argument("--jobs", type=int, default=1, help="targets run in this many processes at once")
    args = parser.parse_args()
    size = SIZES["quick" if args.quick else "full"]
    examples = args.examples or size["examples"]
    wanted = set(args.only.split(",")) if args.only else set(RUNNERS) | {"cli", "batch", "interrupt"}
    started = time.perf_counter()
    tasks = [(run_target, (name, examples, None, args.seed)) for name in RUNNERS if name in wanted]
    if "cli" in wanted:
        tasks.append((run_cli, (args.cli or size["cli"], size["subprocess"], args.seed + 1, args.verbose)))
    if "batch" in wanted:
        tasks.append((run_batch, (*size["batch"], args.seed + 2)))
    if "interrupt" in wanted:
        tasks.append((run_interrupt, (size["interrupt"], args.seed + 3)))
    tallies = []
    if args.jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(args.jobs) as workers:
            for tally in workers.map(_run_task, tasks):
                tallies.append(tally)
                print(tally.row(), flush=True, file=sys.stderr)
    else:
        for task in tasks:
            tallies.append(_run_task(task))
            print(tallies[-1].row(), flush=True, file=sys.stderr)
    total = Tally("**total**")
    for t in tallies:
        for f in ("tried", "tracebacks", "wrong", "hangs", "lost"):
            setattr(total, f, getattr(total, f) + getattr(t, f))
        total.times += t.times
    command = " ".join(["python benchmarks/fuzz.py", *sys.argv[1:]])
    print(f"`{command}`: {time.perf_counter() - started:.0f} s wall\n")
    print("| target | inputs tried | tracebacks | wrong answers | hangs | lost lines | p50 ms | p99 ms |")
    print("|---|---|---|---|---|---|---|---|")
    for t in [*tallies, total]:
        print(t.row())
    for t in tallies:
        if t.startup:
            print(
                f"\n{t.name}: {t.startup} of {t.tried} interrupts fell in Python's own start-up, before the launcher's "
                "first line ran (the interpreter prints its traceback there; no program can catch it)"
            )
        for e in t.examples:
            print(f"\n{t.name}: {e}")
    failed = total.tracebacks + total.wrong + total.hangs + total.lost
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
