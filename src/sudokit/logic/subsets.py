"""Naked and hidden subsets (pairs, triples, quads) in any unit of any geometry.

numba kernels (``subsets_kernel``) search the units in order and name the first subset that removes something;
only that one is written out as a step."""

from __future__ import annotations

import numpy as np

from sudokit.logic import text
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step

_NAMES = {2: "pair", 3: "triple", 4: "quad"}


def naked_subset(state: State, k: int) -> Step | None:
    """``k`` cells of a unit whose candidates together are ``k`` digits: those digits leave every
    other cell of each unit that holds all ``k`` cells. The first such cells in unit order, then in
    combination order of the unit's cells with at most ``k`` candidates."""
    from sudokit.logic import state_arrays, subsets_kernel

    _values, cands = state_arrays.arrays(state)
    units, units_of, _peers, _full = state_arrays.tables(state.g)
    found = np.empty(k, dtype=np.int64)
    if subsets_kernel.naked_subset_hit(cands, units, units_of, k, found) < 0:
        return None
    return naked_step(state, [int(s) for s in found])


def naked_step(state: State, combo: list[int]) -> Step:
    """The naked-subset step of the cells ``combo`` (their candidates are ``len(combo)`` digits)."""
    g, c = state.g, state.cands
    k = len(combo)
    union = 0
    for s in combo:
        union |= c[s]
    common = g.units_of_bits[combo[0]]  # the units holding every cell of the subset, in unit order
    for s in combo[1:]:
        common &= g.units_of_bits[s]
    shared = [v for v in range(common.bit_length()) if common >> v & 1]
    elim = sorted({(t, d) for v in shared for t in g.units[v] if t not in combo for d in digits_of(c[t] & union)})
    where = " and ".join(state.unit_name(v) for v in shared)
    return Step(
        f"Naked {_NAMES[k].title()}",
        eliminations=elim,
        cells=list(combo),
        units=shared,
        candidates=[(s, d) for s in combo for d in digits_of(c[s])],
        explanation=(
            f"Naked {_NAMES[k]} {text.digit_set(digits_of(union), state)} in {where} ({text.cells(state, combo)}): "
            f"{text.removals(state, elim)}"
        ),
    )


def hidden_subset(state: State, k: int) -> Step | None:
    """``k`` digits of a unit that fit only in the same ``k`` cells: those cells lose every other digit. The
    first such digits in unit order, then in combination order of the unit's digits with 2 to ``k`` places."""
    return _first_hidden(state, k, None)


def direct_hidden_subset(state: State, k: int) -> Step | None:
    """A hidden subset whose eliminations leave a hidden single at once (Sudoku Explainer's "direct")."""
    from sudokit.logic import intersections

    return _first_hidden(state, k, intersections.DIRECT_SUBSET)


def _first_hidden(state: State, k: int, single: str | None) -> Step | None:
    """The first hidden subset of size ``k`` (made direct when ``single`` names where the single must be)."""
    from sudokit.logic import intersections, state_arrays, subsets_kernel

    values, cands = state_arrays.arrays(state)
    units, units_of, _peers, _full = state_arrays.tables(state.g)
    ok = intersections.single_ok(state.g, single or "any")
    u, inside = subsets_kernel.hidden_subset_hit(
        values, cands, units, units_of, state.g.size, k, single is not None, ok
    )
    if u < 0:
        return None
    step = hidden_step(state, int(u), digits_of(int(inside)))
    return step if single is None else intersections.direct(state, step, single)


def hidden_step(state: State, u: int, ds: tuple[int, ...]) -> Step:
    """The hidden-subset step of the digits ``ds`` in unit ``u`` (they fit in ``len(ds)`` cells only)."""
    c = state.cands
    k = len(ds)
    cells = sorted({s for d in ds for s in state.positions(u, d)})
    inside = sum(1 << (d - 1) for d in ds)
    elim = [(s, d) for s in cells for d in digits_of(c[s] & ~inside)]
    return Step(
        f"Hidden {_NAMES[k].title()}",
        eliminations=elim,
        cells=cells,
        units=[u],
        candidates=[(s, d) for s in cells for d in ds if c[s] >> (d - 1) & 1],
        explanation=(
            f"Hidden {_NAMES[k]} {text.digit_set(ds, state)} in {state.unit_name(u)} "
            f"({text.cells(state, cells)}): {text.removals(state, elim)}"
        ),
    )
