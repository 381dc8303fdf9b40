"""Singles: full house, hidden single, naked single. They work on every geometry."""

from __future__ import annotations

from sudokit.logic.state import State
from sudokit.logic.step import Step


def full_house(state: State) -> Step | None:
    """A unit with one empty cell left: that cell takes the missing digit."""
    g, vals = state.g, state.values
    for u, unit in enumerate(g.units):
        empty = [s for s in unit if not vals[s]]
        if len(empty) == 1:
            s = empty[0]
            missing = g.all_mask
            for t in unit:
                if vals[t]:
                    missing &= ~(1 << (vals[t] - 1))
            if missing.bit_count() != 1:
                continue
            d = missing.bit_length()
            return Step(
                "Full House",
                placements=[(s, d)],
                cells=[s],
                units=[u],
                candidates=[(s, d)],
                explanation=f"Full house: {state.label(s)} is the last empty cell of {state.unit_name(u)}: it is {d}",
            )
    return None


def _hidden_single(state: State, kinds: tuple[int, ...], name: str) -> Step | None:
    g = state.g
    c = state.cands
    for u in kinds:
        unit = g.units[u]
        once = 0
        more = 0
        for s in unit:
            m = c[s]
            more |= once & m
            once |= m
        only = once & ~more
        if only:
            d = (only & -only).bit_length()
            bit = 1 << (d - 1)
            s = next(t for t in unit if c[t] & bit)
            return Step(
                name,
                placements=[(s, d)],
                cells=[s],
                units=[u],
                candidates=[(s, d)],
                explanation=f"{name}: in {state.unit_name(u)}, {d} can only go in {state.label(s)}",
            )
    return None


def hidden_single_box(state: State) -> Step | None:
    """A digit with one place left in a box (or any unit that is not a row or column)."""
    lay = state.lay
    lines = set(lay.rows) | set(lay.cols)
    return _hidden_single(state, tuple(u for u in range(len(state.g.units)) if u not in lines), "Hidden Single")


def hidden_single_line(state: State) -> Step | None:
    """A digit with one place left in a row or column."""
    return _hidden_single(state, state.lay.rows + state.lay.cols, "Hidden Single")


def naked_single(state: State) -> Step | None:
    """A cell with one candidate left."""
    vals, c = state.values, state.cands
    for s in range(state.g.n_cells):
        if not vals[s] and c[s] and c[s] & (c[s] - 1) == 0:
            d = c[s].bit_length()
            return Step(
                "Naked Single",
                placements=[(s, d)],
                cells=[s],
                candidates=[(s, d)],
                explanation=f"Naked single: {d} is the only candidate left in {state.label(s)}",
            )
    return None
