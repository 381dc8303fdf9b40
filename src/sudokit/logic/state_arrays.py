"""numba kernels for forcing chains, ALS-XZ and finned fish, and what every logic kernel module shares: the
geometry's tables, the state's arrays and small compiled helpers (imported lazily: numba is slow to import).

:func:`contradiction_search` follows every candidate's singles exactly as :func:`sudokit.logic.forcing.assume`
does (``locked=False``) and keeps the same iterative deepening, so it finds the same candidate with the same
count. The count of a contradiction depends on the order in which the changed units are searched for hidden
singles: both search them in ascending unit number (here a flag per unit, scanned from unit 0 up; in
``assume`` a bitmask, lowest bit first).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from sudokit.geometry import Geometry


@njit(cache=True)
def _assume(vals, c, units, units_of, peers, full, cell, digit, limit, queue, dirty):
    """``forcing.assume(state, cell, digit, locked=False, limit)`` on arrays (changed in place):
    returns (still consistent, deductions made). ``dirty`` (uint8, one flag per unit) is scratch space."""
    n = units.shape[1]
    n_units = units.shape[0]
    queue[0, 0] = cell
    queue[0, 1] = digit
    qn = 1
    dirty[:] = 0
    n_dirty = 0
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
            n_dirty += _mark_units(dirty, units_of, s)
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
                    n_dirty += _mark_units(dirty, units_of, p)
                    if not m & (m - 1):
                        queue[qn, 0] = p
                        queue[qn, 1] = _bit_length(m)
                        qn += 1
        if n_dirty:
            # ascending unit number, like ``assume``'s bitmask; nothing is marked dirty during the scan
            n_dirty = 0
            for u in range(n_units):
                if not dirty[u]:
                    continue
                dirty[u] = 0
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
def _mark_units(dirty, units_of, s):
    """Flag the units holding cell ``s`` as touched (``units_of`` padded with -1); returns how many were not
    flagged yet."""
    new = 0
    for k in range(units_of.shape[1]):
        u = units_of[s, k]
        if u < 0:
            break
        if not dirty[u]:
            dirty[u] = 1
            new += 1
    return new


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
    dirty = np.zeros(units.shape[0], dtype=np.uint8)
    todo_cands = order.copy()
    n_todo = order.shape[0]
    best_s, best_d, best_made = -1, -1, -1
    for limit in limits:
        kept = 0
        for i in range(n_todo):
            s = todo_cands[i, 0]
            d = todo_cands[i, 1]
            for k in range(n_cells):  # a plain copy: slice assignment costs seconds of compiling
                vals[k] = values[k]
                c[k] = cands[k]
            ok, made = _assume(vals, c, units, units_of, peers, full, s, d, limit, queue, dirty)
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


def state_arrays(state) -> tuple[np.ndarray, np.ndarray]:
    """The state's values and candidate masks as int64 arrays for the kernels (made once per state; the
    kernels only read them)."""
    found = state.memo.get("arrays")
    if found is None:
        found = state.memo["arrays"] = (
            np.array(state.values, dtype=np.int64),
            np.array(state.cands, dtype=np.int64),
        )
    return found


def state_digit_words(state) -> np.ndarray:
    """:func:`digit_words` of the state's candidates (made once per state)."""
    found = state.memo.get("digit-words")
    if found is None:
        n_words = (state.g.n_cells + 63) // 64
        found = state.memo["digit-words"] = digit_words(state_arrays(state)[1], state.g.size, n_words)
    return found


@lru_cache(maxsize=32)
def box_of(g: Geometry) -> np.ndarray:
    """Each cell's box unit (-1 without boxes) as an int64 array."""
    from sudokit.logic.state import layout

    return np.array(layout(g).box_of, dtype=np.int64)


@lru_cache(maxsize=64)
def unit_sources(g: Geometry, lines: bool) -> np.ndarray:
    """The rows then the columns (``lines``), or every other unit in number order, as an int64 array (the
    units a single or a locked-candidates search starts from)."""
    from sudokit.logic.state import layout

    lay = layout(g)
    if lines:
        return np.array(lay.rows + lay.cols, dtype=np.int64)
    kept = set(lay.rows) | set(lay.cols)
    return np.array([u for u in range(len(g.units)) if u not in kept], dtype=np.int64)


@lru_cache(maxsize=64)
def single_ok(g: Geometry, where: str) -> np.ndarray:
    """For each unit, whether it may hold the hidden single of a "direct" step when ``where`` is ``"box"``
    (any unit but rows and columns), ``"line"`` (rows and columns) or ``"any"``."""
    lines = {u for u in range(len(g.units)) if g.unit_kind(u) in ("row", "column")}
    return np.array([where == "any" or (u in lines) == (where == "line") for u in range(len(g.units))])


@njit(cache=True)
def _any_and(a, b):
    for w in range(a.shape[0]):  # noqa: SIM110 - a plain loop compiles in numba
        if a[w] & b[w]:
            return True
    return False


@njit(cache=True)
def als_sets(cands, units, units_of, max_size, n_words):
    """``als.almost_locked_sets`` in compiled code, in the same order: for each unit, its sets of ``k`` empty
    cells (``k`` from 1 to ``max_size``, and below the unit's number of empty cells) with ``k + 1``
    candidates, in combination order; a set already listed under an earlier unit is left out. Returns (cells
    as rows of ``n_words`` 64-bit words, candidate masks, units, member cells padded with -1)."""
    n_units, size = units.shape
    empty = np.zeros(n_units, dtype=np.int64)
    for u in range(n_units):
        for s in units[u]:
            if cands[s]:
                empty[u] += 1
    found_cells = []
    found_mask = []
    found_unit = []
    pool = np.empty(size, dtype=np.int64)
    idx = np.empty(max_size, dtype=np.int64)
    for u in range(n_units):
        m = 0
        for s in units[u]:
            if cands[s]:
                pool[m] = s
                m += 1
        for k in range(1, min(max_size, m - 1) + 1):
            _first_combo(idx, k)
            while True:
                mask = _cells_union(cands, pool, idx, k)
                if _popcount(mask) == k + 1 and not _listed_before(units_of, empty, pool, idx, k, u, max_size):
                    for j in range(k):
                        found_cells.append(pool[idx[j]])
                    for _ in range(k, max_size):
                        found_cells.append(-1)
                    found_mask.append(mask)
                    found_unit.append(u)
                if not _next_combo(idx, k, m):
                    break
    n = len(found_mask)
    members = np.empty((n, max_size), dtype=np.int64)  # filled by hand: reshape costs seconds of compiling
    cells = np.zeros((n, n_words), dtype=np.uint64)
    for i in range(n):
        for j in range(max_size):
            s = found_cells[i * max_size + j]
            members[i, j] = s
            if s >= 0:
                cells[i, s >> 6] |= np.uint64(1) << np.uint64(s & 63)
    return cells, np.array(found_mask, dtype=np.int64), np.array(found_unit, dtype=np.int64), members


@njit(cache=True)
def _member(row, x):
    """Whether ``x`` is in ``row``, a row of a table padded with -1 (units of a cell, peers, cells of a unit)."""
    for t in row:
        if t < 0:
            return False
        if t == x:
            return True
    return False


@njit(cache=True)
def _listed_before(units_of, empty, pool, idx, k, u, max_size):
    """Whether an earlier unit than ``u`` holds the cells ``pool[idx[:k]]`` and lists sets of ``k`` cells."""
    for v in units_of[pool[idx[0]]]:
        if v < 0 or v >= u:
            break
        if k > min(max_size, empty[v] - 1):
            continue
        inside = True
        for j in range(1, k):
            if not _member(units_of[pool[idx[j]]], v):
                inside = False
                break
        if inside:
            return True
    return False


@njit(cache=True)
def _first_combo(idx, k):
    """Set ``idx`` to the first combination of ``k`` indices: 0, 1, ..., k - 1."""
    for j in range(k):
        idx[j] = j


@njit(cache=True)
def _cells_union(cands, cells, idx, k):
    """The candidates of the cells ``cells[idx[0]], ..., cells[idx[k - 1]]`` together (one combination's)."""
    union = 0
    for j in range(k):
        union |= cands[cells[idx[j]]]
    return union


@njit(cache=True)
def _two_places(cands, units, u, d):
    """The two cells of unit ``u`` where digit ``d`` (from 0) is a candidate, in unit order, or (-1, -1)
    when it has another number of places there."""
    first, second, count = -1, -1, 0
    for s in units[u]:
        if (cands[s] >> d) & 1:
            count += 1
            if count == 1:
                first = s
            elif count == 2:
                second = s
            else:
                return -1, -1
    return (first, second) if count == 2 else (-1, -1)


@njit(cache=True)
def _next_combo(idx, k, m):
    """Advance ``idx`` (``k`` increasing indices below ``m``) to the next combination in lexicographic order;
    False after the last one."""
    i = k - 1
    while i >= 0 and idx[i] == m - k + i:
        i -= 1
    if i < 0:
        return False
    idx[i] += 1
    for j in range(i + 1, k):
        idx[j] = idx[j - 1] + 1
    return True


@njit(cache=True)
def digit_words(cands, size, n_words):
    """The cells holding each digit as a candidate, as rows of ``n_words`` 64-bit words (row ``d`` for digit
    ``d``; row 0 empty)."""
    out = np.zeros((size + 1, n_words), dtype=np.uint64)
    for s in range(cands.shape[0]):
        m = cands[s]
        for d in range(size):
            if (m >> d) & 1:
                out[d + 1, s >> 6] |= np.uint64(1) << np.uint64(s & 63)
    return out


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


@njit(cache=True)
def finned_hits(spans, slots, k, cap, bands, span_all, g_first, g_len):
    """The line combinations of a finned ``k``-fish search that can give a step, in the order of
    :func:`sudokit.logic.fish._finned_on`: ``k``-combinations of the candidate base lines (``spans``: their
    cover indices as bitsets; ``slots``: the bit of each line's place among all base lines) whose union has
    at most ``cap`` bits (a branch stops as soon as it grows too big), more than ``k`` bits, and a cover band
    where fins can share a box and remove something (``fish._fin_bands``). ``span_all``: the cover indices
    of every base line; ``g_first``/``g_len``: each band of boxes as a run of base lines.

    Returns a flat list: for each hit, its ``k`` line indices, its union and the bitmask of its bands."""
    ng = g_first.shape[0]
    width = 1
    for gi in range(ng):
        if (1 << g_len[gi]) > width:
            width = 1 << g_len[gi]
    tab_in = np.zeros((ng, width), dtype=np.int64)
    tab_out = np.zeros((ng, width), dtype=np.int64)
    for gi in range(ng):
        for m in range(1 << g_len[gi]):
            s_in = 0
            s_out = 0
            for j in range(g_len[gi]):
                if m >> j & 1:
                    s_in |= span_all[g_first[gi] + j]
                else:
                    s_out |= span_all[g_first[gi] + j]
            tab_in[gi, m] = s_in
            tab_out[gi, m] = s_out
    out = [np.int64(0) for _ in range(0)]
    n = spans.shape[0]
    at = np.zeros(max(k, 1), dtype=np.int64)
    below = np.zeros(max(k, 1), dtype=np.int64)  # union of the lines chosen above each depth
    inside = np.zeros(ng, dtype=np.int64)
    outside = np.zeros(ng, dtype=np.int64)
    depth = 0 if n >= k else -1
    while depth >= 0:
        i = at[depth]
        if i > n - k + depth:
            depth -= 1
            if depth >= 0:
                at[depth] += 1
            continue
        joined = below[depth] | spans[i]
        if _popcount(joined) > cap:
            at[depth] += 1
            continue
        if depth < k - 1:
            below[depth + 1] = joined
            depth += 1
            at[depth] = i + 1
            continue
        union = joined
        if _popcount(union) > k:
            chosen = slots[i]
            for j in range(depth):
                chosen |= slots[at[j]]
            for gi in range(ng):
                m = chosen >> g_first[gi] & ((1 << g_len[gi]) - 1)
                inside[gi] = tab_in[gi, m]
                outside[gi] = tab_out[gi, m]
            found = 0
            for bi in range(bands.shape[0]):
                band_mask = bands[bi]
                required = union & ~band_mask
                if _popcount(required) > k:
                    continue
                for b in range(ng):
                    if not inside[b] & band_mask:
                        continue
                    elim = outside[b] & band_mask & union
                    if not elim:
                        continue
                    must = required
                    for other in range(ng):
                        if other != b:
                            must |= inside[other] & band_mask
                    nm = _popcount(must)
                    if nm <= k and (must & elim or nm < k):
                        found |= 1 << bi
                        break
            if found:
                for j in range(depth):
                    out.append(at[j])
                out.append(i)
                out.append(union)
                out.append(found)
        at[depth] += 1
    return out
