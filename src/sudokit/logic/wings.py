"""Wings: XY-Wing, XYZ-Wing, W-Wing and the larger bent sets (WXYZ-Wing, VWXYZ-Wing). They only use
"sees" (shares a unit), so they work on every geometry."""

from __future__ import annotations

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


def bent_wing(state: State, k: int) -> Step | None:
    """A bent set of ``k`` cells: a pivot and ``k - 1`` of its peers holding, together, only ``k`` digits,
    where every digit but one (z) sits only in cells that all see each other. Each such digit fills at most
    one of the cells, so ``k - 1`` of them cannot fill all ``k`` cells: z is in one of them, and a cell that
    sees every z of the set loses z. ``k = 4`` is the WXYZ-Wing, ``k = 5`` the VWXYZ-Wing (``k = 3`` would be
    the XY- and XYZ-Wing, found by their own rows).

    Order: pivots in cell order, then wings chosen among the pivot's peers in cell order, depth first (the
    first set whose z removes something); the search is :func:`wings_kernel.bent_hit`."""
    import numpy as np

    from sudokit.logic import wings_kernel
    from sudokit.logic.state_arrays import arrays

    found = np.empty(k, dtype=np.int64)
    z = wings_kernel.bent_hit(arrays(state)[1], state.g.peer_array, wings_kernel.sees(state.g), k, found)
    if z < 0:
        return None
    cells = [int(s) for s in found]
    union = 0
    for s in cells:
        union |= state.cands[s]
    return bent_step(state, k, cells, union, z + 1)


def bent_step(state: State, k: int, cells: list[int], union: int, z: int) -> Step | None:
    """The step of the bent set ``cells`` (``k`` cells, ``k`` digits, ``z`` the one digit held by two cells
    that do not see each other), or None when z removes nothing."""
    holders = [s for s in cells if state.cands[s] >> (z - 1) & 1]
    elim = _seen_by_all(state, holders, z)
    if not elim:
        return None
    name = BENT_NAMES[k]
    others = [d for d in digits_of(union) if d != z]
    why = (
        f"{text.cells(state, cells)} hold only the {k} digits {text.digit_set(digits_of(union))}; "
        f"{text.and_list([str(d) for d in others])} can each fill only one of them (their cells see each other): "
        f"one of {' or '.join(state.label(s) for s in sorted(holders))} is {z}"
    )
    step = _wing_step(state, name, tuple(cells), elim, why)
    step.rating = bent_rating(state, k, cells)
    return step
