"""The variant forcing chain: a candidate whose placement, followed by singles and by every constraint's own
narrowing, breaks the grid is removed.

The classic forcing chains (``forcing.py``) follow singles over units and peers only, so on a variant state
they see the cages, lines and dots just as peers. This one also lets each constraint narrow its cells
(:meth:`Constraint.propagate`, as the variant solver does; a summed cage exactly, each cell keeping the digits
some placement of a fitting set gives it) after every round of singles, then each virtual cage of cells that
all see each other (the 45 rule's innies and outies, cage splits: ``killer_sums.py``) the same way, and says what broke
first: a cell left without a candidate, a digit without a place in a unit, or a rule that cannot hold. It
is the last row of the table: where no other technique applies, it keeps ``explain`` going, rated as a
dynamic forcing chain (SE 9.0).
"""

from __future__ import annotations

from collections.abc import Sequence

from sudokit.constraints.base import Constraint
from sudokit.constraints.cages import KillerCage
from sudokit.logic import text
from sudokit.logic.cages import distinct_fit, summed_cages
from sudokit.logic.killer_sums import SumGroup, _all_peers, sum_groups
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step
from sudokit.logic.variant_rules import narrowed

RATING = 9.0
#: Rounds of singles and constraints one assumption may take (each round is a fixed point of the singles).
MAX_ROUNDS = 60


def _narrowed(con: Constraint, masks: tuple[int, ...]) -> tuple[int, ...] | None:
    """The constraint's narrowing of its cells' ``masks``; a summed cage's exact: each cell keeps the digits
    some set of different digits with the cage's sum, placed one per cell, gives it (the constraint's own
    narrowing only bounds the sets by the digits' union)."""
    if isinstance(con, KillerCage) and con.total is not None:
        keep = distinct_fit(masks, con.total)[1]
        return keep if all(keep) else None
    return narrowed(con, masks)


def _follow(state: State, masks: list[int], groups: Sequence[SumGroup] = ()) -> str | None:
    """Propagate ``masks`` (in place) to a fixed point; the first thing that breaks, in words, or None.
    ``groups``: virtual cages of cells that all see each other, narrowed like cages after the constraints."""
    g = state.g
    peers, units, full = g.peers, g.units, g.all_mask
    cons = [c for c in state.constraints if c.cells and type(c).propagate is not Constraint.propagate]
    done = [False] * len(masks)
    for _ in range(MAX_ROUNDS):
        changed = False
        stack = [s for s, m in enumerate(masks) if not m & (m - 1)]
        while stack:
            s = stack.pop()
            if done[s]:
                continue
            done[s] = True
            bit = masks[s]
            for p in peers[s]:
                mp = masks[p]
                if mp & bit:
                    mp &= ~bit
                    masks[p] = mp
                    if not mp:
                        return f"{state.label(p)} would have no candidate left"
                    if not mp & (mp - 1):
                        stack.append(p)
        for u, unit in enumerate(units):
            once = twice = 0
            for s in unit:
                m = masks[s]
                twice |= once & m
                once |= m
            if once != full:
                d = (full & ~once).bit_length()
                return f"{state.sym(d)} would have no place in {state.unit_name(u)}"
            alone = once & ~twice
            while alone:
                bit = alone & -alone
                alone ^= bit
                for s in unit:
                    if masks[s] & bit and masks[s] != bit:
                        masks[s] = bit
                        changed = True
        if changed:
            continue
        for con in cons:
            cells = con.cells
            before = tuple(masks[s] for s in cells)
            after = _narrowed(con, before)
            if after is None or not all(after):
                return f"the rule '{con.describe(g)}' could not hold"
            if after != before:
                for s, m in zip(cells, after):
                    masks[s] &= m
                changed = True
        for grp in groups:
            before = tuple(masks[s] for s in grp.cells)
            keep = distinct_fit(before, grp.total)[1]
            if not all(keep):
                return f"{'+'.join(state.label(s) for s in grp.cells)} = {grp.total} ({grp.how}) could not hold"
            if keep != before:
                for s, m in zip(grp.cells, keep):
                    masks[s] = m
                changed = True
        if not changed:
            return None
    return None


def variant_forcing_chain(state: State) -> Step | None:
    """The first candidate (cells with fewest candidates first, then cell order, then digit order) whose
    placement breaks the grid once singles and constraints are followed."""
    if not state.constraints:
        return None
    vals, cands = state.values, state.cands
    start = [1 << (v - 1) if v else m for v, m in zip(vals, cands)]
    groups = [grp for grp in sum_groups(state) if _all_peers(state, grp.cells)] if summed_cages(state) else []
    order = sorted((s for s in range(len(vals)) if not vals[s]), key=lambda s: (cands[s].bit_count(), s))
    for s in order:
        for d in digits_of(cands[s]):
            masks = start[:]
            masks[s] = 1 << (d - 1)
            broken = _follow(state, masks, groups)
            if broken is None:
                continue
            elim = [(s, d)]
            return Step(
                "Variant Forcing Chain",
                eliminations=elim,
                cells=[s],
                candidates=[(s, d)],
                explanation=(
                    f"Variant Forcing Chain: if {state.label(s)} were {state.sym(d)}, the singles and the rules "
                    f"that follow leave no way on: {broken}: {text.removals(state, elim)}"
                ),
                rating=RATING,
            )
    return None
