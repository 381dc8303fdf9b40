"""Geometry: the digits, cells, units and peers of a Sudoku family.

Vocabulary (as in the seeds): a *cell* (Norvig's square, Udacity's box) is one place on the board,
numbered ``0 .. n*n-1`` row by row; a *unit* is a group of ``n`` cells that must hold the digits
``1 .. n`` once each (a row, a column, a box, and in variants a diagonal, a window or a jigsaw region);
the *peers* of a cell are the other cells that share a unit with it.

One immutable :class:`Geometry` serves every variant and size. Factories build the common ones:
:func:`standard`, :func:`diagonal`, :func:`windoku`, :func:`jigsaw`, and :func:`with_units` for any
custom extra units. :func:`from_name` resolves the names the command line accepts.

Naming conventions used throughout sudokit: ``r`` row, ``c`` column, ``s``/``cell`` a cell index,
``d`` a digit (1-based), ``u`` a unit index, ``n`` the number of digits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from math import isqrt
from operator import itemgetter
from typing import TYPE_CHECKING

from sudokit.errors import SudokitError, expect_int

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    import numpy as np

ROW_LETTERS = "ABCDEFGHI"

#: Symbols for the digits 1..35: ``1-9`` then ``A`` = 10, ``B`` = 11, ... (16x16 uses ``1-9A-G``,
#: 25x25 ``1-9A-P``). Any size writes a digit ``d`` as ``DIGIT_SYMBOLS[d - 1]``.
DIGIT_SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

#: The kinds of unit a factory sets (:attr:`Geometry.unit_kinds`): ``row``, ``column`` and ``box`` on standard
#: boards, ``diagonal`` (X-Sudoku), ``window`` (windoku), ``region`` (a jigsaw region) and ``extra`` for any
#: other unit (a geometry built directly, without kinds, has only ``extra`` units).
UNIT_KINDS = ("row", "column", "box", "diagonal", "window", "region", "extra")

#: Kinds whose units tile the board (drawn with thick borders): boxes and jigsaw regions.
REGION_KINDS = ("box", "region")

#: Box shapes (rows x columns) chosen for each board size when only the size is known.
BOX_SHAPES: dict[int, tuple[int, int]] = {
    4: (2, 2),
    6: (2, 3),
    8: (2, 4),
    9: (3, 3),
    10: (2, 5),
    12: (3, 4),
    15: (3, 5),
    16: (4, 4),
    20: (4, 5),
    25: (5, 5),
}


@dataclass(frozen=True, eq=False)
class Geometry:
    """The digits, cells and units of one puzzle family.

    ``units`` are tuples of cell indices; ``unit_names`` name them for people (``row A``,
    ``column 3``, ``box 5``, ``diagonal 1``); ``unit_kinds`` say what each unit is (one of
    :data:`UNIT_KINDS`, set by the factories; never read from the names). Everything else (units of a
    cell, rows / columns / boxes, peers as tuples, sets and bitsets, numpy views for the kernels) is derived
    once, on first use, and shared by every module: no other module rebuilds these tables.
    """

    name: str
    size: int
    units: tuple[tuple[int, ...], ...]
    unit_names: tuple[str, ...]
    box_rows: int | None = None
    box_cols: int | None = None
    #: Everything that defines the family, so equal geometries compare equal (default: size, units, kinds).
    key: tuple = field(default=(), repr=False)
    #: One kind per unit (see :data:`UNIT_KINDS`); empty means every unit is ``extra``.
    unit_kinds: tuple[str, ...] = field(default=(), repr=False)
    #: Pairs of cells that must differ without sharing a unit (a variant's killer cages, anti-knight moves, ...;
    #: see :func:`with_peers`): they join :attr:`peers` and every table built from it.
    extra_peers: tuple[tuple[int, int], ...] = field(default=(), repr=False)
    _hash: int = field(init=False, repr=False, default=0)

    def __post_init__(self) -> None:
        n = self.size
        if n < 1 or n > len(DIGIT_SYMBOLS):
            raise SudokitError(f"board size {n} is not supported (1..{len(DIGIT_SYMBOLS)})")
        if len(self.unit_names) != len(self.units):
            raise SudokitError("each unit needs a name")
        for name, unit in zip(self.unit_names, self.units):
            if len(unit) != n or len(set(unit)) != n:
                raise SudokitError(f"{name} must have {n} distinct cells, it has {sorted(set(unit))}")
            if any(not 0 <= s < n * n for s in unit):
                raise SudokitError(f"{name} names a cell outside the {n}x{n} board")
        if not self.unit_kinds:
            object.__setattr__(self, "unit_kinds", ("extra",) * len(self.units))
        if len(self.unit_kinds) != len(self.units):
            raise SudokitError(f"each unit needs a kind: {len(self.units)} units, {len(self.unit_kinds)} kinds")
        for kind in self.unit_kinds:
            if kind not in UNIT_KINDS:
                raise SudokitError(f"unknown unit kind {kind!r} (known: {', '.join(UNIT_KINDS)})")
        if not self.key:
            object.__setattr__(self, "key", (self.size, self.units, self.unit_kinds, self.extra_peers))
        # ints only: a str's hash differs between processes, and a pickled geometry keeps this number
        object.__setattr__(self, "_hash", hash((self.size, self.units)))

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Geometry) and self.key == other.key)

    def __hash__(self) -> int:
        return self._hash  # computed once in __post_init__

    def __repr__(self) -> str:
        return f"Geometry({self.name!r}, size={self.size}, units={len(self.units)})"

    # ---- sizes -------------------------------------------------------------------------------
    @property
    def n_cells(self) -> int:
        """Number of cells, ``size * size``."""
        return self.size * self.size

    @property
    def cells(self) -> range:
        """All cell indices, row by row."""
        return range(self.n_cells)

    @property
    def digits(self) -> range:
        """The digits ``1 .. size``."""
        return range(1, self.size + 1)

    @property
    def symbols(self) -> str:
        """The characters that write the digits 1..size, in order."""
        return DIGIT_SYMBOLS[: self.size]

    @property
    def all_mask(self) -> int:
        """Candidate bitmask with every digit set (bit ``d-1`` stands for digit ``d``)."""
        return (1 << self.size) - 1

    # ---- coordinates and labels --------------------------------------------------------------
    def row(self, cell: int) -> int:
        """0-based row of a cell."""
        return cell // self.size

    def col(self, cell: int) -> int:
        """0-based column of a cell."""
        return cell % self.size

    def cell(self, row: int, col: int) -> int:
        """Cell index of a 0-based (row, column)."""
        return row * self.size + col

    @cached_property
    def labels(self) -> tuple[str, ...]:
        """Cell labels: ``A1 .. I9`` for 9x9 (the seeds' names), ``r1c1`` style for other sizes."""
        n = self.size
        if n == 9:
            return tuple(f"{ROW_LETTERS[r]}{c + 1}" for r in range(n) for c in range(n))
        return tuple(f"r{r + 1}c{c + 1}" for r in range(n) for c in range(n))

    def label(self, cell: int) -> str:
        """The label of one cell, e.g. ``C2``."""
        return self.labels[cell]

    @cached_property
    def _cell_of_label(self) -> dict[str, int]:
        return {lab.upper(): s for s, lab in enumerate(self.labels)}

    def cell_of(self, label: str) -> int:
        """The cell index of a label such as ``C2`` or ``r3c2`` (either scheme, any case)."""
        text = label.strip().upper()
        if text in self._cell_of_label:
            return self._cell_of_label[text]
        if text.startswith("R") and "C" in text:
            r, _, c = text[1:].partition("C")
            if (
                (r + c).isascii()
                and r.isdigit()
                and c.isdigit()
                and 1 <= int(r) <= self.size
                and 1 <= int(c) <= self.size
            ):
                return self.cell(int(r) - 1, int(c) - 1)
        raise SudokitError(f"no cell named {label!r} on a {self.size}x{self.size} board")

    # ---- units and peers ---------------------------------------------------------------------
    @cached_property
    def units_of(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the indices of the units that contain it."""
        table: list[list[int]] = [[] for _ in self.cells]
        for u, unit in enumerate(self.units):
            for s in unit:
                table[s].append(u)
        return tuple(tuple(us) for us in table)

    @cached_property
    def peers(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the sorted other cells that share a unit with it (and its :attr:`extra_peers`)."""
        table = [{p for u in self.units_of[s] for p in self.units[u]} - {s} for s in self.cells]
        for a, b in self.extra_peers:
            table[a].add(b)
            table[b].add(a)
        return tuple(tuple(sorted(t)) for t in table)

    @cached_property
    def peer_sets(self) -> tuple[frozenset[int], ...]:
        """For each cell, its peers as a frozenset (fast membership)."""
        return tuple(frozenset(p) for p in self.peers)

    @cached_property
    def unit_getters(self) -> tuple[Callable[[Sequence[int]], tuple[int, ...]], ...]:
        """For each unit, a function giving the unit's values as a tuple: ``getter(values)`` (fast checks)."""
        if self.size == 1:  # itemgetter of one item returns the item, not a tuple
            return tuple(itemgetter(slice(u[0], u[0] + 1)) for u in self.units)
        return tuple(itemgetter(*u) for u in self.units)

    def unit_kind(self, u: int) -> str:
        """The kind of unit ``u`` (``row``, ``column``, ``box``, ``diagonal``, ``window``, ``region``, ``extra``)."""
        return self.unit_kinds[u]

    def _of_kind(self, *kinds: str) -> tuple[int, ...]:
        return tuple(u for u, k in enumerate(self.unit_kinds) if k in kinds)

    def _cell_to_unit(self, units: tuple[int, ...]) -> tuple[int, ...]:
        table = [-1] * self.n_cells
        for u in units:
            for s in self.units[u]:
                table[s] = u
        return tuple(table)

    @cached_property
    def rows(self) -> tuple[int, ...]:
        """The unit indices of the rows, top to bottom."""
        return self._of_kind("row")

    @cached_property
    def cols(self) -> tuple[int, ...]:
        """The unit indices of the columns, left to right."""
        return self._of_kind("column")

    @cached_property
    def boxes(self) -> tuple[int, ...]:
        """The unit indices of the boxes (kind ``box``) in reading order; empty on a jigsaw board, whose
        irregular regions are kind ``region`` (see :attr:`regions` for boxes and regions alike)."""
        return self._of_kind("box")

    @cached_property
    def regions(self) -> tuple[int, ...]:
        """The units that tile the board into regions (:data:`REGION_KINDS`: boxes or jigsaw regions)."""
        return self._of_kind(*REGION_KINDS)

    @cached_property
    def extra_units(self) -> tuple[int, ...]:
        """The units that are neither rows, columns nor regions: diagonals, windows, custom units."""
        return tuple(u for u, k in enumerate(self.unit_kinds) if k not in ("row", "column", *REGION_KINDS))

    @cached_property
    def row_of(self) -> tuple[int, ...]:
        """For each cell, the unit index of its row (-1 when no row unit holds it)."""
        return self._cell_to_unit(self.rows)

    @cached_property
    def col_of(self) -> tuple[int, ...]:
        """For each cell, the unit index of its column (-1 when no column unit holds it)."""
        return self._cell_to_unit(self.cols)

    @cached_property
    def box_of(self) -> tuple[int, ...]:
        """For each cell, the unit index of its box (-1 without boxes, e.g. on a jigsaw board)."""
        return self._cell_to_unit(self.boxes)

    @cached_property
    def region_of(self) -> tuple[int, ...]:
        """For each cell, the unit index of its box or jigsaw region (-1 when no region holds it)."""
        return self._cell_to_unit(self.regions)

    @property
    def has_boxes(self) -> bool:
        """True when the board has ``size`` rectangular boxes of ``box_rows x box_cols`` cells."""
        return self.box_rows is not None and len(self.boxes) == self.size

    @cached_property
    def unit_sets(self) -> tuple[frozenset[int], ...]:
        """For each unit, its cells as a frozenset."""
        return tuple(frozenset(u) for u in self.units)

    @cached_property
    def unit_index(self) -> dict[frozenset[int], int]:
        """Each unit's cell set to its unit index (is a set of cells a unit, and which?)."""
        return {cells: u for u, cells in enumerate(self.unit_sets)}

    @cached_property
    def unit_bits(self) -> tuple[int, ...]:
        """For each unit, its cells as a bitset (bit ``s`` = cell ``s``)."""
        return tuple(sum(1 << s for s in unit) for unit in self.units)

    @cached_property
    def peer_bits(self) -> tuple[int, ...]:
        """For each cell, its peers as a bitset (bit ``p`` = cell ``p``)."""
        return tuple(sum(1 << p for p in ps) for ps in self.peers)

    @cached_property
    def units_of_bits(self) -> tuple[int, ...]:
        """For each cell, the units that hold it as a bitset (bit ``u`` = unit ``u``)."""
        return tuple(sum(1 << u for u in us) for us in self.units_of)

    @property
    def is_standard(self) -> bool:
        """True when the units are exactly rows, columns and boxes (and no extra peers)."""
        return self.box_rows is not None and len(self.units) == 3 * self.size and not self.extra_peers

    # ---- numpy views for the kernels (int64, read-only) -----------------------------------------
    @cached_property
    def unit_array(self) -> np.ndarray:
        """``(n_units, size)`` int64 array of the units' cells."""
        return _frozen(self.units, self.size)

    @cached_property
    def peer_array(self) -> np.ndarray:
        """``(n_cells, max_peers)`` int64 array of peers, padded with -1 (see :attr:`peer_counts`)."""
        return _frozen(self.peers)

    @cached_property
    def peer_counts(self) -> np.ndarray:
        """``(n_cells,)`` int64 array: how many peers each cell has."""
        return _frozen([len(p) for p in self.peers])

    @cached_property
    def cell_unit_array(self) -> np.ndarray:
        """``(n_cells, max_units)`` int64 array of the units of each cell, padded with -1."""
        return _frozen(self.units_of)

    @cached_property
    def box_of_array(self) -> np.ndarray:
        """``(n_cells,)`` int64 array: :attr:`box_of`."""
        return _frozen(self.box_of)


def padded(rows: Sequence[Sequence[int]], width: int | None = None, dtype: str = "int64") -> np.ndarray:
    """``rows`` of ints as a 2-d array padded with -1; ``width`` defaults to the longest row (at least 1)."""
    import numpy as np

    if width is None:
        width = max((len(r) for r in rows), default=1) or 1
    out = np.full((len(rows), width), -1, dtype=dtype)
    for i, r in enumerate(rows):
        out[i, : len(r)] = r
    return out


def _frozen(rows: Sequence, width: int | None = None) -> np.ndarray:
    """A read-only int64 array of ``rows``: 1-d for a flat sequence of ints, else 2-d padded with -1."""
    import numpy as np

    flat = bool(rows) and not isinstance(rows[0], (tuple, list))
    out = np.array(rows, dtype=np.int64) if flat else padded(rows, width)
    out.flags.writeable = False
    return out


# ---- factories ------------------------------------------------------------------------------
def _row_col_units(n: int) -> tuple[list[tuple[int, ...]], list[str]]:
    rows = [tuple(r * n + c for c in range(n)) for r in range(n)]
    cols = [tuple(r * n + c for r in range(n)) for c in range(n)]
    row_names = [f"row {ROW_LETTERS[r]}" if n == 9 else f"row {r + 1}" for r in range(n)]
    col_names = [f"column {c + 1}" for c in range(n)]
    return rows + cols, row_names + col_names


def _box_units(box_rows: int, box_cols: int) -> list[tuple[int, ...]]:
    n = box_rows * box_cols
    boxes = []
    for br in range(0, n, box_rows):
        for bc in range(0, n, box_cols):
            boxes.append(tuple((br + r) * n + bc + c for r in range(box_rows) for c in range(box_cols)))
    return boxes


def standard(box_rows: int = 3, box_cols: int | None = None) -> Geometry:
    """Classic Sudoku of size ``n = box_rows * box_cols``: rows, columns and boxes.

    The same (immutable) instance is returned for the same shape however it is asked for (``standard()``,
    ``standard(3, 3)``, ``for_cells(81)``), so its derived tables (peers, numpy views) are built once per
    process, reading a file does not rebuild the geometry for each puzzle, and the batch path recognises the
    9x9 board by identity.

    ``standard()`` is 9x9; ``standard(2)`` 4x4; ``standard(2, 3)`` 6x6 with 2-row, 3-column boxes;
    ``standard(4)`` 16x16; ``standard(5)`` 25x25.
    """
    box_cols = box_rows if box_cols is None else box_cols
    return _standard(expect_int(box_rows, "box_rows"), expect_int(box_cols, "box_cols"))


@lru_cache(maxsize=64)
def _standard(box_rows: int, box_cols: int) -> Geometry:
    """:func:`standard` for a checked shape, one instance per shape."""
    n = box_rows * box_cols
    if n > len(DIGIT_SYMBOLS):  # checked before the units are built: a 100x100 box shape would take minutes
        raise SudokitError(f"board size {n} is not supported (1..{len(DIGIT_SYMBOLS)})")
    units, names = _row_col_units(n)
    boxes = _box_units(box_rows, box_cols)
    units += boxes
    names += [f"box {b + 1}" for b in range(len(boxes))]
    return Geometry(
        name=f"standard {n}x{n}" if n != 9 else "standard",
        size=n,
        units=tuple(units),
        unit_names=tuple(names),
        box_rows=box_rows,
        box_cols=box_cols,
        unit_kinds=("row",) * n + ("column",) * n + ("box",) * len(boxes),
    )


def for_size(size: int) -> Geometry:
    """The standard geometry for ``size`` digits, with the usual box shape (:data:`BOX_SHAPES`)."""
    if size not in BOX_SHAPES:
        raise SudokitError(f"no standard Sudoku has {size} digits (known sizes: {sorted(BOX_SHAPES)})")
    return standard(*BOX_SHAPES[size])


def for_cells(n_cells: int) -> Geometry:
    """The standard geometry with ``n_cells`` cells (81 -> 9x9, 256 -> 16x16, ...)."""
    size = isqrt(n_cells) if expect_int(n_cells, "n_cells", 0, 2**62) > 0 else 0
    if size * size != n_cells or size not in BOX_SHAPES:
        raise SudokitError(f"{n_cells} cells is not the size of a known Sudoku board")
    return for_size(size)


def with_units(
    base: Geometry,
    extra: Sequence[Sequence[int]],
    names: Sequence[str],
    name: str,
    kind: str = "extra",
) -> Geometry:
    """``base`` plus extra units (each ``size`` distinct cells) of one ``kind`` (see :data:`UNIT_KINDS`),
    e.g. diagonals or windows; custom units are ``extra`` whatever their names say."""
    return Geometry(
        name=name,
        size=base.size,
        units=base.units + tuple(tuple(u) for u in extra),
        unit_names=base.unit_names + tuple(names),
        box_rows=base.box_rows,
        box_cols=base.box_cols,
        unit_kinds=base.unit_kinds + (kind,) * len(extra),
    )


def with_peers(base: Geometry, pairs: Iterable[tuple[int, int]]) -> Geometry:
    """``base`` whose :attr:`~Geometry.peers` also hold ``pairs`` (cells that must differ without sharing a
    unit); ``base`` itself when there are none. Logic solves variant puzzles on it (``State.from_variant``)."""
    extra = tuple(sorted({(min(a, b), max(a, b)) for a, b in pairs if a != b}))
    if not extra:
        return base
    return Geometry(
        name=base.name,
        size=base.size,
        units=base.units,
        unit_names=base.unit_names,
        box_rows=base.box_rows,
        box_cols=base.box_cols,
        unit_kinds=base.unit_kinds,
        extra_peers=extra,
    )


def _base(base: object) -> Geometry:
    if base is None:
        return standard()
    if not isinstance(base, Geometry):
        raise SudokitError(f"a variant is built on a Geometry (e.g. standard(4)), not {type(base).__name__}")
    return base


def diagonal(base: Geometry | None = None) -> Geometry:
    """X-Sudoku: ``base`` (9x9 by default) with both main diagonals as extra units."""
    base = _base(base)
    n = base.size
    main = tuple(i * n + i for i in range(n))
    anti = tuple(i * n + (n - 1 - i) for i in range(n))
    name = f"diagonal {n}x{n}" if n != 9 else "diagonal"
    return with_units(base, [main, anti], ["diagonal 1", "diagonal 2"], name, "diagonal")


def windoku(base: Geometry | None = None) -> Geometry:
    """Windoku (hyper Sudoku): four extra boxes offset by one cell from the 9x9 boxes."""
    base = _base(base)
    if base.size != 9:
        raise SudokitError("windoku is defined for 9x9 boards")
    windows = []
    for r0 in (1, 5):
        for c0 in (1, 5):
            windows.append(tuple((r0 + r) * 9 + c0 + c for r in range(3) for c in range(3)))
    return with_units(base, windows, [f"window {w + 1}" for w in range(4)], "windoku", "window")


def jigsaw(regions: str) -> Geometry:
    """Jigsaw Sudoku: rows, columns and irregular regions read from a map string.

    ``regions`` has one symbol per cell, row by row (whitespace ignored); cells with the same symbol
    form one region, and there must be ``size`` regions of ``size`` cells each.
    """
    if not isinstance(regions, str):
        raise SudokitError(f"a jigsaw map is a string of region symbols, not {type(regions).__name__}")
    marks = [ch for ch in regions if not ch.isspace()]
    size = round(len(marks) ** 0.5)
    if size * size != len(marks) or size < 1:
        raise SudokitError(f"a jigsaw map needs a square number of cells, got {len(marks)}")
    if size > len(DIGIT_SYMBOLS):
        raise SudokitError(f"board size {size} is not supported (1..{len(DIGIT_SYMBOLS)})")
    order: dict[str, list[int]] = {}
    for s, ch in enumerate(marks):
        order.setdefault(ch, []).append(s)
    if len(order) != size or any(len(cells) != size for cells in order.values()):
        sizes = {ch: len(cells) for ch, cells in order.items()}
        raise SudokitError(f"a {size}x{size} jigsaw map needs {size} regions of {size} cells, got {sizes}")
    units, names = _row_col_units(size)
    for i, cells in enumerate(order.values()):
        units.append(tuple(cells))
        names.append(f"region {i + 1}")
    kinds = ("row",) * size + ("column",) * size + ("region",) * size
    return Geometry(name="jigsaw", size=size, units=tuple(units), unit_names=tuple(names), unit_kinds=kinds)


#: Names accepted by :func:`from_name` (and ``--variant`` on the command line).
VARIANTS = {
    "standard": "rows, columns and boxes (size from the puzzle)",
    "diagonal": "X-Sudoku: both main diagonals are units too",
    "windoku": "9x9 with four extra windows (hyper Sudoku)",
    "jigsaw:MAP": "rows, columns and regions given by a map string, one symbol per cell",
    "NxN": "standard board of that size, e.g. 4x4, 6x6, 16x16",
    "RxC": "standard with boxes of R rows and C columns, e.g. 2x3 (a 6x6 board)",
}


#: A size or box shape name: ASCII digits only (``str.isdigit`` would take ``²`` or ``٣``).
_SHAPE = re.compile(r"([0-9]{1,3})x([0-9]{1,3})")


def shape_of(name: str) -> tuple[int, int] | None:
    """The two numbers of a size or box-shape name (``6x6``, ``2x3``), or None for any other name."""
    m = _SHAPE.fullmatch(name.strip().lower())
    return (int(m.group(1)), int(m.group(2))) if m else None


def from_name(name: str, n_cells: int | None = None) -> Geometry:
    """Resolve a variant name (see :data:`VARIANTS`); ``n_cells`` picks the size when it is open."""
    if not isinstance(name, str):
        raise SudokitError(f"a variant name must be a string, not {type(name).__name__}")
    text = name.strip()
    low = text.lower()
    base = for_cells(n_cells) if n_cells else standard()
    if low in ("standard", "sudoku", "classic", ""):
        return base
    if low in ("diagonal", "x", "x-sudoku", "xsudoku", "sudoku-x"):
        return diagonal(base)
    if low in ("windoku", "hyper"):
        return windoku(base)
    if low.startswith("jigsaw:"):
        return jigsaw(text.split(":", 1)[1])
    shape = shape_of(low)
    if shape is not None:
        r, c = shape
        if r == c and r in BOX_SHAPES:  # a board size: 4x4, 6x6, 9x9, 16x16, ...
            return for_size(r)
        return standard(r, c)  # a box shape: 2x3 (6x6 board), 3x4 (12x12 board), ...
    raise SudokitError(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}")
