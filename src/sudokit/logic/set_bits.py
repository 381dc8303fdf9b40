"""Sets of different digits as the bits of one integer: the set with digit mask ``U`` is bit ``U`` (``2**n``
bits for ``n`` digits). The cells of a clique (cells that all see each other) hold a set of different digits;
the sets their first ``j`` cells can hold are one integer per ``j``, and a digit ``d`` a cell can hold takes
every set without it to the set with it in one shift (by ``2**(d - 1)``). The sum rows' exact fits of cliques
and cages (``sum_combinations.clique_fit``, ``cages.distinct_fit``) read their sets, sums and kept digits
from these levels."""

from __future__ import annotations

from functools import lru_cache


def digits_for(masks: tuple[int, ...]) -> int:
    """How many digits the tables need for ``masks``: 9, or more on a bigger board."""
    top = 9
    for m in masks:
        if m.bit_length() > top:
            top = m.bit_length()
    return top


@lru_cache(maxsize=8)
def tables(n: int) -> tuple[list[int], list[int], list[int]]:
    """Per digit bit ``d``: the sets that hold it and those that do not; per sum ``t``: the sets whose digits
    add up to it (``n`` digits)."""
    size = 1 << n
    everything = (1 << size) - 1
    has = []
    for d in range(n):
        run = 1 << d  # the sets with bit d: runs of 2**d ones after 2**d zeros, over and over
        pattern = ((1 << run) - 1) << run
        length = 2 * run
        while length < size:
            pattern |= pattern << length
            length *= 2
        has.append(pattern)
    sums = [0] * (n * (n + 1) // 2 + 1)
    total = [0] * size
    sums[0] = 1  # the empty set
    for u in range(1, size):
        low = u & -u
        total[u] = total[u ^ low] + low.bit_length()
        sums[total[u]] |= 1 << u
    return has, [everything ^ h for h in has], sums


def levels(masks: tuple[int, ...]) -> tuple[int, ...]:
    """The sets the first 0, 1, ... cells of a clique with candidates ``masks`` can hold, one integer each
    (memoised up to 9 digits: a level of 16 digits is 65,536 bits)."""
    return _levels(masks) if digits_for(masks) == 9 else _levels.__wrapped__(masks)


@lru_cache(maxsize=1 << 14)
def _levels(masks: tuple[int, ...]) -> tuple[int, ...]:
    _, lacks, _ = tables(digits_for(masks))
    out = [1]  # the empty set
    for m in masks:
        reached = 0
        free = m
        while free:
            b = free & -free
            free ^= b
            d = b.bit_length() - 1
            reached |= (out[-1] & lacks[d]) << (1 << d)
        out.append(reached)
    return tuple(out)


def sums_held(masks: tuple[int, ...]) -> int:
    """The sums (bit ``t`` for the sum ``t``) of the sets the clique can hold."""
    full = levels(masks)[-1]
    found = 0
    for t, having in enumerate(tables(digits_for(masks))[2]):
        if full & having:
            found |= 1 << t
    return found


def with_sums(masks: tuple[int, ...], allowed: int) -> int:
    """The sets the clique can hold whose sums are among ``allowed`` (bit ``t`` for the sum ``t``)."""
    wanted = 0
    for t, having in enumerate(tables(digits_for(masks))[2]):
        if allowed >> t & 1:
            wanted |= having
    return levels(masks)[-1] & wanted


def with_sum(masks: tuple[int, ...], total: int) -> int:
    """The sets the clique can hold that add up to ``total``."""
    sums = tables(digits_for(masks))[2]
    return levels(masks)[-1] & sums[total] if 0 <= total < len(sums) else 0


def digits_used(masks: tuple[int, ...], alive: int) -> tuple[int, ...]:
    """Each cell's digits in the placements of the clique that fill one of the sets ``alive`` (as bits): back
    from the last cell, each set less one of its digits the cell can hold, while what is left is a set the
    cells before can hold."""
    has = tables(digits_for(masks))[0]
    before = levels(masks)
    keep = [0] * len(masks)
    for j in range(len(masks) - 1, -1, -1):
        earlier = before[j]
        back = 0
        kept = 0
        free = masks[j]
        while free:
            b = free & -free
            free ^= b
            d = b.bit_length() - 1
            left = (alive & has[d]) >> (1 << d) & earlier  # the sets with the digit, less it, the cells before hold
            if left:
                kept |= b
                back |= left
        keep[j] = kept
        alive = back
    return tuple(keep)
