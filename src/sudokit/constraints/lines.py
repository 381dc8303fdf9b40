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
    from sudokit.constraints.solver_model import Model
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

    def compile(self, model: Model) -> None:
        model.thermo(self.line, self.slow)

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

    def peer_groups(self, geometry: Geometry) -> tuple[tuple[int, ...], ...]:
        return (self.line,)

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

    def compile(self, model: Model) -> None:
        model.renban(self.line)

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


@dataclass(frozen=True)
class ThreeClassLine(PairRule):
    """Any three consecutive cells of the line hold digits of three different classes: on a modular line the
    residues mod 3, on an entropic line low / middle / high (the thirds of ``1..size``). Equivalently, cells
    one or two steps apart on the line are of different classes."""

    line: tuple[int, ...]
    size: int = 9
    entropic: bool = False
    kind = "three_class_line"

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        ln = self.line
        return tuple((ln[i], ln[j]) for i in range(len(ln)) for j in (i + 1, i + 2) if j < len(ln))

    @property
    def relation(self) -> tuple:
        return ("different_third", self.size) if self.entropic else ("different_mod", 3)

    def validate(self, geometry: Geometry) -> None:
        if self.entropic and geometry.size % 3:
            raise SudokitError(
                f"entropic line {names(geometry, self.line)}: the digits 1..{geometry.size} do not split into thirds"
            )

    def describe(self, geometry: Geometry) -> str:
        what = "low / middle / high digits" if self.entropic else "residues mod 3"
        return (
            f"{'entropic' if self.entropic else 'modular'} line {names(geometry, self.line)}: any three "
            f"cells in a row on it hold different {what}"
        )


@dataclass(frozen=True)
class BetweenLine(Constraint):
    """The cells strictly inside the line hold digits strictly between the digits of its two ends."""

    line: tuple[int, ...]
    kind = "between_line"

    @property
    def cells(self) -> tuple[int, ...]:
        return self.line

    def check(self, values: Sequence[int]) -> bool:
        a, b = sorted((values[self.line[0]], values[self.line[-1]]))
        return all(a < values[s] < b for s in self.line[1:-1])

    def propagate(self, masks: list[int]) -> bool:
        first, last, middle = self.line[0], self.line[-1], self.line[1:-1]
        if not middle:
            return True
        top = min(high(masks[s]) for s in middle)  # the low end is below every middle digit
        bottom = max(low(masks[s]) for s in middle)  # the high end above every one
        keep_first = keep_last = keep_middle = 0
        for lo_end, hi_end in ((first, last), (last, first)):
            lo_m = masks[lo_end] & ((1 << max(top - 1, 0)) - 1)
            hi_m = masks[hi_end] & _at_least(bottom + 1)
            if not lo_m or not hi_m or high(hi_m) - low(lo_m) < 2:
                continue
            inner = ((1 << (high(hi_m) - 1)) - 1) & _at_least(low(lo_m) + 1)
            if lo_end == first:
                keep_first |= lo_m
                keep_last |= hi_m
            else:
                keep_first |= hi_m
                keep_last |= lo_m
            keep_middle |= inner
        return narrow(masks, self.line, [keep_first, *([keep_middle] * len(middle)), keep_last])

    def compile(self, model: Model) -> None:
        model.between(self.line)

    def describe(self, geometry: Geometry) -> str:
        return f"between line {names(geometry, self.line)}: the inner cells lie strictly between the two ends"
