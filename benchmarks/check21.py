"""Validate completed grids with 21 units instead of 27: the saving of Demoen & Garcia de la Banda.

Checks every solution in data/kaggle_sample.solutions.txt (plus a damaged copy of each, so half the
answers are "invalid") with ``sudokit.rules.check_with_units`` on all 27 units and on the proven
21-unit model ``TWENTY_ONE``, and with a numpy version of both over the whole batch. Both must give
identical verdicts; the ratio of times is the saving (ideal: 21/27 = 0.78).

    /work/venv/bin/python benchmarks/check21.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np

from sudokit.grid import Grid
from sudokit.rules import TWENTY_ONE, check_with_units
from sudokit.rules.model import board

DATA = Path(__file__).resolve().parents[1] / "data" / "kaggle_sample.solutions.txt"


def load() -> list[Grid]:
    rng = random.Random(1)
    grids = []
    for line in DATA.read_text().split():
        values = [int(ch) for ch in line]
        grids.append(Grid.from_values(values))
        a, b = rng.sample(range(81), 2)
        values[a], values[b] = values[b], values[a]
        grids.append(Grid.from_values(values))
    return grids


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def numpy_check(values: np.ndarray, unit_cells: np.ndarray) -> np.ndarray:
    """(grids,) bool: every listed unit of each grid holds 1..9 (sorted rows equal 1..9)."""
    picked = np.sort(values[:, unit_cells], axis=2)  # (grids, units, 9)
    return (picked == np.arange(1, 10, dtype=values.dtype)).all(axis=(1, 2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    grids = load()
    b = board(3)
    all27 = b.names
    py27 = [check_with_units(g, all27) for g in grids]
    py21 = [check_with_units(g, TWENTY_ONE) for g in grids]
    assert py27 == py21, "the 21-unit check must agree with the 27-unit check"
    values = np.array([g.values for g in grids], dtype=np.uint8)
    cells27 = np.array([b.cells(u) for u in range(27)])
    cells21 = np.array([b.cells(b.lookup(n)) for n in TWENTY_ONE])
    assert (numpy_check(values, cells27) == np.array(py27)).all()
    assert (numpy_check(values, cells21) == np.array(py27)).all()

    rows = []
    t27 = best(lambda: [check_with_units(g, all27) for g in grids], args.repeat)
    t21 = best(lambda: [check_with_units(g, TWENTY_ONE) for g in grids], args.repeat)
    rows.append(("python, per grid", t27, t21))
    n27 = best(lambda: numpy_check(values, cells27), args.repeat)
    n21 = best(lambda: numpy_check(values, cells21), args.repeat)
    rows.append(("numpy, whole batch", n27, n21))
    print(f"{len(grids)} grids ({sum(py27)} valid), best of {args.repeat}")
    print(f"{'checker':<20} {'27 units':>12} {'21 units':>12} {'ratio':>7} {'grids/s (21)':>14}")
    for name, a, c in rows:
        print(f"{name:<20} {a * 1e3:>10.1f}ms {c * 1e3:>10.1f}ms {c / a:>7.2f} {len(grids) / c:>14,.0f}")
    print(f"ideal ratio 21/27 = {21 / 27:.2f}")


if __name__ == "__main__":
    main()
