"""The base of every constraint kind, and the candidate-mask helpers their propagation shares.

A constraint names its cells and knows three things: :meth:`Constraint.check` on a completed grid (every
answer the library returns goes through it), :meth:`Constraint.propagate` (remove, from the candidate
masks of its cells, the digits no completion of the constraint can use; ``False`` means a contradiction)
and :meth:`Constraint.describe` (the rule in words). Region-like kinds give the solver extra units
(:meth:`Constraint.units`) or cells that must differ (:meth:`Constraint.peer_pairs`) instead, so they reuse
the singles over units and the eliminations over peers.

Masks as everywhere in sudokit: bit ``d - 1`` stands for digit ``d``. Sum sets are integers too: bit ``s``
set when the sum ``s`` can be reached.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from sudokit.constraints.solver_model import Model
    from sudokit.geometry import Geometry


class NotCompiled(Exception):
    """A rule the compiled kernel has no propagator for (the plain solver takes the puzzle)."""


@dataclass(frozen=True)
class Constraint:
    """One rule over some cells (subclasses add their own fields)."""

    #: The registry name of the kind (see :data:`sudokit.constraints.KINDS`).
    kind: ClassVar[str] = ""

    @property
    def cells(self) -> tuple[int, ...]:
        """The cells the rule reads (the solver re-runs :meth:`propagate` when one of them changes)."""
        return ()

    def check(self, values: Sequence[int]) -> bool:
        """True when the completed grid ``values`` (digits ``1..n`` by cell) keeps the rule."""
        raise NotImplementedError

    def propagate(self, masks: list[int]) -> bool:
        """Narrow ``masks`` (in place) to the digits the rule allows; ``False`` when a cell is left empty."""
        return True

    def describe(self, geometry: Geometry) -> str:
        """The rule in words, cells named as the geometry names them."""
        raise NotImplementedError

    def units(self, geometry: Geometry) -> list[tuple[tuple[int, ...], str, str]]:
        """Extra units ``(cells, name, kind)`` of ``size`` cells the rule adds to the geometry."""
        return []

    def peer_pairs(self, geometry: Geometry) -> Iterable[tuple[int, int]]:
        """Pairs of cells the rule forbids to hold the same digit (extra peers)."""
        return ()

    def peer_groups(self, geometry: Geometry) -> Iterable[Sequence[int]]:
        """The same extra peers as groups of cells that must all differ (the compiled model reads these: a
        cage is one group, not all its pairs); by default the pairs of :meth:`peer_pairs`."""
        return self.peer_pairs(geometry)

    def validate(self, geometry: Geometry) -> None:
        """Raise :class:`~sudokit.errors.SudokitError` when the rule cannot hold on this geometry."""

    def compile(self, model: Model) -> None:
        """Add the rule's propagators to the compiled ``model`` (:mod:`sudokit.constraints.solver_model`).
        Region-like kinds add nothing (their units and peers are compiled with the geometry); a kind that
        propagates and has no compiled form raises :class:`NotCompiled`."""
        if type(self).propagate is not Constraint.propagate:
            raise NotCompiled(self.kind)


def names(geometry: Geometry, cells: Iterable[int]) -> str:
    """Cell labels joined by spaces: ``A1 A2 B2``."""
    return " ".join(geometry.label(s) for s in cells)


# ---- digit masks ----------------------------------------------------------------------------
def low(mask: int) -> int:
    """The smallest digit of a non-empty mask."""
    return (mask & -mask).bit_length()


def high(mask: int) -> int:
    """The largest digit of a mask (0 for an empty one)."""
    return mask.bit_length()


def span(lo: int, hi: int) -> int:
    """The mask of the digits ``lo..hi`` (empty when ``lo > hi``); ``lo`` may be below 1."""
    lo = max(lo, 1)
    if lo > hi:
        return 0
    return ((1 << hi) - 1) & ~((1 << (lo - 1)) - 1)


def digits(mask: int) -> list[int]:
    """The digits of a mask, ascending."""
    out = []
    while mask:
        b = mask & -mask
        out.append(b.bit_length())
        mask ^= b
    return out


# ---- sum sets -------------------------------------------------------------------------------
def add_digits(sums: int, mask: int) -> int:
    """The sums reachable by adding one digit of ``mask`` to one sum of ``sums``."""
    out = 0
    while mask:
        b = mask & -mask
        out |= sums << b.bit_length()
        mask ^= b
    return out


def add_sums(a: int, b: int) -> int:
    """The sums ``x + y`` with ``x`` in sum set ``a`` and ``y`` in ``b``."""
    if a.bit_count() > b.bit_count():
        a, b = b, a
    out = 0
    while a:
        bit = a & -a
        out |= b << (bit.bit_length() - 1)
        a ^= bit
    return out


def sum_support(masks: Sequence[int], targets: int) -> tuple[list[int], int] | None:
    """Each cell's digits that belong to some choice (one digit per cell, repeats allowed) whose total is in
    the sum set ``targets``, and the totals reached; ``None`` when no choice reaches a target.

    Exact for sums without a no-repeat rule (arrows, little killers): prefix and suffix sum sets, one pass each.
    """
    k = len(masks)
    prefix = [1] * (k + 1)
    for i, m in enumerate(masks):
        prefix[i + 1] = add_digits(prefix[i], m)
    reached = prefix[k] & targets
    if not reached:
        return None
    suffix = 1
    out = [0] * k
    for i in range(k - 1, -1, -1):
        others = add_sums(prefix[i], suffix)
        m = masks[i]
        keep = 0
        while m:
            b = m & -m
            if (others << b.bit_length()) & targets:
                keep |= b
            m ^= b
        if not keep:
            return None
        out[i] = keep
        suffix = add_digits(suffix, masks[i])
    return out, reached


def narrow(masks: list[int], cells: Sequence[int], new: Sequence[int]) -> bool:
    """``masks[cells[i]] &= new[i]``; False when a cell is left empty."""
    for s, m in zip(cells, new):
        masks[s] &= m
        if not masks[s]:
            return False
    return True


# ---- pair relations -------------------------------------------------------------------------
@lru_cache(maxsize=256)
def pair_table(relation: tuple, size: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For a relation between two cells (a, b), ``(forward, backward)``: ``forward[x]`` the mask of digits b
    may hold when a holds ``x``, ``backward[y]`` the mask a may hold when b holds ``y`` (index 0 unused)."""
    ok = RELATIONS[relation[0]]
    forward = [0] * (size + 1)
    backward = [0] * (size + 1)
    for x in range(1, size + 1):
        for y in range(1, size + 1):
            if ok(x, y, *relation[1:]):
                forward[x] |= 1 << (y - 1)
                backward[y] |= 1 << (x - 1)
    return tuple(forward), tuple(backward)


def _ratio_any(x: int, y: int, *ks: int) -> bool:
    return any(x == k * y or y == k * x for k in ks)


#: Two-cell relations by name; ``relation = (name, *parameters)``.
RELATIONS: dict[str, Callable[..., bool]] = {
    "difference": lambda x, y, v: abs(x - y) == v,
    "ratio": lambda x, y, v: x == v * y or y == v * x,
    "sum": lambda x, y, v: x + y == v,
    "at_least_apart": lambda x, y, v: abs(x - y) >= v,
    "equal": lambda x, y: x == y,
    "not_difference": lambda x, y, v: abs(x - y) != v,
    "not_ratio": lambda x, y, *ks: not _ratio_any(x, y, *ks),
    "not_sum": lambda x, y, *vs: x + y not in vs,
    "different_mod": lambda x, y, m: x % m != y % m,
    "different_third": lambda x, y, n: (x - 1) * 3 // n != (y - 1) * 3 // n,
    "less": lambda x, y: x < y,  # a thermometer's step (as the compiled model takes it)
    "at_most": lambda x, y: x <= y,  # a slow thermometer's step
}


def revise_pair(masks: list[int], a: int, b: int, forward: Sequence[int], backward: Sequence[int]) -> bool:
    """Arc consistency for one pair: keep the digits of a and b that have a partner; False if one empties."""
    ma, mb = masks[a], masks[b]
    allowed = 0
    m = ma
    while m:
        bit = m & -m
        allowed |= forward[bit.bit_length()]
        m ^= bit
    mb &= allowed
    allowed = 0
    m = mb
    while m:
        bit = m & -m
        allowed |= backward[bit.bit_length()]
        m ^= bit
    ma &= allowed
    masks[a], masks[b] = ma, mb
    return bool(ma and mb)


def orthogonal_pairs(geometry: Geometry) -> list[tuple[int, int]]:
    """Every pair of orthogonally adjacent cells, each once (left-right, then top-bottom)."""
    n = geometry.size
    out = []
    for r in range(n):
        for c in range(n):
            s = r * n + c
            if c + 1 < n:
                out.append((s, s + 1))
            if r + 1 < n:
                out.append((s, s + n))
    return out
