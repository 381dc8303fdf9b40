"""Forcing chains, the last resort before guessing: assume a candidate, follow the singles it forces,
and see what happens.

- *Contradiction* (Nishio-style): if assuming ``cell = d`` breaks the grid, ``d`` leaves the cell.
- *Cell forcing*: if every candidate of a cell forces the same placement, it is made.
Propagation follows naked and hidden singles only ("level 1"); the dynamic variant also uses locked
candidates while following ("level 2") and is rated higher. Works on every geometry.

Following an assumption searches the units touched by its changes for hidden singles in ascending unit
number (a bitmask of "dirty" units, lowest bit first). The number of deductions before a contradiction, and
so the rating, depends on that order; it is fixed here so that it never rests on an implementation detail.

The contradiction search over every candidate runs in a numba kernel (``_kernels.contradiction_search``)
that follows singles exactly as :func:`assume` does, in the same order; the dynamic variant, which calls
the locked-candidates finders while following, stays in Python.
"""

from __future__ import annotations

from sudokit.logic import text
from sudokit.logic.chains import length_penalty
from sudokit.logic.state import State
from sudokit.logic.step import Step

#: SE-style base ratings before the length penalty (the registry lists the same numbers). Following every
#: single, not one digit, puts these with SE's multiple/dynamic forcing chains rather than Nishio (7.5):
#: measured on sudoku_exchange_rated, 8.0/8.5/9.0 keeps Spearman at 0.954 and raises the share within
#: +-0.5 of Sukaku Explainer from 63% to 75% (7.5/8.0/8.5).
BASE = {"contradiction": 8.0, "cell": 8.5, "dynamic": 9.0}


def assume(state: State, cell: int, digit: int, locked: bool = False, limit: int = 400) -> tuple[bool, int]:
    """Place ``digit`` in ``cell`` of ``state`` (changed in place) and follow the singles it forces, and
    locked candidates when ``locked``. Returns (still consistent, number of deductions made).

    Event-driven: only units touched by a change are searched for hidden singles, so following one
    assumption costs a few hundred operations rather than a sweep of the whole grid per deduction. The
    touched units are kept as a bitmask (bit ``u`` = unit ``u``) and searched in ascending unit number; the
    singles they reveal are followed last found, first placed."""
    g = state.g
    units, peers = g.units, g.peers
    unit_bits = state.lay.unit_bits
    full = g.all_mask
    c, vals = state.cands, state.values
    queue = [(cell, digit)]
    dirty = 0
    made = 0
    while made < limit:
        while queue:
            s, d = queue.pop()
            if vals[s]:
                if vals[s] != d:
                    return False, made
                continue
            bit = 1 << (d - 1)
            if not c[s] & bit:
                return False, made
            vals[s] = d
            c[s] = 0
            made += 1
            dirty |= unit_bits[s]
            off = ~bit
            for p in peers[s]:
                m = c[p]
                if m & bit:
                    m &= off
                    c[p] = m
                    if not m:
                        return False, made
                    dirty |= unit_bits[p]
                    if not m & (m - 1):
                        queue.append((p, m.bit_length()))
        if dirty:
            todo, dirty = dirty, 0
            while todo:
                low = todo & -todo
                todo ^= low
                u = low.bit_length() - 1
                once = more = placed = 0
                unit = units[u]
                for s in unit:
                    m = c[s]
                    more |= once & m
                    once |= m
                    if vals[s]:
                        placed |= 1 << (vals[s] - 1)
                if (once | placed) != full:
                    return False, made
                only = once & ~more & ~placed
                while only:
                    bit = only & -only
                    only ^= bit
                    for s in unit:
                        if c[s] & bit:
                            queue.append((s, bit.bit_length()))
                            break
            if queue:
                continue
        if locked:
            from sudokit.logic.intersections import claiming, pointing

            state.changed()
            step = pointing(state) or claiming(state)
            if step is not None:
                for s, d in step.eliminations:
                    c[s] &= ~(1 << (d - 1))
                    m = c[s]
                    if not m:
                        return False, made
                    dirty |= unit_bits[s]
                    if not m & (m - 1):
                        queue.append((s, m.bit_length()))
                made += 1
                continue
        return True, made
    return True, made


def _contradiction(state: State, locked: bool, name: str, base: float) -> Step | None:
    best = _search(state) if not locked else _search_locked(state)
    if best is None:
        return None
    s, d, made = best
    return Step(
        name,
        eliminations=[(s, d)],
        cells=[s],
        candidates=[(s, d)],
        rating=round(base + length_penalty(made + 2), 1),
        explanation=(
            f"{name}: if {state.label(s)} were {state.sym(d)}, {made} forced placements would leave the grid with "
            f"no valid "
            f"completion, so {text.removals(state, [(s, d)])}"
        ),
    )


#: the propagation caps of the iterative deepening (see :func:`_search_locked`)
LIMITS = (6, 12, 24, 400)


def _search(state: State) -> tuple[int, int, int] | None:
    """(cell, digit, deductions) of the best contradiction following singles only: the numba kernel runs
    :func:`_search_locked`'s loop with ``assume``'s propagation, in the same order, so the answer is the same."""
    import numpy as np

    from sudokit.logic import _kernels

    order = [(s, d) for s in state.empty_cells() for d in state.digits(s)]
    if not order:
        return None
    units, units_of, peers, full = _kernels.tables(state.g)
    values, cands = _kernels.state_arrays(state)  # read only: the kernel follows each candidate on copies
    s, d, made = _kernels.contradiction_search(
        values,
        cands,
        units,
        units_of,
        peers,
        full,
        np.array(order, dtype=np.int64),
        np.array(LIMITS, dtype=np.int64),
    )
    return None if s < 0 else (int(s), int(d), int(made))


def _search_locked(state: State, locked: bool = True) -> tuple[int, int, int] | None:
    """(cell, digit, deductions) of the contradiction with the fewest deductions, in pure Python (the
    dynamic chain calls the locked-candidates finders while following, which the kernel cannot)."""
    best = None
    cands = [(s, d) for s in state.empty_cells() for d in state.digits(s)]
    # iterative deepening: most contradictions are short, and capping the propagation of the candidates
    # that do not break the grid is what keeps this affordable
    # a candidate whose propagation stopped by itself below the cap gives the same answer under any larger
    # cap (``assume`` is deterministic), so later rounds skip it
    for limit in LIMITS:
        still = []
        for s, d in cands:
            trial = state.copy()
            ok, made = assume(trial, s, d, locked, limit)
            if not ok and (best is None or made < best[2]):
                best = (s, d, made)
            if not ok or made >= limit:
                still.append((s, d))
        if best is not None:
            break
        cands = still
    return best


def _cell_forcing(state: State, locked: bool, name: str, base: float) -> Step | None:
    for s in state.empty_cells():
        if state.cands[s].bit_count() > 3:
            continue
        common = None
        longest = 0
        for d in state.digits(s):
            trial = state.copy()
            ok, made = assume(trial, s, d, locked)
            if not ok:
                continue  # contradiction branches are found by the contradiction rule
            longest = max(longest, made)
            placed = {(t, v) for t, v in enumerate(trial.values) if v and not state.values[t]}
            common = placed if common is None else common & placed
        if common:
            places = sorted(common)[:1]
            if places and all(state.cands[t] >> (v - 1) & 1 for t, v in places):
                t, v = places[0]
                return Step(
                    name,
                    placements=places,
                    cells=[s, t],
                    candidates=[(s, d) for d in state.digits(s)] + places,
                    rating=round(base + length_penalty(longest + 2), 1),
                    explanation=(
                        f"{name}: whichever of {text.digit_set(state.digits(s), state)} {state.label(s)} takes, "
                        f"{state.label(t)} ends up {state.sym(v)}, so {text.placements(state, places)}"
                    ),
                )
    return None


def contradiction_chain(state: State) -> Step | None:
    """Assume a candidate; if singles then break the grid, remove it."""
    return _contradiction(state, False, "Contradiction Forcing Chain", BASE["contradiction"])


def cell_forcing_chain(state: State) -> Step | None:
    """Every candidate of a cell forces the same digit somewhere: place it."""
    return _cell_forcing(state, False, "Cell Forcing Chain", BASE["cell"])


def dynamic_contradiction_chain(state: State) -> Step | None:
    """Like the contradiction chain, following locked candidates as well as singles."""
    return _contradiction(state, True, "Dynamic Forcing Chain", BASE["dynamic"])
