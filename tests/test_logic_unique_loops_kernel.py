"""The kernel of the unique loops (``logic/unique_loops_kernel.py``) against a plain depth-first walk, loop by
loop and step by step."""

from __future__ import annotations

from logic_states import fresh
from sudokit.logic import unique_loops
from sudokit.logic.state import State
from sudokit.logic.step import Step


def plain_loops(state: State, x: int, y: int) -> list[tuple[int, ...]]:
    """Reference: every loop of 6, 8 or 10 cells on {x,y}, each once as its sorted cells, shortest first, in the
    order a walk from each cell in turn (to later cells, neighbours in cell order) closes it."""
    g = state.g
    xy = (1 << (x - 1)) | (1 << (y - 1))
    cells = [s for s in state.empty_cells() if state.cands[s] & xy == xy]
    near = {s: [t for t in cells if t != s and t in g.peer_sets[s]] for s in cells}
    seen: set[tuple[int, ...]] = set()
    out: list[tuple[int, ...]] = []
    for size in unique_loops.SIZES:
        if size > len(cells):
            break

        def walk(path: list[int], count: dict[int, int], extra: int, size: int = size) -> None:
            end = path[-1]
            if len(path) == size:
                if path[0] in near[end] and all(v == 2 for v in count.values()):
                    key = tuple(sorted(path))
                    if key not in seen:
                        seen.add(key)
                        out.append(key)
                return
            for t in near[end]:
                if t in path or t < path[0]:
                    continue
                more = extra + (state.cands[t] != xy)
                if more > unique_loops.MAX_EXTRA or any(count.get(u, 0) >= 2 for u in g.units_of[t]):
                    continue
                for u in g.units_of[t]:
                    count[u] = count.get(u, 0) + 1
                walk([*path, t], count, more)
                for u in g.units_of[t]:
                    count[u] -= 1
                    if not count[u]:
                        del count[u]

        for s in cells:
            walk([s], {u: 1 for u in g.units_of[s]}, int(state.cands[s] != xy))
    return out


def plain_unique_loop(state: State) -> Step | None:
    for x in state.g.digits:
        for y in range(x + 1, state.g.size + 1):
            for loop in plain_loops(state, x, y):
                step = unique_loops._loop_step(state, loop, x, y)
                if step is not None:
                    return step
    return None


def test_loop_kernel_lists_the_loops_of_the_plain_walk(loop_states):
    loops = 0
    for state in loop_states:
        if not state.g.is_standard:
            continue
        for x in state.g.digits:
            for y in range(x + 1, state.g.size + 1):
                want = plain_loops(state, x, y)
                assert unique_loops._loops(fresh(state), x, y) == want
                loops += len(want)
    assert loops >= 20, loops


def test_unique_loop_step_is_the_plain_walks_step(loop_states):
    found = 0
    for state in loop_states:
        if not state.g.is_standard:
            continue
        want = plain_unique_loop(state)
        assert unique_loops.unique_loop(fresh(state)) == want
        found += want is not None
    assert found >= 1, found
