"""numba kernels of Sudoku Explainer's static chains (:mod:`sudokit.logic.se_chains`): the implication graph
of a state's candidates and a breadth-first search over it from every candidate, in three modes.

A node is a candidate (``cell * n + digit - 1``) with a state, on or off; its number is ``2 * candidate +
on``. *Weak* implications lead from on to off: a candidate on turns off its digit in its peers and the other
digits of its cell. *Strong* ones lead from off to on: a candidate off turns on the other digit of a bivalue
cell (a cell link) and the other place of its digit in a unit where it has two (a unit link). Static: the
graph is the state's, not updated as the chain goes.

Modes: 0 every link; 1 X (one digit: weak links to the same digit, unit links); 2 Y (cell links only as strong
links). For each start the search records the shortest chain from the candidate on to itself off (it is
false), from it off to itself on (it is true) and the shortest cycle back to itself on.
"""

from __future__ import annotations

import numpy as np
from numba import njit

MIXED, X, Y = 0, 1, 2


def graph(cands: np.ndarray, units: np.ndarray, units_of: np.ndarray, peers: np.ndarray, n: int):
    """(weak, n_weak, strong, n_strong): each candidate's weak and strong implications, padded rows (-1). The
    arrays are made here and filled by :func:`links`: numba compiles each array constructor a kernel meets,
    and optimises it again in every kernel that calls it."""
    total = cands.shape[0] * n
    weak = np.full((total, peers.shape[1] + n), -1, dtype=np.int64)
    n_weak = np.zeros(total, dtype=np.int64)
    strong = np.full((total, units_of.shape[1] + 1), -1, dtype=np.int64)
    n_strong = np.zeros(total, dtype=np.int64)
    links(cands, units, units_of, peers, n, weak, n_weak, strong, n_strong)
    return weak, n_weak, strong, n_strong


@njit(cache=True, error_model="numpy")
def links(cands, units, units_of, peers, n, weak, n_weak, strong, n_strong):
    """Fill :func:`graph`'s arrays (made by it: rows of -1, counts 0)."""
    n_cells = cands.shape[0]
    for s in range(n_cells):
        m = cands[s]
        if m == 0:
            continue
        for d in range(n):
            if not (m >> d) & 1:
                continue
            a = s * n + d
            k = 0
            for e in range(n):  # the other digits of the cell
                if e != d and (m >> e) & 1:
                    weak[a, k] = s * n + e
                    k += 1
            for j in range(peers.shape[1]):
                p = peers[s, j]
                if p < 0:
                    break
                if (cands[p] >> d) & 1:
                    weak[a, k] = p * n + d
                    k += 1
            n_weak[a] = k
            k = 0
            rest = m & ~(np.int64(1) << d)
            if rest and not rest & (rest - 1):  # bivalue cell
                e = 0
                while not (rest >> e) & 1:
                    e += 1
                strong[a, k] = s * n + e
                k += 1
            for j in range(units_of.shape[1]):
                u = units_of[s, j]
                if u < 0:
                    break
                other, count = -1, 0
                for t in units[u]:
                    if (cands[t] >> d) & 1:
                        count += 1
                        if t != s:
                            other = t
                if count == 2:
                    dup = False
                    for i in range(k):
                        if strong[a, i] == other * n + d:
                            dup = True
                    if not dup:
                        strong[a, k] = other * n + d
                        k += 1
            n_strong[a] = k


@njit(cache=True, error_model="numpy", inline="always")
def _linked(strong, n_strong, a, b):
    for i in range(n_strong[a]):  # noqa: SIM110 (numba: a plain loop)
        if strong[a, i] == b:
            return True
    return False


@njit(cache=True, error_model="numpy")
def bfs(start, on, weak, n_weak, strong, n_strong, n, mode, parent, dist, queue, cycle):
    """Breadth-first from node ``2 * start + on``, filling ``dist`` (edges, -1 unreached) and ``parent``, and
    ``queue`` with the nodes reached, in the order reached: returns (closing node, number of nodes reached).
    With ``cycle`` (the start on), the start's first step leaves out the candidates strongly linked to it (the
    cycle's closing candidates: the loop must come back to them another way), and the closing node is that of
    the shortest cycle back to the start; else -1."""
    dist[:] = -1
    first = 2 * start + on
    dist[first] = 0
    parent[first] = -1
    queue[0] = first
    head, tail = 0, 1
    close = -1
    digit = start % n
    while head < tail:
        node = queue[head]
        head += 1
        a = node >> 1
        if node & 1:  # on -> off
            for i in range(n_weak[a]):
                b = weak[a, i]
                if mode == X and b % n != digit:
                    continue
                if cycle and node == first and _linked(strong, n_strong, a, b):
                    continue
                nb = 2 * b
                if dist[nb] < 0:
                    dist[nb] = dist[node] + 1
                    parent[nb] = node
                    queue[tail] = nb
                    tail += 1
        else:  # off -> on
            for i in range(n_strong[a]):
                b = strong[a, i]
                same_cell = b // n == a // n
                if (mode == X and same_cell) or (mode == Y and not same_cell):
                    continue
                nb = 2 * b + 1
                if cycle and nb == first and close < 0:
                    close = node
                if dist[nb] < 0:
                    dist[nb] = dist[node] + 1
                    parent[nb] = node
                    queue[tail] = nb
                    tail += 1
    return close, tail


@njit(cache=True, error_model="numpy", inline="always")
def _contradiction(parent, dist, queue, reached):
    """After a search from a candidate on (``queue[:reached]``, the nodes it reached): the candidate reached both
    on and off whose two chains have the fewest candidates together (their shared start counted once), the
    lowest such candidate, and that number; (-1, 0) when none."""
    best, best_nodes = -1, 0
    for i in range(reached):
        off = queue[i]
        if off & 1 or dist[off + 1] < 0:
            continue
        q, on = off >> 1, off + 1
        # the two chains share the start and perhaps more: walk the deeper one up to the same depth, then both
        x, y = on, off
        shared = 0
        while dist[x] > dist[y]:
            x = parent[x]
        while dist[y] > dist[x]:
            y = parent[y]
        while x != y:
            x = parent[x]
            y = parent[y]
        shared = dist[x] + 1
        nodes = dist[on] + 1 + dist[off] + 1 - shared
        if best < 0 or nodes < best_nodes or (nodes == best_nodes and q < best):
            best, best_nodes = q, nodes
    return best, best_nodes


def search_arrays(total: int):
    """The arrays :func:`search_all` fills and works in, for ``total`` candidates: (out, target, parent,
    dist, queue, clear)."""
    nodes = 2 * total
    return (
        np.zeros((total, 3, 3), dtype=np.int64),
        np.full((total, 3), -1, dtype=np.int64),
        np.empty(nodes, dtype=np.int64),
        np.empty(nodes, dtype=np.int64),
        np.empty(nodes, dtype=np.int64),
        np.zeros(total, dtype=np.uint8),
    )


@njit(cache=True, error_model="numpy")
def search_all(cands, weak, n_weak, strong, n_strong, n, out, target, parent, dist, queue, clear):
    """For every candidate (rows in number order) and mode (columns): the nodes of the shortest chains that
    prove it false (from it on, a candidate reached both on and off; not in mode Y, where SE follows cycles
    only), and of the shortest cycle through it on; 0 when none. Also the candidate of each contradiction.
    Column 1 (true: from it off, it is reached on) stays 0: SE's static chains start from a candidate on.
    Fills ``out`` and ``target`` and works in the rest, all from :func:`search_arrays`.

    The links are fixed, so what a candidate on reaches includes what every candidate it turns on reaches: when
    the first leads to no contradiction, none of those does either, and they are not searched again (``clear``
    marks them)."""
    total = weak.shape[0]
    for a in range(total):
        s = a // n
        if not (cands[s] >> (a % n)) & 1:
            continue
        for mode in range(3):
            # modes X and Y follow part of the links of mode 0 (MIXED, first): what mode 0 does not find from
            # this candidate, they cannot find either (on the states of every 15th top1465 puzzle that reach the
            # static chains, 2.5% of the candidates reach a contradiction in mode 0 and 0.3% a cycle)
            # np.int64(...): a constant (or a loop variable set to one first) would compile the callee again for it
            if mode != Y and (mode == MIXED or out[a, MIXED, 0]) and not (mode == MIXED and clear[a]):
                _, reached = bfs(
                    a, np.int64(1), weak, n_weak, strong, n_strong, n, mode, parent, dist, queue, np.bool_(False)
                )
                q, nodes = _contradiction(parent, dist, queue, reached)
                if q >= 0:
                    out[a, mode, 0] = nodes
                    target[a, mode] = q
                elif mode == MIXED:
                    for i in range(reached):
                        if queue[i] & 1:
                            clear[queue[i] >> 1] = 1
            if n_strong[a] == 0 or (mode != MIXED and not out[a, MIXED, 2]):
                continue  # a cycle comes back by a strong link (they go both ways): 60% of candidates have none
            close, _ = bfs(a, np.int64(1), weak, n_weak, strong, n_strong, n, mode, parent, dist, queue, np.bool_(True))
            if close >= 0:
                out[a, mode, 2] = dist[close] + 1
