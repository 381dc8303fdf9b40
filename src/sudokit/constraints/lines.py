"""Line rules: thermometers (and slow ones), renban, German whispers, palindromes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sudokit.constraints.base import Constraint, high, low, names, narrow
from sudokit.constraints.cages import distinct_pairs
from sudokit.constraints.pairs import PairRule
from sudokit.errors import SudokitError

if TYPE_CHECKING:
    from sudokit.geometry import Geometry


def _at_least(lo: int) -> int:
    """The mask of every digit from ``lo`` up (a mask of all bits above ``lo - 1``)."""
    return ~((1 << (max(lo, 1) - 1)) - 1)


@dataclass(frozen=True)
class Thermometer(Constraint):
    """Digits increase along the line from its bulb (its first cell): strictly, or never decrease when slow."""

    line: tuple[int, ...]
    slow: bool = False
    kind = "thermometer"

    @property
    def cells(self) -> tuple[int, ...]:
        return self.line

    def validate(self, geometry: Geometry) -> None:
        if not self.slow and len(self.line) > geometry.size:
            raise SudokitError(f"thermometer {names(geometry, self.line)}: longer than the {geometry.size} digits")

    def check(self, values: Sequence[int]) -> bool:
        vals = [values[s] for s in self.line]
        if self.slow:
            return all(a <= b for a, b in zip(vals, vals[1:]))
        return all(a < b for a, b in zip(vals, vals[1:]))

    def propagate(self, masks: list[int]) -> bool:
        step = 0 if self.slow else 1
        line = self.line
        floor = 0
        for s in line:  # bounds are exact on a chain: each digit above the previous cell's lowest
            m = masks[s] & _at_least(floor + step if floor else 1)
            if not m:
                return False
            masks[s] = m
            floor = low(m)
        ceiling = 1 << 30
        for s in reversed(line):
            m = masks[s] & ((1 << max(min(ceiling, 64), 0)) - 1)
            if not m:
                return False
            masks[s] = m
            ceiling = high(m) - step
        return True

    def describe(self, geometry: Geometry) -> str:
        how = "never decrease" if self.slow else "increase"
        return f"{'slow ' if self.slow else ''}thermometer {names(geometry, self.line)}: digits {how} from the bulb"


@dataclass(frozen=True)
class Renban(Constraint):
    """The line's digits are different and consecutive, in any order."""

    line: tuple[int, ...]
    kind = "renban"

    @property
    def cells(self) -> tuple[int, ...]:
        return self.line

    def validate(self, geometry: Geometry) -> None:
        if len(self.line) > geometry.size:
            raise SudokitError(f"renban line {names(geometry, self.line)}: longer than the {geometry.size} digits")

    def check(self, values: Sequence[int]) -> bool:
        vals = {values[s] for s in self.line}
        return len(vals) == len(self.line) and max(vals) - min(vals) == len(vals) - 1

    def peer_pairs(self, geometry: Geometry) -> list[tuple[int, int]]:
        return distinct_pairs(self.line)

    def propagate(self, masks: list[int]) -> bool:
        held = [masks[s] for s in self.line]
        union = 0
        for m in held:
            union |= m
        k = len(held)
        run = (1 << k) - 1
        allowed = 0
        for start in range(union.bit_length() - k + 1):
            r = run << start
            if not r & ~union and all(m & r for m in held):
                allowed |= r
        return bool(allowed) and narrow(masks, self.line, [allowed] * k)

    def describe(self, geometry: Geometry) -> str:
        return f"renban line {names(geometry, self.line)}: different consecutive digits, any order"


@dataclass(frozen=True)
class Whispers(PairRule):
    """Neighbours on the line differ by at least ``gap`` (German whispers: 5 on 9x9)."""

    line: tuple[int, ...]
    gap: int = 5
    kind = "whispers"

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        return tuple(zip(self.line, self.line[1:]))

    @property
    def relation(self) -> tuple:
        return ("at_least_apart", self.gap)

    def describe(self, geometry: Geometry) -> str:
        return f"whispers line {names(geometry, self.line)}: neighbours differ by at least {self.gap}"


@dataclass(frozen=True)
class Palindrome(PairRule):
    """The line reads the same from either end."""

    line: tuple[int, ...]
    kind = "palindrome"

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        k = len(self.line)
        return tuple((self.line[i], self.line[k - 1 - i]) for i in range(k // 2))

    @property
    def relation(self) -> tuple:
        return ("equal",)

    def describe(self, geometry: Geometry) -> str:
        return f"palindrome line {names(geometry, self.line)}: reads the same both ways"
