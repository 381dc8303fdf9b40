"""Rating benchmark: agreement with Sukaku Explainer and Sudoku Exchange, coverage and speed.

    python benchmarks/rate.py [--every N] [--set rated|tiers|top1465|hardest|all] [--save FILE] [--diffs N]
                              [--sample N]

- ``rated``: Spearman rank correlation of our SE-style rating with ``sudoku_exchange_rated.ratings.txt``,
  shares exactly equal, within +-0.2 and within +-0.5 (differences rounded to 0.1, the ratings' step), share
  rated higher than theirs, and share of puzzles rated <= 9.0 solved by logic alone.
- ``tiers``: our bucket (SE < 1.5 easy, < 2.5 medium, < 5.0 hard, else diabolical, Sudoku Exchange's own
  cut-offs) against ``sudoku_exchange_tiers.tiers.txt``.
- ``top1465``: share solved without guessing and the time to rate them all (one core).
- ``hardest``: a random sample (``--sample``, default 200, seed 1) of ``forum_hardest_1905_11plus``, all rated
  11.0 or more by Sudoku Explainer: share we rate >= 11.0, puzzles left unrated, ER spread and CPU time per
  puzzle. Not part of ``all`` (it takes minutes); ``--skip N`` leaves out the sample's first N, to split a run
  over two processes.

``--diffs N`` prints, for the first N puzzles of ``rated`` we rate higher than Sukaku Explainer, the first
step of our path rated above theirs: where to look for a cheaper technique SE applies first.

The first line times a fixed pure-Python loop as a reference for the machine's speed that day. Times are wall
clock and CPU time of this process (``time.process_time()``, steadier on a shared machine);
they include the one-off compilation of the logic's numba kernels when their cache is cold. ``--save FILE``
writes every puzzle's rating as a JSON line (set, index, ER/EP/ED, score, level, hardest step, steps, solved),
to see which puzzles a change moved.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from sudokit.logic.rating import rate

DATA = Path(__file__).resolve().parents[1] / "data"


def _lines(name: str) -> list[str]:
    return (DATA / name).read_text().split()


SAVE: list[dict] = []  # per-puzzle ratings for --save


def _keep(name: str, every: int, ratings: list) -> None:
    for i, r in enumerate(ratings):
        SAVE.append(
            {
                "set": name,
                "index": i * every,
                "er": r.er,
                "ep": r.ep,
                "ed": r.ed,
                "score": r.score,
                "level": r.level,
                "hardest": r.hardest,
                "steps": r.steps,
                "solved": r.solved,
            }
        )


def spearman(a: list[float], b: list[float]) -> float:
    """Spearman's rho with average ranks for ties."""

    def ranks(x):
        x = np.asarray(x, dtype=float)
        order = x.argsort(kind="mergesort")
        r = np.empty(len(x))
        r[order] = np.arange(len(x))
        for v in np.unique(x):
            same = x == v
            r[same] = r[same].mean()
        return r

    ra, rb = ranks(a), ranks(b)
    return float(np.corrcoef(ra, rb)[0, 1])


def bucket(er: float) -> str:
    return "easy" if er < 1.5 else "medium" if er < 2.5 else "hard" if er < 5.0 else "diabolical"


def first_step_over(puzzle: str, theirs: float) -> str:
    """The first step of our path rated above ``theirs`` (technique, rating, explanation)."""
    from sudokit.logic import explain

    for i, step in enumerate(explain(puzzle).steps, 1):
        if round(step.rating - theirs, 1) > 0:
            return f"step {i}: [{step.rating}] {step.explanation}"
    return "no step above theirs"


def run_rated(every: int, diffs: int = 0) -> None:
    puzzles = _lines("sudoku_exchange_rated.txt")[::every]
    theirs = [float(x) for x in _lines("sudoku_exchange_rated.ratings.txt")[::every]]
    start, cpu = time.perf_counter(), time.process_time()
    ours = [rate(p, extras=False) for p in puzzles]
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    _keep("rated", every, ours)
    er = [r.er for r in ours]
    gaps = [round(a - b, 1) for a, b in zip(er, theirs)]
    exact, close2, close = (sum(abs(g) <= t for g in gaps) / len(gaps) for t in (0.0, 0.2, 0.5))
    higher = sum(g > 0 for g in gaps) / len(gaps)
    le9 = [r.solved for r, t in zip(ours, theirs) if t <= 9.0]
    print(f"sudoku_exchange_rated: {len(puzzles)} puzzles (every {every}th) in {seconds:.1f} s ({cpu:.1f} s CPU)")
    print(
        f"  Spearman rho = {spearman(er, theirs):.3f}; exact ER {exact:.1%}, within +-0.2: {close2:.1%}, "
        f"within +-0.5: {close:.1%}; ours higher {higher:.1%}"
    )
    print(f"  solved by logic alone (their rating <= 9.0): {sum(le9)}/{len(le9)} = {sum(le9) / len(le9):.1%}")
    shown = 0
    for i, (p, r, t) in enumerate(zip(puzzles, ours, theirs)):
        if shown >= diffs:
            break
        if round(r.er - t, 1) > 0:
            shown += 1
            print(f"  line {i * every + 1}: ours {r.er} theirs {t}; {first_step_over(p, t)}")


def run_tiers(every: int) -> None:
    puzzles = _lines("sudoku_exchange_tiers.txt")[::every]
    tiers = _lines("sudoku_exchange_tiers.tiers.txt")[::every]
    start, cpu = time.perf_counter(), time.process_time()
    ratings = [rate(p, extras=False) for p in puzzles]
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    _keep("tiers", every, ratings)
    ours = [bucket(r.er) for r in ratings]
    agree = sum(a == b for a, b in zip(ours, tiers)) / len(tiers)
    print(
        f"sudoku_exchange_tiers: {len(puzzles)} puzzles in {seconds:.1f} s ({cpu:.1f} s CPU); "
        f"tier agreement {agree:.1%}"
    )
    for t in ("easy", "medium", "hard", "diabolical"):
        mine = [o for o, x in zip(ours, tiers) if x == t]
        if mine:
            print(
                f"  {t:10s} -> " + ", ".join(f"{k} {mine.count(k)}" for k in ("easy", "medium", "hard", "diabolical"))
            )


def run_top1465(every: int) -> None:
    puzzles = _lines("top1465.txt")[::every]
    start, cpu = time.perf_counter(), time.process_time()
    ours = [rate(p, extras=False) for p in puzzles]
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    _keep("top1465", every, ours)
    solved = sum(r.solved for r in ours)
    print(
        f"top1465: {len(puzzles)} puzzles rated in {seconds:.1f} s, {cpu:.1f} s CPU "
        f"({cpu / len(puzzles) * 1000:.0f} ms CPU each); "
        f"solved without guessing {solved}/{len(puzzles)} = {solved / len(puzzles):.1%}"
    )


def run_hardest(sample: int, skip: int = 0) -> None:
    import random

    lines = _lines("forum_hardest_1905_11plus.txt")
    puzzles = random.Random(1).sample(lines, min(sample, len(lines)))[skip:]
    start, cpu = time.perf_counter(), time.process_time()
    ours = []
    for i, p in enumerate(puzzles, 1):  # one line per puzzle as it goes: the run takes minutes
        t = time.process_time()
        ours.append(rate(p, extras=False))
        r = ours[-1]
        print(f"  {i}/{len(puzzles)}: ER {r.er:.1f} ({r.hardest}) in {time.process_time() - t:.2f} s CPU", flush=True)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    _keep("hardest", 1, ours)
    er = [r.er for r in ours if r.solved]
    over = sum(x >= 11.0 for x in er)
    unrated = sum(not r.solved for r in ours)
    spread = {f"{v:.1f}": er.count(v) for v in sorted(set(er))}
    print(
        f"forum_hardest_1905_11plus: sample of {len(puzzles)} (seed 1) in {seconds:.1f} s, {cpu:.1f} s CPU "
        f"({cpu / len(puzzles):.2f} s CPU each); rated >= 11.0: {over}/{len(puzzles)} = {over / len(puzzles):.1%}; "
        f"not rated: {unrated}"
    )
    print(f"  ER spread: {spread}")


def reference_ms() -> float:
    """A fixed pure-Python loop, timed, so that rating times from different days (and machines) can be set
    side by side: the rating is pure Python apart from its kernels, and this machine's speed varies."""
    import timeit

    return min(timeit.repeat("sum(range(10**6))", number=1, repeat=5)) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--every", type=int, default=1, help="take every Nth puzzle (1 = all)")
    parser.add_argument("--set", default="all", choices=("rated", "tiers", "top1465", "hardest", "all"))
    parser.add_argument("--diffs", type=int, default=0, help="print the first step above SE for N puzzles (rated)")
    parser.add_argument("--sample", type=int, default=200, help="puzzles sampled for --set hardest")
    parser.add_argument("--skip", type=int, default=0, help="--set hardest: leave out the first N (to split a run)")
    parser.add_argument("--save", metavar="FILE", help="write every puzzle's rating to FILE (JSON lines)")
    args = parser.parse_args()
    print(f"machine reference: {reference_ms():.1f} ms for sum(range(10**6)) (pure Python, best of 5)")
    if args.set in ("rated", "all"):
        run_rated(args.every, args.diffs)
    if args.set in ("tiers", "all"):
        run_tiers(args.every)
    if args.set in ("top1465", "all"):
        run_top1465(args.every)
    if args.set == "hardest":
        run_hardest(args.sample, args.skip)
    if args.save:
        Path(args.save).write_text("".join(json.dumps(r) + "\n" for r in SAVE))


if __name__ == "__main__":
    main()
