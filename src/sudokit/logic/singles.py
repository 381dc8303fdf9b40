"""Singles: full house, hidden single, naked single. They work on every geometry.

Small numba kernels (``singles_kernel``) find the first single; Python writes it out as a step."""

from __future__ import annotations

from sudokit.logic.state import State
from sudokit.logic.step import Step


def full_house(state: State) -> Step | None:
    """A unit with one empty cell left: that cell takes the missing digit (the first such unit)."""
    from sudokit.logic import singles_kernel, state_arrays

    values, _cands = state_arrays.arrays(state)
    u, s, d = singles_kernel.full_house_hit(values, state_arrays.tables(state.g)[0], state.g.all_mask)
    if u < 0:
        return None
    u, s, d = int(u), int(s), int(d)
    return Step(
        "Full House",
        placements=[(s, d)],
        cells=[s],
        units=[u],
        candidates=[(s, d)],
        explanation=f"Full house: {state.label(s)} is the last empty cell of {state.unit_name(u)}: it is {d}",
    )


def _hidden_single(state: State, lines: bool, name: str) -> Step | None:
    """The first hidden single in the rows and columns (``lines``) or in the other units: the first unit with
    a digit that has one place left, its lowest such digit."""
    from sudokit.logic import singles_kernel, state_arrays

    values, cands = state_arrays.arrays(state)
    u, s, d = singles_kernel.hidden_single_hit(
        values, cands, state_arrays.tables(state.g)[0], state_arrays.unit_sources(state.g, lines)
    )
    if u < 0:
        return None
    u, s, d = int(u), int(s), int(d)
    return Step(
        name,
        placements=[(s, d)],
        cells=[s],
        units=[u],
        candidates=[(s, d)],
        explanation=f"{name}: in {state.unit_name(u)}, {d} can only go in {state.label(s)}",
    )


def hidden_single_box(state: State) -> Step | None:
    """A digit with one place left in a box (or any unit that is not a row or column)."""
    return _hidden_single(state, False, "Hidden Single")


def hidden_single_line(state: State) -> Step | None:
    """A digit with one place left in a row or column."""
    return _hidden_single(state, True, "Hidden Single")


def naked_single(state: State) -> Step | None:
    """A cell with one candidate left (the first in cell order)."""
    from sudokit.logic import singles_kernel, state_arrays

    values, cands = state_arrays.arrays(state)
    s, d = singles_kernel.naked_single_hit(values, cands)
    if s < 0:
        return None
    s, d = int(s), int(d)
    return Step(
        "Naked Single",
        placements=[(s, d)],
        cells=[s],
        candidates=[(s, d)],
        explanation=f"Naked single: {d} is the only candidate left in {state.label(s)}",
    )
