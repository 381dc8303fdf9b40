"""How much of each solver's time the branch predictor decides: ``python benchmarks/predictor.py [--sets a,b]``.

For each set and mode (first solution, count to 2) both solvers run the same puzzles in two orders, one core,
interleaved rounds, each side's best (the rates as in ``benchmarks/tdoku.py``, whose functions this uses):

* **file order**: the set's first ``--count`` puzzles as they come, the whole list repeated (what
  ``benchmarks/tdoku.py`` measures);
* **each repeated**: every puzzle ``--times`` times in a row, then the next. A puzzle solved again at once
  takes the same branches, so the predictor has learnt them by the second run; the rate is then what the
  work itself costs.

The "repeated / file" column is the share of time lost to mispredicted branches on that set (1.00x: none).
Without tdoku (see ``benchmarks/tdoku.py`` for where it is looked for) only sudokit's columns are printed.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

import tdoku as runner  # benchmarks/tdoku.py: this script's folder is first on sys.path
from sudokit.engine.batch import load_lines, solve_all
from sudokit.engine.bench import machine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tdoku-dir", type=Path, default=runner.default_tdoku_dir(), help="a clone of tdoku")
    parser.add_argument("--sets", default="norvig_top95,serg_benchmark,top1465", help="comma-separated sets")
    parser.add_argument("--modes", default="1,2", help="1: first solution, 2: count to 2")
    parser.add_argument("--count", type=int, default=1500, help="puzzles taken from the start of each set")
    parser.add_argument("--times", type=int, default=13, help="runs of each puzzle in a row (each repeated)")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved rounds; each side keeps its best")
    parser.add_argument("--seconds", type=int, default=1, help="tdoku's -t and sudokit's minimum CPU per round")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    binary, where = runner.find_tdoku(args.tdoku_dir.expanduser(), build=False)
    print(f"tdoku: {where}", file=sys.stderr, flush=True)
    limits = [int(m) for m in args.modes.split(",") if m in ("1", "2")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in [s for s in args.sets.split(",") if s]:
            puzzles, geometry = load_lines(runner.DATA / f"{name}.txt")
            puzzles = puzzles[: args.count]
            orders = {
                "file": np.tile(puzzles, (args.times, 1)),
                "repeated": np.repeat(puzzles, args.times, axis=0),
            }
            files = {}
            for order, batch in orders.items():
                files[order] = Path(tmp) / f"{name}.{order}.txt"
                text = "\n".join("".join(str(v) if v else "." for v in row) for row in batch)
                files[order].write_text(text + "\n")
            for limit in limits:
                solve_all(puzzles[:50], geometry=geometry, limit=limit, workers=1)  # load the compiled kernels
                best: dict[tuple[str, str], float] = {}
                for _ in range(args.repeat):
                    for order, batch in orders.items():
                        if binary is not None:
                            t = runner.run_tdoku(binary, files[order], len(batch), limit, args.seconds)
                            best[("tdoku", order)] = max(best.get(("tdoku", order), 0.0), t.rate)
                        s = runner.run_sudokit(batch, geometry, limit, args.seconds)
                        best[("sudokit", order)] = max(best.get(("sudokit", order), 0.0), s.rate)
                rows.append((name, limit, best))
                print(f"{name} {runner.MODES[limit]} done", file=sys.stderr, flush=True)
    print(table(rows))
    print()
    print(f"first {args.count} puzzles of each set, each repeated {args.times} times in a row or the list {args.times}")
    print(f"times over; puzzles per CPU second, best of {args.repeat} interleaved rounds, one core")
    print(f"machine: {machine()}; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def table(rows: list[tuple[str, int, dict[tuple[str, str], float]]]) -> str:
    sides = sorted({side for _, _, best in rows for side, _ in best}, reverse=True)  # tdoku, then sudokit
    head = "| dataset | mode |"
    for side in sides:
        head += f" {side} file order | {side} each repeated | {side} repeated / file |"
    if len(sides) == 2:
        head += " sudokit / tdoku (file) | sudokit / tdoku (repeated) |"
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for name, limit, best in rows:
        line = f"| {name} | {runner.MODES[limit]} |"
        for side in sides:
            f, r = best[(side, "file")], best[(side, "repeated")]
            line += f" {f:,.0f} | {r:,.0f} | {r / f:.2f}x |"
        if len(sides) == 2:
            for order in ("file", "repeated"):
                line += f" {best[('sudokit', order)] / best[('tdoku', order)]:.2f}x |"
        lines.append(line)
    return "\n".join(lines)


if __name__ == "__main__":
    main()
