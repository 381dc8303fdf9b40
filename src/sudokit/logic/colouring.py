"""Colouring beyond one cluster: Multi-Colouring (HoDoKu's "Multi Colors") and 3D Medusa.

Both colour candidates in two colours along strong links, so that in each cluster exactly one colour is true:
Multi-Colouring joins two clusters of one digit's conjugate pairs (the links of Simple Colouring,
``chains.simple_colouring``); 3D Medusa colours candidates of every digit, over conjugate pairs and bivalue
cells. Plain Python: clusters are small.
"""

from __future__ import annotations

from typing import TypeVar

from sudokit.logic import text
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Candidate, Link, Step

MULTI = "Multi-Colouring"
MEDUSA = "3D Medusa"

Cluster = tuple[list[Candidate], list[Candidate]]  # the two colours
Node = TypeVar("Node", int, Candidate)  # a cell (one digit's conjugate pairs) or a candidate


def two_colourings(adj: dict[Node, list[Node]]) -> list[dict[Node, int]]:
    """The connected clusters of a strong-link graph (from its smallest node on), each as its nodes' colours, 0
    or 1, alternating along the links: in each cluster one colour is true. Simple Colouring's clusters too."""
    seen: set[Node] = set()
    out = []
    for start in sorted(adj):
        if start in seen:
            continue
        colour = {start: 0}
        stack = [start]
        while stack:
            a = stack.pop()
            for b in adj[a]:
                if b not in colour:
                    colour[b] = 1 - colour[a]
                    stack.append(b)
        seen.update(colour)
        out.append(colour)
    return out


def _colour(adj: dict[Candidate, list[Candidate]]) -> list[tuple[Cluster, list[Link]]]:
    """The connected clusters of a strong-link graph, each as its two colours (in node order) with its links."""
    out = []
    for colour in two_colourings(adj):
        sides = (sorted(n for n, k in colour.items() if k == 0), sorted(n for n, k in colour.items() if k == 1))
        links = [(a, b, True) for a in sides[0] for b in adj[a]]
        out.append((sides, links))
    return out


def _conjugates(state: State, d: int, adj: dict[Candidate, list[Candidate]]) -> None:
    """Add digit ``d``'s conjugate pairs (a unit with two places for ``d``) to ``adj``."""
    for u in range(len(state.g.units)):
        where = state.positions(u, d)
        if len(where) == 2:
            a, b = (where[0], d), (where[1], d)
            if b not in adj.setdefault(a, []):
                adj[a].append(b)
                adj.setdefault(b, []).append(a)


def _sees(state: State, a: Candidate, b: Candidate) -> bool:
    """Two candidates of one digit in cells that see each other (both cannot be true)."""
    return a[1] == b[1] and b[0] in state.g.peer_sets[a[0]]


def _sees_any(state: State, a: Candidate, group: list[Candidate]) -> bool:
    return any(_sees(state, a, b) for b in group)


# ---- Multi-Colouring ---------------------------------------------------------------------------------------
def multi_colouring(state: State) -> Step | None:
    """Two clusters of one digit's conjugate pairs, A (colours a, a') and B (b, b'), with a cell of colour a
    seeing one of colour b. Type 1: a and b are not both true, so a' or b' is: a cell seeing both a' and b'
    loses the digit; when a' also sees b', the cells seeing both a and b lose it too, in the same step (HoDoKu's
    Multi Colors 1 makes every removal of the pair of clusters at once). Type 2: a colour that sees both colours of
    the other cluster is false. Digits in order, pairs of clusters in order; type 2 before type 1 for each pair."""
    for d in state.g.digits:
        adj: dict[Candidate, list[Candidate]] = {}
        _conjugates(state, d, adj)
        clusters = _colour(adj)
        for i, (ca, la) in enumerate(clusters):
            for cb, lb in clusters[i + 1 :]:
                step = _multi_pair(state, d, ca, cb, la + lb)
                if step is not None:
                    return step
    return None


def _multi_pair(state: State, d: int, ca: Cluster, cb: Cluster, links: list[Link]) -> Step | None:
    for one, other in ((ca, cb), (cb, ca)):
        for k in (0, 1):
            group = one[k]
            if any(_sees_any(state, a, other[0]) for a in group) and any(_sees_any(state, a, other[1]) for a in group):
                elim = sorted(group)
                why = (
                    f"{{{_cells(state, group)}}} sees both colours of the other cluster, so it cannot hold "
                    f"{state.sym(d)}"
                )
                return _multi_step(state, d, ca, cb, links, elim, 2, why)
    coloured = set(ca[0] + ca[1] + cb[0] + cb[1])
    found = []  # each pair of colours that see each other, with what sees both of the far colours
    for i in (0, 1):
        for j in (0, 1):
            if not any(_sees_any(state, a, cb[j]) for a in ca[i]):
                continue
            far_a, far_b = ca[1 - i], cb[1 - j]
            elim = [
                (s, d)
                for s in state.empty_cells()
                if state.cands[s] >> (d - 1) & 1
                and (s, d) not in coloured
                and _sees_any(state, (s, d), far_a)
                and _sees_any(state, (s, d), far_b)
            ]
            if elim:
                found.append((i, j, elim))
    if not found:
        return None
    reasons = [
        f"{{{_cells(state, ca[i])}}} and {{{_cells(state, cb[j])}}} see each other, so "
        f"{{{_cells(state, ca[1 - i])}}} or {{{_cells(state, cb[1 - j])}}} holds {state.sym(d)}"
        for i, j, _ in found
    ]
    if len(found) == 1:
        why = f"{reasons[0]}; these cells see both"
    else:  # both pairs of colours see each other: every removal in one step, as HoDoKu makes it
        why = "; ".join(f"{r} ({text.removals(state, e)})" for r, (_, _, e) in zip(reasons, found))
    elim = sorted({c for _, _, e in found for c in e})
    return _multi_step(state, d, ca, cb, links, elim, 1, why)


def _cells(state: State, group: list[Candidate]) -> str:
    return text.cells(state, [s for s, _ in group])


def _multi_step(
    state: State, d: int, ca: Cluster, cb: Cluster, links: list[Link], elim: list[Candidate], kind: int, why: str
) -> Step:
    nodes = ca[0] + ca[1] + cb[0] + cb[1]
    return Step(
        MULTI,
        eliminations=elim,
        cells=[s for s, _ in nodes],
        candidates=nodes,
        links=links,
        rating=6.6,
        explanation=(
            f"Multi-Colouring type {kind} on {state.sym(d)}: clusters {{{_cells(state, ca[0])}}} / "
            f"{{{_cells(state, ca[1])}}} and {{{_cells(state, cb[0])}}} / {{{_cells(state, cb[1])}}} "
            f"(one colour of each holds every {state.sym(d)}); {why}: {text.removals(state, elim)}"
        ),
    )


# ---- 3D Medusa -----------------------------------------------------------------------------------------------
def medusa(state: State) -> Step | None:
    """Colour candidates of every digit over conjugate pairs and bivalue cells; in each cluster of more than
    one digit one colour is true. The six rules: a colour twice in a cell (1) or twice on one digit in a unit
    (2) is false; a cell holding both colours loses its other candidates (3); an uncoloured candidate that
    sees both colours on its digit (4), or that sees one colour on its digit while its cell holds the other
    colour (5), is removed; a colour that would empty an uncoloured cell (every candidate of it sees that
    colour on its digit) is false (6). Clusters in order of their first candidate, rules in that order."""
    adj: dict[Candidate, list[Candidate]] = {}
    for d in state.g.digits:
        _conjugates(state, d, adj)
    for s in state.empty_cells():
        ds = digits_of(state.cands[s])
        if len(ds) == 2:
            a, b = (s, ds[0]), (s, ds[1])
            if b not in adj.setdefault(a, []):
                adj[a].append(b)
                adj.setdefault(b, []).append(a)
    for sides, links in _colour(adj):
        if len({d for _, d in sides[0] + sides[1]}) < 2:
            continue  # one digit: simple colouring's
        step = _medusa_on(state, sides, links)
        if step is not None:
            return step
    return None


def _medusa_on(state: State, sides: Cluster, links: list[Link]) -> Step | None:
    for rule in (1, 2):
        for k in (0, 1):
            grp = sides[k]
            for i, a in enumerate(grp):
                for b in grp[i + 1 :]:
                    if rule == 1 and a[0] == b[0]:
                        why = f"{state.label(a[0])} would hold two digits ({state.sym(a[1])} and {state.sym(b[1])})"
                        return _false(state, sides, links, k, 1, why)
                    if rule == 2 and _sees(state, a, b):
                        why = f"{state.label(a[0])} and {state.label(b[0])} would both hold {state.sym(a[1])}"
                        return _false(state, sides, links, k, 2, why)
    coloured = set(sides[0] + sides[1])
    colour_in: list[dict[int, list[int]]] = [{}, {}]
    for k in (0, 1):
        for s, d in sides[k]:
            colour_in[k].setdefault(s, []).append(d)
    elim = [
        (s, d)
        for s in sorted(set(colour_in[0]) & set(colour_in[1]))
        for d in digits_of(state.cands[s])
        if (s, d) not in coloured
    ]
    if elim:
        return _medusa_step(state, sides, links, elim, 3, "a cell holding both colours keeps only those two")
    cands = [(s, d) for s in state.empty_cells() for d in digits_of(state.cands[s]) if (s, d) not in coloured]
    elim = [c for c in cands if _sees_any(state, c, sides[0]) and _sees_any(state, c, sides[1])]
    if elim:
        return _medusa_step(state, sides, links, elim, 4, "each sees both colours on its digit")
    elim = [
        (s, d) for s, d in cands if any(s in colour_in[k] and _sees_any(state, (s, d), sides[1 - k]) for k in (0, 1))
    ]
    if elim:
        why = "each sees one colour on its digit while its cell holds the other colour"
        return _medusa_step(state, sides, links, elim, 5, why)
    for k in (0, 1):
        for s in state.empty_cells():
            if s in colour_in[0] or s in colour_in[1]:
                continue
            if all(_sees_any(state, (s, d), sides[k]) for d in digits_of(state.cands[s])):
                why = f"it would leave {state.label(s)} no candidate"
                step = _false(state, sides, links, k, 6, why)
                step.cells.append(s)
                return step
    return None


def _false(state: State, sides: Cluster, links: list[Link], k: int, rule: int, why: str) -> Step:
    """Colour ``k`` is false: all its candidates go."""
    names = ("blue", "green")
    return _medusa_step(state, sides, links, sorted(sides[k]), rule, f"{names[k]} is false, since {why}")


def _medusa_step(state: State, sides: Cluster, links: list[Link], elim: list[Candidate], rule: int, why: str) -> Step:
    def show(group: list[Candidate]) -> str:
        return ", ".join(f"{state.label(s)}={state.sym(d)}" for s, d in group)

    return Step(
        MEDUSA,
        eliminations=sorted(elim),
        cells=sorted({s for s, _ in sides[0] + sides[1]}),
        candidates=sides[0] + sides[1],
        links=links,
        rating=7.0,
        explanation=(
            f"3D Medusa rule {rule}: blue {{{show(sides[0])}}} and green {{{show(sides[1])}}} (linked by conjugate "
            f"pairs and bivalue cells, one colour is true); {why}: {text.removals(state, elim)}"
        ),
    )
