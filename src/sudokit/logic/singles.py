"""Singles: full house, hidden single, naked single. They work on every geometry.

Each search has two forms side by side, which find the same single (tested against each other on states of
whole solving paths): a small numba kernel (``singles_kernel``) and a plain-Python loop (``*_plain`` here), for
a command on one puzzle that would otherwise load numba for a few microseconds of work
(:func:`sudokit.jit.either` chooses). Python writes the single found out as a step."""

from __future__ import annotations

import threading
from functools import cache
from types import ModuleType

from sudokit import jit
from sudokit.logic.state import State, source_units
from sudokit.logic.step import Step

KERNELS = "sudokit.logic.singles_kernel"


@cache
def _modules() -> tuple[ModuleType, ...]:
    """singles_kernel, state_arrays: imported at the first search (numba comes with them), then kept
    (an import statement in every search cost more than a small kernel's work)."""
    from sudokit.logic import singles_kernel, state_arrays

    return singles_kernel, state_arrays


#: each thread's last (geometry, values) without a full house (:func:`full_house`)
_no_house = threading.local()


def full_house(state: State) -> Step | None:
    """A unit with one empty cell left: that cell takes the missing digit (the first such unit).

    It depends on the values alone, and a step that only removes candidates leaves them as they were: the
    values of the last search that found none are remembered, and found none again without a search."""
    seen = (state.g, state.values)
    if getattr(_no_house, "seen", None) == seen:
        return None
    u, s, d = full_house_hit(state)
    if u < 0:
        _no_house.seen = (state.g, state.values[:])
        return None
    return Step(
        "Full House",
        placements=[(s, d)],
        cells=[s],
        units=[u],
        candidates=[(s, d)],
        explanation=(
            f"Full house: {state.label(s)} is the last empty cell of {state.unit_name(u)}: it is {state.sym(d)}"
        ),
    )


def full_house_hit(state: State) -> tuple[int, int, int]:
    """(unit, cell, digit from 1) of the first full house, or (-1, -1, -1)."""
    return jit.either(KERNELS, full_house_plain, _full_house_kernel, state)


def _full_house_kernel(state: State) -> tuple[int, int, int]:
    singles_kernel, state_arrays = _modules()

    values, _cands = state_arrays.arrays(state)
    u, s, d = singles_kernel.full_house_hit(values, state_arrays.tables(state.g)[0], state.g.all_mask)
    return int(u), int(s), int(d)


def full_house_plain(state: State) -> tuple[int, int, int]:
    """:func:`singles_kernel.full_house_hit` in plain Python: the first unit with one empty cell left whose
    givens leave one digit for it."""
    values, full = state.values, state.g.all_mask
    for u, unit in enumerate(state.g.units):
        empty = -1
        missing = full
        for s in unit:
            v = values[s]
            if v:
                missing &= ~(1 << (v - 1))
            elif empty >= 0:
                break
            else:
                empty = s
        else:
            if empty >= 0 and missing and not missing & (missing - 1):
                return u, empty, missing.bit_length()
    return -1, -1, -1


def _hidden_single(state: State, lines: bool, name: str) -> Step | None:
    """The first hidden single in the rows and columns (``lines``) or in the other units: the first unit with
    a digit that has one place left, its lowest such digit."""
    u, s, d = hidden_single_hit(state, lines)
    if u < 0:
        return None
    return Step(
        name,
        placements=[(s, d)],
        cells=[s],
        units=[u],
        candidates=[(s, d)],
        explanation=f"{name}: in {state.unit_name(u)}, {state.sym(d)} can only go in {state.label(s)}",
    )


def hidden_single_hit(state: State, lines: bool) -> tuple[int, int, int]:
    """(unit, cell, digit from 1) of the first hidden single in the units :func:`source_units` gives, or
    (-1, -1, -1)."""
    return jit.either(KERNELS, hidden_single_plain, _hidden_single_kernel, state, lines)


def _hidden_single_kernel(state: State, lines: bool) -> tuple[int, int, int]:
    singles_kernel, state_arrays = _modules()

    values, cands = state_arrays.arrays(state)
    u, s, d = singles_kernel.hidden_single_hit(
        values, cands, state_arrays.tables(state.g)[0], state_arrays.unit_sources(state.g, lines)
    )
    return int(u), int(s), int(d)


def hidden_single_plain(state: State, lines: bool) -> tuple[int, int, int]:
    """:func:`singles_kernel.hidden_single_hit` in plain Python: the first source unit where a digit is a
    candidate of one open cell only, with its lowest such digit."""
    values, cands, units = state.values, state.cands, state.g.units
    for u in source_units(state.g, lines):
        once = more = 0
        for s in units[u]:
            if not values[s]:
                m = cands[s]
                more |= once & m
                once |= m
        only = once & ~more
        if only:
            bit = only & -only
            for s in units[u]:
                if cands[s] & bit:
                    return u, s, bit.bit_length()
    return -1, -1, -1


def hidden_single_box(state: State) -> Step | None:
    """A digit with one place left in a box (or any unit that is not a row or column)."""
    return _hidden_single(state, False, "Hidden Single")


def hidden_single_line(state: State) -> Step | None:
    """A digit with one place left in a row or column."""
    return _hidden_single(state, True, "Hidden Single")


def naked_single(state: State) -> Step | None:
    """A cell with one candidate left (the first in cell order)."""
    s, d = naked_single_hit(state)
    if s < 0:
        return None
    return Step(
        "Naked Single",
        placements=[(s, d)],
        cells=[s],
        candidates=[(s, d)],
        explanation=f"Naked single: {state.sym(d)} is the only candidate left in {state.label(s)}",
    )


def naked_single_hit(state: State) -> tuple[int, int]:
    """(cell, digit from 1) of the first naked single, or (-1, -1)."""
    return jit.either(KERNELS, naked_single_plain, _naked_single_kernel, state)


def _naked_single_kernel(state: State) -> tuple[int, int]:
    singles_kernel, state_arrays = _modules()

    values, cands = state_arrays.arrays(state)
    s, d = singles_kernel.naked_single_hit(values, cands)
    return int(s), int(d)


def naked_single_plain(state: State) -> tuple[int, int]:
    """:func:`singles_kernel.naked_single_hit` in plain Python: the first empty cell with one candidate."""
    values = state.values
    for s, m in enumerate(state.cands):
        if m and not m & (m - 1) and not values[s]:
            return s, m.bit_length()
    return -1, -1
