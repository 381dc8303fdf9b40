"""Rating benchmark: agreement with Sukaku Explainer and Sudoku Exchange, coverage and speed.

    python benchmarks/rate.py [--every N] [--set rated|tiers|top1465|all] [--save FILE]

- ``rated``: Spearman rank correlation of our SE-style rating with ``sudoku_exchange_rated.ratings.txt``,
  shares exactly equal, within +-0.2 and within +-0.5 (differences rounded to 0.1, the ratings' step), share
  rated higher than theirs, and share of puzzles rated <= 9.0 solved by logic alone.
- ``tiers``: our bucket (SE < 1.5 easy, < 2.5 medium, < 5.0 hard, else diabolical, Sudoku Exchange's own
  cut-offs) against ``sudoku_exchange_tiers.tiers.txt``.
- ``top1465``: share solved without guessing and the time to rate them all (one core).

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


def run_rated(every: int) -> None:
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


def reference_ms() -> float:
    """A fixed pure-Python loop, timed, so that rating times from different days (and machines) can be set
    side by side: the rating is pure Python apart from its kernels, and this machine's speed varies."""
    import timeit

    return min(timeit.repeat("sum(range(10**6))", number=1, repeat=5)) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--every", type=int, default=1, help="take every Nth puzzle (1 = all)")
    parser.add_argument("--set", default="all", choices=("rated", "tiers", "top1465", "all"))
    parser.add_argument("--save", metavar="FILE", help="write every puzzle's rating to FILE (JSON lines)")
    args = parser.parse_args()
    print(f"machine reference: {reference_ms():.1f} ms for sum(range(10**6)) (pure Python, best of 5)")
    if args.set in ("rated", "all"):
        run_rated(args.every)
    if args.set in ("tiers", "all"):
        run_tiers(args.every)
    if args.set in ("top1465", "all"):
        run_top1465(args.every)
    if args.save:
        Path(args.save).write_text("".join(json.dumps(r) + "\n" for r in SAVE))


if __name__ == "__main__":
    main()
