"""The batch layer (:mod:`sudokit.jobs`): ``--jobs 2`` against ``--jobs 1``, and memory on a big input.

    python benchmarks/jobs.py [--rate 120] [--generate 96] [--lines 1000000] [--skip-speed] [--skip-memory]

Every run is ``sudokit ...`` in a fresh process (output to a file; :func:`files.run` gives CPU, wall time and
peak RSS), after one untimed run that warms numba's cache. Measured:

- **Speed-up** (wall time of ``--jobs 1`` over ``--jobs 2``; the goal is at least 1.8x on two idle cores):
  ``rate`` on the first ``--rate`` puzzles of top1465 (``--fast``), and ``generate -n --generate --seed 1``.
  Each output is compared byte for byte between the two runs.
- **Memory** (peak RSS of the main process, ``VmHWM``): ``solve`` and ``canon`` on a file of ``--lines``
  puzzles (default 1,000,000, isomorphs of the bundled sets, made by :func:`files.make_file` in a temporary
  directory) and on a tenth of it: flat memory means the same peak for both.

The machine's load average is printed with the table: on a shared machine the speed-up says more about the
other processes than about sudokit.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from files import DATA, ROOT, make_file, run  # noqa: E402 - the benchmarks' shared runner

SRC = ROOT / "src"


def speed(args: list[str], tmp: Path) -> tuple[float, float, bool]:
    """(wall s on 1 worker, wall s on 2, same output) of ``sudokit ARGS --jobs N`` (the workers' CPU time is not
    the main process's to count: they are the forkserver's children)."""
    one_out, two_out = tmp / "one.out", tmp / "two.out"
    run([*args, "--jobs", "1"], SRC, one_out)  # warm numba's cache (untimed)
    _, one, _, _ = run([*args, "--jobs", "1"], SRC, one_out)
    _, two, _, _ = run([*args, "--jobs", "2"], SRC, two_out)
    return one, two, one_out.read_bytes() == two_out.read_bytes()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=int, default=120, help="top1465 puzzles rated")
    parser.add_argument("--generate", type=int, default=96, help="puzzles generated")
    parser.add_argument("--lines", type=int, default=1_000_000, help="puzzles in the big file")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--skip-memory", action="store_true")
    opts = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}, {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        if not opts.skip_speed:
            some = tmp / "some.txt"
            some.write_text("".join((DATA / "top1465.txt").read_text().splitlines(keepends=True)[: opts.rate]))
            jobs = {
                f"sudokit rate top1465[:{opts.rate}] --fast": ["rate", str(some), "--fast", "--no-progress"],
                f"sudokit generate -n {opts.generate} --seed 1": ["generate", "-n", str(opts.generate), "--seed", "1"],
            }
            print("\n| command | --jobs 1 wall s | --jobs 2 wall s | speed-up | same bytes |")
            print("|---|---|---|---|---|")
            for label, args in jobs.items():
                one, two, same = speed(args, tmp)
                print(f"| {label} | {one:.2f} | {two:.2f} | {one / two:.2f}x | {same} |", flush=True)
        if not opts.skip_memory:
            print("\n| command | lines | CPU s | wall s | peak RSS MiB | exit |")
            print("|---|---|---|---|---|---|")
            for lines in (opts.lines // 10, opts.lines):
                path = tmp / f"big{lines}.txt"
                make_file(path, lines)
                for args in (["solve", str(path), "--no-progress"], ["canon", str(path), "--quiet"]):
                    run(args[:1] + [str(DATA / "norvig_top95.txt")], SRC, tmp / "warm.out")
                    cpu, wall, rss, status = run(args, SRC, tmp / "big.out")
                    shown = f"sudokit {args[0]} FILE"
                    print(f"| {shown} | {lines:,} | {cpu:.2f} | {wall:.2f} | {rss:.0f} | {status} |", flush=True)
                path.unlink()
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
