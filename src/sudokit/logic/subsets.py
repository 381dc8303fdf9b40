"""Naked and hidden subsets (pairs, triples, quads) in any unit of any geometry."""

from __future__ import annotations

from itertools import combinations

from sudokit.logic import text
from sudokit.logic._memo import keep, recall, unit_key
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step

_NAMES = {2: "pair", 3: "triple", 4: "quad"}


def naked_subset(state: State, k: int) -> Step | None:
    """``k`` cells of a unit whose candidates together are ``k`` digits: those digits leave every
    other cell of each unit that holds all ``k`` cells."""
    g, c, lay = state.g, state.cands, state.lay
    unit_bits = lay.unit_bits
    for u, unit in enumerate(g.units):
        pool = [s for s in unit if c[s] and c[s].bit_count() <= k]
        if len(pool) < k:
            continue
        # whether a unit has k cells with k digits at all depends on its own candidates only
        key = unit_key(state, ("naked", k), u)
        if recall(key):
            continue
        subset = False
        for combo in combinations(pool, k):
            union = 0
            for s in combo:
                union |= c[s]
            if union.bit_count() != k:
                continue
            subset = True
            common = unit_bits[combo[0]]  # the units holding every cell of the subset, in unit order
            for s in combo[1:]:
                common &= unit_bits[s]
            shared = [v for v in range(common.bit_length()) if common >> v & 1]
            elim = sorted(
                {(t, d) for v in shared for t in g.units[v] if t not in combo for d in digits_of(c[t] & union)}
            )
            if elim:
                ds = digits_of(union)
                name = f"Naked {_NAMES[k].title()}"
                where = " and ".join(state.unit_name(v) for v in shared)
                return Step(
                    name,
                    eliminations=elim,
                    cells=list(combo),
                    units=shared,
                    candidates=[(s, d) for s in combo for d in digits_of(c[s])],
                    explanation=(
                        f"Naked {_NAMES[k]} {text.digit_set(ds)} in {where} ({text.cells(state, combo)}): "
                        f"{text.removals(state, elim)}"
                    ),
                )
        if not subset:
            keep(key, True)
    return None


def hidden_subset(state: State, k: int) -> Step | None:
    """``k`` digits of a unit that fit only in the same ``k`` cells: those cells lose every other digit."""
    return next(hidden_subsets(state, k), None)


def direct_hidden_subset(state: State, k: int) -> Step | None:
    """A hidden subset whose eliminations leave a hidden single at once (Sudoku Explainer's "direct")."""
    from sudokit.logic import intersections

    where = intersections.DIRECT_SUBSET
    return next(
        (d for d in map(lambda st: intersections.direct(state, st, where), hidden_subsets(state, k)) if d), None
    )


def hidden_subsets(state: State, k: int):
    """Every hidden subset of size ``k`` (a generator)."""
    g, c = state.g, state.cands
    pos = state.positions_table()
    for u, _unit in enumerate(g.units):
        # a unit's hidden subsets depend on its own candidates only: one that had none is skipped
        key = unit_key(state, ("hidden", k), u)
        if recall(key):
            continue
        places = {}
        bits = {}
        row = pos[u]
        for d in g.digits:
            where = row[d]
            if 2 <= len(where) <= k:
                places[d] = where
                m = 0
                for s in where:
                    m |= 1 << s
                bits[d] = m
        if len(places) < k:
            keep(key, True)
            continue
        found = False
        for ds in combinations(sorted(places), k):
            m = 0
            for d in ds:
                m |= bits[d]
            if m.bit_count() != k:
                continue
            cells = sorted({s for d in ds for s in places[d]})
            inside = sum(1 << (d - 1) for d in ds)
            elim = [(s, d) for s in cells for d in digits_of(c[s] & ~inside)]
            if elim:
                found = True
                name = f"Hidden {_NAMES[k].title()}"
                yield Step(
                    name,
                    eliminations=elim,
                    cells=cells,
                    units=[u],
                    candidates=[(s, d) for s in cells for d in ds if c[s] >> (d - 1) & 1],
                    explanation=(
                        f"Hidden {_NAMES[k]} {text.digit_set(ds)} in {state.unit_name(u)} "
                        f"({text.cells(state, cells)}): {text.removals(state, elim)}"
                    ),
                )
        if not found:
            keep(key, True)
