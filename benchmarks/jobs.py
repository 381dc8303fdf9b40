"""The batch layer (:mod:`sudokit.jobs`): ``--jobs 2`` against ``--jobs 1``, and memory on a big input.

    python benchmarks/jobs.py [--rate 400] [--fast] [--generate 100000] [--lines 1000000]
                              [--skip-speed] [--skip-memory]

Every run is ``sudokit ...`` in a fresh process (output to a file; :func:`files.run` gives the main process's
CPU, the wall time and peak RSS), after one untimed run that warms numba's cache. Measured:

- **Speed-up** (the goal is at least 1.8x on two idle cores) of ``rate`` on the first ``--rate`` puzzles of
  top1465 (0: all 1465; the full rating unless ``--fast``) and of ``generate -n --generate --seed 1``. Each
  command runs twice per ``--jobs``: on a few puzzles (:data:`SMALL`; its wall time is the **start-up**: the
  interpreter, imports, starting the workers, loading the kernels) and on all of them. The table gives both,
  the puzzles/s of the whole command and of the **steady state** (the puzzles beyond the small run over the
  seconds beyond it, start-up left out), and the CPU of the main process (with ``--jobs 2`` it only hands out
  chunks and writes answers: the workers' CPU is not counted there). The speed-up is given for the whole
  command and for the steady state. Each output is compared byte for byte between the two runs.
- **Memory** (peak RSS of the main process, ``VmHWM``): ``solve`` and ``canon`` on a file of ``--lines``
  puzzles (default 1,000,000, isomorphs of the bundled sets, made by :func:`files.make_file` in a temporary
  directory) and on a tenth of it: flat memory means the same peak for both.

The machine's load average is printed with the tables: on a shared machine the speed-up says more about the
other processes than about sudokit.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from files import DATA, ROOT, make_file, run  # noqa: E402 - the benchmarks' shared runner

SRC = ROOT / "src"
#: Puzzles in the start-up run of each command (two chunks of ``rate`` per worker, one chunk of ``generate``).
SMALL = 16


@dataclass
class Timed:
    """One command run: the main process's CPU seconds, wall seconds, and its output."""

    cpu: float
    wall: float
    output: bytes


def timed(args: list[str], out: Path) -> Timed:
    cpu, wall, _, status = run(args, SRC, out)
    if status not in (0, 1):
        raise SystemExit(f"sudokit {' '.join(args)} exited with status {status}")
    return Timed(cpu, wall, out.read_bytes())


def speed(label: str, small: list[str], big: list[str], puzzles: int, tmp: Path) -> None:
    """The table rows of one command: ``small`` (:data:`SMALL` puzzles) and ``big`` (``puzzles``) on 1 and 2
    workers, then the speed-ups."""
    run([*small, "--jobs", "1"], SRC, tmp / "warm.out")  # warm numba's cache (untimed)
    runs = {}
    for jobs in ("1", "2"):
        runs[jobs] = (timed([*small, "--jobs", jobs], tmp / "small.out"), timed([*big, "--jobs", jobs], tmp / jobs))
        few, many = runs[jobs]
        steady = (puzzles - SMALL) / max(many.wall - few.wall, 1e-9)
        print(
            f"| {label} | {jobs} | {few.wall:.2f} | {many.wall:.2f} | {many.cpu:.2f} | {puzzles / many.wall:.1f} |"
            f" {steady:.1f} |",
            flush=True,
        )
    (few1, many1), (few2, many2) = runs["1"], runs["2"]
    steady = (many1.wall - few1.wall) / max(many2.wall - few2.wall, 1e-9)
    same = many1.output == many2.output and few1.output == few2.output
    print(f"| {label}: speed-up | 2 over 1 | | {many1.wall / many2.wall:.2f}x | | | {steady:.2f}x | same bytes: {same}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=int, default=400, help="top1465 puzzles rated (0: all 1465)")
    parser.add_argument("--fast", action="store_true", help="rate --fast (no Norvig level, no guess count)")
    parser.add_argument("--generate", type=int, default=100_000, help="puzzles generated")
    parser.add_argument("--lines", type=int, default=1_000_000, help="puzzles in the big file")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--skip-memory", action="store_true")
    opts = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}, {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        if not opts.skip_speed:
            lines = (DATA / "top1465.txt").read_text().splitlines(keepends=True)
            lines = lines[: opts.rate] if opts.rate else lines
            few, some = tmp / "few.txt", tmp / "some.txt"
            few.write_text("".join(lines[:SMALL]))
            some.write_text("".join(lines))
            fast = ["--fast"] if opts.fast else []
            print(
                f"\n| command | --jobs | start-up s ({SMALL} puzzles) | wall s | main process CPU s | puzzles/s |"
                " steady puzzles/s |"
            )
            print("|---|---|---|---|---|---|---|")
            rate = ["rate", "--no-progress", *fast]
            speed(
                f"sudokit rate top1465[:{len(lines)}]{' --fast' if opts.fast else ''}",
                [*rate, str(few)],
                [*rate, str(some)],
                len(lines),
                tmp,
            )
            generate = ["generate", "--seed", "1", "-n"]
            speed(
                f"sudokit generate -n {opts.generate} --seed 1",
                [*generate, str(SMALL)],
                [*generate, str(opts.generate)],
                opts.generate,
                tmp,
            )
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
