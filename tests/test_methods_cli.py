"""The methods' commands: stages (with --trace), compare, level; user errors are one line, exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "data"
GRID2 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLVED2 = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
HARD1 = ".....6....59.....82....8....45........3........6..3.54...325..6.................."


@pytest.mark.parametrize("name", ["stages", "compare", "level"])
def test_the_methods_commands_have_help(run_cli, name):
    result = run_cli(name, "--help")
    assert result.exit_code == 0 and "Usage:" in result.output


@pytest.mark.parametrize("method", ["udacity", "norvig", "ac3"])
def test_stages_prints_original_propagated_and_solution_side_by_side(run_cli, method):
    result = run_cli("stages", GRID2, "--method", method)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "Original puzzle" in lines[0] and f"After propagation ({method})" in lines[0] and "Solution" in lines[0]
    # the propagated board shows candidates (A2 keeps 1, 6, 7 and 9 after Norvig's and Udacity's propagation)
    assert "1679" in lines[2] or method == "ac3"
    # the solution's first row closes the first board line
    assert lines[2].rstrip().endswith("4 1 7 | 3 6 9 | 8 2 5")
    assert f"{method}: solved" in result.output and "nodes" in result.output


def test_stages_reports_the_ac3_counts_and_outcome(run_cli):
    result = run_cli("stages", GRID2, "-m", "ac3")
    assert "constraints 810 (x != y), directed arcs 1620" in result.output
    assert "outcome: needed backtracking" in result.output


def test_stages_reports_norvig_level_and_squares(run_cli):
    result = run_cli("stages", GRID2, "-m", "norvig", "--no-candidates")
    assert "squares = 17, level = 10^38" in result.output


def test_stages_writes_the_trace_as_json(run_cli, tmp_path):
    out = tmp_path / "trace.json"
    result = run_cli("stages", GRID2, "-m", "udacity", "--trace", str(out))
    assert result.exit_code == 0
    data = json.loads(out.read_text())
    assert data["method"] == "udacity" and data["puzzle"] == GRID2 and data["outcome"] == "solved"
    assert {e["kind"] for e in data["events"]} >= {"assign", "eliminate", "guess", "backtrack", "solved"}
    assert data["assignments"] and all(len(a) == 2 for a in data["assignments"])


def test_stages_on_hard1_stops_at_the_time_limit(run_cli):
    result = run_cli("stages", HARD1, "-m", "norvig", "--time-limit", "0.3")
    assert result.exit_code == 0 and "norvig: timeout: time limit of 0.3 s reached" in result.output


def test_stages_with_an_unknown_method_is_a_user_error(run_cli):
    result = run_cli("stages", GRID2, "-m", "dlx")
    assert result.exit_code == 2 and "unknown method 'dlx'" in result.stderr


def test_compare_tabulates_every_method_and_the_engine(run_cli):
    result = run_cli("compare", str(DATA / "norvig_hardest.txt"))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split()[:3] == ["solver", "puzzles", "solved"]
    rows = {line.split()[0]: line.split() for line in lines[2:]}
    assert {"udacity", "norvig", "ac3"} <= set(rows)
    assert "engine" in rows  # the engine ships with sudokit
    for row in rows.values():
        assert row[1:7] == ["11", "11", "0", "0", "0", "0"]  # puzzles, solved, multiple, none, timeout, wrong


def test_compare_checks_counts_from_the_file(run_cli):
    result = run_cli("compare", str(DATA / "tdoku_test_puzzles.txt"), "--max", "6", "-m", "norvig", "--no-engine")
    assert result.exit_code == 0
    row = result.output.splitlines()[2].split()
    assert row[0] == "norvig" and row[1] == "6" and row[6] == "0"


def test_level_prints_the_seeds_numbers(run_cli):
    result = run_cli("level", "85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.")
    assert result.exit_code == 0
    assert result.output.startswith("squares = 22\nlevel = 1.7e+25\n")
    assert "1369" in result.output  # A3's candidates after propagation, as in the seed


def test_level_of_a_file_prints_one_line_per_puzzle(run_cli):
    result = run_cli("level", str(DATA / "inkala.txt"))
    exponents = [line.split()[-1] for line in result.output.splitlines()]
    assert exponents == ["32", "31", "36", "25"]
