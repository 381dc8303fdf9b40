"""Variant logic benchmark: ``python benchmarks/variant_logic.py [--time-limit S] [--kind K] [--killers N]``.

Three measures of logic and generation on variant puzzles:

- **soundness**: every step the logic solver takes (every row of the table, forcing chains included) on every
  bundled variant puzzle (data/variants/iss_fpuzzles.jsonl) is checked against the known solution: no step
  may remove the solution's digit or place another one. A puzzle stops at ``--time-limit`` seconds.
- **coverage**, per kind (each f-puzzles field a puzzle uses counts it in that kind): the share of puzzles
  logic solves without forcing chains (``--exclude "forcing chain"``), and with them (``--kind killercage``:
  only the puzzles of that kind; ``--without ROWS``: those rows left out of both walks, e.g. ``--without
  "pattern overlay,template combination"`` for the coverage without digit templates);
- **generator**: killer puzzles (9x9, cages only, no givens) made by ``generate_variant("killer", seed)``
  for seeds 0..N-1, each proved unique by the variant solver: puzzles per second on one core, cages per
  puzzle, and their SE ratings (``--skip-logic``: only this).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections import defaultdict
from pathlib import Path

from sudokit.formats.fpuzzles import read_fpuzzles
from sudokit.logic import registry
from sudokit.logic.explain import next_step
from sudokit.logic.state import State

CORPUS = Path(__file__).resolve().parents[1] / "data" / "variants" / "iss_fpuzzles.jsonl"


def walk(puzzle, solution: list[int], exclude: str | None, seconds: float) -> tuple[bool, int, list[str], bool]:
    """(solved, steps, unsound steps' explanations, timed out) of the logic path on ``puzzle``."""
    state = State.from_variant(puzzle)
    rows = registry.applicable(state, techniques=registry.technique_set(exclude=exclude))
    bad: list[str] = []
    steps = 0
    start = time.perf_counter()
    while not state.is_solved():
        if time.perf_counter() - start > seconds:
            return False, steps, bad, True
        step = next_step(state, rows)
        if step is None:
            break
        if any(solution[s] != d for s, d in step.placements) or any(solution[s] == d for s, d in step.eliminations):
            bad.append(step.explanation)
            break
        state.apply(step)
        steps += 1
    return state.is_solved(), steps, bad, False


def logic(seconds: float, kind: str | None = None, without: str | None = None) -> None:
    records = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    numbers = [n for n, rec in enumerate(records, 1) if kind is None or kind in rec["types"]]
    per_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # puzzles, solved without / with forcing
    unsound = timeouts = steps_checked = 0
    for number in numbers:
        rec = records[number - 1]
        puzzle = read_fpuzzles(rec["fpuzzles"])
        solution = [int(ch, 36) for ch in rec["solution"]]
        plain, n1, bad1, _ = walk(puzzle, solution, ",".join(filter(None, ["forcing chain", without])), seconds)
        full, n2, bad2, out = (True, n1, [], False) if plain else walk(puzzle, solution, without, seconds)
        steps_checked += n1 + (0 if plain else n2)
        timeouts += out
        for text in bad1 + bad2:
            unsound += 1
            print(f"UNSOUND: line {number} {rec['name']}: {text}")
        kinds = [t for t in rec["types"] if t != "givens"] or ["classic"]
        for each in kinds:
            row = per_kind[each]
            row[0] += 1
            row[1] += plain
            row[2] += full
        mark = "logic" if plain else ("forcing" if full else ("timeout" if out else "stuck"))
        print(f"line {number:3d} {mark:8s} {','.join(kinds)}", flush=True)
    print(f"\nsoundness: {steps_checked} steps checked on {len(numbers)} puzzles, {unsound} unsound")
    print(f"timeouts (with forcing chains, {seconds:g} s each): {timeouts}")
    print(f"\n{'kind':18s} {'puzzles':>7s} {'logic':>6s} {'%':>5s} {'+forcing':>8s} {'%':>5s}")
    for name, (n, alone, forced) in sorted(per_kind.items(), key=lambda kv: -kv[1][0]):
        print(f"{name:18s} {n:7d} {alone:6d} {100 * alone / n:5.0f} {forced:8d} {100 * forced / n:5.0f}")


def generator(count: int) -> None:
    from sudokit import count_solutions
    from sudokit.generate.variants import generate_variant
    from sudokit.logic.rating import rate

    generate_variant("killer", 10_000)  # compiles and loads the engine before the clock runs
    wall, cpu = time.perf_counter(), time.process_time()
    made = [generate_variant("killer", seed) for seed in range(count)]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    cages = [len(found.puzzle.constraints) for found in made]
    assert all(count_solutions(found.puzzle, limit=2) == 1 for found in made)
    plain = [
        rate(found.puzzle, extras=False, techniques=registry.technique_set(exclude="forcing chain")) for found in made
    ]
    ratings = [rate(found.puzzle, extras=False).er for found in made]
    print(
        f"\nkiller generator: {count} puzzles (cages only), {wall:.2f} s wall = {count / wall:.2f} puzzles/s, "
        f"{cpu:.2f} s CPU = {count / cpu:.2f} puzzles per CPU second; cages per puzzle median "
        f"{statistics.median(cages)}"
    )
    print(
        f"generated killers solved by logic without forcing chains: {sum(r.solved for r in plain)} of {count}; "
        f"SE ratings {dict(sorted((r, ratings.count(r)) for r in set(ratings)))}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=30.0, help="seconds per puzzle and walk (default 30)")
    parser.add_argument("--killers", type=int, default=50, help="killer puzzles to generate (default 50)")
    parser.add_argument("--kind", help="only the bundled puzzles using this f-puzzles field (e.g. killercage)")
    parser.add_argument("--skip-logic", action="store_true", help="only the generator")
    parser.add_argument("--without", help='rows left out of both logic walks (e.g. "pattern overlay")')
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    if not args.skip_logic:
        logic(args.time_limit, args.kind, args.without)
    if args.killers:
        generator(args.killers)
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
