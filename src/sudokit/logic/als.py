"""Almost locked sets (``n`` cells of one unit with ``n + 1`` candidates): ALS-XZ, ALS-XY-Wing, ALS-Chain, Death
Blossom.

ALS-XZ: two almost locked sets (``n`` cells of one unit with ``n + 1`` candidates) joined by a
restricted common digit ``x`` (every ``x`` of one sees every ``x`` of the other). At most one of them
holds ``x``, so the other is locked: any other common digit ``z`` is in one of them, and cells that see
every ``z`` of both lose ``z``. ALS-XY-Wing, ALS-Chain and Death Blossom chain three or more sets the same way
(see their finders). Work on every geometry."""

from __future__ import annotations

from functools import lru_cache

from sudokit.geometry import Geometry
from sudokit.logic import text
from sudokit.logic.misses import digit_cells
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step

#: the largest almost locked set listed on a grid larger than 9x9 (the lists would grow too long); up to 9x9 every
#: size is listed, as HoDoKu does (a set of 1 to ``size - 1`` cells; :func:`max_size`)
MAX_SIZE = 4


def max_size(g: Geometry) -> int:
    """The most cells of an almost locked set listed on ``g``: every size up to 9x9, :data:`MAX_SIZE` beyond.
    (Up to 4 cells, HoDoKu's regression library had ALS-XY-Wings, ALS-Chains and Death Blossoms we missed:
    benchmarks/reglib.py.)"""
    return g.size - 1 if g.size <= 9 else MAX_SIZE


def _sets(state: State) -> tuple:
    """The state's almost locked sets as the kernels list them (cells as word rows, masks, units, members),
    with the cells of each digit and the peers as word rows; listed once per state (``State.memo``) for every
    ALS technique."""
    found = state.memo.get("als")
    if found is None:
        from sudokit.logic import als_kernel, state_arrays

        g = state.g
        n_words = (g.n_cells + 63) // 64
        _values, cands = state_arrays.arrays(state)
        units, units_of, _peers, _full = state_arrays.tables(g)
        cells, masks, set_units, members = als_kernel.als_sets(cands, units, units_of, max_size(g), n_words)
        found = state.memo["als"] = (cells, masks, set_units, members, state_arrays.digit_words(state), _peer_words(g))
    return found


def _members(members, i: int) -> frozenset[int]:
    return frozenset(int(s) for s in members[i] if s >= 0)


def _removals(state: State, z: int, sets: list[frozenset[int]]) -> list[tuple[int, int]]:
    """``z`` from every cell outside ``sets`` that sees every ``z`` of each of them."""
    peer_bits = state.g.peer_bits
    digit_bits = [cells for _token, cells, _held in digit_cells(state)]
    bits = digit_bits[z]
    for cells in sets:
        bits &= _seeing(cells, z, digit_bits, peer_bits)
        for s in cells:
            bits &= ~(1 << s)
    return [(s, z) for s in range(state.g.n_cells) if bits >> s & 1]


def _describe(state: State, cells: frozenset[int], unit: int, mask: int) -> str:
    return f"{text.cells(state, cells)} ({state.unit_name(unit)}, {text.digit_set(digits_of(mask), state)})"


def als_xz(state: State) -> Step | None:
    """The first ALS-XZ elimination found: pairs of sets (unit by unit, smaller sets first, in combination
    order; a set already listed under an earlier unit is left out), then ``x`` and ``z`` in increasing
    order. Numba kernels list the sets and search the pairs over cell bitsets; only the pair found is written
    out."""
    from sudokit.logic import als_kernel

    c = state.cands
    cells, masks, set_units, members, digits, peers = _sets(state)
    if len(masks) < 2:
        return None
    i, j, x, z = als_kernel.als_xz_search(cells, masks, digits, peers, state.g.size)
    if i < 0:
        return None
    a, b = _members(members, i), _members(members, j)
    ma, mb, ua, ub, x, z = int(masks[i]), int(masks[j]), int(set_units[i]), int(set_units[j]), int(x), int(z)
    elim = _removals(state, z, [a, b])
    return Step(
        "ALS-XZ",
        eliminations=elim,
        cells=sorted(a | b),
        units=[ua, ub],
        candidates=[(s, d) for s in sorted(a | b) for d in digits_of(c[s])],
        explanation=(
            f"ALS-XZ: {_describe(state, a, ua, ma)} and {_describe(state, b, ub, mb)} share {state.sym(x)}, which "
            f"only one of them can hold, so {state.sym(z)} is in one of them: {text.removals(state, elim)}"
        ),
    )


def als_xy_wing(state: State) -> Step | None:
    """ALS-XY-Wing: three almost locked sets A, B, C, apart; A and B share a restricted common digit ``x``, B and
    C another one ``y``. If A lacked a digit ``z`` it shares with C, A would be locked and hold ``x``, so B
    would not, B would be locked and hold ``y``, and C would not, so C would be locked and hold ``z``: ``z`` is
    in A or in C, and cells that see every ``z`` of both lose it. The first found (pivots B in the sets'
    order, then A and C) by a numba kernel."""
    from sudokit.logic import als_kernel

    c = state.cands
    cells, masks, set_units, members, digits, peers = _sets(state)
    if len(masks) < 3:
        return None
    ia, ib, ic, x, y, z = (int(v) for v in als_kernel.als_xy_wing_search(cells, masks, digits, peers, state.g.size))
    if ia < 0:
        return None
    a, b, cc = _members(members, ia), _members(members, ib), _members(members, ic)
    elim = _removals(state, z, [a, cc])
    shown = sorted(a | b | cc)
    return Step(
        "ALS-XY-Wing",
        eliminations=elim,
        cells=shown,
        units=[int(set_units[i]) for i in (ia, ib, ic)],
        candidates=[(s, d) for s in shown for d in digits_of(c[s])],
        explanation=(
            f"ALS-XY-Wing: A = {_describe(state, a, int(set_units[ia]), int(masks[ia]))}, "
            f"B = {_describe(state, b, int(set_units[ib]), int(masks[ib]))}, "
            f"C = {_describe(state, cc, int(set_units[ic]), int(masks[ic]))}; A and B share {state.sym(x)}, B and "
            f"C share {state.sym(y)}, each holdable by only one of the two; without {state.sym(z)}, A would hold "
            f"{state.sym(x)}, B {state.sym(y)} and C {state.sym(z)}, so {state.sym(z)} is in A or C: "
            f"{text.removals(state, elim)}"
        ),
    )


#: ALS-Chain lengths in sets: from four (three are the ALS-XY-Wing) to HoDoKu's six
CHAIN_SETS = (4, 6)


def als_chain(state: State) -> Step | None:
    """ALS-Chain (HoDoKu's ALS-XY-Chain): almost locked sets A1, A2, ..., Ak, pairwise apart, each joined to the
    next by a restricted common digit, no two links in a row by the same digit. If A1 lacked a digit ``z`` it
    shares with Ak (neither the first link's digit nor the last one's), A1 would be locked and hold the first
    link's digit, so A2 would not, A2 would be locked and hold the second, and so on to Ak, which would hold
    ``z``: ``z`` is in A1 or Ak, and cells that see every ``z`` of both lose it. The shortest (then the first
    A1 in the sets' order, then ``z``), by a numba kernel; rated 8.0 plus the length penalty of two nodes per
    set."""
    from sudokit.logic import als_kernel
    from sudokit.logic.chains import length_penalty

    c = state.cands
    cells, masks, set_units, members, digits, peers = _sets(state)
    if len(masks) < CHAIN_SETS[0]:
        return None
    z, chain, via = als_kernel.als_chain_search(cells, masks, digits, peers, state.g.size, *CHAIN_SETS)
    if z < 0:
        return None
    z = int(z)
    order = [int(i) for i in chain if i >= 0]
    xs = [int(x) for x in via if x >= 0]
    sets = [_members(members, i) for i in order]
    elim = _removals(state, z, [sets[0], sets[-1]])
    shown = sorted(frozenset().union(*sets))
    names = [f"A{k + 1}" for k in range(len(sets))]
    parts = [
        f"{names[k]} = {_describe(state, cs, int(set_units[i]), int(masks[i]))}"
        for k, (cs, i) in enumerate(zip(sets, order))
    ]
    links = ", ".join(f"{names[k]}-{names[k + 1]} {state.sym(x)}" for k, x in enumerate(xs))
    return Step(
        "ALS-Chain",
        eliminations=elim,
        cells=shown,
        units=[int(set_units[i]) for i in order],
        candidates=[(s, d) for s in shown for d in digits_of(c[s])],
        rating=round(8.0 + length_penalty(2 * len(sets)), 1),
        explanation=(
            f"ALS-Chain: {'; '.join(parts)}; restricted common digits {links}, each holdable by only one of its "
            f"two sets; without {state.sym(z)}, {names[0]} would be locked and hold {state.sym(xs[0])}, and each "
            f"set after it would be locked in turn, so {names[-1]} would hold {state.sym(z)}: {state.sym(z)} is in "
            f"{names[0]} or {names[-1]}: {text.removals(state, elim)}"
        ),
    )


#: Death Blossom stems of up to this many candidates (HoDoKu's stems have 2 or 3 in practice)
MAX_PETALS = 4


def death_blossom(state: State) -> Step | None:
    """Death Blossom: a stem cell and, for each of its digits ``d``, an almost locked set (a petal) whose ``d``
    all see the stem. Whichever digit the stem takes leaves its petal without it, locked, so every petal but
    one is free and one is locked: a digit ``z`` that all petals share (and the stem lacks) is in one of them,
    and cells that see every ``z`` of every petal lose it. The first found, stems in cell order, by a numba
    kernel."""
    from sudokit.logic import als_kernel, state_arrays

    c = state.cands
    cells, masks, set_units, members, digits, peers = _sets(state)
    if len(masks) < 2:
        return None
    _values, cands = state_arrays.arrays(state)
    stem, z, petals = als_kernel.death_blossom_search(cells, masks, digits, peers, cands, state.g.size, MAX_PETALS)
    stem, z = int(stem), int(z)
    if stem < 0:
        return None
    chosen = [int(i) for i in petals if i >= 0]
    sets = [_members(members, i) for i in chosen]
    elim = _removals(state, z, sets)
    shown = sorted({stem}.union(*sets))
    stem_digits = digits_of(c[stem])
    parts = [
        f"{state.sym(d)}: {_describe(state, cs, int(set_units[i]), int(masks[i]))}"
        for d, cs, i in zip(stem_digits, sets, chosen)
    ]
    return Step(
        "Death Blossom",
        eliminations=elim,
        cells=shown,
        units=[int(set_units[i]) for i in chosen],
        candidates=[(s, d) for s in shown for d in digits_of(c[s])],
        explanation=(
            f"Death Blossom: stem {state.label(stem)} {text.digit_set(stem_digits, state)} with petals "
            f"{'; '.join(parts)}; whichever digit {state.label(stem)} takes locks its petal, which then holds "
            f"{state.sym(z)}: {text.removals(state, elim)}"
        ),
    )


def _seeing(cells: frozenset[int], d: int, digit_bits: list[int], peer_bits: tuple[int, ...]) -> int:
    """Cells that see every cell of ``cells`` holding candidate ``d``."""
    seen = -1
    for s in cells:
        if digit_bits[d] >> s & 1:
            seen &= peer_bits[s]
    return seen


@lru_cache(maxsize=32)
def _peer_words(g: Geometry):
    """Each cell's peers as 64-bit words (the kernel's cell sets)."""
    import numpy as np

    from sudokit.logic import state_arrays

    n_words = (g.n_cells + 63) // 64
    return np.array([state_arrays.words(b, n_words) for b in g.peer_bits], dtype=np.uint64)
