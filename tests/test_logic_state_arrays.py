"""The solving state's tables (``logic/state.py``) and its arrays for the kernels (``logic/state_arrays.py``)
against plain loops."""

from __future__ import annotations

import random

import pytest

from logic_states import lines
from sudokit.formats import parse_grid
from sudokit.geometry import from_name
from sudokit.logic import (
    misses,
)
from sudokit.logic.explain import next_step
from sudokit.logic.registry import applicable
from sudokit.logic.state import State


def test_positions_table_lists_the_cells_positions_gives(hard_states):
    state = hard_states[1]
    table = state.positions_table()
    for u in range(len(state.g.units)):
        for d in state.g.digits:
            assert table[u][d] == [s for s in state.g.units[u] if state.cands[s] >> (d - 1) & 1]


@pytest.mark.parametrize(
    "puzzle, variant",
    [
        (lines("top1465.txt")[3], None),
        (lines("top1465.txt")[40], None),
        (lines("xsudoku9.txt")[0], "diagonal"),
        (lines("sudoku16_vu.txt")[0], None),
    ],
)
def test_apply_brings_the_positions_table_up_to_date(puzzle, variant):
    # along a whole solving path: the table after each step equals one built from scratch, and the table
    # held from before the step is left as it was
    state = State.from_grid(parse_grid(puzzle, geometry=from_name(variant) if variant else None))
    techniques = applicable(state)
    steps = 0
    while not state.is_solved() and steps < 300:
        held = state.positions_table()
        snapshot = [[list(cells) for cells in row] for row in held]
        step = next_step(state, techniques)
        if step is None:
            break
        state.apply(step)
        steps += 1
        assert state.positions_table() == state._positions_table()
        assert held == snapshot
    assert steps > 20


def broken_reference(state: State) -> bool:
    """Plainly: an empty cell without candidates, or a unit where some digit is neither placed nor possible."""
    g = state.g
    if any(not state.values[s] and not state.cands[s] for s in range(g.n_cells)):
        return True
    for unit in g.units:
        for d in g.digits:
            if not any(state.values[s] == d or state.cands[s] >> (d - 1) & 1 for s in unit):
                return True
    return False


def test_is_broken_agrees_with_a_plain_check_on_damaged_states(hard_states, variant_states):
    rng = random.Random(5)
    verdicts = set()
    for state in hard_states + variant_states:
        assert state.is_broken() == broken_reference(state) is False
        for _ in range(20):
            trial = state.copy()
            for s in rng.sample(trial.empty_cells(), k=min(6, len(trial.empty_cells()))):
                trial.cands[s] &= rng.getrandbits(trial.g.size)  # drop some candidates, maybe all
            trial.changed()
            verdicts.add(trial.is_broken())
            assert trial.is_broken() == broken_reference(trial)
    assert verdicts == {True, False}


def test_digit_cells_from_the_compiled_words_match_a_plain_loop(loop_states):
    for state in loop_states[::5]:
        g = state.g
        want = [
            (
                sum(1 << s for s in range(g.n_cells) if d and state.cands[s] >> (d - 1) & 1),
                sum(1 << s for s in range(g.n_cells) if d and state.values[s] == d),
            )
            for d in range(g.size + 1)
        ]
        fresh = State(g, state.values[:], state.cands[:])
        # row 0 is not a digit (its "held" is the empty cells, which nothing reads)
        assert [(cells, held) for _token, cells, held in misses.digit_cells(fresh)][1:] == want[1:]
