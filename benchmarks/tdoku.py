"""sudokit against tdoku, side by side: ``python benchmarks/tdoku.py [--tdoku-dir DIR] [--repeat N] [--sets a,b]``.

tdoku (github.com/t-dillon/tdoku, BSD-licensed C++) is never part of this repository and this runner never
downloads it. Clone it yourself, then point ``--tdoku-dir`` at the clone (default: ``$SUDOKIT_TDOKU_DIR`` or
``~/.cache/sudokit-bench/tdoku``). If ``DIR/build/run_benchmark`` is missing and ``cmake`` and a C++ compiler
are on the PATH, the runner builds it there (``cmake -S DIR -B DIR/build``, target ``run_benchmark``; tdoku's
CMakeLists compiles with ``-O3 -march=native``).

For every bundled 9x9 set and both modes (first solution, tdoku's ``-f``; count to 2, its default), each of
the ``--repeat`` rounds runs tdoku's own benchmark program (``run_benchmark -s tdoku -r0``: the puzzles exactly
as given, no random permutation, one pass over the file per timed loop) and then sudokit's batch API
(``solve_all(..., workers=1)``, which includes the rule check of every answer) on the same file. The process
is pinned to one core and both sides run on it. Each side keeps its best round.

Each round of either side is a fresh process: tdoku's program is started once a round, and so is sudokit's
(this file with ``--round``, its compiled kernels loaded from numba's cache before the timing starts). A
process's speed moves by a few per cent with where its code and data land in memory (the same round
measured 163,500 to 171,100 norvig_top95 puzzles a second in six processes), so the best of five rounds is
the best of five processes on both sides, not five rounds of one process against five processes.

Both rates are per CPU second, because on a shared machine wall time measures the neighbours: sudokit's is
the puzzles solved over the process's CPU time; tdoku reports puzzles over wall time, so its rate is divided
by the CPU share its process had over its whole run (user + system time over wall time, from the child's
rusage). The "CPU share" columns show how contended each side was. tdoku's guesses per puzzle are the ones
its runner prints; sudokit's are its kernel's, counted the same way (a digit tried while others remain).

When tdoku is not available, the runner prints sudokit's figures beside the last recorded tdoku figures
(:data:`RECORDED`, with the date and the machine's load when they were measured).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from sudokit.engine.batch import PARALLEL_FROM, SOLVED, load_lines, solve_all, verify
from sudokit.engine.bench import machine

DATA = Path(__file__).resolve().parents[1] / "data"
SETS = (
    "kaggle_sample",
    "17_clue",
    "norvig_top95",
    "top1465",
    "forum_hardest_1905_11plus",
    "forum_hardest_1106",
    "serg_benchmark",
)
MODES = {1: "first", 2: "count-2"}

# The last side-by-side run (see docs/engine.md for the command): (set, limit) -> (tdoku puzzles per CPU
# second, tdoku guesses per puzzle, sudokit puzzles per CPU second, sudokit guesses per puzzle).
RECORDED_WHEN = (
    "2026-11-28 12:21 UTC, AMD EPYC (Zen 3, AVX2, numba target znver3), 2 cores, quiet (load 0.9-1.1), "
    "GCC 12.2 -O3 -march=native, --repeat 5 (each round a fresh process on both sides), after the deadly "
    "rectangles (kernel9's fourteenth round)"
)
RECORDED: dict[tuple[str, int], tuple[float, float, float, float]] = {
    ("kaggle_sample", 1): (634_329, 0.00, 1_736_110, 0.00),
    ("kaggle_sample", 2): (662_777, 0.00, 1_735_950, 0.00),
    ("17_clue", 1): (226_390, 0.46, 368_521, 0.48),
    ("17_clue", 2): (222_362, 0.57, 351_019, 0.59),
    ("norvig_top95", 1): (162_859, 6.07, 169_860, 6.22),
    ("norvig_top95", 2): (78_743, 11.05, 91_372, 11.95),
    ("top1465", 1): (115_028, 6.07, 155_248, 5.79),
    ("top1465", 2): (77_401, 8.94, 99_595, 8.76),
    ("forum_hardest_1905_11plus", 1): (25_244, 34.17, 31_000, 33.99),
    ("forum_hardest_1905_11plus", 2): (14_040, 61.67, 17_289, 60.64),
    ("forum_hardest_1106", 1): (16_051, 59.76, 21_799, 51.75),
    ("forum_hardest_1106", 2): (8_689, 110.44, 10_112, 111.99),
    ("serg_benchmark", 1): (362_581, 6.40, 375_490, 6.05),
    ("serg_benchmark", 2): (323_869, 7.05, 341_377, 6.58),
}


@dataclass
class Side:
    """One solver's best round on one set and mode."""

    rate: float = 0.0  # puzzles per CPU second
    guesses: float = float("nan")
    share: float = float("nan")  # CPU time over wall time, in the best round
    wall: float = 0.0  # puzzles per wall-clock second


def default_tdoku_dir() -> Path:
    return Path(os.environ.get("SUDOKIT_TDOKU_DIR", Path.home() / ".cache" / "sudokit-bench" / "tdoku"))


def find_tdoku(tdoku_dir: Path, build: bool) -> tuple[Path | None, str]:
    """tdoku's ``run_benchmark`` under ``tdoku_dir`` (built there if needed and possible), or None and why."""
    binary = tdoku_dir / "build" / "run_benchmark"
    if binary.is_file() and os.access(binary, os.X_OK):
        return binary, f"{binary}"
    if not (tdoku_dir / "CMakeLists.txt").is_file() or not (tdoku_dir / "src" / "run_benchmark.cc").is_file():
        return None, f"no tdoku source in {tdoku_dir} (clone github.com/t-dillon/tdoku there or pass --tdoku-dir)"
    compiler = next((c for c in ("c++", "g++", "clang++") if shutil.which(c)), None)
    if not shutil.which("cmake") or compiler is None:
        return None, "tdoku's source is there but cmake or a C++ compiler is missing"
    if not build:
        return None, f"{binary} is not built (--no-build)"
    print(f"building tdoku's run_benchmark in {tdoku_dir / 'build'} ...", file=sys.stderr, flush=True)
    log = tdoku_dir / "build.log"
    with log.open("w") as out:
        for cmd in (
            ["cmake", "-S", str(tdoku_dir), "-B", str(tdoku_dir / "build"), "-DCMAKE_BUILD_TYPE=Release"],
            ["cmake", "--build", str(tdoku_dir / "build"), "--target", "run_benchmark"],
        ):
            if subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT).returncode != 0:
                return None, f"building tdoku failed; see {log}"
    return (binary, str(binary)) if binary.is_file() else (None, f"no {binary} after the build; see {log}")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_tdoku(binary: Path, path: Path, n: int, limit: int, seconds: int) -> Side:
    """One run of tdoku's benchmark program on ``path``: its rate per CPU second and its guesses per puzzle."""
    cmd = [str(binary), "-s", "tdoku", "-c1", "-r0", "-n", str(n), "-t", str(seconds), "-w", "1", str(path)]
    if limit == 1:
        cmd.insert(1, "-f")
    cpu, wall = _children_cpu(), time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    cpu, wall = _children_cpu() - cpu, time.perf_counter() - wall
    rows = [line for line in done.stdout.splitlines() if ",tdoku," in line]
    if done.returncode != 0 or not rows:
        raise SystemExit(f"sudokit: error: tdoku's run_benchmark failed on {path.name}: {done.stdout[-300:]}")
    fields = rows[-1].rsplit(",", 4)  # ..., solver, puzzles/sec, usec/puzzle, % no guess, guesses/puzzle
    share = min(1.0, cpu / wall) if wall > 0 else 1.0
    return Side(rate=float(fields[1]) / share, guesses=float(fields[4]), share=share)


def run_sudokit(puzzles: np.ndarray, geometry, limit: int, min_seconds: float, workers: int = 1) -> Side:
    """Whole passes of the batch API over ``puzzles`` on ``workers`` threads until ``min_seconds`` of CPU
    time (and of wall time, with more than one worker)."""
    passes, cpu, wall = 0, time.process_time(), time.perf_counter()
    while True:
        batch = solve_all(puzzles, geometry=geometry, limit=limit, workers=workers, chunk=1 << 16)
        passes += 1
        if time.process_time() - cpu >= min_seconds and time.perf_counter() - wall >= min_seconds:
            break
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    ok = (batch.status == SOLVED) if limit == 1 else (batch.counts >= 1)
    found = batch.status == SOLVED
    if not ok.all() or not verify(puzzles[found], batch.solutions[found], geometry).all():
        raise SystemExit("sudokit: error: an answer failed the check")
    n = passes * len(puzzles)
    return Side(rate=n / cpu, guesses=float(np.mean(batch.guesses)), share=min(1.0, cpu / wall), wall=n / wall)


def run_two_workers(puzzles: np.ndarray, geometry, limit: int, min_seconds: float, cores: set[int]) -> Side:
    """:func:`run_sudokit` on two threads, the process let onto ``cores`` (all it was allowed) meanwhile."""
    pinned = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    if pinned is not None:
        os.sched_setaffinity(0, cores)
    try:
        return run_sudokit(puzzles, geometry, limit, min_seconds, workers=2)
    finally:
        if pinned is not None:
            os.sched_setaffinity(0, pinned)


def run_round(path: Path, limit: int, seconds: int, allowed: set[int], threaded: bool) -> tuple[Side, Side | None]:
    """One round of sudokit's side in a fresh process (:func:`round_here` there): one worker on this process's
    core, then, when ``threaded``, two on the ``allowed`` cores. The process starts on ``allowed`` (every core
    this one could use before it pinned itself: numba sizes its thread pool from the cores a process may use when
    it is imported) and pins itself once loaded."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--round", str(path), str(limit), str(seconds)]
    if threaded:
        cmd += ["--cores", ",".join(map(str, sorted(allowed)))]
    pinned = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    if pinned is not None:
        cmd += ["--core", str(min(pinned))]
        os.sched_setaffinity(0, allowed or pinned)  # the child inherits this; it pins itself
    try:
        done = subprocess.run(cmd, capture_output=True, text=True)
    finally:
        if pinned is not None:
            os.sched_setaffinity(0, pinned)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        why = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(f"sudokit: error: a round on {path.name} failed: {why}")
    found = json.loads(lines[-1])
    return Side(**found["one"]), (Side(**found["two"]) if found["two"] else None)


def round_here(path: Path, limit: int, seconds: int, cores: set[int] | None, core: int | None) -> None:
    """The body of a ``--round`` process: pinned to ``core``, the kernels loaded (not timed), then
    :func:`run_sudokit` and, with ``cores``, :func:`run_two_workers`; both sides printed as one JSON line."""
    puzzles, geometry = load_lines(path)
    if core is not None:
        os.sched_setaffinity(0, {core})
    solve_all(puzzles[:50], geometry=geometry, limit=limit, workers=1)  # load the compiled kernels
    if cores:
        run_two_workers(puzzles[:PARALLEL_FROM], geometry, limit, 0, cores)  # and the threaded one
    one = run_sudokit(puzzles, geometry, limit, seconds)
    two = run_two_workers(puzzles, geometry, limit, seconds, cores) if cores else None
    print(json.dumps({"one": asdict(one), "two": asdict(two) if two else None}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tdoku-dir", type=Path, default=default_tdoku_dir(), help="a clone of tdoku")
    parser.add_argument("--no-build", action="store_true", help="do not build tdoku if run_benchmark is missing")
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated dataset names")
    parser.add_argument("--modes", default="1,2", help="1: first solution, 2: count to 2")
    parser.add_argument("--repeat", type=int, default=5, help="interleaved rounds; each side keeps its best")
    parser.add_argument("--seconds", type=int, default=1, help="tdoku's -t and sudokit's minimum CPU per round")
    parser.add_argument("--core", type=int, default=None, help="the core to pin to (default: the first allowed)")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--no-two-workers", action="store_true", help="skip the two-thread sudokit column")
    parser.add_argument("--round", nargs=3, metavar=("FILE", "LIMIT", "SECONDS"), help=argparse.SUPPRESS)
    parser.add_argument("--cores", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.round:  # one round of sudokit's side, in the process that run_round started
        file, limit, seconds = args.round
        cores_given = {int(c) for c in args.cores.split(",") if c} or None
        round_here(Path(file), int(limit), int(seconds), cores_given, args.core)
        return

    limits = [int(m) for m in args.modes.split(",") if m in ("1", "2")]
    if not limits or len(limits) != len([m for m in args.modes.split(",") if m]):
        parser.error(f"--modes takes 1 and/or 2, not {args.modes!r}")
    missing = [s for s in args.sets.split(",") if s and not (args.data / f"{s}.txt").is_file()]
    if missing:
        parser.error(f"no data file for {', '.join(missing)} in {args.data}")
    cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else set()
    if hasattr(os, "sched_setaffinity"):
        core = args.core if args.core is not None else min(cores)
        os.sched_setaffinity(0, {core})
    binary, where = find_tdoku(args.tdoku_dir.expanduser(), build=not args.no_build)
    print(f"tdoku: {where}", file=sys.stderr, flush=True)
    results: dict[tuple[str, int], tuple[Side, Side]] = {}
    pairs: dict[tuple[str, int], tuple[Side, float, float]] = {}  # two threads; wall and CPU rates over one
    two = not args.no_two_workers and len(cores) >= 2
    for name in [s for s in args.sets.split(",") if s]:
        path = args.data / f"{name}.txt"
        puzzles, _ = load_lines(path)
        for limit in limits:
            best_t, best_s, best_2 = Side(), Side(), (Side(), 0.0, 0.0)
            threaded = two and len(puzzles) >= PARALLEL_FROM  # smaller batches stay on one thread
            for _ in range(args.repeat):
                if binary is not None:
                    t = run_tdoku(binary, path, len(puzzles), limit, args.seconds)
                    best_t = t if t.rate > best_t.rate else best_t
                s, w = run_round(path, limit, args.seconds, cores, threaded)
                if w is not None:  # two threads right after one, and the ratio of their wall-clock rates kept
                    best_2 = max(best_2, (w, w.wall / s.wall, w.rate / s.rate), key=lambda x: x[1])
                best_s = s if s.rate > best_s.rate else best_s
            if threaded:
                pairs[(name, limit)] = best_2
            if binary is None and (name, limit) in RECORDED:
                rate, guesses, _, _ = RECORDED[(name, limit)]
                best_t = Side(rate=rate, guesses=guesses)
            results[(name, limit)] = (best_t, best_s)
            print(f"{name} {MODES[limit]}: tdoku {best_t.rate:,.0f}/s, sudokit {best_s.rate:,.0f}/s", file=sys.stderr)
    print(table(results, recorded=binary is None))
    if pairs:
        print()
        print(pair_table(pairs))
    print()
    if binary is None:
        print(f"tdoku not run ({where}); its columns are the last recorded figures ({RECORDED_WHEN}).")
    else:
        print(
            f"tdoku: {where} (-r0, -t {args.seconds}); sudokit: solve_all, one core, answers checked; "
            f"best of {args.repeat} interleaved rounds, puzzles per CPU second."
        )
    print(f"machine: {machine()}; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def pair_table(pairs: dict[tuple[str, int], tuple[Side, float, float]]) -> str:
    """Two threads against one (each round's two-thread run right after its one-thread run; the round with the
    best wall-clock ratio kept). Wall-clock: the speed-up itself, which on a machine shared with other jobs
    is a floor. Per CPU second: what the threads cost (1.00x means no overhead, so two free cores give 2x)."""
    lines = [
        "| dataset | mode | sudokit 2 workers puzzles/s (wall) | 2 workers / 1 worker (wall) | "
        "2 workers / 1 worker (per CPU second) | CPU share 2 workers |",
        "|" + "---|" * 6,
    ]
    for (name, limit), (w, wall, cpu) in pairs.items():
        lines.append(f"| {name} | {MODES[limit]} | {w.wall:,.0f} | {wall:.2f}x | {cpu:.2f}x | {w.share:.0%} |")
    return "\n".join(lines)


def table(results: dict[tuple[str, int], tuple[Side, Side]], recorded: bool = False) -> str:
    """The ratio table in Markdown; with ``recorded``, tdoku's columns and the ratio come from :data:`RECORDED`."""
    ratio = "sudokit / tdoku (recorded run)" if recorded else "sudokit / tdoku"
    tdoku = "tdoku puzzles/s (recorded)" if recorded else "tdoku puzzles/s"
    lines = [
        f"| dataset | mode | {tdoku} | sudokit puzzles/s | {ratio} | guesses/puzzle tdoku | "
        "guesses/puzzle sudokit | CPU share tdoku / sudokit |",
        "|" + "---|" * 8,
    ]
    for (name, limit), (t, s) in results.items():
        have = t.rate > 0
        if have and recorded:
            then = RECORDED[(name, limit)]
            factor = f"{then[2] / then[0]:.2f}x"
        else:
            factor = f"{s.rate / t.rate:.2f}x" if have else "-"
        lines.append(
            f"| {name} | {MODES[limit]} | {f'{t.rate:,.0f}' if have else '-'} | {s.rate:,.0f} | {factor} | "
            f"{f'{t.guesses:.2f}' if have else '-'} | {s.guesses:.2f} | {t.share:.0%} / {s.share:.0%} |".replace(
                "nan%", "-"
            )
        )
    return "\n".join(lines)


if __name__ == "__main__":
    main()
