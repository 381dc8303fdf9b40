"""Odd and even cells (grey circles and squares)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sudokit.constraints.base import Constraint

if TYPE_CHECKING:
    from sudokit.constraints.solver_model import Model
    from sudokit.geometry import Geometry

_ODD = sum(1 << (d - 1) for d in range(1, 36, 2))
_EVEN = sum(1 << (d - 1) for d in range(2, 36, 2))


@dataclass(frozen=True)
class Parity(Constraint):
    """The cell holds an odd digit (``odd`` true) or an even one."""

    cell: int
    odd: bool = True
    kind = "parity"

    @property
    def cells(self) -> tuple[int, ...]:
        return (self.cell,)

    def check(self, values: Sequence[int]) -> bool:
        return values[self.cell] % 2 == (1 if self.odd else 0)

    def propagate(self, masks: list[int]) -> bool:
        masks[self.cell] &= _ODD if self.odd else _EVEN
        return bool(masks[self.cell])

    def compile(self, model: Model) -> None:
        model.restrict(self.cell, _ODD if self.odd else _EVEN)

    def describe(self, geometry: Geometry) -> str:
        return f"{geometry.label(self.cell)} is {'odd' if self.odd else 'even'}"
