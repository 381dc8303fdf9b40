"""Quadruples: digits printed on the corner where four cells meet must each appear among those cells (a digit
printed twice, twice)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sudokit.constraints.base import Constraint, names
from sudokit.errors import SudokitError

if TYPE_CHECKING:
    from sudokit.constraints.solver_model import Model
    from sudokit.geometry import Geometry


@dataclass(frozen=True)
class Quadruple(Constraint):
    """Each digit of ``digits`` appears in ``group`` at least as often as it is listed."""

    group: tuple[int, ...]
    digits: tuple[int, ...]
    kind = "quadruple"

    @property
    def cells(self) -> tuple[int, ...]:
        return self.group

    def validate(self, geometry: Geometry) -> None:
        if len(self.digits) > len(self.group) or any(not 1 <= d <= geometry.size for d in self.digits):
            raise SudokitError(
                f"quadruple {names(geometry, self.group)}: digits {list(self.digits)} cannot fit its cells"
            )

    def check(self, values: Sequence[int]) -> bool:
        held = Counter(values[s] for s in self.group)
        return all(held[d] >= k for d, k in Counter(self.digits).items())

    def propagate(self, masks: list[int]) -> bool:
        need = Counter(self.digits)
        group = self.group
        free = len(group) - len(self.digits)  # cells not needed by a listed digit
        for d, k in need.items():
            bit = 1 << (d - 1)
            spots = [s for s in group if masks[s] & bit]
            fixed = sum(1 for s in spots if masks[s] == bit)
            if len(spots) < k:
                return False
            if len(spots) == k and fixed < k:  # every cell that can hold d must
                for s in spots:
                    masks[s] = bit
        if free == 0:  # the listed digits fill the cells: nothing else goes there
            allowed = 0
            for d in need:
                allowed |= 1 << (d - 1)
            for s in group:
                masks[s] &= allowed
                if not masks[s]:
                    return False
        return True

    def compile(self, model: Model) -> None:
        model.quadruple(self.group, dict(Counter(self.digits)))

    def describe(self, geometry: Geometry) -> str:
        listed = ", ".join(map(str, self.digits))
        return f"quadruple {names(geometry, self.group)}: the digits {listed} appear in these cells"
