"""Writers: one grid (or its candidates) as text in every supported layout."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping

from sudokit.errors import SudokitError
from sudokit.formats.pencilmark import format_pencilmark
from sudokit.grid import Candidates, Grid, digits_of

#: Output layouts accepted by :func:`format_grid` (and ``--to`` / ``--format`` on the command line).
WRITE_FORMATS = ("line", "sdm", "grid", "candidates", "sdk", "ss", "pencilmark", "csv")


def _box_shape(grid_or_cands) -> tuple[int, int]:
    g = grid_or_cands.geometry
    return (g.box_rows or 1, g.box_cols or g.size) if g.box_rows else (g.size, g.size)


def display(grid: Grid, candidates: Candidates | None = None, blank: str = ".") -> str:
    """A pretty grid with box separators, like the seeds' ``display``.

    With ``candidates``, empty cells show all their candidates (the notebook's wide display).
    """
    g = grid.geometry
    n = g.size
    box_rows, box_cols = _box_shape(grid)
    sym = g.symbols

    def cell_text(s: int) -> str:
        if grid.values[s]:
            return sym[grid.values[s] - 1]
        if candidates is not None:
            return "".join(sym[d - 1] for d in digits_of(candidates.masks[s])) or "-"
        return blank

    texts = [cell_text(s) for s in g.cells]
    width = max(len(t) for t in texts)
    lines = []
    for r in range(n):
        if r and r % box_rows == 0:
            lines.append("+".join(["-" * ((width + 1) * box_cols + 1)] * (n // box_cols)))
        parts = []
        for c in range(n):
            if c and c % box_cols == 0:
                parts.append("|")
            parts.append(texts[g.cell(r, c)].center(width))
        row = " ".join(parts)
        lines.append(" " + row.replace(" | ", " | ") + " ")
    return "\n".join(line.rstrip() for line in lines)


def format_ss(grid: Grid) -> str:
    """Simple Sudoku's framed ``.ss`` layout."""
    g = grid.geometry
    box_rows, box_cols = _box_shape(grid)
    n = g.size
    sym = g.symbols
    bands = n // box_cols
    frame = "*" + "-" * (n + bands - 1) + "*"
    inner = "|" + "+".join(["-" * box_cols] * bands) + "|"
    out = [frame]
    for r in range(n):
        if r and r % box_rows == 0:
            out.append(inner)
        cells = [sym[v - 1] if v else "." for v in grid.values[r * n : (r + 1) * n]]
        out.append("|" + "|".join("".join(cells[c : c + box_cols]) for c in range(0, n, box_cols)) + "|")
    out.append(frame)
    return "\n".join(out)


def format_sdk(grid: Grid, meta: dict[str, str] | None = None) -> str:
    """The ``.sdk`` layout: optional ``#X`` header lines, then one row of digits per line."""
    n = grid.geometry.size
    line = grid.to_line()
    header = [f"#{k}{v}" if len(k) == 1 else f"#C{k}: {v}" for k, v in (meta or {}).items()]
    return "\n".join(header + [line[r * n : (r + 1) * n] for r in range(n)])


def format_grid(
    grid: Grid,
    fmt: str = "line",
    solution: Grid | None = None,
    candidates: Candidates | None = None,
    meta: dict[str, str] | None = None,
) -> str:
    """``grid`` written in layout ``fmt`` (see :data:`WRITE_FORMATS`), without a trailing newline.

    ``csv`` writes one data row (``puzzle,solution``); use :func:`csv_header` for its header.
    """
    if fmt in ("line", "sdm"):
        return grid.to_line()
    if fmt == "grid":
        return display(grid)
    if fmt == "candidates":
        return display(grid, candidates or Candidates.of(grid))
    if fmt == "sdk":
        return format_sdk(grid, meta)
    if fmt == "ss":
        return format_ss(grid)
    if fmt == "pencilmark":
        return format_pencilmark(candidates or Candidates.of(grid))
    if fmt == "csv":
        out = io.StringIO()
        csv.writer(out, lineterminator="").writerow([grid.to_line(), solution.to_line() if solution else ""])
        return out.getvalue()
    raise SudokitError(f"unknown output format {fmt!r}; known: {', '.join(WRITE_FORMATS)}")


def csv_header() -> str:
    """The header row written before :func:`format_grid` CSV rows."""
    return "puzzle,solution"


def separator(fmt: str) -> str:
    """What stands between two puzzles in a file of layout ``fmt``."""
    return "\n\n" if fmt in ("grid", "candidates", "sdk", "ss") else "\n"


def line_rows(grids, geometry):
    """Many grids' one-line forms at once: a ``(k, n_cells + 1)`` uint8 array of text bytes, each row ending in LF
    (``.`` for empty cells), for :func:`spliced`."""
    import numpy as np

    from sudokit.formats.text import symbol_bytes

    k, n = grids.shape
    out = np.empty((k, n + 1), dtype=np.uint8)
    out[:, :n] = symbol_bytes(geometry.symbols)[grids]
    out[:, n] = 10
    return out


def spliced(rows, special: Mapping[int, str | None]) -> bytes:
    """The bytes of ``rows`` (one output line each) with the text of ``special`` (a row number -> its text,
    LF added, or None to leave the row out) in place of those rows."""
    if not special:
        return rows.tobytes()
    parts = []
    lo = 0
    for i, text in sorted(special.items()):
        parts.append(rows[lo:i].tobytes())
        if text is not None:
            parts.append((text + "\n").encode("utf-8"))
        lo = i + 1
    parts.append(rows[lo:].tobytes())
    return b"".join(parts)
