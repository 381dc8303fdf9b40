"""sudokit: Sudoku as a constraint-satisfaction problem.

The light, always-loaded part of the library: geometry, grids, formats and what a solver returns
(:class:`Result`, :class:`Status`). The fast engine (numba), the readable methods, logic, rules and
rendering load on first use: ``sudokit.solve``, ``sudokit.count_solutions`` and ``sudokit.solve_many``
import the engine when first asked for, so they stay out of ``__all__`` (``from sudokit import *`` does not
load numba). ``sudokit.rate_many`` and its ``NotRated`` load :mod:`sudokit.jobs.api` (light: the logic and
numba load when the first puzzle is rated).
"""

from __future__ import annotations

from sudokit import jit as _jit
from sudokit.errors import ParseError, SudokitError
from sudokit.geometry import Geometry, diagonal, from_name, jigsaw, standard, windoku
from sudokit.grid import Candidates, Grid, is_solution
from sudokit.result import Result, Stats, Status

__version__ = "0.1.0"

# numba's first compile says so on stderr, and finds a cache it can write (see sudokit.jit); no numba import here.
_jit.install()

__all__ = [
    "Candidates",
    "Geometry",
    "Grid",
    "NotRated",
    "ParseError",
    "Result",
    "Stats",
    "Status",
    "SudokitError",
    "diagonal",
    "from_name",
    "is_solution",
    "jigsaw",
    "parse",
    "rate_many",
    "standard",
    "windoku",
]


def parse(text: str, geometry: Geometry | None = None, strict: bool = False) -> Grid:
    """Read one puzzle from text (see :func:`sudokit.formats.parse_grid`)."""
    from sudokit.formats import parse_grid

    return parse_grid(text, geometry=geometry, strict=strict)


def __getattr__(name: str):
    # The engine pulls in numba: load it only when asked for.
    if name in ("solve", "count_solutions", "solve_many"):
        from sudokit import engine

        return getattr(engine, name)
    if name in ("rate_many", "NotRated"):  # the batch layer's rating (sudokit.jobs.api)
        from sudokit.jobs import api

        return getattr(api, name)
    raise AttributeError(f"module 'sudokit' has no attribute {name!r}")
