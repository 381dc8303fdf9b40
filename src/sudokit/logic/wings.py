"""Wings: XY-Wing, XYZ-Wing and W-Wing. They only use "sees" (shares a unit), so they work on every
geometry."""

from __future__ import annotations

from sudokit.logic import text
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Link, Step


def _seen_by_all(state: State, cells: list[int], d: int) -> list[tuple[int, int]]:
    """Cells (other than ``cells``) holding candidate ``d`` that see every cell of ``cells``."""
    peers = state.g.peer_sets
    common = set(peers[cells[0]])
    for s in cells[1:]:
        common &= peers[s]
    bit = 1 << (d - 1)
    return [(s, d) for s in sorted(common - set(cells)) if state.cands[s] & bit]


def xy_wing(state: State) -> Step | None:
    """Pivot {x,y} seeing pincers {x,z} and {y,z}: whichever the pivot is, one pincer is z."""
    c, peers = state.cands, state.g.peer_sets
    bivalue = [s for s in range(state.g.n_cells) if c[s].bit_count() == 2]
    for pivot in bivalue:
        near = [s for s in bivalue if s in peers[pivot] and (c[s] & c[pivot]).bit_count() == 1]
        for i, a in enumerate(near):
            for b in near[i + 1 :]:
                za = c[a] & ~c[pivot]
                if za != c[b] & ~c[pivot] or (c[a] & c[pivot]) == (c[b] & c[pivot]):
                    continue
                z = za.bit_length()
                elim = _seen_by_all(state, [a, b], z)
                if elim:
                    x, y = digits_of(c[pivot])
                    xa, xb = (c[a] & c[pivot]).bit_length(), (c[b] & c[pivot]).bit_length()
                    why = (
                        f"pivot {state.label(pivot)} {{{state.sym(x)},{state.sym(y)}}} with pincers "
                        f"{state.label(a)} {text.digit_set(digits_of(c[a]), state)} and {state.label(b)} "
                        f"{text.digit_set(digits_of(c[b]), state)}: one pincer is {state.sym(z)}"
                    )
                    # the wing as the chain a(z) = a(xa) - pivot(xa) = pivot(xb) - b(xb) = b(z)
                    links = [
                        ((a, z), (a, xa), True),
                        ((a, xa), (pivot, xa), False),
                        ((pivot, xa), (pivot, xb), True),
                        ((pivot, xb), (b, xb), False),
                        ((b, xb), (b, z), True),
                    ]
                    return _wing_step(state, "XY-Wing", (pivot, a, b), elim, why, links)
    return None


def xyz_wing(state: State) -> Step | None:
    """Pivot {x,y,z} seeing pincers {x,z} and {y,z}: z is in one of the three, so cells seeing all lose z."""
    c, peers = state.cands, state.g.peer_sets
    n = state.g.n_cells
    for pivot in range(n):
        if c[pivot].bit_count() != 3:
            continue
        near = [s for s in peers[pivot] if c[s].bit_count() == 2 and c[s] & ~c[pivot] == 0]
        for i, a in enumerate(near):
            for b in near[i + 1 :]:
                if c[a] == c[b] or (c[a] | c[b]) != c[pivot]:
                    continue
                z = (c[a] & c[b]).bit_length()
                elim = _seen_by_all(state, [pivot, a, b], z)
                if elim:
                    why = (
                        f"pivot {state.label(pivot)} {text.digit_set(digits_of(c[pivot]), state)} with pincers "
                        f"{state.label(a)} and {state.label(b)}: {state.sym(z)} is in one of the three"
                    )
                    return _wing_step(state, "XYZ-Wing", (pivot, a, b), elim, why)
    return None


def _wing_step(
    state: State,
    name: str,
    cells: tuple[int, int, int],
    elim: list[tuple[int, int]],
    why: str,
    links: list[Link] | None = None,
) -> Step:
    """The step of a wing with pivot and pincers ``cells``: ``name: why, so remove ...`` (``links``: its chain)."""
    return Step(
        name,
        eliminations=elim,
        cells=list(cells),
        candidates=[(s, d) for s in cells for d in digits_of(state.cands[s])],
        links=links or [],
        explanation=f"{name}: {why}, so {text.removals(state, elim)}",
    )


def w_wing(state: State) -> Step | None:
    """Two cells {x,y} that do not see each other, joined by a strong link on x (a unit where x has
    exactly two places, one seeing each cell): one of the two cells is y."""
    g, c, peers = state.g, state.cands, state.g.peer_sets
    bivalue = [s for s in range(g.n_cells) if c[s].bit_count() == 2]
    for i, a in enumerate(bivalue):
        for b in bivalue[i + 1 :]:
            if c[a] != c[b] or b in peers[a]:
                continue
            for x in digits_of(c[a]):
                y = next(d for d in digits_of(c[a]) if d != x)
                elim = _seen_by_all(state, [a, b], y)
                if not elim:
                    continue
                for u in range(len(g.units)):
                    where = state.positions(u, x)
                    if len(where) != 2 or a in where or b in where:
                        continue
                    p, q = where
                    if not (p in peers[a] and q in peers[b]):
                        p, q = q, p
                    if p in peers[a] and q in peers[b]:
                        return Step(
                            "W-Wing",
                            eliminations=elim,
                            cells=[a, b, p, q],
                            units=[u],
                            candidates=[(a, x), (a, y), (b, x), (b, y), (p, x), (q, x)],
                            links=[((a, x), (p, x), False), ((p, x), (q, x), True), ((q, x), (b, x), False)],
                            explanation=(
                                f"W-Wing: {state.label(a)} and {state.label(b)} are both "
                                f"{{{state.sym(min(x, y))},{state.sym(max(x, y))}}} "
                                f"and {state.sym(x)} in {state.unit_name(u)} is at {state.label(p)} or "
                                f"{state.label(q)}: one of "
                                f"them is {state.sym(y)}, so {text.removals(state, elim)}"
                            ),
                        )
    return None
