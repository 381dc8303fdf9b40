"""Region-like rules: they add units or peers to the geometry and leave the work to the singles and the
peer eliminations. Diagonals (X-Sudoku), extra regions, disjoint groups, anti-knight and anti-king."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import isqrt
from typing import TYPE_CHECKING

from sudokit.constraints.base import Constraint, names
from sudokit.constraints.cages import distinct_pairs
from sudokit.errors import SudokitError

if TYPE_CHECKING:
    from sudokit.geometry import Geometry


def _distinct(values: Sequence[int], cells: Sequence[int]) -> bool:
    return len({values[s] for s in cells}) == len(cells)


@dataclass(frozen=True)
class Diagonal(Constraint):
    """No repeats on a main diagonal: ``positive`` runs bottom-left to top-right (f-puzzles ``diagonal+``),
    else top-left to bottom-right (``diagonal-``)."""

    size: int
    positive: bool = True
    kind = "diagonal"

    @property
    def cells(self) -> tuple[int, ...]:
        n = self.size
        if self.positive:
            return tuple((n - 1 - i) * n + i for i in range(n))
        return tuple(i * n + i for i in range(n))

    def check(self, values: Sequence[int]) -> bool:
        return _distinct(values, self.cells)

    def units(self, geometry: Geometry) -> list[tuple[tuple[int, ...], str, str]]:
        return [(self.cells, f"diagonal {'+' if self.positive else '-'}", "diagonal")]

    def describe(self, geometry: Geometry) -> str:
        way = "bottom-left to top-right" if self.positive else "top-left to bottom-right"
        return f"diagonal {'+' if self.positive else '-'} ({way}): no repeats"


@dataclass(frozen=True)
class ExtraRegion(Constraint):
    """An extra region: no repeats in its cells (a unit too when it has ``size`` cells)."""

    region: tuple[int, ...]
    kind = "extra_region"

    @property
    def cells(self) -> tuple[int, ...]:
        return self.region

    def validate(self, geometry: Geometry) -> None:
        if len(self.region) > geometry.size:
            raise SudokitError(
                f"extra region {names(geometry, self.region)}: {len(self.region)} cells cannot all differ"
            )

    def check(self, values: Sequence[int]) -> bool:
        return _distinct(values, self.region)

    def units(self, geometry: Geometry) -> list[tuple[tuple[int, ...], str, str]]:
        if len(self.region) == geometry.size:
            return [(self.region, f"extra region {geometry.label(self.region[0])}", "extra")]
        return []

    def peer_pairs(self, geometry: Geometry) -> list[tuple[int, int]]:
        return [] if len(self.region) == geometry.size else distinct_pairs(self.region)

    def peer_groups(self, geometry: Geometry) -> tuple[tuple[int, ...], ...]:
        return () if len(self.region) == geometry.size else (self.region,)

    def describe(self, geometry: Geometry) -> str:
        return f"extra region {names(geometry, self.region)}: no repeats"


@dataclass(frozen=True)
class DisjointGroups(Constraint):
    """The cells in the same place of every region (``groups``, built from the regions) hold no repeats."""

    groups: tuple[tuple[int, ...], ...]
    kind = "disjoint_groups"

    @classmethod
    def of(cls, geometry: Geometry) -> DisjointGroups:
        """The groups of a geometry's regions: the k-th cell of each region in reading order."""
        regions = [sorted(geometry.units[u]) for u in geometry.regions]
        if not regions or any(len(r) != geometry.size for r in regions):
            raise SudokitError("disjoint groups need regions of equal size")
        return cls(tuple(tuple(r[k] for r in regions) for k in range(geometry.size)))

    @property
    def cells(self) -> tuple[int, ...]:
        return tuple(s for g in self.groups for s in g)

    def check(self, values: Sequence[int]) -> bool:
        return all(_distinct(values, g) for g in self.groups)

    def units(self, geometry: Geometry) -> list[tuple[tuple[int, ...], str, str]]:
        return [(g, f"disjoint group {k + 1}", "extra") for k, g in enumerate(self.groups)]

    def describe(self, geometry: Geometry) -> str:
        return "disjoint groups: cells in the same place of each region hold no repeats"


@lru_cache(maxsize=64)
def _moves_pairs(n: int, moves: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """The pairs of cells of an ``n`` x ``n`` board one of ``moves`` apart (each once, lower cell first)."""
    out = []
    for r in range(n):
        for c in range(n):
            for dr, dc in moves:
                r2, c2 = r + dr, c + dc
                if 0 <= r2 < n and 0 <= c2 < n and r * n + c < r2 * n + c2:
                    out.append((r * n + c, r2 * n + c2))
    return tuple(out)


_KNIGHT = ((1, 2), (2, 1), (1, -2), (2, -1), (-1, 2), (-2, 1), (-1, -2), (-2, -1))
_KING = ((0, 1), (1, 0), (1, 1), (1, -1), (0, -1), (-1, 0), (-1, -1), (-1, 1))


@dataclass(frozen=True)
class AntiKnight(Constraint):
    """Cells a chess knight's move apart hold different digits."""

    kind = "antiknight"
    moves = _KNIGHT
    what = "a knight's move"

    def check(self, values: Sequence[int]) -> bool:
        return all(values[a] != values[b] for a, b in _moves_pairs(isqrt(len(values)), self.moves))

    def peer_pairs(self, geometry: Geometry) -> tuple[tuple[int, int], ...]:
        return _moves_pairs(geometry.size, self.moves)

    def describe(self, geometry: Geometry) -> str:
        return f"anti-{self.kind[4:]}: cells {self.what} apart hold different digits"


@dataclass(frozen=True)
class AntiKing(AntiKnight):
    """Cells a chess king's move apart (diagonal neighbours included) hold different digits."""

    kind = "antiking"
    moves = _KING
    what = "a king's move"
