"""Worker processes bound every search in time; ``sudokit serve`` wires the app to uvicorn safely."""

from __future__ import annotations

import asyncio
import time

import pytest

from sudokit.web.worker import WorkerPool, WorkTimeout


def test_a_call_past_its_time_limit_is_stopped_and_the_pool_recovers():
    pool = WorkerPool(1, timeout=0.5)

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
    assert stopped_after < 5


def test_errors_inside_a_worker_reach_the_caller():
    pool = WorkerPool(1, timeout=30)
    try:
        with pytest.raises(ValueError):
            asyncio.run(pool.run(int, "not a number"))
    finally:
        pool.close()


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
    finally:
        registry.TECHNIQUES[:] = rows
    assert path.solved
    before_forcing = [t.name for t in rows[: [t.name for t in rows].index("Contradiction Forcing Chain") + 1]]
    assert set(before_forcing) <= tried
