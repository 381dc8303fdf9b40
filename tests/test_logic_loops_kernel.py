"""The nice-loop kernels (``logic/loops_kernel.py``) against plain Python walks over the graph's bitsets."""

from __future__ import annotations

from logic_states import fresh
from sudokit.logic import (
    chains,
    loops,
)
from sudokit.logic.state import State


def plain_continuous_from(a: int, strong: dict[int, int], conf: dict[int, int], limit: int) -> loops.Loop | None:
    """Reference: the first continuous loop of fewer than ``limit`` candidates whose smallest candidate is
    ``a`` and that removes something, by the breadth-first walk over larger candidates on Python bitsets,
    level by level, stopping at the first level where a walked-back path closes into such a loop."""
    allowed = ~((2 << a) - 1)  # candidates numbered above a
    conf_a = conf[a] & allowed
    if not strong[a] & allowed or not conf_a:
        return None  # no loop leaves a and comes back to it through larger candidates
    bit_a = 1 << a
    seen_off = seen_on = ~allowed  # reached while false / while true: a and smaller ones count as seen
    levels = [bit_a]
    frontier = bit_a
    depth = 0
    # the candidates reached at an odd depth d close a loop of d + 1 candidates
    while frontier and depth + 2 < limit:
        depth += 1
        nxt = loops._reach(frontier, strong if depth % 2 else conf)
        if depth % 2:
            frontier = nxt & ~seen_on
            seen_on |= frontier
        else:
            frontier = nxt & ~seen_off
            seen_off |= frontier
        levels.append(frontier)
        if not depth % 2 or depth < 3:
            continue
        for w in chains.bit_numbers(frontier & conf_a):
            path = loops._walk_back(levels, strong, conf, w, depth)
            if len(set(path)) != len(path):  # true at one point and false at another: not a loop to show
                continue
            removed = loops._continuous_removals(path, conf)
            if removed:
                return loops.Loop("continuous", tuple(path), loops._alternate(depth + 1), removed, depth + 1)
    return None


def plain_find_continuous(state: State, max_nodes: int = loops.MAX_NODES):
    """Reference: the walk from every start in Python, keeping a start's loop only when it is shorter (the
    search before the kernel)."""
    nodes, strong, conf = loops._links(state)
    best, limit = None, max_nodes + 1
    for a in nodes:
        found = plain_continuous_from(a, strong, conf, limit)
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


def test_continuous_loop_kernel_finds_the_loop_the_plain_walk_finds(loop_states):
    found = 0
    for state in loop_states:
        for max_nodes in (loops.MAX_NODES, 8):
            want = plain_find_continuous(state, max_nodes)
            assert loops.find_continuous(fresh(state), max_nodes) == want
            found += want is not None
    assert found >= 10  # the comparison met real loops, not only empty answers


def test_three_candidate_kernel_finds_the_placement_the_plain_search_finds(loop_states):
    answers = [plain_three_candidate_placement(state) for state in loop_states]
    for state, want in zip(loop_states, answers):
        assert loops._three_candidate_placement(fresh(state)) == want
    assert sum(a is not None for a in answers) >= 3
