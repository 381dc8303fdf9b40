"""numba kernels of the fish (:mod:`sudokit.logic.fish`): basic fish (X-Wing, Swordfish, Jellyfish) and the
line combinations of finned fish.

:func:`fish_hit` replays ``fish.basic_fish``'s loops, digit by digit in increasing order, and returns only which
fish comes first; Python writes that one out with the same builder. :func:`finned_hits` lists the few line
combinations of a finned fish search that can give a step; Python spells out their covers and fins.
Candidate masks are an int64 array; digits are numbered from 0 here (bit ``d`` of a mask)."""

from __future__ import annotations

import numpy as np
from numba import njit

from sudokit.bits import combo_union, first_combo, next_combo, popcount


@njit(cache=True)
def fish_hit(cands, units, base, cover, cover_index, n, k, found):
    """The first ``k``-fish with lines ``base`` (unit numbers in increasing order) and cover lines ``cover``
    (``cover_index[s]``: the position in ``cover`` of cell ``s``'s cover line): for each digit, the base lines
    holding it in 2 to ``k`` places, in combinations whose places lie in exactly ``k`` cover lines, one that
    removes the digit from a cover line outside the base lines. Returns the digit (from 0) and puts the
    combination's positions in ``base`` into ``found``; -1 when there is none."""
    n_base = base.shape[0]
    lines = np.empty(n_base, dtype=np.int64)
    spans = np.empty(n_base, dtype=np.int64)
    in_combo = np.zeros(n_base, dtype=np.bool_)
    line_of = np.full(cands.shape[0], -1, dtype=np.int64)  # position in ``base`` of each cell's base line
    for i in range(n_base):
        for s in units[base[i]]:
            line_of[s] = i
    idx = np.empty(k, dtype=np.int64)
    for d in range(n):
        m = 0
        for i in range(n_base):
            span = 0
            count = 0
            for s in units[base[i]]:
                if (cands[s] >> d) & 1:
                    span |= 1 << cover_index[s]
                    count += 1
            spans[i] = span
            if 2 <= count <= k:
                lines[m] = i
                m += 1
        if m < k:
            continue
        first_combo(idx, k)
        while True:
            union = combo_union(spans, lines, idx, k)
            if popcount(union) == k:
                for j in range(k):
                    in_combo[lines[idx[j]]] = True
                removes = False
                for c in range(cover.shape[0]):
                    if not (union >> c) & 1:
                        continue
                    for s in units[cover[c]]:
                        if (cands[s] >> d) & 1 and not in_combo[line_of[s]]:
                            removes = True
                            break
                    if removes:
                        break
                for j in range(k):
                    in_combo[lines[idx[j]]] = False
                if removes:
                    for j in range(k):
                        found[j] = lines[idx[j]]
                    return d
            if not next_combo(idx, k, m):
                break
    return -1


@njit(cache=True, inline="always")
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
        if popcount(joined) > cap:
            at[depth] += 1
            continue
        if depth < k - 1:
            below[depth + 1] = joined
            depth += 1
            at[depth] = i + 1
            continue
        union = joined
        if popcount(union) > k:
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
                if popcount(required) > k:
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
                    nm = popcount(must)
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


@njit(cache=True)
def finned_lines(cands, units, base, cover_index, bit, k, cap, bands, g_first, g_len):
    """:func:`finned_hits` for the digit of mask ``bit`` on the base lines ``base`` (``cover_index``: each
    cell's cover index): the candidate base lines are those where the digit has 1 to ``k + 3`` places. Returns
    (the candidate lines as indices into ``base``, the hits as :func:`finned_hits` lists them)."""
    nb = base.shape[0]
    span_all = np.zeros(nb, dtype=np.int64)
    spans = np.empty(nb, dtype=np.int64)
    slots = np.empty(nb, dtype=np.int64)
    order = np.empty(nb, dtype=np.int64)
    m = 0
    for i in range(nb):
        span = 0
        count = 0
        for s in units[base[i]]:
            if s >= 0 and cands[s] & bit:
                span |= 1 << cover_index[s]
                count += 1
        span_all[i] = span
        if 1 <= count <= k + 3:
            spans[m] = span
            slots[m] = 1 << i
            order[m] = i
            m += 1
    if m < k:
        return order[:0], [np.int64(0) for _ in range(0)]
    return order[:m], finned_hits(spans[:m], slots[:m], k, cap, bands, span_all, g_first, g_len)
