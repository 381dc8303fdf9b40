"""numba kernel of the strong-link chains on one digit (:mod:`sudokit.logic.strong_links`).

:func:`chain_search` builds the finder's graph of one digit (nodes in the order the units meet them, each
node's links by the other end's number) and replays its depth-first search for chains of every length asked
at once; it returns only the chains chosen, which Python writes out. Cell sets are rows of ``W`` 64-bit words."""

from __future__ import annotations

import numpy as np
from numba import njit

#: most cells in a node (a group lies in one box and one line; a unit's places split in two nodes only when
#: there are at most 6)
NODE_CELLS = 6


@njit(cache=True)
def _split_is_node(where, n, mask, take, row_of, col_of, box_of):
    """Whether the places ``where[i]`` with bit ``i`` of ``mask`` equal to ``take`` are one cell or lie in one
    box and one line."""
    first = -1
    count = 0
    same_box = True
    same_row = True
    same_col = True
    for i in range(n):
        if ((mask >> i) & 1) != take:
            continue
        s = where[i]
        count += 1
        if first < 0:
            first = s
            continue
        same_box = same_box and box_of[s] == box_of[first]
        same_row = same_row and row_of[s] == row_of[first]
        same_col = same_col and col_of[s] == col_of[first]
    return count == 1 or (same_box and (same_row or same_col))


@njit(cache=True)
def _node(cells, lens, n_nodes, where, n, mask, take, pick):
    """The index of the node made of the places of ``where`` picked by ``mask`` / ``take`` (in their order),
    added when new (``pick``: scratch). Returns (index, new number of nodes)."""
    count = 0
    for i in range(n):
        if ((mask >> i) & 1) == take:
            pick[count] = where[i]
            count += 1
    for j in range(n_nodes):
        if lens[j] != count:
            continue
        same = True
        for i in range(count):
            if cells[j, i] != pick[i]:
                same = False
                break
        if same:
            return j, n_nodes
    lens[n_nodes] = count
    for i in range(count):
        cells[n_nodes, i] = pick[i]
    return n_nodes, n_nodes + 1


@njit(cache=True)
def chain_search(cands, units, line, row_of, col_of, box_of, boxes, peer_words, holders, d, want, k_hi, grouped):
    """The lowest-rated chain of ``k`` strong links on digit ``d`` (from 1) that removes something, for every
    length ``k`` of the mask ``want`` (bit ``k``, at most ``k_hi``), as the finder searches each: nodes are
    cells, and with ``grouped`` also groups; a link is a unit where the digit's places are exactly two nodes
    (``line[u]``: 0 for a row, 1 for a column, 2 for any other unit; a pair in a line and in another unit is a
    line link). One depth-first search serves every length: it meets the trails of ``k`` links in the order a
    search cut at depth ``k`` meets them, checks each when it reaches it, and a length stops taking chains
    where its own search would stop. Returns, indexed by length, (extra rating in tenths: 0-2 by the link
    kinds, 3 with a group, -1 when there is no chain; the cells of nodes x1 y1 ... xk yk, padded with -1; the
    links' units; the cells that lose ``d`` as words)."""
    n_units, size = units.shape
    n_words = holders.shape[0]
    bit = 1 << (d - 1)
    counts = np.zeros(n_units, dtype=np.int64)
    cap = 0  # links at most: one per unit with two places, one per split of 3 to 6 places
    for u in range(n_units):
        for s in units[u]:
            if s >= 0 and cands[s] & bit:
                counts[u] += 1
        n = counts[u]
        if n == 2:
            cap += 1
        elif n > 2 and n <= NODE_CELLS and boxes and grouped:
            cap += (1 << (n - 1)) - 1
    cells = -np.ones((2 * cap, NODE_CELLS), dtype=np.int64)  # np.full and slices cost seconds of compiling
    lens = np.zeros(2 * cap, dtype=np.int64)
    # np.int64(...): a constant (or a loop variable set to one first) would compile the callee again for it
    n_nodes = np.int64(0)
    link_x = np.empty(cap, dtype=np.int64)
    link_y = np.empty(cap, dtype=np.int64)
    link_u = np.empty(cap, dtype=np.int64)
    n_links = 0
    where = np.empty(size, dtype=np.int64)
    pick = np.empty(NODE_CELLS, dtype=np.int64)
    for u in range(n_units):
        n = counts[u]
        if n < 2 or n > NODE_CELLS or (n > 2 and not (boxes and grouped)):
            continue  # with more than two places one node of a split is a group
        n = np.int64(0)
        for s in units[u]:
            if s >= 0 and cands[s] & bit:
                where[n] = s
                n += 1
        for mask in range(1, 1 << (n - 1)):  # the last place always in the second node: each split once
            if n > 2:
                if not _split_is_node(where, n, mask, np.int64(1), row_of, col_of, box_of):
                    continue
                if not _split_is_node(where, n, mask, np.int64(0), row_of, col_of, box_of):
                    continue
            i, n_nodes = _node(cells, lens, n_nodes, where, n, mask, np.int64(1), pick)
            j, n_nodes = _node(cells, lens, n_nodes, where, n, mask, np.int64(0), pick)
            link_x[n_links] = i
            link_y[n_links] = j
            link_u[n_links] = u
            n_links += 1
    links = -np.ones((n_nodes, n_nodes), dtype=np.int64)
    for t in range(n_links):
        i, j, u = link_x[t], link_y[t], link_u[t]
        if links[i, j] < 0 or line[links[i, j]] == 2:
            links[i, j] = u
        if links[j, i] < 0 or line[links[j, i]] == 2:
            links[j, i] = u
    path = -np.ones((k_hi + 1, 2 * k_hi, NODE_CELLS), dtype=np.int64)
    path_units = -np.ones((k_hi + 1, k_hi), dtype=np.int64)
    elim = np.zeros((k_hi + 1, n_words), dtype=np.uint64)
    best = -np.ones(k_hi + 1, dtype=np.int64)
    starts = np.zeros(n_nodes, dtype=np.bool_)
    for x in range(n_nodes):
        for y in range(n_nodes):
            if links[x, y] >= 0:
                starts[x] = True
                break
    n_starts = 0
    for x in range(n_nodes):
        if starts[x]:
            n_starts += 1
    done = np.ones(k_hi + 1, dtype=np.bool_)  # per length: not wanted, or its chain chosen for good
    need = 0  # the longest length not done: the depth the search goes to
    for k in range(2, k_hi + 1):
        if (want >> k) & 1 and n_starts >= 2 * k - (k if grouped else 0):
            done[k] = False
            need = k
    if need == 0:
        return best, path, path_units, elim
    mask = np.zeros((n_nodes, n_words), dtype=np.uint64)
    seen = np.empty((n_nodes, n_words), dtype=np.uint64)
    group = np.zeros(n_nodes, dtype=np.bool_)
    for x in range(n_nodes):
        group[x] = lens[x] > 1
        for w in range(n_words):
            seen[x, w] = ~np.uint64(0)
        for i in range(lens[x]):
            s = cells[x, i]
            mask[x, s >> 6] |= np.uint64(1) << np.uint64(s & 63)
            for w in range(n_words):
                seen[x, w] &= peer_words[s, w]
    # each node's links by the other end's number, and the starts whose cells all see a node's cells, as lists
    adj_ptr = np.zeros(n_nodes + 1, dtype=np.int64)
    adj_y = np.empty(n_nodes * n_nodes, dtype=np.int64)
    adj_u = np.empty(n_nodes * n_nodes, dtype=np.int64)
    n_adj = 0
    for x in range(n_nodes):
        for y in range(n_nodes):
            if links[x, y] >= 0:
                adj_y[n_adj] = y
                adj_u[n_adj] = links[x, y]
                n_adj += 1
        adj_ptr[x + 1] = n_adj
    near_ptr = np.zeros(n_nodes + 1, dtype=np.int64)
    near_x = np.empty(n_nodes * n_nodes, dtype=np.int64)
    n_near = 0
    for e in range(n_nodes):
        for x in range(n_nodes):
            if starts[x]:
                inside = True
                for w in range(n_words):
                    if mask[x, w] & ~seen[e, w]:
                        inside = False
                        break
                if inside:
                    near_x[n_near] = x
                    n_near += 1
        near_ptr[e + 1] = n_near
    trail = np.empty(2 * k_hi, dtype=np.int64)
    trail_units = np.empty(k_hi, dtype=np.int64)
    used = np.zeros((k_hi + 1, n_words), dtype=np.uint64)
    next_x = np.zeros(k_hi + 1, dtype=np.int64)  # per depth: the next entry of the end's near list
    next_y = np.zeros(k_hi + 1, dtype=np.int64)  # per depth: the next entry of that start's links
    stop = False
    for x0 in range(n_nodes):
        for a0 in range(adj_ptr[x0], adj_ptr[x0 + 1]):
            y0 = adj_y[a0]
            trail[0] = x0
            trail[1] = y0
            trail_units[0] = adj_u[a0]
            for w in range(n_words):
                used[1, w] = mask[x0, w] | mask[y0, w]
            depth = 1
            next_x[1] = near_ptr[y0]
            next_y[1] = -1
            arrived = True
            while depth >= 1:
                if arrived and not done[depth]:  # a chain of ``depth`` links: the row of that length's check
                    k = depth
                    first, end = trail[0], trail[2 * k - 1]
                    found = False
                    for w in range(n_words):
                        if holders[w] & seen[first, w] & seen[end, w] & ~used[k, w]:
                            found = True
                    if found:
                        extra = 0
                        has_group = False
                        for i in range(2 * k):
                            has_group = has_group or group[trail[i]]
                        if has_group:
                            extra = 3
                        else:
                            rows = cols = other = False
                            for i in range(k):
                                kind = line[trail_units[i]]
                                rows = rows or kind == 0
                                cols = cols or kind == 1
                                other = other or kind == 2
                            if not other and not (rows and cols):
                                extra = 0
                            elif other and rows and cols:
                                extra = 2
                            else:
                                extra = 1
                        if best[k] < 0 or extra < best[k]:
                            best[k] = extra
                            for i in range(2 * k):
                                for c in range(NODE_CELLS):
                                    path[k, i, c] = cells[trail[i], c]
                            for i in range(k):
                                path_units[k, i] = trail_units[i]
                            for w in range(n_words):
                                elim[k, w] = holders[w] & seen[first, w] & seen[end, w] & ~used[k, w]
                        if grouped or extra == 0:
                            done[k] = True
                            while need > 0 and done[need]:
                                need -= 1
                            if need == 0:
                                stop = True
                                break
                arrived = False
                if depth >= need:
                    depth -= 1
                    continue
                end = trail[2 * depth - 1]
                advanced = False
                while next_x[depth] < near_ptr[end + 1]:
                    x = near_x[next_x[depth]]
                    if next_y[depth] < 0:  # a new start: is it free?
                        free_x = True
                        for w in range(n_words):
                            if used[depth, w] & mask[x, w]:
                                free_x = False
                                break
                        next_y[depth] = adj_ptr[x] if free_x else adj_ptr[x + 1]
                    while next_y[depth] < adj_ptr[x + 1]:
                        a = next_y[depth]
                        next_y[depth] += 1
                        y = adj_y[a]
                        clash = False
                        for w in range(n_words):
                            if used[depth, w] & mask[y, w]:
                                clash = True
                                break
                        if clash:
                            continue
                        trail[2 * depth] = x
                        trail[2 * depth + 1] = y
                        trail_units[depth] = adj_u[a]
                        for w in range(n_words):
                            used[depth + 1, w] = used[depth, w] | mask[x, w] | mask[y, w]
                        advanced = True
                        break
                    if advanced:
                        break
                    next_x[depth] += 1
                    next_y[depth] = -1
                if advanced:
                    depth += 1
                    next_x[depth] = near_ptr[trail[2 * depth - 1]]
                    next_y[depth] = -1
                    arrived = True
                else:
                    depth -= 1
            if stop:
                break
        if stop:
            break
    return best, path, path_units, elim


@njit(cache=True)
def best_chains(cands, units, line, row_of, col_of, box_of, boxes, peer_words, digit_words, skip, want, k_hi, grouped):
    """:func:`chain_search` on every digit not in the mask ``skip`` (bit ``d - 1``), in order: per length ``k``
    of the mask ``want`` (bit ``k``), the lowest-rated chain (the lowest digit among equals). Returns, indexed
    by length: the digit (-1 when none has a chain), then as :func:`chain_search`, and the mask of the digits
    searched that have no chain of that length."""
    size = digit_words.shape[0] - 1
    best_d = -np.ones(k_hi + 1, dtype=np.int64)
    best_extra = -np.ones(k_hi + 1, dtype=np.int64)
    empty = np.zeros(k_hi + 1, dtype=np.int64)
    best_path = -np.ones((k_hi + 1, 2 * k_hi, NODE_CELLS), dtype=np.int64)
    best_units = -np.ones((k_hi + 1, k_hi), dtype=np.int64)
    best_elim = np.zeros((k_hi + 1, digit_words.shape[1]), dtype=np.uint64)
    for d in range(1, size + 1):
        if (skip >> (d - 1)) & 1:
            continue
        extra, path, path_units, elim = chain_search(
            cands, units, line, row_of, col_of, box_of, boxes, peer_words, digit_words[d], d, want, k_hi, grouped
        )
        for k in range(2, k_hi + 1):
            if not (want >> k) & 1:
                continue
            if extra[k] < 0:
                empty[k] |= 1 << (d - 1)
            elif best_d[k] < 0 or extra[k] < best_extra[k]:
                best_d[k], best_extra[k] = d, extra[k]
                best_path[k] = path[k]
                best_units[k] = path_units[k]
                best_elim[k] = elim[k]
    return best_d, best_extra, best_path, best_units, best_elim, empty
