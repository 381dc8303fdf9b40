"""The seeds' algorithms, readable and traced, registered by name.

=========  ==========================================================================================
name       what it does
=========  ==========================================================================================
udacity    eliminate + only choice + naked twins until stalled, then search on the fewest candidates
norvig     Norvig: propagate on every assignment (peers and units), then search on the fewest
ac3        AC-3 on the binary != constraints, then backtracking with MAC, MRV + degree, least
           constraining value
=========  ==========================================================================================

Each entry of :data:`METHODS` is called as ``solve(puzzle, *, limit=2, time_limit=None, node_limit=None,
trace=False)`` and returns a :class:`sudokit.result.Result` (solutions counted up to ``limit``; a
:class:`~sudokit.methods.trace.Trace` in ``result.trace`` when ``trace`` is true). :data:`PROPAGATORS` gives
each method's propagation alone, for the "after propagation" stage. Adding a method is adding one module
with ``solutions`` and ``propagate`` and one line in :data:`_MODULES`.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

from sudokit.errors import SudokitError
from sudokit.grid import Grid
from sudokit.methods import ac3, norvig, udacity
from sudokit.methods.runner import run
from sudokit.methods.trace import Event, Trace, read_trace, write_trace
from sudokit.result import Result

__all__ = ["METHODS", "DESCRIPTIONS", "PROPAGATORS", "get", "Event", "Trace", "write_trace", "read_trace"]

_MODULES: dict[str, tuple[ModuleType, str]] = {
    "udacity": (udacity, "eliminate + only choice + naked twins until stalled, then search on the fewest candidates"),
    "norvig": (norvig, "Norvig: propagate on every assignment (peers and units), then search on the fewest"),
    "ac3": (ac3, "AC-3 on the binary != constraints, then backtracking with MAC, MRV + degree, least constraining"),
}


def _solver(name: str, module: ModuleType) -> Callable[..., Result]:
    outcome = getattr(module, "outcome", None)

    def solve(
        puzzle: Grid,
        *,
        limit: int = 2,
        time_limit: float | None = None,
        node_limit: int | None = None,
        trace: bool = False,
    ) -> Result:
        return run(
            name,
            module.solutions,
            puzzle,
            limit=limit,
            time_limit=time_limit,
            node_limit=node_limit,
            trace=trace,
            outcome=outcome,
        )

    solve.__name__ = f"solve_{name}"
    solve.__doc__ = f"Solve ``puzzle`` with the {name} method: {_MODULES[name][1]}."
    return solve


#: name -> solve function, e.g. ``METHODS["norvig"](puzzle, limit=2, time_limit=10)``.
METHODS: dict[str, Callable[..., Result]] = {name: _solver(name, mod) for name, (mod, _) in _MODULES.items()}
#: name -> one line saying what the method does.
DESCRIPTIONS: dict[str, str] = {name: text for name, (_, text) in _MODULES.items()}
#: name -> propagation alone: ``propagate(puzzle) -> list of candidate bitmasks, or None on a contradiction``.
PROPAGATORS: dict[str, Callable[[Grid], list[int] | None]] = {
    name: mod.propagate for name, (mod, _) in _MODULES.items()
}


def get(name: str) -> Callable[..., Result]:
    """The solve function of a method by name; :class:`SudokitError` for an unknown name."""
    try:
        return METHODS[name.lower()]
    except KeyError:
        raise SudokitError(f"unknown method {name!r}; known: {', '.join(METHODS)}") from None
