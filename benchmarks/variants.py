"""Variant benchmark: ``python benchmarks/variants.py [--time-limit S] [--families killercage,arrow,...]``.

Solves every bundled f-puzzles puzzle whose kinds sudokit supports (data/variants/iss_fpuzzles.jsonl) with the
variant solver, twice: ``solve`` (first solution, limit 1) and ``unique`` (uniqueness proof, limit 2), each
under a time limit per puzzle. Prints, per constraint family (every kind a puzzle uses counts it in that
family), the puzzles solved, the timeouts, and the median / max wall time of each; a solution that differs
from the file's is reported as WRONG. Comparison with OR-tools CP-SAT on the same puzzles is a later step.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from sudokit.constraints.solver import solve_variant
from sudokit.errors import SudokitError
from sudokit.formats.fpuzzles import read_fpuzzles
from sudokit.result import Status

CORPUS = Path(__file__).resolve().parents[1] / "data" / "variants" / "iss_fpuzzles.jsonl"


def _ms(values: list[float]) -> str:
    if not values:
        return "-"
    return f"{statistics.median(values) * 1e3:9.1f} {max(values) * 1e3:9.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=5.0, help="seconds per puzzle and run (default 5)")
    parser.add_argument("--families", default="", help="comma-separated f-puzzles fields to keep (default all)")
    args = parser.parse_args()
    wanted = {f for f in args.families.split(",") if f}
    rows: dict[str, dict[str, list]] = {}
    skipped: list[str] = []
    wrong = 0
    for number, line in enumerate(CORPUS.read_text().splitlines(), 1):
        d = json.loads(line)
        families = [t for t in d["types"] if t != "givens"] or ["classic"]
        if wanted and not wanted & set(families):
            continue
        try:
            puzzle = read_fpuzzles(d["fpuzzles"])
        except SudokitError as exc:
            skipped.append(f"line {number} {d['name']}: {exc}")
            continue
        times = {}
        for run, limit in (("solve", 1), ("unique", 2)):
            start = time.perf_counter()
            result = solve_variant(puzzle, limit=limit, time_limit=args.time_limit)
            spent = time.perf_counter() - start
            ok = result.status is Status.SOLVED
            if ok and result.solution.to_line() != d["solution"]:
                wrong += 1
                print(f"WRONG: line {number} {d['name']} ({run})")
            times[run] = spent if ok else None
        for fam in families:
            row = rows.setdefault(fam, {"solve": [], "unique": [], "timeouts": [0, 0], "n": [0]})
            row["n"][0] += 1
            for i, run in enumerate(("solve", "unique")):
                if times[run] is None:
                    row["timeouts"][i] += 1
                else:
                    row[run].append(times[run])
    print(f"variant solver, time limit {args.time_limit:g} s per puzzle and run (ms: median, max over solved)")
    print(f"{'family':18} {'puzzles':>7} {'solved':>6} {'t/o':>4} {'solve med':>9} {'max':>9}"
          f" {'unique':>6} {'t/o':>4} {'uniq med':>9} {'max':>9}")  # fmt: skip
    for fam in sorted(rows, key=lambda f: -rows[f]["n"][0]):
        row = rows[fam]
        print(
            f"{fam:18} {row['n'][0]:7d} {len(row['solve']):6d} {row['timeouts'][0]:4d} {_ms(row['solve'])}"
            f" {len(row['unique']):6d} {row['timeouts'][1]:4d} {_ms(row['unique'])}"
        )
    print(f"not supported yet: {len(skipped)} puzzles; wrong solutions: {wrong}")
    for text in skipped:
        print("  " + text)


if __name__ == "__main__":
    main()
