"""Web fuzz and load run of ``sudokit serve``: malformed requests, mixed load from many clients, bursts of
over-limit calls; every answer checked.

    python benchmarks/web_load.py [--fuzz 2400] [--requests 10000] [--clients 200] [--bursts 3]
                                  [--burst-size 40] [--timeout 1] [--workers N] [--seed 1] [--quick]

Starts ``python -m sudokit serve`` on a free port of 127.0.0.1 in its own process (its log goes to a
temporary file) and runs three phases, each of a fixed number of requests:

- **fuzz**: ``--fuzz`` malformed requests, 20 at a time: bad JSON, wrong field types, huge numbers, lone
  surrogates, wrong content types, cross-site ``Origin`` / ``Sec-Fetch-Site``, a foreign ``Host``, bodies
  over 1 MB, variant names with other scripts' digits, CSV the csv module cannot read, unknown routes,
  wrong methods, path traversal. Each must get a 4xx with a JSON error (and no file contents).
- **load**: ``--requests`` mixed requests (solve, count, check, candidates, parse, geometry, hint,
  explain, rate, svg, generate, info) from ``--clients`` clients at once. Each answer is checked: solutions
  with ``is_solution``, counts against tdoku's known counts, hints and explanations against the known
  solution. A 503 (the documented refusal) is counted apart.
- **bursts**: during the load, ``--bursts`` times ``--burst-size`` calls that run past the server's
  ``--timeout`` (counting 100,000 solutions of an empty 25x25 board) are fired at once. Each must get a 503.

Then it checks that the server still answers a solve, and counts tracebacks in the server's log. It prints
a table (requests, 2xx, 4xx, 503, other 5xx, errors and resets, wrong answers, p50/p99 latency) and exits
1 when any failure column (other 5xx, errors, wrong, tracebacks) is not zero.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from sudokit.geometry import from_name
from sudokit.grid import Grid, is_solution

DATA = Path(__file__).resolve().parents[1] / "data"
JSON = {"content-type": "application/json"}
POST_ROUTES = [
    "geometry",
    "parse",
    "check",
    "candidates",
    "solve",
    "count",
    "hint",
    "explain",
    "rate",
    "svg",
    "generate",
]
#: A call that runs past any time limit of a second or two: count 100,000 solutions of an empty 25x25 board.
OVER_LIMIT = {"puzzle": "." * 625, "variant": "25x25", "limit": 100_000}


@dataclass
class Request:
    """One request and how to judge its answer: ``check`` returns what is wrong with it, or None."""

    kind: str
    method: str
    path: str
    headers: dict[str, str] = field(default_factory=dict)
    content: bytes | None = None
    check: Callable[[httpx.Response], str | None] | None = None


@dataclass
class Tally:
    """What came back in one phase."""

    requests: int = 0
    ok: int = 0
    client_errors: int = 0
    refused: int = 0  # 503
    server_errors: int = 0  # any other 5xx
    transport: int = 0  # resets, timeouts, protocol errors
    wrong: int = 0
    latencies: list[float] = field(default_factory=list)
    samples: list[str] = field(default_factory=list)
    reasons: Counter = field(default_factory=Counter)  # 503s by reason

    def note(self, message: str) -> None:
        if len(self.samples) < 8:
            self.samples.append(message)

    def row(self, name: str) -> str:
        ms = sorted(x * 1000 for x in self.latencies)
        pct = (lambda q: f"{ms[min(len(ms) - 1, int(q * len(ms)))]:.0f}") if ms else (lambda q: "-")
        cells = [name, self.requests, self.ok, self.client_errors, self.refused]
        cells += [self.server_errors, self.transport, self.wrong, pct(0.5), pct(0.99)]
        return "| " + " | ".join(str(c) for c in cells) + " |"


def body(data: object) -> bytes:
    return json.dumps(data).encode()


def expect_4xx(response: httpx.Response) -> str | None:
    """A refusal: 4xx, JSON with an error (API and unknown routes), no file contents."""
    if not 400 <= response.status_code < 500:
        return f"expected 4xx, got {response.status_code}: {response.text[:120]}"
    if "create_app" in response.text or "root:" in response.text:
        return "the answer shows a file"
    if response.headers.get("content-type", "").startswith("application/json"):
        error = response.json().get("error")
        if not isinstance(error, str) or not error:
            return "a refusal without an error message"
    return None


# ---- the fuzz cases ----------------------------------------------------------------------------------
def fuzz_requests(rng: random.Random, n: int, puzzles: list[str]) -> list[Request]:
    good = {
        "geometry": {"variant": "standard", "size": 9},
        "parse": {"text": puzzles[0], "name": "a.txt"},
        "count": {"puzzle": puzzles[0], "limit": 10},
        "generate": {"variant": "standard", "size": 4},
    }
    fields = {
        "geometry": ["variant", "size"],
        "parse": ["text", "name", "index", "variant"],
        "count": ["puzzle", "variant", "limit"],
        "hint": ["puzzle", "variant", "candidates"],
        "svg": ["puzzle", "variant", "candidates", "highlight"],
        "generate": ["variant", "size", "difficulty"],
    }
    text_fields = {"puzzle", "variant", "text", "name", "difficulty"}
    int_fields = {"size", "limit", "index"}
    wrong_text = [81, 1.5, True, [], {}, ["x"], -1]
    bad_text = {
        "puzzle": ["", "   ", "1" * 80, "x" * 81, "1" * 30_000, "12345678\u0660" + "." * 72],
        "variant": ["hexagonal", "99999x99999", "²x3", "٣x٣", "0x0", "jigsaw:zz", "3x3x3"],
        "text": ["", "   ", "no puzzle here"],
        "name": ["x" * 300],
        "difficulty": ["impossible", "é"],
    }
    wrong_int = {
        "size": ["9", 1.5, True, [], {}, -1, 0, 7, 36, 10**30, 2**63],
        "limit": ["5", 1.5, True, [], {}, -1, 0, 100_001, 10**30],
        "index": ["0", 1.5, True, [], -1, 5, 10**30],
    }
    wrong_masks = ["x", [1] * 80, [True] * 81, [-1] * 81, [1024] * 81, {}, 5]
    wrong_highlight = [[1, 2], {"cells": [81]}, {"cells": "A1"}, {"arrows": []}, {"placements": [[0, 10]]}, 5]

    def base(route: str) -> dict:
        return dict(good.get(route, {"puzzle": rng.choice(puzzles)}))

    def post(kind: str, route: str, content: bytes, headers: dict | None = None) -> Request:
        return Request(kind, "POST", f"/api/{route}", JSON if headers is None else headers, content, expect_4xx)

    def bad_json(route):
        p = rng.choice(puzzles).encode()
        raw = rng.choice(
            [
                b"{",
                b'{"puzzle": }',
                b"\xff\xfe\x00",
                b"[1, 2]",
                b'"a string"',
                b"nul",
                b"[" * 50_000,
                b'{"puzzle": "' + p + b'",}',
                b'{"puzzle": "' + p + b'"',
                b"\x00" + rng.randbytes(rng.randint(1, 300)),
                b"{'puzzle': '" + p + b"'}",
            ]
        )
        return post("bad JSON", route, raw)

    def wrong_type(route):
        data = base(route)
        name = rng.choice(fields.get(route, ["puzzle", "variant"]))
        if name in text_fields:
            data[name] = rng.choice(wrong_text + bad_text.get(name, []))
        elif name in int_fields:
            data[name] = rng.choice(wrong_int[name])
        elif name == "candidates":
            data[name] = rng.choice(wrong_masks)
        else:
            data[name] = rng.choice(wrong_highlight)
        return post("wrong field", route, body(data))

    def huge_number(route):
        number = rng.choice(["1" * rng.randint(4301, 20_000), "1e400", "-1e400", "NaN", "Infinity", str(2**64)])
        name = {"geometry": "size", "parse": "index", "generate": "size"}.get(
            route, "limit" if route == "count" else "puzzle"
        )
        data = base(route)
        data.pop(name, None)
        text = json.dumps(data)[:-1] + (", " if data else "") + f'"{name}": {number}}}'
        return post("huge number", route, text.encode())

    def surrogate(route):
        data = json.dumps(base(route))
        where = rng.choice(["value", "key", "deep"])
        if where == "value":
            text = data[:-1] + ', "variant": "std\\ud800"}'
        elif where == "key":
            text = data[:-1] + ', "\\udfff": 1}'
        else:
            text = data[:-1] + ', "highlight": {"cells": ["\\udc80"]}}'
        return post("surrogate", route, text.encode())

    def content_type(route):
        kind = rng.choice(
            [
                "text/plain",
                "application/x-www-form-urlencoded",
                "multipart/form-data; boundary=x",
                None,
                "application/jsonx",
                "text/json",
            ]
        )
        headers = {} if kind is None else {"content-type": kind}
        return post("content type", route, body(base(route)), headers)

    def cross_site(route):
        headers = dict(JSON)
        headers.update(
            rng.choice(
                [
                    {"origin": "http://evil.example"},
                    {"origin": "null"},
                    {"origin": "http://127.0.0.1.evil.example"},
                    {"sec-fetch-site": "cross-site"},
                    {"sec-fetch-site": "same-site"},
                    {"origin": "https://attacker.test", "sec-fetch-site": "cross-site"},
                ]
            )
        )
        return post("cross-site", route, body(base(route)), headers)

    def foreign_host(route):
        return post(
            "foreign Host", route, body(base(route)), {**JSON, "host": rng.choice(["evil.example", "rebind.test:8000"])}
        )

    def oversized(route):
        data = {**base(route), "pad": "x" * (1 << 20)}
        return post("oversized", route, body(data))

    def variant_digits(route):
        data = {
            **base(route),
            "text": rng.choice(puzzles),
            "variant": rng.choice(["²x3", "3x²", "٣x٣", "jigsaw:١٢", "¹⁶x¹⁶"]),
        }
        return post("variant digits", route, body(data))

    def csv_trouble(route):
        p = rng.choice(puzzles)
        text = rng.choice(
            [f"puzzle,solution\r{p},x\rb\n", "puzzle\n" + "1" * 200_000 + "\n", 'puzzle\n"' + "1" * 140_000 + '"\n']
        )
        return post("bad CSV", "parse", body({"text": text, "name": "upload.csv"}))

    def unknown_route(route):
        name = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz_-.") for _ in range(rng.randint(1, 20)))
        method = rng.choice(["GET", "POST"])
        return Request(
            "unknown route", method, f"/api/{name}x", JSON, body({}) if method == "POST" else None, expect_4xx
        )

    def wrong_method(route):
        method = rng.choice(["GET", "PUT", "DELETE", "PATCH"])
        return Request(
            "wrong method", method, f"/api/{route}", JSON, body(base(route)) if method != "GET" else None, expect_4xx
        )

    def traversal(route):
        path = rng.choice(
            [
                "/static/%2e%2e/app.py",
                "/static/..%2fapp.py",
                "/static/%2e%2e%2f%2e%2e%2ferrors.py",
                "/static/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc/passwd",
                "/static//etc/passwd",
                "/static/..%5capp.py",
                "/%2e%2e/%2e%2e/etc/passwd",
                "/static/%252e%252e/app.py",
            ]
        )
        return Request("path traversal", "GET", path, {}, None, expect_4xx)

    makers = [
        bad_json,
        wrong_type,
        wrong_type,
        huge_number,
        surrogate,
        content_type,
        cross_site,
        foreign_host,
        variant_digits,
        csv_trouble,
        unknown_route,
        wrong_method,
        traversal,
    ]
    out = []
    for i in range(n):
        route = rng.choice(POST_ROUTES)
        maker = oversized if i % 40 == 39 else makers[i % len(makers)]
        out.append(maker(route))
    return out


# ---- the load mix ----------------------------------------------------------------------------------
def load_requests(rng: random.Random, n: int) -> list[Request]:
    top = (DATA / "top1465.txt").read_text().split()
    counted = []
    for line in (DATA / "tdoku_test_puzzles.txt").read_text().splitlines():
        puzzle, count = line.split(":")[:2]
        if int(count) <= 1000:
            counted.append((puzzle, int(count)))
    easy = (DATA / "kaggle_sample.txt").read_text().split()[:2000]
    easy_solutions = (DATA / "kaggle_sample.solutions.txt").read_text().split()[:2000]
    standard = from_name("standard")

    def solved(puzzle: str):
        def check(r: httpx.Response) -> str | None:
            if r.status_code != 200:
                return None
            got = r.json()
            grid = Grid(standard, tuple(got.get("solution") or [0] * 81))
            if got.get("status") != "solved" or not is_solution(grid, _grid(puzzle)):
                return f"solve {puzzle}: {r.text[:120]}"
            return None

        return check

    def counted_right(expected: int):
        def check(r: httpx.Response) -> str | None:
            if r.status_code == 200 and r.json().get("count") != expected:
                return f"count: expected {expected}, got {r.text[:80]}"
            return None

        return check

    def hint_right(solution: str):
        def check(r: httpx.Response) -> str | None:
            if r.status_code != 200:
                return None
            step = r.json().get("step")
            if step is None:
                return f"no hint: {r.text[:80]}"
            if any(int(solution[c]) != d for c, d in step["placements"]) or any(
                int(solution[c]) == d for c, d in step["eliminations"]
            ):
                return f"unsound hint {step['explanation']}"
            return None

        return check

    def explained(solution: str):
        def check(r: httpx.Response) -> str | None:
            if r.status_code == 200:
                got = r.json()
                if got.get("solved") and "".join(map(str, got["final"])) != solution:
                    return "explanation ends in a wrong grid"
            return None

        return check

    def status_ok(r: httpx.Response) -> str | None:
        if r.status_code == 200 and not r.content:
            return "empty answer"
        return None

    def one() -> Request:
        roll = rng.random()
        if roll < 0.35:
            p = rng.choice(top)
            return Request("solve", "POST", "/api/solve", JSON, body({"puzzle": p}), solved(p))
        if roll < 0.50:
            p, count = rng.choice(counted)
            return Request(
                "count", "POST", "/api/count", JSON, body({"puzzle": p, "limit": 1000}), counted_right(count)
            )
        i = rng.randrange(len(easy))
        p, s = easy[i], easy_solutions[i]
        if roll < 0.60:
            return Request("hint", "POST", "/api/hint", JSON, body({"puzzle": p}), hint_right(s))
        if roll < 0.68:
            return Request("check", "POST", "/api/check", JSON, body({"puzzle": p}), status_ok)
        if roll < 0.74:
            return Request("candidates", "POST", "/api/candidates", JSON, body({"puzzle": p}), status_ok)
        if roll < 0.81:
            grid = "\n".join(" ".join(p[r * 9 : r * 9 + 9]) for r in range(9))
            return Request("parse", "POST", "/api/parse", JSON, body({"text": grid}), status_ok)
        if roll < 0.85:
            data = rng.choice([{"variant": "windoku"}, {"variant": "standard", "size": 16}, {"variant": "6x6"}])
            return Request("geometry", "POST", "/api/geometry", JSON, body(data), status_ok)
        if roll < 0.89:
            return Request("rate", "POST", "/api/rate", JSON, body({"puzzle": p}), status_ok)
        if roll < 0.92:
            return Request("explain", "POST", "/api/explain", JSON, body({"puzzle": p}), explained(s))
        if roll < 0.96:
            return Request("svg", "POST", "/api/svg", JSON, body({"puzzle": p}), status_ok)
        if roll < 0.965:
            data = {"variant": rng.choice(["4x4", "6x6", "standard"]), "size": 9, "difficulty": "any"}
            return Request("generate", "POST", "/api/generate", JSON, body(data), status_ok)
        return Request("info", "GET", "/api/info", {}, None, status_ok)

    return [one() for _ in range(n)]


def _grid(line: str) -> Grid:
    from sudokit.formats import parse_grid

    return parse_grid(line)


# ---- sending ---------------------------------------------------------------------------------------
async def send(client: httpx.AsyncClient, request: Request, tally: Tally, expect_503: bool = False) -> None:
    tally.requests += 1
    start = time.perf_counter()
    try:
        response = await client.request(request.method, request.path, headers=request.headers, content=request.content)
    except httpx.HTTPError as exc:
        tally.transport += 1
        tally.note(f"{request.kind} {request.path}: {type(exc).__name__}: {exc}")
        return
    tally.latencies.append(time.perf_counter() - start)
    status = response.status_code
    if 200 <= status < 300:
        tally.ok += 1
    elif 400 <= status < 500:
        tally.client_errors += 1
    elif status == 503:
        tally.refused += 1
        error = response.json().get("error") or ""
        tally.reasons[re.sub(r"[0-9.]+ s", "N s", error)] += 1
        if not error:
            tally.wrong += 1
            tally.note(f"{request.kind}: a 503 without a message")
    elif status >= 500:
        tally.server_errors += 1
        tally.note(f"{request.kind} {request.path}: {status} {response.text[:160]}")
        return
    if expect_503:
        if status != 503:
            tally.wrong += 1
            tally.note(f"over-limit call answered {status}: {response.text[:100]}")
        return
    problem = request.check(response) if request.check else None
    if problem is None and request.check is not expect_4xx and status not in (200, 503):
        problem = f"{request.kind}: unexpected {status} {response.text[:120]}"
    if problem is not None:
        tally.wrong += 1
        tally.note(problem)


async def run_phase(
    client: httpx.AsyncClient, requests: list[Request], clients: int, tally: Tally, progress=None
) -> None:
    """Send ``requests`` from ``clients`` concurrent senders (each takes the next request when done)."""
    queue = iter(requests)

    async def sender() -> None:
        for request in queue:
            await send(client, request, tally)
            if progress is not None:
                progress()

    await asyncio.gather(*(sender() for _ in range(clients)))


async def campaign(url: str, args: argparse.Namespace) -> tuple[dict[str, Tally], bool]:
    rng = random.Random(args.seed)
    top = (DATA / "top1465.txt").read_text().split()
    # idle connections are dropped after 2 s, before uvicorn's 5 s keep-alive closes them: a request sent on
    # a connection the server is closing at that moment would fail (a reset no server can prevent)
    limits = httpx.Limits(
        max_connections=args.clients + args.burst_size + 8, max_keepalive_connections=args.clients, keepalive_expiry=2.0
    )
    tallies = {"fuzz": Tally(), "load": Tally(), "bursts": Tally()}
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=120.0) as client:
        await run_phase(client, fuzz_requests(rng, args.fuzz, top[:200]), 20, tallies["fuzz"])
        for _ in range(ABORTED):
            await abort_body(url)

        load = load_requests(rng, args.requests)
        done = 0
        marks = [len(load) * (b + 1) // (args.bursts + 1) for b in range(args.bursts)]
        started = asyncio.Event()

        def progress() -> None:
            nonlocal done
            done += 1
            if marks and done >= marks[0]:
                marks.pop(0)
                started.set()

        async def bursts() -> None:
            for _ in range(args.bursts):
                await started.wait()
                started.clear()
                over = Request("over limit", "POST", "/api/count", JSON, body(OVER_LIMIT))
                await asyncio.gather(
                    *(send(client, over, tallies["bursts"], expect_503=True) for _ in range(args.burst_size))
                )

        await asyncio.gather(run_phase(client, load, args.clients, tallies["load"], progress), bursts())

        answered = False
        for _ in range(240):  # killed workers are replaced; a solve must be served again
            try:
                r = await client.post("/api/solve", json={"puzzle": top[0]})
            except httpx.HTTPError:
                r = None
            if r is not None and r.status_code == 200 and r.json().get("status") == "solved":
                answered = True
                break
            await asyncio.sleep(0.5)
    return tallies, answered


#: Requests whose client hangs up halfway through the body (each must leave one line in the server's log).
ABORTED = 20


async def abort_body(url: str) -> None:
    """Send the headers of a POST announcing 1,000 bytes, then 16 bytes of body, then close the connection."""
    host, port = url.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    head = f"POST /api/solve HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
    writer.write(head.encode() + b"Content-Length: 1000\r\n\r\n" + b'{"puzzle": "4...')
    await writer.drain()
    await asyncio.sleep(0.05)
    writer.close()
    await writer.wait_closed()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(url: str, server: subprocess.Popen, seconds: float = 300.0) -> None:
    """Wait until the server answers and its workers have warmed up (one solve goes through)."""
    deadline = time.monotonic() + seconds
    puzzle = (DATA / "top1465.txt").read_text().split()[0]
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited with status {server.returncode}")
        try:
            if httpx.post(url + "/api/solve", json={"puzzle": puzzle}, timeout=seconds).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"the server did not answer within {seconds:g} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fuzz", type=int, default=2400, help="malformed requests")
    parser.add_argument("--requests", type=int, default=10_000, help="requests of the mixed load")
    parser.add_argument("--clients", type=int, default=200, help="concurrent clients of the load")
    parser.add_argument("--bursts", type=int, default=3, help="bursts of over-limit calls during the load")
    parser.add_argument("--burst-size", type=int, default=40, help="over-limit calls per burst")
    parser.add_argument("--timeout", type=float, default=1.0, help="the server's --timeout (seconds)")
    parser.add_argument("--workers", type=int, default=None, help="server worker processes (default: its own)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--quick", action="store_true", help="a short run: 300 fuzz, 600 load from 50 clients, 1 burst of 8"
    )
    args = parser.parse_args()
    if args.quick:
        args.fuzz, args.requests, args.clients, args.burst_size = 300, 600, 50, 8
        args.bursts = min(args.bursts, 1)

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "sudokit", "serve", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--timeout", str(args.timeout)]
    if args.workers:
        command += ["--workers", str(args.workers)]
    log_path = Path(tempfile.gettempdir()) / f"sudokit-serve-{port}.log"
    with log_path.open("w") as log:
        server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=os.environ.copy())
        start = time.perf_counter()
        try:
            wait_ready(url, server)
            tallies, answered = asyncio.run(asyncio.wait_for(campaign(url, args), timeout=3600))
        finally:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
    wall = time.perf_counter() - start
    server_log = log_path.read_text()
    tracebacks = server_log.count("Traceback")
    aborted_lines = server_log.count("the client closed the connection")

    print("| phase | requests | 2xx | 4xx | 503 | other 5xx | errors/resets | wrong | p50 ms | p99 ms |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, tally in tallies.items():
        print(tally.row(name))
    print()
    print(f"server log: {len(server_log.splitlines())} lines, {tracebacks} tracebacks ({log_path})")
    print(f"aborted request bodies: {ABORTED} sent, {aborted_lines} one-line notes in the server's log")
    print(f"server answered a solve after the run: {'yes' if answered else 'NO'}")
    print(f"wall time {wall:.0f} s; {args.clients} clients; server --timeout {args.timeout:g}")
    for name, tally in tallies.items():
        for reason, count in tally.reasons.most_common(6):
            print(f"  {name}: {count} x 503 {reason}")
        for sample in tally.samples:
            print(f"  {name}: {sample}", file=sys.stderr)
    failures = sum(t.server_errors + t.transport + t.wrong for t in tallies.values()) + tracebacks
    fuzz = tallies["fuzz"]
    failures += fuzz.ok + fuzz.refused  # every malformed request must be refused with a 4xx
    return 0 if failures == 0 and answered and aborted_lines == ABORTED else 1


if __name__ == "__main__":
    sys.exit(main())
