"""Nice loops: alternating chains of strong and weak links (see :mod:`sudokit.logic.chains`) that close on
themselves.

- *Continuous* loop ``a = b - c = d - a``: following it from "a is false" or from "a is true" goes all the
  way round, so every link holds exactly one true candidate. A weak link then acts as a strong one too:
  candidates that conflict with both of its ends go (other cells that see both, or other digits of a cell
  whose two loop candidates are linked inside it).
- *Discontinuous* loop, broken at one candidate ``a``: with two strong links at ``a`` (``a = ... = a``),
  "a is false" leads back to "a is true", so ``a`` is placed; with two weak links (``t - a = ... = w - t``)
  "t is true" leads to "t is false", so ``t`` goes. A strong and a weak link of two digits in one cell
  (``(t-a)X = ... = w - (t)X``) is the same case: ``t`` leaves the cell.

The search is a breadth-first walk from each candidate over bitset levels (the candidates first reached at
each depth), so the shortest loop is found, and loops are bounded to :data:`MAX_NODES` candidates like
:func:`sudokit.logic.chains.aic`. Every elimination of a continuous loop is also the elimination of an AIC
of the same length (the loop cut at that link), so a continuous loop is reported only when no AIC is
shorter: tried before AICs, it then makes all its eliminations in one step without raising the rating.
"""

from __future__ import annotations

from dataclasses import dataclass

from sudokit.logic import groups, text
from sudokit.logic.chains import bit_numbers, length_penalty
from sudokit.logic.chains import graph as chain_graph
from sudokit.logic.state import State
from sudokit.logic.step import Step

#: Longest loop searched, in candidates (the bound of :func:`sudokit.logic.chains.aic`).
MAX_NODES = 20
#: SE-style base rating of nice loops before the length penalty (Sudoku Explainer's cycles and forcing
#: chains over mixed links; HoDoKu scores them like AICs).
BASE = 7.0


@dataclass(frozen=True)
class Loop:
    """A loop found in a state. ``nodes`` are candidate numbers (``cell * size + digit - 1``) in loop order,
    ``strong[i]`` tells whether the link from ``nodes[i]`` to the next node is strong; a continuous loop
    closes from the last node back to the first. ``kind`` is ``continuous``, ``true`` (a discontinuous loop
    whose first node is placed) or ``false`` (a discontinuous loop whose first node goes); ``removed`` is the
    bitset of the candidates that go (0 for a placement)."""

    kind: str
    nodes: tuple[int, ...]
    strong: tuple[bool, ...]
    removed: int
    length: int  # nodes counted for the length penalty


def _walk_back(levels: list[int], strong: dict[int, int], conf: dict[int, int], w: int, depth: int) -> list[int]:
    """The candidates of one shortest alternating path from the start (level 0) to ``w`` at ``depth``."""
    path = [w]
    cur = w
    for k in range(depth - 1, -1, -1):
        # level k is "off" when k is even (left by a strong link), "on" when odd (left by a weak link)
        prev = levels[k] & (strong[cur] if k % 2 == 0 else conf[cur])
        cur = (prev & -prev).bit_length() - 1
        path.append(cur)
    path.reverse()
    return path


# the links of the last state seen, as one (key, links) tuple read and replaced whole (safe across threads):
# the loop finders ask in turn on the same state
_last_links: tuple = (None, None)


def _links(state: State) -> tuple[list[int], dict[int, int], dict[int, int]]:
    """The candidates, and for each its strong links and its conflicts (weak links) as bitsets."""
    global _last_links
    key = (state.g, tuple(state.cands))
    last = _last_links
    if last[0] == key:
        return last[1]
    found = _links_of(state)
    _last_links = (key, found)
    return found


def _links_of(state: State) -> tuple[list[int], dict[int, int], dict[int, int]]:
    graph = chain_graph(state, "aic")  # the one the AIC row, tried next, uses too
    conf = {v: graph.in_cell[v] | graph.same_digit[v] for v in graph.nodes}
    strong = {}
    for v in graph.nodes:
        bits = 0
        for w in graph.strong[v]:
            bits |= 1 << w
        strong[v] = bits
    return graph.nodes, strong, conf


def find_continuous(state: State, max_nodes: int = MAX_NODES, grouped: bool = False) -> Loop | None:
    """The shortest continuous loop (at most ``max_nodes`` candidates) that removes something. ``grouped``: over
    the graph with group nodes too (:mod:`sudokit.logic.groups`).

    A loop is looked for from its smallest candidate only: the walk from ``a`` leaves out every candidate
    numbered below ``a``, which makes the later walks short. A numba kernel (``loops_kernel.continuous_loop``)
    runs the walks from every start over the AIC graph's links and returns the shortest loop (the first in
    candidate order)."""
    from sudokit.logic import loops_kernel

    strong_w, _weak_w, conf_w = _words(state, grouped)
    path = [int(v) for v in loops_kernel.continuous_loop(strong_w, conf_w, max_nodes + 1)]
    if not path:
        return None
    if grouped:
        removed = 0
        for i, v in enumerate(path):
            removed |= groups.row_bits(conf_w[v]) & groups.row_bits(conf_w[path[(i + 1) % len(path)]])
        for v in path:
            removed &= ~(1 << v)
    else:
        removed = _continuous_removals(path, _links(state)[2])
    return Loop("continuous", tuple(path), _alternate(len(path)), removed, len(path))


def _words(state: State, grouped: bool) -> tuple:
    """(strong links, weak links, conflicts) as word rows: the AIC graph's, or with its group nodes."""
    if grouped:
        return groups.graph(state, "aic").words
    return chain_graph(state, "aic").link_words()


def _reach(frontier: int, links: dict[int, int]) -> int:
    """The candidates one link away from any candidate of ``frontier`` (bitsets)."""
    nxt = 0
    while frontier:
        low = frontier & -frontier
        nxt |= links[low.bit_length() - 1]
        frontier ^= low
    return nxt


def find_discontinuous(state: State, max_nodes: int = MAX_NODES, first: bool = False) -> Loop | None:
    """The shortest discontinuous loop (at most ``max_nodes`` candidates counted as for its rating): one that
    places its first candidate, or else one that removes it. ``first``: any such loop, found sooner."""
    nodes, strong, conf = _links(state)
    best: Loop | None = None
    limit = max_nodes + 1
    for a in nodes:
        if best is not None and first:
            break
        if not strong[a]:
            continue
        bit_a = 1 << a
        conf_a = conf[a]
        seen_off, seen_on = bit_a, 0
        levels = [bit_a]
        frontier = bit_a
        depth = 0
        # at an odd depth d, "a is false" has led to a true candidate w: if w is a itself the loop places a
        # (d candidates); if w and a conflict with the same t, t goes (an AIC of d + 1 candidates)
        while frontier and depth + 1 < limit:
            depth += 1
            nxt = _reach(frontier, strong if depth % 2 else conf)
            if depth % 2:
                frontier = nxt & ~seen_on
                seen_on |= frontier
            else:
                frontier = nxt & ~seen_off
                seen_off |= frontier
            levels.append(frontier)
            if not depth % 2 or depth < 3:
                continue
            if frontier & bit_a:
                path = _walk_back(levels, strong, conf, a, depth)
                if len(set(path)) == depth:  # a ... a with no other repeat
                    best = Loop("true", tuple(path[:-1]), _alternate(depth), 0, depth)
                    limit = depth
                    break
            if depth + 1 >= limit:
                continue
            for w in bit_numbers(frontier & ~bit_a):
                removed = conf_a & conf[w] & ~bit_a & ~(1 << w)
                if not removed:
                    continue
                path = _walk_back(levels, strong, conf, w, depth)
                for v in path:  # a candidate the chain passes through is no loop's break point
                    removed &= ~(1 << v)
                if removed:
                    t = (removed & -removed).bit_length() - 1
                    best = Loop("false", (t, *path), (False, *_alternate(depth), False), removed, depth + 1)
                    limit = depth + 1
                    break
    return best


def _alternate(links: int) -> tuple[bool, ...]:
    """Link kinds strong, weak, strong, ... for ``links`` links."""
    return tuple(i % 2 == 0 for i in range(links))


def _continuous_removals(path: list[int], conf: dict[int, int]) -> int:
    """What a continuous loop removes: candidates that conflict with both ends of one of its links."""
    loop = 0
    for v in path:
        loop |= 1 << v
    removed = 0
    for i, v in enumerate(path):
        w = path[(i + 1) % len(path)]
        removed |= conf[v] & conf[w]
    return removed & ~loop


def _notation(state: State, nodes: list[int], strong: list[bool], names: groups.Nodes) -> str:
    """Eureka notation with the grid's labels, e.g. ``(4)A2 = (4)A7 - (4=6)B8 - (6)B3 = (4)A2``: candidates of
    one cell next to each other share a bracket, ``=`` is a strong link and ``-`` a weak one; a group reads
    ``(4){A2,A3}``."""
    n = state.g.size
    out = []
    run: list[str] = []
    cell = -1
    for i, v in enumerate(nodes):
        s = v // n  # a group's number is past every cell's
        sym = "" if i == 0 else ("=" if strong[i - 1] else "-")
        if s == cell:
            run.append(sym + state.sym(v % n + 1))
            continue
        if run:
            out.append(f"({''.join(run)}){names.label(state, nodes[i - 1])}")
            out.append(f" {sym} ")
        run, cell = [state.sym(v % n + 1)], s
    out.append(f"({''.join(run)}){names.label(state, nodes[-1])}")
    return "".join(out)


def _closed(loop: Loop, n: int) -> tuple[list[int], list[bool]]:
    """The loop's nodes with the first one repeated at the end, turned so that it does not start inside a
    cell (the closing link then joins two cells and reads clearly)."""
    nodes, strong = list(loop.nodes), list(loop.strong)
    if loop.kind == "continuous":
        k = next(i for i in range(len(nodes)) if nodes[i] // n != nodes[i - 1] // n)
        nodes, strong = nodes[k:] + nodes[:k], strong[k:] + strong[:k]
    return nodes + [nodes[0]], strong


def _step(state: State, loop: Loop, grouped: bool = False) -> Step | None:
    n = state.g.size
    names = groups.graph(state, "aic") if grouped else groups.Nodes(state)
    nodes, strong = _closed(loop, n)
    each = [names.candidates(v) for v in nodes]
    cands = [c for cs in each[:-1] for c in cs]
    links = [(a, b, strong[i]) for i in range(len(strong)) for a in each[i] for b in each[i + 1]]
    rating = round(BASE + length_penalty(loop.length), 1)
    written = _notation(state, nodes, strong, names)
    prefix = "Grouped " if grouped else ""

    def step(placements: list[tuple[int, int]], eliminations: list[tuple[int, int]], explanation: str) -> Step:
        return Step(
            f"{prefix}{'Continuous' if loop.kind == 'continuous' else 'Discontinuous'} Nice Loop",
            placements=placements,
            eliminations=eliminations,
            cells=sorted({s for s, _ in cands}),
            candidates=cands,
            links=links,
            explanation=explanation,
            rating=rating,
        )

    if loop.kind == "continuous":
        elim = names.removals(loop.removed)
        if not elim:
            return None
        return step(
            [],
            elim,
            f"{prefix}Continuous Nice Loop {written}: each link holds exactly one true candidate, so "
            f"{text.removals(state, elim)}",
        )
    (s, d) = each[0][0]
    if loop.kind == "true":
        return step(
            [(s, d)],
            [],
            f"{prefix}Discontinuous Nice Loop {written}: if {state.label(s)} were not {state.sym(d)} the loop would "
            f"make it {state.sym(d)}, so {text.placements(state, [(s, d)])}",
        )
    elim = names.removals(loop.removed)
    return step(
        [],
        elim,
        f"{prefix}Discontinuous Nice Loop {written}: {state.sym(d)} in {state.label(s)} would rule itself out "
        f"({names.say(state, nodes[1])} or {names.say(state, nodes[-2])}), so {text.removals(state, elim)}",
    )


def continuous_nice_loop(state: State, grouped: bool = False) -> Step | None:
    """A closed alternating loop: every link holds exactly one true candidate, so what sees both ends of a
    link goes. Only reported when no discontinuous loop (an AIC) is shorter, so that trying loops before
    AICs never gives a step a higher rating than the chain it stands in for. ``grouped``: its nodes may be
    groups (:mod:`sudokit.logic.groups`), and so may the shorter AIC's."""
    loop = find_continuous(state, grouped=grouped)
    if loop is None:
        return None
    if grouped:
        from sudokit.logic import chains_kernel

        strong_w, weak_w, conf_w = _words(state, True)
        if chains_kernel.best_start(strong_w, weak_w, conf_w, loop.length - 1, state.g.size, 0)[0] >= 0:
            return None
    elif find_discontinuous(state, loop.length - 1, first=True) is not None:
        return None
    return _step(state, loop, grouped)


def discontinuous_nice_loop(state: State, after_aic: bool = False) -> Step | None:
    """A loop broken at one candidate: placed when both its links there are strong, removed when both are
    weak (or when a strong and a weak link meet in its cell).

    ``after_aic``: the caller has just found no AIC of up to :data:`MAX_NODES` candidates (the solving table
    tries this right after the AIC). Every discontinuous loop that removes a candidate is such an AIC, and
    one that places ``a`` through ``... - v = a`` holds the AIC from ``a`` to the candidate before ``v``,
    which removes ``v``; so only the three-candidate placements (``a = b - c = a``) are left to look for."""
    loop = _three_candidate_placement(state) if after_aic else find_discontinuous(state)
    return None if loop is None else _step(state, loop)


def _three_candidate_placement(state: State) -> Loop | None:
    """``a = b - c = a``: two strong links from ``a`` to candidates that conflict, so ``a`` is placed (what
    :func:`find_discontinuous` finds with ``max_nodes=3``, without the walk). The first ``a`` in candidate
    order, then the first ``b`` and ``c``; searched by a numba kernel over the AIC graph's links."""
    from sudokit.logic import loops_kernel

    strong_w, _weak_w, conf_w = chain_graph(state, "aic").link_words()
    a, b, c = loops_kernel.three_candidate_placement(strong_w, conf_w)
    return None if a < 0 else Loop("true", (a, b, c), (True, False, True), 0, 3)


def grouped_continuous_nice_loop(state: State) -> Step | None:
    """:func:`continuous_nice_loop` with group nodes."""
    return continuous_nice_loop(state, grouped=True)
