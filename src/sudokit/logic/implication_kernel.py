"""numba kernel of Sudoku Explainer's implications, shared by Nishio (:mod:`sudokit.logic.nishio`), the
multiple forcing chains (:mod:`sudokit.logic.multiple_forcing`) and the dynamic forcing chains
(:mod:`sudokit.logic.dynamic_forcing`).

A node is a candidate (``cell * n + digit - 1``) on or off, numbered ``2 * candidate + on``. :func:`follow`
follows what a set of start nodes implies, breadth first (every pending *on* node before the next *off* one):

- a candidate on turns off its digit in the cell's peers and (unless ``x_only``) the cell's other digits;
- a candidate off turns on the other candidate of its cell when the cell had two left (unless ``x_only``), and
  the other place of its digit in a unit where the digit had two places left.

*Static* (``dynamic`` False): "left" means in the grid the chain starts from, and an implication has one
cause. *Dynamic*: each candidate turned off leaves the grid as it is followed, so later implications see it
gone; an *on* then has as causes every candidate of its cell (or its digit's places in the unit) turned off
so far. A *contradiction* is a candidate reached both on and off; following stops at the first one.

The length of a conclusion, as SE counts it, is its number of ancestors (itself included), see
:func:`ancestors`.
"""

from __future__ import annotations

import threading

import numpy as np
from numba import njit

from sudokit.bits import low_bit, lowest_bit

#: most causes one implication records (a cell's other candidates or a unit's other places)
MAX_CAUSES = 16


def scratch(n_cells: int, n: int, n_units: int):
    """Work arrays of :func:`follow` on ``n_cells`` cells of ``n`` digits in ``n_units`` units: reached flags,
    causes and their count, the two queues, the candidate masks as the chain changes them, and each digit's
    number of places in each unit and the exclusive or of those cells as the chain changes them (rows of
    :func:`places`)."""
    nodes = 2 * n_cells * n
    return (
        np.zeros(nodes, dtype=np.uint8),
        np.full((nodes, MAX_CAUSES), -1, dtype=np.int64),
        np.zeros(nodes, dtype=np.int64),
        np.empty(nodes, dtype=np.int64),
        np.empty(nodes, dtype=np.int64),
        np.empty(n_cells, dtype=np.int64),
        np.empty((2, n_units * n), dtype=np.int64),
    )


@njit(cache=True, error_model="numpy")
def places(cands, units, n, out):
    """Fill ``out`` (two rows of ``units * n``): row 0 the number of places of each digit in each unit
    (``unit * n + digit``), row 1 the exclusive or of those cells, so that a unit's other place of a digit
    with two is ``row 1 ^ cell`` without scanning the unit."""
    out[:] = 0
    for u in range(units.shape[0]):
        for t in units[u]:
            m = cands[t]
            for d in range(n):
                if (m >> d) & 1:
                    out[0, u * n + d] += 1
                    out[1, u * n + d] ^= t


@njit(cache=True, error_model="numpy", inline="always")
def _reach(node, cause, reached, bits, causes, n_causes, queue, tail):
    reached[node] = 1
    bits[node >> 6] |= np.uint64(1) << np.uint64(node & 63)
    causes[node, 0] = cause
    n_causes[node] = 1 if cause >= 0 else 0
    queue[tail] = node
    return tail + 1


@njit(cache=True, error_model="numpy", inline="always")
def _clash(b, node, causes, n_causes):
    """The candidate of off node ``b``, found on already when ``node`` turns it off: ``b``'s cause is recorded
    (it is not reached), so that the contradiction's off end counts its chain as SE counts it."""
    causes[b, 0] = node
    n_causes[b] = 1
    return b >> 1


@njit(cache=True, error_model="numpy")
def follow(
    starts,
    cands0,
    units,
    units_of,
    peers,
    n,
    dynamic,
    x_only,
    reached,
    bits,
    causes,
    n_causes,
    q_on,
    q_off,
    c,
    base,
    live,
):
    """Follow the start nodes. Fills ``reached`` (1 per node reached) and ``bits`` (the same as 64-bit words),
    ``causes`` / ``n_causes``; ``c`` is
    work space for the candidate masks, ``base`` the :func:`places` of ``cands0`` and ``live`` work space for
    them as the chain changes the masks. Returns the candidate reached both on and off first, or -1.

    ``n_causes`` is not cleared: it is read only for nodes this call reached (:func:`_reach` sets it) and for
    the off end of a contradiction (set where it is found), so clearing all of it (12 KB on a 9x9 grid, at
    every one of the few hundred calls a search makes) was a tenth of the forcing chains' time."""
    reached[:] = 0
    bits[:] = 0
    for s in range(cands0.shape[0]):  # a plain copy: ``cands0.copy()`` compiles an array constructor
        c[s] = cands0[s]
    tab = base
    if dynamic:
        for i in range(base.shape[1]):
            live[0, i] = base[0, i]
            live[1, i] = base[1, i]
        tab = live
    # np.int64(...): a constant (or a loop variable set to one first) would compile the callee again for it
    on_head = on_tail = off_head = off_tail = np.int64(0)
    for i in range(starts.shape[0]):
        node = starts[i]
        if reached[node ^ 1]:
            return node >> 1
        if node & 1:
            on_tail = _reach(node, np.int64(-1), reached, bits, causes, n_causes, q_on, on_tail)
        else:
            off_tail = _reach(node, np.int64(-1), reached, bits, causes, n_causes, q_off, off_tail)
    while on_head < on_tail or off_head < off_tail:
        if on_head < on_tail:
            node = q_on[on_head]
            on_head += 1
            a = node >> 1
            s, d = a // n, a % n
            grid = c[s] if dynamic else cands0[s]
            if not x_only:
                for e in range(n):
                    if e != d and (grid >> e) & 1:
                        b = 2 * (s * n + e)
                        if reached[b + 1]:
                            return _clash(b, node, causes, n_causes)
                        if not reached[b]:
                            off_tail = _reach(b, node, reached, bits, causes, n_causes, q_off, off_tail)
            for j in range(peers.shape[1]):
                p = peers[s, j]
                if p < 0:
                    break
                if ((c[p] if dynamic else cands0[p]) >> d) & 1:
                    b = 2 * (p * n + d)
                    if reached[b + 1]:
                        return _clash(b, node, causes, n_causes)
                    if not reached[b]:
                        off_tail = _reach(b, node, reached, bits, causes, n_causes, q_off, off_tail)
            continue
        node = q_off[off_head]
        off_head += 1
        a = node >> 1
        s, d = a // n, a % n
        bit = np.int64(1) << d
        grid = c[s] if dynamic else cands0[s]
        if not x_only and (grid & bit):
            rest = grid & ~bit
            if rest and not rest & (rest - 1):
                e = 0
                while not (rest >> e) & 1:
                    e += 1
                b = 2 * (s * n + e) + 1
                if reached[b - 1] or not reached[b]:
                    clash = reached[b - 1]
                    if clash:  # the new on's causes, as SE counts them, though it is not reached
                        causes[b, 0] = node
                        n_causes[b] = 1
                    else:
                        on_tail = _reach(b, node, reached, bits, causes, n_causes, q_on, on_tail)
                    if dynamic:  # every candidate of the cell turned off so far is a cause
                        k = 0
                        gone = cands0[s] & ~c[s]
                        for f in range(n):
                            if (gone >> f) & 1 and k < MAX_CAUSES - 1:
                                causes[b, 1 + k] = 2 * (s * n + f)
                                k += 1
                        n_causes[b] = 1 + k
                    if clash:
                        return b >> 1
        for j in range(units_of.shape[1]):
            u = units_of[s, j]
            if u < 0:
                break
            if tab[0, u * n + d] == 2 and (grid & bit):
                other = tab[1, u * n + d] ^ s
                b = 2 * (other * n + d) + 1
                if reached[b - 1] or not reached[b]:
                    clash = reached[b - 1]
                    if clash:  # the new on's causes, as SE counts them, though it is not reached
                        causes[b, 0] = node
                        n_causes[b] = 1
                    else:
                        on_tail = _reach(b, node, reached, bits, causes, n_causes, q_on, on_tail)
                    if dynamic:  # every place of the digit in the unit turned off so far is a cause
                        k = 0
                        for t in units[u]:
                            gone = (cands0[t] >> d) & 1 and not (c[t] >> d) & 1
                            if t != s and t != other and gone and k < MAX_CAUSES - 1:
                                causes[b, 1 + k] = 2 * (t * n + d)
                                k += 1
                        n_causes[b] = 1 + k
                    if clash:
                        return b >> 1
        if dynamic and c[s] & bit:
            c[s] &= ~bit
            for j in range(units_of.shape[1]):
                u = units_of[s, j]
                if u < 0:
                    break
                live[0, u * n + d] -= 1
                live[1, u * n + d] ^= s
    return -1


@njit(cache=True, error_model="numpy")
def ancestors(node, causes, n_causes, mark, stack):
    """The number of nodes ``node`` rests on, itself included (``mark``: zeroed scratch, left zeroed). The
    causes form a graph without cycles (a cause is reached before what it causes), so a run of nodes with one
    cause each is counted by walking it (all of a static chain's nodes have one), and only the nodes above the
    first with several causes are searched (none of them can be in the run below it)."""
    count = 0
    while n_causes[node] == 1:
        count += 1
        node = causes[node, 0]
    if n_causes[node] == 0:
        return count + 1
    top = 0
    stack[0] = node
    top = 1
    mark[node] = 1
    seen_top = 0
    while top:
        top -= 1
        x = stack[top]
        stack[stack.shape[0] - 1 - seen_top] = x  # remember to clear
        seen_top += 1
        count += 1
        for i in range(n_causes[x]):
            y = causes[x, i]
            if y >= 0 and not mark[y]:
                mark[y] = 1
                stack[top] = y
                top += 1
    for i in range(seen_top):
        mark[stack[stack.shape[0] - 1 - i]] = 0
    return count


#: kinds of conclusion :func:`best` finds
FALSE_ON, TRUE_OFF, DOUBLE, CELL, REGION = 0, 1, 2, 3, 4
#: SE's sort keys of its chaining hints, which break ties of length: double 1, cell 5, region 6, contradiction 7
SORT_KEY = (7, 7, 1, 5, 6)


#: rows of :func:`best`'s int64 work array (``ints``, from :func:`branches`): the two queues, the stack of
#: :func:`ancestors`, a cell's digits (or a unit's places), each digit's contradiction, the start node, each
#: cell's row among the places of a digit, the places of a digit, the candidate masks as a chain changes them
Q_ON, Q_OFF, STACK, SLOTS, CLASH, ONE, AT, HELD, GRID = range(9)
#: rows of its uint8 flags (``flags``): the marks of :func:`ancestors` (zeroed), each place of a digit followed
MARK, DONE = range(2)


#: each thread's :func:`branches`, kept for the next state: (cells, digits, units), rows for places, arrays
_kept = threading.local()


def branches(cands: np.ndarray, n: int, n_units: int, most: int | None = None):
    """Work arrays of :func:`best` for the candidate masks ``cands``: reached flags (as bytes and as 64-bit
    words), causes and their count for the on chains of one cell's candidates (``n`` rows), for the off chain
    of one candidate (one row) and for a digit's places (at least as many rows as the digit with the most
    places has); then the int64 rows and uint8 flags it works in (:data:`Q_ON`..., :data:`MARK`...). Made
    here, not in the kernel: numba compiles each array constructor it meets, and optimises it again in every
    kernel that calls it (0.7 s of a cold ``rate`` of Arto Inkala's puzzle went to those of the chain kernels).
    Each thread keeps its arrays for the next call while they are big enough: :func:`best` sets what it reads
    (and leaves the marks zeroed), and making them anew (megabytes, touched page by page) took a fifth of a
    multiple forcing chain's search. ``most``: the most places a digit has (counted here when not given)."""
    if most is None:
        most = int(((cands[:, None] >> np.arange(n)) & 1).sum(axis=0).max())
    shape = (cands.shape[0], n, n_units)
    kept = getattr(_kept, "work", None)
    if kept is None or kept[0] != shape or kept[1] < most:
        kept = _kept.work = (shape, most, _branches(cands.shape[0], n, n_units, most))
    return kept[2]


def _branches(n_cells: int, n: int, n_units: int, most: int) -> tuple:
    nodes = 2 * n_cells * n

    def rows(k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return (
            np.zeros((k, nodes), dtype=np.uint8),
            np.zeros((k, (nodes + 63) // 64), dtype=np.uint64),
            np.empty((k, nodes, MAX_CAUSES), dtype=np.int64),
            np.zeros((k, nodes), dtype=np.int64),
        )

    work = (
        np.empty((GRID + 1, nodes), dtype=np.int64),
        np.zeros((DONE + 1, nodes), dtype=np.uint8),
        np.empty((2, n_units * n), dtype=np.int64),
        np.empty((2, n_units * n), dtype=np.int64),
    )
    return (*rows(n), *rows(1), *rows(most), *work)


@njit(cache=True, error_model="numpy", inline="always")
def _before(cx, kind, seq, length, best_kind, best_seq):
    """Whether a conclusion (length, kind, place in SE's search order) comes before the best so far, in SE's
    order: shorter first, then by kind (:data:`SORT_KEY`), then the one SE finds first."""
    if cx != length:
        return cx < length
    if best_kind < 0:
        return True
    a, b = SORT_KEY[kind], SORT_KEY[best_kind]
    if a != b:
        return a < b
    return seq < best_seq


@njit(cache=True, error_model="numpy")
def best(
    cands0,
    units,
    units_of,
    peers,
    n,
    dynamic,
    x_only,
    binary,
    multiple,
    min_cell,
    digits,
    reached,
    bits,
    causes,
    n_causes,
    off_reached,
    off_bits,
    off_causes,
    off_n,
    d_reached,
    d_bits,
    d_causes,
    d_n,
    ints,
    flags,
    base,
    live,
):
    """The conclusion SE takes first over every start, as (kind, where, node, length) with ``where`` the start
    candidate (binary kinds), the cell (:data:`CELL`) or ``unit * n + digit`` (:data:`REGION`), and ``node``
    the node concluded (the candidate reached both ways for a contradiction); kind -1 when none. SE's order:
    fewest ancestors, then the kind's sort key (:data:`SORT_KEY`), then the first found, SE visiting the cells
    in order and, in each, its candidates, then the regions whose first place of the digit it is, then the cell.

    ``binary`` (bits 1, 2, 4): a candidate on that leads to a contradiction is false (:data:`FALSE_ON`), one
    off that does is true (:data:`TRUE_OFF`), and what both lead to holds (:data:`DOUBLE`, from cells of three
    candidates or more, as in SE). ``multiple``: what every candidate of a cell (:data:`CELL`), or every place
    of a digit in a unit (:data:`REGION`), leads to holds; SE starts them only from cells of ``min_cell``
    candidates or more (3 for its static multiple chains): a region's first place of the digit is such a cell.
    A branch that meets a contradiction keeps what it reached until then, as in SE. Binary chains start only
    from the digits in the mask ``digits`` (bit ``d`` for digit ``d + 1``); cell and region chains from all.

    Each candidate's chain from *on* is followed once for its cell (binary and cell chains) and once for the
    digit's regions (every region chain of the digit), the regions' in one buffer per cell. The thirteen work
    arrays after ``digits`` come from :func:`branches`."""
    n_cells = cands0.shape[0]
    nodes = 2 * n_cells * n
    q_on, q_off, stack, slots, clash, at, held, masks = (
        ints[Q_ON], ints[Q_OFF], ints[STACK], ints[SLOTS], ints[CLASH], ints[AT], ints[HELD], ints[GRID]
    )  # fmt: skip
    one = ints[ONE, :1]
    mark, done = flags[MARK], flags[DONE]
    places(cands0, units, n, base)
    kind, where, concl, length, seq = -1, -1, -1, np.int64(1 << 30), np.int64(0)
    for s in range(n_cells):
        m = cands0[s]
        if m == 0:
            continue
        k = np.int64(0)
        for d in range(n):
            if (m >> d) & 1:
                slots[k] = d
                k += 1
        cell_chain = multiple and k >= 2 and k >= min_cell
        if not binary and not cell_chain:
            continue
        for j in range(k):
            if not cell_chain and not (digits >> slots[j]) & 1:
                continue
            one[0] = 2 * (s * n + slots[j]) + 1
            clash[j] = follow(
                one,
                cands0,
                units,
                units_of,
                peers,
                n,
                dynamic,
                x_only,
                reached[j],
                bits[j],
                causes[j],
                n_causes[j],
                q_on,
                q_off,
                masks,
                base,
                live,
            )
        for j in range(k if binary else 0):
            if not (digits >> slots[j]) & 1:
                continue
            a = s * n + slots[j]
            q = clash[j]
            if q >= 0 and binary & 1:
                cx = ancestors(2 * q + 1, causes[j], n_causes[j], mark, stack)
                cx += ancestors(2 * q, causes[j], n_causes[j], mark, stack)
                if _before(cx, np.int64(FALSE_ON), 2 * a, length, kind, seq):
                    kind, where, concl, length, seq = FALSE_ON, a, q, cx, 2 * a
            if not binary & 6:
                continue
            one[0] = 2 * a
            q2 = follow(
                one,
                cands0,
                units,
                units_of,
                peers,
                n,
                dynamic,
                x_only,
                off_reached[0],
                off_bits[0],
                off_causes[0],
                off_n[0],
                q_on,
                q_off,
                masks,
                base,
                live,
            )
            if q2 >= 0 and binary & 2:
                cx = ancestors(2 * q2 + 1, off_causes[0], off_n[0], mark, stack)
                cx += ancestors(2 * q2, off_causes[0], off_n[0], mark, stack)
                if _before(cx, np.int64(TRUE_OFF), 2 * a + 1, length, kind, seq):
                    kind, where, concl, length, seq = TRUE_OFF, a, q2, cx, 2 * a + 1
            if binary & 4 and k >= 3:
                for w in range(bits.shape[1]):
                    both = bits[j, w] & off_bits[0, w]
                    while both:
                        low = low_bit(both)
                        both ^= low
                        x = w * 64 + lowest_bit(low)
                        if (x >> 1) == a:
                            continue
                        cx = ancestors(x, causes[j], n_causes[j], mark, stack)
                        if cx > length:
                            continue
                        cx += ancestors(x, off_causes[0], off_n[0], mark, stack)
                        order = a * 2 * nodes + (1 - (x & 1)) * nodes + x
                        if _before(cx, np.int64(DOUBLE), order, length, kind, seq):
                            kind, where, concl, length, seq = DOUBLE, a, x, cx, order
        if cell_chain:
            for j in range(k):
                slots[j] = j
            cx, x = _common(slots, k, bits, causes, n_causes, mark, stack, length)
            order = s * 2 * nodes + (1 - (x & 1)) * nodes + x
            if x >= 0 and _before(cx, np.int64(CELL), order, length, kind, seq):
                kind, where, concl, length, seq = CELL, s, x, cx, order
    if not multiple:
        return kind, where, concl, length
    # region chains, a digit at a time: each cell's chain from the digit on, followed once, serves every unit
    for d in range(n):
        h = 0
        for t in range(n_cells):
            if (cands0[t] >> d) & 1:
                held[h] = t
                at[t] = h
                h += 1
        if h < 2:
            continue
        done[:h] = 0
        for u in range(units.shape[0]):
            k = np.int64(0)
            first = -1
            for t in units[u]:
                if (cands0[t] >> d) & 1:
                    if k < slots.shape[0]:
                        slots[k] = at[t]
                    if first < 0:
                        first = t
                    k += 1
            if k < 2 or k > n:
                continue
            m = cands0[first]
            c = 0
            while m:
                m &= m - 1
                c += 1
            if c < min_cell:
                continue
            for j in range(k):
                r = slots[j]
                if not done[r]:
                    one[0] = 2 * (held[r] * n + d) + 1
                    follow(
                        one,
                        cands0,
                        units,
                        units_of,
                        peers,
                        n,
                        dynamic,
                        x_only,
                        d_reached[r],
                        d_bits[r],
                        d_causes[r],
                        d_n[r],
                        q_on,
                        q_off,
                        masks,
                        base,
                        live,
                    )
                    done[r] = 1
            cx, x = _common(slots, k, d_bits, d_causes, d_n, mark, stack, length)
            rank = 0
            while units_of[first, rank] != u:
                rank += 1
            order = ((first * n + d) * units_of.shape[1] + rank) * 2 * nodes + (1 - (x & 1)) * nodes + x
            if x >= 0 and _before(cx, np.int64(REGION), order, length, kind, seq):
                kind, where, concl, length, seq = REGION, u * n + d, x, cx, order
    return kind, where, concl, length


@njit(cache=True, error_model="numpy")
def _common(rows, k, bits, causes, n_causes, mark, stack, limit):
    """The node every one of the ``k`` followed chains (``rows`` of ``bits``, the reached nodes as 64-bit words,
    and of ``causes``) reaches with the fewest ancestors in all (not above ``limit``; on nodes before off ones,
    then in node order), as (length, node), or (limit, -1). A chain that met a contradiction keeps what it
    reached (it cannot hold, so it proves anything), as in SE."""
    nodes = causes.shape[1]
    best_x, best_cx, best_o = -1, limit, np.int64(1 << 40)
    for w in range(bits.shape[1]):
        every = bits[rows[0], w]
        for i in range(1, k):
            every &= bits[rows[i], w]
        while every:
            low = low_bit(every)
            every ^= low
            x = w * 64 + lowest_bit(low)
            cx = 0
            for i in range(k):
                cx += ancestors(x, causes[rows[i]], n_causes[rows[i]], mark, stack)
                if cx > best_cx:
                    break
            o = (1 - (x & 1)) * nodes + x
            if cx < best_cx or (cx == best_cx and o < best_o):
                best_x, best_cx, best_o = x, cx, o
    return best_cx, best_x
