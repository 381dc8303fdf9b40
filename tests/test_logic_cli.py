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
