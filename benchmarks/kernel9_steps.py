"""Where the 9x9 kernel's time goes, per puzzle: ``python benchmarks/kernel9_steps.py [--sets a,b] [--count N]``.

Builds copies of ``src/sudokit/engine/kernel9.py`` in a temporary directory and runs them on the first
``--count`` puzzles of each set:

* a counting copy: each step adds to a counter in a state word past the 44 the kernel uses (word 44 up;
  those words are never copied to the next level, so the totals over all levels are exact). Prints per
  puzzle the guesses, the calls of ``_propagate``, its passes, the naked-single scans (one a pass, all three
  bands) and placements, the hidden-single runs (and those that placed a digit) and the digits they visited,
  the shapes and triads runs (and those that changed a word), the branches on a cell (the fallback of
  ``_choose_way``), and the open cells left by the first fixed point;
* two timing copies that return after the givens are placed and after the first fixed point: with the kernel
  itself, the CPU time per puzzle of the givens, of the first fixed point and of the search (best of
  ``--repeat``, interleaved, first solution).

Each source edit is asserted, so the runner stops rather than count the wrong thing when the kernel changes.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from sudokit.engine.batch import load_lines

ROOT = Path(__file__).resolve().parents[1]
KERNEL = ROOT / "src" / "sudokit" / "engine" / "kernel9.py"

#: Counter words of the counting copy (state words past the kernel's 44).
COUNTERS = {
    "calls": 44,
    "passes": 45,
    "naked scans": 46,
    "naked placed": 51,
    "hidden runs": 52,
    "hidden found": 59,
    "hidden digits": 47,
    "shapes": 48,
    "shapes changed": 53,
    "triads": 49,
    "triads changed": 50,
    "cell branches": 54,
}
FIRST_OPEN = 55  # words 55..57: open cells of each band after the first fixed point

_FIRST_FIXED_POINT = """    if not _propagate(s):
        stats[2] = 1
        return NO_SOLUTION, 0
"""


def _edit(text: str, edits: list[tuple[str, str]]) -> str:
    for old, new in edits:
        assert text.count(old) == 1, f"kernel9.py changed: {old.splitlines()[0]!r} not found once"
        text = text.replace(old, new)
    return text


#: The counting copy's insertions: each counter line goes in just before its anchor (unique in kernel9.py).
_COUNT_LINES = [
    ("    while True:\n        if s[OPEN] | s[OPEN + 1] | s[OPEN + 2] == 0:", "    s[44] += 1\n"),
    ("        todo = s[MARK]\n", "        s[45] += 1\n"),
    ("        once = splat4(0)\n", "        s[46] += 1\n"),
    ("                    if s[j + b] & bit == 0:", "                    s[51] += 1\n"),
    ("        todo = hid & 0x7FFFFFF\n", "        s[52] += 1\n"),
    ("            todo &= ~(7 << (3 * d))\n", "            s[47] += 1\n"),
    ("            continue\n        # No singles left", "            s[59] += 1\n"),
    ("        shrunk = _shapes(s, shp", "        s[48] += 1\n"),
    ("        shp = 0\n        if shrunk < 0:", "        s[53] += shrunk > 0\n"),
    ("            shrunk = _triads(s)\n", "            s[49] += 1\n"),
    (
        "            if shrunk < 0:\n                return False\n            if shrunk == 0:",
        "            s[50] += shrunk > 0\n",
    ),
    ("            if b < 0:  # every band", "            cur[54] += b < 0\n"),
    ("    count = 0\n    guesses = 0\n", "    for b in range(3):\n        st[0][55 + b] += popcount(s[OPEN + b])\n"),
]


def counting_source(text: str) -> str:
    """kernel9.py with a counter per step (see :data:`COUNTERS`) and a 64-word state; ``search9_rows`` returns
    the counters summed over every level."""
    text = _edit(text, [(anchor, line + anchor) for anchor, line in _COUNT_LINES])
    owner = "    st_owner[0, 0] = stack_owner[0, 0]\n"
    return _edit(
        text,
        [
            ("st_owner = np.zeros((83, STATE_WORDS), dtype=np.int64)", "st_owner = np.zeros((83, 64), dtype=np.int64)"),
            (owner, owner + "    return st_owner.sum(axis=0)\n"),
        ],
    )


def stop_source(text: str, after_fixed_point: bool) -> str:
    """kernel9.py returning (NO_SOLUTION) after the first fixed point, or after the givens are placed."""
    stop = "    return NO_SOLUTION, 0\n"
    new = _FIRST_FIXED_POINT + stop if after_fixed_point else stop + _FIRST_FIXED_POINT
    return _edit(text, [(_FIRST_FIXED_POINT, new)])


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # numba's cache imports the module by name
    spec.loader.exec_module(module)
    return module


def _run(module, puzzles: np.ndarray, limit: int):
    n = len(puzzles)
    out = (np.zeros_like(puzzles), np.zeros(n, np.int8), np.zeros(n, np.int64), np.zeros((n, 3), np.int64))
    totals = module.search9_rows(puzzles, 0, n, limit, 0, *out, *module.table_args())
    return out, totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="serg_benchmark,norvig_top95,top1465,forum_hardest_1905_11plus,17_clue")
    parser.add_argument("--count", type=int, default=4000, help="the first N puzzles of each set")
    parser.add_argument("--repeat", type=int, default=5, help="timing: best of R interleaved runs")
    parser.add_argument("--data", type=Path, default=ROOT / "data")
    args = parser.parse_args()
    text = KERNEL.read_text()
    from sudokit.engine import kernel9

    with tempfile.TemporaryDirectory() as tmp:
        mods = {}
        for name, source in (
            ("counting", counting_source(text)),
            ("givens", stop_source(text, False)),
            ("first", stop_source(text, True)),
        ):
            path = Path(tmp) / f"kernel9_steps_{name}.py"
            path.write_text(source)
            mods[name] = _load(f"kernel9_steps_{name}", path)
        mods["whole"] = kernel9
        print("| set | L | guesses | " + " | ".join(COUNTERS) + " | open after the first fixed point |")
        print("|---|---|---" + "|---" * (len(COUNTERS) + 1) + "|")
        timing = []
        for name in [s for s in args.sets.split(",") if s]:
            puzzles = load_lines(args.data / f"{name}.txt")[0][: args.count]
            n = len(puzzles)
            for limit in (1, 2):
                (_, _, _, stats), totals = _run(mods["counting"], puzzles, limit)
                cells = " | ".join(f"{totals[w] / n:.2f}" for w in COUNTERS.values())
                first_open = totals[FIRST_OPEN : FIRST_OPEN + 3].sum() / n
                print(f"| {name} | {limit} | {stats[:, 0].mean():.2f} | {cells} | {first_open:.1f} |", flush=True)
            best = dict.fromkeys(("givens", "first", "whole"), float("inf"))
            for key in best:
                _run(mods[key], puzzles[:10], 1)
            for _ in range(args.repeat):
                for key in best:
                    cpu = time.process_time()
                    _run(mods[key], puzzles, 1)
                    best[key] = min(best[key], time.process_time() - cpu)
            us = {k: 1e6 * v / n for k, v in best.items()}
            timing.append((name, n, us))
        print()
        print("| set | puzzles | givens µs | first fixed point µs | search µs | whole µs (first solution, CPU) |")
        print("|---|---|---|---|---|---|")
        for name, n, us in timing:
            g, f, w = us["givens"], us["first"], us["whole"]
            print(
                f"| {name} | {n:,} | {g:.3f} ({100 * g / w:.0f}%) | {f - g:.3f} ({100 * (f - g) / w:.0f}%) | "
                f"{w - f:.3f} ({100 * (w - f) / w:.0f}%) | {w:.3f} |"
            )
        print(f"\nload average (1, 5, 15 min): {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
