"""Where the test suite's CPU goes: sums the per-test lines that ``SUDOKIT_TEST_CPU=FILE`` makes pytest write
(see ``tests/conftest.py``) per test file, and lists the costliest tests.

    SUDOKIT_TEST_CPU=/tmp/cpu.tsv python -m pytest -q     # one line per test (appended: start from no file)
    python benchmarks/suite_cpu.py /tmp/cpu.tsv --top 20

CPU is user + system seconds of the pytest process and of the child processes it waited for during the test
(subprocesses, worker pools; a module's cluster or browser is counted at the test that closes its fixture).
Collection and the session's start-up are not in any test: ``/usr/bin/time -v python -m pytest -q`` gives the
whole. Wall seconds stretch with the machine's load; CPU much less.
"""

from __future__ import annotations

import argparse
from collections import defaultdict


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", help="the file SUDOKIT_TEST_CPU named")
    parser.add_argument("--top", type=int, default=20, help="how many files and tests to list (default 20)")
    args = parser.parse_args()

    rows = []
    with open(args.file) as lines:
        for line in lines:
            node, own, children, wall = line.rstrip("\n").split("\t")
            rows.append((node, float(own) + float(children), float(children), float(wall)))
    files: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0])
    for node, cpu, children, wall in rows:
        total = files[node.split("::")[0]]
        total[0] += cpu
        total[1] += children
        total[2] += wall
        total[3] += 1
    cpu_all = sum(row[1] for row in rows)
    print(
        f"{len(rows)} tests: {cpu_all:.0f} s CPU ({sum(r[2] for r in rows):.0f} s of it in child processes), "
        f"{sum(r[3] for r in rows):.0f} s wall"
    )
    print(f"\n{'CPU s':>7} {'share':>6} {'children':>8} {'wall s':>7} {'tests':>5}  file")
    for name, (cpu, children, wall, count) in sorted(files.items(), key=lambda kv: -kv[1][0])[: args.top]:
        print(f"{cpu:7.1f} {100 * cpu / cpu_all:5.1f}% {children:8.1f} {wall:7.1f} {count:5d}  {name}")
    print(f"\n{'CPU s':>7} {'wall s':>7}  test")
    for node, cpu, _, wall in sorted(rows, key=lambda r: -r[1])[: args.top]:
        print(f"{cpu:7.1f} {wall:7.1f}  {node}")


if __name__ == "__main__":
    main()
