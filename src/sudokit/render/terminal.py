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


def board_text(grid: Grid, candidates: Candidates | None = None) -> str:
    """The board as plain text: :func:`sudokit.formats.display` for boards with boxes; a board whose regions are
    not boxes (``jigsaw:MAP``) gets its region boundaries drawn, ``|`` between two cells of a row in different
    regions and ``---`` between two cells of a column in different regions, ``+`` where boundaries meet."""
    g = grid.geometry
    if g.box_rows:
        return display(grid, candidates)
    region = _regions(g)
    n, sym = g.size, g.symbols

    def cell_text(s: int) -> str:
        if grid.values[s]:
            return sym[grid.values[s] - 1]
        if candidates is not None:
            return "".join(sym[d - 1] for d in digits_of(candidates.masks[s])) or "-"
        return "."

    texts = [cell_text(s) for s in g.cells]
    w = max(len(t) for t in texts) + 2  # a cell's slot: its text with a space either side

    def bar(r: int, c: int) -> bool:  # a boundary between (r, c-1) and (r, c)
        return 0 < c < n and 0 <= r < n and region[g.cell(r, c - 1)] != region[g.cell(r, c)]

    def dash(r: int, c: int) -> bool:  # a boundary between (r-1, c) and (r, c)
        return 0 < r < n and 0 <= c < n and region[g.cell(r - 1, c)] != region[g.cell(r, c)]

    lines = []
    for r in range(n):
        if r:
            line = ""
            for c in range(n):
                if c:
                    across, down = dash(r, c - 1) or dash(r, c), bar(r - 1, c) or bar(r, c)
                    line += "+" if across and down else "-" if across else "|" if down else " "
                line += ("-" if dash(r, c) else " ") * w
            lines.append(line.rstrip())
        row = ""
        for c in range(n):
            if c:
                row += "|" if bar(r, c) else " "
            row += texts[g.cell(r, c)].center(w - 2).join("  ")
        lines.append(row.rstrip())
    return "\n".join(lines)


def _regions(g) -> list[int]:
    """For each cell, the index of its region (the unit of kind ``region`` or ``box`` it lies in)."""
    region = [0] * g.n_cells
    for u, cells in enumerate(g.units):
        if g.unit_kind(u) in ("region", "box"):
            for s in cells:
                region[s] = u
    return region


def grid_text(
    grid: Grid,
    candidates: Candidates | None = None,
    highlight: Highlight | dict | None = None,
    solution_of: Grid | None = None,
) -> Text:
    """The board as a rich ``Text`` whose plain characters equal ``board_text(grid, candidates)``."""
    from rich.text import Text

    g = grid.geometry
    spec = normalize(highlight, g)
    plain_lines = board_text(grid, candidates).split("\n")
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
        if set(line) <= set("-+| ") and set(line) & set("-+"):  # a line of boundaries, no cells
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
        stream.write(board_text(grid, candidates) + "\n")
        for line in extra:
            stream.write(line + "\n")
        return
    from rich.console import Console

    console = Console(file=stream, force_terminal=True, highlight=False, soft_wrap=True, no_color=False)
    console.print(grid_text(grid, candidates, highlight, solution_of))
    for line in extra:
        console.print(line, style=STYLES["mark"])
