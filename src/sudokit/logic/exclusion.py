"""Aligned Pair Exclusion (Sudoku Explainer 6.2).

Take two cells and every pair of digits they could hold together. A pair is impossible when the two cells
see each other and the digits are equal, or when a bivalue cell that sees both cells holds exactly those two
digits (it would be left empty). A digit of one cell that appears in no possible pair is removed.

As in Sudoku Explainer, the two cells need not share a unit but must have at least two bivalue cells that
see both (the *excluding* cells); cells are taken in grid order, and the first pair that removes
something is the step. Works on every geometry.
"""

from __future__ import annotations

from sudokit.logic import text
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step


def aligned_pair_exclusion(state: State) -> Step | None:
    """The first pair of cells whose possible digit pairs leave out a digit of one of them; the pair is found by
    :func:`sudokit.logic.exclusion_kernel.pair_hit`."""
    from sudokit.logic import exclusion_kernel, state_arrays, wings_kernel

    _values, cands = state_arrays.arrays(state)
    a, b = (int(v) for v in exclusion_kernel.pair_hit(cands, wings_kernel.sees(state.g)))
    if a < 0:
        return None
    c = state.cands
    peers = state.g.peer_sets
    common = sorted(s for s in peers[a] & peers[b] if c[s].bit_count() == 2)
    return _step(state, a, b, common, pair_removals(state, a, b, common))


def pair_removals(state: State, a: int, b: int, common: list[int]) -> list[tuple[int, int]]:
    """The digits of ``a`` and ``b`` in no pair the two can hold together, given the bivalue cells ``common``
    that see both (empty when the pair removes nothing)."""
    c = state.cands
    covers = {c[s] for s in common}
    see = b in state.g.peer_sets[a]
    keep_a = keep_b = 0
    for x in digits_of(c[a]):
        for y in digits_of(c[b]):
            if x == y and see:
                continue
            if (1 << (x - 1) | 1 << (y - 1)) in covers:
                continue
            keep_a |= 1 << (x - 1)
            keep_b |= 1 << (y - 1)
    return [(a, d) for d in digits_of(c[a] & ~keep_a)] + [(b, d) for d in digits_of(c[b] & ~keep_b)]


def _step(state: State, a: int, b: int, common: list[int], elim: list[tuple[int, int]]) -> Step:
    c = state.cands
    cover = ", ".join(f"{state.label(s)} {text.digit_set(digits_of(c[s]), state)}" for s in common)
    return Step(
        "Aligned Pair Exclusion",
        eliminations=elim,
        cells=[a, b, *common],
        candidates=[(s, d) for s in (a, b, *common) for d in state.digits(s)],
        explanation=(
            f"Aligned pair exclusion on {state.label(a)} and {state.label(b)}: the bivalue cells {cover} see both, "
            f"so the two cannot hold both digits of any of them"
            + (" (nor one digit twice, as they see each other)" if b in state.g.peer_sets[a] else "")
            + f"; every pair using the digits below is ruled out: {text.removals(state, elim)}"
        ),
    )
