"""Engine benchmark: ``python benchmarks/solve.py [--sets a,b] [--workers N] [--limit 1|2] [--repeat R]``.

``--compare-kernels`` instead times the general kernel against the 9x9 bitboard kernel on the same puzzles
(CPU time, one core, best of two runs each) and checks that they agree on status and count.
``--compare-with OLD.py`` times a saved copy of an older ``kernel9.py`` (kept outside ``src``) against the
current one in the same run, interleaved, best of ``--repeat`` runs of CPU time each (at least 10 on small sets).
``--compare-general OLD.py`` does the same for a saved copy of the general kernel, ``kernel.py``, on any board
(the 16x16 set ``sudoku16_janko`` too), and also checks that both kernels agree on status and count.

Prints tdoku's table (puzzles/sec, µs/puzzle, % solved without guessing, guesses/puzzle) for each bundled
dataset on one core and on all cores, with the ratio against a pure-Python Norvig solver timed in the same run.
The same runner is ``sudokit bench``.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

from sudokit.engine import bench


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(bench.DATASETS), help="comma-separated dataset names")
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[1] / "data")
    parser.add_argument("--workers", type=int, default=None, help="threads for the all-cores column")
    parser.add_argument("--limit", type=int, default=1, help="1: first solution (tdoku's runner); 2: uniqueness")
    parser.add_argument("--repeat", type=int, default=1, help="best of R runs")
    parser.add_argument("--baseline-seconds", type=float, default=2.0, help="time box of the Python baseline")
    parser.add_argument("--compare-kernels", action="store_true", help="general vs 9x9 bitboard kernel")
    parser.add_argument("--compare-with", type=Path, default=None, help="an old kernel9.py copy vs the current one")
    parser.add_argument("--compare-general", type=Path, default=None, help="an old kernel.py copy vs the current one")
    args = parser.parse_args()
    start = time.perf_counter()
    if args.compare_kernels:
        compare_kernels([s for s in args.sets.split(",") if s], args.data, args.limit)
        return
    if args.compare_general:
        names = [s for s in args.sets.split(",") if s]
        compare_general(args.compare_general, names, args.data, args.limit, args.repeat)
        return
    if args.compare_with:
        compare_with(args.compare_with, [s for s in args.sets.split(",") if s], args.data, args.limit, args.repeat)
        return
    bench.main(
        datasets=[s for s in args.sets.split(",") if s],
        data_dir=args.data,
        workers=args.workers,
        limit=args.limit,
        repeat=args.repeat,
        baseline_seconds=args.baseline_seconds,
        progress=lambda text: print(text, file=sys.stderr, flush=True),
    )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"total {time.perf_counter() - start:.1f} s, peak memory {peak:.0f} MiB")


def compare_kernels(names: list[str], data: Path, limit: int) -> None:
    """Old (general kernel) against new (bitboard kernel) on each dataset, in the same run."""
    import numpy as np

    from sudokit.engine import kernel, kernel9
    from sudokit.engine.batch import load_lines
    from sudokit.engine.tables import tables

    print("| dataset | general kernel | bitboard kernel | speed-up | guesses/puzzle (old → new) |")
    print("|---|---|---|---|---|")
    for name in names:
        puzzles, geometry = load_lines(data / f"{name}.txt")
        k = len(puzzles)

        def run(fast: bool, rows: np.ndarray = puzzles, geometry=geometry):
            n = len(rows)
            out = (np.zeros_like(rows), np.zeros(n, np.int8), np.zeros(n, np.int64), np.zeros((n, 3), np.int64))
            if fast:
                kernel9.search9_rows(rows, 0, n, limit, 0, *out, *kernel9.table_args())
            else:
                kernel.search_rows(rows, 0, n, *tables(geometry).args(), limit, 0, *out)
            return out

        run(False, puzzles[:10]), run(True, puzzles[:10])  # load the compiled kernels
        best = {False: float("inf"), True: float("inf")}
        results = {}
        for fast in (False, True, False, True):
            cpu = time.process_time()
            results[fast] = run(fast)
            best[fast] = min(best[fast], time.process_time() - cpu)
        old, new = results[False], results[True]
        assert (old[1] == new[1]).all() and (old[2] == new[2]).all(), f"{name}: the kernels disagree"
        print(
            f"| {name} | {k / best[False]:,.0f}/s | {k / best[True]:,.0f}/s | {best[False] / best[True]:.2f}x "
            f"| {old[3][:, 0].mean():.2f} → {new[3][:, 0].mean():.2f} |",
            flush=True,
        )


def compare_with(old_file: Path, names: list[str], data: Path, limit: int, repeat: int) -> None:
    """An old copy of ``kernel9.py`` against the current module, interleaved in the same process (CPU time)."""
    import inspect

    import numpy as np

    from sudokit.engine import kernel9

    old = _load_old("kernel9_old", old_file)

    def budget(mod) -> tuple:
        """``(0,)`` (no time limit) for a kernel that takes a time budget; older copies take none."""
        return (0,) if "budget" in inspect.signature(mod.search9_rows.py_func).parameters else ()

    def run(mod, rows: np.ndarray, geometry):
        n = len(rows)
        out = (np.zeros_like(rows), np.zeros(n, np.int8), np.zeros(n, np.int64), np.zeros((n, 3), np.int64))
        mod.search9_rows(rows, 0, n, limit, *budget(mod), *out, *mod.table_args())
        return out

    _old_against_new(old, kernel9, run, names, data, repeat, "kernel9", ("guesses", 0))


def compare_general(old_file: Path, names: list[str], data: Path, limit: int, repeat: int) -> None:
    """An old copy of the general kernel (``kernel.py``) against the current one, interleaved in the same process
    (CPU time), on any board."""
    import numpy as np

    from sudokit.engine import kernel
    from sudokit.engine.tables import tables

    old = _load_old("kernel_old", old_file)

    def run(mod, rows: np.ndarray, geometry):
        n = len(rows)
        out = (np.zeros_like(rows), np.zeros(n, np.int8), np.zeros(n, np.int64), np.zeros((n, 3), np.int64))
        mod.search_rows(rows, 0, n, *tables(geometry).args(), limit, 0, *out)
        return out

    _old_against_new(old, kernel, run, names, data, repeat, "kernel", ("nodes", 1))


def _load_old(name: str, path: Path):
    """A saved copy of a kernel module, imported as ``name``."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, path)
    old = importlib.util.module_from_spec(spec)
    sys.modules[name] = old  # numba's cache imports the module by name when it loads a compiled kernel
    spec.loader.exec_module(old)
    return old


def _old_against_new(old, new, run, names: list[str], data: Path, repeat: int, what: str, stat: tuple[str, int]):
    """``run(module, rows, geometry)`` for both modules on each set, interleaved, best of ``repeat`` runs of CPU
    time (at least 10 on sets under 5,000 puzzles); both must agree on status and count, and every solution found
    must solve its puzzle. ``stat``: the statistic printed per puzzle (its name, its column in the stats)."""
    from sudokit.engine.batch import load_lines, verify

    label, column = stat
    print(f"| dataset | puzzles | old {what} | new {what} | speed-up | {label}/puzzle (old → new) |")
    print("|---|---|---|---|---|---|")
    for name in names:
        puzzles, geometry = load_lines(data / f"{name}.txt")
        k = len(puzzles)
        run(old, puzzles[:10], geometry), run(new, puzzles[:10], geometry)  # load the compiled kernels
        best = {"old": float("inf"), "new": float("inf")}
        results = {}
        for _ in range(repeat if k >= 5000 else max(repeat, 10)):
            for tag, mod in (("old", old), ("new", new)):
                cpu = time.process_time()
                results[tag] = run(mod, puzzles, geometry)
                best[tag] = min(best[tag], time.process_time() - cpu)
        a, b = results["old"], results["new"]
        assert (a[1] == b[1]).all() and (a[2] == b[2]).all(), f"{name}: the kernels disagree"
        found = b[2] > 0
        assert verify(puzzles[found], b[0][found], geometry).all(), f"{name}: a wrong solution"
        print(
            f"| {name} | {k:,} | {k / best['old']:,.0f}/s | {k / best['new']:,.0f}/s | "
            f"{best['old'] / best['new']:.2f}x | {a[3][:, column].mean():.2f} → {b[3][:, column].mean():.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
