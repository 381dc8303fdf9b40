"""Clues outside the grid: little killers (diagonal sums) and sandwiches (the sum between 1 and N)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sudokit.constraints.base import Constraint, names, narrow, sum_support
from sudokit.errors import SudokitError

if TYPE_CHECKING:
    from sudokit.constraints.solver_model import Model
    from sudokit.geometry import Geometry


@dataclass(frozen=True)
class LittleKiller(Constraint):
    """The digits on a diagonal (``line``, from the clue inward) sum to ``total``; repeats allowed."""

    line: tuple[int, ...]
    total: int
    kind = "little_killer"

    @property
    def cells(self) -> tuple[int, ...]:
        return self.line

    def validate(self, geometry: Geometry) -> None:
        _reachable(geometry, "little killer", self.line, self.total, len(self.line), geometry.size * len(self.line))

    def check(self, values: Sequence[int]) -> bool:
        return sum(values[s] for s in self.line) == self.total

    def propagate(self, masks: list[int]) -> bool:
        support = sum_support([masks[s] for s in self.line], 1 << self.total)
        if support is None:
            return False
        for s, m in zip(self.line, support[0]):
            masks[s] &= m
        return True

    def compile(self, model: Model) -> None:
        model.linear(self.line, [1] * len(self.line), self.total)

    def describe(self, geometry: Geometry) -> str:
        return f"little killer {self.total}: {names(geometry, self.line)} sum to {self.total}"


@dataclass(frozen=True)
class Sandwich(Constraint):
    """In a row or column (``line``, from the clue's side), the digits between the 1 and the largest digit
    sum to ``total``."""

    line: tuple[int, ...]
    total: int
    kind = "sandwich"

    @property
    def cells(self) -> tuple[int, ...]:
        return self.line

    def validate(self, geometry: Geometry) -> None:
        n = len(self.line)
        _reachable(geometry, "sandwich", self.line, self.total, 0, n * (n - 1) // 2 - 1)

    def check(self, values: Sequence[int]) -> bool:
        vals = [values[s] for s in self.line]
        i, j = sorted((vals.index(1), vals.index(len(vals))))
        return sum(vals[i + 1 : j]) == self.total

    def propagate(self, masks: list[int]) -> bool:
        line = self.line
        n = len(line)
        ends = 1 | (1 << (n - 1))
        held = [masks[s] for s in line]
        keep = [0] * n
        inner = [m & ~ends for m in held]
        for i in range(n):
            for j in range(i + 1, n):
                for lo_bit, hi_bit in ((1, 1 << (n - 1)), (1 << (n - 1), 1)):
                    if not (held[i] & lo_bit and held[j] & hi_bit):
                        continue
                    support = sum_support(inner[i + 1 : j], 1 << self.total)
                    if support is None:
                        continue
                    outside = inner[:i] + inner[j + 1 :]
                    if not all(outside):
                        continue
                    keep[i] |= lo_bit
                    keep[j] |= hi_bit
                    for k, m in enumerate(support[0]):
                        keep[i + 1 + k] |= m
                    for k in (*range(i), *range(j + 1, n)):
                        keep[k] |= inner[k]
        return narrow(masks, line, keep)

    def compile(self, model: Model) -> None:
        model.sandwich(self.line, self.total)

    def describe(self, geometry: Geometry) -> str:
        ends = names(geometry, (self.line[0], self.line[-1]))
        return (
            f"sandwich {self.total} on {ends.replace(' ', '..')}: the digits between 1 and {len(self.line)} "
            f"sum to {self.total}"
        )


@dataclass(frozen=True)
class XSum(Constraint):
    """Seen from the clue, the first X digits of the row or column (``line``) sum to ``total``, X being the
    first digit itself."""

    line: tuple[int, ...]
    total: int
    kind = "xsum"

    @property
    def cells(self) -> tuple[int, ...]:
        return self.line

    def validate(self, geometry: Geometry) -> None:
        n = len(self.line)
        _reachable(geometry, "X-sum", self.line, self.total, 1, n * (n + 1) // 2)

    def check(self, values: Sequence[int]) -> bool:
        x = values[self.line[0]]
        return sum(values[s] for s in self.line[:x]) == self.total

    def propagate(self, masks: list[int]) -> bool:
        line = self.line
        keep = [0] * len(line)
        first = masks[line[0]]
        m = first
        while m:
            bit = m & -m
            m ^= bit
            x = bit.bit_length()
            if x > len(line):
                continue
            support = sum_support([bit] + [masks[s] for s in line[1:x]], 1 << self.total)
            if support is None:
                continue
            for i, got in enumerate(support[0]):
                keep[i] |= got
            for i in range(x, len(line)):  # beyond the first X cells the clue says nothing
                keep[i] |= masks[line[i]]
        return narrow(masks, line, keep)

    def compile(self, model: Model) -> None:
        model.xsum(self.line, self.total)

    def describe(self, geometry: Geometry) -> str:
        ends = names(geometry, (self.line[0], self.line[-1]))
        return (
            f"X-sum {self.total} on {ends.replace(' ', '..')}: the first X digits sum to {self.total}, "
            f"X the first digit"
        )


def _reachable(geometry: Geometry, what: str, line: tuple[int, ...], total: int, lo: int, hi: int) -> None:
    """Refuse a clue no digits can make (outside ``lo..hi``): one clear line instead of a number the
    compiled solver cannot hold (a sum of 10**21 overflowed its integers)."""
    if not lo <= total <= hi:
        ends = names(geometry, (line[0], line[-1])).replace(" ", "..")
        raise SudokitError(f"{what} {total} on {ends}: no digits 1..{geometry.size} make it (possible: {lo}..{hi})")


def _visible(vals: Sequence[int]) -> int:
    seen = top = 0
    for v in vals:
        if v > top:
            seen += 1
            top = v
    return seen


@dataclass(frozen=True)
class Skyscraper(Constraint):
    """Digits are heights: seen from the clue along the row or column (``line``), exactly ``seen`` of them
    are visible (each taller than all before it)."""

    line: tuple[int, ...]
    seen: int
    kind = "skyscraper"

    @property
    def cells(self) -> tuple[int, ...]:
        return self.line

    def check(self, values: Sequence[int]) -> bool:
        return _visible([values[s] for s in self.line]) == self.seen

    def propagate(self, masks: list[int]) -> bool:
        n = len(self.line)
        c = self.seen
        if not 1 <= c <= n:
            return False
        fixed = True
        for i, s in enumerate(self.line):
            # a digit v at position i leaves at most i + 1 + (n - v) visible: v <= n - c + 1 + i
            m = masks[s] & ((1 << max(min(n - c + 1 + i, n), 0)) - 1)
            if not m:
                return False
            masks[s] = m
            fixed = fixed and not m & (m - 1)
        if fixed:
            return _visible([masks[s].bit_length() for s in self.line]) == c
        return True

    def compile(self, model: Model) -> None:
        model.skyscraper(self.line, self.seen)

    def describe(self, geometry: Geometry) -> str:
        ends = names(geometry, (self.line[0], self.line[-1]))
        return f"skyscraper {self.seen} on {ends.replace(' ', '..')}: {self.seen} digits are seen from the clue"
