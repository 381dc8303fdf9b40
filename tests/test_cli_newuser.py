"""Issue 17, as a new user meets sudokit: every input answered right or refused clearly.

rate with a puzzle beyond the techniques, pencil marks as the logic's start, the story of empty, complete
and unsolvable grids, plurals, error lines, time limits of the generator, pictures."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from sudokit.cli import main
from sudokit.formats import format_pencilmark, parse_grid
from sudokit.grid import Candidates
from sudokit.logic import State, explain, hint

EASY = ".5.7.3.6...7...8.....816.......3......5...1..73..4..869.6...2.484.572.93...4.9..."
PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLVED = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
EMPTY = "." * 81
#: beyond every technique here (the issue's example): SE 20.0
BEYOND = "..29..1..3....6..........43.......5625..4......78.52....9.8....12....8..7..2...9."


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


# ---- 1. rate never loses a batch to one puzzle ------------------------------------------------
def test_band_of_a_puzzle_logic_does_not_finish():
    from sudokit.cli.commands.rate import _band

    assert _band(20.0, solved=False) == "beyond"
    assert _band(2.6) == "2.5-3.9"


def test_rate_batch_with_a_puzzle_beyond_the_techniques_keeps_every_line(tmp_path):
    f = tmp_path / "p.txt"
    f.write_text(f"{EASY}\n{BEYOND}\n{EASY}\n")
    # (the nested forcing chain now rates BEYOND 11.x: without the forcing chains it is beyond these techniques)
    result = run("rate", str(f), "--fast", "--no-progress", "--exclude", "forcing chain")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("1: ") and lines[2].startswith("3: ")
    assert lines[1].startswith("2: 20.0/") and "beyond these techniques" in lines[1]
    assert "3 puzzles" in result.output and "beyond" in result.output.split("SE rating:")[1]


# ---- 2. pencil marks are the state logic starts from ------------------------------------------
def _marks_after_first_elimination() -> tuple[Candidates, object]:
    """The pencil marks of PUZZLE once its path's first elimination step is made, and that step."""
    state = State.from_grid(parse_grid(PUZZLE))
    for step in explain(PUZZLE).steps:
        state.apply(step)
        if step.eliminations and not step.placements:
            masks = tuple(1 << (v - 1) if v else m for v, m in zip(state.values, state.cands))
            return Candidates(state.g, masks), step
    raise AssertionError("no elimination step")


def test_hint_from_pencil_marks_never_repeats_an_elimination_made():
    marks, made = _marks_after_first_elimination()
    api = hint(marks)
    assert api is not None and api.explanation != made.explanation
    assert not set(made.eliminations) & set(api.eliminations)
    line = format_pencilmark(marks)
    for args in (("hint", line, "--from", "pencilmark"), ("hint", "-", "--from", "pencilmark")):
        result = run(*args, input=line + "\n")
        assert result.exit_code == 0, result.output
        assert result.output.strip() == api.explanation  # the CLI and the API agree on the same state
    assert hint(line).explanation == api.explanation  # a pencilmark string is read as marks too


def test_explain_and_rate_start_from_pencil_marks(tmp_path):
    marks, _ = _marks_after_first_elimination()
    f = tmp_path / "marks.txt"
    f.write_text(format_pencilmark(marks) + "\n")
    path = explain(marks)
    out = run("explain", str(f), "--json")
    assert out.exit_code == 0, out.output
    assert len(json.loads(out.output)["steps"]) == len(path.steps) < len(explain(PUZZLE).steps)
    rated = run("rate", str(f), "--json", "--fast")
    assert json.loads(rated.output)["steps"] == len(path.steps)


def test_marks_that_remove_the_solution_have_no_solution():
    from sudokit.logic.rating import not_proper

    grid = parse_grid(PUZZLE)
    cands = list(Candidates.of(grid).masks)
    cands[1] &= ~(1 << 0)  # A2 is 1 in the only solution
    why = not_proper(Candidates(grid.geometry, tuple(cands)))
    assert why is not None and why.startswith("the puzzle has no solution") and "A2" in why
    result = run("hint", format_pencilmark(Candidates(grid.geometry, tuple(cands))), "--from", "pencilmark")
    assert result.exit_code == 1 and "no solution" in result.output


# ---- 9. one story for empty, complete and unsolvable grids -------------------------------------
@pytest.mark.parametrize("command", ["hint", "explain", "rate"])
def test_empty_grid_is_refused_alike(command):
    result = run(command, EMPTY)
    assert result.exit_code == 1
    assert "the grid is empty" in result.output


@pytest.mark.parametrize("command", ["hint", "explain"])
def test_complete_grid_is_said_alike(command):
    result = run(command, SOLVED)
    assert result.exit_code == 0
    assert result.output.strip() == "The grid is already complete: nothing to do."


def test_rate_of_a_complete_grid_names_no_empty_hardest_step():
    result = run("rate", SOLVED, "--fast")
    assert result.exit_code == 0
    hardest = next(line for line in result.output.splitlines() if line.startswith("hardest step:"))
    assert hardest.split(":", 1)[1].strip()


def test_stuck_logic_is_said_alike_and_exits_1():
    sentence = "Logic is stuck: no technique here applies, so the next step needs a guess."
    # a state where no technique applies: the pencil marks of the beyond-techniques puzzle at its path's end
    # (without the forcing chains: the nested forcing chain now finishes BEYOND)
    from sudokit.logic.registry import technique_set

    state = State.from_grid(parse_grid(BEYOND))
    for step in explain(BEYOND, techniques=technique_set(exclude="forcing chain")).steps:
        state.apply(step)
    stuck = Candidates(state.g, tuple(1 << (v - 1) if v else m for v, m in zip(state.values, state.cands)))
    h = run("hint", format_pencilmark(stuck), "--from", "pencilmark", "--exclude", "forcing chain")
    e = run("explain", BEYOND, "--exclude", "forcing chain")
    assert h.exit_code == e.exit_code == 1
    assert sentence in h.output and sentence in e.output


def test_generate_names_an_unknown_size_in_the_right_number():
    result = run("generate", "--size", "1")
    assert result.exit_code == 2 and "--size 1: no board has 1 digit (sizes: 4, 6" in result.stderr


def test_counts_are_in_the_right_number():
    from sudokit.words import plural

    assert plural(1, "digit") == "1 digit" and plural(2, "guess") == "2 guesses" and plural(0, "step") == "0 steps"


# ---- 7. one error line for click's errors and a busy port --------------------------------------
@pytest.mark.parametrize(
    ("args", "wanted"),
    [
        (("solv", PUZZLE), "sudokit: error: no such command 'solv'; did you mean 'solve'?"),
        (("solve", "--cont", PUZZLE), "sudokit: error: solve: no such option '--cont'. Did you mean '--count'?"),
        (("rules", "reproduc"), "sudokit: error: rules: no such command 'reproduc'; did you mean 'reproduce'?"),
        (("hint", "--level", "5", PUZZLE), "sudokit: error: hint: invalid value for '--level'"),
        (("show", "ab\ncd"), "sudokit: error: ab\\ncd: no such file"),
    ],
)
def test_usage_errors_are_one_line_with_exit_2(args, wanted):
    result = run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith(wanted), result.stderr


def test_serve_on_a_busy_port_is_one_error_line():
    import socket

    pytest.importorskip("uvicorn")
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    try:
        result = run("serve", "--port", str(busy.getsockname()[1]))
    finally:
        busy.close()
    assert result.exit_code == 2
    assert result.stdout == "" and len(result.stderr.splitlines()) == 1
    assert "cannot listen on 127.0.0.1:" in result.stderr and "in use" in result.stderr


# ---- 6. the generator's time limit holds inside an attempt; impossible clue counts fail at once -------
def test_too_few_clues_fail_at_once():
    from sudokit.errors import SudokitError
    from sudokit.generate import Generator
    from sudokit.geometry import standard

    with pytest.raises(SudokitError, match="at least 17 clues"):
        Generator(standard(), clues=10)
    Generator(standard(), clues="10-20")  # a range that reaches 17 is fine
    result = run("generate", "--clues", "10")
    assert result.exit_code == 2 and "at least 17 clues" in result.stderr


def test_digging_stops_at_the_deadline_with_the_unique_puzzle_so_far():
    import numpy as np

    from sudokit.generate import TimeLimitReached, dig, random_solution
    from sudokit.geometry import for_size

    g = for_size(16)
    rng = np.random.default_rng(3)
    solution = random_solution(g, rng)
    with pytest.raises(TimeLimitReached) as stop:
        dig(solution, g, rng, deadline=0.0)  # long past: not one uniqueness count is started
    assert np.array_equal(stop.value.partial, solution)


def test_time_limit_strikes_inside_an_attempt(monkeypatch):
    """A clock that moves one second per reading: the limit passes in the middle of the first dig, which
    must stop there (before, the attempt ran to the end whatever the limit) and give the unique puzzle so far."""
    import itertools

    import sudokit.generate as generate_package
    import sudokit.generate.generator as generate
    from sudokit.engine import count_solutions
    from sudokit.geometry import for_size

    ticks = itertools.count()
    monkeypatch.setattr(generate.time, "perf_counter", lambda: float(next(ticks)))
    found = generate_package.Generator(for_size(16), seed=2, time_limit=60).one()
    assert found.extra.get("minimal") is False
    assert 0 < found.puzzle.givens < 256
    assert count_solutions(found.puzzle, limit=2) == 1


# ---- 9. words: letters on big boards, plurals, the unit that repeats ------------------------------
def test_16x16_explanations_write_digits_in_the_board_letters(data_dir):
    import re

    from sudokit.formats import read_puzzles

    puzzle = next(iter(read_puzzles(data_dir / "sudoku16_janko.txt")))
    symbols = puzzle.geometry.symbols
    seen = 0
    for step in explain(puzzle).steps:
        for _, d in step.placements + step.eliminations:
            if d >= 10:
                seen += 1
                words = re.sub(r"(row|column|box|region) \d+", "", step.explanation)  # unit names keep numbers
                assert re.search(rf"(?<![\w]){d}(?!\d)", words) is None, step.explanation
                assert re.search(rf"(?<![\w]){symbols[d - 1]}(?!\w)", step.explanation), step.explanation
    assert seen


def test_check_with_21_units_names_the_unit_and_digit_that_repeat():
    swapped = SOLVED[:3] + SOLVED[4] + SOLVED[3] + SOLVED[5:]  # A4 and A5 swapped: column 4 holds 6 twice
    result = run("check", "--units", "21", swapped)
    assert result.exit_code == 1
    assert "digit 6 twice in column 4 (A4, G4), unit C4" in result.output


# ---- 10. pictures: jigsaw regions in the terminal, readable plots ------------------------------------
JIGSAW = "111122333111222333411222333445552666444555666444855566777888996777888999777889999"


def test_show_jigsaw_draws_the_region_boundaries():
    from sudokit.geometry import from_name
    from sudokit.grid import Grid
    from sudokit.render.terminal import board_text, grid_text

    result = run("show", "--no-color", "-V", f"jigsaw:{JIGSAW}", "." * 81)
    assert result.exit_code == 0, result.output
    lines = result.output.rstrip("\n").split("\n")
    assert len(lines) == 17  # nine rows and eight lines of boundaries
    assert lines[0].split("|")[0].count(".") == 4  # row 1: cells 1-4 are region 1, then a boundary
    assert lines[1].split() == ["+---+", "|"]  # under A4 (region 1 above region 2); the A6|A7 boundary goes on
    grid = Grid(from_name(f"jigsaw:{JIGSAW}"), (0,) * 81)
    assert grid_text(grid).plain == board_text(grid)  # the coloured board has the same characters


def test_plot_titles_name_the_measure_and_count_right(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    from sudokit.render import plots

    f = tmp_path / "one.txt"
    f.write_text(EASY + "\n")
    out = tmp_path / "r.png"
    result = run("plot", "ratings", str(f), "-o", str(out))
    assert result.exit_code == 0 and result.stderr.startswith(f"wrote {out}: 1 puzzle")
    figures = []
    monkeypatch.setattr(plots, "_save", lambda fig, path: figures.append(fig))
    run("plot", "ratings", str(f), "-o", str(out))
    assert figures[0].axes[0].get_title().startswith("SE-style rating of 1 puzzle in ")


def test_times_plot_labels_its_log_axis_without_overlap():
    pytest.importorskip("matplotlib")
    from sudokit.render.plots import times_plot

    fig = times_plot([3e-6, 5e-6, 1.2e-5, 2.9e-5], [0, 1, 3, 0])
    left = fig.axes[0]
    fig.canvas.draw()
    labels = [t for t in left.get_xticklabels(minor=True) if t.get_text()]
    assert not labels  # minor ticks carry no labels
    shown = [
        t
        for t in left.get_xticklabels()
        if t.get_text() and left.get_xlim()[0] <= t.get_position()[0] <= left.get_xlim()[1]
    ]
    boxes = [t.get_window_extent() for t in shown]
    assert len(boxes) >= 2
    assert all(a.x1 < b.x0 for a, b in zip(boxes, boxes[1:]))  # no two labels touch
    assert "µs" in left.get_xlabel()


# ---- 11. the notebook is committed with its pictures; CI writes no fixed /tmp file -------------------
def test_the_committed_notebook_shows_its_outputs():
    from pathlib import Path

    import nbformat

    path = Path(__file__).resolve().parents[1] / "examples" / "sudoku_story.ipynb"
    assert path.stat().st_size < 1_000_000  # pictures, not megabytes
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(c.outputs and c.execution_count for c in code)  # run top to bottom, outputs kept
    outputs = [o for c in code for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    data = [o.data for o in outputs if o.output_type in ("execute_result", "display_data")]
    assert sum("image/svg+xml" in d for d in data) >= 6 and sum("image/png" in d for d in data) == 1
    assert "/work/" not in path.read_text() and "/tmp/" not in path.read_text()  # no machine's paths


def test_ci_script_writes_no_fixed_tmp_file():
    from pathlib import Path

    script = (Path(__file__).resolve().parents[1] / ".ci" / "run").read_text()
    assert "/tmp" not in script and "mktemp" in script


def test_version_is_one_line_even_without_an_installed_package():
    result = run("--version")
    assert result.exit_code == 0 and result.output.strip().endswith("version 0.1.0")
