"""Load check of ``sudokit serve``: many concurrent solve requests on loopback, every answer verified.

    python benchmarks/web_load.py [--requests 200] [--concurrency 200] [--workers N] [--set top1465.txt]

Starts ``python -m sudokit serve`` on a free port in its own process (so the client does not share the
server's interpreter), waits until it answers, sends one warm-up request, then fires ``--requests``
POST /api/solve requests with ``--concurrency`` of them in flight at once. Each answer must be status
``solved`` with a grid that solves its puzzle (checked with :func:`sudokit.grid.is_solution`); the script
prints requests/second and the latency percentiles, and exits 1 if any answer is missing or wrong.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

from sudokit.formats import parse_grid
from sudokit.grid import Grid, is_solution

DATA = Path(__file__).resolve().parents[1] / "data"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(url: str, server: subprocess.Popen, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited with status {server.returncode}")
        try:
            if httpx.get(url + "/api/info", timeout=1.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"the server did not answer within {seconds:g} s")


async def fire(url: str, puzzles: list[str], concurrency: int) -> tuple[float, list[float], int]:
    """Send every puzzle; return (wall seconds, latencies, wrong or failed answers)."""
    gate = asyncio.Semaphore(concurrency)
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    latencies: list[float] = []
    failures = 0

    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=60.0) as client:

        async def one(line: str) -> None:
            nonlocal failures
            async with gate:
                start = time.perf_counter()
                try:
                    response = await client.post("/api/solve", json={"puzzle": line})
                except httpx.HTTPError as exc:
                    print(f"request failed: {exc!r}", file=sys.stderr)
                    failures += 1
                    return
                latencies.append(time.perf_counter() - start)
            puzzle = parse_grid(line)
            body = response.json() if response.status_code == 200 else {}
            solution = body.get("solution")
            if body.get("status") != "solved" or not is_solution(Grid(puzzle.geometry, tuple(solution)), puzzle):
                print(f"wrong answer for {line}: {response.status_code} {response.text[:200]}", file=sys.stderr)
                failures += 1

        await client.post("/api/solve", json={"puzzle": puzzles[0]})  # warm-up: workers and numba cache
        start = time.perf_counter()
        await asyncio.gather(*(one(p) for p in puzzles))
        wall = time.perf_counter() - start
    return wall, latencies, failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=200)
    parser.add_argument("--workers", type=int, default=None, help="server worker processes (default: its own)")
    parser.add_argument("--set", default="top1465.txt", help="puzzle file under data/ (one per line)")
    args = parser.parse_args()

    lines = (DATA / args.set).read_text().split()
    puzzles = [lines[i % len(lines)] for i in range(args.requests)]
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "sudokit", "serve", "--port", str(port)]
    if args.workers:
        command += ["--workers", str(args.workers)]
    server = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    try:
        wait_ready(url, server)
        wall, latencies, failures = asyncio.run(fire(url, puzzles, args.concurrency))
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()

    ok = len(puzzles) - failures
    ms = sorted(x * 1000 for x in latencies)
    pct = lambda q: ms[min(len(ms) - 1, int(q * len(ms)))] if ms else float("nan")  # noqa: E731
    print(f"set             {args.set} ({args.requests} requests, {args.concurrency} in flight)")
    print(f"answered right  {ok}/{len(puzzles)}")
    print(f"wall time       {wall:.3f} s")
    print(f"requests/s      {len(puzzles) / wall:.0f}")
    print(
        f"latency ms      p50 {statistics.median(ms):.1f}  p95 {pct(0.95):.1f}  max {ms[-1]:.1f}"
        if ms
        else "no answers"
    )
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
