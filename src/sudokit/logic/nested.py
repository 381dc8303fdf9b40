"""Nested forcing chains, the last resort: an assumption followed by singles *and by contradiction forcing
chains made inside it*.

Assume ``cell = d`` and follow the singles it forces. When they run out, look inside the grid reached for a
candidate whose own assumption breaks that grid under singles (a contradiction forcing chain nested in the
first one): it cannot hold there, so remove it and follow the singles again. If the grid reached breaks, the
first assumption was false and ``d`` leaves ``cell``. This is trial and error two levels deep, which every
known puzzle yields to; the forum's hardest lists need it where Sudoku Explainer rates 9.5 and up.

Rating: Sudoku Explainer rates nested forcing chains 9.5 to 10.5 before the length penalty, by what is
nested (forcing chains, multiple, dynamic); the chain nested here follows every single, like SE's dynamic
chains, so this takes 10.5, plus the length penalty of the work: every deduction of the outer chain and,
for each nested chain, its deductions and its two ends (:mod:`sudokit.logic.nested_kernel`). Among all
candidates the one with the least work is taken (iterative deepening over caps on the work). Works on every
geometry.
"""

from __future__ import annotations

from sudokit.logic import text
from sudokit.logic.chains import length_penalty
from sudokit.logic.state import State
from sudokit.logic.step import Step

BASE = 10.5
#: caps on the work of one assumption for the iterative deepening
CAPS = (64, 256, 1024, 1 << 40)


def search(state: State) -> tuple[int, int, int, int] | None:
    """(cell, digit, work, nested chains) of the nested contradiction with the least work, or None."""
    import numpy as np

    from sudokit.logic import nested_kernel, state_arrays

    order = [(s, d) for s in state.empty_cells() for d in state.digits(s)]
    if not order:
        return None
    units, units_of, peers, full = state_arrays.tables(state.g)
    values, cands = state_arrays.arrays(state)
    s, d, work, inner = nested_kernel.nested_search(
        values,
        cands,
        units,
        units_of,
        peers,
        full,
        np.array(order, dtype=np.int64),
        np.array(CAPS, dtype=np.int64),
        *nested_kernel.nested_arrays(values, units, peers),
    )
    return None if s < 0 else (int(s), int(d), int(work), int(inner))


def nested_forcing_chain(state: State) -> Step | None:
    """Assume a candidate; if singles and the contradiction chains nested in it break the grid, remove it."""
    found = search(state)
    if found is None:
        return None
    s, d, work, inner = found
    elim = [(s, d)]
    return Step(
        "Nested Forcing Chain",
        eliminations=elim,
        cells=[s],
        candidates=elim,
        rating=round(BASE + length_penalty(work + 2), 1),
        explanation=(
            f"Nested forcing chain: if {state.label(s)} were {state.sym(d)}, the singles it forces and "
            f"{inner} contradiction chain{'s' if inner != 1 else ''} inside it ({work} deductions in all) would "
            f"leave the grid with no valid completion, so {text.removals(state, elim)}"
        ),
    )
