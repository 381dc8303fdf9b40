"""Boards in Jupyter: objects that display themselves as pictures.

``Grid`` and ``Result`` already show as boards (their ``_repr_svg_`` calls :func:`~.svg.board_svg`).
:class:`Board` adds what a bare grid cannot carry: candidates, a highlight (or a logic ``Step``), and
which digits were givens. :func:`side_by_side` puts several boards in a row with captions, for
before/after pictures::

    Board(grid, candidates, step)                  # a board with pencil marks and a step's highlight
    side_by_side(Board(before), Board(after), captions=["before", "after"])
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from sudokit.errors import SudokitError
from sudokit.grid import Candidates, Grid
from sudokit.render.highlight import Highlight


def as_candidates(candidates, grid: Grid) -> Candidates | None:
    """Accept a :class:`Candidates`, a list of bitmasks (the methods' ``values``), or None."""
    if candidates is None or isinstance(candidates, Candidates):
        return candidates
    return Candidates(grid.geometry, tuple(int(m) for m in candidates))


def as_highlight(highlight) -> Highlight | dict | None:
    """Accept a highlight dict, or anything with a ``highlight()`` method (a logic ``Step``)."""
    if highlight is not None and hasattr(highlight, "highlight"):
        return highlight.highlight()
    return highlight


@dataclass
class Board:
    """A board to display: grid, optional candidates (``Candidates`` or bitmasks) and highlight (dict or Step).

    ``solution_of`` is the puzzle whose givens are drawn as givens (the other digits as solved).
    """

    grid: Grid
    candidates: object = None
    highlight: object = None
    solution_of: Grid | None = None
    cell_size: float | None = None

    def _options(self) -> dict:
        return {
            "candidates": as_candidates(self.candidates, self.grid),
            "highlight": as_highlight(self.highlight),
            "solution_of": self.solution_of,
            "cell_size": self.cell_size,
        }

    def svg(self) -> str:
        """The board as SVG text."""
        from sudokit.render.svg import board_svg

        return board_svg(self.grid, **self._options())

    def png(self, scale: float = 1.0) -> bytes:
        """The board as PNG bytes."""
        from sudokit.render.png import board_png

        return board_png(self.grid, scale=scale, **self._options())

    def save(self, path: str | Path, scale: float = 2.0) -> Path:
        """Write the board to a ``.svg`` or ``.png`` file."""
        from sudokit.render.png import save_board

        return save_board(path, self.grid, scale=scale, **self._options())

    def _repr_svg_(self) -> str:
        return self.svg()


def candidates_board(values, geometry_or_grid) -> Board:
    """A board of candidates alone (the methods' bitmask lists): one-candidate cells show as digits."""
    grid = geometry_or_grid if isinstance(geometry_or_grid, Grid) else Grid.empty(geometry_or_grid)
    cands = as_candidates(values, grid)
    if cands is None:
        raise SudokitError("candidates_board needs candidates (a Candidates or a list of bitmasks)")
    return Board(cands.to_grid(), cands)


@dataclass
class Row:
    """Several boards in a row, each with a caption (HTML for notebooks)."""

    boards: list
    captions: list[str]

    def _repr_html_(self) -> str:
        cells = []
        for board, caption in zip(self.boards, self.captions):
            svg = board.svg() if hasattr(board, "svg") else board._repr_svg_()
            cells.append(
                '<figure style="margin:0 12px 0 0;text-align:center">'
                f'{svg}<figcaption style="font-family:sans-serif">{escape(caption)}</figcaption></figure>'
            )
        return '<div style="display:flex;flex-wrap:wrap;align-items:flex-start">' + "".join(cells) + "</div>"


def side_by_side(*boards, captions: list[str] | None = None) -> Row:
    """Boards (or grids) next to each other, with optional captions."""
    captions = list(captions or [""] * len(boards))
    if len(captions) != len(boards):
        raise ValueError("one caption per board")
    return Row(list(boards), captions)
