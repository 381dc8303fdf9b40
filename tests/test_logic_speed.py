"""The speed-ups of the logic keep its answers: numba kernels agree with plain Python references, and the
memo of misses across states gives the same steps as a cold search."""

from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.formats import parse_grid
from sudokit.geometry import from_name
from sudokit.logic import (
    _memo,
    als,
    chains,
    fish,
    forcing,
    intersections,
    loops,
    single_digit,
    singles,
    subsets,
    uniqueness,
)
from sudokit.logic.explain import explain, next_step
from sudokit.logic.registry import applicable
from sudokit.logic.state import State, digits_of

DATA = Path(__file__).resolve().parents[1] / "data"


def lines(name: str) -> list[str]:
    return (DATA / name).read_text().split()


def path_states(grid, every: int = 3, most: int = 12) -> list[State]:
    """States met along the logical path of ``grid`` (every ``every``-th step, at most ``most``)."""
    state = State.from_grid(grid)
    techniques = applicable(state)
    out = []
    for i in range(200):
        if state.is_solved() or len(out) >= most:
            break
        if i % every == 0:
            out.append(state.copy())
        step = next_step(state, techniques)
        if step is None:
            break
        state.apply(step)
    return out


@pytest.fixture(scope="module")
def hard_states() -> list[State]:
    out = []
    for p in lines("top1465.txt")[:60:12]:
        out += path_states(parse_grid(p), every=4, most=8)
    return out


@pytest.fixture(scope="module")
def variant_states() -> list[State]:
    diagonal = from_name("diagonal")
    out = path_states(parse_grid(lines("xsudoku9.txt")[0], geometry=diagonal), every=5, most=4)
    out += path_states(parse_grid(lines("sudoku16_vu.txt")[0]), every=40, most=3)
    out += path_states(parse_grid(lines("sudoku4_vu.txt")[0]), every=1, most=3)
    return out


# ---- forcing chains ----------------------------------------------------------------------------------


def test_contradiction_kernel_finds_the_python_search_answer(hard_states, variant_states):
    for state in hard_states + variant_states:
        assert forcing._search(state) == forcing._search_locked(state, locked=False)


def test_assume_kernel_follows_every_candidate_like_assume(hard_states, variant_states):
    # same verdict, same count and the same grid afterwards, also when the propagation cap stops it
    from sudokit.logic import _kernels

    for state in hard_states[::3] + variant_states:
        units, units_of, peers, full = _kernels.tables(state.g)
        queue = np.empty((state.g.n_cells * (units.shape[1] + peers.shape[1] + 2), 2), dtype=np.int64)
        dirty = np.zeros(units.shape[0], dtype=np.uint8)
        for s in state.empty_cells():
            for d in state.digits(s):
                for limit in (6, 400):
                    vals = np.array(state.values, dtype=np.int64)
                    cands = np.array(state.cands, dtype=np.int64)
                    got = _kernels._assume(vals, cands, units, units_of, peers, full, s, d, limit, queue, dirty)
                    trial = state.copy()
                    assert got == forcing.assume(trial, s, d, False, limit)
                    assert (vals.tolist(), cands.tolist()) == (trial.values, trial.cands)


def sorted_assume(state: State, cell: int, digit: int, limit: int) -> tuple[bool, int]:
    """Reference for the documented order: singles followed from a stack, then the units touched since the
    last search (a plain set) searched for hidden singles in ``sorted`` order."""
    g, c, vals = state.g, state.cands, state.values
    stack, dirty, made = [(cell, digit)], set(), 0
    while made < limit:
        while stack:
            s, d = stack.pop()
            if vals[s]:
                if vals[s] != d:
                    return False, made
                continue
            if not c[s] >> (d - 1) & 1:
                return False, made
            vals[s], c[s] = d, 0
            made += 1
            dirty.update(g.units_of[s])
            for p in g.peers[s]:
                if c[p] >> (d - 1) & 1:
                    c[p] &= ~(1 << (d - 1))
                    if not c[p]:
                        return False, made
                    dirty.update(g.units_of[p])
                    if c[p].bit_count() == 1:
                        stack.append((p, c[p].bit_length()))
        if not dirty:
            break
        for u in sorted(dirty):
            unit = g.units[u]
            for d in g.digits:
                where = [s for s in unit if c[s] >> (d - 1) & 1]
                if not where and not any(vals[s] == d for s in unit):
                    return False, made
                if len(where) == 1:
                    stack.append((where[0], d))
        dirty = set()
        if not stack:
            break
    return True, made


def test_assume_searches_the_touched_units_in_ascending_unit_number(hard_states, variant_states):
    for state in hard_states[::2] + variant_states:
        for s in state.empty_cells()[::3]:
            for d in state.digits(s):
                trial, ref = state.copy(), state.copy()
                assert forcing.assume(trial, s, d) == sorted_assume(ref, s, d, 400)
                assert (trial.values, trial.cands) == (ref.values, ref.cands)


def test_contradiction_kernel_leaves_the_state_alone(hard_states):
    state = hard_states[0]
    values, cands = state.values[:], state.cands[:]
    forcing.contradiction_chain(state)
    assert (state.values, state.cands) == (values, cands)


# ---- chains ------------------------------------------------------------------------------------------


def plain_find_chain(state: State, mode: str, max_nodes: int):
    """Reference: a breadth-first search from every start, node by node (the search before the kernel)."""
    gr = chains.Graph(state, mode)
    best = None
    limit = max_nodes
    for a in gr.nodes:
        conf_a = gr.conflicts(a)
        if not gr.strong[a] or not conf_a:
            continue
        parent = {(a, False): None}
        frontier = [(a, False)]
        depth = 1
        found = None
        while frontier and depth < limit and found is None:
            nxt = []
            for v, on in frontier:
                for w in gr.weak_next(v) if on else gr.strong[v]:
                    if (w, not on) in parent:
                        continue
                    parent[(w, not on)] = (v, on)
                    nxt.append((w, not on))
                    elim = conf_a & gr.conflicts(w) & ~(1 << a) & ~(1 << w)
                    if not on and depth + 1 >= 4 and w != a and elim:
                        key, chain = (w, True), []
                        while key is not None:
                            chain.append(key[0])
                            key = parent[key]
                        found = (chain[::-1], elim)
                        break
                if found:
                    break
            frontier = nxt
            depth += 1
        if found and (best is None or len(found[0]) < len(best[0])):
            best, limit = found, len(found[0])
    return best


def test_chain_kernel_leaves_out_the_skipped_digits_only(loop_states):
    from sudokit.logic import _chain_kernel

    rng = random.Random(5)
    for state in loop_states[::4]:
        gr = chains.Graph(state.copy(), "x")
        skip = {d for d in state.g.digits if rng.random() < 0.4}
        kept = State(state.g, state.values[:], [m & ~sum(1 << (d - 1) for d in skip) for m in state.cands])
        want = plain_find_chain(kept, "x", 16)  # an X-chain stays on one digit: the others do not matter
        a, length = _chain_kernel.best_start(*gr.link_words(), 16, gr.n, sum(1 << (d - 1) for d in skip))
        assert (a, length) == ((-1, -1) if want is None else (want[0][0], len(want[0])))


@pytest.mark.parametrize("mode,max_nodes", [("x", 16), ("y", 16), ("aic", 20)])
def test_chain_kernel_finds_the_chain_a_plain_search_finds(hard_states, variant_states, mode, max_nodes):
    _memo.forget()
    for state in hard_states + variant_states:
        fresh = State(state.g, state.values[:], state.cands[:])
        assert chains.find_chain(fresh, mode, max_nodes) == plain_find_chain(state, mode, max_nodes)


# ---- ALS-XZ ------------------------------------------------------------------------------------------


def plain_als_xz(state: State):
    """Reference: (cells of A, cells of B, x, z) of the first ALS-XZ by the plain pair loop."""
    sets = als.almost_locked_sets(state)
    c, peers = state.cands, state.lay.peer_sets
    where = {d: {s for s in range(state.g.n_cells) if c[s] >> (d - 1) & 1} for d in state.g.digits}

    def seeing(cells, d):
        holders = [s for s in cells if s in where[d]]
        return {t for t in where[d] if t not in cells and all(t in peers[h] for h in holders)}

    for i, (a, ma, _ua) in enumerate(sets):
        for b, mb, _ub in sets[i + 1 :]:
            common = digits_of(ma & mb)
            if len(common) < 2 or a & b:
                continue
            for x in common:
                if not all(q in peers[p] for p in a & where[x] for q in b & where[x]):
                    continue
                for z in common:
                    if z != x and seeing(a, z) & seeing(b, z):
                        return a, b, x, z
    return None


def test_als_kernel_finds_the_pair_the_plain_loop_finds(hard_states, variant_states):
    for state in hard_states + variant_states:
        step = als.als_xz(state)
        ref = plain_als_xz(state)
        assert (step is None) == (ref is None)
        if step is not None:
            a, b, x, z = ref
            assert step.cells == sorted(a | b)
            assert f"share {x}," in step.explanation and {d for _s, d in step.eliminations} == {z}


# ---- memo of misses and per-unit results -------------------------------------------------------------

MEMO_USERS = [
    ("finned", lambda s: fish.finned_fish(s, 3)),
    ("er", single_digit.empty_rectangle),
    ("colouring", chains.simple_colouring),
    ("x-chain", chains.x_chain),
]


@pytest.mark.parametrize("name,find", MEMO_USERS, ids=[n for n, _ in MEMO_USERS])
def test_warm_memo_gives_the_same_step_as_a_cold_search(hard_states, name, find):
    _memo.forget()
    warm = [find(State(s.g, s.values[:], s.cands[:])) for s in hard_states]
    cold = []
    for s in hard_states:
        _memo.forget()
        cold.append(find(State(s.g, s.values[:], s.cands[:])))
    assert warm == cold


def test_explain_path_is_the_same_with_a_cold_or_warm_memo():
    puzzle = parse_grid(lines("top1465.txt")[3])
    _memo.forget()
    first = explain(puzzle)
    second = explain(puzzle)
    assert first.steps == second.steps and first.solved == second.solved


@pytest.mark.parametrize("index", [1394, 1098])
def test_every_step_of_a_path_is_the_step_an_empty_memo_finds(index):
    # top1465 #1394 and #1098 once took another X-chain with the misses of earlier states remembered
    state = State.from_grid(parse_grid(lines("top1465.txt")[index]))
    techniques = applicable(state)
    _memo.forget()
    while not state.is_solved():
        warm = next_step(state, techniques)
        kept = set(_memo._misses)
        _memo.forget()
        cold = next_step(state.copy(), techniques)
        _memo._misses.update(kept)
        assert warm == cold
        state.apply(warm)


def test_a_change_through_apply_or_changed_drops_the_state_memo(hard_states):
    state = hard_states[0].copy()
    _memo.digit_cells(state)
    assert state.memo
    cell = next(s for s in range(state.g.n_cells) if state.cands[s])
    state.eliminate(cell, digits_of(state.cands[cell])[0])
    assert not state.memo
    _memo.digit_cells(state)
    state.changed()
    assert not state.memo


def test_positions_table_lists_the_cells_positions_gives(hard_states):
    state = hard_states[1]
    table = state.positions_table()
    for u in range(len(state.g.units)):
        for d in state.g.digits:
            assert table[u][d] == [s for s in state.g.units[u] if state.cands[s] >> (d - 1) & 1]


def finned_hits_reference(spans, slots, k, cap, bands, span_all, base_bands) -> list[int]:
    """What ``_kernels.finned_hits`` returns, in plain Python: the k-combinations of lines (in the order of
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
    from sudokit.logic import _kernels

    checked = hits = 0
    for state in hard_states + [s for s in variant_states if s.lay.has_boxes]:
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
                    got = _kernels.finned_hits(
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
                    checked += 1
                    hits += bool(want)
    assert checked > 1000 and hits > 0


# ---- positions table kept up to date by State.apply ---------------------------------------------------


@pytest.mark.parametrize(
    "puzzle, variant",
    [
        (lines("top1465.txt")[3], None),
        (lines("top1465.txt")[40], None),
        (lines("xsudoku9.txt")[0], "diagonal"),
        (lines("sudoku16_vu.txt")[0], None),
    ],
)
def test_apply_brings_the_positions_table_up_to_date(puzzle, variant):
    # along a whole solving path: the table after each step equals one built from scratch, and the table
    # held from before the step is left as it was
    state = State.from_grid(parse_grid(puzzle, geometry=from_name(variant) if variant else None))
    techniques = applicable(state)
    steps = 0
    while not state.is_solved() and steps < 300:
        held = state.positions_table()
        snapshot = [[list(cells) for cells in row] for row in held]
        step = next_step(state, techniques)
        if step is None:
            break
        state.apply(step)
        steps += 1
        assert state.positions_table() == state._positions_table()
        assert held == snapshot
    assert steps > 20


def broken_reference(state: State) -> bool:
    """Plainly: an empty cell without candidates, or a unit where some digit is neither placed nor possible."""
    g = state.g
    if any(not state.values[s] and not state.cands[s] for s in range(g.n_cells)):
        return True
    for unit in g.units:
        for d in g.digits:
            if not any(state.values[s] == d or state.cands[s] >> (d - 1) & 1 for s in unit):
                return True
    return False


def test_is_broken_agrees_with_a_plain_check_on_damaged_states(hard_states, variant_states):
    rng = random.Random(5)
    verdicts = set()
    for state in hard_states + variant_states:
        assert state.is_broken() == broken_reference(state) is False
        for _ in range(20):
            trial = state.copy()
            for s in rng.sample(trial.empty_cells(), k=min(6, len(trial.empty_cells()))):
                trial.cands[s] &= rng.getrandbits(trial.g.size)  # drop some candidates, maybe all
            trial.changed()
            verdicts.add(trial.is_broken())
            assert trial.is_broken() == broken_reference(trial)
    assert verdicts == {True, False}


def words_of(values: list[int], total: int) -> np.ndarray:
    """Python int bitsets as rows of 64-bit words, lowest first (plainly, through bytes)."""
    n_words = (total + 63) // 64
    raw = b"".join(v.to_bytes(n_words * 8, "little") for v in values)
    return np.frombuffer(raw, dtype=np.uint64).reshape(len(values), n_words)


def test_chain_graph_word_arrays_hold_the_graphs_links(hard_states, variant_states):
    # the compiled word arrays against the graph's own Python bitsets, row by row, in every mode
    for state in hard_states[::2] + variant_states:
        for mode in ("x", "y", "aic"):
            gr = chains.Graph(state.copy(), mode)
            strong_w, weak_w, conf_w = gr.link_words()
            total = gr.n * gr.n_cells
            rows = list(range(total))
            strong = {v: sum(1 << w for w in gr.strong[v]) for v in gr.nodes}
            conf = {v: gr.in_cell[v] | gr.same_digit[v] for v in gr.nodes}
            weak = {v: gr.same_digit[v] for v in gr.nodes} if mode in ("x", "y") else conf
            for got, want in ((strong_w, strong), (weak_w, weak), (conf_w, conf)):
                assert (got == words_of([want.get(v, 0) for v in rows], total)).all()


# ---- nice loops --------------------------------------------------------------------------------------


def plain_find_continuous(state: State, max_nodes: int = loops.MAX_NODES):
    """Reference: the walk from every start in Python, keeping a start's loop only when it is shorter (the
    search before the kernel)."""
    nodes, strong, conf = loops._links(state)
    best, limit = None, max_nodes + 1
    for a in nodes:
        found = loops.continuous_from(a, strong, conf, limit)
        if found is not None:
            best, limit = found, found.length
    return best


def plain_three_candidate_placement(state: State):
    """Reference: ``a = b - c = a`` over the Python bitsets (the search before the kernel)."""
    nodes, strong, conf = loops._links(state)
    for a in nodes:
        s = strong[a]
        if not s & (s - 1):
            continue
        for b in chains.bit_numbers(s):
            both = conf[b] & s
            if both:
                c = (both & -both).bit_length() - 1
                return loops.Loop("true", (a, b, c), (True, False, True), 0, 3)
    return None


@pytest.fixture(scope="module")
def loop_states(hard_states, variant_states) -> list[State]:
    """The shared states plus every state on a few top1465 paths (where loops exist)."""
    out = list(hard_states + variant_states)
    for p in lines("top1465.txt")[1:400:23]:
        out += path_states(parse_grid(p), every=1, most=150)
    return out


def test_continuous_loop_kernel_finds_the_loop_the_plain_walk_finds(loop_states):
    found = 0
    for state in loop_states:
        for max_nodes in (loops.MAX_NODES, 8):
            want = plain_find_continuous(state, max_nodes)
            assert loops.find_continuous(State(state.g, state.values[:], state.cands[:]), max_nodes) == want
            found += want is not None
    assert found >= 10  # the comparison met real loops, not only empty answers


def test_three_candidate_kernel_finds_the_placement_the_plain_search_finds(loop_states):
    answers = [plain_three_candidate_placement(state) for state in loop_states]
    for state, want in zip(loop_states, answers):
        assert loops._three_candidate_placement(State(state.g, state.values[:], state.cands[:])) == want
    assert sum(a is not None for a in answers) >= 3


# ---- locked candidates and subsets -------------------------------------------------------------------


def plain_locked(state: State, sources, name: str, single: str | None):
    """Reference: the first locked-candidates step from ``sources`` by plain loops (the search before the
    kernel), made direct when ``single`` is given."""
    g, lay = state.g, state.lay
    for u in sources:
        for d in g.digits:
            where = state.positions(u, d)
            if len(where) < 2:
                continue
            common = set(g.units_of[where[0]])
            for s in where[1:]:
                common &= set(g.units_of[s])
            common.discard(u)
            for v in sorted(common):
                if any(state.cands[s] >> (d - 1) & 1 and s not in lay.unit_sets[u] for s in g.units[v]):
                    step = intersections._locked_step(state, u, d, v, name)
                    if single is not None:
                        step = intersections.direct(state, step, single)
                    if step is not None:
                        return step
    return None


def plain_naked(state: State, k: int):
    """Reference: the first naked subset by plain combinations of each unit's cells."""
    g, c = state.g, state.cands
    for unit in g.units:
        pool = [s for s in unit if c[s] and c[s].bit_count() <= k]
        for combo in combinations(pool, k):
            union = 0
            for s in combo:
                union |= c[s]
            if union.bit_count() != k:
                continue
            shared = [v for v in range(len(g.units)) if all(s in g.units[v] for s in combo)]
            if any(t not in combo and c[t] & union for v in shared for t in g.units[v]):
                return subsets.naked_step(state, list(combo))
    return None


def plain_hidden(state: State, k: int, single: str | None):
    """Reference: the first hidden subset by plain combinations of each unit's digits (made direct when
    ``single`` is given)."""
    g, c = state.g, state.cands
    for u in range(len(g.units)):
        places = {d: state.positions(u, d) for d in g.digits if 2 <= len(state.positions(u, d)) <= k}
        for ds in combinations(sorted(places), k):
            cells = {s for d in ds for s in places[d]}
            inside = sum(1 << (d - 1) for d in ds)
            if len(cells) != k or not any(c[s] & ~inside for s in cells):
                continue
            step = subsets.hidden_step(state, u, ds)
            if single is not None:
                step = intersections.direct(state, step, single)
            if step is not None:
                return step
    return None


def test_locked_candidates_kernel_finds_the_step_plain_loops_find(loop_states):
    found = 0
    for state in loop_states:
        g, lay = state.g, state.lay
        lines = list(lay.rows + lay.cols)
        others = [u for u in range(len(g.units)) if u not in lines]
        for find, sources, name, single in (
            (intersections.pointing, others, "Pointing", None),
            (intersections.claiming, lines, "Claiming", None),
            (intersections.direct_pointing, others, "Pointing", "box"),
        ):
            want = plain_locked(state, sources, name, single)
            assert find(State(g, state.values[:], state.cands[:])) == want
            found += want is not None
    assert found >= 100


@pytest.mark.parametrize("k", [2, 3, 4])
def test_subset_kernels_find_the_step_plain_combinations_find(loop_states, k):
    found = 0
    for state in loop_states:
        fresh = State(state.g, state.values[:], state.cands[:])
        want = (plain_naked(state, k), plain_hidden(state, k, None), plain_hidden(state, k, "box"))
        got = (subsets.naked_subset(fresh, k), subsets.hidden_subset(fresh, k), subsets.direct_hidden_subset(fresh, k))
        assert got == want
        found += sum(w is not None for w in want)
    assert found >= 20


def test_als_kernel_lists_the_sets_almost_locked_sets_lists(loop_states):
    from sudokit.logic import _kernels

    listed = 0
    for state in loop_states[::3]:
        _values, cands = _kernels.state_arrays(state)
        units, units_of, _peers, _full = _kernels.tables(state.g)
        n_words = (state.g.n_cells + 63) // 64
        cells, masks, set_units, members = _kernels.als_sets(cands, units, units_of, als.MAX_SIZE, n_words)
        got = [
            (frozenset(int(s) for s in row if s >= 0), int(m), int(u)) for row, m, u in zip(members, masks, set_units)
        ]
        assert got == als.almost_locked_sets(state)
        assert (cells == words_of([sum(1 << s for s in a) for a, _m, _u in got], state.g.n_cells)).all()
        listed += len(got)
    assert listed >= 1000


# ---- unique rectangles -------------------------------------------------------------------------------


def plain_rectangles(state: State) -> list[tuple[tuple[int, int, int, int], tuple[int, int]]]:
    """Reference: every (cells, pair) of four empty cells in two rows, two columns and two boxes sharing two
    digits, by trying every pair of rows and of columns."""
    g, c, box_of = state.g, state.cands, state.lay.box_of
    n = g.size
    out = []
    for r1, r2 in combinations(range(n), 2):
        for c1, c2 in combinations(range(n), 2):
            cells = (r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2)
            common = c[cells[0]] & c[cells[1]] & c[cells[2]] & c[cells[3]]
            if len({box_of[s] for s in cells}) != 2:
                continue
            out += [(cells, pair) for pair in combinations(digits_of(common), 2)]
    return out


def plain_ur3(state: State):
    """Reference: the type 3 search over every rectangle and shared unit (the loop before the kernel)."""
    c, peers, g = state.cands, state.lay.peer_sets, state.g
    best = None
    for cells, (x, y) in plain_rectangles(state):
        xy = (1 << (x - 1)) | (1 << (y - 1))
        extra = [s for s in cells if c[s] != xy]
        if len(extra) != 2 or extra[1] not in peers[extra[0]]:
            continue
        pseudo = (c[extra[0]] | c[extra[1]]) & ~xy
        if pseudo.bit_count() > 4:
            continue
        for u in g.units_of[extra[0]]:
            if extra[1] not in g.units[u]:
                continue
            others = [s for s in g.units[u] if c[s] and s not in extra]
            for k in range(max(2, pseudo.bit_count()), 5 if best is None else best[0]):
                if uniqueness._naked_with(c, pseudo, others, k) is not None:
                    best = (k, cells, (x, y), u)
                    break
            if best is not None and best[0] == 2:
                return uniqueness.ur3_step(state, best[1], best[2], best[3], best[0])
    return None if best is None else uniqueness.ur3_step(state, best[1], best[2], best[3], best[0])


def listed_rectangles(state: State) -> list[tuple[tuple[int, int, int, int], tuple[int, int]]]:
    return [((a, b, c, d), (x, y)) for a, b, c, d, x, y in uniqueness._rectangles(state).tolist()]


@settings(max_examples=40, deadline=None)
@given(masks=st.lists(st.integers(0, 511), min_size=81, max_size=81))
def test_rectangle_kernel_lists_what_trying_every_rectangle_lists(masks):
    state = State.from_candidates(from_name("standard"), [0] * 81, masks)
    assert listed_rectangles(state) == plain_rectangles(state)


def test_rectangle_kernels_find_the_step_plain_loops_find(loop_states):
    found = 0
    for state in loop_states:
        if not state.g.is_standard:
            continue
        rects = plain_rectangles(state)
        assert listed_rectangles(state) == rects
        fresh = State(state.g, state.values[:], state.cands[:])
        first = next((s for s in (uniqueness.ur_step(state, cells, pair) for cells, pair in rects) if s), None)
        assert (uniqueness.unique_rectangle(fresh), uniqueness.unique_rectangle_type3(fresh)) == (
            first,
            plain_ur3(state),
        )
        found += first is not None
    assert found >= 10


# ---- basic fish and two strong links -----------------------------------------------------------------


def plain_fish(state: State, k: int):
    """Reference: the first ``k``-fish by plain combinations of base lines, rows first, digit by digit."""
    lay = state.lay
    for base, cover_of in ((lay.rows, lay.col_of), (lay.cols, lay.row_of)):
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


def plain_turbot(state: State, wanted: str):
    """Reference: the first Skyscraper / 2-String Kite / Turbot Fish by plain loops over strong links."""
    g, lay, peers = state.g, state.lay, state.lay.peer_sets

    def kind(u: int) -> str:
        return "row" if u in lay.rows else "column" if u in lay.cols else "other"

    for d in g.digits:
        links = [(u, *state.positions(u, d)) for u in range(len(g.units)) if len(state.positions(u, d)) == 2]
        for i, (u1, a1, b1) in enumerate(links):
            for u2, a2, b2 in links[i + 1 :]:
                if len({a1, b1, a2, b2}) < 4:
                    continue
                k1, k2 = kind(u1), kind(u2)
                name = (
                    "Skyscraper"
                    if k1 == k2 and k1 != "other"
                    else "2-String Kite"
                    if {k1, k2} == {"row", "column"}
                    else "Turbot Fish"
                )
                if name != wanted:
                    continue
                for x, y in ((a1, b1), (b1, a1)):
                    for z, w in ((a2, b2), (b2, a2)):
                        if z not in peers[y] or (name == "2-String Kite" and lay.box_of[y] != lay.box_of[z]):
                            continue
                        if any(state.cands[s] >> (d - 1) & 1 for s in (peers[x] & peers[w]) - {x, y, z, w}):
                            return single_digit.turbot_step(state, name, d, (u1, u2), (x, y, z, w))
    return None


def test_fish_and_turbot_kernels_find_the_step_plain_loops_find(loop_states):
    found = {}
    for state in loop_states:
        fresh = State(state.g, state.values[:], state.cands[:])
        for k in (2, 3, 4):
            want = plain_fish(state, k)
            assert fish.basic_fish(fresh, k) == want
            found[k] = found.get(k, 0) + (want is not None)
        for name, find in (
            ("Skyscraper", single_digit.skyscraper),
            ("2-String Kite", single_digit.two_string_kite),
            ("Turbot Fish", single_digit.turbot_fish),
        ):
            want = plain_turbot(state, name)
            assert find(fresh) == want
            found[name] = found.get(name, 0) + (want is not None)
    assert min(found.values()) >= 3, found


# ---- singles -----------------------------------------------------------------------------------------


def plain_singles(state: State) -> list:
    """Reference: (unit, cell, digit) of the first full house, box and line hidden single, and (cell, digit)
    of the first naked single, by plain loops."""
    g, vals, c, lay = state.g, state.values, state.cands, state.lay
    lines = list(lay.rows + lay.cols)
    out: list = [None, None, None, None]
    for u, unit in enumerate(g.units):
        empty = [s for s in unit if not vals[s]]
        missing = [d for d in g.digits if d not in {vals[s] for s in unit}]
        if len(empty) == 1 and len(missing) == 1:
            out[0] = (u, empty[0], missing[0])
            break
    for k, sources in ((1, [u for u in range(len(g.units)) if u not in lines]), (2, lines)):
        for u in sources:
            once = [d for d in g.digits if len(state.positions(u, d)) == 1]
            if once:
                out[k] = (u, state.positions(u, once[0])[0], once[0])
                break
    naked = [(s, c[s].bit_length()) for s in range(g.n_cells) if not vals[s] and c[s].bit_count() == 1]
    out[3] = naked[0] if naked else None
    return out


def test_singles_kernels_find_the_single_plain_loops_find(loop_states):
    for state in loop_states:
        fresh = State(state.g, state.values[:], state.cands[:])
        steps = [singles.full_house(fresh), singles.hidden_single_box(fresh), singles.hidden_single_line(fresh)]
        got = [None if st is None else (st.units[0], *st.placements[0]) for st in steps]
        naked = singles.naked_single(fresh)
        got.append(None if naked is None else naked.placements[0])
        assert got == plain_singles(state)


def test_digit_cells_from_the_compiled_words_match_a_plain_loop(loop_states):
    for state in loop_states[::5]:
        g = state.g
        want = [
            (
                sum(1 << s for s in range(g.n_cells) if d and state.cands[s] >> (d - 1) & 1),
                sum(1 << s for s in range(g.n_cells) if d and state.values[s] == d),
            )
            for d in range(g.size + 1)
        ]
        fresh = State(g, state.values[:], state.cands[:])
        assert [(cells, held) for _token, cells, held in _memo.digit_cells(fresh)] == want
