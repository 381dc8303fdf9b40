"""Sum combinations: an arrow's or a little killer's sum taken with other sums that share cells with it.

An arrow is a sum like a cage's: the shaft's digits less the bulb's add up to 0 (a bulb of two cells reads
``10 x first + second``); a little killer's diagonal adds up to its clue. Each is a *linear sum*: cells, a
whole-number weight per cell, and a total. Two linear sums that share a cell give a third by taking one
(times the ratio of the shared cell's weights) from the other, which drops that cell: the innies of box A1
add up to ``B2 + B3 = 10`` and the arrow from B2 says ``B2 - B3 - B4 - B5 = 0``; the first less the
second is ``2 x B3 + B4 + B5 = 10``, where B3 = 3 leaves B4 + B5 = 4 with neither a 3 (they share row B
with B3) nor a repeat: impossible, so B3 loses 3. A combination still too long to narrow takes a third sum,
and a fourth (:data:`MAX_TERMS`): column 7 (45) plus the arrows whose shafts lie in it puts their bulbs in
place of the shafts.

The sums taken with an arrow or a little killer: the puzzle's summed cages, every unit (the sum of all
digits), the other arrows and little killers, and the virtual cages of ``killer_sums`` (the 45 rule's
innies and outies, cage splits). A combination of up to :data:`MAX_CELLS` open cells is narrowed exactly:
each cell keeps the digits some choice of one digit per cell gives, with the combination's total and no
digit twice in cells that see each other (repeats allowed elsewhere); one of up to :data:`MAX_MIDDLE` cells
clique by clique (:func:`clique_fit`). Placed cells come off the total."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from sudokit.logic import set_bits, text
from sudokit.logic.cages import cliques_of, summed_cages, weighted_fit
from sudokit.logic.chains import bit_numbers
from sudokit.logic.puzzle_memo import kept, placed_memo, puzzle_memo
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step

NAME = "Sum Combination"
#: SE rating: a virtual cage (3.0) found by putting two sums together, one of them a rule's (an arrow, a
#: little killer) rather than a cage's: as hard as a Region Sum over one unit (3.6), one notch above.
RATING = 3.7
#: Combinations of more open cells than this are narrowed clique by clique (a search grows as 9**cells).
MAX_CELLS = 6


@dataclass(frozen=True)
class LinearSum:
    """``sum(weight x digit)`` over ``cells`` is ``total``; ``how``: the sum's source, in words."""

    cells: tuple[int, ...]
    weights: tuple[int, ...]
    total: int
    how: str


def _open(state: State, lin: LinearSum) -> LinearSum:
    """``lin`` with its placed cells taken off the total."""
    vals = state.values
    if not any(vals[s] for s in lin.cells):
        return lin
    cells, weights, total = [], [], lin.total
    for s, w in zip(lin.cells, lin.weights):
        if vals[s]:
            total -= w * vals[s]
        else:
            cells.append(s)
            weights.append(w)
    return LinearSum(tuple(cells), tuple(weights), total, lin.how)


def rule_sums(state: State) -> list[LinearSum]:
    """The arrows (a bulb of one or two cells) and little killers of the state as linear sums."""
    from sudokit.constraints import Arrow, LittleKiller

    out: list[LinearSum] = []
    for con in state.constraints:
        if isinstance(con, LittleKiller) and len(set(con.line)) == len(con.line):
            out.append(LinearSum(con.line, (1,) * len(con.line), con.total, con.describe(state.g)))
        elif isinstance(con, Arrow) and len(con.bulb) <= 2 and not set(con.bulb) & set(con.shaft):
            if len(con.bulb) == 2 and state.g.size > 9:
                continue  # a two-digit bulb's number is 10 x first + second only for digits up to 9
            bulb = (10, 1) if len(con.bulb) == 2 else (1,)
            shaft = tuple(dict.fromkeys(con.shaft))
            if len(shaft) != len(con.shaft):
                continue  # a shaft through a cell twice counts it twice: left to the rule's own narrowing
            out.append(LinearSum(con.bulb + shaft, bulb + (-1,) * len(shaft), 0, con.describe(state.g)))
    return out


def puzzle_rule_sums(state: State) -> list[LinearSum]:
    """:func:`rule_sums`, kept for the puzzle (they depend on its constraints only)."""
    return kept(state, "rule-sums", lambda: rule_sums(state))


def cage_and_unit_sums(state: State, unit_how: Callable[[str, int], str]) -> list[LinearSum]:
    """The summed cages (written ``cage A1+A2 = 3``) and the full-size units (written by ``unit_how(name, total)``)
    of the state as linear sums: what the sum rows combine."""
    g = state.g
    full = g.size * (g.size + 1) // 2
    out = [
        LinearSum(tuple(c.cage), (1,) * len(c.cage), c.total or 0, f"cage {_plus(state, c.cage)} = {c.total}")
        for c in summed_cages(state)
    ]
    out += [
        LinearSum(tuple(unit), (1,) * len(unit), full, unit_how(state.unit_name(u), full))
        for u, unit in enumerate(g.units)
        if len(unit) == g.size
    ]
    return out


def _bases(state: State) -> list[LinearSum]:
    """The sums a rule's sum is taken with: cages, units, virtual cages (kept in the state's memo)."""
    memo = placed_memo(state, "sum-combination-bases")
    found = memo.get("bases")
    if found is not None:
        return found
    from sudokit.logic.killer_sums import sum_groups

    out = cage_and_unit_sums(state, lambda name, full: f"{name} adds up to {full}")
    if summed_cages(state):
        out += [LinearSum(grp.cells, (1,) * len(grp.cells), grp.total, grp.how) for grp in sum_groups(state)]
    memo["bases"] = out
    return out


def _plus(state: State, cells: Sequence[int]) -> str:
    return "+".join(state.label(s) for s in cells)


def written(state: State, lin: LinearSum) -> str:
    """``2 x B3 + B4 + B5 = 10``: a linear sum in words (weights of 1 left out, minus signs written)."""
    parts = []
    for i, (s, w) in enumerate(zip(lin.cells, lin.weights)):
        term = state.label(s) if abs(w) == 1 else f"{abs(w)} x {state.label(s)}"
        parts.append(("- " if w < 0 else "") + term if i == 0 else ("- " if w < 0 else "+ ") + term)
    return f"{' '.join(parts)} = {lin.total}"


def combine(a: LinearSum, b: LinearSum, factor: int) -> tuple[LinearSum, int]:
    """``sign x (a - factor x b)``, cells whose weights cancel left out (in ``a``'s order, then ``b``'s), and
    the sign (-1 when that makes the total positive, or the first weight when the total is 0)."""
    weight: dict[int, int] = {}
    for s, w in zip(a.cells, a.weights):
        weight[s] = weight.get(s, 0) + w
    for s, w in zip(b.cells, b.weights):
        weight[s] = weight.get(s, 0) - factor * w
    cells = tuple(s for s, w in weight.items() if w)
    total = a.total - factor * b.total
    sign = -1 if total < 0 or (total == 0 and cells and weight[cells[0]] < 0) else 1
    return LinearSum(cells, tuple(sign * weight[s] for s in cells), sign * total, ""), sign


#: A first combination of more open cells than this is not taken with a third sum.
MAX_MIDDLE = 14
#: Sums taken together at most (a rule's sum and up to three others).
MAX_TERMS = 4
#: Weights above this (in size) are not kept: such sums say little and read badly.
MAX_WEIGHT = 3


@dataclass(frozen=True)
class Combination:
    """``found`` = the sum over ``terms`` of each sum times its multiplier."""

    terms: tuple[tuple[LinearSum, int], ...]
    found: LinearSum


def _joined(
    first: LinearSum, others: Sequence[LinearSum], limit: int, bits: Sequence[int] | None = None
) -> Iterator[tuple[LinearSum, int, int, LinearSum]]:
    """Each (other sum, factor, sign, ``sign x (first - factor x other)``) that drops a cell the two share and
    keeps 1 to ``limit`` open cells with weights of at most :data:`MAX_WEIGHT`. ``bits``: each other sum's
    cells as a bitmask (the sums that share no cell with ``first`` are passed over without a look)."""
    where = dict(zip(first.cells, first.weights))
    mine = _cell_bits(first.cells)
    for i, other in enumerate(others):
        if bits is not None and not bits[i] & mine:
            continue  # no cell shared: nothing to drop
        if other is first or not other.cells:
            continue
        shared = [(where[s], w) for s, w in zip(other.cells, other.weights) if s in where]
        # cells the result keeps at least: first's that ``other`` does not cancel, and all of other's own
        fixed = len(first.cells) + len(other.cells) - 2 * len(shared)
        if fixed > limit:
            continue
        factors = []
        for v, w in shared:
            if v % w == 0 and v // w not in factors:
                factors.append(v // w)
        for f in factors:
            kept = fixed + sum(1 for v, w in shared if v != f * w)  # the shared cells that do not cancel
            if not 1 <= kept <= limit:
                continue  # (what combine would make, refused below: same count of cells)
            found, sign = combine(first, other, f)
            if 1 <= len(found.cells) <= limit and max(abs(w) for w in found.weights) <= MAX_WEIGHT:
                yield other, f, sign, found


def _cell_bits(cells: Sequence[int]) -> int:
    out = 0
    for s in cells:
        out |= 1 << s
    return out


def _levels(state: State) -> Iterator[list[Combination]]:
    """The combinations of a rule's sum with one other sum, then with two (a first combination of more than
    :data:`MAX_CELLS` and up to :data:`MAX_MIDDLE` open cells, with another sum), ... up to
    :data:`MAX_TERMS` sums, that keep 1 to :data:`MAX_MIDDLE` open cells: level by level (each made only
    when asked for, and kept for the puzzle and its placed cells: they do not depend on the candidates), fewer
    cells first within a level, each combination once."""
    memo = placed_memo(state, "sum-combinations")
    levels: list[list[Combination]] = memo.setdefault("levels", [])
    yield from levels
    if len(levels) >= MAX_TERMS - 1:
        return
    found_in = memo.setdefault("seen", set())
    if not levels:
        # the same objects at every level: a sum is told from the terms a combination holds by identity
        rules = [r for r in (_open(state, r) for r in puzzle_rule_sums(state)) if r.cells]
        memo["others"] = rules + [_open(state, b) for b in _bases(state)]
        memo["others-bits"] = [_cell_bits(lin.cells) for lin in memo["others"]]
        memo["middles"] = [Combination(((rule, 1),), rule) for rule in rules]
    others, bits = memo["others"], memo["others-bits"]
    while len(levels) < MAX_TERMS - 1:
        level: list[Combination] = []
        middles: list[Combination] = []
        for combo in memo["middles"]:
            for other, f, sign, found in _joined(combo.found, others, MAX_MIDDLE, bits):
                if any(other is lin for lin, _ in combo.terms):
                    continue
                key = (frozenset(zip(found.cells, found.weights)), found.total)
                if key in found_in:
                    continue
                found_in.add(key)
                joined = Combination(tuple((lin, sign * m) for lin, m in combo.terms) + ((other, -sign * f),), found)
                level.append(joined)
                if len(found.cells) > MAX_CELLS:
                    middles.append(joined)
        level.sort(key=lambda c: len(c.found.cells))
        levels.append(level)
        memo["middles"] = middles
        yield level


@lru_cache(maxsize=1 << 14)
def clique_fit(
    masks: tuple[int, ...], weights: tuple[int, ...], total: int, cliques: tuple[tuple[int, ...], ...]
) -> tuple[int, ...]:
    """Each cell's digits that belong to some choice with ``sum(weight x digit) == total``, exact inside each
    clique (index tuples, each cell in one, whose cells all differ and share a weight) and loose between
    cliques (a digit may repeat from one clique to another): the sets of different digits each clique can
    hold give its sums, a clique keeps the sums the others can complete, and each cell the digits of the
    placements of its clique's kept sums. For sums too long to search cell by cell."""
    parts = [tuple(masks[i] for i in q) for q in cliques]
    infos = [_sum_bits(part) for part in parts]
    if not all(found for found, _ in infos):
        return (0,) * len(masks)
    lows: list[int] = []
    bits: list[int] = []  # bit k: the sum lows[i] + k
    for q, (found, lowest) in zip(cliques, infos):
        w = weights[q[0]]
        if w == 1:
            lows.append(lowest)
            bits.append(found >> lowest)
        else:
            options = [w * t for t in range(found.bit_length()) if found >> t & 1]
            lows.append(min(options))
            bits.append(_bitset(t - lows[-1] for t in options))
    n = len(cliques)
    before = [1]  # before[i]: the cliques before i together, bit k for the sum (their lows) + k
    for b in bits:
        before.append(_convolve(before[-1], b))
    after = [1] * (n + 1)
    for i in range(n - 1, -1, -1):
        after[i] = _convolve(after[i + 1], bits[i])
    keep = [0] * len(masks)
    low = sum(lows)
    for i, q in enumerate(cliques):
        others = _convolve(before[i], after[i + 1])
        base = low - lows[i]  # the others' lowest sum
        w = weights[q[0]]
        allowed = 0  # the clique's digit sums the others complete: bit t for the sum t
        found = infos[i][0]
        while found:
            b = found & -found
            found ^= b
            t = b.bit_length() - 1
            rest = total - w * t - base  # what the others must add up to, above their lowest
            if rest >= 0 and others >> rest & 1:
                allowed |= b
        if len(q) == 1:  # one cell: its digits are its sums
            keep[q[0]] |= parts[i][0] & allowed >> 1
            continue
        kept = _kept(parts[i], allowed)
        for j, m in zip(q, kept):
            keep[j] |= m
    return tuple(keep)


@lru_cache(maxsize=1 << 14)
def _sum_bits(masks: tuple[int, ...]) -> tuple[int, int]:
    """The sums of the digit sets a clique with candidates ``masks`` can hold (a bitset: bit ``t`` for the sum
    ``t``) and the lowest of them; (0, 0) when it can hold none."""
    found = set_bits.sums_held(masks)
    return found, (found & -found).bit_length() - 1 if found else 0


@lru_cache(maxsize=1 << 14)
def _kept(masks: tuple[int, ...], allowed: int) -> tuple[int, ...]:
    """Each cell's digits in the placements of a clique (candidates ``masks``) whose digits add up to one of
    the sums ``allowed`` (a bitset: bit ``t`` for the sum ``t``)."""
    return set_bits.digits_used(masks, set_bits.with_sums(masks, allowed))


def _bitset(values: Iterator[int]) -> int:
    out = 0
    for k in values:
        out |= 1 << k
    return out


def _convolve(a: int, b: int) -> int:
    """The sums of one of ``a``'s and one of ``b``'s (bitsets of sums from 0)."""
    if b.bit_count() > a.bit_count():
        a, b = b, a  # the same sums: shift the one with more sums by each of the other's
    out = 0
    while b:
        low = b & -b
        out |= a << (low.bit_length() - 1)
        b ^= low
    return out


@lru_cache(maxsize=1 << 10)
def digit_sum(mask: int) -> int:
    """The sum of the digits in ``mask``."""
    return sum(digits_of(mask))


def digit_sets(masks: tuple[int, ...]) -> frozenset[int]:
    """The sets of different digits (masks) that cells which all see each other, with candidates ``masks``,
    can hold."""
    return _digit_sets(tuple(masks))


@lru_cache(maxsize=1 << 14)
def _digit_sets(masks: tuple[int, ...]) -> frozenset[int]:
    return frozenset(bit_numbers(set_bits.levels(masks)[-1]))


def set_sums(masks: tuple[int, ...]) -> int:
    """The sums (a bitset: bit ``t`` for the sum ``t``) of the sets of different digits that cells which all
    see each other, with candidates ``masks``, can hold."""
    return _sum_bits(tuple(masks))[0]


def fit_sum(
    state: State, cells: Sequence[int], weights: Sequence[int], total: int, exact_up_to: int
) -> tuple[int, ...]:
    """Each cell's candidates that belong to some choice with ``sum(weight x digit) == total``, no digit twice
    in cells that see each other: exact over the cells when there are at most ``exact_up_to``
    (:func:`~sudokit.logic.cages.weighted_fit`), clique by clique beyond (:func:`clique_fit`). The shared
    narrowing of the sum rows (Sum Combination, Sum Equation)."""
    cands = state.cands
    masks = tuple(cands[s] for s in cells)
    exact, apart = _fit_plan(state, tuple(cells), tuple(weights), exact_up_to)
    if exact:
        return weighted_fit(masks, tuple(weights), total, apart)
    return clique_fit(masks, tuple(weights), total, apart)


def _fit_plan(
    state: State, cells: tuple[int, ...], weights: tuple[int, ...], exact_up_to: int
) -> tuple[bool, tuple[tuple[int, ...], ...]]:
    """How :func:`fit_sum` narrows these cells: exactly (True) with each cell's earlier cells that see it, or
    by cliques (False, :func:`~sudokit.logic.cages.cliques_of`); kept for the puzzle (it depends on the
    geometry and the cages only)."""
    plans = puzzle_memo(state).setdefault("fit-plans", {})
    key = (cells, weights, exact_up_to)
    found = plans.get(key)
    if found is None:
        if len(cells) <= exact_up_to:
            peers = state.g.peer_sets
            before = tuple(tuple(j for j in range(i) if cells[j] in peers[cells[i]]) for i in range(len(cells)))
            found = (True, before)
        else:
            found = (False, cliques_of(state, cells, weights))
        plans[key] = found
    return found


def sum_combination(state: State) -> Step | None:
    """The first combination of an arrow's or a little killer's sum with one or two other sums (see the
    module) whose exact narrowing removes a candidate."""
    if not any(con.kind in ("arrow", "little_killer") for con in state.constraints):
        return None
    cands = state.cands
    # per combination (kept with them, for these placed cells), its cells' candidates when it last removed
    # nothing: the same candidates remove nothing again
    idle: dict[int, tuple[int, ...]] = placed_memo(state, "sum-combinations").setdefault("idle", {})
    for combo in (c for level in _levels(state) for c in level):
        found = combo.found
        cells = found.cells
        masks = tuple(cands[s] for s in cells)
        if idle.get(id(combo)) == masks:
            continue
        keep = fit_sum(state, cells, found.weights, found.total, MAX_CELLS)
        elim = [(s, d) for s, m, k in zip(cells, masks, keep) for d in digits_of(m & ~k)] if all(keep) else []
        if elim:
            return _step(state, combo, keep, sorted(elim))
        idle[id(combo)] = masks  # nothing fits (a broken state is not this step's to say) or nothing removed
    return None


def _term(state: State, lin: LinearSum) -> str:
    """A sum and where it comes from; a whole unit by its name only."""
    if len(lin.cells) >= state.g.size and lin.how.endswith(f"adds up to {lin.total}"):
        return lin.how
    return f"{written(state, lin)} ({lin.how})"


def _step(state: State, combo: Combination, keep: Sequence[int], elim: list[tuple[int, int]]) -> Step:
    found = combo.found
    ordinals = ("first", "second", "third", "fourth", "fifth")
    named = [(f"{'' if abs(m) == 1 else f'{abs(m)} x '}the {ordinals[i]}", m) for i, (_, m) in enumerate(combo.terms)]
    plus = [name for name, m in named if m > 0]
    less = [name for name, m in named if m < 0]
    how = " plus ".join(plus) + "".join(f" less {name}" for name in less)
    left = "; ".join(f"{state.label(s)} keeps {text.digit_set(digits_of(k), state)}" for s, k in zip(found.cells, keep))
    terms = "; ".join(f"{ordinals[i]}, {_term(state, lin)}" for i, (lin, _) in enumerate(combo.terms))
    return Step(
        NAME,
        eliminations=elim,
        cells=sorted({s for lin, _ in combo.terms for s in lin.cells}),
        candidates=[(s, d) for s in found.cells for d in digits_of(state.cands[s])],
        explanation=(
            f"{NAME}: {terms}; {how} gives {written(state, found)}, with no digit twice in cells that see each "
            f"other: {left}: {text.removals(state, elim)}"
        ),
        rating=RATING,
    )
