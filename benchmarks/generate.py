"""Generator benchmark: unique minimal 9x9 puzzles per second (one core), before and after, and what they look like.

    python benchmarks/generate.py                         # 2,000 puzzles, figures only
    python benchmarks/generate.py --plot generate.png     # also the clue-count / rating histograms

Prints, in one run: the compiled 9x9 generator's first load (a compile on a cold numba cache, else a cache
load), then the throughput of unique minimal puzzle generation on one core in steady state, CPU time of this
process (``time.process_time``, steadier than wall time on a shared machine) -- *before* (the Python path,
``Generator(fast=False)``: one engine call per uniqueness count) and *after* (``Generator``'s default, the 9x9
kernel of ``sudokit.generate.fast9``), each through ``Generator.puzzles``, and the kernel alone on arrays with
and without its minimality re-count. Every puzzle made is then checked unique and minimal with the engine's
counter. Then the canonicalization throughput, and the distribution of clue counts and difficulty of the
puzzles made. Ratings come from ``sudokit.generate.measure_difficulty`` (the SE-style rating's level and ER);
rating is slow, so it is timed separately (``--no-rating`` skips it). Target: 2,000 puzzles/s (issue 22).
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter
from pathlib import Path


def _timed(make):
    """``(result, CPU seconds, wall seconds)`` of ``make()``."""
    wall, cpu = time.perf_counter(), time.process_time()
    out = make()
    return out, time.process_time() - cpu, time.perf_counter() - wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000, help="puzzles to generate (default 2000)")
    parser.add_argument("--before", type=int, default=300, help="puzzles by the Python path (default 300)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--symmetry", default="none")
    parser.add_argument("--plot", default=None, metavar="PNG", help="write the histograms to this PNG file")
    parser.add_argument("--no-rating", action="store_true", help="skip rating the puzzles")
    parser.add_argument("--canon", default=None, metavar="FILE", help="also canonicalize a 9x9 puzzle file")
    args = parser.parse_args()

    import numpy as np

    from sudokit import jit
    from sudokit.generate import DIFFICULTIES, Generator, fast9, is_minimal, measure_difficulty
    from sudokit.generate.transforms import canonical_many
    from sudokit.geometry import standard

    print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f} on {} cores".format(*os.getloadavg(), os.cpu_count()))
    n_cold, total = jit.cold(("sudokit.generate.fast9",))
    _, cpu, wall = _timed(fast9.load)
    how = "compiled (cold cache)" if n_cold else "loaded from the cache"
    print(f"9x9 generator kernel {how}: {cpu:.2f} s CPU, {wall:.2f} s wall (not in the figures below)")
    Generator(standard(), seed=0, fast=False).one()  # the Python path's engine kernels
    canonical_many(np.zeros((1, 81), dtype=np.uint8), standard())

    gen = Generator(standard(), seed=args.seed, symmetry=args.symmetry, fast=False)
    old, cpu, wall = _timed(lambda: list(gen.puzzles(args.before)))
    before = args.before / cpu
    print(f"before: {args.before} unique minimal 9x9 puzzles (symmetry {args.symmetry}) by the Python path")
    print(f"  {before:,.0f} puzzles/s on one core (CPU), {1000 * cpu / args.before:.2f} ms each; {wall:.2f} s wall")
    gen = Generator(standard(), seed=args.seed, symmetry=args.symmetry)
    made, cpu, wall = _timed(lambda: list(gen.puzzles(args.count)))
    after = args.count / cpu
    print(f"after: {args.count} by the 9x9 kernel through Generator.puzzles")
    print(f"  {after:,.0f} puzzles/s on one core (CPU), {1000 * cpu / args.count:.3f} ms each; {wall:.2f} s wall")
    print(f"  {after / before:.1f}x the Python path")
    sym = fast9.KERNEL_SYMMETRIES.index(args.symmetry) if args.symmetry != "random" else -1
    for check in (True, False):
        rows = np.zeros((args.count, 81), dtype=np.uint8)
        info = np.zeros((args.count, 4), dtype=np.int64)
        key = np.uint64(fast9.key_of(args.seed))
        call = (key, 0, 0, sym, -1, 81, 1, check, np.zeros(0, np.uint8), rows, rows.copy(), info, *fast9.table_args())
        _, cpu, _ = _timed(lambda call=call: fast9.generate_rows(*call))
        what = "with the minimality re-count" if check else "without the re-count"
        print(f"  the kernel alone on arrays, {what}: {args.count / cpu:,.0f} puzzles/s")
    from sudokit.engine import count_array

    bad = [f for f in made if count_array(np.array(f.puzzle.values, np.uint8), standard(), 2) != 1]
    if args.symmetry == "none":
        bad += [f for f in made if not is_minimal(f.puzzle)]
    print(
        f"checked with the engine's counter: {len(made) - len(bad)} of {len(made)} unique"
        + (" and minimal" if args.symmetry == "none" else "")
    )
    print(f"clue counts, Python path: {sorted(Counter(f.clues for f in old).items())}")

    values = np.array([f.puzzle.values for f in made], dtype=np.uint8)
    start = time.perf_counter()
    keys = canonical_many(values, standard())
    seconds = time.perf_counter() - start
    distinct = len({k.tobytes() for k in keys})
    print(f"canonicalized them in {seconds:.2f} s ({args.count / seconds:,.0f}/s, all cores): {distinct} distinct")

    clues = Counter(f.clues for f in made)
    print("clue counts:", ", ".join(f"{k}: {clues[k]}" for k in sorted(clues)))
    ratings = []
    if not args.no_rating:
        start = time.perf_counter()
        ratings = [measure_difficulty(f.puzzle) for f in made]
        seconds = time.perf_counter() - start
        levels = Counter(r.level for r in ratings)
        print(f"rated them in {seconds:.1f} s ({1000 * seconds / args.count:.1f} ms each, by {ratings[0].measure})")
        print("levels:", ", ".join(f"{k}: {levels[k]}" for k in DIFFICULTIES))
        values_r = np.array([r.value for r in ratings])
        print(f"rating: median {np.median(values_r):.1f}, 90th percentile {np.percentile(values_r, 90):.1f}")
    if args.plot:
        plot(clues, ratings, args.plot, args.count)
        print(f"wrote {args.plot}")
    if args.canon:
        canon_file(args.canon)


def canon_file(path: str) -> None:
    """Canonicalize every puzzle of a 9x9 file (one per line) and count the classes."""
    import numpy as np

    from sudokit.generate.transforms import canonical_many
    from sudokit.geometry import standard

    text = Path(path).read_text(encoding="utf-8")
    rows = [line.strip()[:81] for line in text.splitlines() if line.strip() and line[0] != "#"]
    values = np.array([[0 if ch in ".0" else int(ch) for ch in row] for row in rows], dtype=np.uint8)
    start = time.perf_counter()
    cpu = time.process_time()
    keys = canonical_many(values, standard())
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    distinct = len({k.tobytes() for k in keys})
    print(f"canonicalized {len(rows)} puzzles of {path} in {seconds:.1f} s wall, {cpu:.1f} s CPU")
    print(f"  {1000 * cpu / len(rows):.2f} ms CPU each; {distinct} distinct up to symmetry")


def plot(clues: Counter, ratings: list, path: str, count: int) -> None:
    """Two histograms side by side: clue counts, and ratings."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = 2 if ratings else 1
    fig, axes = plt.subplots(1, panels, figsize=(5 * panels, 3.6), squeeze=False)
    ax = axes[0][0]
    keys = sorted(clues)
    ax.bar(keys, [clues[k] for k in keys], color="#4c72b0")
    ax.set_xlabel("givens")
    ax.set_ylabel("puzzles")
    ax.set_title(f"clue counts of {count} minimal 9x9 puzzles")
    if ratings:
        ax = axes[0][1]
        ax.hist([r.value for r in ratings], bins=30, color="#dd8452")
        ax.set_xlabel("SE-style rating (ER)")
        ax.set_title("difficulty")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
