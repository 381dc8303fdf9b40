"""Cages around a unit: a unit and every summed cage that meets it, filled together.

"Cage Combinations in a Unit" (``cages.py``) takes the cages of a unit together by the digit sets they put in
it, and finishes each cage that sticks out on its own. A killer solver looks further when that stalls: the
cells a cage has outside the unit see other cells of the web (a cage's cells outside a row often share a box
with another cage's cells outside it), so a choice in one cage narrows the others through their cells outside
too. Here the web of a unit is its cells and every cell of the cages that meet it, and a filling of the web
gives each cell one of its candidates so that

- each cage's cells hold different digits with the cage's sum, and
- two cells of the web that see each other (the unit's cells among them) hold different digits.

A candidate no filling uses is removed. Exact over the web (a search over the cages' placements, one cage at
a time, the cage with the fewest placements left first); a unit whose cages have too many placements, or
whose search grows beyond a budget, is left alone (nothing is claimed for it).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from sudokit.constraints.cages import KillerCage
from sudokit.geometry import Geometry
from sudokit.logic import text
from sudokit.logic.cages import _combo_text, _region_cages, fitting_sets, masks_of
from sudokit.logic.puzzle_memo import puzzle_memo
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step

NAME = "Cages Around a Unit"
#: SE rating: above the cages in a unit with their parts outside (3.6) and the 45 rule's region sums: every
#: cage meeting the unit is taken with all its cells and their peers, a combination chain in all but name, so
#: it comes with the long X-chains, before the rules' AICs (7.0) that would otherwise find its steps.
RATING = 6.0
NAME_TWO = "Cages Around Two Units"
#: Two units that share a cell (a row and a box, a row and a column) with every cage meeting either: one notch up.
RATING_TWO = 6.2
#: A web whose cages have more placements than this in all is left alone (a cage of 5 open cells has up to 1,440).
#: Measured on the bundled killers (load 6-7): 3,000 placements and a 200,000 budget cost line 92 9 s of CPU in
#: the two-unit row (74 webs over budget, tried again at every step) and opened nothing more; 1,000 / 50,000
#: 3.2 s; 500 / 50,000 1.0 s, and lines 89 and 95 still finish.
MAX_PLACEMENTS = 500
#: Placements the search may check on one web (one unit on one state); beyond it the unit is left alone.
BUDGET = 50_000


@lru_cache(maxsize=1 << 14)
def placements(masks: tuple[int, ...], total: int | None) -> tuple[tuple[int, ...], ...]:
    """The ways to give cells that must all differ, with candidates ``masks``, one digit each (as one-bit masks)
    summing to ``total`` (any sum when None), in digit order; stops past :data:`MAX_PLACEMENTS` + 1."""
    k = len(masks)
    out: list[tuple[int, ...]] = []
    cur = [0] * k
    lows = [(m & -m).bit_length() for m in masks]
    highs = [m.bit_length() for m in masks]
    rest_low = [sum(lows[i:]) for i in range(k + 1)]
    rest_high = [sum(highs[i:]) for i in range(k + 1)]

    def walk(i: int, used: int, left: int) -> None:
        if len(out) > MAX_PLACEMENTS:
            return
        if i == k:
            if total is None or left == 0:
                out.append(tuple(cur))
            return
        if total is not None and not rest_low[i] <= left <= rest_high[i]:
            return
        free = masks[i] & ~used
        while free:
            b = free & -free
            free ^= b
            cur[i] = b
            walk(i + 1, used | b, left - b.bit_length())

    walk(0, 0, total or 0)
    return tuple(out)


@lru_cache(maxsize=1 << 14)
def packed_placements(masks: tuple[int, ...], total: int | None, n: int) -> tuple[int, ...]:
    """:func:`placements`, each as one integer: its cells' one-bit masks side by side, ``n`` bits a cell."""
    return tuple(sum(b << (n * j) for j, b in enumerate(p)) for p in placements(masks, total))


@lru_cache(maxsize=1 << 12)
def web_fit(
    g: Geometry, groups: tuple[tuple[int, ...], ...], totals: tuple[int | None, ...], masks: tuple[int, ...]
) -> tuple[int, ...] | None:
    """Each cell's digits (masks, cells in ``groups`` order) over the fillings of a web: ``groups`` its cages'
    cells (and single cells in no cage, with total None), ``masks`` their candidates in the same order. None
    when the cages have more than :data:`MAX_PLACEMENTS` placements in all or the search checks more than
    :data:`BUDGET` placements (nothing is known then).

    A group's placement is one integer, its cells' one-bit masks side by side (``g.n`` bits a cell), so testing
    a placement against the digits another group's choice bans from its cells is one ``&``."""
    n = g.size
    full = (1 << n) - 1
    owner, starts, seen_by = _layout(g, groups)
    options: list[list[int]] = []
    for gi, (grp, total) in enumerate(zip(groups, totals)):
        at = starts[gi]
        options.append(list(packed_placements(tuple(masks[at : at + len(grp)]), total, n)))
    if sum(len(o) for o in options) > MAX_PLACEMENTS:
        return None
    keep = [0] * len(groups)  # per group, its cells' digits used by a filling found so far, packed alike
    work = 0
    bans: dict[tuple[int, int], dict[int, int]] = {}  # (group, placement) -> what it bans in each other group

    def narrow(gi: int, p: int, opts: dict[int, list[int]]) -> dict[int, list[int]] | None:
        """The other groups' placements left once group ``gi`` takes ``p`` (None when one has none)."""
        nonlocal work
        banned = bans.get((gi, p))
        if banned is None:
            banned = bans[(gi, p)] = {}
            at = starts[gi]
            for j in range(len(groups[gi])):
                b = (p >> (n * j)) & full
                for h, shift in seen_by[at + j]:
                    banned[h] = banned.get(h, 0) | (b << shift)
        out = {}
        for h, hs in opts.items():
            if h == gi:
                continue
            ban = banned.get(h)
            if ban is not None:
                work += len(hs)
                hs = [q for q in hs if not q & ban]
                if not hs:
                    return None
            out[h] = hs
        if work > BUDGET:
            raise _OverBudget
        return out

    def search(opts: dict[int, list[int]], chosen: dict[int, int]) -> dict[int, int] | None:
        """A filling: a placement for each group of ``opts`` (its placements left) with the ``chosen`` ones."""
        if not opts:
            return chosen
        gi, fewest = -1, 0
        for h, hs in opts.items():  # the first group with the fewest placements left
            if gi < 0 or len(hs) < fewest:
                gi, fewest = h, len(hs)
        # placements that still cover an uncovered candidate first: each filling found covers more
        uncovered = ~keep[gi]
        ps = opts[gi]
        for p in [q for q in ps if q & uncovered] + [q for q in ps if not q & uncovered]:
            rest = narrow(gi, p, opts)
            if rest is not None:
                found = search(rest, {**chosen, gi: p})
                if found is not None:
                    return found
        return None

    start = dict(enumerate(options))
    try:
        for gi, grp in enumerate(groups):
            at = starts[gi]
            for j in range(len(grp)):
                shift = n * j
                for d in digits_of(masks[at + j]):
                    b = 1 << (d - 1)
                    if keep[gi] >> shift & b:
                        continue
                    found = search({**start, gi: [p for p in options[gi] if (p >> shift) & full == b]}, {})
                    if found is not None:
                        for h, q in found.items():
                            keep[h] |= q
    except _OverBudget:
        return None
    return tuple((keep[owner[i]] >> (n * (i - starts[owner[i]]))) & full for i in range(len(owner)))


@lru_cache(maxsize=1 << 10)
def _layout(
    g: Geometry, groups: tuple[tuple[int, ...], ...]
) -> tuple[list[int], list[int], list[list[tuple[int, int]]]]:
    """A web's layout for :func:`web_fit` (it depends on the groups only): each cell's group (cells in
    ``groups`` order), each group's first cell, and for each cell the (group, shift) of every cell of another
    group that sees it."""
    n = g.size
    cells = [s for grp in groups for s in grp]
    index = {s: i for i, s in enumerate(cells)}
    owner = [gi for gi, grp in enumerate(groups) for _ in grp]
    starts = [0] * len(groups)
    at = 0
    for gi, grp in enumerate(groups):
        starts[gi] = at
        at += len(grp)
    peers = g.peer_sets
    seen_by = [
        [
            (owner[index[x]], n * (index[x] - starts[owner[index[x]]]))
            for x in peers[s]
            if x in index and owner[index[x]] != owner[i]
        ]
        for i, s in enumerate(cells)
    ]
    return owner, starts, seen_by


class _OverBudget(Exception):
    """The web's search ran past its budget."""


def _web(state: State, units: Sequence[int], cages: Sequence[KillerCage]) -> tuple[list[KillerCage], list[int]]:
    """The summed cages (overlapping no other) that meet the ``units``, and the units' cells in none of them."""
    g = state.g
    cells = set().union(*(g.unit_sets[u] for u in units))
    meeting = [c for c in cages if not cells.isdisjoint(c.cage)]
    caged = {s for c in meeting for s in c.cage}
    return meeting, [s for s in sorted(cells) if s not in caged]


def _unit_groups(g: Geometry, k: int) -> list[tuple[int, ...]]:
    """Each unit (``k`` = 1), or each two units that share a cell (``k`` = 2), in unit order."""
    n = len(g.units)
    if k == 1:
        return [(u,) for u in range(n)]
    return [(u, v) for u in range(n) for v in range(u + 1, n) if not g.unit_sets[u].isdisjoint(g.unit_sets[v])]


def _webs(
    state: State, k: int, cages: list[KillerCage]
) -> list[tuple[tuple[int, ...], list[KillerCage], tuple[tuple[int, ...], ...], list[int], tuple[int | None, ...]]]:
    """Each unit (``k`` = 2: two units that share a cell) with a summed cage sticking out of it: the units, the
    cages meeting them, the web's groups (cages, then the units' cells in none) and cells, and the groups'
    totals; kept for the puzzle (it depends on the cages only)."""
    memo = puzzle_memo(state)
    found = memo.get(f"unit-webs-{k}")
    if found is not None:
        return found
    g = state.g
    out = []
    for units in _unit_groups(g, k):
        meeting, loose = _web(state, units, cages)
        inside = set().union(*(g.unit_sets[u] for u in units))
        if not meeting or all(inside.issuperset(c.cage) for c in meeting):
            continue  # the cages wholly inside: Cage Combinations in a Unit says all there is
        groups = tuple(tuple(c.cage) for c in meeting) + tuple((s,) for s in loose)
        cells = [s for grp in groups for s in grp]
        totals = tuple(c.total for c in meeting) + (None,) * len(loose)
        out.append((units, meeting, groups, cells, totals))
    memo[f"unit-webs-{k}"] = out
    return out


def cages_around_unit(state: State, k: int = 1) -> Step | None:
    """The first unit (in unit order; ``k`` = 2: two units that share a cell) whose web (its cells and every
    cell of the summed cages meeting it, at least one of them sticking out) has a candidate no filling uses."""
    cages = _region_cages(state)["cages"]
    if not cages:
        return None
    g = state.g
    vals, cands = state.values, state.cands
    for units, meeting, groups, cells, totals in _webs(state, k, cages):
        if all(vals[s] for s in cells):
            continue
        keep = web_fit(g, groups, totals, masks_of(state, cells))
        if keep is None or not all(keep):
            continue  # too big to search, or no filling at all (a broken state is not this step's to say)
        elim = [(s, d) for s, m in zip(cells, keep) if not vals[s] for d in digits_of(cands[s] & ~m)]
        if elim:
            return _step(state, units, meeting, cells, keep, sorted(elim))
    return None


def _step(
    state: State, units: tuple[int, ...], meeting: list[KillerCage], cells: list[int], keep: Sequence[int], elim: list
) -> Step:
    """The step's text: each cage with the digit sets its cells' kept digits can still make (a bound: every
    set a filling uses is among them)."""
    at = 0
    told = []
    for c in meeting:
        k = len(c.cage)
        masks = masks_of(state, c.cage)
        narrowed = tuple(m & kk for m, kk in zip(masks, keep[at : at + k]))
        at += k
        sets = fitting_sets(narrowed, c.total or 0)
        label = "+".join(state.label(s) for s in c.cage)
        told.append(f"{label} = {c.total} ({_combo_text(state, sets)})")
    return Step(
        NAME if len(units) == 1 else NAME_TWO,
        eliminations=elim,
        cells=list(cells),
        units=list(units),
        explanation=(
            f"{NAME if len(units) == 1 else NAME_TWO}: {' and '.join(state.unit_name(u) for u in units)} "
            f"hold{'s' if len(units) == 1 else ''} each digit once, and the cages that meet it must each hold "
            f"different digits with their sums, no two cells that see each other alike (outside the unit too); "
            f"filling them all together, each cage keeps only sets among {'; '.join(told)}, and no filling puts "
            f"{_put(state, elim)}: {text.removals(state, elim)}"
        ),
        rating=RATING if len(units) == 1 else RATING_TWO,
    )


def _put(state: State, elim: list) -> str:
    """``4 in B2, 7 in A9 or C3`` for the removed candidates."""
    by_digit: dict[int, list[int]] = {}
    for s, d in elim:
        by_digit.setdefault(d, []).append(s)
    return ", ".join(f"{state.sym(d)} in {_or_list([state.label(s) for s in ss])}" for d, ss in by_digit.items())


def _or_list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]
