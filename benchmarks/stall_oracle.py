"""What could open a stalled killer? ``python benchmarks/stall_oracle.py [--webs K] [LINE ...]``.

Walks each bundled killer (data/variants/iss_fpuzzles.jsonl; default: every killer, the ones logic without
forcing chains finishes skipped) to where logic without forcing chains stalls, then asks CP-SAT (``pip install
.[bench]``) what an exact argument of one kind removes there:

- default, **counts of a class of digits** D (the odd digits, 1-4, 6-9, 1-3, 7-9, 4-6, the residues mod 3, ...):
  one 0/1 unknown per cell (its digit is in D), every unit holding |D| of them, every summed cage a count its
  fitting digit sets allow (over its candidates), a cell whose candidates are all in D (or none) fixed. A cell
  whose unknown is the same in every solution is one a count of D could settle: the Parity row
  (logic/parity.py) finds a part of them for the odd digits; this shows whether any exists at all.
- ``--webs 1`` / ``--webs 2``, **unit webs without caps**: each unit (each two units that share a cell) with
  every summed cage meeting it, filled exactly (cages: different digits with their sums; web cells that see
  each other differ): the candidates no filling uses. What "Cages Around a Unit" (``logic/unit_cages.py``)
  finds, without its caps on placements and work. ``--rounds N``: remove those candidates, walk on with the
  rows but the forcing chains, and look again, up to N times (does it open the puzzle?).

Prints what each puzzle's stall gives (nothing: no such argument removes a candidate there) and the CPU.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from ortools.sat.python import cp_model

from sudokit.formats.fpuzzles import read_fpuzzles
from sudokit.logic import registry
from sudokit.logic.cages import _region_cages, fitting_sets, masks_of, summed_cages
from sudokit.logic.explain import next_step
from sudokit.logic.state import State, digits_of

CORPUS = Path(__file__).resolve().parents[1] / "data" / "variants" / "iss_fpuzzles.jsonl"
CLASSES = {
    "odd": (1, 3, 5, 7, 9),
    "1-4": (1, 2, 3, 4),
    "1-5": (1, 2, 3, 4, 5),
    "6-9": (6, 7, 8, 9),
    "1-3": (1, 2, 3),
    "4-6": (4, 5, 6),
    "7-9": (7, 8, 9),
    "3,6,9": (3, 6, 9),
    "1,4,7": (1, 4, 7),
    "2,5,8": (2, 5, 8),
    "1,9": (1, 9),
    "1,2,8,9": (1, 2, 8, 9),
}


def stalled(fpuzzles: str) -> State:
    """The state where every row but the forcing chains is stuck."""
    return walk_on(State.from_variant(read_fpuzzles(fpuzzles)))


def walk_on(state: State) -> State:
    """``state`` after every step of the rows but the forcing chains (until they are stuck)."""
    rows = registry.applicable(state, techniques=registry.technique_set(exclude="forcing chain"))
    while (step := next_step(state, rows)) is not None:
        state.apply(step)
    return state


def fixed_cells(state: State, digits: tuple[int, ...]) -> list[tuple[str, bool]]:
    """The open cells whose membership in ``digits`` every solution of the class's counting abstraction agrees
    on, with it (True: in the class)."""
    g = state.g
    cls = sum(1 << (d - 1) for d in digits)
    model = cp_model.CpModel()
    x = [model.NewBoolVar(f"x{s}") for s in g.cells]
    masks = masks_of(state, list(g.cells))
    for s, m in enumerate(masks):
        if not m & ~cls:
            model.Add(x[s] == 1)
        if not m & cls:
            model.Add(x[s] == 0)
    for unit in g.units:
        model.Add(sum(x[s] for s in unit) == len(digits))
    for cage in summed_cages(state):
        counts = sorted({bin(m & cls).count("1") for m in fitting_sets(masks_of(state, cage.cage), cage.total or 0)})
        k = model.NewIntVarFromDomain(cp_model.Domain.FromValues(counts), "k")
        model.Add(sum(x[s] for s in cage.cage) == k)
    out = []
    for s, m in enumerate(masks):
        if state.values[s] or not m & cls or not m & ~cls:
            continue
        can = []
        for bit in (0, 1):
            trial = model.Clone()
            trial.Add(trial.GetBoolVarFromProtoIndex(x[s].Index()) == bit)
            solver = cp_model.CpSolver()
            solver.parameters.num_workers = 1
            can.append(solver.Solve(trial) in (cp_model.OPTIMAL, cp_model.FEASIBLE))
        if not all(can):
            out.append((state.label(s), can[1]))
    return out


def _solve(model: cp_model.CpModel) -> cp_model.CpSolver | None:
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    return solver if solver.Solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE) else None


def web_removals(state: State, units: tuple[int, ...]) -> list[tuple[str, int]]:
    """The candidates of a web (the ``units``' cells and every cell of the summed cages meeting them) that no
    exact filling uses; each filling found marks every candidate it uses, so few models are solved."""
    g = state.g
    cells = set().union(*(g.unit_sets[u] for u in units))
    meeting = [c for c in _region_cages(state)["cages"] if not cells.isdisjoint(c.cage)]
    web = sorted(cells | {s for c in meeting for s in c.cage})
    model = cp_model.CpModel()
    masks = dict(zip(web, masks_of(state, web)))
    v = {s: model.NewIntVarFromDomain(cp_model.Domain.FromValues(list(digits_of(masks[s]))), f"v{s}") for s in web}
    for i, a in enumerate(web):
        for b in web[i + 1 :]:
            if b in g.peer_sets[a]:
                model.Add(v[a] != v[b])
    for c in meeting:
        model.Add(sum(v[s] for s in c.cage) == (c.total or 0))
    used: dict[int, set[int]] = {s: set() for s in web}
    out = []
    for s in web:
        if state.values[s]:
            continue
        for d in digits_of(masks[s]):
            if d in used[s]:
                continue
            trial = model.Clone()
            trial.Add(trial.GetIntVarFromProtoIndex(v[s].Index()) == d)
            solver = _solve(trial)
            if solver is None:
                out.append((state.label(s), d))
                continue
            for t in web:
                used[t].add(solver.Value(v[t]))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("lines", nargs="*", type=int, help="data lines (default: every killer; finished ones skipped)")
    ap.add_argument("--webs", type=int, choices=(1, 2), help="unit webs of one or two units instead of counts")
    ap.add_argument(
        "--rounds", type=int, default=1, help="with --webs: remove what the webs remove, walk on, and again (N times)"
    )
    args = ap.parse_args()
    records = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    lines = args.lines or [n for n, rec in enumerate(records, 1) if "killercage" in rec["types"]]
    start = time.process_time()
    for number in lines:
        rec = records[number - 1]
        state = stalled(rec["fpuzzles"])
        if state.is_solved():
            continue
        if args.webs:
            g = state.g
            n = len(g.units)
            groups = [(u,) for u in range(n)]
            if args.webs == 2:
                groups = [
                    (u, w) for u in range(n) for w in range(u + 1, n) if not g.unit_sets[u].isdisjoint(g.unit_sets[w])
                ]
            told = ""
            for turn in range(args.rounds):
                removed = {(label, d) for units in groups for label, d in web_removals(state, units)}
                told += f"{'; then ' if turn else ''}{len(removed)} removed"
                if not removed or args.rounds == 1:
                    told += ": " + (", ".join(f"{d} from {label}" for label, d in sorted(removed)) or "none")
                    break
                for label, d in removed:
                    state.eliminate(g.cell_of(label), d)
                steps = len(state.empty_cells())
                walk_on(state)
                told += f", walked on ({steps - len(state.empty_cells())} cells placed)"
                if state.is_solved():
                    told += ": solved"
                    break
        else:
            found = {name: fixed_cells(state, digits) for name, digits in CLASSES.items()}
            told = "; ".join(f"{name}: {cells}" for name, cells in found.items() if cells)
            told = told or "no cell fixed by any class"
        print(f"line {number} {rec['name'][:40]}: {told}", flush=True)
    print(f"CPU {time.process_time() - start:.1f} s")


if __name__ == "__main__":
    main()
