"""Sudoku Explainer's forcing chains (Nishio, multiple, dynamic: ``logic/implication_kernel.py``) rate each step
as a plain-Python model of SE's rules does (``tests/se_chain_model.py``), on states of real solving paths whose
SE ratings the model and sudokit both reproduce (``sudoku_exchange_rated``: line, SE's ER)."""

from __future__ import annotations

import pytest

import se_chain_model as model
from logic_states import lines
from sudokit.formats import parse_grid
from sudokit.logic import State, explain
from sudokit.logic.rating import rate
from sudokit.logic.registry import BY_NAME

#: technique -> (base rating, dynamic, Nishio)
KINDS = {
    "Nishio Forcing Chain": (7.5, True, True),
    "Multiple Forcing Chain": (8.0, False, False),
    "SE Dynamic Forcing Chain": (8.5, True, False),
}
#: (line of sudoku_exchange_rated, technique checked): puzzles whose SE rating depends on these chains
PATHS = [
    (3631, "Nishio Forcing Chain"),
    (3931, "Nishio Forcing Chain"),
    (4421, "Multiple Forcing Chain"),
    (4891, "Multiple Forcing Chain"),
    (4891, "SE Dynamic Forcing Chain"),
]


@pytest.mark.parametrize("line, technique", PATHS)
def test_chain_steps_rate_as_the_model_of_se_does(line, technique):
    puzzle = lines("sudoku_exchange_rated.txt")[line - 1]
    base, dynamic, nishio = KINDS[technique]
    state = State.from_grid(parse_grid(puzzle))
    checked = 0
    for step in explain(puzzle).steps:
        if step.technique == technique and checked < 2:
            length = model.shortest(list(state.cands), dynamic, nishio)
            assert length is not None
            assert step.rating == round(base + model.penalty(length), 1), step.explanation
            assert BY_NAME[technique].find(state).rating == step.rating
            checked += 1
        state.apply(step)
    assert checked


@pytest.mark.parametrize("line", [3631, 3731, 3931, 4421, 4891])
def test_puzzles_rated_by_these_chains_get_ses_rating(line):
    puzzle = lines("sudoku_exchange_rated.txt")[line - 1]
    theirs = float(lines("sudoku_exchange_rated.ratings.txt")[line - 1])
    assert rate(puzzle, extras=False).er == theirs


def test_penalty_steps_at_ses_thresholds():
    # length - 2 passes 4, 6, 8, 12, 16, 24: +0.1 each
    assert [model.penalty(n) for n in (6, 7, 9, 10, 11, 14, 15, 18, 19, 26, 27)] == [
        0.0,
        0.1,
        0.2,
        0.2,
        0.3,
        0.3,
        0.4,
        0.4,
        0.5,
        0.5,
        0.6,
    ]
