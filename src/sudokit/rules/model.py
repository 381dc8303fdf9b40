"""Big constraints and models: the 27 units of Sudoku named ``R1..R9``, ``C1..C9``, ``B1..B9``.

A *big constraint* is one unit's all-different rule; a *model* is a set of big constraints (the
81 domain constraints, one digit per cell, are always there). Following the paper, a model is
written by what it *misses*: ``-R1,C4`` is every big constraint except ``R1`` and ``C4``.

Inside, a model is an ``int`` bitmask over the board's constraints (bit ``u`` = unit ``u`` of the
geometry), which makes closure, symmetry and caching cheap.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from itertools import combinations

from sudokit.errors import SudokitError
from sudokit.geometry import Geometry, diagonal, standard

#: Letters naming each kind of unit, as the paper writes them (diagonals and windows are ours).
KIND_LETTERS = {"row": "R", "column": "C", "box": "B", "diagonal": "D", "window": "W", "region": "G"}


@dataclass(frozen=True, eq=False)
class Board:
    """The big constraints of one geometry, with their names and chutes.

    ``chutes`` lists, for each horizontal band and vertical stack, the constraint indices of its
    lines (rows or columns) and of its boxes: the places where Lemmas 4.1 and 4.2 apply.
    """

    geometry: Geometry

    @cached_property
    def names(self) -> tuple[str, ...]:
        """Constraint names in unit order: ``R1.. C1.. B1..`` then any extra units."""
        counts: dict[str, int] = {}
        out = []
        for u in range(len(self.geometry.units)):
            letter = KIND_LETTERS.get(self.geometry.unit_kind(u), "U")
            counts[letter] = counts.get(letter, 0) + 1
            out.append(f"{letter}{counts[letter]}")
        return tuple(out)

    @property
    def n_constraints(self) -> int:
        """How many big constraints the board has (27 for 9x9)."""
        return len(self.geometry.units)

    @property
    def full(self) -> int:
        """The bitmask of the model with every big constraint."""
        return (1 << self.n_constraints) - 1

    @cached_property
    def index(self) -> dict[str, int]:
        """Constraint name (upper case) to its index."""
        return {name.upper(): u for u, name in enumerate(self.names)}

    @cached_property
    def chutes(self) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
        """``(lines, boxes)`` for every band then every stack (square boxes only)."""
        g = self.geometry
        k = g.box_rows
        if k is None or g.box_cols != k:
            return ()
        out = []
        for band in range(k):
            rows = g.rows[band * k : (band + 1) * k]
            boxes = g.boxes[band * k : (band + 1) * k]
            out.append((rows, boxes))
        for stack in range(k):
            cols = g.cols[stack * k : (stack + 1) * k]
            boxes = g.boxes[stack::k]
            out.append((cols, boxes))
        return tuple(out)

    @cached_property
    def chute_names(self) -> tuple[str, ...]:
        """People's names of the chutes, in :attr:`chutes` order."""
        k = len(self.chutes) // 2
        return tuple(f"band {b + 1}" for b in range(k)) + tuple(f"stack {s + 1}" for s in range(k))

    # ---- models ------------------------------------------------------------------------------
    def mask(self, names) -> int:
        """Bitmask of an iterable of constraint names (or indices)."""
        m = 0
        for name in names:
            m |= 1 << (name if isinstance(name, int) else self.lookup(name))
        return m

    def lookup(self, name: str) -> int:
        """Index of one constraint name, case-insensitive; unknown names are a user error."""
        key = name.strip().upper()
        if key not in self.index:
            raise SudokitError(f"unknown constraint {name!r}; this board has {self.names[0]}..{self.names[-1]}")
        return self.index[key]

    def members(self, mask: int) -> tuple[int, ...]:
        """Constraint indices in a bitmask, ascending."""
        return tuple(u for u in range(self.n_constraints) if mask >> u & 1)

    def names_of(self, mask: int) -> tuple[str, ...]:
        """Constraint names in a bitmask, in board order."""
        return tuple(self.names[u] for u in self.members(mask))

    def missing(self, model: int) -> int:
        """The bitmask of the constraints a model leaves out."""
        return self.full & ~model

    def describe(self, model: int) -> str:
        """A model written the paper's way: ``Sudoku`` or ``-R1,C4`` (what is missing)."""
        gone = self.names_of(self.missing(model))
        return "-" + ",".join(gone) if gone else "Sudoku"

    def parse(self, text: str) -> int:
        """Read a model: ``all``/``sudoku``, ``-R1,C4`` (missing), ``R1,R2,...`` (present), or a
        named model such as ``21``, ``thm4.5``, ``lemma5.3`` (see :data:`NAMED`)."""
        spec = text.strip()
        low = spec.lower().replace(" ", "")
        if low in ("all", "sudoku", "full", "27"):
            return self.full
        named = NAMED.get(low)
        if named is not None:
            if self.geometry.size != 9 or self.n_constraints < 27:
                raise SudokitError(f"the named model {spec!r} is for 9x9 boards")
            return self.full & ~self.mask(named)
        if low.startswith("missing:") or low.startswith("-"):
            body = spec.split(":", 1)[1] if low.startswith("missing:") else spec[1:]
            return self.full & ~self.mask(_split(body))
        if not low:
            raise SudokitError("empty model; write e.g. 'all', '-R1,C4' or 'R1,R2,...'")
        return self.mask(_split(spec))

    # ---- cells and small constraints ---------------------------------------------------------
    def cells(self, u: int) -> tuple[int, ...]:
        """The cells of constraint ``u``."""
        return self.geometry.units[u]

    @cached_property
    def pairs_of_unit(self) -> tuple[frozenset[tuple[int, int]], ...]:
        """For each constraint, its small constraints: the cell pairs ``(a, b)``, ``a < b``."""
        return tuple(frozenset(combinations(sorted(unit), 2)) for unit in self.geometry.units)

    def small_constraints(self, model: int) -> frozenset[tuple[int, int]]:
        """The small (cell-pair ``!=``) constraints a model implies, as sorted cell pairs."""
        out: set[tuple[int, int]] = set()
        for u in self.members(model):
            out |= self.pairs_of_unit[u]
        return frozenset(out)


def _split(body: str) -> list[str]:
    return [p for p in body.replace(";", ",").replace(" ", ",").split(",") if p]


#: Named 9x9 models, by what they miss. ``21`` is Theorem 4.5's model: all boxes, and one row per
#: band and one column per stack missing (the 21 big constraints that are the fewest small ones).
NAMED: dict[str, tuple[str, ...]] = {
    "21": ("R2", "R5", "R8", "C2", "C5", "C8"),
    "twenty-one": ("R2", "R5", "R8", "C2", "C5", "C8"),
    "thm4.5": ("R2", "R5", "R8", "C2", "C5", "C8"),
}


@cache
def board_of(geometry: Geometry) -> Board:
    """The (cached) :class:`Board` of a geometry."""
    return Board(geometry)


@cache
def board(size: int = 3, variant: str = "standard") -> Board:
    """The :class:`Board` for box side ``size`` (3 = 9x9, 2 = 4x4); ``variant`` standard or diagonal."""
    base = standard(size)
    if variant == "standard":
        return Board(base)
    if variant == "diagonal":
        return Board(diagonal(base))
    raise SudokitError(f"no rule analysis for variant {variant!r} (standard, diagonal)")


def popcount(mask: int) -> int:
    """Number of constraints in a bitmask."""
    return bin(mask).count("1")
