"""Equal sums: two groups of cells whose digits add up to the same total (repeats allowed where no unit
forbids them). Double arrows, zipper lines and region sum lines are made of these."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sudokit.constraints.base import Constraint, add_digits, names, narrow, sum_support

if TYPE_CHECKING:
    from sudokit.constraints.solver_model import Model
    from sudokit.geometry import Geometry


@dataclass(frozen=True)
class EqualSums(Constraint):
    """The digits of ``left`` and of ``right`` have the same sum; ``source`` names the rule it comes from
    (``doublearrow``, ``zipperline``, ``regionsumline``) and ``line`` that rule's whole line, for writing."""

    left: tuple[int, ...]
    right: tuple[int, ...]
    source: str = "doublearrow"
    line: tuple[int, ...] = ()
    kind = "equal_sums"

    @property
    def cells(self) -> tuple[int, ...]:
        return self.left + self.right

    def check(self, values: Sequence[int]) -> bool:
        return sum(values[s] for s in self.left) == sum(values[s] for s in self.right)

    def propagate(self, masks: list[int]) -> bool:
        sides = []
        for group in (self.left, self.right):
            sums = 1
            for s in group:
                sums = add_digits(sums, masks[s])
            sides.append(sums)
        common = sides[0] & sides[1]
        if not common:
            return False
        for group in (self.left, self.right):
            support = sum_support([masks[s] for s in group], common)
            if support is None or not narrow(masks, group, support[0]):
                return False
        return True

    def compile(self, model: Model) -> None:
        model.linear(self.left + self.right, [1] * len(self.left) + [-1] * len(self.right), 0)

    def describe(self, geometry: Geometry) -> str:
        what = {"doublearrow": "double arrow", "zipperline": "zipper line", "regionsumline": "region sum line"}
        return (
            f"{what.get(self.source, self.source)}: {names(geometry, self.left)} sum to the same as "
            f"{names(geometry, self.right)}"
        )


#: Chains of equal sums with more sides than this get no implied equalities (their number grows as its square).
MOST_LINKED_SIDES = 12


def implied_equal_sums(constraints: Iterable[object]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The equalities that follow from chains of :class:`EqualSums` (a region sum line's segments, a zipper
    line's pairs and centre): sides linked through others all have one sum. Returns each pair of sides of a
    chain (of at most :data:`MOST_LINKED_SIDES`) that no constraint names directly, as (left, right). The
    compiled model takes those of two single cells as equal digits ("Raw Spaghetti": 443 -> 165 nodes); all
    of them cut its nodes less (200) and slowed "Region sum lines, hard" (39 -> 52 ms)."""
    parent: dict[tuple[int, ...], tuple[int, ...]] = {}

    def root(side: tuple[int, ...]) -> tuple[int, ...]:
        while parent[side] != side:
            parent[side] = parent[parent[side]]
            side = parent[side]
        return side

    named = set()
    for con in constraints:
        if isinstance(con, EqualSums):
            a, b = tuple(sorted(con.left)), tuple(sorted(con.right))
            parent.setdefault(a, a)
            parent.setdefault(b, b)
            parent[root(a)] = root(b)
            named.add(frozenset((a, b)))
    chains: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for side in parent:
        chains.setdefault(root(side), []).append(side)
    out = []
    for sides in chains.values():
        if 2 < len(sides) <= MOST_LINKED_SIDES:
            for i, a in enumerate(sides):
                for b in sides[i + 1 :]:
                    if a != b and frozenset((a, b)) not in named:
                        out.append((a, b))
    return out
