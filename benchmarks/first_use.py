"""First use: what each command costs on a cold numba cache (right after an install) and on a warm one.

Every command runs in a subprocess. "cold" gets a fresh, empty ``NUMBA_CACHE_DIR`` of its own, so it compiles
what it needs from scratch; "warm" runs the same command again on that cache (best of ``--repeat``), after the
kernels a cold command ran as Python bodies were compiled in the background (a detached process: its CPU is not
in the cold figure; the wait is printed). CPU is the
subprocess's user + system time (``getrusage`` of the children), wall is what a user waits. The load average is
printed before and after: on a busy machine wall times stretch, CPU times much less.

    python benchmarks/first_use.py                   # the README's cold-cache table
    python benchmarks/first_use.py --groups          # each kernel group compiled alone, cold (sudokit.jit.GROUPS)
    python benchmarks/first_use.py --only rate       # commands whose label contains "rate"
    python benchmarks/first_use.py --kernels         # per logic kernel module: compiling it vs its Python bodies
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
#: A hard 9x9 puzzle for search (the first of norvig_top95: its explanation needs locked candidates and subsets),
#: a newspaper one, and one of the hardest for logic (Arto Inkala's: its explanation tries every technique and
#: ends with forcing chains).
HARD = (DATA / "norvig_top95.txt").read_text().split()[0]
EASY = (DATA / "norvig_easy50.txt").read_text().split()[0]
HARDEST = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
#: A top1465 puzzle (ER 7.5) whose path needs strong-link X-chains, Sudoku Explainer's static and Nishio forcing
#: chains, and tries aligned triple exclusion on the way.
CHAINS = "38....1...6..9......2....9.41....9....8.....29.......8.....3.57....86......1.4.2."
SUDOKIT = [sys.executable, "-m", "sudokit"]
API = "import sudokit; sudokit.solve('%s')"


def variant_link(name: str) -> str:
    """The f-puzzles link of the bundled variant corpus' puzzle ``name`` (data/variants/iss_fpuzzles.jsonl)."""
    sys.path.insert(0, str(ROOT / "src"))
    from sudokit.formats.fpuzzles import read_fpuzzles, to_link

    for line in (DATA / "variants" / "iss_fpuzzles.jsonl").read_text().splitlines():
        record = json.loads(line)
        if record["name"] == name:
            return to_link(read_fpuzzles(record["fpuzzles"]))
    raise SystemExit(f"first_use.py: no puzzle named {name!r} in the variant corpus")


def commands() -> list[tuple[str, list[str]]]:
    return [
        ("sudokit solve data/norvig_top95.txt", [*SUDOKIT, "solve", str(DATA / "norvig_top95.txt")]),
        ("sudokit solve PUZZLE", [*SUDOKIT, "solve", HARD]),
        ("sudokit solve --count 2 PUZZLE", [*SUDOKIT, "solve", "--count", "2", HARD]),
        ('python -c "import sudokit; sudokit.solve(P)"', [sys.executable, "-c", API % HARD]),
        ("sudokit hint PUZZLE (easy)", [*SUDOKIT, "hint", EASY]),
        ("sudokit hint PUZZLE (hard)", [*SUDOKIT, "hint", HARD]),
        ("sudokit hint PUZZLE (chains)", [*SUDOKIT, "hint", CHAINS]),
        ("sudokit hint PUZZLE (hardest)", [*SUDOKIT, "hint", HARDEST]),
        ("sudokit rate PUZZLE (easy)", [*SUDOKIT, "rate", EASY]),
        ("sudokit rate PUZZLE (hard)", [*SUDOKIT, "rate", HARD]),
        ("sudokit rate PUZZLE (chains)", [*SUDOKIT, "rate", CHAINS]),
        ("sudokit rate PUZZLE (hardest)", [*SUDOKIT, "rate", HARDEST]),
        ("sudokit explain PUZZLE (easy)", [*SUDOKIT, "explain", EASY]),
        ("sudokit explain PUZZLE (hard)", [*SUDOKIT, "explain", HARD]),
        ("sudokit explain PUZZLE (chains)", [*SUDOKIT, "explain", CHAINS]),
        ("sudokit explain PUZZLE (hardest)", [*SUDOKIT, "explain", HARDEST]),
        ("sudokit solve LINK (killer)", [*SUDOKIT, "solve", variant_link("Killer")]),
        ("sudokit solve LINK (thermo)", [*SUDOKIT, "solve", variant_link("Thermo")]),
        ("sudokit solve LINK (hard killer)", [*SUDOKIT, "solve", variant_link("Wecoc #1")]),
        ("sudokit warm-up (every kernel)", [*SUDOKIT, "warm-up"]),
    ]


def group_commands() -> list[tuple[str, list[str]]]:
    from sudokit import jit

    return [
        (f"group {g.name}", [sys.executable, "-c", f"from sudokit import jit; jit.quiet(); jit.warm({g.name!r})"])
        for g in jit.GROUPS
    ]


#: Run in a subprocess by ``--kernels``: explain one puzzle in ``jit.forms(MODE)`` on a cold cache and print, per
#: logic kernel module, the CPU seconds numba spent compiling it (its own kernels, callees compiled with them
#: excluded) and those its kernels' Python bodies took (``jit.forms("plain")``: every kernel's Python body).
KERNELS_CODE = """
import collections, json, sys, time
from numba.core import event
from sudokit import jit
from sudokit.logic import explain
spent, stack = collections.Counter(), []
class Listener(event.Listener):
    def on_start(self, ev):
        stack.append([ev.data["dispatcher"].py_func.__module__, time.process_time(), 0.0])
    def on_end(self, ev):
        module, start, inner = stack.pop()
        took = time.process_time() - start
        if stack:
            stack[-1][2] += took
        spent[module] += took - inner
event.register("numba:compile", Listener())
with jit.forms(sys.argv[1]):
    start = time.process_time()
    explain(sys.argv[2])
print(json.dumps({"total": time.process_time() - start, "compile": spent, "python": jit._python_spent}))
"""


def kernels(env: dict[str, str], puzzle: str) -> None:
    """Per logic kernel module: cold compile CPU (kernel forms) and Python-body CPU (plain forms), ``explain``."""
    import json

    runs = {}
    for mode in ("kernel", "plain"):
        cache = tempfile.mkdtemp(prefix="sudokit-first-use-")
        try:
            argv = [sys.executable, "-c", KERNELS_CODE, mode, puzzle]
            done = subprocess.run(argv, env={**env, "NUMBA_CACHE_DIR": cache}, cwd=ROOT, capture_output=True, text=True)
        finally:
            shutil.rmtree(cache, ignore_errors=True)
        runs[mode] = json.loads(done.stdout.splitlines()[-1])
    compiled, python = runs["kernel"]["compile"], runs["plain"]["python"]
    print(f"explain {puzzle}: kernels {runs['kernel']['total']:.1f} s, Python bodies {runs['plain']['total']:.1f} s")
    print("| module | compile CPU | Python bodies CPU |")
    print("|---|---:|---:|")
    for module in sorted(set(compiled) | set(python), key=lambda m: -max(compiled.get(m, 0), python.get(m, 0))):
        name = module.replace("sudokit.", "")
        print(f"| `{name}` | {compiled.get(module, 0.0):.2f} s | {python.get(module, 0.0):.2f} s |", flush=True)


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float, int, str]:
    """(wall seconds, CPU seconds, exit status, last stderr line) of one subprocess."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    notice = next((line for line in done.stderr.splitlines() if "compiling" in line), "")
    return wall, cpu, done.returncode, notice


def wait_for_background() -> float:
    """Wait (up to 10 minutes) while a cold command's background compile runs (``sudokit.jit.background_lock``),
    so that the warm runs load what it compiled; its CPU is not in the cold figure (a detached process)."""
    sys.path.insert(0, str(ROOT / "src"))
    from sudokit import jit

    lock = Path(jit.background_lock())
    start = time.perf_counter()
    time.sleep(0.2)
    while lock.exists() and time.perf_counter() - start < 600:
        time.sleep(0.5)
    return time.perf_counter() - start


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default=None, help="run only the commands whose label contains this")
    parser.add_argument("--repeat", type=int, default=3, help="warm runs per command (the best is kept)")
    parser.add_argument("--groups", action="store_true", help="time each kernel group's cold compile instead")
    parser.add_argument("--kernels", action="store_true", help="per logic kernel module: compile vs Python bodies")
    parser.add_argument("--puzzle", default=HARDEST, help="the puzzle --kernels explains (default: Inkala's)")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT / "src"), env.get("PYTHONPATH", "")) if p)
    if args.kernels:
        print(f"# {load()}")
        kernels(env, args.puzzle)
        print(f"# {load()}")
        return
    rows = group_commands() if args.groups else commands()
    if args.only:
        rows = [r for r in rows if args.only in r[0]]
    print(f"# {load()}")
    print("| command | cold CPU | cold wall | warm CPU | warm wall | notice on cold |")
    print("|---|---:|---:|---:|---:|---|")
    for label, argv in rows:
        cache = tempfile.mkdtemp(prefix="sudokit-first-use-")
        try:
            run_env = {**env, "NUMBA_CACHE_DIR": cache}
            wall, cpu, status, notice = timed(argv, run_env)
            waited = wait_for_background()
            if waited > 0.5:
                print(f"# {label}: the kernels it ran as Python bodies compiled in the background in {waited:.0f} s")
            warm = [timed(argv, run_env) for _ in range(args.repeat)]
            w_wall, w_cpu = min(w[0] for w in warm), min(w[1] for w in warm)
        finally:
            shutil.rmtree(cache, ignore_errors=True)
        flag = "" if status in (0, 1) else f" (exit {status})"
        said = notice.replace("sudokit: ", "") if notice else "-"
        print(f"| `{label}`{flag} | {cpu:.1f} s | {wall:.1f} s | {w_cpu:.2f} s | {w_wall:.2f} s | {said} |", flush=True)
    print(f"# {load()}")


if __name__ == "__main__":
    main()
