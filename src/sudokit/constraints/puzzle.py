"""A variant puzzle: a geometry (digits, cells, regions), givens, and a list of constraints."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from sudokit.constraints.base import Constraint
from sudokit.geometry import Geometry, standard, with_units
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

    @classmethod
    def from_grid(cls, grid: Grid) -> VariantPuzzle:
        """A classic puzzle as a variant one: its diagonals become :class:`Diagonal` constraints, its windows
        and other extra units :class:`ExtraRegion` ones, on the rows, columns and regions of its geometry."""
        from sudokit.constraints.regions import Diagonal, ExtraRegion

        g = grid.geometry
        n = g.size
        keep = [u for u, k in enumerate(g.unit_kinds) if k in ("row", "column", "box", "region")]
        if g.has_boxes and g.box_rows is not None:
            base = standard(g.box_rows, g.box_cols)
        else:
            base = Geometry(
                name=g.name,
                size=n,
                units=tuple(g.units[u] for u in keep),
                unit_names=tuple(g.unit_names[u] for u in keep),
                unit_kinds=tuple(g.unit_kinds[u] for u in keep),
            )
        diagonals = {frozenset(d.cells): d for d in (Diagonal(n, True), Diagonal(n, False))}
        cons: list[Constraint] = []
        for u in g.extra_units:
            cells = g.unit_sets[u]
            cons.append(diagonals.get(cells) or ExtraRegion(g.units[u]))
        return cls.build(base, grid.values, cons)

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
