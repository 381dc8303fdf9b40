"""One grid from text: the 81-character line (any size) and Norvig's lenient multi-line form.

Characters:

- a digit is written by its symbol: ``1-9``, then ``A`` = 10 ... ``G`` = 16 (16x16), ... ``P`` = 25
  (25x25); lower case is accepted;
- an empty cell is ``.`` (and ``0`` unless ``strict``);
- in lenient mode (the default, as in Norvig's ``grid_values``) layout characters are ignored:
  whitespace and punctuation such as ``| - + * = :``. A letter is never layout: a letter that is not
  a digit of the board is reported as a bad character, so a typo cannot silently shift the grid.
- in strict mode the text must be exactly the cells, one character each, ``.`` for empty.

Errors name the line and column (1-based) of the offending character.
"""

from __future__ import annotations

from functools import lru_cache

from sudokit.errors import ParseError, SudokitError
from sudokit.geometry import BOX_SHAPES, DIGIT_SYMBOLS, Geometry, for_cells
from sudokit.grid import Grid

EMPTY = ".0"
_KNOWN_CELL_COUNTS = {n * n for n in BOX_SHAPES}


@lru_cache(maxsize=64)
def _symbol_values(size: int) -> dict[str, int]:
    table = {}
    for d, ch in enumerate(DIGIT_SYMBOLS[:size], start=1):
        table[ch] = d
        table[ch.lower()] = d
    return table


#: How strictly :func:`parse_grid` reads: ``lenient`` skips layout (Norvig), ``line`` takes every
#: character as a cell (``.``/``0`` empty), ``strict`` is ``line`` with only ``.`` for empty.
MODES = ("lenient", "line", "strict")


def _scan(text: str, mode: str) -> list[tuple[str, int, int]]:
    """The cell characters of ``text`` with their (line, column); lenient mode drops layout."""
    cells = []
    line, col = 1, 0
    for ch in text:
        if ch == "\n":
            line, col = line + 1, 0
            continue
        col += 1
        if mode != "lenient" or ch.isalnum() or ch == ".":
            cells.append((ch, line, col))
    return cells


def parse_grid(
    text: str,
    geometry: Geometry | None = None,
    strict: bool = False,
    source: str | None = None,
    line: int | None = None,
    mode: str | None = None,
) -> Grid:
    """Read one puzzle or grid from ``text``.

    ``mode`` is one of :data:`MODES` (``strict=True`` is short for ``mode="strict"``; the default is
    ``lenient``). Without ``geometry`` the board size comes from the number of cells (16 -> 4x4,
    81 -> 9x9, 256 -> 16x16, ...; 9x9 when the count fits no board, so the error speaks of 81).
    ``source`` and ``line`` place error messages in a file (``line`` is the file line of the text's
    first line).
    """
    if not isinstance(text, str):
        raise SudokitError(f"a puzzle must be given as text (str), not {type(text).__name__}")
    if geometry is not None and not isinstance(geometry, Geometry):
        raise SudokitError(f"geometry must be a Geometry (e.g. sudokit.standard()), not {type(geometry).__name__}")
    mode = mode or ("strict" if strict else "lenient")
    if mode not in MODES:
        raise SudokitError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    fast = _one_run(text.strip("\r\n"), geometry, mode == "strict")
    if fast is not None:
        return fast
    cells = _scan(text.strip("\r\n") if mode != "lenient" else text, mode)
    if geometry is None:
        geometry = for_cells(len(cells)) if len(cells) in _KNOWN_CELL_COUNTS else for_cells(81)
    n_cells = geometry.n_cells
    values_of = _symbol_values(geometry.size)
    empties = "." if mode == "strict" else EMPTY
    first = line or 1

    def err(message: str, at_line: int | None, col: int | None) -> ParseError:
        return ParseError(message, source, None if at_line is None else first + at_line - 1, col)

    if not cells:
        raise err(f"empty puzzle: expected {n_cells} cells", 1, None)
    values = []
    for ch, ln, col in cells:
        if ch in empties:
            values.append(0)
        elif ch in values_of:
            values.append(values_of[ch])
        elif ch == "0":
            raise err("bad character '0': strict format writes an empty cell as '.'", ln, col)
        elif ch.isspace():
            raise err(f"unexpected white space inside the grid (expected {n_cells} cells in one run)", ln, col)
        else:
            raise err(f"bad character {ch!r}: not a digit of a {geometry.size}x{geometry.size} board", ln, col)
        if len(values) > n_cells:
            raise err(f"too many cells: more than {n_cells}", ln, col)
    if len(values) < n_cells:
        _, ln, _ = cells[-1]
        raise err(f"too few cells: {len(values)} of {n_cells}", ln, None)
    return Grid(geometry, tuple(values))


@lru_cache(maxsize=128)
def _cell_values(size: int, strict: bool) -> dict[str, int]:
    """Every character that is a whole cell of a ``size`` board: its digit, 0 for empty."""
    table = dict(_symbol_values(size))
    table["."] = 0
    if not strict:
        table["0"] = 0
    return table


def _one_run(text: str, geometry: Geometry | None, strict: bool) -> Grid | None:
    """The common case read quickly: ``text`` is exactly the cells, each a valid character. None otherwise
    (then the careful reader of :func:`parse_grid` finds the layout, or the error and where it is)."""
    if geometry is None:
        if len(text) not in _KNOWN_CELL_COUNTS:
            return None
        geometry = for_cells(len(text))
    elif len(text) != geometry.n_cells:
        return None
    try:
        values = tuple(map(_cell_values(geometry.size, strict).__getitem__, text))
    except KeyError:
        return None
    return Grid(geometry, values)


def format_line(grid: Grid, blank: str = ".") -> str:
    """The one-line form: one symbol per cell, row by row."""
    return grid.to_line(blank)


def check_givens(grid: Grid, source: str | None = None, line: int | None = None, one_line: bool = True) -> Grid:
    """Raise a :class:`ParseError` naming the unit and cells when two givens clash; else return ``grid``.

    For one-line text the column is the second clashing cell's; multi-line text gives no column (the
    message names the cells).
    """
    found = grid.conflicts()
    if found:
        c = found[0]
        col = c.cells[1] + 1 if one_line else None
        raise ParseError(f"duplicate givens: {c.describe(grid.geometry)}", source, line, col)
    return grid


@lru_cache(maxsize=64)
def byte_table(size: int, strict: bool = False):
    """Byte -> cell value for plain lines read with numpy: :func:`_cell_values` as a 256-entry uint8 table,
    255 for a byte that is not a cell of a ``size`` board."""
    import numpy as np

    table = np.full(256, 255, dtype=np.uint8)
    for ch, value in _cell_values(size, strict).items():
        table[ord(ch)] = value
    table.flags.writeable = False
    return table


@lru_cache(maxsize=64)
def symbol_bytes(symbols: str):
    """Cell value -> byte of its symbol (``.`` for empty), to write many grids at once with numpy."""
    import numpy as np

    return np.frombuffer(("." + symbols).encode("ascii"), dtype=np.uint8)
