"""The benchmark runner behind ``benchmarks/solve.py`` and ``sudokit bench``: tdoku's table columns.

For each dataset: puzzles/sec and µs/puzzle on one core (batch API), % solved without guessing,
guesses/puzzle, puzzles/sec on all cores, and the ratio against a pure-Python Norvig-style solver timed in
the same run (on a time-boxed sample, since it is thousands of times slower).
"""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sudokit.engine.batch import SOLVED, load_lines, solve_all, verify

DATASETS = ("kaggle_sample", "17_clue", "norvig_top95", "top1465", "forum_hardest_1905_11plus")


def default_data_dir() -> Path:
    """The repository's ``data/`` folder (next to ``src/``), or ``./data``."""
    here = Path(__file__).resolve().parents[3] / "data"
    return here if here.is_dir() else Path("data")


def machine() -> str:
    """The processor the figures were measured on, for the line under every benchmark table: its model, its
    cores and the target numba compiles the kernels for (``znver3``, ``icelake-server``, ...) with or without
    AVX-512. Ratios against other solvers move with it (tdoku's and this engine's differ by CPU)."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            model = next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), model)
    except OSError:
        pass
    import llvmlite.binding as llvm

    try:
        wide = " (AVX-512)" if llvm.get_host_cpu_features().get("avx512f") else " (no AVX-512)"
    except RuntimeError:  # llvmlite cannot read the features on every platform
        wide = ""
    return f"{model}, {os.cpu_count()} cores, numba target {llvm.get_host_cpu_name()}{wide}"


@dataclass
class Row:
    """One dataset's line of the table."""

    name: str
    puzzles: int
    load_ms: float
    rate_one: float
    rate_cpu: float
    rate_all: float
    no_guess_pct: float
    guesses: float
    baseline_rate: float | None
    baseline_name: str
    all_verified: bool

    @property
    def us_per_puzzle(self) -> float:
        return 1e6 / self.rate_one if self.rate_one else float("nan")


def _timed(fn: Callable[[], Any], repeat: int) -> tuple[float, Any, float]:
    """Best wall time of ``repeat`` runs, the last result, and the CPU time of the best run."""
    best, out, cpu = float("inf"), None, float("inf")
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        out = fn()
        wall = time.perf_counter() - start
        if wall < best:
            best, cpu = wall, time.process_time() - start_cpu
    return best, out, cpu


def baseline_solver() -> tuple[str, Callable[[str], object]]:
    """The pure-Python baseline: the ``norvig`` method of :mod:`sudokit.methods`, first solution only."""
    from sudokit.formats import parse_grid
    from sudokit.methods import METHODS

    norvig = METHODS["norvig"]
    return "methods.norvig", lambda line: norvig(parse_grid(line), limit=1)


def run_dataset(path: Path, workers: int, limit: int, repeat: int, baseline_seconds: float, baseline=None) -> Row:
    """Time one dataset: load with numpy, solve on one core and on ``workers`` threads, then the baseline."""
    start = time.perf_counter()
    puzzles, geometry = load_lines(path)
    load_ms = (time.perf_counter() - start) * 1e3
    n = len(puzzles)
    repeat = repeat if n >= 5000 else max(repeat, 5)  # small sets run in milliseconds: take the best of several
    solve_all(puzzles[: min(n, 50)], geometry=geometry, limit=limit, workers=1)  # load the compiled kernels
    if workers > 1:
        solve_all(puzzles[: min(n, 200)], geometry=geometry, limit=limit, workers=workers)
    t_one, one, cpu_one = _timed(
        lambda: solve_all(puzzles, geometry=geometry, limit=limit, workers=1, chunk=1 << 16), repeat
    )
    t_all = t_one
    if workers > 1:
        t_all, _, _ = _timed(
            lambda: solve_all(puzzles, geometry=geometry, limit=limit, workers=workers, chunk=1 << 16), repeat
        )
    verified = bool((one.status == SOLVED).all() and verify(puzzles, one.solutions, geometry).all())
    base_rate, base_name = None, ""
    if baseline is not None and baseline_seconds > 0:
        base_name, base_solve = baseline
        lines = ["".join(str(int(v)) if v else "." for v in row) for row in puzzles[: min(n, 2000)]]
        done, begin = 0, time.perf_counter()
        for line in lines:
            base_solve(line)
            done += 1
            if time.perf_counter() - begin > baseline_seconds:
                break
        base_rate = done / (time.perf_counter() - begin)
    return Row(
        name=path.stem,
        puzzles=n,
        load_ms=load_ms,
        rate_one=n / t_one,
        rate_cpu=n / cpu_one if cpu_one > 0 else float("nan"),
        rate_all=n / t_all,
        no_guess_pct=100.0 * float(np.mean(one.guesses == 0)),
        guesses=float(np.mean(one.guesses)),
        baseline_rate=base_rate,
        baseline_name=base_name,
        all_verified=verified,
    )


def table(rows: list[Row], workers: int) -> str:
    """The rows as a Markdown table."""
    head = (
        f"| dataset | puzzles | puzzles/sec (1 core) | µs/puzzle | % no guess | guesses/puzzle "
        f"| puzzles/sec ({workers} cores) | scaling | baseline puzzles/sec | engine / baseline "
        f"| puzzles/sec (1 core, CPU time) |"
    )
    lines = [head, "|" + "---|" * 11]
    for r in rows:
        base = f"{r.baseline_rate:,.0f}" if r.baseline_rate else "-"
        ratio = f"{r.rate_one / r.baseline_rate:,.0f}x" if r.baseline_rate else "-"
        lines.append(
            f"| {r.name} | {r.puzzles:,} | {r.rate_one:,.0f} | {r.us_per_puzzle:.1f} | {r.no_guess_pct:.1f} "
            f"| {r.guesses:.2f} | {r.rate_all:,.0f} | {r.rate_all / r.rate_one:.2f}x | {base} | {ratio} "
            f"| {r.rate_cpu:,.0f} |"
        )
    return "\n".join(lines)


def main(
    datasets: list[str] | None = None,
    data_dir: Path | None = None,
    workers: int | None = None,
    limit: int = 1,
    repeat: int = 1,
    baseline_seconds: float = 2.0,
    echo: Callable[[str], None] = print,
    progress: Callable[[str], None] = lambda text: None,
) -> list[Row]:
    """Run the benchmark and print the table (and a note of what was measured)."""
    data_dir = data_dir or default_data_dir()
    workers = workers or os.cpu_count() or 1
    baseline = baseline_solver() if baseline_seconds > 0 else None
    rows = []
    for name in datasets or DATASETS:
        path = data_dir / f"{name}.txt"
        rows.append(run_dataset(path, workers, limit, repeat, baseline_seconds, baseline))
        progress(f"{name}: {rows[-1].puzzles:,} puzzles, {rows[-1].rate_one:,.0f} puzzles/sec on one core")
    mode = "first solution (like tdoku's runner)" if limit == 1 else f"up to {limit} solutions (uniqueness checked)"
    echo(table(rows, workers))
    echo("")
    echo(
        f"engine: batch API, {mode}; parse time not included (numpy load); the last column divides by the "
        f"process's CPU time instead of wall time (steadier on a busy machine). "
        f"baseline: {rows[0].baseline_name or 'none'}, timed on up to {baseline_seconds:g} s per dataset."
    )
    echo(f"machine: {machine()}")
    if not all(r.all_verified for r in rows):
        echo("WARNING: some solutions failed verification")
    return rows
