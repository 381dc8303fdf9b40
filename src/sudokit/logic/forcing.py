"""Forcing chains, the last resort before guessing: assume a candidate, follow the singles it forces,
and see what happens.

- *Contradiction* (Nishio-style): if assuming ``cell = d`` breaks the grid, ``d`` leaves the cell.
- *Cell forcing*: if every candidate of a cell forces the same placement, it is made.
Propagation follows naked and hidden singles only ("level 1"); the dynamic variant also uses locked
candidates while following ("level 2") and is rated higher. Works on every geometry.

In HoDoKu's terms each of these is a forcing *net*, not a chain: a naked single rests on every candidate removed
from its cell so far, a hidden single on every place of its digit removed from the unit, so a node may have
several premises. The ``hodoku`` preset reports the dynamic search under HoDoKu's names (:data:`NET_CONTRADICTION`,
:data:`NET_VERITY`, score 700, Extreme): one search, two names (see docs/logic_techniques.md).

Following an assumption is one compiled propagation (``forcing_kernel.follow``), which searches the units
touched by its changes for hidden singles in ascending unit number; the number of deductions before a
contradiction, and so the rating, depends on that order. The contradiction search over every candidate runs
whole in compiled code (``forcing_kernel.contradiction_search``); the dynamic variant loops in Python over
the same propagation, making a locked-candidates step each time the singles run out.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from sudokit.logic import text
from sudokit.logic.chains import length_penalty
from sudokit.logic.state import State
from sudokit.logic.step import Step

#: SE-style base ratings before the length penalty (the registry lists the same numbers). Following every
#: single puts the contradiction chain with SE's dynamic forcing chains (8.5), not Nishio (7.5) or its
#: multiple chains (8.0); measured on every 4th puzzle sudoku_exchange_rated rates 7.5 or more (370): exact ER
#: 33 -> 57 against 8.0 (within +-0.5: 260 -> 235). The dynamic variant, which also follows locked
#: candidates, stands for SE's "dynamic (+)" chains (9.0).
BASE = {"contradiction": 8.5, "cell": 8.5, "dynamic": 9.0}
NET_CONTRADICTION = "Forcing Net Contradiction"
NET_VERITY = "Forcing Net Verity"


def assume(state: State, cell: int, digit: int, locked: bool = False, limit: int = 400) -> tuple[bool, int]:
    """Place ``digit`` in ``cell`` of ``state`` (changed in place) and follow the singles it forces, and
    locked candidates when ``locked``. Returns (still consistent, number of deductions made).

    The singles are followed by the compiled propagation (``forcing_kernel.follow``): only units touched by
    a change are searched for hidden singles, in ascending unit number. With ``locked``, each time the
    singles run out the first pointing or claiming step of the grid reached is made (one deduction) and the
    singles are followed again."""
    import numpy as np

    from sudokit.logic import forcing_kernel, state_arrays

    units, units_of, peers, full = state_arrays.tables(state.g)
    vals = np.array(state.values, dtype=np.int64)
    c = np.array(state.cands, dtype=np.int64)
    queue, dirty = forcing_kernel.scratch(state.g.n_cells, units, peers)
    queue[0] = cell, digit
    qn, n_dirty, made = 1, 0, 0
    while True:
        outcome, made = forcing_kernel.follow(
            vals, c, units, units_of, peers, full, limit, queue, qn, dirty, n_dirty, made
        )
        if outcome != forcing_kernel.DONE or not locked:
            break
        _write_back(state, vals, c)
        step = _locked_step(state)
        if step is None:
            break
        qn = n_dirty = 0
        for s, d in step.eliminations:
            m = c[s] & ~(1 << (d - 1))
            c[s] = m
            if not m:
                outcome = forcing_kernel.BROKEN
                break
            n_dirty += forcing_kernel.mark_units(dirty, units_of, s)
            if not m & (m - 1):
                queue[qn] = s, int(m).bit_length()
                qn += 1
        if outcome == forcing_kernel.BROKEN:
            break
        made += 1
    _write_back(state, vals, c)
    return outcome != forcing_kernel.BROKEN, int(made)


def _write_back(state: State, vals, c) -> None:
    """Copy the propagation's arrays into the state."""
    state.values[:] = vals.tolist()
    state.cands[:] = c.tolist()
    state.changed()


def _locked_step(state: State) -> Step | None:
    """The first pointing, else claiming, step of the state (what the dynamic chain follows besides singles).
    By the kernel whenever it is loaded or cached: a dynamic chain search asks thousands of times, between runs
    of its own kernel; on a cold cache as :func:`sudokit.jit.either` chooses (in one command, the plain form
    rather than compiling)."""
    from sudokit import jit
    from sudokit.logic.intersections import KERNELS, claiming, pointing

    if not jit.ready(KERNELS):
        return pointing(state) or claiming(state)
    with jit.forms("kernel"):
        return pointing(state) or claiming(state)


def _contradiction(state: State, locked: bool, name: str, base: float) -> Step | None:
    # one search per state for the rows that report it under two names (Dynamic Forcing Chain, HoDoKu's
    # Forcing Net Contradiction): a table holding both asks twice
    key = "forcing-locked" if locked else "forcing"
    if key in state.memo:
        best = state.memo[key]
    else:
        best = state.memo[key] = _search(state) if not locked else _search_locked(state)
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


#: how :func:`_search_locked` follows an assumption: ``follow(trial, cell, digit, limit=...)`` -> (consistent,
#: deductions), changing ``trial``
Follow = Callable[..., tuple[bool, int]]

#: the propagation caps of the iterative deepening (see :func:`_search_locked`)
LIMITS = (6, 12, 24, 400)


def _search(state: State) -> tuple[int, int, int] | None:
    """(cell, digit, deductions) of the best contradiction following singles only: the numba kernel runs
    :func:`_search_locked`'s loop over the same propagation, in the same order, so the answer is the same."""
    import numpy as np

    from sudokit.logic import forcing_kernel, state_arrays

    order = [(s, d) for s in state.empty_cells() for d in state.digits(s)]
    if not order:
        return None
    units, units_of, peers, full = state_arrays.tables(state.g)
    values, cands = state_arrays.arrays(state)  # read only: the kernel follows each candidate on copies
    s, d, made = forcing_kernel.contradiction_search(
        values,
        cands,
        units,
        units_of,
        peers,
        full,
        np.array(order, dtype=np.int64),
        np.array(LIMITS, dtype=np.int64),
        *forcing_kernel.search_arrays(values, units, peers),
    )
    return None if s < 0 else (int(s), int(d), int(made))


def _search_locked(state: State, follow: Follow | None = None) -> tuple[int, int, int] | None:
    """(cell, digit, deductions) of the contradiction with the fewest deductions, a loop in Python over
    ``follow(trial, cell, digit, limit)`` (default: :func:`assume` with locked candidates; the dynamic chain
    calls the locked-candidates finders while following, which the compiled search cannot)."""
    if follow is None:
        follow = partial(assume, locked=True)
    best = None
    cands = [(s, d) for s in state.empty_cells() for d in state.digits(s)]
    # iterative deepening: most contradictions are short, and capping the propagation of the candidates
    # that do not break the grid is what keeps this affordable
    # a candidate whose propagation stopped by itself below the cap gives the same answer under any larger
    # cap (``assume`` is deterministic), so later rounds skip it
    for limit in LIMITS:
        still = []
        for s, d in cands:
            ok, made = follow(state.copy(), s, d, limit=limit)
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
            # the cell's own digit is no news (it is what a single surviving branch assumed)
            placed = {(t, v) for t, v in enumerate(trial.values) if v and not state.values[t] and t != s}
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


def net_contradiction(state: State) -> Step | None:
    """HoDoKu's Forcing Net Contradiction: the dynamic chain's search (singles and locked candidates followed
    from an assumption), under HoDoKu's name."""
    return _contradiction(state, True, NET_CONTRADICTION, BASE["dynamic"])


def net_verity(state: State) -> Step | None:
    """HoDoKu's Forcing Net Verity: every candidate of a cell, followed through singles and locked candidates,
    places the same digit in the same cell."""
    return _cell_forcing(state, True, NET_VERITY, BASE["dynamic"])
