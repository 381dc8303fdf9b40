"""Compare the seeds' methods and the fast engine on the bundled puzzle sets (the table in docs/methods.md).

Run: ``python benchmarks/compare.py [--limit 2] [--time-limit 60]``. Prints one table per set; each answer is
checked against the rules, and against the file's solution counts where it has them (column "wrong").
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from sudokit.formats import read_entries
from sudokit.geometry import diagonal
from sudokit.grid import Grid
from sudokit.methods.compare import compare, format_table, solvers

DATA = Path(__file__).resolve().parents[1] / "data"
SETS = [
    ("norvig_easy50.txt", None),
    ("norvig_hardest.txt", None),
    ("norvig_top95.txt", None),
    ("xsudoku9.txt", "diagonal"),
    ("tdoku_test_puzzles.txt", None),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=2, help="solutions to look for (2 proves uniqueness)")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per puzzle and method")
    parser.add_argument("--sets", nargs="*", default=[name for name, _ in SETS], help="data files to run")
    args = parser.parse_args()
    variants = dict(SETS)
    chosen = solvers()
    for name in args.sets:
        items = []
        for entry in read_entries(DATA / name):
            grid = entry.grid
            if variants.get(name) == "diagonal":
                grid = Grid(diagonal(), grid.values)
            items.append((grid, entry.count, entry.solution))
        start = time.perf_counter()
        rows = compare(items, chosen, limit=args.limit, time_limit=args.time_limit)
        print(f"## {name} ({len(items)} puzzles, limit {args.limit}, {time.perf_counter() - start:.1f} s)")
        print(format_table(rows))
        print()


if __name__ == "__main__":
    main()
