"""The pencilmark ('sukaku') form: every candidate of every cell in one line.

For an ``n x n`` board the line has ``n**3`` characters; position ``row*n*n + col*n + (d-1)`` holds
the symbol of ``d`` when ``d`` is a candidate of that cell, else ``.`` (or ``0``). For 9x9 that is
the 729-character form used by Sukaku Explainer.
"""

from __future__ import annotations

from sudokit.errors import ParseError
from sudokit.geometry import BOX_SHAPES, Geometry, for_size
from sudokit.grid import Candidates


def parse_pencilmark(
    text: str, geometry: Geometry | None = None, source: str | None = None, line: int | None = None
) -> Candidates:
    """Read a pencilmark line into candidates; errors name the column."""
    body = text.strip()
    if geometry is None:
        size = round(len(body) ** (1 / 3))
        geometry = for_size(size) if size**3 == len(body) and size in BOX_SHAPES else for_size(9)
    n = geometry.size
    if len(body) != n**3:
        raise ParseError(f"a {n}x{n} pencilmark line has {n**3} characters, got {len(body)}", source, line, None)
    symbols = geometry.symbols
    masks = []
    for s in range(n * n):
        mask = 0
        for d in range(1, n + 1):
            pos = s * n + d - 1
            ch = body[pos].upper()
            if ch == symbols[d - 1]:
                mask |= 1 << (d - 1)
            elif ch not in ".0":
                want = f"{symbols[d - 1]!r} or '.'"
                raise ParseError(
                    f"bad character {body[pos]!r}: cell {geometry.label(s)} digit slot {d} takes {want}",
                    source,
                    line,
                    pos + 1,
                )
        if not mask:
            raise ParseError(f"cell {geometry.label(s)} has no candidate", source, line, s * n + 1)
        masks.append(mask)
    return Candidates(geometry, tuple(masks))


def format_pencilmark(candidates: Candidates) -> str:
    """The pencilmark line of some candidates."""
    g = candidates.geometry
    symbols = g.symbols
    return "".join(
        symbols[d - 1] if mask >> (d - 1) & 1 else "." for mask in candidates.masks for d in range(1, g.size + 1)
    )


def candidate_tokens(line: str) -> list[tuple[str, int]]:
    """The cell tokens of one row of a candidate grid with their 1-based columns (borders dropped)."""
    tokens = []
    col = 0
    for part in line.replace("|", " ").split(" "):
        if part and not set(part) <= set("-+=*"):
            tokens.append((part, col + 1))
        col += len(part) + 1
    return tokens


def parse_candidate_grid(
    text: str, geometry: Geometry | None = None, source: str | None = None, line: int | None = None
) -> Candidates:
    """Read a candidate grid: one token of candidate digits per cell, rows on lines, ``|``/``-`` borders.

    This is the layout the seeds' wide ``display`` prints (and many programs' pencilmark grids).
    """
    cells = []
    for offset, row in enumerate(text.split("\n")):
        cells += [(tok, offset, col) for tok, col in candidate_tokens(row)]
    if geometry is None:
        size = round(len(cells) ** 0.5)
        geometry = for_size(size if size * size == len(cells) and size in BOX_SHAPES else 9)
    first = line or 1
    if len(cells) != geometry.n_cells:
        raise ParseError(f"a candidate grid needs {geometry.n_cells} cells, got {len(cells)}", source, first, None)
    symbols = geometry.symbols
    masks = []
    for tok, offset, col in cells:
        mask = 0
        for i, ch in enumerate(tok.upper()):
            if ch not in symbols:
                raise ParseError(f"bad candidate {tok[i]!r}", source, first + offset, col + i)
            mask |= 1 << symbols.index(ch)
        masks.append(mask)
    return Candidates(geometry, tuple(masks))
