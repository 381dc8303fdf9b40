"""Worker processes bound every search in time; ``sudokit serve`` wires the app to uvicorn safely."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest

from sudokit.web.worker import WorkerBusy, WorkerLost, WorkerPool, WorkRefused, WorkTimeout


def test_a_call_past_its_time_limit_is_stopped_and_the_pool_recovers():
    pool = WorkerPool(1, timeout=0.5, queue_timeout=30)  # the next call waits for the replacement

    async def scenario():
        start = time.perf_counter()
        with pytest.raises(WorkTimeout, match="gave up after 0.5 s"):
            await pool.run(time.sleep, 30)
        stopped_after = time.perf_counter() - start
        assert await pool.run(abs, -7, timeout=30) == 7  # a fresh worker takes the next call
        return stopped_after

    try:
        stopped_after = asyncio.run(scenario())
    finally:
        pool.close()
    assert stopped_after < 25  # cut short, not left to sleep its 30 s (a generous bound: a busy machine is slow)


def test_errors_inside_a_worker_reach_the_caller_with_the_workers_traceback():
    pool = WorkerPool(1, timeout=30)
    try:
        with pytest.raises(ValueError) as caught:
            asyncio.run(pool.run(int, "not a number"))
    finally:
        pool.close()
    assert "in the worker process" in "\n".join(caught.value.__notes__)


def run_on(pool: WorkerPool, scenario):
    """Run ``scenario(pool)`` on one event loop, then stop the pool's workers."""
    try:
        return asyncio.run(scenario(pool))
    finally:
        pool.close()


def test_an_overrun_kills_only_its_own_worker():
    # the old pool killed every worker when one call overran, so the call beside it failed too
    async def scenario(pool):
        await pool.run(abs, 1)  # both workers started
        over = pool.run(time.sleep, 30, timeout=0.5)
        beside = pool.run(time.sleep, 2, timeout=30)
        results = await asyncio.gather(over, beside, return_exceptions=True)
        return results, await pool.run(abs, -7)

    (over, beside), after = run_on(WorkerPool(2, timeout=30), scenario)
    assert isinstance(over, WorkTimeout)
    assert beside is None  # time.sleep's answer: the call finished in its own worker
    assert after == 7  # the killed worker was replaced


def test_time_waiting_for_a_worker_does_not_count_against_the_limit():
    # one worker, two calls of 2 s each with a 3.8 s limit: the second waits 2 s first, then runs 2 s. Counting
    # the wait would stop it at 3.8 s < 4 s; each call's own run leaves 1.8 s to spare for a busy machine.
    async def scenario(pool):
        return await asyncio.gather(pool.run(time.sleep, 2.0), pool.run(time.sleep, 2.0), return_exceptions=True)

    assert run_on(WorkerPool(1, timeout=3.8), scenario) == [None, None]


def test_a_call_that_finds_no_free_worker_is_refused_as_busy():
    async def scenario(pool):
        await pool.run(abs, 1)
        return await asyncio.gather(pool.run(time.sleep, 3), pool.run(abs, -2), return_exceptions=True)

    slow, refused = run_on(WorkerPool(1, timeout=30, queue_timeout=0.3), scenario)
    assert slow is None
    assert isinstance(refused, WorkerBusy) and "no worker came free within 0.3 s" in str(refused)

    async def crowd(pool):
        await pool.run(abs, 1)
        calls = [pool.run(time.sleep, 2), pool.run(abs, -2), pool.run(abs, -3)]
        return await asyncio.gather(*calls, return_exceptions=True)

    slow, waited, refused = run_on(WorkerPool(1, timeout=30, max_waiting=1), crowd)
    assert slow is None and waited == 2
    assert isinstance(refused, WorkerBusy) and "queue of calls waiting for a worker is full" in str(refused)


def test_a_cancelled_call_frees_its_worker_for_the_next():
    # a request that goes away mid-call: its worker is replaced rather than left busy for 30 s
    async def scenario(pool):
        await pool.run(abs, 1)
        task = asyncio.create_task(pool.run(time.sleep, 30))
        await asyncio.sleep(0.5)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return await pool.run(abs, -7, timeout=10)

    assert run_on(WorkerPool(1, timeout=60), scenario) == 7


def test_a_worker_that_dies_is_replaced():
    async def scenario(pool):
        with pytest.raises(WorkerLost):
            await pool.run(os._exit, 3)
        return await pool.run(abs, -7)

    assert run_on(WorkerPool(1, timeout=30), scenario) == 7


def test_the_workers_carry_over_to_a_new_event_loop():
    # successive asyncio.run calls (or a TestClient without "with") use one pool from several loops
    pool = WorkerPool(1, timeout=0.5, queue_timeout=30)
    try:
        with pytest.raises(WorkTimeout):
            asyncio.run(pool.run(time.sleep, 30))
        assert asyncio.run(pool.run(abs, -7, timeout=30)) == 7  # the replacement reaches the new loop
        assert asyncio.run(pool.run(abs, -8, timeout=30)) == 8
    finally:
        pool.close()


def test_ctrl_c_in_the_terminal_does_not_cut_a_workers_call_short():
    # Ctrl-C reaches the workers too (same process group); the server stops them itself
    async def scenario(pool):
        pid = await pool.run(os.getpid)
        call = asyncio.create_task(pool.run(time.sleep, 1.5))
        await asyncio.sleep(0.5)
        os.kill(pid, signal.SIGINT)
        return await call  # before: KeyboardInterrupt killed the worker (a traceback, WorkerLost)

    assert run_on(WorkerPool(1, timeout=30), scenario) is None


def test_a_closed_pool_refuses_calls():
    pool = WorkerPool(1, timeout=30)
    pool.close()
    with pytest.raises(WorkRefused):
        asyncio.run(pool.run(abs, 1))


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("localhost", True), ("::1", True), ("0.0.0.0", False), ("192.168.1.4", False)],
)
def test_serve_recognises_loopback_addresses(host, loopback):
    from sudokit.cli.commands.serve import is_loopback

    assert is_loopback(host) is loopback


def test_serve_help_lists_its_options(run_cli):
    result = run_cli("serve", "--help")
    assert result.exit_code == 0
    for option in ("--host", "--port", "--timeout", "--workers"):
        assert option in result.output
    assert "127.0.0.1" in result.output


def test_serve_refuses_a_bad_port(run_cli):
    result = run_cli("serve", "--port", "70000")
    assert result.exit_code == 2


def test_the_warm_up_puzzle_tries_every_row_of_the_technique_table():
    # so a worker's warm-up loads (or compiles) every logic kernel before its first call
    from sudokit.logic import explain, registry
    from sudokit.web import tasks

    tried: set[str] = set()
    rows = list(registry.TECHNIQUES)

    def spy(tech):
        def find(state):
            tried.add(tech.name)
            return tech.find(state)

        return registry.Technique(tech.name, find, tech.se, tech.score, tech.level, tech.needs_boxes, tech.uniqueness)

    registry.TECHNIQUES[:] = [spy(t) for t in rows]
    try:
        path = explain(tasks._WARM_UP_LOGIC)
        # warm_up also rates it in HoDoKu's set, whose rows SE's chains come before in the full table
        hodoku = registry.technique_set("hodoku")
        spied = registry.TechniqueSet(hodoku.spec, tuple(spy(t) for t in hodoku.rows))
        assert explain(tasks._WARM_UP_LOGIC, techniques=spied).solved
    finally:
        registry.TECHNIQUES[:] = rows
    assert path.solved
    # 3D Medusa is in neither set warm-up rates with (HoDoKu has none; the full table's SE chains come first) and
    # has no kernel to compile; nor are the opt-in fish rows outside HoDoKu's set (plain Python, no kernel either)
    before_forcing = [t.name for t in rows[: [t.name for t in rows].index("Contradiction Forcing Chain") + 1]]
    before_forcing.remove("3D Medusa")
    hodoku_names = set(registry.technique_set("hodoku").names)
    before_forcing = [n for n in before_forcing if n not in registry.OPT_IN or n in hodoku_names]
    assert set(before_forcing) <= tried


def test_a_burst_of_over_limit_calls_gets_only_200_or_503_and_the_server_still_answers():
    # before: killing the whole pool under concurrent overruns gave 500s (AttributeError, cancelled futures)
    import httpx

    from sudokit.web import create_app

    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    over = {"puzzle": "." * 625, "variant": "25x25", "limit": 100_000}  # counting takes seconds
    app = create_app(workers=2, timeout=0.5, generate_timeout=5)

    async def scenario():
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1", timeout=300) as client:
                # 4 overruns on 2 workers (each kill starts a replacement process: ~1.5 s of CPU apiece)
                calls = [client.post("/api/count", json=over) for _ in range(4)]
                calls += [client.post("/api/solve", json={"puzzle": puzzle}) for _ in range(4)]
                burst = await asyncio.gather(*calls)
                for _ in range(240):  # the killed workers are replaced; a solve is served again
                    after = await client.post("/api/solve", json={"puzzle": puzzle})
                    if after.status_code != 503:
                        break
                    await asyncio.sleep(0.5)
                return burst, after

    burst, after = asyncio.run(scenario())
    assert {r.status_code for r in burst} <= {200, 503}, [r.text for r in burst]
    assert all(r.json()["error"] for r in burst if r.status_code == 503)
    assert all(r.headers["retry-after"] for r in burst if r.status_code == 503)
    assert all(r.status_code == 503 for r in burst[:4])  # no count of 100,000 25x25 grids fits in 0.5 s
    assert after.status_code == 200 and after.json()["status"] == "solved"
