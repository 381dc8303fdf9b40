"""The singles kernels (``logic/singles_kernel.py``) against plain loops."""

from __future__ import annotations

from logic_states import fresh
from sudokit.logic import (
    singles,
)
from sudokit.logic.state import State


def plain_singles(state: State) -> list:
    """Reference: (unit, cell, digit) of the first full house, box and line hidden single, and (cell, digit)
    of the first naked single, by plain loops."""
    g, vals, c = state.g, state.values, state.cands
    lines = list(g.rows + g.cols)
    out: list = [None, None, None, None]
    for u, unit in enumerate(g.units):
        empty = [s for s in unit if not vals[s]]
        missing = [d for d in g.digits if d not in {vals[s] for s in unit}]
        if len(empty) == 1 and len(missing) == 1:
            out[0] = (u, empty[0], missing[0])
            break
    for k, sources in ((1, [u for u in range(len(g.units)) if u not in lines]), (2, lines)):
        for u in sources:
            once = [d for d in g.digits if len(state.positions(u, d)) == 1]
            if once:
                out[k] = (u, state.positions(u, once[0])[0], once[0])
                break
    naked = [(s, c[s].bit_length()) for s in range(g.n_cells) if not vals[s] and c[s].bit_count() == 1]
    out[3] = naked[0] if naked else None
    return out


def test_singles_kernels_find_the_single_plain_loops_find(loop_states, kernels):
    for state in loop_states:
        new = fresh(state)
        steps = [singles.full_house(new), singles.hidden_single_box(new), singles.hidden_single_line(new)]
        got = [None if st is None else (st.units[0], *st.placements[0]) for st in steps]
        naked = singles.naked_single(new)
        got.append(None if naked is None else naked.placements[0])
        assert got == plain_singles(state)


def test_full_house_searches_again_only_when_the_values_change(hard_states, monkeypatch):
    state = next(fresh(s) for s in hard_states if singles.full_house(fresh(s)) is None)
    singles.full_house(state)
    searched: list[State] = []
    monkeypatch.setattr(singles, "full_house_hit", lambda s: searched.append(s) or (-1, -1, -1))
    other = fresh(state)
    cell = next(s for s in other.empty_cells() if other.cands[s].bit_count() > 1)
    other.eliminate(cell, other.digits(cell)[0])
    assert singles.full_house(other) is None and not searched  # candidates changed, values not: no search
    other.place(cell, other.digits(cell)[0])
    assert singles.full_house(other) is None and searched == [other]
