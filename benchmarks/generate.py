"""Generator benchmark: unique minimal 9x9 puzzles per second (one core), and what they look like.

    python benchmarks/generate.py                         # 1,000 puzzles, figures only
    python benchmarks/generate.py --plot generate.png     # also the clue-count / rating histograms

Prints the throughput of unique minimal puzzle generation (target: at least 200 per second on one core),
the canonicalization throughput, and the distribution of clue counts and difficulty of the puzzles
made. Ratings come from ``sudokit.generate.measure_difficulty`` (the SE-style rating's level and ER);
rating is slow, so it is timed separately.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="puzzles to generate (default 1000)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--symmetry", default="none")
    parser.add_argument("--plot", default=None, metavar="PNG", help="write the histograms to this PNG file")
    parser.add_argument("--no-rating", action="store_true", help="skip rating the puzzles")
    parser.add_argument("--canon", default=None, metavar="FILE", help="also canonicalize a 9x9 puzzle file")
    args = parser.parse_args()

    import numpy as np

    from sudokit.generate import DIFFICULTIES, Generator, measure_difficulty
    from sudokit.generate.transforms import canonical_many
    from sudokit.geometry import standard

    warm = Generator(standard(), seed=0)
    warm.one()  # compile the kernels outside the timing
    canonical_many(np.zeros((1, 81), dtype=np.uint8), standard())

    gen = Generator(standard(), seed=args.seed, symmetry=args.symmetry)
    start = time.perf_counter()
    made = list(gen.puzzles(args.count))
    seconds = time.perf_counter() - start
    print(f"generated {args.count} unique minimal 9x9 puzzles (symmetry {args.symmetry}) in {seconds:.2f} s")
    print(f"  {args.count / seconds:,.0f} puzzles/s on one core, {1000 * seconds / args.count:.2f} ms each")

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
