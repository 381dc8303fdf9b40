"""The fast engine: numba kernels for propagate + search, and their thin wrappers.

``solve`` and ``count_solutions`` take a :class:`~sudokit.grid.Grid` or a puzzle string;
``count_array`` and ``solve_array`` take a ``(n_cells,)`` uint8 array for tight loops;
``solve_many`` streams batches of arrays. The names load on first use, so importing this package (or
:mod:`sudokit.engine.pure`) does not import numba until a kernel is needed; one puzzle through ``solve`` or
``count_solutions`` is answered by the plain-Python port until the kernels are loaded (see
:mod:`sudokit.engine.api`). A kernel's first compile is announced on stderr (:mod:`sudokit.jit`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from sudokit.engine.api import count_array, count_solutions, solve, solve_array
    from sudokit.engine.batch import Batch, solve_all, solve_many

__all__ = ["Batch", "count_array", "count_solutions", "solve", "solve_all", "solve_array", "solve_many"]

_WHERE = {
    "solve": "api",
    "count_solutions": "api",
    "count_array": "api",
    "solve_array": "api",
    "solve_many": "batch",
    "solve_all": "batch",
    "Batch": "batch",
}


def __getattr__(name: str):
    if name in _WHERE:
        import importlib

        value = getattr(importlib.import_module(f"sudokit.engine.{_WHERE[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'sudokit.engine' has no attribute {name!r}")
