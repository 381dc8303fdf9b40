"""Two workers against one: ``python benchmarks/parallel.py [--sets a,b] [--compare-with OLD.py ...]``.

For each set and mode (first solution, count to 2) each round runs the 9x9 kernel over the whole set on one
thread (:func:`sudokit.engine.kernel9.search9_rows`), then on two threads through the current
:mod:`sudokit.engine.parallel` (``search9_blocks``, the blocks :func:`sudokit.engine.batch._on_threads` asks
for), then, with ``--compare-with``, through saved copies of older ``parallel.py`` files (kept outside ``src``),
each pass repeated until it has taken ``--seconds`` of wall time. Prints, best of ``--repeat`` interleaved
rounds, the wall-clock ratio two workers / one worker (the speed-up; a floor on a machine shared with other
jobs) and the ratio per CPU second (what the threads cost: 1.00x means none). Every run must give the
one-thread run's statuses, counts and guesses. The machine's load average is printed at the end.

Because wall-clock ratios mean little on a busy machine, the last columns model the split instead, from each
puzzle's solve time on one thread (the kernel's cycle counter, each puzzle's best of three runs): the speed-up
two threads would get with no other load, each running a contiguous half of the ``prange`` iterations (as
numba's ``omp`` and ``workqueue`` layers do), when iteration ``i`` solves block ``i`` (the old split) and when
it solves block :func:`sudokit.engine.parallel.dealt` ``(i)`` (the current one).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time
from pathlib import Path

import numpy as np

from sudokit.engine import kernel9, parallel
from sudokit.engine.batch import _on_threads, load_lines

SETS = ("kaggle_sample", "17_clue", "top1465", "forum_hardest_1905_11plus", "serg_benchmark")


def _load_old(path: Path):
    """A saved copy of ``parallel.py``, imported under its own name (numba's cache finds it by that name)."""
    name = f"parallel_old_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    old = importlib.util.module_from_spec(spec)
    sys.modules[name] = old
    spec.loader.exec_module(old)
    return old


def _pass(mod, rows: np.ndarray, limit: int, n_blocks: int) -> tuple[np.ndarray, ...]:
    """One pass over ``rows``: on one thread when ``mod`` is None, else ``mod.search9_blocks``."""
    n = len(rows)
    out = (np.zeros_like(rows), np.zeros(n, np.int8), np.zeros(n, np.int64), np.zeros((n, 3), np.int64))
    args = (limit, 0, *out, *kernel9.table_args())
    if mod is None:
        kernel9.search9_rows(rows, 0, n, *args)
    else:
        mod.search9_blocks(rows, n_blocks, *args)
    return out


def _timed(mod, rows: np.ndarray, limit: int, n_blocks: int, seconds: float):
    """Passes until ``seconds`` of wall time: (puzzles per wall second, per CPU second, the last pass's output)."""
    passes, cpu, wall = 0, time.process_time(), time.perf_counter()
    while True:
        out = _pass(mod, rows, limit, n_blocks)
        passes += 1
        if time.perf_counter() - wall >= seconds:
            break
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    n = passes * len(rows)
    return n / wall, n / cpu, out


def modelled(rows: np.ndarray, limit: int, n_blocks: int) -> tuple[float, float]:
    """Two-thread speed-ups modelled from per-puzzle times, each thread running a contiguous half of the
    iterations: (iteration i solving block i, the old split; block ``parallel.dealt(i)``, the current one)."""
    n = len(rows)
    ticks = np.full(n, np.inf)
    for _ in range(3):  # each puzzle's best of three: a time slice lost to another process inflates one run
        out = (np.zeros_like(rows), np.zeros(n, np.int8), np.zeros(n, np.int64), np.zeros((n, 4), np.int64))
        kernel9.search9_rows(rows, 0, n, limit, 0, *out, *kernel9.table_args())
        ticks = np.minimum(ticks, out[3][:, 3])
    edges = [b * n // n_blocks for b in range(n_blocks + 1)]
    blocks = np.array([ticks[edges[b] : edges[b + 1]].sum() for b in range(n_blocks)])
    half = n_blocks // 2
    dealt = blocks[[parallel.dealt(i, n_blocks) for i in range(n_blocks)]]
    return (
        blocks.sum() / max(blocks[:half].sum(), blocks[half:].sum()),
        blocks.sum() / max(dealt[:half].sum(), dealt[half:].sum()),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated dataset names")
    parser.add_argument("--modes", default="1,2", help="1: first solution, 2: count to 2")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved rounds; each column keeps its best")
    parser.add_argument("--seconds", type=float, default=1.0, help="minimum wall time of each timed run")
    parser.add_argument("--compare-with", type=Path, nargs="*", default=[], help="old parallel.py copies")
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[1] / "data")
    args = parser.parse_args()
    limits = [int(m) for m in args.modes.split(",") if m]
    if any(m not in (1, 2) for m in limits):
        parser.error(f"--modes takes 1 and/or 2, not {args.modes!r}")
    sides = {"new": parallel}
    for path in args.compare_with:
        sides[path.stem] = _load_old(path)
    _, n_blocks = _on_threads(2)
    head = " | ".join(f"{t} 2/1 wall | {t} 2/1 per CPU s" for t in sides)
    print(f"| dataset | mode | 1 worker puzzles/s (wall) | {head} | model: old split | model: dealt |")
    print("|---|---|---|" + "---|---|" * len(sides) + "---|---|")
    for name in [s for s in args.sets.split(",") if s]:
        rows, _ = load_lines(args.data / f"{name}.txt")
        for limit in limits:
            want = _pass(None, rows, limit, n_blocks)
            for mod in sides.values():  # load the compiled kernels, and check they agree
                got = _pass(mod, rows, limit, n_blocks)
                for a, b in zip(want[1:], got[1:], strict=True):
                    if not (a == b).all():
                        raise SystemExit(f"{name}: two workers disagree with one")
            best = {t: (0.0, 0.0) for t in sides}
            best_one = 0.0
            for _ in range(args.repeat):
                one_wall, one_cpu, _out = _timed(None, rows, limit, n_blocks, args.seconds)
                best_one = max(best_one, one_wall)
                for tag, mod in sides.items():
                    two_wall, two_cpu, _out = _timed(mod, rows, limit, n_blocks, args.seconds)
                    best[tag] = max(best[tag], (two_wall / one_wall, two_cpu / one_cpu))
            cells = " | ".join(f"{w:.2f}x | {c:.2f}x" for w, c in best.values())
            old_split, dealt = modelled(rows, limit, n_blocks)
            mode = "first" if limit == 1 else "count-2"
            print(f"| {name} | {mode} | {best_one:,.0f} | {cells} | {old_split:.2f}x | {dealt:.2f}x |", flush=True)
    print(f"\n{n_blocks} blocks; best of {args.repeat} interleaved rounds of at least {args.seconds:g} s each.")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
