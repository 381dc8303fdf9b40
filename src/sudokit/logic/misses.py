"""Remembering where a technique found nothing, across the states of a solving path.

The solver re-runs the technique table from the top after every step, and a step usually changes the
candidates of one or two digits only. Finned fish, empty rectangles, simple colouring and X-chains look at
one digit at a time, and what they find for digit ``d`` depends only on the geometry, the cells where ``d``
is still a candidate and the cells that hold ``d``. So "nothing for ``d``" is remembered
under (technique, geometry, ``d``, those cells), and the next state skips the digits whose cells have not
changed. The answer is the same as a full search: skipped digits are exactly the ones that would have given
nothing.

Nishio's chains follow one digit too; their finding on a digit (a conclusion or none) is remembered the same
way (:func:`on_digit`).

The techniques searched by numba kernels (singles, locked candidates, subsets, basic fish, turbot patterns,
unique rectangles, almost locked sets) need no memo: a kernel searches a whole state in microseconds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sudokit import jit
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step

T = TypeVar("T")

#: bound on the table of misses (emptied when it reaches it; a puzzle's path makes a few thousand)
MAX_MISSES = 100_000

_misses: set[tuple] = set()


#: a number per geometry, equal geometries sharing it: the first part of a miss's key (an int hashes in C, where
#: hashing the geometry itself calls Python at every look-up, a few million times on top1465)
_geometry_token: dict = {}


def digit_cells(state: State) -> list[tuple[int, int, int]]:
    """``[d] -> (geometry's token, cells with candidate d, cells holding d)`` (bitsets) for the state, computed
    once per state (the key of a miss: equal geometries share the token, and so their misses)."""
    found = state.memo.get("digit-cells")
    if found is None:
        g = state.g
        token = _geometry_token.get(g)
        if token is None:
            token = _geometry_token[g] = len(_geometry_token)
        bits = jit.either("sudokit.logic.state_arrays", _digit_bits_plain, _digit_bits_kernel, state)
        held = [0] * (g.size + 1)
        for s, v in enumerate(state.values):
            held[v] |= 1 << s  # held[0], the empty cells, is not read
        found = state.memo["digit-cells"] = [(token, b, h) for b, h in zip(bits, held)]
    return found


def _digit_bits_kernel(state: State) -> list[int]:
    """The cells holding each digit as a candidate (bitsets, index 0 empty), from the compiled per-digit words
    (which ALS-XZ shares)."""
    from sudokit.logic import state_arrays

    words = state_arrays.digit_words(state)
    raw = words.astype("<u8", copy=False).tobytes()  # one copy of the whole table, cut into rows below
    step = 8 * words.shape[1]
    return [int.from_bytes(raw[i : i + step], "little") for i in range(0, len(raw), step)]


def _digit_bits_plain(state: State) -> list[int]:
    """:func:`_digit_bits_kernel` in plain Python (no numba import for a command on one puzzle)."""
    bits = [0] * (state.g.size + 1)
    for s, m in enumerate(state.cands):
        one = 1 << s
        for d in digits_of(m):
            bits[d] |= one
    return bits


def known_misses(tag: object, state: State) -> frozenset[int]:
    """The digits for which ``tag`` found nothing before on the very cells the state has for them."""
    cells = digit_cells(state)
    return frozenset(d for d in state.g.digits if (tag, d, cells[d]) in _misses)


def known_mask(tag: object, state: State) -> int:
    """:func:`known_misses` as a digit mask (bit ``d - 1`` for digit ``d``), the form the kernels take."""
    cells = digit_cells(state)
    mask = 0
    for d in state.g.digits:
        if (tag, d, cells[d]) in _misses:
            mask |= 1 << (d - 1)
    return mask


def miss_mask(tag: object, state: State, mask: int) -> None:
    """:func:`miss` for every digit of ``mask`` (bit ``d - 1`` for digit ``d``)."""
    cells = digit_cells(state)
    d = 1
    while mask:
        if mask & 1:
            _remember((tag, d, cells[d]))
        mask >>= 1
        d += 1


def miss(tag: object, state: State, d: int) -> None:
    """Remember that ``tag`` finds nothing for ``d`` on the state's cells for ``d``."""
    _remember((tag, d, digit_cells(state)[d]))


def _remember(key: tuple) -> None:
    if len(_misses) >= MAX_MISSES:
        _misses.clear()
    _misses.add(key)


def first_by_digit(tag: object, state: State, find_on: Callable[[int], Step | None]) -> Step | None:
    """The first step ``find_on(d)`` gives, digit by digit, skipping the digits where ``tag`` is a known miss
    and remembering the new misses."""
    cells = digit_cells(state)
    for d in state.g.digits:
        key = (tag, d, cells[d])
        if key in _misses:
            continue
        step = find_on(d)
        if step is not None:
            return step
        _remember(key)
    return None


#: what a search on one digit found, by (tag, digit, the cells of the digit): for searches whose finding on a
#: digit depends on those cells alone (Nishio's chains); emptied when it reaches :data:`MAX_MISSES` entries
_found: dict[tuple, object] = {}


def on_digit(tag: object, state: State, d: int, search: Callable[[], T]) -> T:
    """``search()``, the finding of ``tag`` on digit ``d`` alone, or what it gave before on the very cells the
    state has for ``d``."""
    key = (tag, d, digit_cells(state)[d])
    if key in _found:
        return _found[key]  # type: ignore[return-value]
    if len(_found) >= MAX_MISSES:
        _found.clear()
    found = _found[key] = search()
    return found


def forget() -> None:
    """Empty the tables (for tests and benchmarks that want a cold start)."""
    _misses.clear()
    _found.clear()
