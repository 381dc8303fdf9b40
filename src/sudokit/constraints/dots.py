"""Dots and marks between two orthogonal neighbours: Kropki white/black, X/V, and their negative forms
(non-consecutive, "no other ratio", "no other X or V") over every unmarked pair."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sudokit.constraints.base import names
from sudokit.constraints.pairs import PairRule
from sudokit.errors import SudokitError

if TYPE_CHECKING:
    from sudokit.geometry import Geometry


def _adjacent(geometry: Geometry, a: int, b: int, what: str) -> None:
    if abs(geometry.row(a) - geometry.row(b)) + abs(geometry.col(a) - geometry.col(b)) != 1:
        raise SudokitError(f"{what} between {names(geometry, (a, b))}: the cells are not orthogonal neighbours")


@dataclass(frozen=True)
class Kropki(PairRule):
    """A Kropki dot: white, the digits differ by ``value`` (1 by default); black, one is ``value`` times the
    other (2 by default)."""

    a: int
    b: int
    black: bool = False
    value: int | None = None
    kind = "kropki"

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        return ((self.a, self.b),)

    @property
    def amount(self) -> int:
        """The dot's number: its value, else 2 (black) or 1 (white)."""
        return self.value if self.value is not None else (2 if self.black else 1)

    @property
    def relation(self) -> tuple:
        return ("ratio" if self.black else "difference", self.amount)

    def validate(self, geometry: Geometry) -> None:
        _adjacent(geometry, self.a, self.b, "Kropki dot")

    def describe(self, geometry: Geometry) -> str:
        cells = names(geometry, (self.a, self.b))
        if self.black:
            return f"black dot {cells}: one digit is {self.amount} times the other"
        return f"white dot {cells}: the digits differ by {self.amount}"


@dataclass(frozen=True)
class XV(PairRule):
    """An X (the two digits sum to 10) or a V (they sum to 5)."""

    a: int
    b: int
    total: int = 10
    kind = "xv"

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        return ((self.a, self.b),)

    @property
    def relation(self) -> tuple:
        return ("sum", self.total)

    def validate(self, geometry: Geometry) -> None:
        _adjacent(geometry, self.a, self.b, "X/V mark")

    def describe(self, geometry: Geometry) -> str:
        mark = {10: "X", 5: "V"}.get(self.total, str(self.total))
        return f"{mark} {names(geometry, (self.a, self.b))}: the digits sum to {self.total}"


@dataclass(frozen=True)
class NonConsecutive(PairRule):
    """Orthogonal neighbours never differ by 1 (pairs carrying a Kropki dot are spared: ``between``)."""

    between: tuple[tuple[int, int], ...]
    kind = "nonconsecutive"

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        return self.between

    @property
    def relation(self) -> tuple:
        return ("not_difference", 1)

    def describe(self, geometry: Geometry) -> str:
        return f"non-consecutive: orthogonal neighbours never differ by 1 ({len(self.between)} pairs)"


@dataclass(frozen=True)
class NegativeRatio(PairRule):
    """Every black dot is given: unmarked neighbours are in none of the ``ratios`` (as f-puzzles' solver reads
    the rule: 2 and each ratio a black dot shows)."""

    between: tuple[tuple[int, int], ...]
    ratios: tuple[int, ...] = (2,)
    kind = "negative_ratio"

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        return self.between

    @property
    def relation(self) -> tuple:
        return ("not_ratio", *self.ratios)

    def describe(self, geometry: Geometry) -> str:
        ks = ", ".join(map(str, self.ratios))
        return f"all black dots given: unmarked neighbours are never in ratio {ks} ({len(self.between)} pairs)"


@dataclass(frozen=True)
class NegativeXV(PairRule):
    """Every X and V is given: unmarked neighbours sum to neither 5 nor 10."""

    between: tuple[tuple[int, int], ...]
    kind = "negative_xv"

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        return self.between

    @property
    def relation(self) -> tuple:
        return ("not_sum", 5, 10)

    def describe(self, geometry: Geometry) -> str:
        return f"all X and V given: unmarked neighbours sum to neither 5 nor 10 ({len(self.between)} pairs)"
