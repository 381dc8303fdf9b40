"""The fish kernels (``logic/fish_kernel.py``) against plain Python: basic fish by plain combinations of
base lines, and the line combinations of finned fish."""

from __future__ import annotations

from itertools import combinations

import numpy as np

from logic_states import fresh
from sudokit.logic import (
    fish,
)
from sudokit.logic.state import State


def plain_fish(state: State, k: int):
    """Reference: the first ``k``-fish by plain combinations of base lines, rows first, digit by digit."""
    g = state.g
    for base, cover_of in ((g.rows, g.col_of), (g.cols, g.row_of)):
        for d in state.g.digits:
            lines = {u: state.positions(u, d) for u in base if 2 <= len(state.positions(u, d)) <= k}
            for combo in combinations(sorted(lines), k):
                inside = {s for u in combo for s in lines[u]}
                covers = {cover_of[s] for s in inside}
                if len(covers) == k and any(
                    state.cands[s] >> (d - 1) & 1 and s not in inside for v in covers for s in state.g.units[v]
                ):
                    return fish.fish_step(state, d, list(combo))
    return None


def test_basic_fish_kernel_finds_the_step_plain_loops_find(loop_states, kernels):
    found = {}
    for state in loop_states:
        for k in (2, 3, 4):
            want = plain_fish(state, k)
            assert fish.basic_fish(fresh(state), k) == want
            found[k] = found.get(k, 0) + (want is not None)
    assert min(found.values()) >= 3, found


def finned_hits_reference(spans, slots, k, cap, bands, span_all, base_bands) -> list[int]:
    """What ``fish_kernel.finned_hits`` returns, in plain Python: the k-combinations of lines (in the order of
    ``itertools.combinations``) whose union has more than k and at most ``cap`` cover indices and a cover
    band where fins can share a box and remove something (``_fin_bands``, the code the kernel replaced)."""
    band_tabs = []
    for group in base_bands:
        tab_in, tab_out = [], []
        for m in range(1 << len(group)):
            s_in = s_out = 0
            for j, i in enumerate(group):
                if m >> j & 1:
                    s_in |= span_all[i]
                else:
                    s_out |= span_all[i]
            tab_in.append(s_in)
            tab_out.append(s_out)
        band_tabs.append((group[0], (1 << len(group)) - 1, tab_in, tab_out))
    out = []
    for combo in combinations(range(len(spans)), k):
        union = 0
        for i in combo:
            union |= spans[i]
        if not k < union.bit_count() <= cap:
            continue
        chosen = sum(slots[i] for i in combo)
        found = _fin_bands(union, chosen, band_tabs, bands, k)
        if found:
            out += [*combo, union, sum(1 << b for b in found)]
    return out


def _fin_bands(union: int, chosen: int, band_tabs: list, bands: list[int], k: int) -> set[int]:
    """The cover bands in which some choice of ``k`` covers out of ``union`` leaves fins in one box and
    removes something (exact, so the covers are only enumerated where a step will be found). ``chosen`` has
    bit ``i`` set for the ``i``-th base line in the combination.

    With fins in band ``bi`` and box row (band of base lines) ``b``: the base lines' cover indices in ``bi``
    outside ``b`` (``A``) and every index outside ``bi`` (``R``) must be covers; an elimination is a ``d`` of
    that box in a non-base line whose cover index (``E``) is a cover."""
    inside = []
    outside = []
    for first, full, tab_in, tab_out in band_tabs:
        m = chosen >> first & full
        inside.append(tab_in[m])
        outside.append(tab_out[m])
    found = set()
    for bi, band_mask in enumerate(bands):
        required = union & ~band_mask
        if required.bit_count() > k:
            continue
        for b, s_in in enumerate(inside):
            if not s_in & band_mask:
                continue
            elim = outside[b] & band_mask & union
            if not elim:
                continue
            must = required
            for other, s_other in enumerate(inside):
                if other != b:
                    must |= s_other & band_mask
            n = must.bit_count()
            if n <= k and (must & elim or n < k):
                found.add(bi)
                break
    return found


def test_finned_fish_kernel_finds_the_line_combinations_of_the_python_search(hard_states, variant_states):
    from sudokit.logic import fish_kernel

    checked = hits = 0
    for state in hard_states + [s for s in variant_states if s.g.has_boxes]:
        pos = state.positions_table()
        for tables in fish._fin_tables(state.g):
            base, _covers, _cover_of, bands, _line_box, cover_index, base_bands, arrays = tables
            for k in (2, 3, 4):
                for d in state.g.digits:
                    spans, slots, span_all = [], [], []
                    for i, u in enumerate(base):
                        m = sum(1 << cover_index[s] for s in pos[u][d])
                        span_all.append(m)
                        if 1 <= len(pos[u][d]) <= k + 3:
                            spans.append(m)
                            slots.append(1 << i)
                    cap = k + bands[0].bit_count()
                    want = finned_hits_reference(spans, slots, k, cap, bands, span_all, base_bands)
                    got = fish_kernel.finned_hits(
                        np.array(spans, dtype=np.int64),
                        np.array(slots, dtype=np.int64),
                        k,
                        cap,
                        arrays[0],
                        np.array(span_all, dtype=np.int64),
                        arrays[1],
                        arrays[2],
                    )
                    assert list(got) == want
                    # the kernel that also picks the lines from the candidates gives the same hits
                    kept, from_cands = fish_kernel.finned_lines(
                        np.array(state.cands, dtype=np.int64),
                        state.g.unit_array,
                        arrays[3],
                        arrays[4],
                        1 << (d - 1),
                        k,
                        cap,
                        arrays[0],
                        arrays[1],
                        arrays[2],
                    )
                    if len(spans) >= k:
                        assert [slots[j] for j in range(len(spans))] == [1 << int(i) for i in kept]
                    assert list(from_cands) == want
                    checked += 1
                    hits += bool(want)
    assert checked > 1000 and hits > 0
