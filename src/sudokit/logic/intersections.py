"""Locked candidates: when a digit's places in one unit all lie in a second unit, the digit leaves the
rest of the second unit. Pointing starts from a box (or any non-line unit), claiming from a row or column.
Works on every geometry (it only asks which units contain which cells)."""

from __future__ import annotations

from sudokit.logic import text
from sudokit.logic._memo import known_misses, miss
from sudokit.logic.state import State
from sudokit.logic.step import Step


def _locked(state: State, sources: list[int], name: str, skip: frozenset[int] = frozenset()):
    """Every locked-candidates step from the given source units (a generator, first found first), leaving out
    the digits in ``skip``."""
    g, lay = state.g, state.lay
    pos = state.positions_table()
    digits = [d for d in g.digits if d not in skip]
    for u in sources:
        row = pos[u]
        for d in digits:
            where = row[d]
            if len(where) < 2:
                continue
            bit = 1 << (d - 1)
            common = set(g.units_of[where[0]])
            for s in where[1:]:
                common &= set(g.units_of[s])
            common.discard(u)
            for v in sorted(common):
                elim = [(s, d) for s in g.units[v] if state.cands[s] & bit and s not in lay.unit_sets[u]]
                if elim:
                    yield Step(
                        name,
                        eliminations=elim,
                        cells=where,
                        units=[u, v],
                        candidates=[(s, d) for s in where],
                        explanation=(
                            f"{name}: in {state.unit_name(u)}, {d} can only go in {text.cells(state, where)}, "
                            f"all in {state.unit_name(v)}: {text.removals(state, elim)}"
                        ),
                    )


# Where the hidden single of a "direct" step must be. Chosen by measurement against Sudoku Exchange's
# tiers (see docs/logic.md): counting a hidden single in any unit rates many "hard" puzzles as "medium",
# and a "direct claiming" (single in a row or column) made the agreement worse, so there is none.
DIRECT_POINTING = "box"
DIRECT_SUBSET = "box"


def _first(state: State, tag: str, sources: list[int], name: str, single: str | None = None) -> Step | None:
    """The first locked-candidates step from ``sources`` (made direct when ``single`` names where the hidden
    single must be), skipping the digits already known to give nothing on the same cells (see ``_memo``)."""
    skip = known_misses(tag, state)
    for step in _locked(state, sources, name, skip):
        if single is not None:
            step = direct(state, step, single)
        if step is not None:
            return step
    for d in state.g.digits:
        if d not in skip:
            miss(tag, state, d)
    return None


def _not_lines(state: State) -> list[int]:
    lay = state.lay
    lines = set(lay.rows) | set(lay.cols)
    return [u for u in range(len(state.g.units)) if u not in lines]


def pointing(state: State) -> Step | None:
    """Locked candidates type 1: a box's places for a digit all lie in one row or column."""
    return _first(state, "Pointing", _not_lines(state), "Pointing")


def claiming(state: State) -> Step | None:
    """Locked candidates type 2: a row's or column's places for a digit all lie in one box."""
    return _first(state, "Claiming", list(state.lay.rows + state.lay.cols), "Claiming")


def direct_pointing(state: State) -> Step | None:
    """Pointing whose eliminations leave a hidden single at once (Sudoku Explainer's "direct" variant)."""
    return _first(state, "Direct Pointing", _not_lines(state), "Pointing", DIRECT_POINTING)


def direct(state: State, step: Step, where_single: str = "box") -> Step | None:
    """``step`` extended with the hidden single its eliminations create, or None. ``where_single`` is the
    kind of unit the single must be in: ``"box"`` (any unit that is not a row or column), ``"line"`` or
    ``"any"``."""
    g, lay = state.g, state.lay
    if step.placements:  # a step that places would change more than candidates: follow it on a copy
        trial = state.copy()
        trial.apply(step)
        left, placed = trial.positions, trial.placed_in
    else:  # only eliminations: a unit's places for d after the step are its places now, less the removed ones
        gone = set(step.eliminations)

        def left(u: int, d: int) -> list[int]:
            return [s for s in state.positions(u, d) if (s, d) not in gone]

        placed = state.placed_in

    lines = set(lay.rows) | set(lay.cols)
    for cell, d in step.eliminations:
        for u in g.units_of[cell]:
            if where_single != "any" and (u in lines) != (where_single == "line"):
                continue
            if placed(u, d) or state.placed_in(u, d):
                continue
            where = left(u, d)
            if len(where) == 1 and len(state.positions(u, d)) > 1:
                s = where[0]
                return Step(
                    f"Direct {step.technique}",
                    placements=[(s, d)],
                    eliminations=step.eliminations,
                    cells=step.cells + [s],
                    units=step.units + [u],
                    candidates=step.candidates + [(s, d)],
                    explanation=(
                        f"Direct {step.explanation[0].lower()}{step.explanation[1:]}; "
                        f"then {d} can only go in {state.label(s)} in {state.unit_name(u)}"
                    ),
                )
    return None
