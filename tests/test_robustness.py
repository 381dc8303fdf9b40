"""Issue 16's defects: each input that gave a traceback, a silently different puzzle or unbounded work.

Every user error is a :class:`~sudokit.errors.SudokitError` (one line ``sudokit: error: ...`` on the command
line, or click's usage error for an option), never a traceback; time limits stop the engine's search.
"""

from __future__ import annotations

import io
import math

import numpy as np
import pytest

import sudokit
from sudokit.errors import SudokitError, TimeLimitError
from sudokit.geometry import for_size, from_name
from sudokit.grid import Grid

PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
EMPTY = "." * 81


# ---- variant names -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["²x3", "2x³", "٣x٣", "３x３", "x3", "3x", "3x3x3"])
def test_a_variant_name_with_non_ascii_digits_is_an_unknown_variant(name):
    with pytest.raises(SudokitError, match="unknown variant"):
        from_name(name)


@pytest.mark.parametrize("name", ["100x100", "7x7", "6x7", "1x36", "999x999"])
def test_a_board_beyond_the_supported_sizes_is_refused_before_it_is_built(name):
    with pytest.raises(SudokitError, match="not supported"):
        from_name(name)


def test_a_jigsaw_map_beyond_the_supported_sizes_is_refused():
    with pytest.raises(SudokitError, match="not supported"):
        from_name("jigsaw:" + "a" * 40 * 40)


def test_a_variant_name_must_be_a_string():
    with pytest.raises(SudokitError, match="must be a string"):
        from_name(None)


# ---- arguments of the public API ---------------------------------------------------------------------------
@pytest.mark.parametrize("limit", [None, 1.5, float("nan"), True, 2**63, 2**70, 0, -3, "2"])
def test_count_solutions_refuses_a_limit_that_is_not_an_int64_count(limit):
    with pytest.raises(SudokitError, match="limit must be an integer"):
        sudokit.count_solutions(PUZZLE, limit=limit)


@pytest.mark.parametrize("limit", [1.5, True, 2**63, None])
def test_solve_and_solve_many_refuse_the_same_limits(limit):
    with pytest.raises(SudokitError, match="limit must be an integer"):
        sudokit.solve(PUZZLE, limit=limit)
    with pytest.raises(SudokitError, match="limit must be an integer"):
        list(sudokit.solve_many([PUZZLE], limit=limit))


def test_a_numpy_integer_limit_is_taken_as_an_int():
    assert sudokit.count_solutions(PUZZLE, limit=np.int32(5)) == 1


@pytest.mark.parametrize("text", [None, b"4....", 81, ["4"]])
def test_parse_wants_text(text):
    with pytest.raises(SudokitError, match="must be given as text"):
        sudokit.parse(text)


def test_parse_wants_a_geometry_object():
    with pytest.raises(SudokitError, match="geometry must be a Geometry"):
        sudokit.parse(PUZZLE, geometry="diagonal")


def test_solve_many_wants_one_geometry_per_call():
    grids = [Grid.empty(for_size(9)), Grid.empty(for_size(4))]
    with pytest.raises(SudokitError, match="puzzle 1 is a standard 4x4 grid"):
        list(sudokit.solve_many(grids, limit=1))


@pytest.mark.parametrize("items", [[PUZZLE, None], [PUZZLE, 5], [PUZZLE, b"..."]])
def test_solve_many_names_an_item_that_is_not_a_puzzle(items):
    with pytest.raises(SudokitError, match="puzzle 1: expected a puzzle string or a Grid"):
        list(sudokit.solve_many(items))


def test_solve_many_refuses_a_single_string():
    with pytest.raises(SudokitError, match="use solve for one"):
        list(sudokit.solve_many(PUZZLE))


@pytest.mark.parametrize("workers", [0, 1.5, True, 10**30])
def test_solve_many_refuses_a_bad_worker_count(workers):
    with pytest.raises(SudokitError, match="workers must be an integer"):
        list(sudokit.solve_many([PUZZLE], workers=workers))


def test_more_workers_than_threads_is_not_an_error():
    (batch,) = sudokit.solve_many(np.zeros((2000, 81), np.uint8), workers=10**6, limit=1)
    assert (batch.status == 0).all()


@pytest.mark.parametrize(
    "call",
    [
        lambda: sudokit.standard(1.5),
        lambda: sudokit.standard("3"),
        lambda: sudokit.diagonal(5),
        lambda: sudokit.windoku("x"),
        lambda: sudokit.jigsaw(None),
        lambda: __import__("sudokit.geometry").geometry.for_cells(81.0),
        lambda: Grid(sudokit.standard(), None),
        lambda: Grid(sudokit.standard(), (1.5,) * 81),
        lambda: Grid(None, (0,) * 81),
        lambda: Grid.from_values(None),
        lambda: sudokit.is_solution(None, None),
        lambda: __import__("sudokit.logic").logic.hint(None),
        lambda: __import__("sudokit.engine").engine.solve_array(np.zeros(81, np.uint8), None),
    ],
)
def test_a_public_function_given_the_wrong_type_says_what_it_expected(call):
    with pytest.raises(SudokitError):
        call()


@pytest.mark.parametrize("value", [0.5, math.nan, math.inf, "1"])
def test_grid_from_values_never_truncates_a_value_into_a_digit(value):
    with pytest.raises(SudokitError, match="value 3 is"):
        Grid.from_values([0, 0, 0, value] + [0] * 77)


# ---- solve_many's arrays: never a silently different puzzle --------------------------------------------------
@pytest.mark.parametrize("value", [257, 10, -1, 0.5, 1.9, math.nan, math.inf, -math.inf])
def test_a_value_that_is_not_a_digit_is_an_error_naming_row_and_column(value):
    puzzles = np.zeros((3, 81), dtype=np.float64 if isinstance(value, float) else np.int64)
    puzzles[2, 40] = value
    with pytest.raises(SudokitError, match="row 2, column 40"):
        list(sudokit.solve_many(puzzles))


@pytest.mark.parametrize("dtype", [np.uint8, np.int16])
def test_a_bad_value_is_named_by_its_row_in_the_whole_array_not_in_its_chunk(dtype):
    # uint8 arrays on the 9x9 board go to the kernel unchecked (it calls a value over 9 invalid), others are
    # checked first: both name the row counted from the start of the input
    puzzles = np.zeros((5, 81), dtype=dtype)
    puzzles[3, 5] = 12
    with pytest.raises(SudokitError, match="row 3, column 5: 12 is not a digit"):
        list(sudokit.solve_many(puzzles, chunk=2))


def test_integral_floats_and_wide_integers_are_read_as_digits():
    line = np.array([int(ch) if ch != "." else 0 for ch in PUZZLE])
    for dtype in (np.float64, np.int64, np.uint16):
        (batch,) = sudokit.solve_many(line.astype(dtype).reshape(1, 81))
        assert batch.status[0] == 0


def test_an_array_of_strings_is_refused():
    with pytest.raises(SudokitError, match="must hold integers"):
        list(sudokit.solve_many(np.array([list(PUZZLE)])))


def test_solve_of_a_float_array_checks_its_values():
    with pytest.raises(SudokitError, match="index 3"):
        sudokit.solve(np.array([0.0, 0, 0, 0.5] + [0] * 77))


# ---- time limits -------------------------------------------------------------------------------------------
def test_solve_stops_at_its_time_limit_with_status_timeout():
    result = sudokit.solve(Grid.empty(for_size(16)), limit=2**40, time_limit=0.05)
    assert result.status == "timeout" and result.solution is None and result.count > 0


def test_count_solutions_stops_at_its_time_limit():
    with pytest.raises(TimeLimitError) as caught:
        sudokit.count_solutions(EMPTY, limit=2**40, time_limit=0.05)
    assert 0 < caught.value.count < 2**40


def test_solve_many_gives_each_puzzle_its_time_limit():
    puzzles = np.zeros((2, 81), np.uint8)
    puzzles[1] = [int(ch) if ch != "." else 0 for ch in PUZZLE]
    (batch,) = sudokit.solve_many(puzzles, limit=2**40, time_limit=0.05)
    assert batch.status.tolist() == [5, 0]  # timeout, then solved
    assert batch.counts[0] > 1 and batch.counts[1] == 1


def test_a_time_limit_leaves_easy_answers_alone():
    assert sudokit.count_solutions(PUZZLE, time_limit=10) == 1
    assert sudokit.solve(PUZZLE, time_limit=10).status == "solved"


@pytest.mark.parametrize("time_limit", [0, -1, math.nan, math.inf, "1", True, 1e300])
def test_a_time_limit_must_be_a_positive_finite_number(time_limit):
    with pytest.raises(SudokitError, match="time_limit must be"):
        sudokit.solve(PUZZLE, time_limit=time_limit)


# ---- the command line --------------------------------------------------------------------------------------
def _usage_error(result, option: str) -> None:
    assert result.exit_code == 2, result.output
    assert option in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["solve", "--count", "99999999999999999999", "FILE"], "--count"),
        (["solve", "--jobs", "100000000000000000000", "FILE"], "--jobs"),
        (["solve", "--time-limit", "nan", PUZZLE], "--time-limit"),
        (["solve", "--time-limit", "-1", PUZZLE], "--time-limit"),
        (["compare", "--limit", "100000000000000000000", PUZZLE], "--limit"),
        (["compare", "--time-limit", "inf", PUZZLE], "--time-limit"),
        (["stages", "--node-limit", "100000000000000000000", PUZZLE], "--node-limit"),
        (["generate", "--seed", "-1"], "--seed"),
        (["generate", "--size", "0"], "--size"),
        (["generate", "--time-limit", "0"], "--time-limit"),
        (["transform", "--random", "--seed", "-1", PUZZLE], "--seed"),
        (["rules", "beyond", "--top", "-5"], "--top"),
    ],
)
def test_a_number_out_of_range_is_a_usage_error(run_cli, tmp_path, args, option):
    path = tmp_path / "p.txt"
    path.write_text(PUZZLE + "\n" + PUZZLE + "\n")
    result = run_cli(*[str(path) if a == "FILE" else a for a in args])
    _usage_error(result, option)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["solve", "-V", "²x3", PUZZLE], "unknown variant"),
        (["solve", "-V", "100x100", PUZZLE], "not supported"),
        (["show", "-V", "٣x٣", PUZZLE], "unknown variant"),
        (["rules", "picture", "-o", "x.txt", "all"], "choose a .png, .svg or .pdf"),
    ],
)
def test_a_bad_value_is_one_error_line(run_cli, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    result = run_cli(*args)
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith("sudokit: error:") and message in result.stderr
    assert not (tmp_path / "x.txt").exists()


def test_solve_time_limit_prints_timeout(run_cli):
    result = run_cli("solve", "--count", "99999999", "--time-limit", "0.05", EMPTY)
    assert result.exit_code == 1 and result.stdout.startswith("timeout")


def test_solve_time_limit_marks_each_timed_out_line_of_a_file(run_cli, tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"{EMPTY}\n{PUZZLE}\n")
    result = run_cli("solve", "--count", "99999999", "--time-limit", "0.05", str(path))
    assert result.stdout.splitlines() == ["# line 1: timeout", "1"]
    assert result.exit_code == 1 and "timeout: 1" in result.stderr


def test_compare_gives_the_engine_the_time_limit_too(run_cli):
    result = run_cli("compare", "--methods", "norvig", "--limit", "99999999", "--time-limit", "0.2", EMPTY)
    engine = next(line for line in result.stdout.splitlines() if line.startswith("engine"))
    assert result.exit_code in (0, 1) and " 1 " in engine  # one timeout


@pytest.mark.parametrize("args", [["--bands", "²"], ["--rows", "²:213"], ["--rows", "1:3²"]])
def test_transform_orders_take_ascii_digits_only(run_cli, args):
    result = run_cli("transform", PUZZLE, *args)
    assert result.exit_code == 2 and result.stderr.startswith("sudokit: error:")


def test_a_cell_label_with_unicode_digits_is_no_cell():
    with pytest.raises(SudokitError, match="no cell named"):
        sudokit.standard().cell_of("r²c1")


# ---- Ctrl-C: while the command loads, and while a batch's output waits on a slow reader ----------------------
class _ShortWrites:
    """A stream that takes at most 1,000 bytes a call, as a pipe write cut short by a signal does."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.flushed = False

    def write(self, data) -> int:
        taken = bytes(data[:1000])
        self.data += taken
        return len(taken)

    def flush(self) -> None:
        self.flushed = True


def test_write_all_writes_what_a_short_write_left():
    from sudokit.jobs.batch import write_all

    out = _ShortWrites()
    data = bytes(range(256)) * 40
    write_all(out, data)
    assert bytes(out.data) == data and out.flushed


# ---- a bad line at the top of a file ------------------------------------------------------------------------
# The fuzz campaign's batch target: a one-puzzle-per-line file whose first line held 80 cells was read as
# multi-line grids, so each short line swallowed the puzzle after it (977 answers for 1,000 lines).
SHORT = "." * 80


def test_a_bad_first_line_does_not_change_the_layout_of_a_file():
    from sudokit.formats import detect_format

    assert detect_format("p.txt", [SHORT, PUZZLE, PUZZLE, SHORT, PUZZLE]) == "line"
    assert detect_format("p.txt", ["# list", SHORT, PUZZLE]) == "line"
    assert detect_format("p.txt", ["4 . . |. . . |8 . 5", ". 3 . |. . . |. . ."]) == "grid"


def test_every_line_of_a_file_with_short_lines_is_answered(run_cli, tmp_path):
    lines = [SHORT, PUZZLE, SHORT, PUZZLE, EMPTY, SHORT]
    path = tmp_path / "p.txt"
    path.write_text("\n".join(lines) + "\n")
    result = run_cli("solve", str(path), "--first", "--no-progress")
    out = result.stdout.splitlines()
    assert len(out) == len(lines)
    for number, (line, answer) in enumerate(zip(lines, out), 1):
        if line == SHORT:
            assert answer == f"# line {number}: unreadable"
        else:
            assert sudokit.grid.is_solution(sudokit.parse(answer), sudokit.parse(line))


def test_a_whole_board_on_one_line_is_never_swallowed_by_the_rows_before_it():
    from sudokit.formats import read_entries

    rows = ["4 . . |. . . |8 . 5", ". 3 . |. . . |. . ."]
    text = "\n".join([*rows, PUZZLE, *rows]) + "\n"
    entries = list(read_entries(io.BytesIO(text.encode()), fmt="grid"))
    assert [e.line for e in entries] == [1, 3, 4]
    assert [e.ok for e in entries] == [False, True, False]
    assert entries[1].grid == sudokit.parse(PUZZLE)


def _launcher_env() -> dict[str, str]:
    import os
    from pathlib import Path

    src = str(Path(sudokit.__file__).resolve().parents[1])
    return dict(os.environ, PYTHONPATH=src + os.pathsep + os.environ.get("PYTHONPATH", ""))


def test_ctrl_c_while_the_command_loads_is_one_quiet_line():
    """The launcher's guard is in place before any sudokit module loads: an interrupt then is no traceback."""
    import subprocess
    import sys

    code = (
        "import os, signal, time, _sudokit_command as c; c.guard(); os.kill(os.getpid(), signal.SIGINT); time.sleep(10)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_launcher_env(), timeout=60)
    assert done.returncode == 130
    assert done.stderr == "sudokit: interrupted\n"


def test_the_launcher_gives_commands_the_usual_ctrl_c():
    """Once loaded, a command sees KeyboardInterrupt (a batch keeps its lines and prints its summary)."""
    import subprocess
    import sys

    probe = (
        "import signal, sys, _sudokit_command as c; sys.argv = ['sudokit', '--version']; "
        "import sudokit.cli; sudokit.cli.main.main = lambda **k: print(signal.getsignal(signal.SIGINT) is "
        "signal.default_int_handler); c.main()"
    )
    env = _launcher_env()
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=60)
    assert done.stdout.strip() == "True", done.stderr


def test_ctrl_c_while_output_waits_on_a_slow_reader_keeps_every_counted_line(tmp_path):
    """A batch's block is bigger than a pipe holds: Ctrl-C while its write waits must not cut the block short
    (the summary counts exactly the lines written)."""
    import re
    import select
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    lines = (Path(__file__).resolve().parents[1] / "data" / "17_clue.txt").read_text().split()[:500] * 8
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(lines) + "\n")
    child = subprocess.Popen(
        [sys.executable, "-m", "sudokit", "solve", str(path), "--no-progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_launcher_env(),
    )
    try:
        assert select.select([child.stdout], [], [], 240)[0], "no output"
        time.sleep(0.3)  # the first block's write now waits for the reader
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=120)
    finally:
        child.kill()
    summary = re.search(r"Solved (\d+) of (\d+)", err.decode())
    assert child.returncode == 130 and summary, err.decode()
    assert int(summary.group(2)) == len(out.splitlines()) > 1000


@pytest.mark.parametrize("args", [["render", PUZZLE, "-o", "out.png", "--scale", "nan"], ["serve", "--timeout", "nan"]])
def test_a_nan_in_a_number_range_is_one_line_error(run_cli, tmp_path, monkeypatch, args):
    # click's FloatRange lets NaN through (every comparison with it is false): matplotlib then raised
    monkeypatch.chdir(tmp_path)
    result = run_cli(*args)
    assert result.exit_code == 2
    assert result.stderr.startswith("sudokit: error:") and "not a number" in result.stderr
    assert "Traceback" not in result.stderr
