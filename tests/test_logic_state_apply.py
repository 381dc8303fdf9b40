"""``State.apply``: the cells it reports changed, the positions table it keeps up to date, and ``broken_at``
(the per-step check of ``explain``) against the whole-state ``is_broken``."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from logic_states import lines
from sudokit.formats import parse_grid
from sudokit.logic.explain import next_step
from sudokit.logic.registry import applicable
from sudokit.logic.state import State
from sudokit.logic.step import Step


def _fresh(state: State) -> list[list[list[int]]]:
    copy = state.copy()
    return copy.positions_table()


def test_apply_along_a_path_keeps_positions_and_reports_changes() -> None:
    state = State.from_grid(parse_grid(lines("top1465.txt")[3]))
    techniques = applicable(state)
    for _ in range(60):
        if state.is_solved():
            break
        step = next_step(state, techniques)
        assert step is not None
        state.positions_table()  # built, so apply updates it
        before_values, before_cands = state.values[:], state.cands[:]
        changed = state.apply(step)
        moved = [s for s in state.g.cells if (before_values[s], before_cands[s]) != (state.values[s], state.cands[s])]
        # every cell whose candidates changed is reported (a value changes only where its candidates do)
        assert sorted(changed) == sorted(s for s in moved if before_cands[s] != state.cands[s])
        assert set(moved) <= set(changed)
        assert state.positions_table() == _fresh(state)
        assert not state.broken_at(changed) and not state.is_broken()


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_broken_at_agrees_with_is_broken(data) -> None:
    """From a state that is not broken, wrong eliminations and placements: ``broken_at`` of the cells changed
    says what ``is_broken`` says."""
    state = State.from_grid(parse_grid(lines("top1465.txt")[data.draw(st.integers(0, 40))]))
    assert not state.is_broken()
    empty = [s for s in state.g.cells if not state.values[s]]
    picks = data.draw(st.lists(st.sampled_from(empty), min_size=1, max_size=12))
    elims = [(s, d) for s in picks for d in state.digits(s)[: data.draw(st.integers(0, 3))]]
    place = data.draw(st.lists(st.sampled_from(empty), max_size=2))
    placements = [(s, state.digits(s)[0]) for s in place if state.cands[s]]
    changed = state.apply(Step("test", placements=placements, eliminations=elims))
    assert state.broken_at(changed) == state.is_broken()


def test_places_is_positions_with_or_without_the_table() -> None:
    for line in lines("top1465.txt")[:5]:
        state = State.from_grid(parse_grid(line))
        n_units = len(state.g.units)
        bare = [[state.places(u, d) for d in state.g.digits] for u in range(n_units)]
        assert state._pos is None  # places builds nothing
        table = state.positions_table()
        assert bare == [[table[u][d] for d in state.g.digits] for u in range(n_units)]
        assert bare == [[state.places(u, d) for d in state.g.digits] for u in range(n_units)]


def test_a_table_asked_for_after_several_steps_is_brought_up_to_date() -> None:
    """A table built some steps ago is updated only when asked for again, by every change since; a direct
    write followed by ``changed`` drops it."""
    state = State.from_grid(parse_grid(lines("top1465.txt")[5]))
    techniques = applicable(state)
    for steps in (1, 2, 3, 5, 8):
        state.positions_table()
        for _ in range(steps):
            step = next_step(state, techniques)
            if step is None or state.is_solved():
                return
            state.apply(step)
        assert state._pos is None and state._stale is not None  # kept, not yet updated
        assert state.positions_table() == _fresh(state)
    cell = next(s for s in state.g.cells if state.cands[s])
    state.positions_table()
    state.apply(Step("test", eliminations=[(cell, state.digits(cell)[0])]))
    state.cands[cell] = 0
    state.changed()
    assert state._stale is None and state.positions_table() == _fresh(state)
