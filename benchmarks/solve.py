"""Engine benchmark: ``python benchmarks/solve.py [--sets a,b] [--workers N] [--limit 1|2] [--repeat R]``.

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
    args = parser.parse_args()
    start = time.perf_counter()
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


if __name__ == "__main__":
    main()
