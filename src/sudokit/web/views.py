"""The JSON shapes of the API: geometries, puzzles and their conflicts."""

from __future__ import annotations

from typing import Any

from sudokit.geometry import Geometry
from sudokit.grid import Grid


def geometry_json(g: Geometry) -> dict[str, Any]:
    """What the page needs to draw and check a board: units, their names, regions and extra units.

    ``region`` numbers each cell's box or jigsaw region 0, 1, ... (-1 outside every region)."""
    number = {u: i for i, u in enumerate(g.regions)}
    region = [number.get(u, -1) for u in g.region_of]
    return {
        "name": g.name,
        "size": g.size,
        "symbols": g.symbols,
        "box_rows": g.box_rows,
        "box_cols": g.box_cols,
        "labels": list(g.labels),
        "units": [list(u) for u in g.units],
        "unit_names": list(g.unit_names),
        "region": region,
        "extra_units": list(g.extra_units),
    }


def conflicts_json(grid: Grid) -> list[dict[str, Any]]:
    """Every clash of the grid: the unit, the digit, the cells and a sentence."""
    return [
        {
            "unit": c.unit,
            "unit_name": c.unit_name,
            "digit": c.digit,
            "cells": list(c.cells),
            "message": c.describe(grid.geometry),
        }
        for c in grid.conflicts()
    ]


def puzzle_json(grid: Grid, variant: str) -> dict[str, Any]:
    """A puzzle with its geometry and conflicts."""
    return {
        "variant": variant,
        "line": grid.to_line(),
        "values": list(grid.values),
        "givens": grid.givens,
        "geometry": geometry_json(grid.geometry),
        "conflicts": conflicts_json(grid),
    }


def check_json(grid: Grid) -> dict[str, Any]:
    """Conflicts, and whether the grid is complete and a valid solution."""
    from sudokit.grid import is_solution

    return {
        "conflicts": conflicts_json(grid),
        "complete": grid.is_complete,
        "solved": grid.is_complete and is_solution(grid),
        "givens": grid.givens,
    }
