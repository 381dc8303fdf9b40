"""Puzzles by the block: the bounded byte reader under every layout, and numpy's reader of one-line puzzles.

Input is read as bytes, about a MiB at a time, and decoded line by line, so one bad line (a stray byte
that is not UTF-8, a NUL, a line over :data:`MAX_LINE` bytes) is one reported entry and every other line
is still read. Line ends are LF, CRLF or a bare CR.

A file of one-line puzzles (the common case: 81 characters a line) does not go through Python line by
line: :func:`line_blocks` finds the line ends of a whole block with numpy, turns every line that is exactly
the cells of the board into a row of a ``(k, n_cells)`` uint8 array by one table lookup, and hands only the
other lines (comments, blank lines, trailing text, errors, other sizes) to the careful reader. A
:class:`Block` keeps both, in input order.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sudokit.errors import ParseError
from sudokit.formats.entry import Entry
from sudokit.formats.text import byte_table
from sudokit.geometry import BOX_SHAPES, Geometry, for_cells, standard
from sudokit.grid import Grid

if TYPE_CHECKING:  # numpy is imported where blocks are built: reading one puzzle does not load it
    import numpy as np

#: The longest line read (bytes, line end excluded); a longer one is reported and skipped.
MAX_LINE = 1 << 20
#: Bytes read at a time.
BLOCK_BYTES = 1 << 18
#: Skipping this much of one overlong line without meeting a line end stops the input (``/dev/zero``).
MAX_SKIP = 1 << 26
#: Entries gathered into one block by the layouts that are read line by line.
BLOCK_ENTRIES = 4096

_CELL_COUNTS = {n * n for n in BOX_SHAPES}
_LINE_END = re.compile(rb"[\r\n]")
_BOM = b"\xef\xbb\xbf"


@dataclass
class Block:
    """Consecutive puzzles of one input, in order: row ``i`` is puzzle number ``start + i`` (0-based).

    ``grids[i]`` holds the puzzle when ``usable[i]`` (a readable puzzle of ``geometry``), else zeros. Rows the
    careful reader produced have their :class:`Entry` in ``entries`` (bad rows, puzzles of another size,
    rows with trailing text or a solution); every row that is not usable has one.
    """

    source: str
    geometry: Geometry
    start: int
    grids: np.ndarray  #: (k, n_cells) uint8, 0 = empty
    lines: np.ndarray  #: (k,) int64, the 1-based line where each puzzle starts
    usable: np.ndarray  #: (k,) bool
    entries: dict[int, Entry]

    def __len__(self) -> int:
        return len(self.lines)

    def entry(self, i: int) -> Entry:
        """Row ``i`` as an :class:`Entry`."""
        found = self.entries.get(i)
        if found is not None:
            return found
        return Entry(
            self.start + i, int(self.lines[i]), self.source, grid=Grid(self.geometry, tuple(self.grids[i].tolist()))
        )

    def __iter__(self) -> Iterator[Entry]:
        return (self.entry(i) for i in range(len(self)))

    def with_geometry(self, geometry: Geometry) -> Block:
        """The same puzzles read in another geometry of the same size (``--variant diagonal``)."""
        entries = {}
        for i, entry in self.entries.items():
            if entry.grid is not None and entry.grid.geometry == self.geometry:
                entry.grid = Grid(geometry, entry.grid.values)
            entries[i] = entry
        return Block(self.source, geometry, self.start, self.grids, self.lines, self.usable, entries)


def _read_function(stream) -> Callable[[int], bytes]:
    """``read(size)`` for a binary stream, or for any iterable of byte strings (a generator of lines)."""
    if hasattr(stream, "read"):
        return stream.read
    pieces = iter(stream)
    pending = bytearray()

    def read(size: int) -> bytes:
        while len(pending) < size:
            piece = next(pieces, None)
            if piece is None:
                break
            pending.extend(piece)
        out = bytes(pending[:size])
        del pending[:size]
        return out

    return read


def byte_blocks(stream, source: str, size: int = BLOCK_BYTES) -> Iterator[tuple[int, bytes] | ParseError]:
    """The input as ``(number of its first line, whole lines)`` pieces, each line ending in LF (the last piece
    may lack it); CRLF and bare CR line ends become LF, a leading byte-order mark goes.

    A line longer than :data:`MAX_LINE` bytes comes as a :class:`ParseError` item and the rest of it is
    skipped; after :data:`MAX_SKIP` bytes without a line end the input stops, that error the last item.
    Memory stays bounded by ``size + MAX_LINE`` whatever the input.
    """
    read = _read_function(stream)
    number = 1
    carry = b""
    started = False
    while True:
        chunk = read(size)
        data = carry + chunk if carry else chunk
        if not started and data:
            started = True
            if data.startswith(_BOM):
                data = data[len(_BOM) :]
        if not chunk:
            if data:
                yield number, data.replace(b"\r", b"\n") if data.endswith(b"\r") else data
            return
        hold = b""
        if data.endswith(b"\r"):  # its LF may come with the next read
            data, hold = data[:-1], b"\r"
        if b"\r" in data:
            data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        cut = data.rfind(b"\n") + 1
        if cut:
            yield number, data[:cut]
            number += data.count(b"\n", 0, cut)
        carry = data[cut:] + hold
        if len(carry) > MAX_LINE:
            rest = _skip_line(read, size, len(carry))
            if rest is None:
                why = f"no line end in {MAX_SKIP >> 20} MiB: not a text file; reading stops here"
                yield ParseError(why, source, number, None)
                return
            yield ParseError(f"line longer than {MAX_LINE:,} bytes: not puzzle text", source, number, None)
            carry, number = rest, number + 1


def _skip_line(read: Callable[[int], bytes], size: int, skipped: int) -> bytes | None:
    """Read past the end of an overlong line; the bytes after its line end, or None when none came in time
    (or the input ended)."""
    after_cr = False
    while skipped <= MAX_SKIP:
        chunk = read(size)
        if not chunk:
            return b""
        if after_cr and chunk.startswith(b"\n"):
            return chunk[1:]
        found = _LINE_END.search(chunk)
        if found:
            at = found.start()
            if chunk[at : at + 2] == b"\r\n":
                return chunk[at + 2 :]
            if chunk[at] == 13 and at == len(chunk) - 1:
                after_cr = True
                continue
            return chunk[at + 1 :]
        skipped += len(chunk)
    return None


def decode_line(raw: bytes, source: str, number: int) -> str | ParseError:
    """One line's text, or the error that makes it unreadable (NUL, not UTF-8, too long)."""
    if len(raw) > MAX_LINE:
        return ParseError(f"line longer than {MAX_LINE:,} bytes: not puzzle text", source, number, None)
    nul = raw.find(b"\0")
    if nul >= 0:
        return ParseError("binary data, not puzzle text", source, number, nul + 1)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        column = len(raw[: exc.start].decode("utf-8")) + 1
        return ParseError(f"not UTF-8 text (byte 0x{raw[exc.start]:02x})", source, number, column)


def decoded_lines(
    pieces: Iterable[tuple[int, bytes] | ParseError], source: str
) -> Iterator[tuple[int, str | ParseError]]:
    """``(line number, text)`` for every line of :func:`byte_blocks` pieces; an unreadable line's text is its
    :class:`ParseError`."""
    for piece in pieces:
        if isinstance(piece, ParseError):
            yield piece.line or 0, piece
            continue
        number, data = piece
        parts = data.split(b"\n")
        if data.endswith(b"\n"):
            parts.pop()
        for raw in parts:
            yield number, decode_line(raw, source, number)
            number += 1


def _line_ends(data: bytes) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(buffer, starts, ends) of every line of a piece; ``ends`` index the LF (or the end of data)."""
    import numpy as np

    buf = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(buf == 10)
    if not data.endswith(b"\n"):
        ends = np.append(ends, len(buf))
    starts = np.empty_like(ends)
    if len(ends):
        starts[0] = 0
        starts[1:] = ends[:-1] + 1
    return buf, starts, ends


def _first_size(data: bytes, starts: np.ndarray, lengths: np.ndarray) -> Geometry | None:
    """The board of the first line that could be a plain puzzle line (its length is a board's cell count)."""
    import numpy as np

    for j in np.flatnonzero(np.isin(lengths, sorted(_CELL_COUNTS))):
        if data[starts[j] : starts[j] + 1] != b"#":
            return for_cells(int(lengths[j]))
    return None


def line_blocks(
    pieces: Iterable[tuple[int, bytes] | ParseError],
    source: str,
    geometry: Geometry | None,
    strict: bool,
    careful: Callable[[int, str | ParseError], Entry | None],
) -> Iterator[Block]:
    """One :class:`Block` per piece of a one-puzzle-per-line input.

    Lines that are exactly the cells of the board (``geometry``, else the size of the first such line) are
    read by numpy; ``careful(number, text)`` reads every other line (an Entry, or None for a line to skip).
    """
    import numpy as np

    index = 0
    for piece in pieces:
        if isinstance(piece, ParseError):
            yield from grouped([Entry(index, piece.line or 0, source, error=piece)], source, geometry)
            index += 1
            continue
        number, data = piece
        buf, starts, ends = _line_ends(data)
        lengths = ends - starts
        geo = geometry = geometry or _first_size(data, starts, lengths)  # the first plain line settles the size
        fast = np.zeros(len(ends), dtype=bool)
        values = np.zeros((0, 0), dtype=np.uint8)
        if geo is not None:
            n = geo.n_cells
            plain = np.flatnonzero(lengths == n)
            if len(plain) == len(ends) and data.endswith(b"\n"):
                chars = buf.reshape(len(ends), n + 1)[:, :n]
            else:
                chars = buf[starts[plain, None].astype(np.int32) + np.arange(n, dtype=np.int32)]
            values = byte_table(geo.size, strict)[chars]
            good = (values != 255).all(axis=1)
            fast[plain[good]] = True
            values = values[good]
        keep = fast.copy()
        found: dict[int, Entry] = {}
        for j in np.flatnonzero(~fast).tolist():
            line = number + j
            entry = careful(line, decode_line(data[starts[j] : ends[j]], source, line))
            if entry is not None:
                keep[j] = True
                found[j] = entry
        rows = np.flatnonzero(keep)
        if not len(rows):
            continue
        if geo is None:
            first = next((e.grid.geometry for e in found.values() if e.grid is not None), None)
            geo = first or standard()
        position = np.cumsum(keep) - 1
        grids = np.zeros((len(rows), geo.n_cells), dtype=np.uint8)
        usable = np.zeros(len(rows), dtype=bool)
        if values.size:
            grids[position[fast]] = values
            usable[position[fast]] = True
        entries = {}
        for j, entry in found.items():
            at = int(position[j])
            entry.index = index + at
            entries[at] = entry
            if entry.grid is not None and entry.grid.geometry == geo:
                grids[at] = entry.grid.values
                usable[at] = True
        yield Block(source, geo, index, grids, number + rows.astype(np.int64), usable, entries)
        index += len(rows)


def grouped(entries: list[Entry], source: str, geometry: Geometry | None = None) -> list[Block]:
    """Entries (read one by one) as one block; ``geometry`` defaults to the first readable puzzle's."""
    import numpy as np

    geo = geometry or next((e.grid.geometry for e in entries if e.grid is not None), None) or standard()
    k = len(entries)
    grids = np.zeros((k, geo.n_cells), dtype=np.uint8)
    usable = np.zeros(k, dtype=bool)
    for i, entry in enumerate(entries):
        if entry.grid is not None and entry.grid.geometry == geo:
            grids[i] = entry.grid.values
            usable[i] = True
    lines = np.array([e.line for e in entries], dtype=np.int64)
    start = entries[0].index if entries else 0
    return [Block(source, geo, start, grids, lines, usable, dict(enumerate(entries)))]


def entry_blocks(entries: Iterable[Entry], source: str, size: int = BLOCK_ENTRIES) -> Iterator[Block]:
    """Entries gathered ``size`` at a time into blocks."""
    batch: list[Entry] = []
    for entry in entries:
        batch.append(entry)
        if len(batch) >= size:
            yield from grouped(batch, source)
            batch = []
    if batch:
        yield from grouped(batch, source)
