"""Can counting a class of digits open a stalled killer? ``python benchmarks/class_counts.py [LINE ...]``.

Walks each bundled killer (data/variants/iss_fpuzzles.jsonl; default: those logic without forcing chains does
not finish) to where logic without forcing chains stalls, then asks CP-SAT (``pip install .[bench]``) about the
counting abstraction of a class of digits D (the odd digits, 1-4, 6-9, 1-3, 7-9, 4-6, the residues mod 3, ...):
one 0/1 unknown per cell (its digit is in D), every unit holding |D| of them, every summed cage a count its
fitting digit sets allow (over its candidates), a cell whose candidates are all in D (or none) fixed. A cell
whose unknown is the same in every solution of that abstraction is one a count of D could settle: the Parity row
(logic/parity.py) finds a part of them for the odd digits; this shows whether any exists at all. Prints, per
puzzle and class, the cells fixed (none: no counting argument over that class opens the puzzle there).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from ortools.sat.python import cp_model

from sudokit.formats.fpuzzles import read_fpuzzles
from sudokit.logic import registry
from sudokit.logic.cages import fitting_sets, masks_of, summed_cages
from sudokit.logic.explain import next_step
from sudokit.logic.state import State

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
    state = State.from_variant(read_fpuzzles(fpuzzles))
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("lines", nargs="*", type=int, help="data lines (default: the stalled killers)")
    args = ap.parse_args()
    records = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    lines = args.lines or [n for n, rec in enumerate(records, 1) if "killercage" in rec["types"]]
    start = time.process_time()
    for number in lines:
        rec = records[number - 1]
        state = stalled(rec["fpuzzles"])
        if state.is_solved():
            continue
        found = {name: fixed_cells(state, digits) for name, digits in CLASSES.items()}
        told = "; ".join(f"{name}: {cells}" for name, cells in found.items() if cells) or "no cell fixed by any class"
        print(f"line {number} {rec['name'][:40]}: {told}", flush=True)
    print(f"CPU {time.process_time() - start:.1f} s")


if __name__ == "__main__":
    main()
