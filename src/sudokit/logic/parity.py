"""Parity: each cell's digit is odd or even, and units and cages fix how many odd digits their cells hold.

A killer solver's parity arguments, two kinds of step in one row:

- **Parity count**: a unit holds every digit once, so as many odd digits as there are odd digits in 1..N (5 on a
  9x9 grid); a summed cage holds the odd counts of its fitting digit sets (17 in two cells is {8,9}: one odd
  digit). A region of whole units (the regions of the 45 rule) less the cages wholly inside it leaves its other
  cells (the innies) a known range of odd digits, and when every innie lies in a cage that sticks out, those
  cages' cells outside (the outies) too. When the cells of the group that can hold an odd digit are exactly
  as many as it needs, they are all odd; when the cells that must be odd already fill its count, the others
  are even.
- **Parity equations**: over GF(2) each unit and each summed cage is an equation on the cells' oddness (a
  cell's bit is 1 when its digit is odd): the bits of a unit add up to its count of odd digits, those of a
  cage to its sum, mod 2. Cells whose candidates are all odd or all even (and placed cells) are known bits.
  Gaussian elimination finds the cells whose bit the equations fix; such a cell loses the digits of the other
  parity. The step names the units and cages added up (a small set: dependencies between them are used to
  drop equations) and the known cells that were taken out.

Both are exact: every removal holds in every filling of the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from sudokit.constraints.cages import KillerCage
from sudokit.logic import text
from sudokit.logic.cages import _region_cages, fitting_sets, masks_of, region_cages, regions, summed_cages
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step

NAME = "Parity"
#: SE rating of a parity step with up to three units and cages (counted or added up mod 2); each further one
#: adds 0.1, up to :data:`MAX_RATING`. After the 45 rule's sums (Region Sum 3.6, Sum Combination 3.7), as a
#: killer solver turns to parity when the sums stall: like a swordfish, a count over several units at once.
RATING = 3.8
MAX_RATING = 4.4


def _odd_mask(size: int) -> int:
    """The odd digits 1, 3, 5, ... of 1..size as a mask."""
    return sum(1 << (d - 1) for d in range(1, size + 1, 2))


def _rating(pieces: int) -> float:
    return round(min(MAX_RATING, RATING + 0.1 * max(0, pieces - 3)), 1)


def _odd_counts(sets: Sequence[int], odd: int) -> tuple[int, int]:
    """The fewest and most odd digits among digit ``sets`` (masks)."""
    counts = [bin(m & odd).count("1") for m in sets]
    return min(counts), max(counts)


def _word(n: int) -> str:
    return f"{n} odd digit{'' if n == 1 else 's'}"


def _span(lo: int, hi: int) -> str:
    return _word(lo) if lo == hi else f"{lo}-{hi} odd digits"


# ---- counts ----------------------------------------------------------------------------------------
def _count_step(state: State) -> Step | None:
    """The first region (in the 45 rule's order) whose innies, or outies, have a range of odd digits that the
    candidates fill: its cells that can be odd are as few as the least it needs (all odd), or those that
    must be odd are as many as the most it allows (the others even)."""
    g = state.g
    odd = _odd_mask(g.size)
    per_unit = bin(odd).count("1")
    of = _region_cages(state)["of"]
    vals, cands = state.values, state.cands
    counts: dict[KillerCage, tuple[int, int]] = {}

    def count(c: KillerCage) -> tuple[int, int] | None:
        if c not in counts:
            sets = fitting_sets(masks_of(state, c.cage), c.total or 0)
            if not sets:
                return None
            counts[c] = _odd_counts(sets, odd)
        return counts[c]

    for units, name in regions(state):
        if any(len(g.units[u]) != g.size for u in units):
            continue  # a unit of fewer cells holds no known count of odd digits
        cells, inside, partial = region_cages(state, units)
        spans = [count(c) for c in inside]
        if any(sp is None for sp in spans):
            return None  # a cage without a fitting set: the state is broken, not this step's to say
        covered = {s for c in inside for s in c.cage}
        innies = [s for s in sorted(cells) if s not in covered]
        need = per_unit * len(units)
        lo = need - sum(sp[1] for sp in spans if sp)
        hi = need - sum(sp[0] for sp in spans if sp)
        groups = [("innies", innies, lo, hi)]
        if innies and all(s in of for s in innies) and partial:
            pspans = [count(c) for c in partial]
            if any(sp is None for sp in pspans):
                return None
            outies = sorted({s for c in partial for s in c.cage if s not in cells})
            groups.append(
                ("outies", outies, sum(sp[0] for sp in pspans if sp) - hi, sum(sp[1] for sp in pspans if sp) - lo)
            )
        for kind, group, glo, ghi in groups:
            if not group:
                continue
            must = [s for s in group if (vals[s] and vals[s] % 2) or (not vals[s] and not cands[s] & ~odd)]
            can = [s for s in group if (vals[s] and vals[s] % 2) or (not vals[s] and cands[s] & odd)]
            if len(can) < glo or len(must) > ghi:
                continue  # broken
            if len(can) == glo:
                elim = [(s, d) for s in can if not vals[s] for d in digits_of(cands[s] & ~odd)]
                if len(group) == 1:
                    verdict = "it is odd"
                elif len(can) == len(group):
                    verdict = "they are all odd"
                else:
                    verdict = f"only {text.cells(state, can)} can be odd, so they all are"
            elif len(must) == ghi:
                rest = [s for s in group if s not in must]
                elim = [(s, d) for s in rest if not vals[s] for d in digits_of(cands[s] & odd)]
                if len(group) == 1:
                    verdict = "it is even"
                elif not must:
                    verdict = "they are all even"
                else:
                    odd_ones = text.cells(state, must)
                    verdict = f"{odd_ones} must be odd (placed, or by their candidates), so the others are even"
            else:
                continue
            if elim:
                return _count_text(state, units, name, inside, partial, kind, group, glo, ghi, counts, verdict, elim)
    return None


def _count_text(state, units, name, inside, partial, kind, group, lo, hi, counts, verdict, elim) -> Step:
    per_unit = bin(_odd_mask(state.g.size)).count("1")
    k = len(units)
    region = f"{k} x {per_unit} = {k * per_unit}" if k > 1 else str(per_unit)
    told = f"{name} hold{'s' if k == 1 else ''} {region} odd digits"

    def listed(cs) -> str:
        return ", ".join(f"{'+'.join(state.label(s) for s in c.cage)} = {c.total} ({_span(*counts[c])})" for c in cs)

    if inside:
        told += f"; the cages wholly inside hold {listed(inside)}"
    inn_lo = per_unit * k - sum(counts[c][1] for c in inside)
    inn_hi = per_unit * k - sum(counts[c][0] for c in inside)
    one = len(group) == 1
    if kind == "innies":
        who = f"the innie {state.label(group[0])} holds" if one else f"the innies {text.cells(state, group)} hold"
        told += f", so {who} {_span(lo, hi)}"
    else:
        who = f"their outie {state.label(group[0])} holds" if one else f"their outies {text.cells(state, group)} hold"
        told += (
            f"; so the innies hold {_span(inn_lo, inn_hi)}, all in the cages that stick out ({listed(partial)}), "
            f"and {who} {_span(lo, hi)}"
        )
    cages_used = list(inside) + (list(partial) if kind == "outies" else [])
    return Step(
        NAME,
        eliminations=sorted(elim),
        cells=sorted({s for c in cages_used for s in c.cage} | set(group)),
        units=list(units),
        explanation=f"{NAME}: {told}: {verdict}: {text.removals(state, sorted(elim))}",
        rating=_rating(k + len(cages_used)),
    )


# ---- equations mod 2 ------------------------------------------------------------------------------------
class Equation(NamedTuple):
    """A parity equation: the bits of ``cells`` (a bit set of cell indices) add up to ``odd`` mod 2."""

    cells: int
    odd: int
    name: str
    #: the unit it comes from (empty for a cage)
    units: tuple[int, ...]
    #: the cage's index among the summed cages, -1 for a unit
    cage: int


def _equations(state: State) -> list[Equation]:
    """The parity equations of the units (of N cells) and the summed cages."""
    g = state.g
    odd = _odd_mask(g.size)
    unit_rhs = bin(odd).count("1") % 2
    out: list[Equation] = []
    for u, unit in enumerate(g.units):
        if len(unit) == g.size:
            vec = 0
            for s in unit:
                vec |= 1 << s
            out.append(Equation(vec, unit_rhs, state.unit_name(u), (u,), -1))
    for i, c in enumerate(summed_cages(state)):
        vec = 0
        for s in c.cage:
            vec |= 1 << s
        label = "+".join(state.label(s) for s in c.cage)
        out.append(Equation(vec, (c.total or 0) % 2, f"cage {label} = {c.total}", (), i))
    return out


def _bits(vec: int) -> list[int]:
    out = []
    while vec:
        b = vec & -vec
        out.append(b.bit_length() - 1)
        vec ^= b
    return out


def _reduce(v: int, r: int, combo: int, pivots: dict[int, list[int]]) -> tuple[int, int, int]:
    """Gaussian elimination mod 2 of one equation (cells ``v`` as bits, parity ``r``, the equations it was made
    of ``combo``) by the pivot rows found so far (top bit -> [cells, parity, combo]), until its top bit has no
    pivot row."""
    while v:
        row = pivots.get(v.bit_length() - 1)
        if row is None:
            break
        v ^= row[0]
        r ^= row[1]
        combo ^= row[2]
    return v, r, combo


def _equation_step(state: State) -> Step | None:
    """The open cell with mixed candidates whose oddness the unit and cage equations fix, fewest equations
    first (ties: cell order)."""
    g = state.g
    odd = _odd_mask(g.size)
    vals, cands = state.values, state.cands
    known = 0
    known_odd = 0
    mixed = []
    for s in g.cells:
        if vals[s]:
            known |= 1 << s
            if vals[s] % 2:
                known_odd |= 1 << s
        elif not cands[s] & ~odd:
            known |= 1 << s
            known_odd |= 1 << s
        elif not cands[s] & odd:
            known |= 1 << s
        else:
            mixed.append(s)
    if not mixed:
        return None
    eqs = _equations(state)
    # rows: [vec (unknown cells only), rhs, combo (bit set of equations)]
    pivots: dict[int, list[int]] = {}
    deps: list[int] = []
    for i, eq in enumerate(eqs):
        v = eq.cells & ~known
        r = eq.odd ^ (bin(eq.cells & known_odd).count("1") & 1)
        v, r, combo = _reduce(v, r, 1 << i, pivots)
        if v:
            pivots[v.bit_length() - 1] = [v, r, combo]
        elif r:
            return None  # the equations contradict each other: a broken state is not this step's to say
        else:
            deps.append(combo)
    best = None
    for s in mixed:
        v, r, combo = _reduce(1 << s, 0, 0, pivots)
        if v:
            continue
        combo = _shrink(combo, deps)
        size = bin(combo).count("1")
        if best is None or size < best[0]:
            best = (size, s, r, combo)
    if best is None:
        return None
    _, s, r, combo = best
    is_odd = bool(r)
    elim = [(s, d) for d in digits_of(cands[s] & (~odd if is_odd else odd))]
    used = [eqs[i] for i in _bits(combo)]
    total = 0
    for eq in used:
        total ^= eq.cells
    taken = sorted(_bits(total & known & ~(1 << s)))
    units = sorted({u for e in used for u in e.units})
    cage_cells = sorted({c for e in used if e.cage >= 0 for c in _bits(e.cells)})
    parts = [_part(state, e) for e in used]
    known_text = ""
    if taken:
        odds = [t for t in taken if known_odd >> t & 1]
        evens = [t for t in taken if not known_odd >> t & 1]
        said = [
            f"{text.cells(state, group)} {'is' if len(group) == 1 else 'are'} {kind}"
            for group, kind in ((odds, "odd"), (evens, "even"))
            if group
        ]
        known_text = f"; of the cells left, {text.and_list(said)} (placed, or by the candidates)"
    word = "odd" if is_odd else "even"
    per_unit = bin(odd).count("1")
    expl = (
        f"{NAME}: a unit holds {per_unit} odd digits, a cage an odd number of them when its sum is odd; adding up "
        f"the odd digits of {text.and_list(parts)} mod 2, every cell counted an even number of times drops "
        f"out{known_text}, so {state.label(s)} is {word}: {text.removals(state, elim)}"
    )
    return Step(
        NAME,
        eliminations=elim,
        cells=sorted(set(cage_cells) | {s} | set(taken)),
        units=units,
        candidates=[(s, d) for d in digits_of(cands[s] & (odd if is_odd else ~odd))],
        explanation=expl,
        rating=_rating(len(used)),
    )


def _part(state: State, eq: Equation) -> str:
    """One equation in words: ``row A (5)``, ``cage A1+A2 = 17 (odd)``."""
    if eq.units:
        return f"{eq.name} ({bin(_odd_mask(state.g.size)).count('1')})"
    return f"{eq.name} ({'odd' if eq.odd else 'even'})"


def _shrink(combo: int, deps: Sequence[int]) -> int:
    """A smaller set of equations with the same sum: ``combo`` changed by the dependencies (sets of equations
    that add up to nothing) while that makes it smaller."""
    better = True
    while better:
        better = False
        for d in deps:
            c = combo ^ d
            if bin(c).count("1") < bin(combo).count("1"):
                combo, better = c, True
    return combo


def parity(state: State) -> Step | None:
    """A parity step: a count over a region of the 45 rule or a cell fixed by the equations mod 2, whichever
    takes fewer units and cages (the count on a tie)."""
    if not summed_cages(state):
        return None
    found = [step for step in (_count_step(state), _equation_step(state)) if step is not None]
    return min(found, key=lambda step: step.rating) if found else None
