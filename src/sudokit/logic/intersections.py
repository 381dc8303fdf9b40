"""Locked candidates: when a digit's places in one unit all lie in a second unit, the digit leaves the
rest of the second unit. Pointing starts from a box (or any non-line unit), claiming from a row or column.
Works on every geometry (it only asks which units contain which cells)."""

from __future__ import annotations

from functools import lru_cache

from sudokit.geometry import Geometry
from sudokit.logic import text
from sudokit.logic.state import State
from sudokit.logic.step import Step


def _locked_step(state: State, u: int, d: int, v: int, name: str) -> Step:
    """The locked-candidates step: ``d``'s places in unit ``u`` all lie in unit ``v``, so ``d`` leaves the rest
    of ``v``."""
    g = state.g
    where = state.positions(u, d)
    bit = 1 << (d - 1)
    elim = [(s, d) for s in g.units[v] if state.cands[s] & bit and s not in g.unit_sets[u]]
    return Step(
        name,
        eliminations=elim,
        cells=where,
        units=[u, v],
        candidates=[(s, d) for s in where],
        explanation=(
            f"{name}: in {state.unit_name(u)}, {state.sym(d)} can only go in {text.cells(state, where)}, "
            f"all in {state.unit_name(v)}: {text.removals(state, elim)}"
        ),
    )


# Where the hidden single of a "direct" step must be. Chosen by measurement against Sudoku Exchange's
# tiers (see docs/logic.md): counting a hidden single in any unit rates many "hard" puzzles as "medium",
# and a "direct claiming" (single in a row or column) made the agreement worse, so there is none.
DIRECT_POINTING = "box"
DIRECT_SUBSET = "box"


@lru_cache(maxsize=64)
def single_ok(g: Geometry, where: str):
    """For each unit, whether it may hold the hidden single of a "direct" step when ``where`` is ``"box"``
    (any unit but rows and columns), ``"line"`` (rows and columns) or ``"any"``, as a numpy array for the
    kernels."""
    import numpy as np

    lines = set(g.rows) | set(g.cols)
    return np.array([where == "any" or (u in lines) == (where == "line") for u in range(len(g.units))])


def _first(state: State, lines: bool, name: str, single: str | None = None) -> Step | None:
    """The first locked-candidates step from the rows then columns (``lines``) or from the other units, in
    unit order and then digit order (made direct when ``single`` names where the hidden single must be). A
    numba kernel finds which one comes first; only that one is written out."""
    from sudokit.logic import intersections_kernel, state_arrays

    sources = state_arrays.unit_sources(state.g, lines)
    values, cands = state_arrays.arrays(state)
    units, units_of, _peers, _full = state_arrays.tables(state.g)
    ok = single_ok(state.g, single or "any")
    u, d, v = intersections_kernel.locked_hit(
        values, cands, units, units_of, sources, state.g.size, single is not None, ok
    )
    if u < 0:
        return None
    step = _locked_step(state, int(u), int(d) + 1, int(v), name)
    return step if single is None else direct(state, step, single)


def pointing(state: State) -> Step | None:
    """Locked candidates type 1: a box's places for a digit all lie in one row or column."""
    return _first(state, False, "Pointing")


def claiming(state: State) -> Step | None:
    """Locked candidates type 2: a row's or column's places for a digit all lie in one box."""
    return _first(state, True, "Claiming")


def direct_pointing(state: State) -> Step | None:
    """Pointing whose eliminations leave a hidden single at once (Sudoku Explainer's "direct" variant)."""
    return _first(state, False, "Pointing", DIRECT_POINTING)


def direct(state: State, step: Step, where_single: str = "box") -> Step | None:
    """``step`` extended with the hidden single its eliminations create, or None. ``where_single`` is the
    kind of unit the single must be in: ``"box"`` (any unit that is not a row or column), ``"line"`` or
    ``"any"``."""
    g = state.g
    if step.placements:  # a step that places would change more than candidates: follow it on a copy
        trial = state.copy()
        trial.apply(step)
        left, placed = trial.positions, trial.placed_in
    else:  # only eliminations: a unit's places for d after the step are its places now, less the removed ones
        gone = set(step.eliminations)

        def left(u: int, d: int) -> list[int]:
            return [s for s in state.positions(u, d) if (s, d) not in gone]

        placed = state.placed_in

    lines = set(g.rows) | set(g.cols)
    for cell, d in step.eliminations:
        for u in g.units_of[cell]:
            if where_single != "any" and (u in lines) != (where_single == "line"):
                continue
            if placed(u, d) or state.placed_in(u, d):
                continue
            where = left(u, d)
            if len(where) == 1 and len(state.positions(u, d)) > 1:
                s = where[0]
                return Step(
                    f"Direct {step.technique}",
                    placements=[(s, d)],
                    eliminations=step.eliminations,
                    cells=step.cells + [s],
                    units=step.units + [u],
                    candidates=step.candidates + [(s, d)],
                    explanation=(
                        f"Direct {step.explanation[0].lower()}{step.explanation[1:]}; "
                        f"then {state.sym(d)} can only go in {state.label(s)} in {state.unit_name(u)}"
                    ),
                )
    return None
