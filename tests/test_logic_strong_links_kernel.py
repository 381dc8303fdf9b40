"""The kernel of the strong-link chains (``logic/strong_links_kernel.py``) against a plain graph and depth-first
search in Python, digit by digit and step by step."""

from __future__ import annotations

from functools import lru_cache

import pytest

from logic_states import fresh
from sudokit.geometry import Geometry
from sudokit.logic import strong_links
from sudokit.logic.state import State
from sudokit.logic.step import Step


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
                    if y not in known or strong_links.link_kind(state, known[y]) == "box":
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
                    r = round(strong_links.BASE[k] + 0.3, 1)
                else:
                    r = strong_links.rating(k, [strong_links.link_kind(state, u) for u in units])
                if not best or r < best[0]:
                    best[:] = [r, [gr.nodes[x] for x in path], units[:], elim]
                return grouped or r == strong_links.BASE[k]
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


def plain_chain(state: State, k: int) -> Step | None:
    """Reference :func:`strong_links.strong_link_chain` (without the memo of misses)."""
    found = None
    for grouped in (False, True):
        for d in state.g.digits:
            hit = _best_on(state, d, k, grouped)
            if hit is not None and (found is None or hit[0] < found[1][0]):
                found = (d, hit)
        if found is not None:
            break
    if found is None:
        return None
    d, (r, cells, units, elim) = found
    return strong_links._step(state, k, d, r, cells, units, elim)


ALL_LENGTHS = sum(1 << k for k in strong_links.BASE)


@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])
def test_chain_kernel_finds_the_chain_of_the_plain_search(loop_states, k):
    found = 0
    for state in loop_states:
        everything = state.g.all_mask
        for grouped in (False, True):
            for d in state.g.digits:
                want = _best_on(state, d, k, grouped)
                skip = everything & ~(1 << (d - 1))
                hit, empty = strong_links._best(fresh(state), 1 << k, grouped, skip)[k]
                # one search for every length gives each length what its own search gives
                assert strong_links._best(fresh(state), ALL_LENGTHS, grouped, skip)[k] == (hit, empty)
                if want is None:
                    assert hit is None and empty == 1 << (d - 1), (d, k, grouped)
                else:
                    assert hit == (d, (want[0], want[1], want[2], sorted(want[3]))), (d, k, grouped)
                    assert empty == 0
                found += want is not None
    assert found >= 20, found


@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])
def test_chain_step_is_the_plain_searchs_step(loop_states, k):
    found = 0
    for state in loop_states:
        want = plain_chain(state, k)
        assert strong_links.strong_link_chain(fresh(state), k) == want
        found += want is not None
    assert found >= 5, found


def test_the_rows_of_one_state_read_one_search(loop_states):
    """The rows of 2 to 6 links asked one after the other on one state (as the solver asks them when the rows
    between find nothing) give each length's own step, from the search the first row made."""
    for state in loop_states[:20]:
        one = fresh(state)
        for k in (2, 3, 4, 5, 6):
            assert strong_links.strong_link_chain(one, k) == plain_chain(state, k), k
        assert set(one.memo["strong-link-chains"]) == {2, 3, 4, 5, 6}
