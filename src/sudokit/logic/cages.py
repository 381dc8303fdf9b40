"""Killer techniques: cage combinations, cage/region interactions, innies and outies (the 45 rule).

They read the summed killer cages of a variant state (``state.constraints``); a classic state has none and
they find nothing. Every deduction is exact over the cells it looks at:

- **Cage combination**: the sets of different digits with the cage's sum that the cells' candidates can
  hold, one digit per cell (a matching, not only "each cell sees a digit of the set"), and the digits a
  unit forces into the cage (a digit whose places in a row, column or box all lie in the cage); each cell
  keeps the digits some such placement gives it.
- **Cage/region interaction**: a digit every fitting combination holds is in the cage; when its places in
  the cage all lie in one box (row, column) or all see a cell outside the cage, that cell loses it.
- **Innies and outies**: some whole rows, columns or boxes hold ``k`` times the sum of all digits; less the
  cages wholly inside, the rest of their cells (innies) have a known sum, and the cells of the cages that
  stick out beyond them (outies) too. A group of a few cells with a known sum is narrowed like a cage, with
  repeats allowed where its cells are not peers.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import combinations

from sudokit.constraints.cages import KillerCage, cage_combos
from sudokit.geometry import Geometry
from sudokit.logic import set_bits, text
from sudokit.logic.chains import bit_numbers
from sudokit.logic.puzzle_memo import kept, placed_memo, puzzle_memo
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step

#: Innie and outie groups above this many cells that are not all peers are not narrowed (the search over
#: their digits grows as 9**cells); a group of mutual peers of any size is.
MAX_LOOSE_GROUP = 5
#: Base ratings on the Sudoku Explainer scale (see docs/logic.md, "Variant steps").
CAGE_COMBINATION = 2.0
CAGE_INTERACTION = 2.6
INNIES_OUTIES = 2.8


def summed_cages(state: State) -> list[KillerCage]:
    """The state's killer cages that carry a sum, in puzzle order."""
    return [c for c in state.constraints if isinstance(c, KillerCage) and c.total is not None]


def masks_of(state: State, cells: Sequence[int]) -> tuple[int, ...]:
    """Each cell's candidates, a placed cell's digit as a one-digit mask."""
    vals, cands = state.values, state.cands
    return tuple(1 << (vals[s] - 1) if vals[s] else cands[s] for s in cells)


@lru_cache(maxsize=1 << 16)
def distinct_fit(masks: tuple[int, ...], total: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For cells that must all differ, with candidates ``masks``, summing to ``total``: the digit sets
    (masks) some placement uses, and each cell's digits that belong to one. Exact: placements are followed
    cell by cell over the sets of digits used so far, all sets of a cell as one integer (:mod:`set_bits`)."""
    alive = set_bits.with_sum(masks, total)
    return tuple(bit_numbers(alive)), set_bits.digits_used(masks, alive)


def fitting_sets(masks: Sequence[int], total: int) -> tuple[int, ...]:
    """The digit sets (masks, in order) that cells which must all differ, with candidates ``masks``, can hold
    with the sum ``total``, one digit per cell: the sets of :func:`distinct_fit` (exact, memoised)."""
    return distinct_fit(tuple(masks), total)[0]


def loose_fit(
    masks: Sequence[int], total: int, apart: Sequence[Sequence[bool]], signs: Sequence[int] | None = None
) -> list[int]:
    """Each cell's digits that belong to some choice, one digit per cell, whose total (each digit times its
    cell's sign, +1 by default) is ``total``, where cells ``i``, ``j`` with ``apart[i][j]`` differ (repeats
    allowed elsewhere): :func:`weighted_fit` with the signs as weights."""
    k = len(masks)
    before = tuple(tuple(j for j in range(i) if apart[i][j]) for i in range(k))
    sign = tuple(signs) if signs is not None else (1,) * k
    return list(weighted_fit(tuple(masks), sign, total, before))


@lru_cache(maxsize=1 << 14)
def weighted_fit(
    masks: tuple[int, ...], weights: tuple[int, ...], total: int, before: tuple[tuple[int, ...], ...]
) -> tuple[int, ...]:
    """Each cell's digits that belong to some choice, one digit of its mask per cell, with
    ``sum(weight x digit) == total`` and cell ``i`` different from the cells ``before[i]`` (memoised)."""
    k = len(masks)
    lows = [(m & -m).bit_length() for m in masks]
    highs = [m.bit_length() for m in masks]
    least = [w * (lows[i] if w > 0 else highs[i]) for i, w in enumerate(weights)]
    most = [w * (highs[i] if w > 0 else lows[i]) for i, w in enumerate(weights)]
    rest_low = [sum(least[i:]) for i in range(k + 1)]
    rest_high = [sum(most[i:]) for i in range(k + 1)]
    keep = [0] * k
    chosen = [0] * k  # each cell's digit on the way, as a one-bit mask

    def walk(i: int, left: int) -> bool:
        if i == k:
            if left:
                return False
            for j in range(k):  # a choice that fits: each cell keeps its digit
                keep[j] |= chosen[j]
            return True
        if not rest_low[i] <= left <= rest_high[i]:
            return False
        banned = 0
        for j in before[i]:
            banned |= chosen[j]
        free = masks[i] & ~banned
        w = weights[i]
        if i == k - 1 and w:  # the last cell: only the digit that leaves nothing fits
            d = left // w
            if d * w != left or d < 1 or not free >> (d - 1) & 1:
                return False
            chosen[i] = 1 << (d - 1)
            for j in range(k):
                keep[j] |= chosen[j]
            return True
        found = False
        while free:
            b = free & -free
            free ^= b
            chosen[i] = b
            if walk(i + 1, left - w * b.bit_length()):
                found = True
        return found

    walk(0, total)
    return tuple(keep)


#: How a group's digits were narrowed, for the step's text (see :func:`_group_keep`).
BY_BOUNDS = (
    " (too many cells to search: each keeps the digits that leave the others a reachable rest, each row, column,"
    " box or cage of them adding at least its lowest and at most its highest different candidates)"
)


def _group_keep(
    state: State, cells: Sequence[int], total: int, signs: Sequence[int] | None = None
) -> tuple[list[int], str]:
    """What a group of cells with a known (signed) sum keeps, and how, in words ("" when exact): exact for
    cells that all see each other and for a few cells, by bounds for more (:data:`MAX_LOOSE_GROUP`)."""
    masks = masks_of(state, cells)
    sign = tuple(signs) if signs is not None else None
    plans = puzzle_memo(state).setdefault("group-plans", {})
    key = (tuple(cells), sign)
    plan = plans.get(key)
    if plan is None:  # how to narrow the group (it depends on the cells and the cages only)
        peers = state.g.peer_sets
        apart = [[b in peers[a] for b in cells] for a in cells]
        if signs is None and all(apart[i][j] for i in range(len(cells)) for j in range(i)):
            plan = plans[key] = ("distinct", None)
        elif len(cells) > MAX_LOOSE_GROUP:
            plan = plans[key] = ("bounds", cliques_of(state, cells, sign))
        else:
            before = tuple(tuple(j for j in range(i) if apart[i][j]) for i in range(len(cells)))
            plan = plans[key] = ("loose", (sign if sign is not None else (1,) * len(cells), before))
    how, data = plan
    if how == "distinct":
        return list(distinct_fit(masks, total)[1]), ""
    if how == "bounds":
        return list(bound_fit(masks, total, sign, data)), BY_BOUNDS
    return list(weighted_fit(masks, data[0], total, data[1])), ""  # loose_fit's search


@lru_cache(maxsize=1 << 14)
def bound_fit(
    masks: tuple[int, ...],
    total: int,
    signs: tuple[int, ...] | None = None,
    cliques: tuple[tuple[int, ...], ...] | None = None,
) -> tuple[int, ...]:
    """Each cell's digits that leave the other cells a reachable rest of the (signed) ``total``. The cells are
    split into ``cliques`` (index tuples, each cell in one; default: each cell alone) whose cells all differ:
    a clique of ``m`` cells adds at least the ``m`` lowest and at most the ``m`` highest digits of its
    candidates (less the digit tried, in the tried cell's clique). Repeats are allowed between cliques, so this
    is weaker than :func:`loose_fit`: for groups too big to search."""
    k = len(masks)
    sign = signs if signs is not None else (1,) * k
    groups = cliques if cliques is not None else tuple((i,) for i in range(k))

    def span(members: Sequence[int], without: int = 0) -> tuple[int, int]:
        """Lowest and highest signed sum of ``members`` (different digits, none of the mask ``without``)."""
        if not members:
            return 0, 0
        union = 0
        for i in members:
            union |= masks[i]
        low, high = _low_high(union & ~without, len(members))
        if low > high:
            return 1, 0  # empty: no way
        return (low, high) if sign[members[0]] > 0 else (-high, -low)

    spans = [span(q) for q in groups]
    all_low, all_high = sum(lo for lo, _ in spans), sum(hi for _, hi in spans)
    keep = [0] * k
    for gi, q in enumerate(groups):
        lo_q, hi_q = spans[gi]
        for i in q:
            others = [j for j in q if j != i]
            union = 0
            for j in others:
                union |= masks[j]
            flip = bool(others) and sign[others[0]] < 0
            free = masks[i]
            while free:
                b = free & -free
                free ^= b
                if others:  # span(others, b)
                    lo, hi = _low_high(union & ~b, len(others))
                    if lo > hi:
                        continue
                    if flip:
                        lo, hi = -hi, -lo
                else:
                    lo, hi = 0, 0
                rest_low, rest_high = all_low - lo_q + lo, all_high - hi_q + hi
                if rest_low <= total - sign[i] * b.bit_length() <= rest_high:
                    keep[i] |= b
    return tuple(keep)


@lru_cache(maxsize=1 << 16)
def _low_high(mask: int, m: int) -> tuple[int, int]:
    """The sums of the ``m`` lowest and the ``m`` highest digits of ``mask`` (``m`` >= 1); (1, 0) when it has
    fewer than ``m``."""
    ds = digits_of(mask)
    if len(ds) < m:
        return 1, 0
    return sum(ds[:m]), sum(ds[-m:])


def cliques_of(state: State, cells: Sequence[int], signs: Sequence[int] | None = None) -> tuple[tuple[int, ...], ...]:
    """The indices of ``cells`` split into groups of cells that all see each other and share a sign: greedily,
    the biggest part of the group a unit or a summed cage holds first (bigger cliques give tighter bounds)."""
    cages = kept(state, "cage-cells", lambda: tuple(c.cage for c in summed_cages(state)))
    return _cliques(state.g, cages, tuple(cells), tuple(signs) if signs is not None else (1,) * len(cells))


@lru_cache(maxsize=1 << 14)
def _cliques(
    g: Geometry, cages: tuple[tuple[int, ...], ...], cells: tuple[int, ...], sign: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    """:func:`cliques_of` on the board's units and the cages' cells (memoised: they do not change)."""
    where = {s: i for i, s in enumerate(cells)}
    # each block's cells among ``cells``, by sign, in the blocks' order (units, then cages): only those of two
    # or more cells can give a clique (so only the blocks that hold one of the cells are looked at)
    in_unit: dict[int, list[int]] = {}
    in_cage: dict[int, list[int]] = {}
    units_of, cage_of = g.units_of, _cages_of(cages)
    for s, i in where.items():
        for u in units_of[s]:
            in_unit.setdefault(u, []).append(i)
        for c in cage_of.get(s, ()):
            in_cage.setdefault(c, []).append(i)
    parts = []
    for here in [*(sorted(in_unit[u]) for u in sorted(in_unit)), *(sorted(in_cage[c]) for c in sorted(in_cage))]:
        if len(here) > 1:
            for x in (1, -1):
                part = tuple(i for i in here if sign[i] == x)
                if len(part) > 1:
                    parts.append(part)
    # greedily: the first part with the most cells not yet taken (parts and cells left as bitmasks of indices)
    bits = [sum(1 << i for i in part) for part in parts]
    k = len(cells)
    left = (1 << k) - 1
    out: list[tuple[int, ...]] = []
    while left:
        best, most = 0, 0
        for whole in bits:
            taken = whole & left
            count = taken.bit_count()
            if count > most:
                best, most = taken, count
        if most <= 1:
            out += [(i,) for i in range(k) if left >> i & 1]
            break
        out.append(tuple(i for i in range(k) if best >> i & 1))
        left &= ~best
    return tuple(out)


@lru_cache(maxsize=64)
def _cages_of(cages: tuple[tuple[int, ...], ...]) -> dict[int, tuple[int, ...]]:
    """Per cell, the indices of the ``cages`` that hold it."""
    out: dict[int, list[int]] = {}
    for c, cage in enumerate(cages):
        for s in cage:
            out.setdefault(s, []).append(c)
    return {s: tuple(cs) for s, cs in out.items()}


def _forced_in(state: State, cage: KillerCage) -> dict[int, int]:
    """Digits a unit forces into the cage: ``{digit: unit}`` when the digit's places in that unit (with none
    placed there) all lie in the cage."""
    g = state.g
    cells = set(cage.cage)
    out: dict[int, int] = {}
    units = sorted({u for s in cage.cage for u in g.units_of[s]})
    for u in units:
        for d in g.digits:
            if d in out:
                continue
            where = state.positions(u, d)
            if where and cells.issuperset(where) and not state.placed_in(u, d):
                out[d] = u
    return out


def _combo_text(state: State, combos: Sequence[int]) -> str:
    shown = [text.digit_set(digits_of(m), state) for m in combos[:8]]
    more = f" and {len(combos) - 8} more" if len(combos) > 8 else ""
    return " ".join(shown) + more


def cage_combinations(state: State) -> Step | None:
    """The first cage (puzzle order) whose fitting combinations remove a candidate."""
    for cage in summed_cages(state):
        cells = cage.cage
        open_cells = [s for s in cells if not state.values[s]]
        if not open_cells:
            continue
        total = cage.total or 0
        masks = masks_of(state, cells)
        forced = _forced_in(state, cage)
        need = 0
        for d in forced:
            need |= 1 << (d - 1)
        sets, keep = distinct_fit(masks, total)
        if need:
            fitting = tuple(m for m in sets if m & need == need)
            if fitting != sets:
                # placements of the kept sets only: narrow each cell to the union of its digits over them
                keep = tuple(_keep_within(masks, total, fitting))
                sets = fitting
        if not all(keep):
            continue  # no placement fits: the state is broken, which is not this step's to say
        elim = [(s, d) for s, m in zip(cells, keep) if not state.values[s] for d in digits_of(state.cands[s] & ~m)]
        if not elim:
            continue
        every = cage_combos(len(cells), total, state.g.size)
        label = "+".join(state.label(s) for s in cells)
        if len(every) == 1:
            why = f"the only {len(cells)} different digits summing to {total} are {_combo_text(state, every)}"
        else:
            why = f"the {len(every)} sets of {len(cells)} different digits summing to {total} are "
            why += _combo_text(state, every)
        if len(sets) < len(every):
            why += f"; only {_combo_text(state, sets)} fit{'s' if len(sets) == 1 else ''} the candidates"
        if forced:
            hold = [f"{state.sym(d)} (in {state.unit_name(u)} it can only go in the cage)" for d, u in forced.items()]
            why += " and hold " + text.and_list(hold)
        return Step(
            "Cage Combination",
            eliminations=elim,
            cells=list(cells),
            units=sorted(set(forced.values())),
            explanation=f"Cage Combination: cage {label} = {total}: {why}: {text.removals(state, elim)}",
            rating=CAGE_COMBINATION,
        )
    return None


def _keep_within(masks: tuple[int, ...], total: int, sets: Sequence[int]) -> list[int]:
    """Each cell's digits over the placements that use one of ``sets`` (a cage's fitting digit sets)."""
    keep = [0] * len(masks)
    for combo in sets:
        _, part = distinct_fit(tuple(m & combo for m in masks), total)
        keep = [a | b for a, b in zip(keep, part)]
    return keep


def cage_interaction(state: State) -> Step | None:
    """The first digit a cage must hold (every fitting combination has it) whose places in the cage all see a
    cell outside it that still has the digit: in cage order, then digit order."""
    g = state.g
    peers = g.peer_sets
    cands, vals = state.cands, state.values
    for cage in summed_cages(state):
        cells = cage.cage
        if all(vals[s] for s in cells):
            continue
        sets = fitting_sets(masks_of(state, cells), cage.total or 0)
        if not sets:
            continue
        required = -1
        for m in sets:
            required &= m
        inside = set(cells)
        for d in digits_of(required & g.all_mask):
            if any(vals[s] == d for s in cells):
                continue
            bit = 1 << (d - 1)
            where = [s for s in cells if cands[s] & bit]
            if not where:
                continue
            seen = set.intersection(*(set(peers[s]) for s in where)) - inside
            elim = sorted((s, d) for s in seen if cands[s] & bit)
            if not elim:
                continue
            shared = [u for u in g.units_of[where[0]] if all(u in g.units_of[s] for s in where)]
            place = f"all in {state.unit_name(shared[0])}" if shared else f"seen by {text.cells(state, seen)}"
            label = "+".join(state.label(s) for s in cells)
            return Step(
                "Cage/Region Interaction",
                eliminations=elim,
                cells=list(cells),
                units=shared[:1],
                candidates=[(s, d) for s in where],
                explanation=(
                    f"Cage/Region Interaction: cage {label} = {cage.total} must hold {state.sym(d)} (every "
                    f"combination that fits has it), and in the cage it can only go in {text.cells(state, where)}, "
                    f"{place}: {text.removals(state, elim)}"
                ),
                rating=CAGE_INTERACTION,
            )
    return None


# ---- innies and outies ----------------------------------------------------------------------------------
def regions(state: State) -> Iterator[tuple[list[int], str]]:
    """Sets of disjoint units to add up: each unit, then two boxes side by side in a band or a stack, then
    runs of 2.. n-1 consecutive rows, then columns."""
    g = state.g
    for u in range(len(g.units)):
        yield [u], state.unit_name(u)
    if g.has_boxes:
        rows_of = {b: frozenset(g.row(s) for s in g.units[b]) for b in g.boxes}
        cols_of = {b: frozenset(g.col(s) for s in g.units[b]) for b in g.boxes}
        for i, a in enumerate(g.boxes):
            for b in g.boxes[i + 1 :]:
                if rows_of[a] == rows_of[b] or cols_of[a] == cols_of[b]:
                    yield [a, b], f"{state.unit_name(a)} and {state.unit_name(b)}"
    for lines, word in ((g.rows, "rows"), (g.cols, "columns")):
        n = len(lines)
        for k in range(2, n):
            for start in range(n - k + 1):
                run = list(lines[start : start + k])
                first, last = state.unit_name(run[0]).split()[-1], state.unit_name(run[-1]).split()[-1]
                yield run, f"{word} {first}-{last}"


def _region_cages(state: State) -> dict:
    """The summed cages that overlap no other and, per cell, the one holding it (kept in the state's memo).
    Overlapping cages (a cell in two) would count a cell twice in the 45 rule: their cells are left uncaged."""
    found = state.memo.get("cage-of")
    if found is None:
        summed = summed_cages(state)
        times: dict[int, int] = {}
        for c in summed:
            for s in c.cage:
                times[s] = times.get(s, 0) + 1
        cages = [c for c in summed if all(times[s] == 1 for s in c.cage)]
        of = {s: c for c in cages for s in c.cage}
        found = state.memo["cage-of"] = {"cages": cages, "of": of}
    return found


def region_cages(state: State, units: Sequence[int]) -> tuple[set[int], list[KillerCage], list[KillerCage]]:
    """The cells of a region (disjoint ``units``), the summed cages wholly inside it and those partly inside
    (in the order of their first cell; overlapping cages left out, see :func:`_region_cages`)."""
    g = state.g
    of = _region_cages(state)["of"]
    cells = {s for u in units for s in g.units[u]}
    inside: list[KillerCage] = []
    partial: list[KillerCage] = []
    seen: set[KillerCage] = set()
    for s in sorted(cells):
        c = of.get(s)
        if c is None or c in seen:
            continue
        seen.add(c)
        (inside if cells.issuperset(c.cage) else partial).append(c)
    return cells, inside, partial


def innies_outies(state: State) -> Step | None:
    """The first region (units, then runs of rows, then of columns) whose innies or outies, as a group with a
    known sum, lose a candidate; smaller groups first within a region (innies before outies on a tie)."""
    if not summed_cages(state):
        return None
    cands = state.cands
    # per group (kept with the puzzle's groups), its cells' candidates when it last removed nothing at these
    # placed cells: the same candidates remove nothing again
    idle: dict[int, tuple[int, ...]] = placed_memo(state, "innies").setdefault("idle", {})
    for units, name, inside, partial, groups in _innies_groups(state):
        for found in groups:
            kind, group, total = found[:3]
            seen = tuple(cands[s] for s in group)
            if idle.get(id(found)) == seen:
                continue
            signs = found[3:]
            keep, how = _group_keep(state, group, total, signs[0] if signs else None)
            elim = []
            if all(keep):
                elim = [(s, d) for s, m in zip(group, keep) if not state.values[s] for d in digits_of(cands[s] & ~m)]
            if not elim:
                idle[id(found)] = seen
                continue
            return _innies_step(state, units, name, inside, partial, kind, group, total, elim, signs, how)
    return None


def _innies_groups(state: State) -> list[tuple[list[int], str, list[KillerCage], list[KillerCage], list[tuple]]]:
    """Each region (:func:`regions` order) that is not exactly its cages, with its cages wholly and partly
    inside and its groups with a known sum (innies, outies, innies minus outies), smaller groups first; kept
    for the puzzle (they depend on the cages only)."""
    memo = puzzle_memo(state)
    found = memo.get("innies-groups")
    if found is not None:
        return found
    g = state.g
    of = _region_cages(state)["of"]
    full = g.size * (g.size + 1) // 2
    out = []
    for units, name in regions(state):
        cells, inside, partial = region_cages(state, units)
        if not partial and all(s in of for s in cells):
            continue  # the region is exactly its cages: nothing to learn
        covered = {s for c in inside for s in c.cage}
        innies = [s for s in sorted(cells) if s not in covered]
        region_total = full * len(units)
        inner = sum(c.total or 0 for c in inside)
        innie_sum = region_total - inner
        groups: list[tuple] = []
        if innies and inside:  # without a cage inside, the "innies" are the whole region: no sum to learn
            groups.append(("innies", innies, innie_sum))
        if innies and all(s in of for s in innies):
            outies = sorted({s for c in partial for s in c.cage if s not in cells})
            outie_sum = sum(c.total or 0 for c in partial) - innie_sum
            if outies and outie_sum > 0:
                groups.append(("outies", outies, outie_sum))
        mixed = _mixed_group(cells, partial, of, innie_sum)
        if mixed is not None:
            groups.append(mixed)
        groups.sort(key=lambda grp: len(grp[1]))
        out.append((units, name, inside, partial, groups))
    memo["innies-groups"] = out
    return out


def _mixed_group(cells: set[int], partial: list[KillerCage], of: dict, innie_sum: int) -> tuple | None:
    """Innies minus outies: each cage sticking out of the region counted by its smaller side (the cells inside,
    or its sum less the cells outside), with the region's cells in no summed cage. None unless both sides
    are used (all innies or all outies are the plain groups)."""
    plus = [s for s in sorted(cells) if s not in of]
    minus: list[int] = []
    total = innie_sum  # the innies' sum: every cell inside but the wholly-inside cages
    for cage in partial:
        inner = [s for s in cage.cage if s in cells]
        outer = [s for s in cage.cage if s not in cells]
        if len(outer) < len(inner):
            minus += outer
            total -= cage.total or 0  # inner = total - outer
        else:
            plus += inner
    if not minus or not plus:
        return None
    group = plus + minus
    return ("innies minus outies", group, total, [1] * len(plus) + [-1] * len(minus))


def _innies_step(state, units, name, inside, partial, kind, group, total, elim, signs=(), how="") -> Step:
    g = state.g
    full = g.size * (g.size + 1) // 2
    k = len(units)
    region = f"{k} x {full} = {k * full}" if k > 1 else f"{full}"
    inner = sum(c.total or 0 for c in inside)
    parts = " + ".join(str(c.total) for c in inside) or "0"
    sums = f"{name} sum{'s' if k == 1 else ''} to {region}"  # "row A sums", "rows A-C sum"
    if inside:
        sums += f"; the cages wholly inside sum to {parts} = {inner}"
    cells = " + ".join(state.label(s) for s in group)
    if kind == "innies":
        arith = f"so the innies {cells} = {k * full} - {inner} = {total}"
    elif kind == "innies minus outies":
        sign = signs[0]
        ins = " + ".join(state.label(s) for s, x in zip(group, sign) if x > 0)
        outs = " - ".join(state.label(s) for s, x in zip(group, sign) if x < 0)
        sticking = [c for c in partial if any(x < 0 and s in c.cage for s, x in zip(group, sign))]
        over = sum(c.total or 0 for c in sticking)
        cages = " + ".join(str(c.total) for c in sticking)
        stick = (
            f"the cage that sticks out ({over})"
            if len(sticking) == 1
            else f"the cages that stick out ({cages} = {over})"
        )
        its = "its" if len(sticking) == 1 else "their"
        innie_sum = f"the innies sum to {k * full} - {inner} = {k * full - inner}; " if inside else ""
        arith = f"{innie_sum}counting {stick} less {its} outies, {ins} - {outs} = {k * full - inner} - {over} = {total}"
    else:
        over = sum(c.total or 0 for c in partial)
        cages = " + ".join(str(c.total) for c in partial)
        arith = (
            f"the innies sum to {k * full} - {inner} = {k * full - inner}, and the cages that stick out sum to "
            f"{cages} = {over}, so the outies {cells} = {over} - {k * full - inner} = {total}"
        )
    if len(group) == 1:
        lead = f"{state.label(group[0])} = {total}"
        return Step(
            "Innies and Outies",
            placements=[(group[0], total)],
            cells=list(group),
            units=list(units),
            explanation=f"Innies and Outies: {sums}, {arith}: {lead}",
            rating=round(INNIES_OUTIES + 0.2 * (k - 1), 1),
        )
    return Step(
        "Innies and Outies",
        eliminations=elim,
        cells=list(group),
        units=list(units),
        explanation=f"Innies and Outies: {sums}, {arith}{how}: {text.removals(state, elim)}",
        rating=round(INNIES_OUTIES + 0.2 * (k - 1), 1),
    )


# ---- cages in a unit together ---------------------------------------------------------------------------
UNIT_COMBINATION = 3.4
#: With a cage only partly inside the unit (its cells outside narrowed too): one notch harder.
UNIT_COMBINATION_PARTIAL = 3.6


@lru_cache(maxsize=1 << 16)
def part_options(inner: tuple[int, ...], outer: tuple[int, ...], total: int) -> tuple[tuple[int, int], ...]:
    """A cage cut by a unit: ``inner`` the masks of its cells in the unit, ``outer`` of the others, ``total``
    its sum. The pairs ``(part, combo)``: ``combo`` a set of different digits with the cage's sum that its
    cells can place, ``part`` the digits its inner cells take in such a placement (inner cells placed onto
    ``part`` exactly, outer ones onto the rest of ``combo``)."""
    out = []
    k = len(inner)
    for combo in fitting_sets(inner + outer, total):
        ds = digits_of(combo)
        for pick in combinations(ds, k):
            part = 0
            for d in pick:
                part |= 1 << (d - 1)
            if not fitting_sets([m & part for m in inner], sum(pick)):
                continue
            left = combo & ~part
            if outer and not fitting_sets([m & left for m in outer], total - sum(pick)):
                continue
            out.append((part, combo))
    return tuple(out)


@lru_cache(maxsize=1 << 14)
def unit_fit(
    options: tuple[tuple[int, ...], ...], rest: tuple[int, ...], full: int
) -> tuple[tuple[frozenset[int], ...], tuple[int, ...]] | None:
    """A unit holding every digit of ``full`` once, split into parts (each with the digit ``options`` it may
    take, as masks) and the ``rest`` of its cells (their masks): each part's options that belong to some
    choice of one option per part, pairwise disjoint, that leaves the rest digits it can hold, and the
    rest's digits over those choices (None when there is none)."""
    levels: list[set[int]] = [{0}]
    for opts in options:
        levels.append({u | c for u in levels[-1] for c in opts if not u & c})
    rest_keep = [0] * len(rest)
    alive: set[int] = set()
    for used in levels[-1]:
        left = full & ~used
        sets, keep = distinct_fit(tuple(m & left for m in rest), sum(digits_of(left)))
        if left in sets or not rest:
            alive.add(used)
            rest_keep = [a | b for a, b in zip(rest_keep, keep)]
    if not alive:
        return None
    chosen: list[set[int]] = [set() for _ in options]
    for i in range(len(options) - 1, -1, -1):
        before = set()
        for used in levels[i]:
            for c in options[i]:
                if not used & c and used | c in alive:
                    before.add(used)
                    chosen[i].add(c)
        alive = before
    return tuple(frozenset(c) for c in chosen), tuple(rest_keep)


def unit_combinations(state: State) -> Step | None:
    """The first unit (in unit order) met by two or more summed cages (wholly inside it, or partly: then the
    digits of its cells inside must leave the cells outside a way to finish the cage's sum) whose
    combinations, taken together with the unit's other cells, remove a candidate; units holding cages
    wholly first (the plainer step), then those with cages partly inside."""
    cages = _region_cages(state)["cages"]
    if len(cages) < 2:
        return None
    g = state.g
    for partial_ok in (False, True):
        for u in range(len(g.units)):
            found = _unit_step(state, u, cages, partial_ok)
            if found is not None:
                return found
    return None


def _unit_cages(
    state: State, u: int, cages: list[KillerCage], partial_ok: bool
) -> tuple[list[KillerCage], list[tuple[list[int], list[int]]], list[int], tuple[int, ...]] | None:
    """The cages :func:`_unit_step` takes in unit ``u`` (None when it takes none), each with its cells inside
    and outside the unit, the unit's other cells, and every cell it reads; kept for the puzzle (it depends on
    the cages only)."""
    plans = puzzle_memo(state).setdefault("unit-combinations", {})
    key = (u, partial_ok)
    if key in plans:
        return plans[key]
    g = state.g
    cells = g.unit_sets[u]
    meeting = [c for c in cages if not cells.isdisjoint(c.cage)]
    whole = [c for c in meeting if cells.issuperset(c.cage)]
    used = meeting if partial_ok else whole
    plan = None
    if len(used) >= 2 and not (partial_ok and len(used) == len(whole)):  # partial: units a cage sticks out of
        covered = [s for c in used for s in c.cage if s in cells]
        rest = [s for s in g.units[u] if s not in set(covered)]
        cuts = [([s for s in c.cage if s in cells], [s for s in c.cage if s not in cells]) for c in used]
        read = tuple(s for inner, outer in cuts for s in inner + outer) + tuple(rest)
        plan = (used, cuts, rest, read)
    plans[key] = plan
    return plan


def _unit_step(state: State, u: int, cages: list[KillerCage], partial_ok: bool) -> Step | None:
    plan = _unit_cages(state, u, cages, partial_ok)
    if plan is None:
        return None
    used, plan_cuts, rest, read = plan
    # the unit's last look at these placed cells found nothing with the same candidates: nothing again
    idle = placed_memo(state, "unit-combinations").setdefault("idle", {})
    cands = state.cands
    seen = tuple(cands[s] for s in read)
    if idle.get((u, partial_ok)) == seen:
        return None
    found_step = _unit_found(state, u, partial_ok, used, plan_cuts, rest)
    if found_step is None:
        idle[(u, partial_ok)] = seen
    return found_step


def _unit_found(
    state: State,
    u: int,
    partial_ok: bool,
    used: list[KillerCage],
    plan_cuts: list[tuple[list[int], list[int]]],
    rest: list[int],
) -> Step | None:
    g = state.g
    options, cuts = [], []
    for c, (inner, outer) in zip(used, plan_cuts):
        found = part_options(masks_of(state, inner), masks_of(state, outer), c.total or 0)
        options.append(tuple(sorted({part for part, _ in found})))
        cuts.append((inner, outer, found))
    fit = unit_fit(tuple(options), masks_of(state, rest), g.all_mask)
    if fit is None:
        return None
    chosen, rest_keep = fit
    keep: dict[int, int] = {}
    for (inner, outer, found), parts in zip(cuts, chosen):
        for part, combo in found:
            if part not in parts:
                continue
            _, ik = distinct_fit(tuple(m & part for m in masks_of(state, inner)), sum(digits_of(part)))
            for s, m in zip(inner, ik):
                keep[s] = keep.get(s, 0) | m
            if outer:
                left = combo & ~part
                _, ok = distinct_fit(tuple(m & left for m in masks_of(state, outer)), sum(digits_of(left)))
                for s, m in zip(outer, ok):
                    keep[s] = keep.get(s, 0) | m
    for s, m in zip(rest, rest_keep):
        keep[s] = m
    elim = sorted((s, d) for s, m in keep.items() if not state.values[s] for d in digits_of(state.cands[s] & ~m))
    if not elim:
        return None
    told = []
    for c, (inner, outer, _), parts in zip(used, cuts, chosen):
        label = "+".join(state.label(s) for s in c.cage)
        if all(state.values[s] for s in inner):
            continue  # its digits in the unit are placed: nothing to tell
        if outer:
            told.append(
                f"{label} = {c.total} can put only {_combo_text(state, sorted(parts))} in "
                f"{'+'.join(state.label(s) for s in inner)}"
            )
        else:
            told.append(f"{label} = {c.total} as {_combo_text(state, sorted(parts))}")
    full = g.size * (g.size + 1) // 2
    rest_text = ""
    if rest and not partial_ok:
        inner_sum = sum(c.total or 0 for c in used)
        rest_text = f", leaving {text.cells(state, rest)} the other digits ({full} - {inner_sum} = {full - inner_sum})"
    elif rest:
        rest_text = f", leaving {text.cells(state, rest)} the other digits"
    return Step(
        "Cage Combinations in a Unit",
        eliminations=elim,
        cells=sorted({s for c in used for s in c.cage}) + rest,
        units=[u],
        explanation=(
            f"Cage Combinations in a Unit: {state.unit_name(u)} holds each digit once; its cages can only "
            f"be {'; '.join(told)} without sharing a digit{rest_text}: {text.removals(state, elim)}"
        ),
        rating=UNIT_COMBINATION_PARTIAL if partial_ok else UNIT_COMBINATION,
    )
