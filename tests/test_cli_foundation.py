"""The foundation commands: show, check, convert; user errors are one line on stderr with exit code 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "data"
PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLVED = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"


def test_top_level_help_lists_the_foundation_commands(run_cli):
    result = run_cli("--help")
    assert result.exit_code == 0
    for name in ("show", "check", "convert"):
        assert name in result.output


@pytest.mark.parametrize("name", ["show", "check", "convert"])
def test_every_command_has_help(run_cli, name):
    result = run_cli(name, "--help")
    assert result.exit_code == 0 and "Usage:" in result.output


def test_show_prints_a_pretty_grid(run_cli):
    result = run_cli("show", "--no-color", PUZZLE)
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert len(lines) == 11 and "|" in lines[0] and "+" in lines[3]


def test_show_reads_stdin(run_cli):
    result = run_cli("show", "--no-color", "-", input=PUZZLE + "\n")
    assert result.exit_code == 0 and result.output.count("|") == 18


def test_check_accepts_a_valid_grid_and_rejects_a_broken_one(run_cli):
    assert run_cli("check", SOLVED).exit_code == 0
    broken = "1" + SOLVED[1:]
    result = run_cli("check", broken)
    assert result.exit_code == 1
    assert "not a valid grid" in result.output


def test_check_reports_each_line_of_a_file(run_cli):
    result = run_cli("check", str(DATA / "norvig_hardest.txt"))
    assert result.exit_code == 0
    assert result.output.count("ok: consistent puzzle") == 11


def test_check_flags_duplicate_givens_as_inconsistent(run_cli):
    result = run_cli("check", "55" + "." * 79)
    assert result.exit_code == 1
    assert "digit 5 twice in row A (A1, A2)" in result.output


def test_convert_to_csv_and_back(run_cli, tmp_path):
    out = tmp_path / "top95.csv"
    assert run_cli("convert", str(DATA / "norvig_top95.txt"), "--to", "csv", "-o", str(out)).exit_code == 0
    assert out.read_text().splitlines()[0] == "puzzle,solution"
    back = run_cli("convert", str(out), "--to", "line")
    assert back.exit_code == 0
    assert back.output == (DATA / "norvig_top95.txt").read_text()


def test_convert_skips_and_reports_a_bad_line_but_keeps_the_rest(run_cli, tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_text(PUZZLE + "\n" + PUZZLE[:80] + "\n" + PUZZLE + "\n")
    result = run_cli("convert", str(path), "--to", "line")
    assert result.exit_code == 2
    assert result.stdout.splitlines() == [PUZZLE, PUZZLE]
    assert result.stderr.strip() == f"sudokit: error: {path}:2: too few cells: 80 of 81"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["show", PUZZLE[:80]], "<argument>:1: too few cells: 80 of 81"),
        (["show", PUZZLE + "."], "<argument>:1:82: too many cells: more than 81"),
        (["show", PUZZLE[:10] + "x" + PUZZLE[11:]], "<argument>:1:11: bad character 'x'"),
        (["show", "55" + "." * 79], "<argument>:1:2: duplicate givens: digit 5 twice in row A (A1, A2)"),
        (["show", "missing.txt"], "missing.txt: no such file"),
        (["show", "data/top95"], "data/top95: no such file"),
        (["show", "puzzles"], "puzzles: no such file, and too short to be a puzzle"),
        (["show", "--variant", "hexagonal", PUZZLE], "unknown variant 'hexagonal'"),
        (["convert", PUZZLE, "--to", "pdf"], "convert: invalid value for '--to'"),
    ],
)
def test_user_errors_are_one_line_with_exit_code_2(run_cli, args, message):
    result = run_cli(*args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_strict_format_refuses_zero(run_cli, tmp_path):
    path = tmp_path / "zeros.txt"
    path.write_text("0" * 81 + "\n")
    result = run_cli("show", "--from", "line", str(path))
    assert result.exit_code == 0  # line format allows 0 for empty
    result = subprocess.run(
        [sys.executable, "-m", "sudokit", "show", "--strict", str(path)], capture_output=True, text=True
    )
    assert result.returncode == 2
    assert f"{path}:1:1: bad character '0'" in result.stderr


def test_binary_file_gives_a_clear_error(run_cli, tmp_path):
    path = tmp_path / "image.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    result = run_cli("show", str(path))
    assert result.exit_code == 2
    assert f"{path}:1:1: not UTF-8 text" in result.stderr


def test_empty_file_says_so(run_cli, tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text("")
    result = run_cli("show", str(path))
    assert result.exit_code == 2
    assert "no puzzle" in result.stderr


def test_console_script_runs_without_traceback_on_bad_input():
    result = subprocess.run([sys.executable, "-m", "sudokit", "show", "1" * 20], capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr.startswith("sudokit: error: ") and "Traceback" not in result.stderr


def test_a_size_free_variant_applies_at_each_puzzles_own_size(run_cli):
    grid16 = (DATA / "sudoku16_janko.solutions.txt").read_text().splitlines()[0]
    assert run_cli("check", grid16).exit_code == 0
    result = run_cli("check", "--variant", "diagonal", grid16)
    assert result.exit_code == 1 and "diagonal" in result.output
    assert run_cli("check", "--variant", "diagonal", SOLVED).exit_code == 1
    assert run_cli("check", "--variant", "6x6", SOLVED).exit_code == 2  # 81 cells cannot be a 6x6 board


def test_check_with_21_units_agrees_with_27_on_valid_and_broken_grids(run_cli):
    assert run_cli("check", "--units", "21", SOLVED).exit_code == 0
    swapped = SOLVED[1] + SOLVED[0] + SOLVED[2:]  # breaks columns 1 and 2 and the rows stay valid
    result = run_cli("check", "--units", "21", swapped)
    assert result.exit_code == 1 and "checked with 21 units" in result.output
    assert run_cli("check", swapped).exit_code == 1


def test_check_with_21_units_refuses_other_sizes(run_cli):
    grid16 = (DATA / "sudoku16_janko.solutions.txt").read_text().splitlines()[0]
    result = run_cli("check", "--units", "21", grid16)
    assert result.exit_code == 2 and "standard 9x9" in result.stderr


# ---- batch commands: one bad line costs that line only, one exit rule (issue 16 items 1 and 7) --------------
def _with_a_stray_byte(tmp_path) -> str:
    path = tmp_path / "f.txt"
    path.write_bytes(PUZZLE.encode() + b"\n\xff\n" + SOLVED.encode() + b"\n")
    return str(path)


@pytest.mark.parametrize("command", ["solve", "check", "canon", "convert --to line", "solve --count"])
def test_every_batch_command_answers_the_other_lines_and_exits_2(run_cli, tmp_path, command):
    path = _with_a_stray_byte(tmp_path)
    result = run_cli(*command.split(), path)
    assert result.exit_code == 2
    assert result.stderr.count("f.txt:2:1: not UTF-8 text (byte 0xff)") == 1
    out = result.stdout.splitlines()
    if command == "check":
        assert out == [
            f"{path}:1: ok: consistent puzzle (17 givens, 64 empty cells)",
            f"{path}:3: ok: valid complete grid",
        ]
    elif command == "convert --to line":
        assert out == [PUZZLE, SOLVED]
    elif command == "canon":
        assert len(out) == 2
    else:
        assert len([line for line in out if not line.startswith("#")]) == 2


def test_convert_writes_the_same_from_the_array_as_one_by_one(run_cli, tmp_path):
    """One-line output comes from numpy for plain rows and from format_grid for the rest, in input order."""
    clash = "11" + "." * 79
    lines = [PUZZLE, "# note", SOLVED + " extra", clash, "12" + "." * 14, PUZZLE.replace(".", "0")] * 30
    path = tmp_path / "m.txt"
    path.write_text("\n".join(lines) + "\n")
    result = run_cli("convert", str(path), "--to", "csv")
    assert result.exit_code == 2  # the clashing givens are refused
    assert result.stderr.count("duplicate givens") == 30
    expected = ["puzzle,solution"] + [f"{p}," for p in [PUZZLE, SOLVED, "12" + "." * 14, PUZZLE] * 30]
    assert result.stdout.splitlines() == expected


def test_check_names_a_clash_found_by_the_array_check(run_cli, tmp_path):
    path = tmp_path / "c.txt"
    broken = SOLVED[:-1] + "2"
    path.write_text("\n".join([SOLVED, broken, PUZZLE[:2] + "4" + PUZZLE[3:]]) + "\n")
    result = run_cli("check", str(path))
    assert result.exit_code == 1
    out = result.stdout.splitlines()
    assert out[0].endswith("ok: valid complete grid")
    assert out[1].endswith("FAIL: not a valid grid: digit 2 twice in row I (I7, I9)")
    assert "FAIL: inconsistent puzzle: digit 4 twice in row A (A1, A3)" in out[2]
