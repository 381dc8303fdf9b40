"""The memo of misses across states (``logic/misses.py``) gives the same steps as a cold search."""

from __future__ import annotations

import pytest

from logic_states import fresh, lines
from sudokit.formats import parse_grid
from sudokit.logic import (
    chains,
    fish,
    misses,
    nishio,
    single_digit,
)
from sudokit.logic.explain import explain, next_step
from sudokit.logic.registry import applicable
from sudokit.logic.state import State, digits_of

MEMO_USERS = [
    ("finned", lambda s: fish.finned_fish(s, 3)),
    ("er", single_digit.empty_rectangle),
    ("colouring", chains.simple_colouring),
    ("x-chain", chains.x_chain),
    ("nishio", nishio.nishio_forcing_chain),
]


@pytest.mark.parametrize("name,find", MEMO_USERS, ids=[n for n, _ in MEMO_USERS])
def test_warm_memo_gives_the_same_step_as_a_cold_search(hard_states, name, find):
    misses.forget()
    warm = [find(fresh(s)) for s in hard_states]
    cold = []
    for s in hard_states:
        misses.forget()
        cold.append(find(fresh(s)))
    assert warm == cold


def test_explain_path_is_the_same_with_a_cold_or_warm_memo():
    puzzle = parse_grid(lines("top1465.txt")[3])
    misses.forget()
    first = explain(puzzle)
    second = explain(puzzle)
    assert first.steps == second.steps and first.solved == second.solved


@pytest.mark.parametrize("index", [1394, 1098])
def test_every_step_of_a_path_is_the_step_an_empty_memo_finds(index):
    # top1465 #1394 and #1098 once took another X-chain with the misses of earlier states remembered
    state = State.from_grid(parse_grid(lines("top1465.txt")[index]))
    techniques = applicable(state)
    misses.forget()
    while not state.is_solved():
        warm = next_step(state, techniques)
        kept = set(misses._misses)
        misses.forget()
        cold = next_step(state.copy(), techniques)
        misses._misses.update(kept)
        assert warm == cold
        state.apply(warm)


def test_a_change_through_apply_or_changed_drops_the_state_memo(hard_states):
    state = hard_states[0].copy()
    misses.digit_cells(state)
    assert state.memo
    cell = next(s for s in range(state.g.n_cells) if state.cands[s])
    state.eliminate(cell, digits_of(state.cands[cell])[0])
    assert not state.memo
    misses.digit_cells(state)
    state.changed()
    assert not state.memo
