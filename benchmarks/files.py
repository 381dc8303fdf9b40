"""File commands at kernel speed: ``sudokit solve FILE`` and friends against ``solve_many`` on the same array.

    python benchmarks/files.py [--lines 1000000] [--commands solve,count,check,convert,canon] [--baseline-src DIR]

Every command runs in a fresh process (``python -m sudokit ...``, output to a file) after one untimed run that
warms numba's cache; the table gives its CPU time (user + system), wall time and peak resident memory (from
``wait4``). Measured:

- ``solve data/17_clue.txt`` (49,158 puzzles) against the same puzzles through the API in a fresh process
  (``load_lines`` + ``solve_many``, nothing written) and against ``solve_many`` alone on the loaded array
  (warm kernels, in this process): the goal is the command within 1.5x of ``solve_many``;
- a file of ``--lines`` puzzles (default 1,000,000) made from the bundled 9x9 sets by digit relabelling and
  row/column permutations inside bands and stacks (each an isomorph, so as hard as its original): the goal is
  ``solve`` in at most 15 s of CPU with flat memory; ``count`` (``solve --count 2``), ``check``, ``convert --to
  csv`` and ``canon`` on the same file.

Every solve output is checked: one line per puzzle, each a solution of its puzzle (``verify``).
``--baseline-src DIR`` also times the commands with the sources in DIR (e.g. an older checkout's ``src``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
SETS = ("17_clue", "kaggle_sample", "kaggle3m_sample")  # unique puzzles (serg_benchmark's have several solutions)
#: Written into each measured process: its peak RSS (VmHWM, which exec resets, unlike ru_maxrss from wait4, which
#: would start from this big process's size at fork) goes to the file $BENCH_HWM at exit.
PEAK = (
    "import atexit, os\n"
    "def _peak():\n"
    "    kib = next(l for l in open('/proc/self/status') if l.startswith('VmHWM')).split()[1]\n"
    "    open(os.environ['BENCH_HWM'], 'w').write(kib)\n"
    "atexit.register(_peak)\n"
)
CLI = PEAK + "import runpy, sys\nsys.argv[0] = 'sudokit'\nrunpy.run_module('sudokit', run_name='__main__')\n"


def run_python(code: str, args: list[str], src: Path, stdout: Path) -> tuple[float, float, float, int]:
    """(CPU seconds, wall seconds, peak RSS MiB, exit status) of ``python -c CODE ARGS`` in a fresh process."""
    with tempfile.NamedTemporaryFile() as peak:
        env = dict(os.environ, PYTHONPATH=str(src), BENCH_HWM=peak.name)
        start = time.perf_counter()
        with open(stdout, "wb") as out:
            proc = subprocess.Popen(
                [sys.executable, "-c", code, *args], stdout=out, stderr=subprocess.DEVNULL, env=env, cwd=ROOT
            )
            _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        kib = int(Path(peak.name).read_text() or 0)
    return usage.ru_utime + usage.ru_stime, wall, kib / 1024, os.waitstatus_to_exitcode(status)


def run(args: list[str], src: Path, stdout: Path) -> tuple[float, float, float, int]:
    """(CPU seconds, wall seconds, peak RSS MiB, exit status) of ``sudokit ARGS`` in a fresh process."""
    return run_python(CLI, args, src, stdout)


def make_file(path: Path, lines: int, seed: int = 1) -> int:
    """``lines`` 9x9 puzzles, isomorphs of the bundled sets, written a chunk at a time; returns the count."""
    from sudokit.engine.batch import load_lines
    from sudokit.formats import line_rows
    from sudokit.geometry import standard

    base = np.concatenate([load_lines(DATA / f"{name}.txt")[0] for name in SETS])
    rng = np.random.default_rng(seed)
    written = 0
    with open(path, "wb") as out:
        while written < lines:
            digits = np.concatenate([[0], rng.permutation(9) + 1]).astype(np.uint8)
            rows = np.concatenate([3 * b + rng.permutation(3) for b in rng.permutation(3)])
            cols = np.concatenate([3 * b + rng.permutation(3) for b in rng.permutation(3)])
            grids = digits[base.reshape(-1, 9, 9)[:, rows][:, :, cols]]
            if rng.random() < 0.5:
                grids = grids.transpose(0, 2, 1)
            take = min(len(grids), lines - written)
            out.write(line_rows(np.ascontiguousarray(grids.reshape(-1, 81)[:take]), standard()).tobytes())
            written += take
    return written


def solved_right(puzzles_path: Path, answers_path: Path) -> bool:
    """Every answer line solves its puzzle line."""
    from sudokit.engine.batch import load_lines, verify

    puzzles, geometry = load_lines(puzzles_path)
    answers, _ = load_lines(answers_path, geometry)
    return len(puzzles) == len(answers) and bool(verify(puzzles, answers, geometry).all())


def api_seconds(path: Path) -> float:
    """CPU seconds of ``solve_many`` (uniqueness checked, as the command does) on the loaded array, warm kernels."""
    from sudokit.engine.batch import load_lines, solve_many

    puzzles, geometry = load_lines(path)
    for _ in solve_many(puzzles[:10], geometry):  # load the kernels
        pass
    start = time.process_time()
    for _ in solve_many(puzzles, geometry, limit=2):
        pass
    return time.process_time() - start


COMMANDS = {
    "solve": ["solve", "{file}", "--no-progress"],
    "count": ["solve", "--count", "2", "{file}", "--no-progress"],
    "check": ["check", "{file}"],
    "convert": ["convert", "{file}", "--to", "csv"],
    "canon": ["canon", "{file}", "--quiet"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000, help="puzzles in the big file")
    parser.add_argument("--commands", default="solve,count,check,convert", help=f"of {','.join(COMMANDS)}")
    parser.add_argument("--baseline-src", type=Path, default=None, help="also time the commands with these sources")
    args = parser.parse_args()
    sources = [("this", ROOT / "src")] + ([("baseline", args.baseline_src)] if args.baseline_src else [])
    clue = DATA / "17_clue.txt"
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.txt"
        for _, src in sources:  # warm numba's cache for each source tree (not timed)
            run(["solve", str(DATA / "norvig_top95.txt"), "--count", "2"], src, out)
            run(["solve", str(DATA / "norvig_top95.txt"), "-j", "1"], src, out)
        api = api_seconds(clue)
        code = PEAK + (
            "from sudokit.engine.batch import load_lines, solve_many\n"
            f"p, g = load_lines({str(clue)!r})\n"
            "for b in solve_many(p, g, limit=2): pass\n"
        )
        cpu, wall, rss, _ = run_python(code, [], ROOT / "src", out)
        rows.append(("API in a fresh process: load_lines + solve_many, 17_clue", "49,158", cpu, wall, rss, "-"))
        for label, src in sources:
            cpu, wall, rss, code_ = run(["solve", str(DATA / "norvig_top95.txt"), "--no-progress"], src, out)
            rows.append((f"start-up: sudokit solve top95 ({label})", "95", cpu, wall, rss, f"exit {code_}"))
        for label, src in sources:
            cpu, wall, rss, code_ = run(["solve", str(clue), "--no-progress"], src, out)
            ok = solved_right(clue, out)
            rows.append(
                (
                    f"sudokit solve 17_clue ({label})",
                    "49,158",
                    cpu,
                    wall,
                    rss,
                    f"exit {code_}, {ok and 'all solved' or 'WRONG'}",
                )
            )
        big = Path(tmp) / "big.txt"
        start = time.perf_counter()
        n = make_file(big, args.lines)
        print(
            f"made {n:,} puzzles in {time.perf_counter() - start:.1f} s ({big.stat().st_size / 2**20:.0f} MiB)",
            file=sys.stderr,
        )
        for name in [c for c in args.commands.split(",") if c]:
            for label, src in sources:
                cmd = [a.replace("{file}", str(big)) for a in COMMANDS[name]]
                cpu, wall, rss, code_ = run(cmd, src, out)
                note = f"exit {code_}"
                if name == "solve":
                    note += ", all solved" if solved_right(big, out) else ", WRONG"
                shown = " ".join(COMMANDS[name]).replace("{file}", "BIG").replace(" --no-progress", "")
                rows.append((f"sudokit {shown} ({label})", f"{n:,}", cpu, wall, rss, note))
    print(f"solve_many alone on the 17_clue array (warm, this process): {api:.2f} s CPU")
    print()
    print("| run | puzzles | CPU s | wall s | peak RSS MiB | result |")
    print("|---|---|---|---|---|---|")
    for label, count, cpu, wall, rss, note in rows:
        print(f"| {label} | {count} | {cpu:.2f} | {wall:.2f} | {rss:.0f} | {note} |")
    solve_cpu = next(r[2] for r in rows if r[0].startswith("sudokit solve 17_clue (this"))
    startup = next(r[2] for r in rows if r[0].startswith("start-up: sudokit solve top95 (this"))
    print(f"\nsudokit solve 17_clue / solve_many: {solve_cpu / api:.2f}x CPU in all, ", end="")
    print(f"{(solve_cpu - startup) / api:.2f}x leaving out the start-up (imports, loading the kernels)")
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")


if __name__ == "__main__":
    main()
