"""The batch layer (:mod:`sudokit.jobs`): every many-puzzle command gives the same bytes on one worker and on
two, in input order; a bad line is reported and the rest answered; Ctrl-C keeps the finished lines and prints
the summary; a chunk whose task raises or whose worker dies loses no line."""

from __future__ import annotations

import contextlib
import functools
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import sudokit
from sudokit.jobs.batch import Answer, Batch, Counts, Failed, Guarded, chunked, split_blocks
from sudokit.jobs.processes import Processes
from sudokit.jobs.runner import InProcess, open_runner

DATA = Path(__file__).resolve().parents[1] / "data"
#: Where the ``sudokit`` this session imports lives, for the commands the tests start: the same copy, so they load the
#: kernels `sudokit warm-up` compiled (in CI that is the installed package; the checkout's ``src`` would be another
#: copy with a cache of its own, cold: its children compiled the logic kernels again, mid-test)
SRC = Path(sudokit.__file__).resolve().parents[1]
BAD = "12345xyz"


@pytest.fixture(scope="module")
def puzzles(tmp_path_factory) -> Path:
    """Twelve hard puzzles with an unreadable line in the middle (line 7)."""
    lines = (DATA / "top1465.txt").read_text().splitlines()[:12]
    path = tmp_path_factory.mktemp("jobs") / "puzzles.txt"
    path.write_text("\n".join([*lines[:6], BAD, *lines[6:]]) + "\n")
    return path


# Each command with options that make it cut the input into several chunks (rate and explain chunks are small).
COMMANDS = {
    "solve": ["solve", "{file}"],
    "solve-method": ["solve", "{file}", "--method", "norvig", "--format", "grid"],
    "count": ["solve", "--count", "5", "{file}"],
    "check": ["check", "{file}"],
    "rate": ["rate", "{file}", "--fast"],
    "rate-json": ["rate", "{file}", "--json", "--fast"],
    "explain-json": ["explain", "--json", "{file}"],
    "canon": ["canon", "{file}"],
    "convert": ["convert", "{file}", "--to", "sdk"],
    "generate": ["generate", "-n", "19", "--seed", "3", "--with-solution"],
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_two_workers_write_the_same_bytes_as_one(name, puzzles, run_cli):
    args = [a.format(file=puzzles) for a in COMMANDS[name]]
    one = run_cli(*args, "--jobs", "1")
    two = run_cli(*args, "--jobs", "2")
    assert one.stdout_bytes == two.stdout_bytes
    assert one.exit_code == two.exit_code
    assert one.stdout_bytes
    if name != "generate":  # the bad line: reported once with its line number, the file's exit status 2
        assert one.exit_code == 2
        errors = [line for line in one.stderr.splitlines() if line.startswith("sudokit: error:")]
        assert len(errors) == 1 and f"{puzzles}:7:" in errors[0]
        assert errors == [line for line in two.stderr.splitlines() if line.startswith("sudokit: error:")]


def test_every_other_line_is_answered_in_input_order(puzzles, run_cli):
    solved = run_cli("solve", str(puzzles), "--jobs", "2").stdout.splitlines()
    givens = [line for line in puzzles.read_text().splitlines()]
    assert len(solved) == len(givens) == 13
    assert solved[6] == "# line 7: unreadable"
    for puzzle, solution in zip(givens, solved, strict=True):
        if puzzle != BAD:
            assert all(p in ".0" or p == s for p, s in zip(puzzle, solution, strict=True))
    rated = run_cli("rate", str(puzzles), "--fast", "--jobs", "2").stdout.splitlines()[:12]
    assert [int(line.split(":")[0]) for line in rated] == [n for n in range(1, 14) if n != 7]


def test_generate_output_does_not_depend_on_the_workers_and_begins_as_one_stream(run_cli):
    from sudokit.generate import generate_many

    two = run_cli("generate", "-n", "10", "--seed", "11", "--jobs", "2").stdout.splitlines()
    assert len(two) == 10 and len(set(two)) == 10
    first_chunk = [g.puzzle.to_line() for g in generate_many(8, seed=11)]
    assert two[:8] == first_chunk  # the first chunk is the user's seed itself


def test_generate_on_the_kernel_sends_big_chunks_and_the_bytes_do_not_depend_on_them(run_cli):
    from sudokit.cli.commands.generate import CHUNK, KERNEL_CHUNK, chunk_size

    assert chunk_size(60_000, 2, KERNEL_CHUNK) == KERNEL_CHUNK  # the main process writes a chunk in ~0.1 s
    assert chunk_size(96, 2, KERNEL_CHUNK) == 12  # a small job still gives each worker four chunks
    assert chunk_size(10, 2, KERNEL_CHUNK) == chunk_size(60_000, 2, CHUNK) == CHUNK
    one = run_cli("generate", "-n", "1100", "--seed", "5", "--jobs", "1")  # chunks of 275
    two = run_cli("generate", "-n", "1100", "--seed", "5", "--jobs", "2")  # chunks of 138
    assert one.stdout_bytes == two.stdout_bytes and len(set(one.stdout.splitlines())) == 1100


def test_split_blocks_keeps_every_row_and_its_entry(puzzles):
    from sudokit.formats import read_blocks

    (block,) = list(read_blocks(str(puzzles)))
    parts = list(split_blocks([block], 5))
    assert [len(p) for p in parts] == [5, 5, 3]
    assert [e.line for p in parts for e in p] == [e.line for e in block]
    assert [e.ok for p in parts for e in p] == [e.ok for e in block]
    assert parts[1].entry(1).error is not None and parts[1].start == 5


# ---- a task that fails: retried, then answered by ``lost``; a worker that dies ---------------------------------
def _flaky(marks: str, chunk: list[int]) -> Answer:
    """Squares; chunk [3] raises the first time it runs, [5] always, [7] kills its worker the first time."""
    first = chunk[0]
    mark = Path(marks) / str(first)
    if first in (3, 7) and not mark.exists():
        mark.write_text("ran")
        if first == 7:
            os._exit(1)
        raise RuntimeError("once")
    if first == 5:
        raise RuntimeError("always")
    return Answer(f"{first * first}\n".encode(), [], Counts(done=1), 1)


def _lost(chunk: list[int], why: str) -> Answer:
    return Answer(f"lost {chunk[0]}: {why}\n".encode(), [f"chunk {chunk[0]} lost"], Counts(lost=1), 1)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_chunk_that_raises_or_kills_its_worker_loses_no_line(workers, tmp_path, capsysbinary):
    runner = InProcess() if workers == 1 else Processes(workers)
    batch = Batch(out=sys.stdout.buffer)
    items = range(10) if workers == 2 else [i for i in range(10) if i != 7]  # (os._exit would end pytest)
    try:
        stopped = batch.run(runner, functools.partial(_flaky, str(tmp_path)), chunked(items, 1), _lost)
    finally:
        runner.close()
    assert not stopped
    lines = capsysbinary.readouterr().out.decode().splitlines()
    expected = [f"{i * i}" if i != 5 else "lost 5: RuntimeError: always" for i in items]
    assert lines == expected
    assert batch.tally == Counts(done=len(items) - 1, lost=1)


def test_a_chunk_that_kills_its_worker_twice_is_reported(tmp_path):
    runner = Processes(2)
    try:
        answers = list(runner.map(Guarded(functools.partial(_dies_on_four)), [[i] for i in range(6)], 3))
    finally:
        runner.close()
    assert [a.data for a in answers if not isinstance(a, Failed)] == [b"0", b"1", b"2", b"3", b"5"]
    assert isinstance(answers[4], Failed) and "died twice" in answers[4].why


def _dies_on_four(chunk: list[int]) -> Answer:
    if chunk[0] == 4:
        os._exit(1)
    return Answer(str(chunk[0]).encode())


def _dies_late(marks: str, chunk: list[int]) -> int:
    """Chunk [1] kills its worker (once) a moment after chunk [0] has answered; the others answer at once."""
    mark = Path(marks) / str(chunk[0])
    if chunk[0] == 1 and not mark.exists():
        mark.write_text("ran")
        time.sleep(0.3)
        os._exit(1)
    return chunk[0]


def test_a_worker_that_dies_between_two_reads_costs_no_chunk(tmp_path):
    # The reader takes chunk 0's answer, and only then does chunk 1 kill its worker: the next chunk to send
    # meets a broken pool (before, BrokenProcessPool escaped from the submit and ended the batch).
    runner = Processes(2)
    answers = []
    try:
        for answer in runner.map(functools.partial(_dies_late, str(tmp_path)), chunked(range(8), 1), window=2):
            answers.append(answer)
            if answer == 0:
                time.sleep(1.0)  # chunk 1's worker dies meanwhile
    finally:
        runner.close()
    assert answers == list(range(8))


def test_a_cluster_address_without_the_cluster_runner_is_one_line_error(run_cli, puzzles):
    try:
        import sudokit.jobs.cluster  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("the Dask runner is installed: tests/test_cluster.py covers --cluster")
    result = run_cli("rate", str(puzzles), "--cluster", "local:2")
    assert result.exit_code == 2
    assert result.stderr.startswith("sudokit: error: --cluster local:2:") and result.stderr.count("\n") == 1
    with pytest.raises(Exception, match="cluster"), open_runner(1, "local:2"):
        pass


# ---- Ctrl-C ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_keeps_the_finished_lines_and_prints_the_summary(jobs, tmp_path):
    path = tmp_path / "many.txt"
    lines = (DATA / "top1465.txt").read_text().splitlines(keepends=True)  # all: Ctrl-C comes long before the end
    path.write_text("".join(lines))
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    cmd = [sys.executable, "-m", "sudokit", "rate", str(path), "--fast", "--jobs", jobs]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, bufsize=0)
    assert proc.stdout is not None
    first = proc.stdout.readline()  # a chunk is written: the batch is under way (unbuffered: no byte held here)
    time.sleep(0.5)
    # One Ctrl-C: one that lands while numba compiles a kernel is held until the compile is done (sudokit.jit),
    # so it is never lost (tests/test_first_use.py delivers one there); a busy machine only delays the stop.
    proc.send_signal(signal.SIGINT)
    rest, err = proc.communicate(timeout=300)
    out = (first + rest).decode()
    assert proc.returncode == 130, err.decode()
    rated = [line for line in out.splitlines() if re.match(r"\d+: ", line)]
    numbers = [int(line.split(":")[0]) for line in rated]
    assert numbers == list(range(1, len(numbers) + 1)) and 0 < len(numbers) < len(lines)
    assert f"\n{len(numbers)} puzzles\n" in out  # the summary covers exactly the lines written
    assert f"the output above covers the first {len(numbers)} puzzles" in err.decode()


def _ctrl_c_lost_on_two(chunk: list[int]) -> Answer:
    """Chunk [2] gets a Ctrl-C whose KeyboardInterrupt is dropped on its way up, as numba drops one raised
    while compiled code calls back into Python (numba's unpickler, when a kernel returns an array)."""
    if chunk[0] == 2:
        with contextlib.suppress(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
    return Answer(f"{chunk[0]}\n".encode(), [], Counts(done=1), 1)


def test_a_ctrl_c_whose_keyboard_interrupt_was_lost_still_stops_the_batch(capsysbinary):
    batch = Batch(out=sys.stdout.buffer)
    before = signal.getsignal(signal.SIGINT)
    stopped = batch.run(InProcess(), _ctrl_c_lost_on_two, chunked(range(6), 1), _lost)
    ignored = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, before)
    assert stopped and ignored is signal.SIG_IGN  # stopped, and a second Ctrl-C cannot cut the summary
    assert capsysbinary.readouterr().out.decode().splitlines() == ["0", "1", "2"]  # chunk 2's lines kept
    assert batch.puzzles == 3 and batch.tally == Counts(done=3)


def test_without_ctrl_c_a_batch_leaves_the_handler_as_it_found_it(capsysbinary):
    before = signal.getsignal(signal.SIGINT)
    assert not Batch(out=sys.stdout.buffer).run(InProcess(), _ctrl_c_lost_on_two, chunked([0, 1], 1), _lost)
    assert signal.getsignal(signal.SIGINT) is before


def _unsendable(chunk: list[int]) -> Answer:
    """An answer that cannot be pickled back to the main process for chunk [2]."""
    return Answer(b"x\n", held=(lambda: None) if chunk[0] == 2 else None)


def test_an_answer_that_cannot_be_sent_back_is_reported_not_a_crash():
    runner = Processes(2)
    try:
        answers = list(runner.map(Guarded(_unsendable), [[i] for i in range(4)]))
    finally:
        runner.close()
    assert [type(a).__name__ for a in answers] == ["Answer", "Answer", "Failed", "Answer"]


def test_a_method_on_processes_claims_no_wall_clock_rate_of_threads(puzzles, run_cli):
    result = run_cli("solve", str(puzzles), "--method", "norvig", "--jobs", "2")
    assert "Solved 12 of 13 puzzles" in result.stderr and "puzzles/s on" not in result.stderr


# ---- the library: solve_many(..., jobs=) and rate_many --------------------------------------------------------
def _same_batches(one, two) -> None:
    assert [b.start for b in one] == [b.start for b in two]
    for a, b in zip(one, two, strict=True):
        for name in ("puzzles", "solutions", "status", "counts", "guesses", "nodes", "backtracks"):
            assert (getattr(a, name) == getattr(b, name)).all(), name


def test_solve_many_on_two_processes_gives_the_batches_of_one():
    import sudokit
    from sudokit.engine.batch import SOLVED, UNREADABLE, load_lines

    lines = [*(DATA / "top1465.txt").read_text().split()[:40], BAD]
    one = list(sudokit.solve_many(lines, chunk=7))
    two = list(sudokit.solve_many(lines, chunk=7, jobs=2))
    _same_batches(one, two)
    assert len(two) == 6 and two[-1].status[-1] == UNREADABLE and (two[0].status == SOLVED).all()
    array, _ = load_lines(DATA / "norvig_top95.txt")
    _same_batches(list(sudokit.solve_many(array, chunk=30)), list(sudokit.solve_many(array, chunk=30, jobs=2)))


def test_solve_many_on_processes_raises_a_bad_item_in_its_turn():
    import sudokit
    from sudokit.errors import SudokitError

    lines = (DATA / "top1465.txt").read_text().split()[:9]
    got = []
    with pytest.raises(SudokitError, match="puzzle 6: expected a puzzle string or a Grid, not int"):
        for batch in sudokit.solve_many([*lines[:6], 42, *lines[6:]], chunk=3, jobs=2):
            got.append(batch.start)
    assert got == [0, 3]  # the chunks before the bad one, as on one process


def test_rate_many_gives_the_ratings_of_rate_and_the_same_on_two_processes():
    import sudokit
    from sudokit.logic.rating import rate

    lines = (DATA / "top1465.txt").read_text().split()[:10]
    puzzles = [*lines[:5], BAD, "." * 81, sudokit.parse(lines[5]), *lines[6:]]
    one = list(sudokit.rate_many(puzzles, extras=False, techniques="all"))
    two = list(sudokit.rate_many(puzzles, extras=False, techniques="all", jobs=2))
    assert one == two
    assert [type(r).__name__ for r in one] == ["Rating"] * 5 + ["NotRated"] * 2 + ["Rating"] * 5
    assert "empty" in one[6].why and one[5].why
    assert one[7] == rate(lines[5], extras=False)
    assert one[:5] == [rate(line, extras=False) for line in lines[:5]]


def test_rate_many_rates_what_the_rate_command_prints(run_cli, puzzles):
    import sudokit

    printed = run_cli("rate", str(puzzles), "--fast", "--jobs", "2").stdout.splitlines()
    rated = list(sudokit.rate_many(puzzles.read_text().splitlines(), extras=False, jobs=2))
    shown = [f"{r.se}  {r.level} ({r.score})  {r.hardest}" for r in rated if isinstance(r, sudokit.NotRated) is False]
    assert [line.split(": ", 1)[1] for line in printed[:12]] == shown


def test_jobs_is_checked_before_any_process_starts(run_cli, puzzles):
    import sudokit
    from sudokit.errors import SudokitError

    for jobs in (True, 0, 2.0):
        with pytest.raises(SudokitError, match="jobs must be an integer"):
            list(sudokit.solve_many(["." * 81], jobs=jobs))
        with pytest.raises(SudokitError, match="jobs must be an integer"):
            list(sudokit.rate_many(["." * 81], jobs=jobs))
    done = run_cli("rate", str(puzzles), "--jobs", "100000")  # not 100,000 interpreters
    assert done.exit_code == 2 and done.stderr == "sudokit: error: --jobs 100000: at most 256 processes\n"


def test_a_job_of_one_chunk_starts_no_processes(run_cli, monkeypatch):
    from sudokit.jobs import processes

    def refuse(*args, **kwargs):
        raise AssertionError("a pool was started for one chunk")

    monkeypatch.setattr(processes.Processes, "__init__", refuse)
    one = run_cli("generate", "-n", "3", "--seed", "4", "--jobs", "4")
    assert one.exit_code == 0 and len(one.stdout.splitlines()) == 3
    assert one.stdout == run_cli("generate", "-n", "3", "--seed", "4").stdout
