"""Plots: the AC-3 queue plot from real ac3 traces, solve-time and rating distributions."""

from __future__ import annotations

import pytest
from PIL import Image

from sudokit.errors import SudokitError
from sudokit.formats import parse_grid
from sudokit.methods import METHODS
from sudokit.render.plots import histogram_plot, queue_plot, times_plot

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.fixture(scope="module")
def hard_trace():
    return METHODS["ac3"](parse_grid(HARD), limit=1, trace=True).trace


def test_queue_plot_of_a_puzzle_ac3_solves_alone_has_one_panel(tmp_path):
    trace = METHODS["ac3"](parse_grid(EASY), trace=True).trace
    assert trace.queue_lengths and not trace.search_starts
    fig = queue_plot(trace, tmp_path / "q.png")
    assert len(fig.axes) == 1
    assert fig.axes[0].lines[0].get_ydata().tolist() == trace.queue_lengths
    assert Image.open(tmp_path / "q.png").size == (800, 400)


def test_queue_plot_shows_the_mac_calls_of_backtracking(tmp_path, hard_trace):
    assert hard_trace.search_starts
    fig = queue_plot(hard_trace, tmp_path / "q.png")
    assert len(fig.axes) == 2  # the whole run, and the first MAC calls enlarged
    labels = [line.get_label() for line in fig.axes[0].lines]
    assert labels[0] == "initial AC-3" and f"{len(hard_trace.search_starts)} calls" in labels[1]
    assert "needed backtracking" in fig.axes[0].get_title()
    assert Image.open(tmp_path / "q.png").size == (800, 650)
    assert (tmp_path / "q.png").stat().st_size > 20_000


def test_queue_plot_needs_an_ac3_trace():
    trace = METHODS["norvig"](parse_grid(EASY), trace=True).trace
    with pytest.raises(SudokitError, match="no AC-3 queue lengths"):
        queue_plot(trace)


def test_times_and_histogram_plots_write_pictures(tmp_path):
    fig = times_plot([0.001, 0.002, 0.0005, 0.01], [0, 1, 3, 0], tmp_path / "t.png")
    assert len(fig.axes) == 2 and "2 of 4 solved without guessing" in fig.axes[1].get_title()
    assert Image.open(tmp_path / "t.png").size == (1000, 400)
    histogram_plot([1.2, 1.5, 2.3, 7.1], tmp_path / "h.svg")
    assert (tmp_path / "h.svg").read_text().lstrip().startswith("<?xml")
    with pytest.raises(SudokitError, match=".png, .svg or .pdf"):
        histogram_plot([1.0], tmp_path / "h.jpg")


def test_plot_queue_command(run_cli, tmp_path):
    out = tmp_path / "queue.png"
    result = run_cli("plot", "queue", HARD, "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert "MAC calls" in result.stderr and "needed backtracking" in result.stderr
    assert Image.open(out).size == (800, 650)


def test_plot_times_command_over_a_file(run_cli, data_dir, tmp_path):
    out = tmp_path / "times.png"
    result = run_cli("plot", "times", str(data_dir / "norvig_top95.txt"), "-n", "6", "-m", "norvig", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert "6 puzzles" in result.stderr
    assert Image.open(out).size == (1000, 400)


def test_plot_times_of_the_engine_uses_the_batch_kernel_times(run_cli, data_dir, tmp_path):
    out = tmp_path / "times.png"
    path = tmp_path / "some.txt"
    hard1 = ".....6....59.....82....8....45........3........6..3.54...325..6.................."
    path.write_text("\n".join((data_dir / "norvig_top95.txt").read_text().split()[:40] + [hard1]) + "\n")
    result = run_cli("plot", "times", str(path), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert "40 puzzles" in result.stderr and "1 not solved" in result.stderr
    assert Image.open(out).size == (1000, 400)


@pytest.mark.parametrize("measure", ["clues", "norvig", "er"])
def test_plot_ratings_command(run_cli, data_dir, tmp_path, measure):
    out = tmp_path / f"{measure}.png"
    result = run_cli(
        "plot", "ratings", str(data_dir / "norvig_easy50.txt"), "-n", "5", "--measure", measure, "-o", str(out)
    )
    assert result.exit_code == 0, result.stderr
    assert Image.open(out).size == (800, 400)


def test_plot_commands_report_user_errors(run_cli, tmp_path):
    result = run_cli("plot", "queue", HARD, "-o", str(tmp_path / "q.gif"))
    assert result.exit_code == 2 and result.stderr.startswith("sudokit: error:")
    result = run_cli("plot", "times", str(tmp_path / "missing.txt"), "-o", str(tmp_path / "t.png"))
    assert result.exit_code == 2


def test_plot_ratings_leaves_out_improper_puzzles_and_says_so(run_cli, tmp_path):
    several = ".....6....59.....82....8....45........3........6..3.54...325..6.................."
    proper = ".5.7.3.6...7...8.....816.......3......5...1..73..4..869.6...2.484.572.93...4.9..."
    path = tmp_path / "mixed.txt"
    path.write_text(f"{several}\n{proper}\n")
    result = run_cli("plot", "ratings", str(path), "-o", str(tmp_path / "er.png"))
    assert result.exit_code == 0, result.stderr
    assert "1 puzzle, 1 left out (no er value" in result.stderr
