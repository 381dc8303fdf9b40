"""Where rows are the step: explain bundled puzzles in a technique set and count, for each row asked about, the
paths and steps where it is the step taken (the first row of the set that applies), every step checked against
the solution. Finds a row's first-applicable states and explain examples (docs/logic_techniques.md).

    python benchmarks/row_steps.py sudoku_exchange_tiers.txt --tier hard --every 2 \\
        --techniques "singles,naked pair,hidden pair,x-wing,mutant fish" --rows "Mutant X-Wing,Mutant Jellyfish"

Prints one line per step of a row asked about (file line, step number, explanation), then the counts, the CPU
time and the load. ``--states`` also prints the state before each such step, in the token form of
tests/test_logic_techniques.py."""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter
from pathlib import Path

from sudokit.engine.api import solve
from sudokit.formats import parse_grid
from sudokit.logic.explain import next_step, start_state
from sudokit.logic.registry import applicable, technique_set
from sudokit.logic.state import State

DATA = Path(__file__).resolve().parents[1] / "data"


def tokens(state: State) -> str:
    """The state as test_logic_techniques writes it: ``=d`` for a placed digit, else the cell's candidates."""
    digits = range(1, state.g.size + 1)
    return " ".join(
        f"={v}" if v else "".join(str(d) for d in digits if c >> (d - 1) & 1) for v, c in zip(state.values, state.cands)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", help="a 9x9 file in data/")
    parser.add_argument("--techniques", required=True, help="the set, as for `sudokit explain --techniques`")
    parser.add_argument("--exclude", default=None, help="as for `sudokit explain --exclude`")
    parser.add_argument("--rows", required=True, help="comma list of the rows to report")
    parser.add_argument("--tier", default=None, help="only puzzles of this tier (sudoku_exchange_tiers)")
    parser.add_argument("--start", type=int, default=0, help="skip this many puzzles first")
    parser.add_argument("--every", type=int, default=1, help="take every Nth puzzle")
    parser.add_argument("--states", action="store_true", help="print the state before each step reported")
    args = parser.parse_args()
    puzzles = (DATA / args.file).read_text().split()
    sidecar = DATA / args.file.replace(".txt", ".solutions.txt")
    solutions = sidecar.read_text().split() if sidecar.exists() else None
    chosen = list(range(len(puzzles)))
    if args.tier:
        tiers = (DATA / args.file.replace(".txt", ".tiers.txt")).read_text().split()
        chosen = [i for i in chosen if tiers[i] == args.tier]
    chosen = chosen[args.start :: args.every]
    rows_set = technique_set(args.techniques, args.exclude)
    watched = {r.strip() for r in args.rows.split(",")}
    unknown = watched - set(rows_set.names)
    if unknown:
        parser.error(f"not in the set: {', '.join(sorted(unknown))}")
    steps, paths, wrong = Counter[str](), Counter[str](), 0
    start = time.process_time()
    for i in chosen:
        solution = solutions[i] if solutions else str(solve(puzzles[i]).solution)
        state = start_state(parse_grid(puzzles[i]))
        rows = applicable(state, True, rows_set)
        seen: set[str] = set()
        k = 0
        while not state.is_solved():
            before = tokens(state) if args.states else ""
            step = next_step(state, rows)
            if step is None:
                break
            k += 1
            bad = [(s, d) for s, d in step.eliminations if int(solution[s]) == d]
            bad += [(s, d) for s, d in step.placements if int(solution[s]) != d]
            if bad:
                wrong += 1
                print(f"WRONG line {i + 1} step {k}: {step.explanation}")
            if step.technique in watched:
                steps[step.technique] += 1
                seen.add(step.technique)
                print(f"line {i + 1} step {k}: {step.explanation}")
                if args.states:
                    print(f"  state: {before}")
            state.apply(step)
        paths.update(seen)
    cpu = time.process_time() - start
    print(f"# {len(chosen)} paths of {args.file} in {rows_set.spec!r}, {cpu:.1f} s CPU, load {os.getloadavg()[0]:.2f}")
    for name in sorted(watched):
        print(f"  {name}: the step {steps[name]} times on {paths[name]} paths")
    print(f"  steps wrong against the solution: {wrong}")


if __name__ == "__main__":
    main()
