"""Wings: XY-Wing, XYZ-Wing, W-Wing and the larger bent sets (WXYZ-Wing, VWXYZ-Wing). They only use
"sees" (shares a unit), so they work on every geometry."""

from __future__ import annotations

import threading

from sudokit.logic import text
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Link, Step


def _seen_by_all(state: State, cells: list[int], d: int) -> list[tuple[int, int]]:
    """Cells (other than ``cells``) holding candidate ``d`` that see every cell of ``cells``."""
    peers = state.g.peer_sets
    common = set(peers[cells[0]])
    for s in cells[1:]:
        common &= peers[s]
    bit = 1 << (d - 1)
    return [(s, d) for s in sorted(common - set(cells)) if state.cands[s] & bit]


def xy_wing(state: State) -> Step | None:
    """Pivot {x,y} seeing pincers {x,z} and {y,z}: whichever the pivot is, one pincer is z. The first one
    (bivalue pivots in cell order, then pincers in cell order) is found by
    :func:`sudokit.logic.wings_kernel.xy_hit`."""
    from sudokit.logic import state_arrays, wings_kernel

    pivot, a, b = (int(v) for v in wings_kernel.xy_hit(state_arrays.arrays(state)[1], wings_kernel.sees(state.g)))
    if pivot < 0:
        return None
    return xy_step(state, pivot, a, b)


def xy_step(state: State, pivot: int, a: int, b: int) -> Step:
    """The XY-Wing step of pivot ``pivot`` and pincers ``a``, ``b``."""
    c = state.cands
    z = (c[a] & ~c[pivot]).bit_length()
    elim = _seen_by_all(state, [a, b], z)
    x, y = digits_of(c[pivot])
    xa, xb = (c[a] & c[pivot]).bit_length(), (c[b] & c[pivot]).bit_length()
    why = (
        f"pivot {state.label(pivot)} {{{state.sym(x)},{state.sym(y)}}} with pincers "
        f"{state.label(a)} {text.digit_set(digits_of(c[a]), state)} and {state.label(b)} "
        f"{text.digit_set(digits_of(c[b]), state)}: one pincer is {state.sym(z)}"
    )
    # the wing as the chain a(z) = a(xa) - pivot(xa) = pivot(xb) - b(xb) = b(z)
    links = [
        ((a, z), (a, xa), True),
        ((a, xa), (pivot, xa), False),
        ((pivot, xa), (pivot, xb), True),
        ((pivot, xb), (b, xb), False),
        ((b, xb), (b, z), True),
    ]
    return _wing_step(state, "XY-Wing", (pivot, a, b), elim, why, links)


def xyz_wing(state: State) -> Step | None:
    """Pivot {x,y,z} seeing pincers {x,z} and {y,z}: z is in one of the three, so cells seeing all lose z. The
    first one (pivots in cell order, then pincers among its peers) is found by
    :func:`sudokit.logic.wings_kernel.xyz_hit`."""
    from sudokit.logic import state_arrays, wings_kernel

    g = state.g
    found = wings_kernel.xyz_hit(state_arrays.arrays(state)[1], wings_kernel.sees(g), wings_kernel.peer_order(g))
    pivot, a, b = (int(v) for v in found)
    if pivot < 0:
        return None
    return xyz_step(state, pivot, a, b)


def xyz_step(state: State, pivot: int, a: int, b: int) -> Step:
    """The XYZ-Wing step of pivot ``pivot`` and pincers ``a``, ``b``."""
    c = state.cands
    z = (c[a] & c[b]).bit_length()
    elim = _seen_by_all(state, [pivot, a, b], z)
    why = (
        f"pivot {state.label(pivot)} {text.digit_set(digits_of(c[pivot]), state)} with pincers "
        f"{state.label(a)} and {state.label(b)}: {state.sym(z)} is in one of the three"
    )
    return _wing_step(state, "XYZ-Wing", (pivot, a, b), elim, why)


def _wing_step(
    state: State,
    name: str,
    cells: tuple[int, ...],
    elim: list[tuple[int, int]],
    why: str,
    links: list[Link] | None = None,
) -> Step:
    """The step of a wing with pivot and pincers (or wings) ``cells``: ``name: why, so remove ...``
    (``links``: its chain, when it is drawn as one)."""
    return Step(
        name,
        eliminations=elim,
        cells=list(cells),
        candidates=[(s, d) for s in cells for d in digits_of(state.cands[s])],
        links=links or [],
        explanation=f"{name}: {why}, so {text.removals(state, elim)}",
    )


def w_wing(state: State) -> Step | None:
    """Two cells {x,y} that do not see each other, joined by a strong link on x (a unit where x has
    exactly two places, one seeing each cell): one of the two cells is y. The first one (pairs of cells in cell
    order, x in order, units in number order) is found by :func:`sudokit.logic.wings_kernel.w_hit`."""
    from sudokit.logic import state_arrays, wings_kernel

    g = state.g
    cands = state_arrays.arrays(state)[1]
    a, b, x, u, p, q = (int(v) for v in wings_kernel.w_hit(cands, wings_kernel.sees(g), g.unit_array))
    if a < 0:
        return None
    return w_step(state, a, b, x, u, p, q)


def w_step(state: State, a: int, b: int, x: int, u: int, p: int, q: int) -> Step:
    """The W-Wing step of the cells ``a``, ``b`` {x,y} and the strong link ``p`` = ``q`` on ``x`` in unit ``u``."""
    y = next(d for d in digits_of(state.cands[a]) if d != x)
    elim = _seen_by_all(state, [a, b], y)
    return Step(
        "W-Wing",
        eliminations=elim,
        cells=[a, b, p, q],
        units=[u],
        candidates=[(a, x), (a, y), (b, x), (b, y), (p, x), (q, x)],
        links=[((a, x), (p, x), False), ((p, x), (q, x), True), ((q, x), (b, x), False)],
        explanation=(
            f"W-Wing: {state.label(a)} and {state.label(b)} are both "
            f"{{{state.sym(min(x, y))},{state.sym(max(x, y))}}} "
            f"and {state.sym(x)} in {state.unit_name(u)} is at {state.label(p)} or "
            f"{state.label(q)}: one of "
            f"them is {state.sym(y)}, so {text.removals(state, elim)}"
        ),
    )


BENT_NAMES = {4: "WXYZ-Wing", 5: "VWXYZ-Wing"}
BENT_BASE = {4: 5.5, 5: 6.2}  # Sukaku Explainer's ratings of the bent sets


def bent_rating(state: State, k: int, cells: list[int]) -> float:
    """Sukaku Explainer's rating of a bent set: its base, plus 0.1 for each step the largest candidate count
    ``b`` in the set stands nearer the middle size ``m = (k + 2) // 2`` than the extremes (``k - m - |m - b|``):
    WXYZ-Wing 5.5-5.6, VWXYZ-Wing 6.2-6.4."""
    middle = (k + 2) // 2
    biggest = max(state.cands[s].bit_count() for s in cells)
    return round(BENT_BASE[k] + 0.1 * ((k - middle) - abs(middle - biggest)), 1)


#: each thread's rows of wings found, by ``k`` (:func:`als_wing`)
_kept = threading.local()


def als_wing(state: State, k: int) -> Step | None:
    """Sukaku Explainer's WXYZ-Wing (``k = 4``) or VWXYZ-Wing (``k = 5``): ``k - 1`` cells that all see each
    other hold ``k`` digits (an almost locked set) and a bivalue cell outside, seeing one of them, holds two
    of those digits. When every place of one of them (x) in the set sees the bivalue cell, x is in the cell or
    in the set, not both, so the other digit (z) is in the cell or in the set: a cell seeing the bivalue cell
    and the set's every z loses z. When both digits are restricted, the set and the cell lock all ``k`` digits:
    each leaves the cells that see its every place in them (x and z as well, the cell's included).

    Of all the wings found (:func:`wings_kernel.als_wing_hits`), Sukaku Explainer's choice is taken: the
    lowest rating (:func:`bent_rating`, by the set's largest candidate count), then the most removals, then
    the highest "suffix" (doubly linked, largest count, total count), then the first found."""
    import numpy as np

    from sudokit.logic import wings_kernel
    from sudokit.logic.state_arrays import arrays

    kept: dict[int, np.ndarray] = _kept.__dict__.setdefault("rows", {})
    out = kept.get(k)
    if out is None:  # kept for the next state: made anew (256 KB touched page by page) it cost a fifth of a call
        out = kept[k] = np.empty((4096, k + 3), dtype=np.int64)
    cands, seen = arrays(state)[1], wings_kernel.sees(state.g)
    rows = wings_kernel.als_wing_hits(cands, state.g.peer_array, seen, k, out)
    removes = wings_kernel.als_wing_removes(cands, seen, k, out, rows)  # most wings remove nothing
    chosen = out[:rows][removes]
    if not len(chosen):
        return None
    options = []
    where = [0] * (state.g.size + 1)
    for s, c in enumerate(state.cands):
        for d in digits_of(c):
            where[d] |= 1 << s
    for row in chosen:
        als = [int(c) for c in row[: k - 1]]
        yz, x, z, double = int(row[k - 1]), int(row[k]) + 1, int(row[k + 1]) + 1, bool(row[k + 2])
        elim, double = _als_wing_removals(state, als, yz, x, z, double, where)
        if not elim:
            continue
        counts = [state.cands[c].bit_count() for c in als]
        suffix = f"{2 if double else 1}{max(counts)}{sum(counts)}"
        options.append((bent_rating(state, k, als), len(elim), suffix, als, yz, x, z, double, elim))
    if not options:
        return None
    options.sort(key=lambda o: o[2], reverse=True)  # stable: ties keep the order found
    options.sort(key=lambda o: (o[0], -o[1]))
    rating, _, _, als, yz, x, z, double, elim = options[0]
    union = 0
    for c in als:
        union |= state.cands[c]
    cells = (*als, yz)
    if double:
        why = (
            f"{text.cells(state, als)} hold only the {k} digits {text.digit_set(digits_of(union))} and "
            f"{state.label(yz)} holds {x} and {z}, each seeing every {x} and every {z} of them: "
            f"the {k} cells hold each of the {k} digits once"
        )
    else:
        why = (
            f"{text.cells(state, als)} hold only the {k} digits {text.digit_set(digits_of(union))} and "
            f"{state.label(yz)} holds {x} and {z}, seeing every {x} of them: {x} is in one or the other, so "
            f"{z} is in {state.label(yz)} or in {text.cells(state, [c for c in als if state.cands[c] >> (z - 1) & 1])}"
        )
    step = _wing_step(state, BENT_NAMES[k], cells, elim, why)
    step.rating = rating
    return step


def _als_wing_removals(
    state: State, als: list[int], yz: int, x: int, z: int, double: bool, where: list[int]
) -> tuple[list[tuple[int, int]], bool]:
    """The removals of a wing of :func:`als_wing` (sorted) and whether it stays doubly linked, as Sukaku
    Explainer decides: a double link that removes nothing but its x, or nothing but its z, is a single one.
    ``where[d]``: the cells holding digit ``d`` as a bitset."""
    cands, peers = state.cands, state.g.peer_bits
    inside = 1 << yz
    for c in als:
        inside |= 1 << c

    def seen_by_all(d: int, extra: int) -> int:
        """The cells outside the wing holding ``d`` that see every cell of the set holding it (and ``extra``)."""
        common = peers[extra] if extra >= 0 else -1
        for c in als:
            if cands[c] >> (d - 1) & 1:
                common &= peers[c]
        return common & where[d] & ~inside

    found: dict[int, int] = {}
    weak = strong_x = False
    if double:
        union = 0
        for c in als:
            union |= cands[c]
        for w in digits_of(union):
            if w not in (x, z) and (gone := seen_by_all(w, -1)):
                weak = True
                found[w] = gone
        if gone := seen_by_all(x, yz):
            strong_x = True
            found[x] = gone
    if gone := seen_by_all(z, yz):
        found[z] = gone
    if double and not weak and (not gone or not strong_x):
        double = False
    elim = sorted((s, d) for d, bits in found.items() for s in range(state.g.n_cells) if bits >> s & 1)
    return elim, double
