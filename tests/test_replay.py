"""Replays of real method traces: frames, the GIF and the self-contained HTML page."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from sudokit.errors import SudokitError
from sudokit.formats import parse_grid
from sudokit.geometry import diagonal
from sudokit.methods import METHODS
from sudokit.render.replay import replay_frames, replay_html, write_gif, write_replay

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.mark.parametrize("method", ["udacity", "norvig", "ac3"])
def test_frames_go_from_the_puzzle_to_the_solution(method):
    puzzle = parse_grid(HARD)
    result = METHODS[method](puzzle, trace=True)
    frames = replay_frames(result.trace, max_frames=1000)
    assert frames[0].grid == puzzle and frames[0].changed == ()
    assert frames[-1].grid == result.solution and frames[-1].grid.is_solution_of(puzzle)
    assert frames[-1].caption.endswith("solved")
    for before, after in zip(frames, frames[1:]):
        assert after.changed == tuple(s for s in range(81) if before.grid.values[s] != after.grid.values[s])
        assert all(after.grid.values[s] == v for s, v in enumerate(puzzle.values) if v)  # givens stay
    guesses = [f for f in frames if "search" in f.caption]
    assert guesses  # this puzzle needs search; norvig and ac3 also back up before their first solution
    assert any(f.backtrack for f in frames) == (method != "udacity")


def test_long_solves_are_thinned_keeping_the_first_and_last_frame():
    puzzle = parse_grid(HARD)
    trace = METHODS["norvig"](puzzle, trace=True).trace
    frames = replay_frames(trace, max_frames=20)
    assert len(frames) == 20
    assert frames[0].grid == puzzle and frames[-1].grid.is_solution_of(puzzle)
    with pytest.raises(SudokitError):
        replay_frames(trace, max_frames=1)


def test_gif_has_one_frame_per_replay_frame(tmp_path):
    puzzle = parse_grid(EASY)
    frames = replay_frames(METHODS["udacity"](puzzle, trace=True).trace)
    path = write_gif(frames, tmp_path / "solve.gif")
    image = Image.open(path)
    assert image.format == "GIF" and image.n_frames == len(frames) == 1 + (81 - puzzle.givens)
    assert image.size[0] > 400 and image.size[1] > image.size[0]  # the caption band below the board
    assert image.info.get("loop") == 0


def test_html_replay_is_self_contained_and_holds_every_frame(tmp_path):
    puzzle = parse_grid(EASY)
    trace = METHODS["ac3"](puzzle, trace=True).trace
    path = write_replay(trace, tmp_path / "solve.html")
    page = path.read_text()
    assert "<script src" not in page and "<link" not in page and "https://" not in page
    svg = re.search(r"<svg.*?</svg>", page, re.S).group(0)
    root = ET.fromstring(svg)
    slots = [t for t in root.iter("{http://www.w3.org/2000/svg}text") if (t.get("id") or "").startswith("cell-")]
    assert len(slots) == 81  # givens and a slot for every empty cell
    data = json.loads(re.search(r"const DATA = (\{.*?\});\n", page).group(1))
    assert len(data["frames"]) == len(replay_frames(trace))
    assert data["frames"][-1]["board"] == trace.puzzle.to_line() or parse_grid(data["frames"][-1]["board"]).is_complete


def test_replay_of_a_diagonal_puzzle(tmp_path):
    puzzle = parse_grid(
        "2.............62....1....7...6..8...3...9...7...6..4...4....8....52.............3", geometry=diagonal()
    )
    trace = METHODS["udacity"](puzzle, trace=True).trace
    html = replay_html(replay_frames(trace, 50))
    assert html.count("<svg") == 1


def test_write_replay_rejects_other_suffixes(tmp_path):
    trace = METHODS["norvig"](parse_grid(EASY), trace=True).trace
    with pytest.raises(SudokitError, match=".gif or .html"):
        write_replay(trace, tmp_path / "solve.mp4")


def test_replay_command_writes_gif_and_html(run_cli, tmp_path):
    gif = tmp_path / "solve.gif"
    result = run_cli("replay", HARD, "--method", "norvig", "--max-frames", "40", "-o", str(gif))
    assert result.exit_code == 0, result.stderr
    assert Image.open(gif).n_frames == 40 and "40 frames (solved)" in result.stderr
    html = tmp_path / "solve.html"
    result = run_cli("replay", EASY, "-m", "ac3", "-o", str(html))
    assert result.exit_code == 0 and html.read_text().startswith("<!DOCTYPE html>")
    result = run_cli("replay", EASY, "-o", str(tmp_path / "solve.png"))
    assert result.exit_code == 2 and result.stderr.startswith("sudokit: error:")


def test_gif_marks_filled_cells_yellow_and_cleared_cells_red(tmp_path):
    from sudokit.render.scene import PALETTE, board_scene

    puzzle = parse_grid(HARD)
    frames = replay_frames(METHODS["norvig"](puzzle, limit=1, trace=True).trace, max_frames=60)
    image = Image.open(write_gif(frames, tmp_path / "solve.gif"))
    scene = board_scene(puzzle)
    ox, oy = scene.origin

    def colour_at(index: int, cell: int) -> tuple[int, int, int]:
        image.seek(index)
        x = ox + (cell % 9) * scene.cell_size + scene.cell_size * 0.15  # inside the mark, clear of the digit
        y = oy + (cell // 9) * scene.cell_size + scene.cell_size * 0.15
        return image.convert("RGB").getpixel((round(x), round(y)))

    def close(rgb, hex_colour: str) -> bool:
        want = tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
        return all(abs(a - b) <= 12 for a, b in zip(rgb, want))

    back = next(i for i, f in enumerate(frames) if any(not f.grid.values[s] for s in f.changed))
    cleared = next(s for s in frames[back].changed if not frames[back].grid.values[s])
    assert close(colour_at(back, cleared), PALETTE["elimination_bg"])
    filled = next(i for i, f in enumerate(frames) if f.changed and all(f.grid.values[s] for s in f.changed))
    assert close(colour_at(filled, frames[filled].changed[0]), PALETTE["cell"])
