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


def _best(state: State, k: int, grouped: bool, skip: int = 0):
    """The lowest-rated chain of ``k`` strong links on one digit that removes something (the lowest digit among
    equals, the first found on it), as (digit, (rating, nodes x1, y1, ..., xk, yk, units of the links,
    eliminations)) or None, and the digits searched without a chain (a mask). Digits in the mask ``skip`` are
    not searched. A chain with a group is rated base + 0.3 whatever its links, so with ``grouped`` the first one
    found on a digit is taken. The graph and the search are :func:`sudokit.logic.strong_links_kernel.chain_search`:
    nodes in the order the units (in number order) meet them, links by their other end's number, depth first."""
    from sudokit.logic import state_arrays, strong_links_kernel

    g = state.g
    units, _units_of, _peers, _full = state_arrays.tables(g)
    _values, cands = state_arrays.arrays(state)
    line, row_of, col_of, box_of, peer_words = _tables(g)
    d, extra, path, units_used, elim, node_cells, empty = strong_links_kernel.best_chain(
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
        k,
        grouped,
    )
    if d < 0:
        return None, int(empty)
    d = int(d)
    nodes = [tuple(int(s) for s in node_cells[x] if s >= 0) for x in path]
    cells = [(w * 64 + i, d) for w, word in enumerate(elim.tolist()) for i in range(64) if word >> i & 1]
    return (d, (round(BASE[k] + int(extra) / 10, 1), nodes, [int(u) for u in units_used], cells)), int(empty)


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
    first, chains with groups only when no digit has one."""
    tag = ("Strong links", k)
    skip = known_mask(tag, state)
    if skip == state.g.all_mask:  # every digit gave no chain before on the cells it has now
        return None
    for grouped in (False, True):
        found, empty = _best(state, k, grouped, skip)
        if grouped:
            miss_mask(tag, state, empty)
        if found is not None:
            d, (r, cells, units, elim) = found
            return _step(state, k, d, r, cells, units, elim)
    return None


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
