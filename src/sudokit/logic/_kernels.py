"""numba kernels for the forcing-chain search (imported lazily: numba is slow to import).

:func:`contradiction_search` follows every candidate's singles exactly as :func:`sudokit.logic.forcing.assume`
does (``locked=False``) and keeps the same iterative deepening, so it finds the same candidate with the same
count. The count of a contradiction depends on the order in which the changed units are searched for hidden
singles, which in ``assume`` is the iteration order of a Python ``set`` of unit numbers; :class:`_set_*`
below reproduces CPython's set table (open addressing, linear probes then perturbation, resizing) for small
non-negative ints so the kernel visits units in the very same order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokit.geometry import Geometry

_LINEAR_PROBES = 9
_PERTURB_SHIFT = 5
_MIN_SIZE = 8
_EMPTY = -1


@njit(cache=True)
def _set_insert_clean(table, mask, key):
    perturb = key
    i = key & mask
    while True:
        if table[i] == _EMPTY:
            table[i] = key
            return
        if i + _LINEAR_PROBES <= mask:
            for j in range(1, _LINEAR_PROBES + 1):
                if table[i + j] == _EMPTY:
                    table[i + j] = key
                    return
        perturb >>= _PERTURB_SHIFT
        i = (i * 5 + 1 + perturb) & mask


@njit(cache=True)
def _set_add(table, state, key):
    """Add ``key`` (a small non-negative int, its own hash) to the emulated set. ``state`` holds
    [mask, used]; ``table`` has room for the largest table the set can reach. No deletions, so fill == used."""
    mask = state[0]
    i = key & mask
    perturb = key
    while True:
        probes = _LINEAR_PROBES if i + _LINEAR_PROBES <= mask else 0
        j = i
        while True:
            v = table[j]
            if v == _EMPTY:
                table[j] = key
                state[1] += 1
                used = state[1]
                if used * 5 < mask * 3:
                    return
                # resize to the smallest power of two above used * 4 (used * 2 past 50000, never here)
                new_size = _MIN_SIZE
                while new_size <= used * 4:
                    new_size <<= 1
                old = table[: mask + 1].copy()
                table[:new_size] = _EMPTY
                for x in old:
                    if x != _EMPTY:
                        _set_insert_clean(table, new_size - 1, x)
                state[0] = new_size - 1
                return
            if v == key:
                return
            if probes == 0:
                break
            probes -= 1
            j += 1
        perturb >>= _PERTURB_SHIFT
        i = (i * 5 + 1 + perturb) & mask


@njit(cache=True)
def _set_clear(table, state):
    table[: state[0] + 1] = _EMPTY
    state[0] = _MIN_SIZE - 1
    state[1] = 0


@njit(cache=True)
def set_order(keys):
    """Iteration order of ``set()`` updated with ``keys`` in turn (for tests against CPython)."""
    table = np.full(_table_room(int(keys.max()) + 1 if len(keys) else 1), _EMPTY, dtype=np.int64)
    state = np.array([_MIN_SIZE - 1, 0], dtype=np.int64)
    for k in keys:
        _set_add(table, state, k)
    out = []
    for i in range(state[0] + 1):
        if table[i] != _EMPTY:
            out.append(table[i])
    return np.array(out, dtype=np.int64)


@njit(cache=True)
def _table_room(n_keys):
    size = _MIN_SIZE
    while size <= n_keys * 4:
        size <<= 1
    return size


@njit(cache=True)
def _assume(vals, c, units, units_of, peers, full, cell, digit, limit, queue, table, state, todo):
    """``forcing.assume(state, cell, digit, locked=False, limit)`` on arrays (changed in place):
    returns (still consistent, deductions made)."""
    n = units.shape[1]
    qn = 0
    queue[0, 0] = cell
    queue[0, 1] = digit
    qn = 1
    _set_clear(table, state)
    made = 0
    while made < limit:
        while qn:
            qn -= 1
            s = queue[qn, 0]
            d = queue[qn, 1]
            if vals[s]:
                if vals[s] != d:
                    return False, made
                continue
            bit = np.int64(1) << (d - 1)
            if not c[s] & bit:
                return False, made
            vals[s] = d
            c[s] = 0
            made += 1
            for k in range(units_of.shape[1]):
                u = units_of[s, k]
                if u < 0:
                    break
                _set_add(table, state, u)
            off = ~bit
            for k in range(peers.shape[1]):
                p = peers[s, k]
                if p < 0:
                    break
                m = c[p]
                if m & bit:
                    m &= off
                    c[p] = m
                    if not m:
                        return False, made
                    for j in range(units_of.shape[1]):
                        u = units_of[p, j]
                        if u < 0:
                            break
                        _set_add(table, state, u)
                    if not m & (m - 1):
                        queue[qn, 0] = p
                        queue[qn, 1] = _bit_length(m)
                        qn += 1
        if state[1]:
            nt = 0
            for i in range(state[0] + 1):
                if table[i] != _EMPTY:
                    todo[nt] = table[i]
                    nt += 1
            _set_clear(table, state)
            for t in range(nt):
                u = todo[t]
                once = np.int64(0)
                more = np.int64(0)
                placed = np.int64(0)
                for k in range(n):
                    s = units[u, k]
                    m = c[s]
                    more |= once & m
                    once |= m
                    if vals[s]:
                        placed |= np.int64(1) << (vals[s] - 1)
                if (once | placed) != full:
                    return False, made
                only = once & ~more & ~placed
                while only:
                    bit = only & -only
                    only ^= bit
                    for k in range(n):
                        s = units[u, k]
                        if c[s] & bit:
                            queue[qn, 0] = s
                            queue[qn, 1] = _bit_length(bit)
                            qn += 1
                            break
            if qn:
                continue
        return True, made
    return True, made


@njit(cache=True)
def _bit_length(m):
    n = 0
    while m:
        m >>= 1
        n += 1
    return n


@njit(cache=True)
def contradiction_search(values, cands, units, units_of, peers, full, order, limits):
    """``forcing._contradiction`` without locked candidates: (cell, digit, made) of the best contradiction
    over the candidates ``order`` ((cell, digit) rows), or (-1, -1, -1)."""
    n_cells = values.shape[0]
    vals = np.empty_like(values)
    c = np.empty_like(cands)
    queue = np.empty((n_cells * (units.shape[1] + peers.shape[1] + 2), 2), dtype=np.int64)
    room = _table_room(units.shape[0])
    table = np.full(room, _EMPTY, dtype=np.int64)
    state = np.array([_MIN_SIZE - 1, 0], dtype=np.int64)
    todo = np.empty(units.shape[0], dtype=np.int64)
    todo_cands = order.copy()
    n_todo = order.shape[0]
    best_s, best_d, best_made = -1, -1, -1
    for limit in limits:
        kept = 0
        for i in range(n_todo):
            s = todo_cands[i, 0]
            d = todo_cands[i, 1]
            vals[:] = values
            c[:] = cands
            ok, made = _assume(vals, c, units, units_of, peers, full, s, d, limit, queue, table, state, todo)
            if not ok and (best_s < 0 or made < best_made):
                best_s, best_d, best_made = s, d, made
            if not ok or made >= limit:
                todo_cands[kept, 0] = s
                todo_cands[kept, 1] = d
                kept += 1
        if best_s >= 0:
            break
        n_todo = kept
    return best_s, best_d, best_made


_TABLES: dict[int, tuple] = {}


def tables(g: Geometry) -> tuple:
    """(units, units_of padded with -1, peers padded with -1, all-digits mask) as int64 arrays for ``g``."""
    key = id(g)
    hit = _TABLES.get(key)
    if hit is not None and hit[0] is g:
        return hit[1]
    units = np.array(g.units, dtype=np.int64)
    width = max(len(x) for x in g.units_of)
    units_of = np.full((g.n_cells, width), -1, dtype=np.int64)
    for s, us in enumerate(g.units_of):
        units_of[s, : len(us)] = us
    width = max(len(x) for x in g.peers)
    peers = np.full((g.n_cells, width), -1, dtype=np.int64)
    for s, ps in enumerate(g.peers):
        peers[s, : len(ps)] = ps
    out = (units, units_of, peers, g.all_mask)
    _TABLES[key] = (g, out)
    return out


@njit(cache=True)
def _any_and(a, b):
    for w in range(a.shape[0]):  # noqa: SIM110 - a plain loop compiles in numba
        if a[w] & b[w]:
            return True
    return False


@njit(cache=True)
def als_xz_search(als_cells, als_mask, digit_cells, peers, size):
    """``als.als_xz``'s search over pairs of almost locked sets, in the same order: (i, j, x, z) of the first
    pair (``i < j``) with a restricted common digit ``x`` and a digit ``z`` they remove, or (-1, -1, -1, -1).

    Cell sets are rows of ``W`` 64-bit words: ``als_cells`` (n_als, W), ``digit_cells`` (size + 1, W) the
    cells holding each digit as a candidate, ``peers`` (n_cells, W)."""
    n_als, words = als_cells.shape
    hold = np.zeros((n_als, size + 1, words), dtype=np.uint64)
    see = np.zeros((n_als, size + 1, words), dtype=np.uint64)
    for i in range(n_als):
        for d in range(1, size + 1):
            if not (als_mask[i] >> (d - 1)) & 1:
                continue
            for w in range(words):
                hold[i, d, w] = digit_cells[d, w] & als_cells[i, w]
                see[i, d, w] = ~np.uint64(0)
            for w in range(words):
                x = hold[i, d, w]
                while x:
                    low = x & (~x + np.uint64(1))
                    cell = w * 64 + _bit_length_u(low) - 1
                    for v in range(words):
                        see[i, d, v] &= peers[cell, v]
                    x ^= low
    for i in range(n_als):
        ma = als_mask[i]
        for j in range(i + 1, n_als):
            common = ma & als_mask[j]
            if _popcount(common) < 2 or _any_and(als_cells[i], als_cells[j]):
                continue
            for x in range(1, size + 1):
                if not (common >> (x - 1)) & 1:
                    continue
                restricted = True
                for w in range(words):
                    if hold[j, x, w] & ~see[i, x, w]:
                        restricted = False
                        break
                if not restricted:
                    continue
                for z in range(1, size + 1):
                    if z == x or not (common >> (z - 1)) & 1:
                        continue
                    for w in range(words):
                        if digit_cells[z, w] & see[i, z, w] & see[j, z, w] & ~als_cells[i, w] & ~als_cells[j, w]:
                            return i, j, x, z
    return -1, -1, -1, -1


@njit(cache=True)
def _popcount(m):
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


@njit(cache=True)
def _bit_length_u(m):
    n = 0
    while m:
        m >>= np.uint64(1)
        n += 1
    return n


def words(bits: int, n_words: int) -> list[int]:
    """A Python int bitset as ``n_words`` 64-bit words, lowest first."""
    return [(bits >> (64 * w)) & 0xFFFFFFFFFFFFFFFF for w in range(n_words)]
