"""Streaming readers: every supported file layout, one :class:`Entry` at a time, in constant memory.

Layouts (``fmt``), detected from the file name and first lines when ``auto``:

- ``line`` (also ``.sdm``): one puzzle per line, ``.`` or ``0`` for empty; blank lines and lines
  starting with ``#`` are skipped; text after the grid and a space is kept in ``meta['extra']``
  (rated lists such as ``<81 chars> ED=11.9/11.9/11.3``).
- ``tdoku``: ``puzzle:count[:solution]`` lines (tdoku's test file).
- ``csv``: a header row naming a puzzle column (``puzzle``/``quizzes``/``quiz``) and optionally a
  solution column (``solution``/``solutions``).
- ``pencilmark``: the 729-character candidate form, one per line (see :mod:`.pencilmark`).
- ``candidates``: multi-line candidate grids, one token of candidate digits per cell (the seeds'
  wide ``display``); a cell with one candidate counts as filled.
- ``grid``: multi-line grids in any layout (Norvig's ``display``, ``.ss`` frames, ``.sdk`` with
  ``#`` header lines, easy50's blocks separated by ``=====``): layout characters are skipped and a
  puzzle ends when it has all its cells.
"""

from __future__ import annotations

import csv
import io
import os
import sys
from collections import Counter
from collections.abc import Iterator
from itertools import chain
from typing import BinaryIO

from sudokit.errors import ParseError, SudokitError
from sudokit.formats.blocks import Block, byte_blocks, decode_line, decoded_lines, entry_blocks, line_blocks
from sudokit.formats.entry import Entry
from sudokit.formats.pencilmark import candidate_tokens, parse_candidate_grid, parse_pencilmark
from sudokit.formats.text import parse_grid
from sudokit.geometry import BOX_SHAPES, Geometry

FORMATS = ("auto", "line", "sdm", "tdoku", "csv", "pencilmark", "grid", "candidates", "sdk", "ss")
_EXTENSIONS = {".csv": "csv", ".sdk": "grid", ".ss": "grid", ".sdm": "line"}
_CELL_COUNTS = sorted(n * n for n in BOX_SHAPES)
_HEAD_LINES = 12  # lines looked at to detect the layout


def _is_skippable(text: str) -> bool:
    stripped = text.strip()
    return not stripped or stripped.startswith("#")


def detect_format(name: str, first_lines: list[str]) -> str:
    """Guess the layout from a file name and its first non-comment lines."""
    ext = os.path.splitext(name)[1].lower()
    if ext in _EXTENSIONS:
        return _EXTENSIONS[ext]
    content = [t.strip() for t in first_lines if not _is_skippable(t)]
    if not content:
        return "line"
    first = content[0]
    if "," in first and any(w in first.lower() for w in ("puzzle", "quiz")):
        return "csv"
    # One puzzle per line: the layout most of the lines show, so that one bad line at the top (80 cells, a typo)
    # does not turn the file into multi-line grids, where it would swallow the puzzle on the next line.
    kinds = Counter(kind for kind in map(_one_line_kind, content) if kind is not None)
    if kinds:
        kind, seen = kinds.most_common(1)[0]
        if _one_line_kind(first) == kind or 2 * seen >= len(content):
            return kind
    if any(_is_candidate_row(t) for t in content):
        return "candidates"
    return "grid"


def _one_line_kind(text: str) -> str | None:
    """The one-puzzle-per-line layout a content line is written in (``tdoku``, ``pencilmark``, ``line``), or None
    for a line that holds less than a puzzle (a row of a multi-line grid, a bad line)."""
    token = text.split()[0] if text.split() else text
    if ":" in token and len(token.split(":")[0]) in _CELL_COUNTS:
        return "tdoku"
    if len(token) == 729:
        return "pencilmark"
    if len(token) in _CELL_COUNTS and len(token) >= 16:
        return "line"
    return None


def _is_candidate_row(text: str) -> bool:
    """A row of a candidate grid: a board's width of cell tokens, all digits/letters, some holding several."""
    tokens = [tok for tok, _ in candidate_tokens(text)]
    return len(tokens) in BOX_SHAPES and all(t.isalnum() for t in tokens) and any(len(t) > 1 for t in tokens)


def read_blocks(
    path_or_stream: str | os.PathLike | BinaryIO,
    fmt: str = "auto",
    geometry: Geometry | None = None,
    source: str | None = None,
    strict: bool = False,
) -> Iterator[Block]:
    """Every puzzle of a file (``-`` is stdin) in :class:`~sudokit.formats.blocks.Block` s, in input order: the
    batch commands' reader. One-line puzzles are read by numpy a block at a time; otherwise as
    :func:`read_entries`, whose entries it gives, grouped."""
    return _read(path_or_stream, fmt, geometry, source, strict, True)


def read_entries(
    path_or_stream: str | os.PathLike | BinaryIO,
    fmt: str = "auto",
    geometry: Geometry | None = None,
    source: str | None = None,
    strict: bool = False,
) -> Iterator[Entry]:
    """Yield every puzzle of a file (``-`` is stdin) as an :class:`Entry`, bad ones with their error.

    A bad line (not UTF-8, a NUL, over a MiB, not a puzzle) is one error entry; the lines around it are read.
    Raises :class:`~sudokit.errors.SudokitError` for an unknown format and ``OSError`` for a missing file.
    """
    return _read(path_or_stream, fmt, geometry, source, strict, False)


def _read(path_or_stream, fmt: str, geometry: Geometry | None, source: str | None, strict: bool, blocks: bool):
    """Entries (or blocks) of a file, a stream or stdin; the layout detected from the first lines."""
    if fmt not in FORMATS:
        raise SudokitError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")
    if isinstance(path_or_stream, str | os.PathLike):
        name = os.fspath(path_or_stream)
        if name == "-":
            yield from _read(sys.stdin.buffer, fmt, geometry, source or "<stdin>", strict, blocks)
            return
        with open(name, "rb") as stream:
            yield from _read(stream, fmt, geometry, source or name, strict, blocks)
        return
    stream = path_or_stream
    source = source or str(getattr(stream, "name", "<stream>"))
    pieces = byte_blocks(stream, source)
    head: list = []
    head_lines: list[str] = []
    for piece in pieces:
        head.append(piece)
        if not isinstance(piece, ParseError):
            number, data = piece
            for offset, raw in enumerate(data.split(b"\n", _HEAD_LINES)[:_HEAD_LINES]):
                text = decode_line(raw, source, number + offset)
                if isinstance(text, str):
                    head_lines.append(text)
        if len(head_lines) >= _HEAD_LINES:
            break
    layout = fmt
    if fmt == "auto":
        layout = detect_format(source, head_lines)
    elif fmt in ("sdk", "ss"):
        layout = "grid"
    elif fmt == "sdm":
        layout = "line"
    all_pieces = chain(head, pieces)
    if layout == "line" and blocks:

        def careful(number: int, text: str | ParseError) -> Entry | None:
            return _line_entry(number, text, source, geometry, strict)

        yield from line_blocks(all_pieces, source, geometry, strict, careful)
        return
    lines = decoded_lines(all_pieces, source)
    if layout == "line":
        found = (_line_entry(number, text, source, geometry, strict) for number, text in lines)
        entries = _numbered(e for e in found if e is not None)
    else:
        entries = _numbered(_READERS[layout](lines, source, geometry, strict))
    yield from entry_blocks(entries, source) if blocks else entries


def _numbered(entries: Iterator[Entry]) -> Iterator[Entry]:
    """Entries with their index; a reader that gives up (a CSV file without a puzzle column) ends in its error."""
    index = 0
    try:
        for entry in entries:
            entry.index = index
            index += 1
            yield entry
    except ParseError as exc:
        yield Entry(index=index, line=exc.line or 0, source=exc.source or "", error=exc)


def _one(text: str, source: str, number: int, geometry: Geometry | None, mode: str, column: int = 0) -> Entry:
    try:
        grid = parse_grid(text, geometry=geometry, mode=mode, source=source, line=number)
        return Entry(0, number, source, grid=grid)
    except ParseError as exc:
        return Entry(0, number, source, error=exc.at(column_offset=column) if column else exc)


def _line_entry(
    number: int, text: str | ParseError, source: str, geometry: Geometry | None, strict: bool
) -> Entry | None:
    """One line of a one-puzzle-per-line file read carefully: an Entry, or None for a blank or comment line."""
    if isinstance(text, ParseError):
        return Entry(0, number, source, error=text)
    if _is_skippable(text):
        return None
    body = text.strip()
    lead = len(text) - len(text.lstrip())
    parts = body.split(None, 1)
    entry = _one(parts[0], source, number, geometry, "strict" if strict else "line", lead)
    if len(parts) > 1:
        entry.meta["extra"] = parts[1]
    return entry


def _read_tdoku(lines, source, geometry, strict) -> Iterator[Entry]:
    for number, text in lines:
        if isinstance(text, ParseError):
            yield Entry(0, number, source, error=text)
            continue
        if _is_skippable(text):
            continue
        fields = text.strip().split(":")
        entry = _one(fields[0], source, number, geometry, "strict" if strict else "line")
        if entry.ok and len(fields) > 1:
            col = len(fields[0]) + 2
            try:
                entry.count = int(fields[1])
            except ValueError:
                entry.grid, entry.error = None, ParseError(f"bad solution count {fields[1]!r}", source, number, col)
            if entry.grid is not None and len(fields) > 2 and fields[2]:
                sol = _one(fields[2], source, number, entry.grid.geometry, "line", col + len(fields[1]) + 1)
                entry.solution, entry.error = sol.grid, sol.error
                if sol.error:
                    entry.grid = None
        yield entry


_PUZZLE_COLUMNS = ("puzzle", "puzzles", "quizzes", "quiz", "question")
_SOLUTION_COLUMNS = ("solution", "solutions", "answer")


def _csv_row(text: str, source: str, number: int) -> list[str]:
    """The fields of one CSV line; a line the csv module refuses is a ParseError, not a ``_csv.Error``."""
    try:
        return next(csv.reader([text]))
    except csv.Error as exc:
        raise ParseError(f"unreadable CSV row: {str(exc).split(' - ')[0]}", source, number, None) from None


def _read_csv(lines, source, geometry, strict) -> Iterator[Entry]:
    numbered = iter(lines)
    header_line = None
    for number, text in numbered:
        if isinstance(text, ParseError):
            yield Entry(0, number, source, error=text)
        elif not _is_skippable(text):
            header_line = (number, text)
            break
    if header_line is None:
        return
    header = [h.strip().lower() for h in _csv_row(header_line[1], source, header_line[0])]
    puzzle_col = next((header.index(c) for c in _PUZZLE_COLUMNS if c in header), None)
    solution_col = next((header.index(c) for c in _SOLUTION_COLUMNS if c in header), None)
    if puzzle_col is None:
        raise ParseError(
            f"CSV header has no puzzle column (one of {', '.join(_PUZZLE_COLUMNS)})", source, header_line[0], 1
        )
    for number, text in numbered:
        if isinstance(text, ParseError):
            yield Entry(0, number, source, error=text)
            continue
        if not text.strip():
            continue
        try:
            row = _csv_row(text, source, number)
        except ParseError as exc:
            yield Entry(0, number, source, error=exc)
            continue
        need = max(puzzle_col, solution_col if solution_col is not None else 0) + 1
        if len(row) < need:
            yield Entry(
                0,
                number,
                source,
                error=ParseError(
                    f"truncated CSV row: {len(row)} of {len(header)} columns", source, number, len(text) + 1
                ),
            )
            continue
        entry = _one(row[puzzle_col].strip(), source, number, geometry, "strict" if strict else "line")
        if entry.grid is not None and solution_col is not None and row[solution_col].strip():
            sol = _one(row[solution_col].strip(), source, number, entry.grid.geometry, "line")
            entry.solution = sol.grid
            if sol.error:
                entry.grid, entry.error = (
                    None,
                    ParseError(f"solution column: {sol.error.message}", source, number, None),
                )
        for i, name in enumerate(header):
            if i not in (puzzle_col, solution_col) and i < len(row):
                entry.meta[name] = row[i]
        yield entry


def _read_pencilmarks(lines, source, geometry, strict) -> Iterator[Entry]:
    for number, text in lines:
        if isinstance(text, ParseError):
            yield Entry(0, number, source, error=text)
            continue
        if _is_skippable(text):
            continue
        body = text.strip()
        try:
            cands = parse_pencilmark(body, geometry, source=source, line=number)
            yield Entry(0, number, source, grid=cands.to_grid(), candidates=cands)
        except ParseError as exc:
            yield Entry(0, number, source, error=exc)


def _read_grids(lines, source, geometry, strict) -> Iterator[Entry]:
    """Multi-line grids: gather cell characters until a whole board is read."""
    buffer: list[str] = []
    start = 0
    meta: dict[str, str] = {}
    target = geometry.n_cells if geometry else None
    count = 0
    for number, text in lines:
        if isinstance(text, ParseError):
            yield Entry(0, number, source, error=text)
            continue
        stripped = text.strip()
        if stripped.startswith("#"):
            if len(stripped) > 1 and stripped[1].isalpha():
                meta[stripped[1]] = stripped[2:].strip()
            continue
        cells = sum(1 for ch in text if ch.isalnum() or ch == ".")
        if cells == 0:
            continue
        if buffer and target is not None and cells >= target:
            # a line that holds a whole board by itself is a puzzle of its own: the rows gathered before it
            # are one entry with its error (too few cells), and the line is not swallowed by them
            yield _one("\n".join(buffer), source, start, geometry, "strict" if strict else "lenient")
            buffer, meta, count = [], {}, 0
            target = geometry.n_cells if geometry else None
        if not buffer:
            start = number
        buffer.append(text)
        count += cells
        if target is None:
            # the first row tells the size: a row of n cells means an n x n board
            if cells in BOX_SHAPES:
                target = cells * cells
            elif cells in _CELL_COUNTS:
                target = cells
            else:
                target = 81
        if count >= target:
            text_block = "\n".join(buffer)
            entry = _one(text_block, source, start, geometry, "strict" if strict else "lenient")
            entry.meta.update(meta)
            yield entry
            buffer, meta, count = [], {}, 0
            target = geometry.n_cells if geometry else None
    if buffer:
        entry = _one("\n".join(buffer), source, start, geometry, "strict" if strict else "lenient")
        yield entry


def _read_candidate_grids(lines, source, geometry, strict) -> Iterator[Entry]:
    """Candidate grids: gather rows of tokens until a whole board is read."""
    buffer: list[str] = []
    start = count = 0
    target = geometry.n_cells if geometry else None
    for number, text in lines:
        if isinstance(text, ParseError):
            yield Entry(0, number, source, error=text)
            continue
        tokens = candidate_tokens(text)
        if not tokens or text.strip().startswith("#"):
            continue
        if not buffer:
            start = number
        if target is None:
            target = len(tokens) ** 2 if len(tokens) in BOX_SHAPES else 81
        buffer.append(text)
        count += len(tokens)
        if count >= target:
            try:
                cands = parse_candidate_grid("\n".join(buffer), geometry, source, start)
                yield Entry(0, start, source, grid=cands.to_grid(), candidates=cands)
            except ParseError as exc:
                yield Entry(0, start, source, error=exc)
            buffer, count, target = [], 0, geometry.n_cells if geometry else None
    if buffer:
        yield Entry(
            0, start, source, error=ParseError(f"unfinished candidate grid: {count} cells", source, start, None)
        )


_READERS = {
    "candidates": _read_candidate_grids,
    "tdoku": _read_tdoku,
    "csv": _read_csv,
    "pencilmark": _read_pencilmarks,
    "grid": _read_grids,
}


def read_puzzles(path_or_stream, fmt: str = "auto", geometry: Geometry | None = None) -> list:
    """All puzzles of a file as grids; raise the first :class:`ParseError` met."""
    grids = []
    for entry in read_entries(path_or_stream, fmt, geometry):
        if entry.error:
            raise entry.error
        grids.append(entry.grid)
    return grids


def entries_from_text(
    text: str, fmt: str = "auto", geometry: Geometry | None = None, source: str = "<text>"
) -> Iterator[Entry]:
    """Like :func:`read_entries` over a string. A lone surrogate (text no file can hold) is kept as its bytes,
    which the reader reports like any other line that is not UTF-8."""
    return read_entries(io.BytesIO(text.encode("utf-8", "surrogatepass")), fmt, geometry, source)
