"""``sudokit solve``: one puzzle pretty, files one line per puzzle with a summary, counts, errors."""

from __future__ import annotations

import os
from pathlib import Path

from click.testing import CliRunner

from sudokit.cli import main
from sudokit.formats import parse_grid
from sudokit.grid import is_solution

DATA = Path(__file__).resolve().parents[1] / "data"
TOP95_FIRST = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
TOP95_FIRST_SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
HARD1 = ".....6....59.....82....8....45........3........6..3.54...325..6.................."


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, ["solve", *args], input=input)


def test_one_puzzle_prints_the_solution_as_a_pretty_grid():
    result = run(TOP95_FIRST)
    assert result.exit_code == 0, result.output
    assert " 4 1 7 | 3 6 9 | 8 2 5" in result.stdout
    assert "-------+-------+-------" in result.stdout


def test_one_puzzle_in_line_format_with_stats():
    result = run(TOP95_FIRST, "--format", "line", "--stats")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == TOP95_FIRST_SOLUTION
    assert lines[1].startswith("status solved, guesses ")


def test_several_solutions_are_reported_with_exit_status_1():
    result = run(HARD1)
    assert result.exit_code == 1
    assert "multiple solutions" in result.stdout


def test_count_with_and_without_a_limit():
    assert run(HARD1, "--count", "5").stdout.strip() == "5+ solutions"
    assert run(TOP95_FIRST, "--count").stdout.strip() == "1 solution"
    assert run("." * 16, "--count").stdout.strip() == "288 solutions"


def test_clashing_givens_name_the_conflict():
    result = run("11" + "." * 79)
    assert result.exit_code == 1
    assert "invalid" in result.stdout and "row A" in result.stdout


def test_a_file_gives_one_line_per_puzzle_and_a_summary(tmp_path):
    path = tmp_path / "mixed.txt"
    good = (DATA / "norvig_top95.txt").read_text().split()[:3]
    path.write_text(
        "\n".join([good[0], "11" + "." * 79, good[1], "12345678." + "........9" + "." * 63, good[2]]) + "\n"
    )
    result = run(str(path))
    assert result.exit_code == 1
    out = result.stdout.splitlines()
    assert len(out) == 5
    assert out[1] == "# line 2: invalid: digit 1 twice in row A (A1, A2)"
    assert out[3] == "# line 4: no solution"
    for line, puzzle in ((out[0], good[0]), (out[2], good[1]), (out[4], good[2])):
        assert is_solution(parse_grid(line), parse_grid(puzzle))
    assert "Solved 3 of 5 puzzles (avg " in result.stderr
    assert "no solution: 1, multiple: 0, invalid: 1" in result.stderr


def test_an_unreadable_line_is_reported_and_the_batch_goes_on(tmp_path):
    path = tmp_path / "bad.txt"
    good = (DATA / "norvig_top95.txt").read_text().split()[:2]
    path.write_text(good[0] + "\n" + "12x" + "." * 78 + "\n" + good[1] + "\n")
    result = run(str(path), "--from", "line")
    out = result.stdout.splitlines()
    assert len(out) == 3 and out[1] == "# line 2: unreadable"
    assert "bad.txt:2" in result.stderr
    assert "unreadable: 1" in result.stderr


def test_multi_line_grid_files_and_stdin_work():
    result = run(str(DATA / "norvig_easy50.txt"))
    assert result.exit_code == 0
    assert len(result.stdout.splitlines()) == 49
    piped = run("-", input=TOP95_FIRST + "\n" + TOP95_FIRST + "\n")
    assert piped.stdout.splitlines() == [TOP95_FIRST_SOLUTION] * 2


def test_two_jobs_give_the_same_lines_as_one():
    one = run(str(DATA / "top1465.txt"), "--stats")
    two = run(str(DATA / "top1465.txt"), "--jobs", "2", "--stats")
    assert one.exit_code == two.exit_code == 0
    assert one.stdout == two.stdout
    assert "Solved 1465 of 1465 puzzles" in two.stderr
    assert "guesses/puzzle" in two.stderr


def test_variant_option_solves_a_diagonal_puzzle():
    puzzle = (DATA / "xsudoku9.txt").read_text().split()[0]
    result = run(puzzle, "--geometry", "diagonal", "-f", "line")
    assert result.exit_code == 0
    from sudokit.geometry import diagonal

    assert is_solution(parse_grid(result.stdout.strip(), diagonal()), parse_grid(puzzle, diagonal()))


def test_an_unknown_method_is_a_user_error():
    result = run(TOP95_FIRST, "--method", "no-such-method")
    assert result.exit_code == 2
    assert "unknown method 'no-such-method'" in result.stderr
    assert "Traceback" not in result.output


def test_bench_prints_the_table_for_one_dataset():
    result = CliRunner().invoke(main, ["bench", "--sets", "norvig_top95", "--baseline-seconds", "0.2", "-j", "2"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("| dataset | puzzles | puzzles/sec (1 core) | µs/puzzle | % no guess |")
    assert lines[2].startswith("| norvig_top95 | 95 |")
    machine = lines[-1]  # the ratios move with the processor, so the table names it
    assert machine.startswith("machine: ") and f"{os.cpu_count()} cores" in machine


def test_bench_names_a_missing_dataset():
    result = CliRunner().invoke(main, ["bench", "--sets", "no_such_set"])
    assert result.exit_code == 2
    assert "no dataset no_such_set" in result.stderr


def test_the_summary_names_the_slowest_puzzle_with_a_readable_unit(tmp_path):
    result = run(str(DATA / "norvig_top95.txt"))
    assert result.exit_code == 0
    summary = result.stderr.splitlines()[-1]
    assert summary.startswith("Solved 95 of 95 puzzles (avg ")
    assert ", max " in summary and summary.endswith(("µs)", "ms)", " s)"))


def test_grids_in_a_file_are_separated_by_one_blank_line():
    result = run("-", "--format", "grid", input=TOP95_FIRST + "\n" + TOP95_FIRST + "\n")
    blocks = result.stdout.split("\n\n")
    assert len(blocks) == 2
    assert all(len(block.strip().splitlines()) == 11 for block in blocks)


def test_ctrl_c_keeps_the_lines_written_and_prints_the_summary(monkeypatch):
    from sudokit.engine import batch

    real = batch.solve_chunk
    calls = []

    def interrupted_on_the_second_chunk(puzzles, *args, **kwargs):
        calls.append(len(puzzles) > 1)  # (one-row calls load the kernels)
        if sum(calls) == 2:
            raise KeyboardInterrupt
        return real(puzzles, *args, **kwargs)

    monkeypatch.setattr(batch, "solve_chunk", interrupted_on_the_second_chunk)
    lines = (DATA / "17_clue.txt").read_text().splitlines()[:5000]
    result = run("-", input="\n".join(lines) + "\n")
    assert result.exit_code == 130
    out = result.stdout.splitlines()
    assert 1000 < len(out) < 5000  # the first chunk, complete and in order
    assert all(is_solution(parse_grid(a), parse_grid(p)) for a, p in zip(out[::97], lines[::97]))
    assert f"Solved {len(out)} of {len(out)} puzzles" in result.stderr
    assert "interrupted" in result.stderr


# ---- issue 16/17: nothing lost, every input answered or refused ---------------------------------------------
def test_a_stray_byte_costs_one_line_and_the_batch_exits_2(tmp_path):
    path = tmp_path / "f.txt"
    path.write_bytes(TOP95_FIRST.encode() + b"\n\xff\n" + TOP95_FIRST.encode() + b"\n")
    result = run(str(path))
    assert result.stdout.splitlines() == [TOP95_FIRST_SOLUTION, "# line 2: unreadable", TOP95_FIRST_SOLUTION]
    assert "f.txt:2:1: not UTF-8 text (byte 0xff)" in result.stderr
    assert "Solved 2 of 3 puzzles" in result.stderr
    assert result.exit_code == 2  # unreadable input: 2, as for every batch command


def test_an_argument_holding_several_puzzles_is_solved_like_a_file():
    three = "\n".join((DATA / "norvig_top95.txt").read_text().splitlines()[:3])
    result = run(three)
    assert result.exit_code == 0
    out = result.stdout.splitlines()
    assert len(out) == 3 and out[0] == TOP95_FIRST_SOLUTION
    assert "Solved 3 of 3 puzzles" in result.stderr


def test_an_unreadable_line_in_an_argument_is_an_error():
    result = run(TOP95_FIRST + "\n" + "x" * 81)
    assert result.exit_code == 2
    assert "<argument>:2:1: bad character 'x'" in result.stderr


def test_count_takes_the_puzzle_when_no_limit_is_given(tmp_path):
    result = run("--count", HARD1)
    assert (result.exit_code, result.stdout) == (0, "1000+ solutions\n")
    path = tmp_path / "two.txt"
    path.write_text(TOP95_FIRST + "\n" + HARD1 + "\n")
    result = run("--count", str(path))
    assert result.stdout.splitlines() == ["1", "1000+"]
    assert run("--count", "5", HARD1).stdout == "5+ solutions\n"
    assert run(HARD1, "--count").stdout == "1000+ solutions\n"
    bad = run("--count", "x" * 81, HARD1)
    assert bad.exit_code == 2 and "--count takes a whole number" in bad.stderr
    zeros = TOP95_FIRST.replace(".", "0")  # a puzzle in digits only is still the puzzle
    assert run("--count", zeros).stdout == "1 solution\n"
    assert run("--count", "²", HARD1).exit_code == 2


def test_candidate_files_and_pencilmark_arguments_are_read_without_from(tmp_path):
    from sudokit.formats import format_grid

    grid = parse_grid(TOP95_FIRST)
    path = tmp_path / "c.txt"
    path.write_text(format_grid(grid, "candidates") + "\n\n" + format_grid(grid, "candidates") + "\n")
    result = run(str(path))
    assert (result.exit_code, result.stdout.splitlines()) == (0, [TOP95_FIRST_SOLUTION] * 2)
    result = run(format_grid(grid, "pencilmark"), "-f", "line")
    assert (result.exit_code, result.stdout) == (0, TOP95_FIRST_SOLUTION + "\n")


def test_the_summary_leaves_kernel_loading_out_and_hz_is_one_over_the_average(monkeypatch):
    import re
    import time

    from sudokit.engine import batch

    real = batch.warm_up

    def slow_loading(*args, **kwargs):
        time.sleep(1.0)  # a cold kernel cache
        return real(*args, **kwargs)

    monkeypatch.setattr(batch, "warm_up", slow_loading)
    three = "\n".join((DATA / "norvig_top95.txt").read_text().splitlines()[:3])
    result = run(three)
    found = re.search(r"avg ([\d.]+) (µs|ms|s), (\d+) Hz", result.stderr)
    value, unit, hz = float(found[1]), found[2], int(found[3])
    avg = value * {"µs": 1e-6, "ms": 1e-3, "s": 1.0}[unit]
    assert avg < 1.0  # the second of loading is not puzzle time
    assert abs(hz * avg - 1) < 0.02


def test_ctrl_c_while_a_chunk_is_written_counts_exactly_the_lines_written(monkeypatch, tmp_path):
    """Ctrl-C lands between writing a chunk and counting it: the summary still matches the output."""
    import os
    import signal

    from sudokit.cli.commands import solve

    real = solve.Tally.merge
    sent = []

    def interrupted_while_counting(self, other):
        if other.seen and not sent:
            sent.append(True)
            os.kill(os.getpid(), signal.SIGINT)
        return real(self, other)

    monkeypatch.setattr(solve.Tally, "merge", interrupted_while_counting)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # (a background runner may ignore Ctrl-C)
    try:
        lines = (DATA / "17_clue.txt").read_text().splitlines()[:8000]
        result = run("-", input="\n".join(lines) + "\n")
    finally:
        signal.signal(signal.SIGINT, previous)
    assert result.exit_code == 130
    written = len(result.stdout.splitlines())
    assert written > 0 and f"Solved {written} of {written} puzzles" in result.stderr


def test_ctrl_c_during_start_up_prints_the_summary_not_a_traceback(monkeypatch):
    from sudokit.cli.commands import solve

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(solve, "open_puzzles", interrupted)
    result = run(str(DATA / "norvig_top95.txt"))
    assert result.exit_code == 130
    assert "Aborted" not in result.output and "Traceback" not in result.output
    assert "Solved 0 of 0 puzzles" in result.stderr and "interrupted" in result.stderr


def test_ctrl_c_while_a_command_loads_is_one_line(monkeypatch):
    import importlib

    real = importlib.import_module

    def interrupted(name, *args):
        if name.endswith(".solve"):
            raise KeyboardInterrupt
        return real(name, *args)

    monkeypatch.setattr(importlib, "import_module", interrupted)
    result = run(HARD1)
    assert (result.exit_code, result.stderr) == (130, "sudokit: interrupted\n")


def test_a_mixed_file_streams_through_numpy_in_order(tmp_path):
    """Plain lines, comments, blank lines, CRLF, bad lines and another size mixed: every line answered in order."""
    rows = (DATA / "17_clue.txt").read_text().splitlines()[:3000]
    mixed = []
    for i, row in enumerate(rows):
        mixed.append(row)
        if i % 700 == 5:
            mixed += ["# a comment", "", "x" + row[1:], "1234" * 4]
    path = tmp_path / "m.txt"
    path.write_bytes(("\r\n".join(mixed) + "\r\n").encode())
    result = run(str(path))
    out = result.stdout.splitlines()
    assert result.exit_code == 2
    assert len(out) == len([m for m in mixed if m and not m.startswith("#")])
    puzzles = [m for m in mixed if m and not m.startswith("#")]
    for answer, puzzle in zip(out, puzzles):
        if puzzle.startswith("x"):
            assert answer.startswith("# line ") and answer.endswith(": unreadable")
        elif len(puzzle) == 16:
            assert answer.startswith("# line ") and "invalid" in answer
        else:
            assert is_solution(parse_grid(answer), parse_grid(puzzle))


def test_pencilmark_eliminations_are_respected_or_the_puzzle_is_refused(tmp_path):
    """solve works from the givens: with pencilmarks that remove more, its answer is checked against them."""
    from sudokit.formats import format_pencilmark
    from sudokit.grid import Candidates

    grid = parse_grid(TOP95_FIRST)
    masks = list(Candidates.of(grid).masks)
    solution = [int(ch) for ch in TOP95_FIRST_SOLUTION]
    empty = [s for s, v in enumerate(grid.values) if not v and masks[s].bit_count() > 1]
    spare = [s for s in empty if masks[s].bit_count() >= 3][0]
    wrong = list(masks)
    wrong[empty[0]] &= ~(1 << (solution[empty[0]] - 1))  # the solution's digit crossed out
    kept = list(masks)
    other = masks[spare] & ~(1 << (solution[spare] - 1))
    kept[spare] = 1 << (solution[spare] - 1) | (other & -other)  # two candidates left, the solution's among them
    loose = parse_grid("." * 81)
    open_marks = list(Candidates.of(loose).masks)
    open_marks[0] = 0b11  # the givens (none) have many solutions

    def line(m, g=grid):
        return format_pencilmark(Candidates(g.geometry, tuple(m)))

    assert run(line(wrong)).stdout == "no solution\n"
    assert run(line(kept), "-f", "line").stdout == TOP95_FIRST_SOLUTION + "\n"
    refused = run(line(open_marks))
    assert refused.exit_code == 2 and "does not use the eliminations of pencilmarks" in refused.stderr
    path = tmp_path / "p.txt"
    path.write_text("\n".join([line(wrong), line(kept), line(open_marks)]) + "\n")
    out = run(str(path)).stdout.splitlines()
    assert out == ["# line 1: no solution", TOP95_FIRST_SOLUTION, "# line 3: refused"]
