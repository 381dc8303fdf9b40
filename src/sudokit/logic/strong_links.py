"""Strong-link chains on one digit, counted in links: Sudoku Explainer's "N strong-linked fishes".

A *strong link* on digit ``d`` is a unit where ``d`` has exactly two places; a chain of ``k`` strong links
``x1 = y1 - x2 = y2 - ... - xk = yk`` joins each link's second end to the next link's first end by a weak
link (the two cells see each other). One of ``x1`` and ``yk`` holds ``d``, so every other cell that sees
both loses ``d``. With two links this is the Skyscraper / 2-String Kite / Turbot Fish family; Sukaku
Explainer (whose ratings the rated benchmark set carries) also rates chains of three to six links as their
own techniques, ahead of its chains, at 5.4, 5.8, 6.2 and 6.6 plus:

- +0.0 when every link lies in lines of one direction (all rows or all columns: "k Skyscrapers"),
- +0.1 when the links mix the two line directions, or lines of one direction with boxes,
- +0.2 when they use boxes and both line directions.

A pair of cells that is a strong link in both a line and a box counts as a line link (the cheaper reading).
A node is a cell or a *group*: the places of the digit in one box that share a line. A chain with a group
(an empty rectangle's box is a link between two groups) is rated +0.3 whatever its units, and is looked for
only when no chain of single cells removes anything. Among the chains of ``k`` links the solver takes the
one rated lowest (then the lowest digit, then the first found), so the rating is the cheapest reading.
"""

from __future__ import annotations

from functools import lru_cache

from sudokit.geometry import Geometry
from sudokit.logic import text
from sudokit.logic.misses import known_mask, miss_mask
from sudokit.logic.state import State
from sudokit.logic.step import Step

#: Sukaku Explainer's base rating by number of strong links
BASE = {2: 4.0, 3: 5.4, 4: 5.8, 5: 6.2, 6: 6.6}
#: what the rows print: ``3-Link X-Chain`` ...
NAMES = {k: f"{k}-Link X-Chain" for k in BASE}


def link_kind(state: State, u: int) -> str:
    """``row``, ``column`` or ``box`` (any unit that is not a line counts as a box)."""
    kind = state.g.unit_kinds[u]
    return kind if kind in ("row", "column") else "box"


def rating(k: int, kinds: list[str]) -> float:
    """The rating of a chain of ``k`` strong links lying in units of these kinds."""
    lines = {kind for kind in kinds if kind != "box"}
    box = "box" in kinds
    if not box and len(lines) <= 1:
        extra = 0.0
    elif box and len(lines) == 2:
        extra = 0.2
    else:
        extra = 0.1
    return round(BASE[k] + extra, 1)


#: the longest chain a row looks for
K_HI = max(BASE)


def _best(state: State, want: int, grouped: bool, skip: int = 0) -> dict[int, tuple]:
    """Per length ``k`` of the mask ``want`` (bit ``k``): the lowest-rated chain of ``k`` strong links on one
    digit that removes something (the lowest digit among equals, the first found on it), as (digit, (rating,
    nodes x1, y1, ..., xk, yk, units of the links, eliminations), the digits searched without a chain (a mask))
    or (None, that mask). Digits in the mask ``skip`` are not searched. A chain with a group is rated base + 0.3
    whatever its links, so with ``grouped`` the first one found on a digit is taken. The graph and the search
    are :func:`sudokit.logic.strong_links_kernel.chain_search`: nodes in the order the units (in number order)
    meet them, links by their other end's number, depth first, one search for all the lengths."""
    from sudokit.logic import state_arrays, strong_links_kernel

    g = state.g
    units, _units_of, _peers, _full = state_arrays.tables(g)
    _values, cands = state_arrays.arrays(state)
    line, row_of, col_of, box_of, peer_words = _tables(g)
    ds, extras, paths, units_used, elims, empty = strong_links_kernel.best_chains(
        cands,
        units,
        line,
        row_of,
        col_of,
        box_of,
        g.has_boxes,
        peer_words,
        state_arrays.digit_words(state),
        skip,
        want,
        K_HI,
        grouped,
    )
    found: dict[int, tuple] = {}
    for k in BASE:
        if not want >> k & 1:
            continue
        d = int(ds[k])
        if d < 0:
            found[k] = (None, int(empty[k]))
            continue
        nodes = [tuple(int(s) for s in paths[k, i] if s >= 0) for i in range(2 * k)]
        cells = [(w * 64 + i, d) for w, word in enumerate(elims[k].tolist()) for i in range(64) if word >> i & 1]
        units_k = [int(u) for u in units_used[k, :k]]
        found[k] = ((d, (round(BASE[k] + int(extras[k]) / 10, 1), nodes, units_k, cells)), int(empty[k]))
    return found


@lru_cache(maxsize=32)
def _tables(g: Geometry) -> tuple:
    """The kernel's view of ``g``: each unit's kind (0 row, 1 column, 2 any other unit: a box to the rating),
    each cell's row, column and box, each cell's peers as 64-bit words."""
    import numpy as np

    from sudokit.logic import als

    line = np.array([("row", "column").index(k) if k in ("row", "column") else 2 for k in g.unit_kinds])
    rows, cols, boxes = (np.array(x, dtype=np.int64) for x in (g.row_of, g.col_of, g.box_of))
    return line.astype(np.int64), rows, cols, boxes, als._peer_words(g)


def strong_link_chain(state: State, k: int) -> Step | None:
    """The lowest-rated chain of exactly ``k`` strong links on one digit that removes something: chains of cells
    first, chains with groups only when no digit has one. The rows of lengths ``k`` to 6 are tried on the same
    state one after the other when the rows between them find nothing, so the first asks one search for all of
    them (:func:`_chains`) and the others read their length from the state's memo."""
    memo = state.memo.get("strong-link-chains")
    if memo is None or k not in memo:
        memo = state.memo["strong-link-chains"] = _chains(state, k)
    found, empty = memo[k]
    if empty is not None:
        miss_mask(("Strong links", k), state, empty)
    if found is None:
        return None
    d, (r, cells, units, elim) = found
    return _step(state, k, d, r, cells, units, elim)


def _chains(state: State, k_lo: int) -> dict[int, tuple]:
    """Per length ``k`` from ``k_lo`` to 6: (what :func:`_best` found for the row, chains of cells first, or
    None; the digits the search with groups found nothing for, when it ran, else None)."""
    lengths = [k for k in BASE if k >= k_lo]
    skip = state.g.all_mask
    for k in lengths:
        skip &= known_mask(("Strong links", k), state)  # digits every length found nothing for before
        if not skip:
            break
    out: dict[int, tuple] = {k: (None, None) for k in lengths}
    if skip == state.g.all_mask:
        return out
    want = sum(1 << k for k in lengths)
    for grouped in (False, True):
        if not want:
            break
        for k, (found, empty) in _best(state, want, grouped, skip).items():
            if found is not None:
                out[k] = (found, empty if grouped else None)
                want &= ~(1 << k)
            elif grouped:
                out[k] = (None, empty)
    return out


def _label(state: State, node: tuple[int, ...]) -> str:
    """``B3`` for a cell, ``(B1,B2)`` for a group."""
    if len(node) == 1:
        return state.label(node[0])
    return "(" + ",".join(state.label(s) for s in node) + ")"


def _step(state: State, k: int, d: int, r: float, nodes: list[tuple[int, ...]], units: list[int], elim) -> Step:
    links = [((nodes[i][0], d), (nodes[i + 1][0], d), i % 2 == 0) for i in range(len(nodes) - 1)]
    chain = " - ".join(
        f"{_label(state, nodes[2 * i])} = {_label(state, nodes[2 * i + 1])} ({state.unit_name(units[i])})"
        for i in range(k)
    )
    cells = [s for node in nodes for s in node]
    name = NAMES[k]
    return Step(
        name,
        eliminations=sorted(elim),
        cells=cells,
        units=list(units),
        candidates=[(s, d) for s in cells],
        links=links,
        rating=r,
        explanation=(
            f"{name} on {state.sym(d)}: {chain}; each link holds {state.sym(d)} once in its unit, so "
            f"{state.sym(d)} is in {_label(state, nodes[0])} or {_label(state, nodes[-1])}: "
            f"{text.removals(state, sorted(elim))}"
        ),
    )
