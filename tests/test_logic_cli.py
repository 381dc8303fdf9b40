"""``sudokit explain``, ``hint`` and ``rate`` from the command line."""

from __future__ import annotations

import json

from click.testing import CliRunner

from sudokit.cli import main

EASY = ".5.7.3.6...7...8.....816.......3......5...1..73..4..869.6...2.484.572.93...4.9..."


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_explain_prints_one_numbered_line_per_step_and_a_verdict():
    result = run("explain", EASY)
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert lines[0].startswith("1. [") or lines[0].lstrip().startswith("1. [")
    assert lines[-1].startswith("Solved by logic in")


def test_explain_json_lists_steps_with_highlights():
    result = run("explain", EASY, "--json")
    data = json.loads(result.output)
    assert data["solved"] is True
    assert set(data["steps"][0]) >= {"technique", "explanation", "rating", "cells", "placements", "links"}


def test_hint_level_one_is_gentle():
    result = run("hint", EASY, "--level", "1")
    assert result.exit_code == 0
    assert result.output.startswith("Look at ")


def test_rate_single_puzzle_shows_every_measure():
    result = run("rate", EASY)
    assert result.exit_code == 0, result.output
    for word in ("SE rating", "HoDoKu level: Easy", "Norvig level", "engine guesses"):
        assert word in result.output


def test_rate_file_streams_lines_and_a_summary(tmp_path):
    f = tmp_path / "p.txt"
    f.write_text(EASY + "\nnot a puzzle\n" + EASY + "\n")
    result = run("rate", str(f), "--fast", "--no-progress")
    assert result.exit_code == 2  # the bad line is reported, the batch goes on
    assert "2 puzzles" in result.output
    assert result.output.count("Easy (") == 2


def test_bad_puzzle_is_one_line_error():
    result = run("explain", "12345")
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_clashing_givens_are_a_user_error_not_a_stuck_path():
    result = run("explain", "11" + "." * 79)
    assert result.exit_code == 2
    assert "duplicate givens: digit 1 twice in row A (A1, A2)" in result.output


HARD1 = ".....6....59.....82....8....45........3........6..3.54...325..6.................."  # several solutions
NO_SOLUTION = "12345678.........9" + "." * 63  # A9 must be 9, but B9 holds it: no clash among givens


def test_explain_of_a_puzzle_with_several_solutions_leaves_out_uniqueness_techniques():
    result = run("explain", HARD1)
    assert result.exit_code == 1  # logic gets stuck on it: the same exit status as hint's
    assert "more than one solution; techniques that assume a unique solution are left out" in result.stderr
    assert "Unique Rectangle" not in result.stdout and "BUG" not in result.stdout


def test_hint_and_explain_of_a_puzzle_without_solution_stop_with_exit_one():
    for command in ("hint", "explain"):
        result = run(command, NO_SOLUTION)
        assert result.exit_code == 1
        assert result.stderr.strip() == "sudokit: the puzzle has no solution"


def test_rate_refuses_improper_puzzles_and_goes_on_with_the_file(tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_text(f"{HARD1}\n{EASY}\n{NO_SOLUTION}\n")
    result = run("rate", str(path), "--fast", "--no-progress")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "1: not rated: the puzzle has more than one solution"
    assert lines[1].startswith("2: ")
    assert lines[2] == "3: not rated: the puzzle has no solution"
    single = run("rate", HARD1)
    assert single.exit_code == 1 and "not rated: the puzzle has more than one solution" in single.stderr
    as_json = run("rate", str(path), "--json", "--fast")
    assert json.loads(as_json.stdout.splitlines()[2]) == {
        "line": 3,
        "puzzle": NO_SOLUTION,
        "error": "the puzzle has no solution",
    }
