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
from sudokit.logic.misses import known_misses, miss
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


def _nodes_of(state: State, u: int, d: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The ways to read unit ``u``'s places for ``d`` as one strong link between two nodes, each node a cell
    or a group (two or more cells of one box that share a line): [(node, node), ...]."""
    return _splits(state.g, tuple(state.positions(u, d)))


@lru_cache(maxsize=1 << 14)
def _splits(g: Geometry, where: tuple[int, ...]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """:func:`_nodes_of` for the places ``where`` (they depend on nothing else)."""
    n = len(where)
    if n < 2 or n > 6:  # two nodes hold at most 6 cells (two box-line groups of 3)
        return []
    if n == 2:
        return [((where[0],), (where[1],))]
    if not g.has_boxes:
        return []
    out = []
    for mask in range(1, 1 << (n - 1)):  # the last place always in the second node: each split once
        x = tuple(s for i, s in enumerate(where) if mask >> i & 1)
        y = tuple(s for i, s in enumerate(where) if not mask >> i & 1)
        if _is_node(g, x) and _is_node(g, y):
            out.append((x, y))
    return out


def _is_node(g, cells: tuple[int, ...]) -> bool:
    """A cell, or cells that lie in one box and one line (a box-line intersection)."""
    if len(cells) == 1:
        return True
    box, row, col = g.box_of[cells[0]], g.row_of[cells[0]], g.col_of[cells[0]]
    same_box = all(g.box_of[s] == box for s in cells)
    return same_box and (all(g.row_of[s] == row for s in cells) or all(g.col_of[s] == col for s in cells))


@lru_cache(maxsize=32)
def _peer_bits(g: Geometry) -> tuple[int, ...]:
    """Each cell's peers as a bitset over cells."""
    return tuple(sum(1 << p for p in ps) for ps in g.peers)


class _Graph:
    """The strong links on one digit of a state: nodes (cells or groups) as cell bitsets, the cells that see
    all of each node, each node's links (other end, unit, grouped) and the nodes each node sees."""

    def __init__(self, state: State, d: int, grouped: bool):
        g = state.g
        index: dict[tuple[int, ...], int] = {}
        self.nodes: list[tuple[int, ...]] = []
        links: dict[int, dict[int, int]] = {}

        def node(x: tuple[int, ...]) -> int:
            if x not in index:
                index[x] = len(self.nodes)
                self.nodes.append(x)
            return index[x]

        for u in range(len(g.units)):
            for a, b in _nodes_of(state, u, d):
                if not grouped and (len(a) > 1 or len(b) > 1):
                    continue
                i, j = node(a), node(b)
                for x, y in ((i, j), (j, i)):
                    known = links.setdefault(x, {})
                    if y not in known or link_kind(state, known[y]) == "box":
                        known[y] = u
        peer_bits = _peer_bits(g)
        self.mask = [sum(1 << s for s in x) for x in self.nodes]
        self.seen = []
        for cells_of_node in self.nodes:
            m = peer_bits[cells_of_node[0]]
            for s in cells_of_node[1:]:
                m &= peer_bits[s]
            self.seen.append(m)
        self.links = [sorted(links.get(i, {}).items()) for i in range(len(self.nodes))]
        starts = [i for i in range(len(self.nodes)) if self.links[i]]
        self.near = [[x for x in starts if not self.mask[x] & ~self.seen[e]] for e in range(len(self.nodes))]
        bit = 1 << (d - 1)
        self.holders = sum(1 << s for s, m in enumerate(state.cands) if m & bit)


def _graph(state: State, d: int, grouped: bool) -> _Graph:
    key = ("strong-links", d, grouped)
    found = state.memo.get(key)
    if found is None:
        found = state.memo[key] = _Graph(state, d, grouped)
    return found


def _best_on(state: State, d: int, k: int, grouped: bool):
    """(rating, nodes x1, y1, ..., xk, yk, units of the links, eliminations) of the lowest-rated chain of ``k``
    strong links on ``d`` that removes something (the first found among equals), or None. A chain with a group
    is rated base + 0.3 whatever its links, so with ``grouped`` the first one found is taken."""
    gr = _graph(state, d, grouped)
    if sum(1 for x in gr.links if x) < 2 * k - (k if grouped else 0):
        return None
    mask, seen, links, near, holders = gr.mask, gr.seen, gr.links, gr.near, gr.holders
    best: list = []
    path: list[int] = []
    units: list[int] = []

    def extend(depth: int, used: int) -> bool:
        """Search on from the path; True to stop (the cheapest possible rating was found)."""
        end = path[-1]
        if depth == k:
            elim = holders & seen[path[0]] & seen[end] & ~used
            if elim:
                if any(len(gr.nodes[x]) > 1 for x in path):
                    r = round(BASE[k] + 0.3, 1)
                else:
                    r = rating(k, [link_kind(state, u) for u in units])
                if not best or r < best[0]:
                    best[:] = [r, [gr.nodes[x] for x in path], units[:], elim]
                return grouped or r == BASE[k]
            return False
        for x in near[end]:
            if used & mask[x]:
                continue
            for y, u in links[x]:
                if used & mask[y]:
                    continue
                path.extend((x, y))
                units.append(u)
                stop = extend(depth + 1, used | mask[x] | mask[y])
                units.pop()
                del path[-2:]
                if stop:
                    return True
        return False

    for x in range(len(gr.nodes)):
        for y, u in links[x]:
            path[:] = [x, y]
            units[:] = [u]
            if extend(1, mask[x] | mask[y]):
                break
        else:
            continue
        break
    if not best:
        return None
    r, nodes, us, elim = best
    cells = []
    while elim:
        low = elim & -elim
        cells.append((low.bit_length() - 1, d))
        elim ^= low
    return r, nodes, us, cells


def strong_link_chain(state: State, k: int) -> Step | None:
    """The lowest-rated chain of exactly ``k`` strong links on one digit that removes something."""
    tag = ("Strong links", k)
    skip = known_misses(tag, state)
    found = None
    for grouped in (False, True):
        for d in state.g.digits:
            if d in skip:
                continue
            hit = _best_on(state, d, k, grouped)
            if hit is None:
                if grouped:
                    miss(tag, state, d)
            elif found is None or hit[0] < found[1][0]:
                found = (d, hit)
        if found is not None:
            break
    if found is None:
        return None
    d, (r, cells, units, elim) = found
    return _step(state, k, d, r, cells, units, elim)


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
