"""Terminal boards: the seeds' display layout, coloured only on a terminal or when asked."""

from __future__ import annotations

import io
import re

from sudokit.formats import display, parse_grid
from sudokit.grid import Candidates
from sudokit.render.terminal import grid_text, print_grid, use_color

GRID1 = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLUTION1 = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def printed(*args, **kwargs) -> str:
    out = io.StringIO()
    print_grid(*args, file=out, **kwargs)
    return out.getvalue()


def test_plain_output_is_the_seeds_display_when_not_a_terminal():
    puzzle = parse_grid(GRID1)
    cands = Candidates.of(puzzle)
    assert printed(puzzle, cands) == display(puzzle, cands) + "\n"
    assert "\x1b[" not in printed(puzzle, cands, highlight={"cells": [0]})


def test_colour_adds_styles_but_not_characters():
    puzzle = parse_grid(GRID1)
    cands = Candidates.of(puzzle)
    spec = {"cells": [20], "units": [4], "eliminations": [(0, 4)], "placements": [(40, 6)]}
    text = printed(puzzle, cands, highlight=spec, color=True)
    assert "\x1b[" in text
    assert ANSI.sub("", text) == display(puzzle, cands) + "\n"


def test_eliminations_are_red_and_placed_digits_green():
    puzzle = parse_grid(GRID1)
    cands = Candidates.of(puzzle)
    text = grid_text(puzzle, cands, {"eliminations": [(0, 4)], "placements": [(0, 5)]})
    start = text.plain.index("45")  # A1's candidates, the first cell of the first line

    def style_at(pos: int) -> str:
        return " ".join(str(span.style) for span in text.spans if span.start <= pos < span.end)

    assert "red" in style_at(start) and "green" in style_at(start + 1)
    solved = grid_text(parse_grid(SOLUTION1), solution_of=puzzle)
    kinds = {str(span.style) for span in solved.spans}
    assert "bold" in kinds and "cyan" in kinds


def test_no_color_flag_and_environment_switch_colour_off(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert use_color(Tty()) is True
    assert use_color(Tty(), color=False) is False
    assert use_color(io.StringIO()) is False
    monkeypatch.setenv("NO_COLOR", "1")
    assert use_color(Tty()) is False


def test_links_are_listed_under_the_board():
    puzzle = parse_grid(GRID1)
    text = printed(puzzle, highlight={"links": [((0, 4), (1, 4), True)]})
    assert text.splitlines()[-1] == "link: A1:4 -> A2:4 (strong)"


def test_16x16_board_prints_with_letters():
    from sudokit.geometry import standard
    from sudokit.grid import Grid

    g = standard(4)
    grid = Grid(g, tuple([16] + [0] * 255))
    text = ANSI.sub("", printed(grid, color=True))
    assert text == display(grid) + "\n" and text.lstrip().startswith("G")
