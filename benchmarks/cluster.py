"""The Dask runner (``--cluster``): ``--cluster local:2`` against ``--jobs 2`` for ``rate``, and Dask's overhead.

    python benchmarks/cluster.py [--count 1465] [--fast] [--noop 400]

- **Throughput.** ``sudokit rate`` on the first ``--count`` puzzles of top1465 (the full rating unless
  ``--fast``), each a fresh process with its output in a file: ``--jobs 1``, ``--jobs 2`` and ``--cluster
  local:2``, after one untimed run that warms numba's cache. Each also runs on the first :data:`SMALL` puzzles:
  that wall time is its **start-up** (the interpreter, starting the workers -- for ``local:2`` a scheduler and
  two worker processes -- and warming their kernels). Puzzles/s are given over the whole command and for the
  **steady state** (the puzzles beyond the small run over the seconds beyond it); the goal is ``--cluster
  local:2`` within 10% of ``--jobs 2`` in the steady state. The outputs are compared byte for byte.
- **CPU.** The CPU seconds of the ``sudokit`` process and of every process under it (workers, the
  forkserver), sampled every 0.1 s: on a shared machine the wall times follow the other processes, the CPU
  much less; on two cores every second the scheduler, the nannies or a worker's event loop take is a second
  the chunks do not get. The whole-command and steady-state ratios (``--cluster local:2`` against ``--jobs
  2``, ``--jobs 2`` against ``--jobs 1``) and the start-ups are printed under the table.
- **Overhead per chunk.** The cluster run's ``sudokit: cluster`` line gives the gap a worker waited between two
  of its chunks (the ``rate`` chunks: scheduling, shipping the chunk and its answer, the window's refill); a
  ``local:2`` runner in this process then maps a no-op task over ``--noop`` chunks, whose time per chunk is
  Dask's overhead alone.

The machine's load average is printed before and after: on a shared machine the figures say as much about the
other processes as about sudokit.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
SRC = ROOT / "src"
#: Puzzles in the start-up run (two chunks of ``rate`` per worker).
SMALL = 16
CLUSTER_LINE = re.compile(
    r"sudokit: cluster \S+: (\d+) chunks? on (\d+) workers? in ([\d.]+) s \(([\d.]+) s in the tasks\)"
    r"(?:; Dask overhead ([\d.]+) ms per chunk)?"
)


#: Last CPU seconds (user + system) seen of each process of the last :func:`sudokit` run, by pid; the first
#: is the ``sudokit`` process (its client, and for ``local:N`` the scheduler and nannies).
CPU: dict[int, float] = {}


def sudokit(args: list[str], stdout: Path) -> tuple[float, str, int]:
    """(wall seconds, stderr, exit status) of ``sudokit ARGS`` in a fresh process, its output to ``stdout``;
    the CPU of it and of every process under it (workers, forkserver, ...) sampled into :data:`CPU` every
    0.1 s (what a process used in its last 0.1 s is missed)."""
    import psutil  # (a dependency of dask.distributed)

    env = dict(os.environ, PYTHONPATH=str(SRC))
    CPU.clear()
    start = time.perf_counter()
    with open(stdout, "wb") as out, open(stdout.with_suffix(".err"), "w+b") as err:
        process = subprocess.Popen([sys.executable, "-m", "sudokit", *args], stdout=out, stderr=err, env=env, cwd=ROOT)
        root = psutil.Process(process.pid)
        while process.poll() is None:
            with contextlib.suppress(psutil.Error):
                for each in [root, *root.children(recursive=True)]:
                    with contextlib.suppress(psutil.Error):
                        times = each.cpu_times()
                        CPU[each.pid] = times.user + times.system
            time.sleep(0.1)
        wall = time.perf_counter() - start
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    return wall, stderr, process.returncode


def cpu_seconds() -> tuple[float, float]:
    """(all processes, the ``sudokit`` process alone) CPU seconds of the last :func:`sudokit` run."""
    first = next(iter(CPU.values()), 0.0)
    return sum(CPU.values()), first


def checked(args: list[str], stdout: Path, shown: str) -> tuple[float, str, int]:
    """:func:`sudokit`, stopping the benchmark on an exit status other than 0 or 1."""
    wall, stderr, status = sudokit(args, stdout)
    if status not in (0, 1):
        raise SystemExit(f"{shown} {' '.join(args[-2:])} exited with {status}: {stderr.strip()[-300:]}")
    return wall, stderr, status


def noop(chunk: int) -> int:
    return chunk


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1465, help="top1465 puzzles rated")
    parser.add_argument("--fast", action="store_true", help="rate --fast (default: the full rating)")
    parser.add_argument("--noop", type=int, default=400, help="no-op chunks for the bare overhead (0: skip)")
    opts = parser.parse_args()
    print(f"load average before: {load()}, {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        few, puzzles = tmp / "few.txt", tmp / "top1465.txt"
        lines = (DATA / "top1465.txt").read_text().splitlines(keepends=True)[: opts.count]
        few.write_text("".join(lines[:SMALL]))
        puzzles.write_text("".join(lines))
        rate = ["rate", "--no-progress", *(["--fast"] if opts.fast else [])]
        shown = f"sudokit rate top1465[:{len(lines)}]{' --fast' if opts.fast else ''}"
        sudokit([*rate, str(few)], tmp / "warm.out")  # numba's cache (untimed)
        print(
            f"\n| command | start-up s ({SMALL} puzzles) | wall s | puzzles/s | steady puzzles/s | CPU s, all"
            " processes (sudokit process) | chunks | overhead ms/chunk | same bytes |"
        )
        print("|---|---|---|---|---|---|---|---|---|")
        reference, steady, whole, startup = None, {}, {}, {}
        for option in (["--jobs", "1"], ["--jobs", "2"], ["--cluster", "local:2"]):
            out = tmp / f"{option[1]}.out"
            start, _, _ = checked([*rate, str(few), *option], tmp / "few.out", shown)
            wall, stderr, _ = checked([*rate, str(puzzles), *option], out, shown)
            cpu, own = cpu_seconds()
            reference = reference if reference is not None else out.read_bytes()
            match = CLUSTER_LINE.search(stderr)
            chunks = match.group(1) if match else "-"
            overhead = match.group(5) if match and match.group(5) else "-"
            steady[option[1]] = (len(lines) - SMALL) / max(wall - start, 1e-9)
            whole[option[1]] = len(lines) / wall
            startup[option[1]] = start
            print(
                f"| {shown} {' '.join(option)} | {start:.1f} | {wall:.1f} | {len(lines) / wall:.1f} |"
                f" {steady[option[1]]:.1f} | {cpu:.1f} ({own:.1f}) | {chunks} | {overhead} |"
                f" {out.read_bytes() == reference} |",
                flush=True,
            )
        for name, rates in (("whole command", whole), ("steady state", steady)):
            print(
                f"\n{name}: --cluster local:2 at {rates['local:2'] / rates['2']:.1%} of --jobs 2's puzzles/s"
                f" (goal: at least 90%); --jobs 2 at {rates['2'] / rates['1']:.2f}x --jobs 1 (goal: 1.8x)",
                end="",
            )
        print(
            f"\nstart-up ({SMALL} puzzles): --jobs 1 {startup['1']:.1f} s, --jobs 2 {startup['2']:.1f} s,"
            f" --cluster local:2 {startup['local:2']:.1f} s"
        )
    if opts.noop:
        sys.path.insert(0, str(SRC))
        from sudokit.jobs.cluster import ClusterRunner

        with ClusterRunner("local:2", report=False) as runner:
            list(runner.map(noop, range(20)))  # untimed: the first chunks set up the path
            runner.stats.__init__()
            start = time.perf_counter()
            list(runner.map(noop, range(opts.noop)))
            wall = time.perf_counter() - start
            print(
                f"\nno-op task on local:2, {opts.noop} chunks, the default window ({4 * runner.workers}):"
                f" {wall / opts.noop * 1000:.1f} ms per chunk"
                f" (wall / chunks), {runner.stats.overhead() * 1000:.1f} ms gap per chunk on a worker"
            )
    print(f"\nload average after: {load()}")


if __name__ == "__main__":
    main()
