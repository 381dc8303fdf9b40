"""Locked candidates: when a digit's places in one unit all lie in a second unit, the digit leaves the
rest of the second unit. Pointing starts from a box (or any non-line unit), claiming from a row or column.
Works on every geometry (it only asks which units contain which cells).

The search has two forms side by side that find the same step (tested against each other): a numba kernel
(``intersections_kernel``) and plain Python (``*_plain`` here); :func:`sudokit.jit.either` chooses."""

from __future__ import annotations

from functools import cache, lru_cache
from types import ModuleType

from sudokit import jit
from sudokit.geometry import Geometry
from sudokit.logic import text
from sudokit.logic.state import State, source_units
from sudokit.logic.step import Step

KERNELS = "sudokit.logic.intersections_kernel"


@cache
def _modules() -> tuple[ModuleType, ...]:
    """intersections_kernel, state_arrays: imported at the first search (numba comes with them), then kept
    (an import statement in every search cost more than a small kernel's work)."""
    from sudokit.logic import intersections_kernel, state_arrays

    return intersections_kernel, state_arrays


def _locked_step(state: State, u: int, d: int, v: int, name: str) -> Step:
    """The locked-candidates step: ``d``'s places in unit ``u`` all lie in unit ``v``, so ``d`` leaves the rest
    of ``v``."""
    g = state.g
    where = state.places(u, d)
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


# Where the hidden single of a "direct" step must be, as Sudoku Explainer looks for it: after a pointing, in
# another box the line crosses ("box": the removals are in those boxes); after a claiming, in another line
# of the same kind that crosses the box (direct_claiming); after a hidden subset, in the subset's own unit
# ("same"). Measured on every 10th puzzle of sudoku_exchange_rated (501; SE 1.2-3.6 bands): see CHANGELOG.md.
DIRECT_POINTING = "box"
DIRECT_SUBSET = "same"


@lru_cache(maxsize=64)
def single_ok_list(g: Geometry, where: str) -> tuple[bool, ...]:
    """For each unit, whether it may hold the hidden single of a "direct" step when ``where`` is ``"box"``
    (any unit but rows and columns), ``"line"`` (rows and columns), ``"row"``, ``"column"`` or ``"any"``."""
    return tuple(_allowed(g, where, u) for u in range(len(g.units)))


def _allowed(g: Geometry, where: str, u: int) -> bool:
    if where == "any":
        return True
    if where in ("row", "column"):
        return g.unit_kinds[u] == where
    return (u in g.rows or u in g.cols) == (where == "line")


@lru_cache(maxsize=64)
def single_ok(g: Geometry, where: str):
    """:func:`single_ok_list` as a numpy array for the kernels."""
    import numpy as np

    return np.array(single_ok_list(g, where))


def _first(state: State, lines: bool | str, name: str, single: str | None = None) -> Step | None:
    """The first locked-candidates step from the rows then columns (``lines`` True; ``"row"`` or ``"column"``:
    from those alone) or from the other units, in unit order and then digit order (made direct when
    ``single`` names where the hidden single must be). The kernel or the plain form finds which one comes
    first; only that one is written out."""
    if single is None:
        u, d, v = locked_hit(state, lines)
    else:
        u, d, v = jit.either(KERNELS, locked_plain, _locked_kernel, state, lines, single)
    if u < 0:
        return None
    step = _locked_step(state, u, d + 1, v, name)
    return step if single is None else direct(state, step, single)


def locked_hit(state: State, lines: bool | str) -> tuple[int, int, int]:
    """(source unit, digit from 0, other unit) of the first locked candidates from those sources that remove
    something, or (-1, -1, -1); once per state (kept in ``state.memo``). Every "direct" step is one of them,
    so where there is none the direct rows need not search (:func:`direct_pointing`, :func:`direct_claiming`)."""
    key = ("locked", lines)
    found = state.memo.get(key)
    if found is None:
        found = state.memo[key] = jit.either(KERNELS, locked_plain, _locked_kernel, state, lines, None)
    return found


@lru_cache(maxsize=64)
def _sources(g: Geometry, lines: bool | str) -> tuple[int, ...]:
    """:func:`source_units`, or the rows or the columns alone (``lines`` ``"row"`` or ``"column"``)."""
    if isinstance(lines, str):
        return tuple(g.rows if lines == "row" else g.cols)
    return source_units(g, lines)


@lru_cache(maxsize=64)
def _source_array(g: Geometry, lines: bool | str):
    import numpy as np

    return np.array(_sources(g, lines), dtype=np.int64)


def _locked_kernel(state: State, lines: bool | str, single: str | None) -> tuple[int, int, int]:
    intersections_kernel, state_arrays = _modules()

    sources = state_arrays.unit_sources(state.g, lines) if isinstance(lines, bool) else _source_array(state.g, lines)
    values, cands = state_arrays.arrays(state)
    units, units_of, _peers, _full = state_arrays.tables(state.g)
    ok = single_ok(state.g, single or "any")
    u, d, v = intersections_kernel.locked_hit(
        values, cands, units, units_of, sources, state.g.size, single is not None, ok
    )
    return int(u), int(d), int(v)


def locked_plain(state: State, lines: bool | str, single: str | None) -> tuple[int, int, int]:
    """:func:`intersections_kernel.locked_hit` in plain Python, in the same order: (source unit, digit from 0,
    other unit) of the first locked candidates from :func:`source_units` that remove something (and, when
    ``single`` is given, leave a hidden single in a unit of that kind), or (-1, -1, -1)."""
    g = state.g
    units, units_of, unit_sets, cands = g.units, g.units_of, g.unit_sets, state.cands
    table = state.positions_table()
    ok = single_ok_list(g, single or "any")
    for u in _sources(g, lines):
        inside = unit_sets[u]
        for d in range(g.size):
            where = table[u][d + 1]
            if len(where) < 2:
                continue
            bit = 1 << d
            for v in units_of[where[0]]:
                if v == u:
                    continue
                cells = unit_sets[v]
                if not all(s in cells for s in where):
                    continue
                gone = [(t, d) for t in units[v] if cands[t] & bit and t not in inside]
                if gone and (single is None or makes_single_plain(state, ok, gone)):
                    return u, d, v
    return -1, -1, -1


def makes_single_plain(state: State, single_ok: tuple[bool, ...], gone: list[tuple[int, int]]) -> bool:
    """:func:`intersections_kernel.makes_single` in plain Python: whether removing the candidates ``gone``
    (cell, digit from 0) leaves a digit one place in a unit allowed by ``single_ok`` where it had several and
    is not yet placed."""
    g, values, cands = state.g, state.values, state.cands
    removed = set(gone)
    for s, d in gone:
        for u in g.units_of[s]:
            if not single_ok[u]:
                continue
            before = left = 0
            for t in g.units[u]:
                if values[t] == d + 1:
                    break
                if cands[t] >> d & 1:
                    before += 1
                    left += (t, d) not in removed
            else:
                if left == 1 and before > 1:
                    return True
    return False


def pointing(state: State) -> Step | None:
    """Locked candidates type 1: a box's places for a digit all lie in one row or column."""
    return _first(state, False, "Pointing")


def claiming(state: State) -> Step | None:
    """Locked candidates type 2: a row's or column's places for a digit all lie in one box."""
    return _first(state, True, "Claiming")


def direct_pointing(state: State) -> Step | None:
    """Pointing whose eliminations leave a hidden single at once (Sudoku Explainer's "direct" variant)."""
    if locked_hit(state, False)[0] < 0:  # no pointing at all (the Pointing row reads the same answer)
        return None
    return _first(state, False, "Pointing", DIRECT_POINTING)


def direct_claiming(state: State) -> Step | None:
    """Claiming whose eliminations leave a hidden single at once in another line of the same kind (Sudoku
    Explainer's direct claiming, 1.9; it looks from the columns first)."""
    if locked_hit(state, True)[0] < 0:  # no claiming from the rows or the columns (the Claiming row reads it)
        return None
    for kind in ("column", "row"):
        step = _first(state, kind, "Claiming", kind)
        if step is not None:
            return step
    return None


def direct(state: State, step: Step, where_single: str = "box", only: tuple[int, ...] | None = None) -> Step | None:
    """``step`` extended with the hidden single its eliminations create, or None. ``where_single`` is the
    kind of unit the single must be in: ``"box"`` (any unit that is not a row or column), ``"line"``,
    ``"row"``, ``"column"`` or ``"any"``; ``only`` (with ``"same"``), the units it may be in."""
    g = state.g
    if step.placements:  # a step that places would change more than candidates: follow it on a copy
        trial = state.copy()
        trial.apply(step)
        left, placed = trial.positions, trial.placed_in
    else:  # only eliminations: a unit's places for d after the step are its places now, less the removed ones
        gone = set(step.eliminations)

        def left(u: int, d: int) -> list[int]:
            return [s for s in state.places(u, d) if (s, d) not in gone]

        placed = state.placed_in

    for cell, d in step.eliminations:
        for u in g.units_of[cell]:
            if (u not in only) if only is not None else not _allowed(g, where_single, u):
                continue
            if placed(u, d) or state.placed_in(u, d):
                continue
            where = left(u, d)
            if len(where) == 1 and len(state.places(u, d)) > 1:
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
