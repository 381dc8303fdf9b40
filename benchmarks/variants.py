"""Variant benchmark: ``python benchmarks/variants.py [--time-limit S] [--families F,...] [--killers N] [--no-cpsat]``.

Part 1, the bundled corpus (data/variants/iss_fpuzzles.jsonl): every puzzle is solved (``solve``, limit 1,
its solution compared with the file's) and its uniqueness proved (``unique``, limit 2, count = 1; for the one
puzzle whose ``count`` in the file is 2, that count) by
sudokit's variant solver (:func:`sudokit.constraints.solver.solve_variant`: the compiled kernel), and by
OR-tools CP-SAT on a model of the same rules (one search worker, the model built once per puzzle, uniqueness
as "solve, forbid that grid, solve again"), in the same run, under the same time limit per puzzle and run
(both solvers are loaded on the first puzzle before the clock starts).
Printed per constraint family (a puzzle counts in every family it uses): the puzzles, the timeouts, the
median time of each solver's uniqueness proof (ms; a timeout counts as the time limit), sudokit's median
search nodes for it (``-v``: per puzzle) and sudokit's speed-up on the median. A solution that differs from the
file's, or a proved count that differs from the file's, is reported as WRONG.

Part 2, a killer set: ``--killers N`` random 9x9 killers (random cages of 1-5 cells on random solved grids,
no givens; seeded, so the same set every run) counted with ``count_solutions(puzzle, limit=2)`` one after
another on one core: puzzles/s end to end (building each puzzle's compiled model included), and the
kernel's own rate on models built beforehand. CP-SAT's median on the first 200 is printed beside them.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from sudokit import jit
from sudokit.constraints import (
    Arrow,
    BetweenLine,
    EqualSums,
    KillerCage,
    LittleKiller,
    Parity,
    Quadruple,
    Renban,
    Sandwich,
    Skyscraper,
    Thermometer,
    VariantPuzzle,
    XSum,
)
from sudokit.constraints.base import RELATIONS
from sudokit.constraints.pairs import PairRule
from sudokit.constraints.solver import solve_variant
from sudokit.errors import SudokitError
from sudokit.formats.fpuzzles import read_fpuzzles
from sudokit.geometry import standard
from sudokit.result import Status

CORPUS = Path(__file__).resolve().parents[1] / "data" / "variants" / "iss_fpuzzles.jsonl"


# ---- CP-SAT model of a variant puzzle -------------------------------------------------------------
class CpSat:
    """One puzzle as a CP-SAT model (built once); :meth:`unique` solves, forbids the grid, solves again."""

    def __init__(self, puzzle: VariantPuzzle) -> None:
        from ortools.sat.python import cp_model

        self.cp = cp_model
        g = puzzle.geometry
        n = g.size
        m = self.model = cp_model.CpModel()
        x = self.x = [m.NewIntVar(1, n, f"x{s}") for s in g.cells]
        for s, v in enumerate(puzzle.givens.values):
            if v:
                m.Add(x[s] == v)
        units = {frozenset(u) for u in g.units}
        for u in g.units:
            m.AddAllDifferent([x[s] for s in u])
        for s, peers in enumerate(puzzle.peers):  # the constraints' extra peers (cages, anti-knight, ...)
            for p in peers:
                if p > s and not any(s in u and p in u for u in units):
                    m.Add(x[s] != x[p])
        for con in puzzle.constraints:
            self._add(con, n)

    def _add(self, con, n: int) -> None:  # noqa: C901 - one branch per kind
        m, x = self.model, self.x
        if isinstance(con, KillerCage):
            if con.total is not None:
                m.Add(sum(x[s] for s in con.cage) == con.total)
        elif isinstance(con, Thermometer):
            for a, b in zip(con.line, con.line[1:]):
                m.Add(x[a] <= x[b]) if con.slow else m.Add(x[a] < x[b])
        elif isinstance(con, Arrow):
            k = len(con.bulb)
            if k > 1 and n > 9:
                raise SudokitError("CP-SAT model: a bulb of several cells above 9 digits")
            m.Add(sum(x[s] for s in con.shaft) == sum(10 ** (k - 1 - i) * x[s] for i, s in enumerate(con.bulb)))
        elif isinstance(con, PairRule):
            ok = RELATIONS[con.relation[0]]
            allowed = [(a, b) for a in range(1, n + 1) for b in range(1, n + 1) if ok(a, b, *con.relation[1:])]
            for a, b in con.pairs:
                if a == b:
                    m.AddAllowedAssignments([x[a]], [(d,) for d in range(1, n + 1) if (d, d) in allowed])
                else:
                    m.AddAllowedAssignments([x[a], x[b]], allowed)
        elif isinstance(con, Parity):
            m.AddAllowedAssignments([x[con.cell]], [(d,) for d in range(1, n + 1) if d % 2 == int(con.odd)])
        elif isinstance(con, LittleKiller):
            m.Add(sum(x[s] for s in con.line) == con.total)
        elif isinstance(con, EqualSums):
            m.Add(sum(x[s] for s in con.left) == sum(x[s] for s in con.right))
        elif isinstance(con, Renban):
            hi, lo = m.NewIntVar(1, n, ""), m.NewIntVar(1, n, "")
            m.AddMaxEquality(hi, [x[s] for s in con.line])
            m.AddMinEquality(lo, [x[s] for s in con.line])
            m.Add(hi - lo == len(con.line) - 1)
        elif isinstance(con, BetweenLine):
            ends = [x[con.line[0]], x[con.line[-1]]]
            hi, lo = m.NewIntVar(1, n, ""), m.NewIntVar(1, n, "")
            m.AddMaxEquality(hi, ends)
            m.AddMinEquality(lo, ends)
            for s in con.line[1:-1]:
                m.Add(x[s] > lo)
                m.Add(x[s] < hi)
        elif isinstance(con, Sandwich):
            self._sandwich(con.line, con.total)
        elif isinstance(con, XSum):
            first = x[con.line[0]]
            ys = []
            for k, s in enumerate(con.line):
                inside = m.NewBoolVar("")  # cell k is among the first X: X > k
                m.Add(first > k).OnlyEnforceIf(inside)
                m.Add(first <= k).OnlyEnforceIf(inside.Not())
                ys.append(self._masked(x[s], inside, len(con.line)))
            m.Add(sum(ys) == con.total)
        elif isinstance(con, Skyscraper):
            line = [x[s] for s in con.line]
            seen = [1]
            for k in range(1, len(line)):
                top = m.NewIntVar(1, n, "")
                m.AddMaxEquality(top, line[:k])
                vis = m.NewBoolVar("")
                m.Add(line[k] > top).OnlyEnforceIf(vis)
                m.Add(line[k] < top).OnlyEnforceIf(vis.Not())
                seen.append(vis)
            m.Add(sum(seen) == con.seen)
        elif isinstance(con, Quadruple):
            for d in set(con.digits):
                hits = []
                for s in con.group:
                    b = m.NewBoolVar("")
                    m.Add(x[s] == d).OnlyEnforceIf(b)
                    m.Add(x[s] != d).OnlyEnforceIf(b.Not())
                    hits.append(b)
                m.Add(sum(hits) >= con.digits.count(d))
        elif type(con).propagate is not type(con).__mro__[-2].propagate:  # pragma: no cover - every kind above
            raise SudokitError(f"CP-SAT model: no encoding of {con.kind}")

    def _masked(self, var, on, n: int):
        y = self.model.NewIntVar(0, n, "")
        self.model.Add(y == var).OnlyEnforceIf(on)
        self.model.Add(y == 0).OnlyEnforceIf(on.Not())
        return y

    def _sandwich(self, line, total: int) -> None:
        m, x = self.model, self.x
        n = len(line)
        pos = {}
        for d in (1, n):
            p = m.NewIntVar(0, n - 1, "")
            for k, s in enumerate(line):
                b = m.NewBoolVar("")
                m.Add(x[s] == d).OnlyEnforceIf(b)
                m.Add(x[s] != d).OnlyEnforceIf(b.Not())
                m.Add(p == k).OnlyEnforceIf(b)
            pos[d] = p
        lo, hi = m.NewIntVar(0, n - 1, ""), m.NewIntVar(0, n - 1, "")
        m.AddMinEquality(lo, [pos[1], pos[n]])
        m.AddMaxEquality(hi, [pos[1], pos[n]])
        ys = []
        for k, s in enumerate(line):
            after, before = m.NewBoolVar(""), m.NewBoolVar("")
            m.Add(lo < k).OnlyEnforceIf(after)
            m.Add(lo >= k).OnlyEnforceIf(after.Not())
            m.Add(hi > k).OnlyEnforceIf(before)
            m.Add(hi <= k).OnlyEnforceIf(before.Not())
            inside = m.NewBoolVar("")
            m.AddBoolAnd([after, before]).OnlyEnforceIf(inside)
            m.AddBoolOr([after.Not(), before.Not()]).OnlyEnforceIf(inside.Not())
            ys.append(self._masked(x[s], inside, n))
        m.Add(sum(ys) == total)

    def unique(self, time_limit: float) -> tuple[int | None, list[int] | None]:
        """(solutions found up to 2, the first one); None for the count on a timeout."""
        cp = self.cp
        solver = cp.CpSolver()
        solver.parameters.num_search_workers = 1
        solver.parameters.max_time_in_seconds = time_limit
        start = time.process_time()
        status = solver.Solve(self.model)
        if status == cp.INFEASIBLE:
            return 0, None
        if status not in (cp.OPTIMAL, cp.FEASIBLE):
            return None, None
        first = [solver.Value(v) for v in self.x]
        bools = []  # forbid this grid: some cell differs
        for v, d in zip(self.x, first):
            b = self.model.NewBoolVar("")
            self.model.Add(v != d).OnlyEnforceIf(b)
            bools.append(b)
        self.model.AddBoolOr(bools)
        solver.parameters.max_time_in_seconds = max(time_limit - (time.process_time() - start), 0.001)
        status = solver.Solve(self.model)
        if status == cp.INFEASIBLE:
            return 1, first
        if status in (cp.OPTIMAL, cp.FEASIBLE):
            return 2, first
        return None, first


def _cpsat_time(puzzle: VariantPuzzle, limit: float) -> tuple[float, int | None, list[int] | None]:
    model = CpSat(puzzle)  # built once per puzzle, outside the timing
    start = time.process_time()
    count, first = model.unique(limit)
    return time.process_time() - start, count, first


# ---- part 1: the corpus ---------------------------------------------------------------------------
def corpus(args) -> None:
    wanted = {f for f in args.families.split(",") if f}
    rows: dict[str, dict[str, list]] = {}
    wrong = 0
    skipped: list[str] = []
    lines = CORPUS.read_text().splitlines()
    warm = read_fpuzzles(json.loads(lines[0])["fpuzzles"])  # load both solvers before the clock starts
    solve_variant(warm, limit=2)
    if not args.no_cpsat:
        _cpsat_time(warm, args.time_limit)
    for number, line in enumerate(lines, 1):
        d = json.loads(line)
        families = [t for t in d["types"] if t != "givens"] or ["classic"]
        if wanted and not wanted & set(families):
            continue
        try:
            puzzle = read_fpuzzles(d["fpuzzles"])
        except SudokitError as exc:
            skipped.append(f"line {number} {d['name']}: {exc}")
            continue
        runs = {}
        expected = d.get("count") or 1  # the file's count where its model finished (one puzzle has 2)
        for run, limit in (("solve", 1), ("unique", 2)):
            start = time.process_time()
            result = solve_variant(puzzle, limit=limit, time_limit=args.time_limit)
            spent = time.process_time() - start
            found = result.status in (Status.SOLVED, Status.MULTIPLE)
            solved = result.status is Status.SOLVED
            digits = "".join(map(str, result.solution.values)) if solved else ""
            if solved and expected == 1 and digits != _digits(d["solution"], puzzle):  # with 2, either may come
                wrong += 1
                print(f"WRONG: line {number} {d['name']} ({run})")
            ok = found if run == "solve" else found and result.count == expected
            if run == "unique" and found and result.count != expected:
                wrong += 1
                print(f"WRONG COUNT: line {number} {d['name']}: {result.count}, the file says {expected}")
            runs[run] = (spent, ok)
            if run == "unique":
                nodes = result.stats.nodes
        cp = None
        if not args.no_cpsat:
            spent, count, first = _cpsat_time(puzzle, args.time_limit)
            if count == 1 and first is not None and "".join(map(str, first)) != _digits(d["solution"], puzzle):
                print(f"CP-SAT WRONG: line {number} {d['name']}")
            cp = (spent if count == expected else args.time_limit, count == expected)
        if args.verbose:
            cps = f"{cp[0] * 1e3:9.1f} ms" if cp else "-"
            print(
                f"line {number:3d} {','.join(families):40} unique {runs['unique'][0] * 1e3:9.1f} ms"
                f" {nodes:8d} nodes  cp-sat {cps}"
            )
        for fam in families:
            row = rows.setdefault(fam, {"n": [], "solve": [], "unique": [], "cp": [], "nodes": []})
            row["n"].append(number)
            row["nodes"].append(nodes)
            for run in ("solve", "unique"):
                spent, ok = runs[run]
                row[run].append(spent if ok else None)
            if cp:
                row["cp"].append(cp[0] if cp[1] else None)
    limit = args.time_limit
    print(f"\nsudokit variant kernel vs OR-tools CP-SAT (1 worker), time limit {limit:g} s per puzzle and run")
    print("ms: medians over the family's puzzles, a timeout counted as the limit; x = CP-SAT median / sudokit median")
    print(f"{'family':18} {'puzzles':>7} {'solved':>6} {'unique':>6} {'solve ms':>9} {'unique ms':>9}"
          f" {'nodes':>7} {'cp-sat ok':>9} {'cp-sat ms':>9} {'x':>7}")  # fmt: skip
    for fam in sorted(rows, key=lambda f: (-len(rows[f]["n"]), f)):
        row = rows[fam]

        def med(values: list) -> float:
            return statistics.median([limit if v is None else v for v in values]) if values else float("nan")

        ours, theirs = med(row["unique"]), med(row["cp"])
        ratio = f"{theirs / ours:7.1f}" if row["cp"] else "      -"
        print(
            f"{fam:18} {len(row['n']):7d} {sum(v is not None for v in row['solve']):6d}"
            f" {sum(v is not None for v in row['unique']):6d} {med(row['solve']) * 1e3:9.1f} {ours * 1e3:9.1f}"
            f" {statistics.median(row['nodes']):7.0f}"
            f" {sum(v is not None for v in row['cp']):9d} {theirs * 1e3:9.1f} {ratio}"
        )
    print(f"unreadable: {len(skipped)} puzzles; wrong solutions: {wrong}")
    for text in skipped:
        print("  " + text)


def _digits(solution: str, puzzle: VariantPuzzle) -> str:
    """The corpus' solution string in the digits-joined form of ``solution.values`` (16x16: numbers)."""
    if puzzle.geometry.size <= 9:
        return solution
    return "".join(str(int(c, 36)) for c in solution)


# ---- part 2: a killer set -------------------------------------------------------------------------
def killer_set(count: int, seed: int = 23) -> list[VariantPuzzle]:
    """``count`` random 9x9 killers: a random solved grid cut into random connected cages of 1-5 cells
    (distinct digits, each with its sum), no givens."""
    import numpy as np

    from sudokit.generate.generator import random_solution

    rng = random.Random(seed)
    grids = np.random.default_rng(seed)
    base = standard()
    out = []
    for _ in range(count):
        values = random_solution(base, grids).tolist()
        free = set(range(81))
        cages = []
        while free:
            cell = min(free)
            cage = [cell]
            free.discard(cell)
            want = rng.choice((1, 2, 2, 3, 3, 3, 4, 4, 5))
            while len(cage) < want:
                options = [
                    t
                    for s in cage
                    for t in (s - 9, s + 9, s - 1 if s % 9 else -1, s + 1 if s % 9 < 8 else -1)
                    if t in free and values[t] not in {values[q] for q in cage}
                ]
                if not options:
                    break
                t = rng.choice(options)
                cage.append(t)
                free.discard(t)
            cages.append(KillerCage(tuple(cage), sum(values[s] for s in cage)))
        out.append(VariantPuzzle.build(base, [0] * 81, cages))
    return out


def killers(args) -> None:
    import sudokit
    from sudokit.constraints.solver_model import Model, run

    puzzles = killer_set(args.killers)
    sudokit.count_solutions(puzzles[0], limit=2)  # load the kernel before the clock starts
    start = time.process_time()
    counts = [sudokit.count_solutions(p, limit=2) for p in puzzles]
    spent = time.process_time() - start
    unique = sum(c == 1 for c in counts)
    print(f"\nkiller set: {len(puzzles)} random 9x9 killers (cages of 1-5 cells, no givens), {unique} unique")
    print(f"count_solutions(limit=2), end to end: {len(puzzles) / spent:8.0f} puzzles/s ({spent:.2f} s)")
    models = [Model.of(p) for p in puzzles]
    start = time.process_time()
    for model in models:
        run(model, 2)
    spent = time.process_time() - start
    print(f"kernel only (models built beforehand): {len(puzzles) / spent:8.0f} puzzles/s")
    if not args.no_cpsat:
        times = [_cpsat_time(p, args.time_limit)[0] for p in puzzles[:200]]
        print(f"CP-SAT (1 worker) on the first {len(times)}: median {statistics.median(times) * 1e3:.1f} ms"
              f" = {1 / statistics.median(times):.0f} puzzles/s")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=5.0, help="seconds per puzzle and run (default 5)")
    parser.add_argument("--families", default="", help="comma-separated f-puzzles fields to keep (default all)")
    parser.add_argument("--killers", type=int, default=2000, help="size of the killer set (0: skip; default 2000)")
    parser.add_argument("--no-cpsat", action="store_true", help="leave OR-tools CP-SAT out")
    parser.add_argument("--skip-corpus", action="store_true", help="only the killer set")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per corpus puzzle")
    args = parser.parse_args()
    with jit.forms("kernel"):  # the kernels, even on a cold cache (where the plain solver would answer first)
        if not args.skip_corpus:
            corpus(args)
        if args.killers:
            killers(args)


if __name__ == "__main__":
    main()
