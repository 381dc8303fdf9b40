"""A variant puzzle: a geometry (digits, cells, regions), givens, and a list of constraints."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from sudokit.constraints.base import Constraint
from sudokit.geometry import Geometry, with_units
from sudokit.grid import Grid, is_solution


@dataclass(frozen=True, eq=False)
class VariantPuzzle:
    """Givens (a :class:`~sudokit.grid.Grid` whose geometry already holds every unit the region-like
    constraints add) and the constraints; ``title``, ``author`` and ``rules`` are the setter's text."""

    givens: Grid
    constraints: tuple[Constraint, ...]
    title: str = ""
    author: str = ""
    rules: str = ""

    @classmethod
    def build(
        cls,
        base: Geometry,
        values: Sequence[int],
        constraints: Sequence[Constraint],
        title: str = "",
        author: str = "",
        rules: str = "",
    ) -> VariantPuzzle:
        """The puzzle on ``base`` plus the units the constraints add; each constraint is validated first."""
        for con in constraints:
            con.validate(base)
        extra = [unit for con in constraints for unit in con.units(base)]
        geometry = base
        for kind in dict.fromkeys(k for _, _, k in extra):
            picked = [(cells, name) for cells, name, k in extra if k == kind]
            geometry = with_units(
                geometry, [c for c, _ in picked], [nm for _, nm in picked], f"{geometry.name} + {kind}", kind
            )
        return cls(Grid(geometry, tuple(values)), tuple(constraints), title, author, rules)

    @property
    def geometry(self) -> Geometry:
        """The geometry with every unit (rows, columns, regions, and those the constraints add)."""
        return self.givens.geometry

    @cached_property
    def peers(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, every cell that must differ from it: the geometry's peers and the constraints'."""
        g = self.geometry
        table = [set(p) for p in g.peers]
        for con in self.constraints:
            for a, b in con.peer_pairs(g):
                table[a].add(b)
                table[b].add(a)
        return tuple(tuple(sorted(t)) for t in table)

    def broken(self, values: Sequence[int]) -> list[Constraint]:
        """The constraints a completed grid breaks (units are checked by :meth:`is_solution`)."""
        return [con for con in self.constraints if not con.check(values)]

    def is_solution(self, grid: Grid) -> bool:
        """True when ``grid`` is complete, keeps the givens, every unit and every constraint."""
        return is_solution(grid, self.givens) and not self.broken(grid.values)

    def describe(self) -> list[str]:
        """Every rule in words: the units, then one line per constraint."""
        g = self.geometry
        kinds = dict.fromkeys(g.unit_kinds)
        plural = {"box": "boxes", "extra": "extra units"}
        lines = [f"{g.size}x{g.size}, units: " + ", ".join(plural.get(k, f"{k}s") for k in kinds)]
        lines += [con.describe(g) for con in self.constraints]
        return lines
