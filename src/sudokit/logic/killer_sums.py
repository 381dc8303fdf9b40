"""Virtual cages: groups of cells whose sum the rules give, treated like cages.

A killer solver keeps more sums than the cages it is given. The 45 rule gives the innies and the outies of a
region (one or more whole rows, columns or boxes) a known sum; a cage that holds such a group (or a group
that holds a cage) leaves the rest of its cells a known sum too (cage splitting: 23 = innies 9 + the other
two cells, so those two sum to 14), and so does a unit (45) that holds such a group (row D less its cells in
the outies of rows A-C); placed cells come off a group's sum. Each such group is a *virtual cage*,
and is narrowed the way a cage is:

- its cells keep the digits some choice (one digit per cell, no repeats between cells that see each other)
  with the group's sum gives them (cells that all see each other: the sets of different digits, exact);
- when its cells all see each other, a digit every fitting set holds is in the group: the cells outside it
  that see all its places for the digit lose it (as a cage's interaction does).

Every step says how the sum was found, with the arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sudokit.logic import text
from sudokit.logic.cages import (
    BY_BOUNDS,
    MAX_LOOSE_GROUP,
    _region_cages,
    bound_fit,
    cliques_of,
    distinct_fit,
    loose_fit,
    masks_of,
    region_cages,
    regions,
    summed_cages,
)
from sudokit.logic.puzzle_memo import placed_memo
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step

#: SE rating: a cage split or a 45-rule group used as a cage is one deduction more than the innies themselves
#: (Innies and Outies is 2.8 on one unit): as a naked pair is above a pointing.
VIRTUAL_CAGE = 3.0
#: Groups of more cells than this are not kept (their sets carry little and searching them costs).
MAX_GROUP = 6


@dataclass(frozen=True)
class SumGroup:
    """Cells whose digits sum to ``total``, and how that is known (``how``: the arithmetic, in words)."""

    cells: tuple[int, ...]
    total: int
    how: str


def _label(state: State, cells: Sequence[int]) -> str:
    return "+".join(state.label(s) for s in cells)


def _region_groups(state: State) -> list[SumGroup]:
    """The innies and outies of every region (:func:`cages.regions`) with their sums."""
    g = state.g
    of = _region_cages(state)["of"]
    full = g.size * (g.size + 1) // 2
    out: list[SumGroup] = []
    for units, name in regions(state):
        cells, inside, partial = region_cages(state, units)
        k = len(units)
        region_total = full * k
        inner = sum(c.total or 0 for c in inside)
        covered = {s for c in inside for s in c.cage}
        innies = tuple(s for s in sorted(cells) if s not in covered)
        parts = " - ".join(str(c.total) for c in inside)
        if innies and inside:
            total = region_total - inner
            out.append(SumGroup(innies, total, f"the innies of {name}: {region_total} - {parts} = {total}"))
        if innies and all(s in of for s in innies) and partial:
            outies = tuple(sorted({s for c in partial for s in c.cage if s not in cells}))
            over = sum(c.total or 0 for c in partial)
            total = over - (region_total - inner)
            if outies and total > 0:
                sticking = " + ".join(str(c.total) for c in partial)
                less = f"({region_total} - {parts})" if inside else str(region_total)
                how = f"the outies of {name}, the cages that stick out less the region: {sticking} - {less} = {total}"
                out.append(SumGroup(outies, total, how))
    return out


def _unit_groups(state: State) -> list[SumGroup]:
    """Every unit with its sum (all digits once), to take a group inside it off (row D less its cells in the
    outies of rows A-C): units that hold each digit once only (rows, columns, boxes, diagonals, ...)."""
    g = state.g
    full = g.size * (g.size + 1) // 2
    return [
        SumGroup(tuple(unit), full, f"{state.unit_name(u)} sums to {full}")
        for u, unit in enumerate(g.units)
        if len(unit) == g.size
    ]


def sum_groups(state: State) -> list[SumGroup]:
    """The virtual cages of the state (kept for the puzzle and its placed cells): the 45 rule's innies and outies,
    and each cage, unit or group less a smaller one inside it (unless what is left is whole cages); placed cells
    taken off, then groups of 2 to :data:`MAX_GROUP` open cells that are not a summed cage, without repeats, in
    the order found."""
    memo = placed_memo(state, "sum-groups")
    found = memo.get("groups")
    if found is not None:
        return found
    cages = [SumGroup(tuple(c.cage), c.total or 0, f"the cage's sum {c.total}") for c in summed_cages(state)]
    groups = _region_groups(state)
    bases = cages + [grp for grp in groups if len(grp.cells) <= 2 * MAX_GROUP] + _unit_groups(state)
    split: list[SumGroup] = []
    sets = [frozenset(b.cells) for b in bases]
    of = _region_cages(state)["of"]
    for i, big in enumerate(bases):
        for j, small in enumerate(bases):
            if i == j or len(sets[j]) >= len(sets[i]) or not sets[j] < sets[i]:
                continue
            rest = tuple(s for s in big.cells if s not in sets[j])
            if all(s in of and of[s].cage and set(of[s].cage) <= set(rest) for s in rest):
                continue  # whole cages: their sums say it more simply (a unit less its innies)
            total = big.total - small.total
            how = (
                f"{_label(state, big.cells)} less {_label(state, small.cells)}: {big.total} - {small.total} = {total} "
                f"({big.how}; {small.how})"
            )
            split.append(SumGroup(rest, total, how))
    vals = state.values
    real = {frozenset(c.cells) for c in cages}
    out: list[SumGroup] = []
    seen: set[frozenset[int]] = set()
    for grp in groups + split:
        placed = [s for s in grp.cells if vals[s]]
        cells = tuple(s for s in grp.cells if not vals[s])
        key = frozenset(cells)
        if not 2 <= len(cells) <= MAX_GROUP or key in seen or key in real:
            continue
        seen.add(key)
        total, how = grp.total, grp.how
        if placed:
            less = sum(vals[s] for s in placed)
            how = (
                f"{_label(state, grp.cells)} less the placed {', '.join(state.label(s) for s in placed)}: "
                f"{total} - {less} = {total - less} ({how})"
            )
            total -= less
        out.append(SumGroup(cells, total, how))
    memo["groups"] = out
    return out


def _all_peers(state: State, cells: Sequence[int]) -> bool:
    peers = state.g.peer_sets
    return all(b in peers[a] for i, a in enumerate(cells) for b in cells[:i])


def virtual_cage(state: State) -> Step | None:
    """The first virtual cage (in :func:`sum_groups` order) whose combinations remove a candidate from its
    cells, or whose required digit leaves a cell that sees all its places."""
    if not summed_cages(state):
        return None
    cands = state.cands
    peers = state.g.peer_sets
    for grp in sum_groups(state):
        cells = grp.cells
        masks = masks_of(state, cells)
        distinct = _all_peers(state, cells)
        bounded = False
        if distinct:
            sets, keep = distinct_fit(masks, grp.total)
        elif len(cells) <= MAX_LOOSE_GROUP:
            apart = [[b in peers[a] for b in cells] for a in cells]
            sets, keep = (), tuple(loose_fit(masks, grp.total, apart))
        else:
            sets, keep = (), bound_fit(masks, grp.total, None, cliques_of(state, cells))
            bounded = True
        if not all(keep):
            continue  # nothing fits: a broken state is not this step's to say
        elim = [(s, d) for s, m in zip(cells, keep) for d in digits_of(cands[s] & ~m)]
        label = _label(state, cells)
        lead = f"Virtual Cage: {label} = {grp.total}, from {grp.how}"
        if elim:
            why = f"the sets of {len(cells)} different digits" if distinct else "the digits"
            if sets:
                shown = " ".join(text.digit_set(digits_of(m), state) for m in sets[:8])
                why = f"{why} that fit are {shown}{' and more' if len(sets) > 8 else ''}"
            elif bounded:
                why = BY_BOUNDS.strip(" ()")
            else:
                why += " that can add up to it (repeats allowed where cells do not see each other)"
            return Step(
                "Virtual Cage",
                eliminations=elim,
                cells=list(cells),
                explanation=f"{lead}; {why}: {text.removals(state, elim)}",
                rating=VIRTUAL_CAGE,
            )
        if not distinct or not sets:
            continue
        required = -1
        for m in sets:
            required &= m
        inside = set(cells)
        for d in digits_of(required & state.g.all_mask):
            bit = 1 << (d - 1)
            where = [s for s in cells if cands[s] & bit]
            seen = set.intersection(*(set(peers[s]) for s in where)) - inside
            elim = sorted((s, d) for s in seen if cands[s] & bit)
            if elim:
                return Step(
                    "Virtual Cage",
                    eliminations=elim,
                    cells=list(cells),
                    candidates=[(s, d) for s in where],
                    explanation=(
                        f"{lead}; every set of different digits that fits holds {state.sym(d)}, which can only go in "
                        f"{text.cells(state, where)}: {text.removals(state, elim)}"
                    ),
                    rating=VIRTUAL_CAGE,
                )
    return None
