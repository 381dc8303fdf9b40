"""Arrows: the digits on the shaft sum to the number in the bulb (a bulb of several cells, a "pill", reads
its digits as one decimal number, in order)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from typing import TYPE_CHECKING

from sudokit.constraints.base import Constraint, NotCompiled, add_digits, digits, names, narrow, sum_support
from sudokit.errors import SudokitError

if TYPE_CHECKING:
    from sudokit.constraints.solver_model import Model
    from sudokit.geometry import Geometry

#: Above this many digit choices in a bulb, propagation keeps only the shaft's side (still sound).
MAX_BULB_CHOICES = 4096


def bulb_number(ds: Sequence[int]) -> int:
    """The number a bulb's digits write, read in order: (1, 2) -> 12; (1, 12) -> 112 on 16x16."""
    return int("".join(str(d) for d in ds))


@dataclass(frozen=True)
class Arrow(Constraint):
    """The shaft's digits (repeats allowed where no unit forbids them) sum to the bulb's number. A shaft may
    pass through a cell of its bulb again (f-puzzles' solver sums it): that cell counts on both sides
    (propagation narrows the two sides apart, still sound; the compiled model adds its coefficients)."""

    bulb: tuple[int, ...]
    shaft: tuple[int, ...]
    kind = "arrow"

    @property
    def cells(self) -> tuple[int, ...]:
        return self.bulb + self.shaft

    def validate(self, geometry: Geometry) -> None:
        if not self.bulb or not self.shaft:
            raise SudokitError(f"arrow {names(geometry, self.cells)}: needs a bulb and a shaft")

    def check(self, values: Sequence[int]) -> bool:
        return bulb_number([values[s] for s in self.bulb]) == sum(values[s] for s in self.shaft)

    def propagate(self, masks: list[int]) -> bool:
        shaft_masks = [masks[s] for s in self.shaft]
        sums = 1
        for m in shaft_masks:
            sums = add_digits(sums, m)
        bulb_masks = [masks[s] for s in self.bulb]
        choices = 1
        for m in bulb_masks:
            choices *= m.bit_count()
        if choices > MAX_BULB_CHOICES:
            support = sum_support(shaft_masks, -1)  # every total: only empty cells fail
            return support is not None
        targets = 0
        keep = [0] * len(self.bulb)
        for ds in product(*(digits(m) for m in bulb_masks)):
            number = bulb_number(ds)
            if sums >> number & 1:
                targets |= 1 << number
                for i, d in enumerate(ds):
                    keep[i] |= 1 << (d - 1)
        if not targets or not narrow(masks, self.bulb, keep):
            return False
        support = sum_support(shaft_masks, targets)
        return support is not None and narrow(masks, self.shaft, support[0])

    def compile(self, model: Model) -> None:
        # the bulb's number is linear in its digits while every digit has one decimal place
        if len(self.bulb) > 1 and model.size > 9:
            raise NotCompiled("arrow with a bulb of several cells on a board with digits above 9")
        k = len(self.bulb)
        weights = [-(10 ** (k - 1 - i)) for i in range(k)]
        model.linear(self.shaft + self.bulb, [1] * len(self.shaft) + weights, 0)

    def describe(self, geometry: Geometry) -> str:
        bulb = names(geometry, self.bulb)
        what = "the number in the bulb" if len(self.bulb) > 1 else "the bulb"
        return f"arrow from {bulb}: {names(geometry, self.shaft)} sum to {what}"
