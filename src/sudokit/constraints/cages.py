"""Killer cages: cells without repeats, summing to a total when one is given."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING

from sudokit.constraints.base import Constraint, names, narrow
from sudokit.errors import SudokitError

if TYPE_CHECKING:
    from sudokit.constraints.solver_model import Model
    from sudokit.geometry import Geometry


@lru_cache(maxsize=4096)
def cage_combos(k: int, total: int, size: int) -> tuple[int, ...]:
    """The masks of the sets of ``k`` different digits ``1..size`` that sum to ``total``."""
    return tuple(
        sum(1 << (d - 1) for d in combo) for combo in combinations(range(1, size + 1), k) if sum(combo) == total
    )


def distinct_pairs(cells: Sequence[int]) -> list[tuple[int, int]]:
    """Every pair of the cells (they must all differ)."""
    return list(combinations(cells, 2))


@dataclass(frozen=True)
class KillerCage(Constraint):
    """A killer cage: no digit twice in ``cage``; the digits sum to ``total`` (no sum rule when ``None``)."""

    cage: tuple[int, ...]
    total: int | None = None
    kind = "killer"

    @property
    def cells(self) -> tuple[int, ...]:
        return self.cage

    def validate(self, geometry: Geometry) -> None:
        n = geometry.size
        where = f"killer cage {names(geometry, self.cage)}"
        if len(self.cage) > n:
            raise SudokitError(f"{where}: {len(self.cage)} cells cannot hold different digits 1..{n}")
        if self.total is not None and not cage_combos(len(self.cage), self.total, n):
            raise SudokitError(f"{where}: no {len(self.cage)} different digits 1..{n} sum to {self.total}")

    def check(self, values: Sequence[int]) -> bool:
        held = [values[s] for s in self.cage]
        return len(set(held)) == len(held) and (self.total is None or sum(held) == self.total)

    def peer_pairs(self, geometry: Geometry) -> list[tuple[int, int]]:
        return distinct_pairs(self.cage)

    def peer_groups(self, geometry: Geometry) -> tuple[tuple[int, ...], ...]:
        return (self.cage,)

    def propagate(self, masks: list[int]) -> bool:
        if self.total is None:
            return True  # the no-repeat rule is the peers' work
        cage = self.cage
        held = [masks[s] for s in cage]
        union = 0
        for m in held:
            union |= m
        allowed = 0
        required = -1
        # combinations within the union's digits are all that can fit: the highest candidate bounds them
        for combo in cage_combos(len(cage), self.total, union.bit_length()):
            if combo & ~union:
                continue
            if all(m & combo for m in held):
                allowed |= combo
                required &= combo
        if not allowed:
            return False
        if not narrow(masks, cage, [allowed] * len(cage)):
            return False
        # a digit every combination needs, with one place left in the cage, goes there
        required &= allowed
        while required:
            bit = required & -required
            required ^= bit
            spots = [s for s in cage if masks[s] & bit]
            if not spots:
                return False
            if len(spots) == 1:
                masks[spots[0]] = bit
        return True

    def compile(self, model: Model) -> None:
        if self.total is not None:
            model.cage(self.cage, self.total)

    def describe(self, geometry: Geometry) -> str:
        rule = "no repeats" if self.total is None else f"sum {self.total}, no repeats"
        return f"killer cage {names(geometry, self.cage)}: {rule}"
