"""numba kernel of the unique loops (:mod:`sudokit.logic.unique_loops`).

:func:`loops_of` replays the finder's depth-first walk for one digit pair and lists the loops it meets, in the
order the finder takes them; Python tries each for a step and writes the first one out."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def loops_of(cands, cells, units_of, seen, xy, sizes, max_extra, n_units):
    """The loops of ``sizes`` cells on the digit pair ``xy`` (a mask) among ``cells`` (the empty cells holding
    both digits, ascending): cells joined in a cycle, each sharing a unit with the next, meeting every unit in
    two cells or none, with at most ``max_extra`` cells holding more than ``xy``. Each loop once, as its cells
    ascending, shortest first, then in the order a walk from each cell in turn (to later cells, neighbours in
    cell order) closes it. Returns ``(n_loops, max(sizes))`` padded with -1."""
    n = cells.shape[0]
    width = 0
    for size in sizes:
        width = max(width, size)
    found = []  # cells of each loop, padded to width
    count = np.zeros(n_units, dtype=np.int64)
    path = np.empty(width, dtype=np.int64)
    extra = np.empty(width, dtype=np.int64)
    nxt = np.empty(width, dtype=np.int64)
    in_path = np.zeros(n, dtype=np.bool_)
    key = np.empty(width, dtype=np.int64)
    for size in sizes:
        if size > n:
            break
        first = len(found) // width  # loops of this size start here (dedup among them)
        for s0 in range(n):
            depth = 0
            path[0] = s0
            extra[0] = 1 if cands[cells[s0]] != xy else 0
            nxt[0] = 0
            in_path[s0] = True
            for u in units_of[cells[s0]]:
                if u >= 0:
                    count[u] += 1
            while depth >= 0:
                end = path[depth]
                step_in = False
                if depth + 1 < size:
                    while nxt[depth] < n:
                        t = nxt[depth]
                        nxt[depth] += 1
                        if t < s0 or in_path[t] or not seen[cells[end], cells[t]]:
                            continue
                        more = extra[depth] + (1 if cands[cells[t]] != xy else 0)
                        if more > max_extra:
                            continue
                        full = False
                        for u in units_of[cells[t]]:
                            if u >= 0 and count[u] >= 2:
                                full = True
                        if full:
                            continue
                        for u in units_of[cells[t]]:
                            if u >= 0:
                                count[u] += 1
                        depth += 1
                        path[depth] = t
                        extra[depth] = more
                        nxt[depth] = 0
                        in_path[t] = True
                        step_in = True
                        break
                elif seen[cells[s0], cells[end]]:
                    closed = True
                    for i in range(size):
                        for u in units_of[cells[path[i]]]:
                            if u >= 0 and count[u] != 2:
                                closed = False
                    if closed:
                        for i in range(size):
                            key[i] = cells[path[i]]
                        key[:size].sort()
                        new = True
                        for j in range(first, len(found) // width):
                            same = True
                            for i in range(size):
                                if found[j * width + i] != key[i]:
                                    same = False
                                    break
                            if same:
                                new = False
                                break
                        if new:
                            for i in range(width):
                                found.append(key[i] if i < size else -1)
                if not step_in:
                    for u in units_of[cells[end]]:
                        if u >= 0:
                            count[u] -= 1
                    in_path[end] = False
                    depth -= 1
    n_found = len(found) // width
    out = np.empty((n_found, width), dtype=np.int64)  # filled by hand: reshape costs compile time
    for j in range(n_found):
        for i in range(width):
            out[j, i] = found[j * width + i]
    return out
