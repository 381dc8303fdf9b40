"""Rules made of two-cell relations: the shared propagation (arc consistency pair by pair)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import isqrt
from typing import TYPE_CHECKING

from sudokit.constraints.base import RELATIONS, Constraint, pair_table, revise_pair

if TYPE_CHECKING:
    from sudokit.constraints.solver_model import Model


@dataclass(frozen=True)
class PairRule(Constraint):
    """A rule that is a relation on each of some pairs of cells (``relation`` = ``(name, *parameters)``, a
    name of :data:`~sudokit.constraints.base.RELATIONS`). Subclasses say which pairs and which relation."""

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        raise NotImplementedError

    @property
    def relation(self) -> tuple:
        raise NotImplementedError

    @property
    def cells(self) -> tuple[int, ...]:
        return tuple(sorted({s for pair in self.pairs for s in pair}))

    def check(self, values: Sequence[int]) -> bool:
        relation = self.relation
        n = isqrt(len(values))
        forward = pair_table(relation, n)[0]  # forward[x]: the digits b may hold when a holds x
        for a, b in self.pairs:
            x = values[a]
            y = values[b]
            if 0 < x <= n and 0 < y <= n:
                if not forward[x] >> (y - 1) & 1:
                    return False
            elif not RELATIONS[relation[0]](x, y, *relation[1:]):  # a value outside 1..n: the rule itself
                return False
        return True

    def propagate(self, masks: list[int]) -> bool:
        size = 0
        for s in self.cells:
            size = max(size, masks[s].bit_length())
        forward, backward = pair_table(self.relation, max(size, 1))
        return all(revise_pair(masks, a, b, forward, backward) for a, b in self.pairs)

    def compile(self, model: Model) -> None:
        model.pairs(self.pairs, self.relation)
