"""ALS-XZ: two almost locked sets (``n`` cells of one unit with ``n + 1`` candidates) joined by a
restricted common digit ``x`` (every ``x`` of one sees every ``x`` of the other). At most one of them
holds ``x``, so the other is locked: any other common digit ``z`` is in one of them, and cells that see
every ``z`` of both lose ``z``. Works on every geometry."""

from __future__ import annotations

from itertools import combinations

from sudokit.logic import text
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step

MAX_SIZE = 4


def almost_locked_sets(state: State) -> list[tuple[frozenset[int], int, int]]:
    """``(cells, candidates mask, unit)`` of every ALS up to :data:`MAX_SIZE` cells (deduplicated)."""
    g, c = state.g, state.cands
    seen: set[frozenset[int]] = set()
    out = []
    for u, unit in enumerate(g.units):
        empty = [s for s in unit if c[s]]
        for k in range(1, min(MAX_SIZE, len(empty) - 1) + 1):
            for combo in combinations(empty, k):
                mask = 0
                for s in combo:
                    mask |= c[s]
                if mask.bit_count() == k + 1:
                    key = frozenset(combo)
                    if key not in seen:
                        seen.add(key)
                        out.append((key, mask, u))
    return out


def als_xz(state: State) -> Step | None:
    """The first ALS-XZ elimination found. Cell sets are int bitsets: for each ALS and digit, the cells
    holding the digit and the cells that see all of them, so each pair of ALSs costs a few AND operations."""
    g, c = state.g, state.cands
    n = g.n_cells
    peer_bits = _peer_bits(state)
    digit_bits = [0] * (g.size + 1)
    for s in range(n):
        m = c[s]
        for d in digits_of(m) if m else ():
            digit_bits[d] |= 1 << s
    table = []
    for cells, mask, u in almost_locked_sets(state):
        bits = 0
        for s in cells:
            bits |= 1 << s
        hold, see = {}, {}
        for d in digits_of(mask):
            h = digit_bits[d] & bits
            seen = -1
            x = h
            while x:
                low = x & -x
                seen &= peer_bits[low.bit_length() - 1]
                x ^= low
            hold[d], see[d] = h, seen
        table.append((cells, bits, mask, u, hold, see))
    for i, (a, abits, ma, ua, _hold_a, see_a) in enumerate(table):
        for b, bbits, mb, ub, hold_b, see_b in table[i + 1 :]:
            common = ma & mb
            if common.bit_count() < 2 or abits & bbits:
                continue
            digits = digits_of(common)
            for x in digits:
                if hold_b[x] & ~see_a[x]:
                    continue  # some x of B does not see every x of A: not restricted
                for z in digits:
                    if z == x:
                        continue
                    elim_bits = digit_bits[z] & see_a[z] & see_b[z] & ~abits & ~bbits
                    if elim_bits:
                        elim = [(s, z) for s in range(n) if elim_bits >> s & 1]
                        return Step(
                            "ALS-XZ",
                            eliminations=elim,
                            cells=sorted(a | b),
                            units=[ua, ub],
                            candidates=[(s, d) for s in sorted(a | b) for d in digits_of(c[s])],
                            explanation=(
                                f"ALS-XZ: {text.cells(state, a)} ({state.unit_name(ua)}, "
                                f"{text.digit_set(digits_of(ma))}) and {text.cells(state, b)} ({state.unit_name(ub)}, "
                                f"{text.digit_set(digits_of(mb))}) share {x}, which only one of them can hold, so {z} "
                                f"is in one of them: {text.removals(state, elim)}"
                            ),
                        )
    return None


def _peer_bits(state: State) -> list[int]:
    """Each cell's peers as an int bitset."""
    out = []
    for ps in state.g.peers:
        bits = 0
        for p in ps:
            bits |= 1 << p
        out.append(bits)
    return out
