"""Boards in the terminal: the seeds' ``display`` layout, coloured with rich when the output is a terminal.

The coloured board has exactly the characters of :func:`sudokit.formats.display`; colour only adds
styles (givens bold, solved digits cyan, candidates dim, highlighted cells and units on a background,
eliminations red and struck through, placements green). When the output is not a terminal, or colour
is switched off (``color=False``, ``--no-color``, or the ``NO_COLOR`` environment variable), the plain
text is printed unchanged, so pipes and files get clean text.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, TextIO

from sudokit.formats import display
from sudokit.grid import Candidates, Grid, digits_of
from sudokit.render.highlight import Highlight, normalize

if TYPE_CHECKING:
    from rich.text import Text

STYLES = {
    "given": "bold",
    "solved": "cyan",
    "candidate": "dim",
    "cell": "black on yellow",
    "unit": "on grey23",
    "mark": "bold yellow",
    "elimination": "bold red strike",
    "placement": "bold green",
    "separator": "dim",
}


def use_color(file: TextIO | None = None, color: bool | None = None) -> bool:
    """Whether to colour: ``color`` when given, else only for a terminal and when ``NO_COLOR`` is unset."""
    if color is not None:
        return color
    stream = file or sys.stdout
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and "NO_COLOR" not in os.environ


def link_lines(grid: Grid, highlight: Highlight | dict | None) -> list[str]:
    """The chain links of a highlight, one line each (a terminal cannot draw arrows)."""
    g = grid.geometry
    spec = normalize(highlight, g)
    out = []
    for (s1, d1), (s2, d2), strong in spec["links"]:
        kind = "strong" if strong else "weak"
        out.append(f"link: {g.label(s1)}:{g.symbols[d1 - 1]} -> {g.label(s2)}:{g.symbols[d2 - 1]} ({kind})")
    return out


def grid_text(
    grid: Grid,
    candidates: Candidates | None = None,
    highlight: Highlight | dict | None = None,
    solution_of: Grid | None = None,
) -> Text:
    """The board as a rich ``Text`` whose plain characters equal ``display(grid, candidates)``."""
    from rich.text import Text

    g = grid.geometry
    spec = normalize(highlight, g)
    plain_lines = display(grid, candidates).split("\n")
    marks: dict[tuple[int, int], str] = {}
    for pairs, style in (
        (spec["candidates"], "mark"),
        (spec["eliminations"], "elimination"),
        (spec["placements"], "placement"),
    ):
        for s, d in pairs:
            marks[(s, d)] = STYLES[style]
    cell_bg = {s: STYLES["unit"] for u in spec["units"] for s in g.units[u]}
    cell_bg.update({s: STYLES["cell"] for s in spec["cells"]})
    # The plain layout puts each row's cells in order, separated by spaces and '|'; find each cell's
    # text in its line by walking the tokens, and style that span.
    out = Text()
    row = 0
    for i, line in enumerate(plain_lines):
        if i:
            out.append("\n")
        if set(line.strip()) <= set("-+") and line.strip():
            out.append(line, style=STYLES["separator"])
            continue
        text = Text(line)
        pos = 0
        for c in range(g.size):
            s = g.cell(row, c)
            while pos < len(line) and line[pos] in " |":
                if line[pos] == "|":
                    text.stylize(STYLES["separator"], pos, pos + 1)
                pos += 1
            start = pos
            while pos < len(line) and line[pos] not in " |":
                pos += 1
            _style_cell(text, start, pos, s, grid, candidates, solution_of, marks)
            if s in cell_bg:
                text.stylize(cell_bg[s], start, pos)
        out.append_text(text)
        row += 1
    return out


def _style_cell(text, start, end, s, grid, candidates, solution_of, marks) -> None:
    v = grid.values[s]
    if v:
        given = solution_of is None or bool(solution_of.values[s])
        style = STYLES["given"] if given else STYLES["solved"]
        if (s, v) in marks and marks[(s, v)] == STYLES["placement"]:
            style = STYLES["placement"]
        text.stylize(style, start, end)
        return
    if candidates is None:
        return
    digits = digits_of(candidates.masks[s])
    if len(digits) != end - start:  # a cell with no candidates shows '-'
        text.stylize(STYLES["candidate"], start, end)
        return
    for k, d in enumerate(digits):
        text.stylize(marks.get((s, d), STYLES["candidate"]), start + k, start + k + 1)


def print_grid(
    grid: Grid,
    candidates: Candidates | None = None,
    highlight: Highlight | dict | None = None,
    color: bool | None = None,
    file: TextIO | None = None,
    solution_of: Grid | None = None,
) -> None:
    """Print a board: coloured on a terminal (or when ``color=True``), plain text otherwise."""
    stream = file or sys.stdout
    extra = link_lines(grid, highlight)
    if not use_color(stream, color):
        normalize(highlight, grid.geometry)  # the same errors with or without colour
        stream.write(display(grid, candidates) + "\n")
        for line in extra:
            stream.write(line + "\n")
        return
    from rich.console import Console

    console = Console(file=stream, force_terminal=True, highlight=False, soft_wrap=True, no_color=False)
    console.print(grid_text(grid, candidates, highlight, solution_of))
    for line in extra:
        console.print(line, style=STYLES["mark"])
