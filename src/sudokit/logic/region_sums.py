"""Region sums: the 45 rule with the combinations of the cages that stick out.

A region of whole units that share no cell (a row, column or box, two boxes side by side, a run of rows or
columns, an L or a square of boxes) adds up to ``k`` times the sum of all digits. Less the cages wholly
inside, the rest of its cells add up to a known total. Those cells are the parts inside of the cages that
stick out, and the cells in no cage. Innies and Outies (``cages.py``) take them as loose digits; here each
part keeps its own arithmetic:

- a cage that sticks out can only put in the region the digit sets some fitting set of different digits
  with its sum gives its cells inside, with its cells outside finishing the set (``cages.part_options``);
  so its part inside adds up to one of a few sums;
- the cells in no cage are split into groups that all see each other (a row, column, box or cage holds
  them), and each group adds up to the sums of its sets of different digits;
- a sum of one part that no choice of sums of the others completes to the region's total is dropped, and
  with it each digit that only such sums gave (inside the region and outside it, for a cage that sticks
  out).

Exact for each part, loose between parts (two parts may repeat a digit here even where the rules forbid
it): sound, and what a killer solver does when it says "the innies are 9 + 8, the outie is 7 or 8, ...".
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from sudokit.constraints.base import add_sums
from sudokit.constraints.cages import KillerCage
from sudokit.logic import text
from sudokit.logic.cages import cliques_of, distinct_fit, masks_of, part_options, region_cages, regions
from sudokit.logic.puzzle_memo import placed_memo, puzzle_memo
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step
from sudokit.logic.sum_combinations import digit_sets, digit_sum, set_sums

#: SE rating on one unit; each further unit of the region adds 0.2, as for Innies and Outies (2.8): the same
#: 45 rule, with every cage that sticks out used by its combinations (one notch above Cage Combinations in a
#: Unit with a cage partly inside, 3.6).
REGION_SUM = 3.6
NAME = "Region Sum"


@dataclass(frozen=True)
class Part:
    """Cells of a region whose digits add up to one of ``sums`` (a bitset: bit ``t`` for the sum ``t``).

    ``cage``: the cage that sticks out (None for cells in no cage, which all see each other); ``options``:
    for a cage, its ``(digits inside, fitting set)`` pairs (``cages.part_options``)."""

    cells: tuple[int, ...]
    sums: int
    cage: KillerCage | None = None
    options: tuple[tuple[int, int], ...] = ()


def _sums_text(sums: int) -> str:
    """A bitset of sums in words, runs joined: ``3-6, 9``."""
    vals = [t for t in range(sums.bit_length()) if sums >> t & 1]
    runs: list[list[int]] = []
    for t in vals:
        if runs and runs[-1][-1] == t - 1:
            runs[-1].append(t)
        else:
            runs.append([t])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs)


def _extra_regions(state: State) -> Iterator[tuple[list[int], str]]:
    """Three boxes in an L and four in a square (the regions of :func:`cages.regions` come first)."""
    g = state.g
    if not g.has_boxes or g.box_rows is None or g.box_cols is None:
        return
    across = g.size // g.box_cols  # boxes in a band
    down = g.size // g.box_rows  # boxes in a stack
    boxes = g.boxes
    for r in range(down - 1):
        for c in range(across - 1):
            square = [boxes[(r + i) * across + c + j] for i in (0, 1) for j in (0, 1)]
            for left_out in range(4):
                trio = [b for i, b in enumerate(square) if i != left_out]
                yield trio, " and ".join([", ".join(state.unit_name(b) for b in trio[:2]), state.unit_name(trio[2])])
            names = ", ".join(state.unit_name(b) for b in square[:3])
            yield square, f"{names} and {state.unit_name(square[3])}"


@dataclass(frozen=True)
class _Region:
    """A region with a cage sticking out, as :func:`region_sum` reads it (it depends on the cages only):
    its units and name, the cages wholly inside, what the rest adds up to, each cage that sticks out with its
    cells inside and outside, and the cliques of its cells in no cage."""

    units: list[int]
    name: str
    inside: list[KillerCage]
    total: int
    sticking: list[tuple[KillerCage, tuple[int, ...], tuple[int, ...]]]
    loose: list[tuple[int, ...]]
    #: every cell the row reads: the sticking cages' cells, then the cliques'
    read: tuple[int, ...]


def _plans(state: State) -> list[_Region]:
    """The regions (:func:`cages.regions` order, then Ls and squares of boxes) with a cage sticking out; kept
    for the puzzle."""
    memo = puzzle_memo(state)
    found = memo.get("region-sums")
    if found is not None:
        return found
    g = state.g
    full = g.size * (g.size + 1) // 2
    out = []
    for units, name in _regions_all(state):
        cells, inside, partial = region_cages(state, units)
        if not partial:
            continue  # the innies alone: Innies and Outies' and Virtual Cage's work
        covered = {s for c in inside for s in c.cage}
        total = full * len(units) - sum(c.total or 0 for c in inside)
        sticking = [
            (cage, tuple(s for s in cage.cage if s in cells), tuple(s for s in cage.cage if s not in cells))
            for cage in partial
        ]
        caged = {s for c in partial for s in c.cage}
        loose = sorted(s for s in cells if s not in caged and s not in covered)
        groups = [tuple(loose[i] for i in clique) for clique in cliques_of(state, loose)] if loose else []
        read = tuple(s for _, inner, outer in sticking for s in inner + outer) + tuple(s for grp in groups for s in grp)
        out.append(_Region(units, name, inside, total, sticking, groups, read))
    memo["region-sums"] = out
    return out


def _parts(state: State, region: _Region) -> list[Part] | None:
    """The parts of a region's cells not in its wholly-inside cages: the cages that stick out, then the groups
    of cells in no cage (None when a part cannot be filled)."""
    out: list[Part] = []
    for cage, inner, outer in region.sticking:
        options = part_options(masks_of(state, inner), masks_of(state, outer), cage.total or 0)
        sums = 0
        for part, _ in options:
            sums |= 1 << digit_sum(part)
        if not sums:
            return None
        out.append(Part(inner, sums, cage, options))
    for group in region.loose:
        sums = set_sums(masks_of(state, group))
        if not sums:
            return None
        out.append(Part(group, sums))
    return out


def _keep(state: State, part: Part, allowed: int) -> dict[int, int]:
    """Each cell's digits (the cage's cells outside the region too) over the part's choices whose sum is in
    the bitset ``allowed``."""
    keep: dict[int, int] = {}
    if part.cage is None:
        masks = masks_of(state, part.cells)
        sets = [u for u in digit_sets(masks) if allowed >> digit_sum(u) & 1]
        for used in sets:
            _, k = distinct_fit(tuple(m & used for m in masks), digit_sum(used))
            for s, m in zip(part.cells, k):
                keep[s] = keep.get(s, 0) | m
        return keep
    inner = part.cells
    outer = tuple(s for s in part.cage.cage if s not in set(inner))
    for piece, combo in part.options:
        if not allowed >> digit_sum(piece) & 1:
            continue
        _, k = distinct_fit(tuple(m & piece for m in masks_of(state, inner)), digit_sum(piece))
        for s, m in zip(inner, k):
            keep[s] = keep.get(s, 0) | m
        if outer:
            rest = combo & ~piece
            _, k = distinct_fit(tuple(m & rest for m in masks_of(state, outer)), digit_sum(rest))
            for s, m in zip(outer, k):
                keep[s] = keep.get(s, 0) | m
    return keep


def _regions_all(state: State) -> Iterator[tuple[list[int], str]]:
    yield from regions(state)
    yield from _extra_regions(state)


def region_sum(state: State) -> Step | None:
    """The first region (:func:`cages.regions` order, then Ls and squares of boxes) where a part's sum that
    the other parts cannot complete to the region's total removes a candidate."""
    if not any(isinstance(c, KillerCage) and c.total is not None for c in state.constraints):
        return None
    cands = state.cands
    # per region (kept with the puzzle's regions), its cells' candidates when it last removed nothing at these
    # placed cells: the same candidates remove nothing again
    idle: dict[int, tuple[int, ...]] = placed_memo(state, "region-sums").setdefault("idle", {})
    for region in _plans(state):
        seen = tuple(cands[s] for s in region.read)
        if idle.get(id(region)) == seen:
            continue
        found = _region_step(state, region)
        if found is not None:
            return found
        idle[id(region)] = seen
    return None


def _region_step(state: State, region: _Region) -> Step | None:
    """The region's step: a part's sum the other parts cannot complete to the region's total removes a
    candidate; None when none does."""
    cands, vals = state.cands, state.values
    units, name, inside, total = region.units, region.name, region.inside, region.total
    parts = _parts(state, region)
    if parts is None or len(parts) < 2:
        return None
    n = len(parts)
    before = [1] * (n + 1)  # before[i]: the sums of parts 0..i-1 together
    after = [1] * (n + 1)  # after[i]: of parts i..n-1
    for i, part in enumerate(parts):
        before[i + 1] = add_sums(before[i], part.sums)
    for i in range(n - 1, -1, -1):
        after[i] = add_sums(after[i + 1], parts[i].sums)
    if not before[n] >> total & 1:
        return None  # no way at all: a broken state is not this step's to say
    kept: list[int] = []
    for i, part in enumerate(parts):
        others = add_sums(before[i], after[i + 1])
        ok = 0
        for t in range(part.sums.bit_length()):
            if part.sums >> t & 1 and t <= total and others >> (total - t) & 1:
                ok |= 1 << t
        kept.append(ok)
    elim: list[tuple[int, int]] = []
    narrowed: list[int] = []
    for i, part in enumerate(parts):
        if kept[i] == part.sums:
            continue
        for s, m in _keep(state, part, kept[i]).items():
            if not vals[s]:
                elim += [(s, d) for d in digits_of(cands[s] & ~m) if (s, d) not in elim]
        narrowed.append(i)
    if not elim:
        return None
    return _step(state, units, name, inside, total, parts, kept, narrowed, sorted(elim))


def _part_name(state: State, part: Part) -> str:
    cells = "+".join(state.label(s) for s in part.cells)
    if part.cage is None:
        return f"{cells} (in no cage)"
    label = "+".join(state.label(s) for s in part.cage.cage)
    return f"{cells} (of cage {label} = {part.cage.total})"


def _step(state, units, name, inside, total, parts, kept, narrowed, elim) -> Step:
    g = state.g
    full = g.size * (g.size + 1) // 2
    k = len(units)
    region = f"{k} x {full} = {k * full}" if k > 1 else f"{full}"
    head = f"{NAME}: {name} add{'s' if k == 1 else ''} up to {region}"
    if inside:
        inner = sum(c.total or 0 for c in inside)
        head += f"; less the cages wholly inside ({' + '.join(str(c.total) for c in inside)} = {inner}) the rest"
        head += f" adds up to {k * full} - {inner} = {total}"
    else:
        head += f", so the rest adds up to {total}"
    can = "; ".join(f"{_part_name(state, p)} can add up to {_sums_text(p.sums)}" for p in parts)
    only = "; ".join(f"{'+'.join(state.label(s) for s in parts[i].cells)} only {_sums_text(kept[i])}" for i in narrowed)
    return Step(
        NAME,
        eliminations=elim,
        cells=sorted({s for p in parts for s in (p.cage.cage if p.cage else p.cells)}),
        units=list(units),
        explanation=(f"{head}: {can}; the others can complete {total} with {only}: {text.removals(state, elim)}"),
        rating=round(REGION_SUM + 0.2 * (k - 1), 1),
    )
