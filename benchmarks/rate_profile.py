"""Where the rating's time goes, technique by technique, and a record of every step to prove a speed-up changed
nothing.

    python benchmarks/rate_profile.py [--set top1465] [--every 7] [--save FILE] [--check FILE] [--forms MODE]

Rates every Nth puzzle of a bundled set the way ``sudokit rate`` does (easiest technique first, from the top
after every step) and prints, per technique, the CPU time spent in its finder, how often it was tried and how
often it found a step, hardest first. ``--save FILE`` writes each puzzle's ER/EP/ED and its whole step list
(technique, rating, placements, eliminations, highlights, explanation) as JSON lines; ``--check FILE`` rates
the same puzzles and reports every puzzle whose rating or any step differs from the saved ones (exit status 1
when one does). ``--forms plain`` runs every technique's plain form and every logic kernel's Python body,
``--forms kernel`` every kernel (``sudokit.jit.forms``); ``--cold-python SECONDS`` lets the kernels the disk
cache lacks run their Python bodies that long per module before compiling (``jit.COLD_PYTHON_DEFAULT``; with a
fresh ``NUMBA_CACHE_DIR``, a whole run checks the Python bodies a cold command runs). Times are
``time.process_time()`` of this process (noisy on a shared machine: give the load).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", default="top1465", help="bundled file under data/ without .txt")
    parser.add_argument("--every", type=int, default=7, help="take every Nth puzzle (1 = all)")
    parser.add_argument("--save", metavar="FILE", help="write each puzzle's rating and steps (JSON lines)")
    parser.add_argument("--check", metavar="FILE", help="compare ratings and steps with a --save file")
    parser.add_argument("--top", type=int, default=25, help="techniques listed")
    parser.add_argument("--forms", choices=("auto", "plain", "kernel"), default="auto", help="sudokit.jit.forms")
    parser.add_argument("--cold-python", type=float, metavar="SECONDS", help="sudokit.jit.COLD_PYTHON_DEFAULT")
    args = parser.parse_args()

    from sudokit import jit

    if args.cold_python is not None:
        jit.COLD_PYTHON_DEFAULT = args.cold_python
    with jit.forms(args.forms):
        return run(args)


def run(args: argparse.Namespace) -> int:
    from sudokit.logic import registry
    from sudokit.logic.explain import explain
    from sudokit.logic.rating import se_parts

    spent: dict[str, float] = {}
    tried: dict[str, int] = {}
    found: dict[str, int] = {}

    def timed(tech: registry.Technique):
        def find(state):
            t = time.process_time()
            step = tech.find(state)
            spent[tech.name] = spent.get(tech.name, 0.0) + time.process_time() - t
            tried[tech.name] = tried.get(tech.name, 0) + 1
            found[tech.name] = found.get(tech.name, 0) + (step is not None)
            return step

        return find

    rows = tuple(registry.Technique(**{**t.__dict__, "find": timed(t)}) for t in registry.ALL.rows)
    chosen = registry.TechniqueSet("all", rows)
    lines = (DATA / f"{args.set}.txt").read_text().split()[:: args.every]
    reference = {}
    if args.check:
        for line in Path(args.check).read_text().splitlines():
            rec = json.loads(line)
            reference[rec["puzzle"]] = rec
    out = open(args.save, "w") if args.save else None  # noqa: SIM115 (closed below)
    differ = 0
    start = time.process_time()
    for puzzle in lines:
        path = explain(puzzle, techniques=chosen)
        er, ep, ed = se_parts(path)
        # through JSON, as saved: a step holding a numpy number instead of an int fails here
        rec = json.loads(json.dumps({"puzzle": puzzle, "se": [er, ep, ed], "steps": [s.to_dict() for s in path.steps]}))
        if out:
            out.write(json.dumps(rec) + "\n")
        if args.check:
            ref = reference.get(puzzle)
            if ref != rec:
                differ += 1
                if ref is None:
                    print(f"not in {args.check}: {puzzle}")
                else:
                    at = next((i for i, (a, b) in enumerate(zip(ref["steps"], rec["steps"])) if a != b), None)
                    print(f"differs: {puzzle} SE {ref['se']} -> {rec['se']}; first different step {at}")
    cpu = time.process_time() - start
    if out:
        out.close()
    total = sum(spent.values())
    print(
        f"{args.set}: {len(lines)} puzzles (every {args.every}th) in {cpu:.1f} s CPU "
        f"({cpu / len(lines) * 1000:.0f} ms each)"
    )
    print(f"{'technique':32s} {'CPU s':>7s} {'share':>6s} {'tried':>7s} {'found':>6s} {'ms/try':>7s}")
    for name in sorted(spent, key=spent.get, reverse=True)[: args.top]:
        print(
            f"{name:32s} {spent[name]:7.2f} {spent[name] / total:6.1%} {tried[name]:7d} {found[name]:6d} "
            f"{spent[name] / tried[name] * 1000:7.2f}"
        )
    if args.check:
        print(f"checked against {args.check}: {differ} of {len(lines)} puzzles differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
