"""The Dask runner (``--cluster``): order, the window, retries, a worker dying mid-job, the time guard, bad
addresses. One ``LocalCluster`` of 2 single-threaded worker processes serves the whole module.

The tasks below are top-level functions of this module: they go to the workers by reference (the workers find
this module through the test session's ``sys.path``), the way a command's task goes by its module name.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sudokit.errors import SudokitError
from sudokit.jobs import cluster
from sudokit.jobs.address import parse_address
from sudokit.jobs.batch import Failed
from sudokit.jobs.cluster import ClusterRunner, ClusterStats


@pytest.fixture(scope="module")
def runner():
    import dask

    # a chunk that kills every worker it runs on is given up after 2 deaths (Dask's default: 4), to keep it quick
    with dask.config.set({"distributed.scheduler.allowed-failures": 1}), ClusterRunner("local:2") as runner:
        yield runner


# ---- tasks run on the workers --------------------------------------------------------------------------------


def sleep_then_echo(chunk: tuple[int, float]) -> int:
    """Answer the chunk's number after sleeping its seconds (uneven durations)."""
    number, seconds = chunk
    time.sleep(seconds)
    return number


def _first_time(folder: str, name: str) -> bool:
    """True the first time any worker asks for ``name`` in ``folder`` (a marker file made atomically)."""
    try:
        os.close(os.open(os.path.join(folder, name), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


def fail_once(chunk: tuple[str, int]) -> int:
    """Raise on the first attempt at each chunk, answer on the next."""
    folder, number = chunk
    if _first_time(folder, f"failed-{number}"):
        raise RuntimeError(f"chunk {number}: first attempt fails")
    return number * number


def always_fail(chunk: tuple[str, int]) -> int:
    """Raise every time, leaving one file per attempt."""
    folder, number = chunk
    attempt = 0
    while not _first_time(folder, f"attempt-{number}-{attempt}"):
        attempt += 1
    raise ValueError(f"chunk {number} cannot be done")


def die_once(chunk: tuple[str, int]) -> int:
    """Kill the worker process running chunk 3 the first time it is tried (no answer, no exception)."""
    folder, number = chunk
    if number == 3 and _first_time(folder, "died"):
        os._exit(1)
    time.sleep(0.05)
    return -number


def solve_lines(chunk: list[str]) -> list[str]:
    """A real chunk: solve puzzle lines with the engine on the worker, answer the solutions' lines."""
    from sudokit import parse
    from sudokit.engine.api import solve

    return ["".join(map(str, solve(parse(line)).solution.values)) for line in chunk]


def always_die(chunk: int) -> int:
    os._exit(1)


def warmed(_: object) -> list[str]:
    return sorted(cluster._warmed)


WARM_CALLS = 0


def count_warm_calls() -> None:
    """A command's warm-up function: counts its calls in the worker process."""
    global WARM_CALLS
    WARM_CALLS += 1


def warm_calls(_: object = None) -> int:
    return WARM_CALLS


def numba_threads(_: object) -> int:
    import numba

    return numba.get_num_threads()


def profiling(_: object = None) -> bool:
    """Whether Dask's statistical profiler runs in this worker."""
    import dask

    return bool(dask.config.get("distributed.worker.profile.enabled"))


# ---- addresses -----------------------------------------------------------------------------------------------


def test_addresses_are_checked():
    assert parse_address("local:2") == ("local", 2)
    assert parse_address("tcp://127.0.0.1:8786") == ("tcp", 8786)
    assert parse_address("tcp://scheduler.example.org:8786") == ("tcp", 8786)
    assert parse_address("tcp://[::1]:8786") == ("tcp", 8786)
    for bad in ("", "local:", "local:0", "local:x", "127.0.0.1:8786", "tcp://host", "tcp://host:99999", "http://h:1"):
        with pytest.raises(SudokitError, match="--cluster"):
            parse_address(bad)


def test_a_mistyped_address_is_refused_before_dask_is_imported():
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from sudokit.cli import main\n"
        "done = CliRunner().invoke(main, ['convert', '...3..4114..3...', '--to', 'ss', '--cluster', '-'])\n"
        "print(done.exit_code, 'distributed' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["2", "False"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_no_scheduler_at_the_address_is_one_line():
    address = f"tcp://127.0.0.1:{_free_port()}"
    with pytest.raises(SudokitError) as caught:
        ClusterRunner(address, connect_seconds=1)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"--cluster {address}: no Dask scheduler answered within 1 s")


def test_bad_address_is_refused_before_any_connection():
    with pytest.raises(SudokitError, match="expected tcp://HOST:PORT"):
        ClusterRunner("8786")


def test_a_worker_with_another_sudokit_version_is_refused():
    with pytest.raises(SudokitError, match="the job was started with 0.0.0"):
        cluster.warm_worker((), "0.0.0")


def _both_workers_back(runner) -> None:
    """Wait until the nanny of a worker that died has started it again (a busy machine takes a while)."""
    try:
        runner.client.wait_for_workers(2, timeout=120)
    except Exception as exc:
        info = runner.client.scheduler_info()["workers"]
        states = [(address, worker["status"]) for address, worker in info.items()]
        raise AssertionError(f"workers: {states}; nannies: {runner.cluster.workers}") from exc


def test_overhead_is_the_gap_between_chunks_on_a_worker():
    stats = ClusterStats()
    stats.add("a", 0.0, 1.0)
    stats.add("b", 0.0, 2.0)
    stats.add("a", 1.5, 2.0)  # 0.5 s after a's first chunk
    stats.add("a", 2.1, 3.0)  # 0.1 s after
    assert stats.chunks == 4
    assert stats.compute == pytest.approx(4.4)
    assert stats.overhead() == pytest.approx(0.3)


# ---- the runner on a LocalCluster ----------------------------------------------------------------------------


def test_workers_are_warm_and_counted(runner):
    assert runner.workers == 2
    assert list(runner.map(warmed, [None, None, None])) == [["solver"]] * 3
    assert list(runner.map(numba_threads, [None, None])) == [1, 1]  # the worker processes are the parallelism


def test_a_commands_warm_up_runs_once_on_each_worker(runner):
    runner.warm(count_warm_calls)
    runner.warm(count_warm_calls)
    assert set(runner.client.run(warm_calls).values()) == {1}
    assert list(runner.map(warmed, [None]))[0] == ["solver", f"{__name__}.count_warm_calls"]


def test_workers_with_another_sudokit_are_one_error_line(runner, monkeypatch):
    import sudokit

    monkeypatch.setattr(sudokit, "__version__", "9.9.9")
    with pytest.raises(SudokitError) as caught:
        runner.warm()
    assert str(caught.value).startswith("--cluster local:2: the workers cannot run sudokit (this worker has sudokit")
    assert "\n" not in str(caught.value)
    monkeypatch.undo()
    runner.warm()  # the right version again: the plugin is accepted


def test_answers_come_in_input_order_whatever_the_durations(runner):
    seconds = [0.3, 0.0, 0.2, 0.0, 0.0, 0.25, 0.0, 0.1] * 3  # later chunks often finish first
    assert list(runner.map(sleep_then_echo, list(enumerate(seconds)), window=4)) == list(range(len(seconds)))


def test_at_most_window_chunks_are_in_flight(runner):
    pulled = 0

    def chunks():
        nonlocal pulled
        for number in range(20):
            pulled += 1
            yield number, 0.02

    for answered, number in enumerate(runner.map(sleep_then_echo, chunks(), window=3), start=1):
        assert number == answered - 1
        assert pulled - answered <= 3 - 1  # the answered chunk left the window before it was yielded
    assert pulled == 20


def test_a_real_chunk_of_puzzles(runner, data_dir: Path):
    lines = data_dir.joinpath("norvig_top95.txt").read_text().split()[:12]
    chunks = [lines[i : i + 4] for i in range(0, 12, 4)]
    answers = [line for answer in runner.map(solve_lines, chunks) for line in answer]
    assert answers == solve_lines(lines)
    for puzzle, solution in zip(lines, answers):
        assert all(a in ".0" or a == b for a, b in zip(puzzle, solution))


def test_a_failed_task_is_retried(runner, tmp_path: Path):
    chunks = [(str(tmp_path), number) for number in range(6)]
    assert list(runner.map(fail_once, chunks)) == [n * n for n in range(6)]
    assert len(list(tmp_path.glob("failed-*"))) == 6


def test_a_task_that_keeps_failing_stops_the_job_after_its_retries(runner, tmp_path: Path):
    with pytest.raises(ValueError, match="chunk 0 cannot be done"):
        list(runner.map(always_fail, [(str(tmp_path), 0)]))
    assert len(list(tmp_path.glob("attempt-0-*"))) == 1 + runner.retries


def test_a_worker_dying_mid_job_loses_no_chunk(runner, tmp_path: Path):
    chunks = [(str(tmp_path), number) for number in range(10)]
    assert list(runner.map(die_once, chunks, window=4)) == [-n for n in range(10)]
    assert (tmp_path / "died").exists()  # the worker did die
    _both_workers_back(runner)  # its nanny starts it again


def test_the_overhead_is_measured(runner):
    runner.stats = ClusterStats()
    list(runner.map(sleep_then_echo, [(n, 0.05) for n in range(8)]))
    assert runner.stats.chunks == 8
    assert runner.stats.compute >= 8 * 0.05
    assert runner.stats.gapped >= 6  # 8 chunks on 2 workers: at least 6 followed another on their worker
    assert "8 chunks on 2 workers" in runner.stats.describe(runner.workers)


def test_the_time_guard_answers_a_stuck_chunk_as_failed_and_the_job_goes_on(runner):
    runner.chunk_seconds = 10.0  # ample for the quick chunks even on a busy machine, not for the stuck one
    try:
        answers = list(runner.map(sleep_then_echo, [(0, 0.0), (1, 600.0), (2, 0.0)]))
    finally:
        runner.chunk_seconds = cluster.CHUNK_SECONDS
    assert answers[0] == 0 and answers[2] == 2
    assert isinstance(answers[1], Failed)
    assert answers[1].why.startswith("the chunk ran longer than the cluster's time guard (10 s) on worker tcp://")
    assert answers[1].why.endswith("which was restarted")  # the worker stuck in it was freed
    _both_workers_back(runner)
    assert list(runner.map(sleep_then_echo, [(7, 0.0)])) == [7]


def test_a_chunk_that_kills_every_worker_is_answered_as_failed(runner):
    answers = list(runner.map(always_die, [1]))
    assert answers == [Failed("every Dask worker that ran the chunk died")]
    _both_workers_back(runner)


def test_the_local_workers_do_not_run_dasks_profiler(runner):
    # its 10 ms sampling took the GIL from the chunks (py-spy: 7% of a local:2 worker in its event loop); the
    # workers the nannies started again after the tests above killed theirs have the same settings
    assert set(runner.client.run(profiling).values()) == {False}
    import dask

    assert dask.config.get("distributed.worker.profile.enabled")  # this process's settings are left alone


def malloc_trim(_: object = None) -> str | None:
    return os.environ.get("MALLOC_TRIM_THRESHOLD_")


def test_a_local_cluster_waits_for_a_slow_worker_to_come_back(runner):
    # Dask's LocalCluster closed the nanny of a worker not back within 15 s (lost-worker-timeout, read in this
    # process when the worker is lost): in CI at load 7 a worker killed by a chunk took longer to restart (numba,
    # the kernels) and the cluster went on with one worker fewer
    import dask
    from dask.utils import parse_timedelta

    assert parse_timedelta(dask.config.get("distributed.deploy.lost-worker-timeout")) >= cluster.LOST_WORKER_SECONDS


def test_the_local_workers_keep_glibcs_own_memory_thresholds(runner):
    # Dask's MALLOC_TRIM_THRESHOLD_=65536 made every big array an mmap/munmap pair (5x the system time)
    assert set(runner.client.run(malloc_trim).values()) == {None}


def test_a_commands_warm_up_replaces_the_engines_on_a_cluster():
    # as in a local pool, the workers load what the command needs (rate: its own kernels, not the whole engine)
    from sudokit.jobs.runner import open_runner

    with open_runner(cluster="local:1", warm=count_warm_calls, report=False) as runner:
        assert list(runner.map(warmed, [None])) == [[f"{__name__}.count_warm_calls"]]


def test_ending_the_local_workers_starts_no_new_ones():
    import psutil

    runner = ClusterRunner("local:1", warm=())
    try:
        nannies = list(runner.cluster.workers.values())
        pids = [nanny.pid for nanny in nannies]
        cluster._end_workers(runner.cluster)
        time.sleep(1.0)  # a nanny that restarted its worker would have a live process by now
        assert all(pid and not psutil.pid_exists(pid) or psutil.Process(pid).status() == "zombie" for pid in pids)
        assert [nanny.pid for nanny in nannies] == [None]
    finally:
        runner.close()


def test_closing_stops_the_local_workers_and_is_idempotent():
    runner = ClusterRunner("local:1", warm=())
    workers = runner.cluster.workers
    assert list(runner.map(sleep_then_echo, [(1, 0.0)])) == [1]
    runner.close()
    runner.close()
    assert runner.client is None
    assert not workers  # the LocalCluster's worker processes are gone
    with pytest.raises(SudokitError, match="closed"):
        list(runner.map(sleep_then_echo, [(1, 0.0)]))


# ---- the commands end to end ---------------------------------------------------------------------------------
# Every batch command on the module's cluster (by its tcp:// address, as a user's scheduler) writes the bytes
# its one-process run writes; solve also starts its own LocalCluster (local:2) in a real ``sudokit`` process.
# (and SRC: the sudokit this session imports, whose kernels warm-up compiled)
from test_jobs import BAD, COMMANDS, SRC  # noqa: E402 - the batch commands and the unreadable line test_jobs uses


@pytest.fixture(scope="module")
def puzzles(tmp_path_factory) -> Path:
    """Ten hard puzzles with an unreadable line in the middle (line 5)."""
    lines = (Path(__file__).resolve().parents[1] / "data" / "top1465.txt").read_text().splitlines()[:10]
    path = tmp_path_factory.mktemp("cluster") / "puzzles.txt"
    path.write_text("\n".join([*lines[:4], BAD, *lines[4:]]) + "\n")
    return path


def _errors(stderr: str) -> list[str]:
    """The error lines (the bad line's report); summaries hold timings that differ from run to run."""
    return [line for line in stderr.splitlines() if line.startswith("sudokit: error")]


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_batch_command_writes_the_same_bytes_on_the_cluster(name, puzzles, runner, run_cli):
    args = [a.format(file=puzzles) for a in COMMANDS[name]]
    one = run_cli(*args, "--jobs", "1")
    on_cluster = run_cli(*args, "--cluster", runner.cluster.scheduler_address)
    assert on_cluster.stdout_bytes == one.stdout_bytes
    assert on_cluster.exit_code == one.exit_code
    assert _errors(on_cluster.stderr) == _errors(one.stderr)  # the bad line reported the same way
    assert on_cluster.stderr.count("sudokit: cluster tcp://") == 1  # the overhead line
    assert one.stdout_bytes


def _sudokit(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "sudokit", *args], capture_output=True, env=env, timeout=600)


@pytest.mark.parametrize(
    "args",
    [["solve", "{file}"], ["rate", "{file}"], ["generate", "-n", "6", "--seed", "3"]],
    ids=["solve", "rate", "generate"],
)
def test_a_local_cluster_of_two_writes_the_same_bytes_as_one_process(args, puzzles, run_cli):
    few = puzzles.with_name("few.txt")  # two of rate's chunks; solve takes a file as one chunk
    few.write_text("".join(puzzles.read_text().splitlines(keepends=True)[:7]))
    args = [a.format(file=few) for a in args]
    one = run_cli(*args, "--jobs", "1")  # the reference in this process; the cluster's run is a real ``sudokit``
    local = _sudokit(*args, "--cluster", "local:2")
    assert local.stdout == one.stdout_bytes and one.stdout_bytes
    assert local.returncode == one.exit_code
    assert "sudokit: cluster local:2: " in local.stderr.decode()


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:{port}", "8786", "local:0", "local:two"])
def test_a_bad_cluster_address_is_one_error_line(address, puzzles, run_cli):
    address = address.format(port=_free_port())
    done = run_cli("rate", str(puzzles), "--cluster", address)
    assert done.exit_code == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"sudokit: error: --cluster {address}: ")


def test_ctrl_c_on_a_local_cluster_keeps_the_lines_and_prints_no_traceback(tmp_path: Path):
    """Ctrl-C in a terminal reaches the whole process group, the local workers included."""
    import signal

    lines = (Path(__file__).resolve().parents[1] / "data" / "top1465.txt").read_text().splitlines()[:400]
    puzzles, out, err = tmp_path / "many.txt", tmp_path / "out.txt", tmp_path / "err.txt"
    puzzles.write_text("\n".join(lines) + "\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    args = [sys.executable, "-m", "sudokit", "rate", str(puzzles), "--fast", "--cluster", "local:2"]
    with open(out, "wb") as stdout, open(err, "wb") as stderr:
        proc = subprocess.Popen(args, stdout=stdout, stderr=stderr, env=env, start_new_session=True)
        deadline = time.monotonic() + 300
        while out.stat().st_size == 0 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)  # until the first chunks are written: the workers are up and busy
        os.killpg(proc.pid, signal.SIGINT)
        status = proc.wait(timeout=120)
    stderr_text = err.read_text()
    assert status == 130, stderr_text
    assert "Traceback" not in stderr_text
    written = [line for line in out.read_text().splitlines() if line[:1].isdigit() and ": " in line]
    assert f"the output above covers the first {len(written)} puzzles" in stderr_text
    assert 0 < len(written) < 400


def test_after_ctrl_c_dask_logs_nothing_more_in_this_process():
    """A closing local cluster puts back the log levels it silenced; a comm closing late then logs at INFO."""
    import logging

    import distributed.batched  # noqa: F401  (its logger exists, as in a command that ran chunks)

    names = ["distributed", "distributed.batched", "tornado", "asyncio"]
    saved = {n: (logging.getLogger(n).level, logging.getLogger(n).disabled) for n in names}
    try:
        ClusterRunner.interrupted(ClusterRunner.__new__(ClusterRunner))
        for name in [*names, "distributed.made.later"]:
            assert not logging.getLogger(name).isEnabledFor(logging.CRITICAL) or logging.getLogger(name).disabled
        assert logging.getLogger("distributed.made.later").getEffectiveLevel() > logging.CRITICAL
    finally:
        for name, (level, disabled) in saved.items():
            logging.getLogger(name).setLevel(level)
            logging.getLogger(name).disabled = disabled


# ---- the library: cluster= takes a Client or an address --------------------------------------------------------
def test_solve_many_and_rate_many_on_the_cluster_give_the_one_process_results(runner, data_dir: Path):
    import sudokit

    lines = [*data_dir.joinpath("top1465.txt").read_text().split()[:12], BAD]
    one = list(sudokit.solve_many(lines, chunk=5))
    on_cluster = list(sudokit.solve_many(lines, chunk=5, cluster=runner.client))  # the caller's Client
    assert [b.start for b in on_cluster] == [0, 5, 10]
    for a, b in zip(one, on_cluster, strict=True):
        assert (a.solutions == b.solutions).all() and (a.status == b.status).all()
    assert runner.client.status == "running"  # a Client the caller made is left open
    rated = list(sudokit.rate_many(lines[:6], extras=False, cluster=runner.cluster.scheduler_address))
    assert rated == list(sudokit.rate_many(lines[:6], extras=False))


def test_cluster_must_be_an_address_or_a_client():
    import sudokit

    with pytest.raises(SudokitError, match="expected an address .* or a dask.distributed.Client, not int"):
        list(sudokit.solve_many(["." * 81, "." * 81], cluster=8786))
