"""The chain kernels (``logic/chains_kernel.py``) against plain Python: the graph's word rows hold the graph's
links, and the compiled search finds the chain a plain breadth-first search from every start finds."""

from __future__ import annotations

import random

import pytest

from logic_states import fresh, words_of
from sudokit.logic import (
    chains,
    misses,
)
from sudokit.logic.state import State


def conflicts(gr: chains.Graph, v: int) -> int:
    """The candidates that cannot be true with ``v`` (same cell, or same digit in a peer)."""
    return gr.in_cell[v] | gr.same_digit[v]


def weak_next(gr: chains.Graph, v: int) -> list[int]:
    """Candidates weakly linked to ``v`` in the graph's mode, in increasing order."""
    return chains.bit_numbers(gr.same_digit[v] if gr.mode in ("x", "y") else conflicts(gr, v))


def plain_find_chain(state: State, mode: str, max_nodes: int):
    """Reference: a breadth-first search from every start, node by node (the search before the kernel)."""
    gr = chains.Graph(state, mode)
    best = None
    limit = max_nodes
    for a in gr.nodes:
        conf_a = conflicts(gr, a)
        if not gr.strong[a] or not conf_a:
            continue
        parent = {(a, False): None}
        frontier = [(a, False)]
        depth = 1
        found = None
        while frontier and depth < limit and found is None:
            nxt = []
            for v, on in frontier:
                for w in weak_next(gr, v) if on else gr.strong[v]:
                    if (w, not on) in parent:
                        continue
                    parent[(w, not on)] = (v, on)
                    nxt.append((w, not on))
                    elim = conf_a & conflicts(gr, w) & ~(1 << a) & ~(1 << w)
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
    from sudokit.logic import chains_kernel

    rng = random.Random(5)
    for state in loop_states[::4]:
        gr = chains.Graph(state.copy(), "x")
        skip = {d for d in state.g.digits if rng.random() < 0.4}
        kept = State(state.g, state.values[:], [m & ~sum(1 << (d - 1) for d in skip) for m in state.cands])
        want = plain_find_chain(kept, "x", 16)  # an X-chain stays on one digit: the others do not matter
        a, length = chains_kernel.best_start(*gr.link_words(), 16, gr.n, sum(1 << (d - 1) for d in skip))
        assert (a, length) == ((-1, -1) if want is None else (want[0][0], len(want[0])))


@pytest.mark.parametrize("mode,max_nodes", [("x", 16), ("y", 16), ("aic", 20)])
def test_chain_kernel_finds_the_chain_a_plain_search_finds(hard_states, variant_states, mode, max_nodes):
    misses.forget()
    for state in hard_states + variant_states:
        new = fresh(state)
        assert chains.find_chain(new, mode, max_nodes) == plain_find_chain(state, mode, max_nodes)


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
