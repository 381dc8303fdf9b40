"""The step of a Sudoku Explainer forcing chain found by :func:`implication_kernel.best` (Nishio, multiple and
dynamic forcing chains share it): what was assumed, what it led to, and SE's rating, the technique's base plus
the length penalty (:func:`sudokit.logic.chains.length_penalty`) of the conclusion's chains.

The length is SE's: the number of distinct nodes among the ancestors of each end of the conclusion (itself
included), summed over the ends; a contradiction's second end, found when a candidate already on is turned off
(or the reverse), counts the chain that reached it, as SE's new potential does. Measured on every 10th puzzle
``sudoku_exchange_rated`` rates 7.0-9.4 (198): exact ER 113 -> 166 against counting that end as itself alone
(and the tree of causes with repeats, which made up for it in part)."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, partial

from sudokit.geometry import Geometry, padded
from sudokit.logic import text
from sudokit.logic.chains import length_penalty
from sudokit.logic.misses import digit_cells, on_digit
from sudokit.logic.state import State
from sudokit.logic.step import Step

#: the order SE visits a cell's units in (its region types: block, row, column); other kinds come after
_SE_KINDS = ("box", "region", "row", "column")


@lru_cache(maxsize=16)
def se_order(g: Geometry) -> tuple:
    """(units of each cell, peers of each cell) as padded arrays in the order SE follows them: the cell's box
    first, then its row, then its column (then any other unit, then the peers that share no unit), each
    unit's cells in unit order. The order decides which cause a candidate reached twice keeps, and so the
    length SE counts (measured on the Nishio steps of every 10th puzzle ``sudoku_exchange_rated`` rates
    7.5-8.0: 7 of 64 rated 0.1 off SE in sorted order, none in this one)."""

    def rank(u: int) -> int:
        kind = g.unit_kinds[u]
        return _SE_KINDS.index(kind) if kind in _SE_KINDS else len(_SE_KINDS)

    units_of, peers = [], []
    for s in g.cells:
        mine = sorted(g.units_of[s], key=rank)
        seen: dict[int, None] = {}
        for u in mine:
            for t in g.units[u]:
                if t != s:
                    seen.setdefault(t, None)
        for t in g.peers[s]:
            seen.setdefault(t, None)
        units_of.append(mine)
        peers.append(list(seen))
    return padded(units_of, g.cell_unit_array.shape[1]), padded(peers, g.peer_array.shape[1])


def find(
    state: State,
    name: str,
    base: float,
    *,
    dynamic: bool,
    x_only: bool,
    binary: int,
    multiple: bool,
    min_cell: int = 2,
):
    """The conclusion SE takes first among those of the kinds asked for (``binary``, ``min_cell``: see
    :func:`implication_kernel.best`), as a step rated ``base`` + length."""
    from sudokit.logic import implication_kernel as k
    from sudokit.logic import state_arrays

    units, _, _, _ = state_arrays.tables(state.g)
    units_of, peers = se_order(state.g)
    _, cands = state_arrays.arrays(state)
    n = state.g.size
    # the most places a digit has, from the cells of each digit (made once per state, the X-chain rows' too)
    most = max(cells.bit_count() for _, cells, _ in digit_cells(state)[1:])
    work = k.branches(cands, n, units.shape[0], most)

    def search(digits: int) -> tuple[int, int, int, int]:
        found = k.best(cands, units, units_of, peers, n, dynamic, x_only, binary, multiple, min_cell, digits, *work)
        return int(found[0]), int(found[1]), int(found[2]), int(found[3])

    if x_only and not multiple and not binary & 4:
        kind, where, node, length = _by_digits(state, search, dynamic, binary)
    else:
        kind, where, node, length = search((1 << n) - 1)
    if kind < 0:
        return None
    rating = round(base + length_penalty(length), 1)

    def cand(a: int) -> tuple[int, int]:
        return a // n, a % n + 1

    def say(a: int, on: bool) -> str:
        s, d = cand(a)
        return f"{state.label(s)} {'is' if on else 'is not'} {state.sym(d)}"

    placements: list[tuple[int, int]] = []
    eliminations: list[tuple[int, int]] = []
    if kind in (k.FALSE_ON, k.TRUE_OFF):
        start = cand(where)
        if kind == k.FALSE_ON:
            eliminations = [start]
        else:
            placements = [start]
        assumed = say(where, kind == k.FALSE_ON)
        cells = [start[0], node // n]
        marked = [start, cand(node)]
        why = f"if {assumed}, {length} candidates in its chains lead to {say(node, True)} and {say(node, False)}"
    else:
        target = cand(node >> 1)
        (placements if node & 1 else eliminations).append(target)
        if kind == k.DOUBLE:
            cells, marked = [where // n, target[0]], [cand(where), target]
            concluded = say(node >> 1, bool(node & 1))
            why = f"whether {say(where, True)} or not, {concluded} ({length} candidates in the chains)"
        elif kind == k.CELL:
            digits = state.digits(where)
            cells, marked = [where, target[0]], [(where, d) for d in digits] + [target]
            why = (
                f"whichever of {text.digit_set(digits, state)} {state.label(where)} takes, "
                f"{say(node >> 1, bool(node & 1))} ({length} candidates in the chains)"
            )
        else:
            u, d = divmod(where, n)
            places = [s for s in state.g.units[u] if state.cands[s] >> d & 1]
            cells, marked = places + [target[0]], [(s, d + 1) for s in places] + [target]
            why = (
                f"wherever {state.sym(d + 1)} goes in {state.unit_name(u)} ({text.cells(state, places)}), "
                f"{say(node >> 1, bool(node & 1))} ({length} candidates in the chains)"
            )
    what = text.placements(state, placements) if placements else text.removals(state, eliminations)
    return Step(
        name,
        placements=placements,
        eliminations=eliminations,
        cells=sorted(set(cells)),
        candidates=sorted(set(marked)),
        rating=rating,
        explanation=f"{name}: {why}, so {what}",
    )


def _by_digits(
    state: State, search: Callable[[int], tuple[int, int, int, int]], dynamic: bool, binary: int
) -> tuple[int, int, int, int]:
    """The first conclusion in SE's order (:func:`implication_kernel.best`: fewest ancestors, then the kind's
    sort key, then the first found) among each digit's, each found by ``search`` (a digit mask) or remembered
    from an earlier state with the same cells for the digit (:func:`sudokit.logic.misses.on_digit`: chains
    that follow one digit conclude what its cells alone decide)."""
    from sudokit.logic import implication_kernel as k

    chosen, chosen_order = (-1, -1, -1, 0), None
    tag = ("implications", dynamic, binary)
    for d in state.g.digits:
        found = on_digit(tag, state, d, partial(search, 1 << (d - 1)))
        kind, where = found[0], found[1]
        if kind < 0:
            continue
        order = (found[3], k.SORT_KEY[kind], 2 * where + (kind == k.TRUE_OFF))
        if chosen_order is None or order < chosen_order:
            chosen, chosen_order = found, order
    return chosen
