"""Naked and hidden subsets (pairs, triples, quads) in any unit of any geometry.

Each search has two forms side by side that name the same first subset that removes something (tested against
each other): a numba kernel (``subsets_kernel``) and plain Python (``*_plain`` here); :func:`sudokit.jit.either`
chooses. Only the subset found is written out as a step."""

from __future__ import annotations

from functools import cache
from itertools import combinations
from types import ModuleType

import numpy as np

from sudokit import jit
from sudokit.logic import intersections, text
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step


@cache
def _modules() -> tuple[ModuleType, ...]:
    """state_arrays, subsets_kernel: imported at the first search (numba comes with them), then kept (an import
    statement in every search cost more than a small kernel's work)."""
    from sudokit.logic import state_arrays, subsets_kernel

    return state_arrays, subsets_kernel


KERNELS = "sudokit.logic.subsets_kernel"
_NAMES = {2: "pair", 3: "triple", 4: "quad"}


def naked_subset(state: State, k: int) -> Step | None:
    """``k`` cells of a unit whose candidates together are ``k`` digits: those digits leave every
    other cell of each unit that holds all ``k`` cells. The first such cells in unit order, then in
    combination order of the unit's cells with at most ``k`` candidates."""
    combo = jit.either(KERNELS, naked_plain, _naked_kernel, state, k)
    return None if combo is None else naked_step(state, combo)


def _naked_kernel(state: State, k: int) -> list[int] | None:
    state_arrays, subsets_kernel = _modules()

    _values, cands = state_arrays.arrays(state)
    units, units_of, _peers, _full = state_arrays.tables(state.g)
    found = np.empty(k, dtype=np.int64)
    if subsets_kernel.naked_subset_hit(cands, units, units_of, k, found) < 0:
        return None
    return [int(s) for s in found]


def naked_plain(state: State, k: int) -> list[int] | None:
    """:func:`subsets_kernel.naked_subset_hit` in plain Python, in the same order: the first ``k`` cells of a
    unit (each with 1 to ``k`` candidates) whose candidates together are ``k`` digits, one of which another
    cell of a unit holding all ``k`` still has; None when there are none."""
    g, cands = state.g, state.cands
    units, units_of, unit_sets = g.units, g.units_of, g.unit_sets
    for unit in units:
        pool = [s for s in unit if cands[s] and cands[s].bit_count() <= k]
        if len(pool) < k:
            continue
        for combo in combinations(pool, k):
            union = 0
            for s in combo:
                union |= cands[s]
            if union.bit_count() != k:
                continue
            for v in units_of[combo[0]]:
                cells = unit_sets[v]
                if all(s in cells for s in combo[1:]) and any(cands[t] & union and t not in combo for t in units[v]):
                    return list(combo)
    return None


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
    """A hidden subset whose eliminations leave a hidden single at once in its own unit (Sudoku Explainer's
    "direct" hidden set: another digit is left one place there)."""
    if hidden_hit(state, k)[0] < 0:  # no hidden subset of size k at all (the plain row reads the same answer)
        return None
    return _first_hidden(state, k, intersections.DIRECT_SUBSET)


def hidden_hit(state: State, k: int) -> tuple[int, int]:
    """(unit, digit mask) of the first hidden subset of size ``k`` that removes something, or (-1, 0); once per
    state (kept in ``state.memo``). Every direct hidden subset is one of them."""
    key = ("hidden", k)
    found = state.memo.get(key)
    if found is None:
        found = state.memo[key] = jit.either(KERNELS, hidden_plain, _hidden_kernel, state, k, None)
    return found


def _first_hidden(state: State, k: int, single: str | None) -> Step | None:
    """The first hidden subset of size ``k`` (made direct when ``single`` names where the single must be)."""
    if single is None:
        u, inside = hidden_hit(state, k)
    else:
        u, inside = jit.either(KERNELS, hidden_plain, _hidden_kernel, state, k, single)
    if u < 0:
        return None
    step = hidden_step(state, u, digits_of(inside))
    if single is None:
        return step
    return intersections.direct(state, step, single, only=(u,) if single == "same" else None)


def _hidden_kernel(state: State, k: int, single: str | None) -> tuple[int, int]:
    state_arrays, subsets_kernel = _modules()

    values, cands = state_arrays.arrays(state)
    units, units_of, _peers, _full = state_arrays.tables(state.g)
    ok = intersections.single_ok(state.g, "any" if single in (None, "same") else single)
    direct = 0 if single is None else 2 if single == "same" else 1
    u, inside = subsets_kernel.hidden_subset_hit(values, cands, units, units_of, state.g.size, k, direct, ok)
    return int(u), int(inside)


def hidden_plain(state: State, k: int, single: str | None) -> tuple[int, int]:
    """:func:`subsets_kernel.hidden_subset_hit` in plain Python, in the same order: (unit, digit mask) of the
    first ``k`` digits of a unit, each with 2 to ``k`` places there, that share exactly ``k`` cells holding
    other digits too (and, when ``single`` is given, whose removals leave a hidden single in a unit of that
    kind, or in the same unit for ``"same"``); (-1, 0) when there are none."""
    g, cands = state.g, state.cands
    table = state.positions_table()
    ok = intersections.single_ok_list(g, "any" if single in (None, "same") else single)
    for u in range(len(g.units)):
        row = table[u]
        digits = [d for d in range(1, g.size + 1) if 2 <= len(row[d]) <= k]
        if len(digits) < k:
            continue
        for ds in combinations(digits, k):
            cells = {s for d in ds for s in row[d]}
            if len(cells) != k:
                continue
            inside = 0
            for d in ds:
                inside |= 1 << (d - 1)
            gone = [(s, d - 1) for s in g.units[u] if s in cells for d in digits_of(cands[s] & ~inside)]
            if not gone:
                continue
            if single == "same":
                others = (row[e] for e in range(1, g.size + 1) if e not in ds and len(row[e]) > 1)
                if any(sum(s not in cells for s in where) == 1 for where in others):
                    return u, inside
            elif single is None or intersections.makes_single_plain(state, ok, gone):
                return u, inside
    return -1, 0


def hidden_step(state: State, u: int, ds: tuple[int, ...]) -> Step:
    """The hidden-subset step of the digits ``ds`` in unit ``u`` (they fit in ``len(ds)`` cells only)."""
    c = state.cands
    k = len(ds)
    cells = sorted({s for d in ds for s in state.places(u, d)})
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
