"""Explain puzzles in HoDoKu's technique set (``--techniques hodoku``): CPU time, steps, and how often each
chain, ALS and forcing-chain row takes a step.

    python benchmarks/hodoku_set.py                 # every 25th "diabolical" puzzle of sudoku_exchange_tiers
    python benchmarks/hodoku_set.py --every 5

The first three puzzles are explained once before the clock starts (numba kernels loaded or compiled)."""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter
from pathlib import Path

from sudokit.formats import parse_grid
from sudokit.logic import explain
from sudokit.logic.registry import technique_set

DATA = Path(__file__).resolve().parents[1] / "data"
#: rows counted by name: chains, ALS and forcing chains
WATCHED = ("Chain", "Loop", "AIC", "ALS", "Forcing")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=25, help="take every Nth diabolical puzzle")
    args = parser.parse_args()
    puzzles = (DATA / "sudoku_exchange_tiers.txt").read_text().split()
    tiers = (DATA / "sudoku_exchange_tiers.tiers.txt").read_text().split()
    chosen = [p for p, t in zip(puzzles, tiers) if t == "diabolical"][:: args.every]
    hodoku = technique_set("hodoku")
    for p in chosen[:3]:
        explain(parse_grid(p), techniques=hodoku)
    used: Counter[str] = Counter()
    steps = solved = 0
    start = time.process_time()
    for p in chosen:
        path = explain(parse_grid(p), techniques=hodoku)
        steps += len(path.steps)
        solved += path.solved
        used.update(s.technique for s in path.steps if any(w in s.technique for w in WATCHED))
    cpu = time.process_time() - start
    print(f"# load average {os.getloadavg()[0]:.2f} (1 min)")
    print(f"{len(chosen)} diabolical puzzles, {steps} steps, {solved} solved, {cpu:.2f} s CPU")
    for name, count in sorted(used.items(), key=lambda kv: -kv[1]):
        print(f"  {name}: {count}")


if __name__ == "__main__":
    main()
