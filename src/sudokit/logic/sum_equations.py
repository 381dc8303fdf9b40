"""Sum equations: the rules' sums as linear equations, combined by elimination into equations over few cells.

Each summed cage, each full-size unit (the sum of all digits: rows, columns, boxes, the diagonals and extra
regions a puzzle has), each little killer and each arrow (``sum_combinations.rule_sums``) is a linear
equation over the cells' digits; a placed cell is one more (its digit is known, so it comes off the totals).
The 45 rule and its friends (Innies and Outies, Region Sum, Band Sum, Sum Combination) add and take away a
few of these from a fixed menu; here every whole-number combination is in reach:

- the equations are brought to reduced echelon form once per set of placed cells (integer Gauss-Jordan
  elimination, each row divided by the gcd of its entries, each keeping its multipliers on the original
  equations: which units and cages, how many times);
- for a *target* (a unit, a row or column with a box it crosses, a row with a column, a diagonal with a
  line or box, a unit with a summed cage meeting it) the combinations whose cells all lie in the target are
  the combinations of the rows pivoted in it that cancel every free column outside it (a small null space);
- those equations, and the sums and differences of two or three of them, with at most :data:`MAX_CELLS` open
  cells and weights of at most :data:`MAX_WEIGHT` (and not only sums over cells apart added up) are narrowed
  by the candidates: each cell keeps the digits some choice, one digit per cell, with the equation's total
  and no digit twice in cells that see each other gives it (exact up to :data:`MAX_EXACT` cells; clique by
  clique beyond, ``sum_combinations.clique_fit``); when the cells all see each other and have weight 1, a
  digit every fitting set holds leaves the cells that see all its places.

The step shows the arithmetic: which equations were added and taken away, what is left, e.g. (data line 75)
``- cage D2+E1+E2+F1+G1 = 28 - ... - cage H3+I2+I3+I4 = 22 + column 1 + column 2 + column 3 - box 1 + box 5 add
up to 5, that leaves D1 + D3 + D5 + D6 - I4 = 5``.
Sound: every derived equation is checked exactly (in whole numbers) against the sums it names before it is
used, and the narrowing keeps every digit some fitting choice uses.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from math import gcd, lcm

from sudokit.logic import text
from sudokit.logic.cages import summed_cages
from sudokit.logic.puzzle_memo import kept, placed_memo
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step
from sudokit.logic.sum_combinations import (
    LinearSum,
    cage_and_unit_sums,
    digit_sets,
    digit_sum,
    fit_sum,
    puzzle_rule_sums,
    rule_sums,
)

NAME = "Sum Equation"
#: SE rating: sums of units and cages added and taken away in any number, a region of no unit's shape
#: (as Band Sum, 4.4) found by elimination; +0.1 per equation beyond three, up to :data:`TOP`.
RATING = 4.6
TOP = 5.6
#: Derived equations with more open cells than this are not narrowed.
MAX_CELLS = 12
#: Up to this many open cells an equation is narrowed exactly (a search over the cells' digits).
MAX_EXACT = 5
#: Weights above this (in size) are not kept: such equations say little and read badly.
MAX_WEIGHT = 3
#: Dimension of a target's equations beyond which their sums and differences are not tried.
MAX_COMBINE = 4
#: Placed-cell sets whose equations are kept (per process: the structure depends on the puzzle only).
CACHE = 256


@dataclass(frozen=True)
class Derived:
    """``sum(weights x digits) over cells == total`` (open cells), made of ``terms`` (equation index,
    multiplier), over ``scale`` (the combination of the terms is ``scale`` times this equation)."""

    cells: tuple[int, ...]
    weights: tuple[int, ...]
    total: int
    terms: tuple[tuple[int, int], ...]
    scale: int


def equations(state: State) -> list[LinearSum]:
    """The summed cages, full-size units, little killers and arrows of the state as linear sums."""
    return cage_and_unit_sums(state, lambda name, full: name) + rule_sums(state)


def _equations(state: State) -> list[LinearSum]:
    """:func:`equations`, kept for the puzzle (they depend on its constraints only)."""
    return kept(state, "sum-equations", lambda: equations(state))


def _normal(row: dict[int, int], mult: dict[int, int], total: int) -> int:
    """Divide a row (weights, multipliers, total) by the gcd of its entries, in place; that gcd."""
    d = 0
    for w in row.values():
        d = gcd(d, w)
    for w in mult.values():
        d = gcd(d, w)
    d = gcd(d, total)
    if d > 1:
        for k in row:
            row[k] //= d
        for k in mult:
            mult[k] //= d
        return d
    return 1


@dataclass
class _Echelon:
    """Reduced echelon form of the equations over the open cells: ``rows[i]`` pivoted on ``pivots[i]``."""

    rows: list[dict[int, int]]
    mults: list[dict[int, int]]
    totals: list[int]
    pivots: list[int]
    free: set[int]
    dependencies: list[dict[int, int]]


def _echelon(eqs: Sequence[LinearSum], values: Sequence[int]) -> _Echelon:
    """Integer Gauss-Jordan elimination of ``eqs`` with the placed cells (``values``) taken off the totals."""
    rows: list[dict[int, int]] = []
    mults: list[dict[int, int]] = []
    totals: list[int] = []
    for i, eq in enumerate(eqs):
        row: dict[int, int] = {}
        total = eq.total
        for s, w in zip(eq.cells, eq.weights):
            if values[s]:
                total -= w * values[s]
            else:
                row[s] = row.get(s, 0) + w
        rows.append({s: w for s, w in row.items() if w})
        mults.append({i: 1})
        totals.append(total)
    cols = sorted({s for row in rows for s in row})
    pivots: list[int] = []
    done: list[int] = []  # row indices pivoted, in order
    left = list(range(len(rows)))
    for c in cols:
        best: int | None = None
        for i in left:
            w = rows[i].get(c, 0)
            if w and (best is None or (abs(w), len(rows[i])) < (abs(rows[best][c]), len(rows[best]))):
                best = i
        if best is None:
            continue
        left.remove(best)
        p, pm, pw = rows[best], mults[best], rows[best][c]
        if pw < 0:
            for k in p:
                p[k] = -p[k]
            for k in pm:
                pm[k] = -pm[k]
            totals[best] = -totals[best]
            pw = -pw
        for i in range(len(rows)):
            w = rows[i].get(c, 0)
            if i == best or not w:
                continue
            r, rm = rows[i], mults[i]
            new = {k: pw * v for k, v in r.items()}
            for k, v in p.items():
                new[k] = new.get(k, 0) - w * v
            newm = {k: pw * v for k, v in rm.items()}
            for k, v in pm.items():
                newm[k] = newm.get(k, 0) - w * v
            rows[i] = {k: v for k, v in new.items() if v}
            mults[i] = {k: v for k, v in newm.items() if v}
            totals[i] = pw * totals[i] - w * totals[best]
            d = _normal(rows[i], mults[i], totals[i])
            totals[i] //= d
        pivots.append(c)
        done.append(best)
    dependencies = [mults[i] for i in left if not rows[i] and totals[i] == 0]
    return _Echelon(
        [rows[i] for i in done],
        [mults[i] for i in done],
        [totals[i] for i in done],
        pivots,
        set(cols) - set(pivots),
        dependencies,
    )


def _null_space(matrix: list[list[int]], k: int) -> list[list[int]]:
    """A basis of the vectors ``c`` of length ``k`` with ``matrix @ c == 0``: for each free column (no pivot in the
    reduced row echelon form) the smallest whole-number vector with 1 there before scaling, i.e. positive there.
    Gauss-Jordan in whole numbers (each row kept divided by the gcd of its entries), which gives the rows of the
    rational form up to a factor, so the same pivots and the same basis."""
    rows = [list(r) for r in matrix if any(r)]
    pivot_cols: list[int] = []
    r = 0
    for c in range(k):
        pick = next((i for i in range(r, len(rows)) if rows[i][c]), None)
        if pick is None:
            continue
        rows[r], rows[pick] = rows[pick], rows[r]
        lead = rows[r][c]
        for i in range(len(rows)):
            if i != r and rows[i][c]:
                factor = rows[i][c]
                rows[i] = _primitive([lead * a - factor * b for a, b in zip(rows[i], rows[r])])
        pivot_cols.append(c)
        r += 1
        if r == len(rows):
            break
    basis = []
    for f in (c for c in range(k) if c not in pivot_cols):
        scale = 1
        for i, pc in enumerate(pivot_cols):
            if rows[i][f]:
                scale = lcm(scale, abs(rows[i][pc]))
        vec = [0] * k
        vec[f] = scale
        for i, pc in enumerate(pivot_cols):
            vec[pc] = -rows[i][f] * scale // rows[i][pc]  # exact: rows[i][pc] divides scale when rows[i][f] != 0
        basis.append(_primitive(vec))
    return basis


def _primitive(vec: list[int]) -> list[int]:
    """``vec`` divided by the gcd of its entries (unchanged when that is 0 or 1)."""
    g = gcd(*vec)
    return [x // g for x in vec] if g > 1 else vec


def _targets(state: State) -> Iterator[frozenset[int]]:
    """Units, two units that cross (a line and a box, a row and a column, a diagonal with another unit),
    and a unit with a summed cage that meets it."""
    g = state.g
    units = [frozenset(u) for u in g.units if len(u) == g.size]
    seen: set[frozenset[int]] = set()
    for u in units:
        if u not in seen:
            seen.add(u)
            yield u
    for i, a in enumerate(units):
        for b in units[i + 1 :]:
            if a & b:
                t = a | b
                if t not in seen:
                    seen.add(t)
                    yield t
    for cage in summed_cages(state):
        cells = frozenset(cage.cage)
        for u in units:
            if u & cells and not cells <= u:
                t = u | cells
                if t not in seen:
                    seen.add(t)
                    yield t


def _within(ech: _Echelon, target: frozenset[int]) -> list[tuple[dict[int, int], dict[int, int], int]]:
    """A basis of the combinations of the equations whose open cells all lie in ``target``: (weights,
    multipliers, total) each."""
    inside = [i for i, p in enumerate(ech.pivots) if p in target]
    if not inside:
        return []
    outside = sorted({s for i in inside for s in ech.rows[i] if s not in target})
    matrix = [[ech.rows[i].get(f, 0) for i in inside] for f in outside]
    k = len(inside)
    basis = _null_space(matrix, k) if outside else [[int(j == i) for j in range(k)] for i in range(k)]
    out = []
    for vec in basis:
        row: dict[int, int] = {}
        mult: dict[int, int] = {}
        total = 0
        for c, i in zip(vec, inside):
            if not c:
                continue
            for s, w in ech.rows[i].items():
                row[s] = row.get(s, 0) + c * w
            for e, m in ech.mults[i].items():
                mult[e] = mult.get(e, 0) + c * m
            total += c * ech.totals[i]
        row = {s: w for s, w in row.items() if w}
        mult = {e: m for e, m in mult.items() if m}
        if row:
            out.append((row, mult, total))
    return out


def _combined(
    basis: list[tuple[dict[int, int], dict[int, int], int]],
) -> Iterator[tuple[dict[int, int], dict[int, int], int]]:
    """The basis equations, then sums and differences of two or three of them (up to :data:`MAX_COMBINE`)."""
    yield from basis
    if len(basis) > MAX_COMBINE:
        return
    n = len(basis)
    for i in range(n):
        for j in range(i + 1, n):
            for sign in (1, -1):
                yield _add(basis[i], basis[j], sign)
                for k in range(j + 1, n):
                    for sign2 in (1, -1):
                        yield _add(_add(basis[i], basis[j], sign), basis[k], sign2)


def _add(a, b, sign):
    row = dict(a[0])
    for s, w in b[0].items():
        row[s] = row.get(s, 0) + sign * w
    mult = dict(a[1])
    for e, m in b[1].items():
        mult[e] = mult.get(e, 0) + sign * m
    return ({s: w for s, w in row.items() if w}, {e: m for e, m in mult.items() if m}, a[2] + sign * b[2])


def _sparser(mult: dict[int, int], dependencies: list[dict[int, int]]) -> dict[int, int]:
    """``mult`` plus or minus dependencies among the equations (which add up to nothing) while that names
    fewer of them."""
    best = mult
    improved = True
    while improved:
        improved = False
        for dep in dependencies:
            for sign in (1, -1):
                # how many equations and how much weight ``best`` plus ``sign x dep`` would name, less best's
                more_terms = more_weight = 0
                for e, m in dep.items():
                    old = best.get(e, 0)
                    new = old + sign * m
                    more_terms += (new != 0) - (old != 0)
                    more_weight += abs(new) - abs(old)
                if more_terms < 0 or (more_terms == 0 and more_weight < 0):
                    cand = dict(best)
                    for e, m in dep.items():
                        cand[e] = cand.get(e, 0) + sign * m
                    best, improved = {e: m for e, m in cand.items() if m}, True
    return best


def derived(state: State) -> list[Derived]:
    """Every derived equation over 1 to :data:`MAX_CELLS` open cells with small weights (see the module),
    fewer cells first; kept per set of placed cells."""
    memo = placed_memo(state, "sum-equations")
    found = memo.get("derived")
    if found is not None:
        return found
    eqs = _equations(state)
    key = (tuple((e.cells, e.weights, e.total) for e in eqs), tuple(state.values))
    found = _CACHE.get(key)
    if found is not None:
        memo["derived"] = found
        return found
    ech = _echelon(eqs, state.values)
    seen: set[frozenset[tuple[int, int]]] = set()
    out: list[Derived] = []
    plain = {(frozenset((s, w) for s, w in zip(e.cells, e.weights) if not state.values[s])) for e in eqs}
    for target in _targets(state):
        for row, mult, total in _combined(_within(ech, target)):
            if not row or len(row) > MAX_CELLS:
                continue
            minus = 2 * sum(w < 0 for w in row.values())
            if minus > len(row) or (minus == len(row) and total < 0):  # written with more plus signs than minus
                row, mult, total = {s: -w for s, w in row.items()}, {e: -m for e, m in mult.items()}, -total
            d = 0
            for w in row.values():
                d = gcd(d, w)
            if total % d:
                continue  # no whole-number solution: a broken state is not this step's to say
            weights = {s: w // d for s, w in row.items()}
            t = total // d
            if max(abs(w) for w in weights.values()) > MAX_WEIGHT:
                continue
            sig = frozenset(weights.items())
            if sig in seen or sig in plain or frozenset((s, -w) for s, w in weights.items()) in seen:
                continue
            seen.add(sig)
            terms = _sparser(mult, ech.dependencies)
            if _apart(eqs, state.values, terms):
                continue  # sums over cells apart: each narrows on its own at least as much
            ok = _check(eqs, state.values, terms, weights, t, d)
            if not ok:
                continue
            cells = tuple(sorted(weights))
            out.append(Derived(cells, tuple(weights[s] for s in cells), t, tuple(sorted(terms.items())), d))
    out.sort(key=lambda e: (len(e.cells), len(e.terms)))
    if len(_CACHE) >= CACHE:
        _CACHE.clear()
    _CACHE[key] = memo["derived"] = out
    return out


_CACHE: dict[tuple, list[Derived]] = {}


def _apart(eqs: Sequence[LinearSum], values: Sequence[int], terms: dict[int, int]) -> bool:
    """The terms' open cells are pairwise disjoint (their combination is only their sums added up)."""
    seen: set[int] = set()
    for e in terms:
        cells = {s for s in eqs[e].cells if not values[s]}
        if cells & seen:
            return False
        seen |= cells
    return True


def _check(
    eqs: Sequence[LinearSum], values: Sequence[int], terms: dict[int, int], weights: dict[int, int], total: int, d: int
) -> bool:
    """The terms' combination is exactly ``d`` times the equation over the open cells (whole numbers)."""
    row: dict[int, int] = {}
    t = 0
    for e, m in terms.items():
        eq = eqs[e]
        t += m * eq.total
        for s, w in zip(eq.cells, eq.weights):
            if values[s]:
                t -= m * w * values[s]
            else:
                row[s] = row.get(s, 0) + m * w
    row = {s: w for s, w in row.items() if w}
    return t == d * total and row == {s: d * w for s, w in weights.items()}


def sum_equation(state: State) -> Step | None:
    """The first derived equation (fewest cells first) whose exact narrowing removes a candidate."""
    if not summed_cages(state) and not puzzle_rule_sums(state):
        return None
    cands = state.cands
    peers = state.g.peer_sets
    eqs = derived(state)
    memo = placed_memo(state, "sum-equations")
    cliques = memo.get("cliques")  # per equation: weights all 1 over cells that all see each other
    if cliques is None:
        cliques = memo["cliques"] = [set(eq.weights) == {1} and _see_all(peers, eq.cells) for eq in eqs]
    fits: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = memo.setdefault("fits", {})  # the last narrowing
    for i, eq in enumerate(eqs):
        cells = eq.cells
        masks = tuple(cands[s] for s in cells)
        last = fits.get(i)
        if last is not None and last[0] == masks:
            keep = last[1]
        else:
            keep = fit_sum(state, cells, eq.weights, eq.total, MAX_EXACT)
            fits[i] = (masks, keep)
        if not all(keep):
            continue  # nothing fits: a broken state is not this step's to say
        elim = [(s, d) for s, m, k in zip(cells, masks, keep) for d in digits_of(m & ~k)]
        required = 0
        if cliques[i]:
            required = _required(keep, eq.total)
            for d in digits_of(required):
                places = [s for s, k in zip(cells, keep) if k >> (d - 1) & 1]
                seen = set.intersection(*(set(peers[s]) for s in places)) - set(cells)
                elim += [(s, d) for s in sorted(seen) if cands[s] >> (d - 1) & 1 and not state.values[s]]
        if elim:
            return _step(state, eq, keep, sorted(set(elim)), required)
    return None


def _see_all(peers: Sequence[frozenset[int]], cells: Sequence[int]) -> bool:
    """The cells all see each other."""
    return all(cells[j] in peers[cells[i]] for i in range(len(cells)) for j in range(i))


def _required(masks: tuple[int, ...], total: int) -> int:
    """The digits every set of different digits with sum ``total`` that cells with candidates ``masks``
    (which all see each other) can hold has in it."""
    sets = [u for u in digit_sets(masks) if digit_sum(u) == total]
    out = -1 if sets else 0
    for u in sets:
        out &= u
    return out


def _written(state: State, cells: Sequence[int], weights: Sequence[int], total: int) -> str:
    parts = []
    for i, (s, w) in enumerate(zip(cells, weights)):
        term = state.label(s) if abs(w) == 1 else f"{abs(w)} x {state.label(s)}"
        parts.append(("- " if w < 0 else "") + term if i == 0 else ("- " if w < 0 else "+ ") + term)
    return f"{' '.join(parts)} = {total}"


def _step(state: State, eq: Derived, keep: Sequence[int], elim: list[tuple[int, int]], required: int) -> Step:
    eqs = _equations(state)
    vals = state.values
    named = []
    raw = 0
    used: set[int] = set()
    placed: dict[int, int] = {}  # a placed cell's weight in the combination
    for i, (e, m) in enumerate(eq.terms):
        lin = eqs[e]
        used.update(lin.cells)
        raw += m * lin.total
        for s, w in zip(lin.cells, lin.weights):
            if vals[s]:
                placed[s] = placed.get(s, 0) + m * w
        coef = f"{abs(m)} x " if abs(m) != 1 else ""
        sign = ("- " if m < 0 else "") if i == 0 else ("- " if m < 0 else "+ ")
        named.append(f"{sign}{coef}({lin.how})" if coef else f"{sign}{lin.how}")
    head = f"{NAME}: {' '.join(named)} add up to {raw}"
    known = {s: w for s, w in sorted(placed.items()) if w}
    if known:
        cells, weights = tuple(known), tuple(known.values())
        off = _written(state, cells, weights, sum(w * vals[s] for s, w in known.items()))
        head += f"; less the placed cells' part ({off})"
    found = _written(state, eq.cells, tuple(eq.scale * w for w in eq.weights), eq.scale * eq.total)
    head += f", that leaves {found}"
    if eq.scale > 1:
        head += f", so {_written(state, eq.cells, eq.weights, eq.total)}"
    left = "; ".join(f"{state.label(s)} keeps {text.digit_set(digits_of(k), state)}" for s, k in zip(eq.cells, keep))
    if required:
        left += f"; every set of different digits with that sum holds {text.digit_set(digits_of(required), state)}"
        left += ", so the cells that see all its places lose it"
    return Step(
        NAME,
        eliminations=elim,
        cells=sorted(used),
        candidates=[(s, d) for s in eq.cells for d in digits_of(state.cands[s])],
        explanation=f"{head}; with no digit twice in cells that see each other: {left}: {text.removals(state, elim)}",
        rating=round(min(TOP, RATING + 0.1 * max(0, len(eq.terms) - 3)), 1),
    )
