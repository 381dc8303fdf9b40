"""Generation by technique: puzzles per second whose logical path uses a technique and nothing harder.

    python benchmarks/needs.py                       # the default techniques, 20 s each
    python benchmarks/needs.py --seconds 60 --techniques "X-Wing,XY-Wing"

For each technique T it runs the generator with ``needs=T`` and ``at_most=T`` (what ``sudokit generate
--needs T --at-most T`` does) on one core for a fixed time, after one untimed puzzle that loads the kernels,
and prints the puzzles found per second and the random minimal puzzles tried per hit.
"""

from __future__ import annotations

import argparse
import os
import time

DEFAULT = "Pointing,Naked Pair,X-Wing,Skyscraper,XY-Wing,Unique Rectangle"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--techniques", default=DEFAULT, help=f"comma list (default: {DEFAULT})")
    parser.add_argument("--seconds", type=float, default=20.0, help="time per technique")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    from sudokit.generate import Generator
    from sudokit.generate.needs import path_wants

    Generator(seed=0, wants=path_wants("Pointing", at_most="Pointing")).one()  # load the kernels, untimed
    print(f"`python benchmarks/needs.py --seconds {args.seconds:g}`, load {os.getloadavg()[0]:.1f}\n")
    print("| needs (and nothing harder) | puzzles | tried | tried per hit | puzzles/s |")
    print("|---|---|---|---|---|")
    for name in (t.strip() for t in args.techniques.split(",")):
        gen = Generator(seed=args.seed, wants=path_wants(name, at_most=name), time_limit=args.seconds)
        start, found, tried = time.process_time(), 0, 0
        while time.process_time() - start < args.seconds:
            try:
                puzzle = gen.one()
            except Exception:  # the time limit met before a hit: count what was tried
                break
            found += 1
            tried += puzzle.attempts
        spent = time.process_time() - start
        per_hit = f"{tried / found:.1f}" if found else "-"
        print(f"| {name} | {found} | {tried} | {per_hit} | {found / spent:.2f} |", flush=True)


if __name__ == "__main__":
    main()
