"""The forcing chains' propagation (``logic/forcing_kernel.py``) against a plain Python propagation, and the
contradiction search against a plain loop over it."""

from __future__ import annotations

from functools import partial

from sudokit.logic import (
    forcing,
    intersections,
)
from sudokit.logic.state import State


def plain_assume(state: State, cell: int, digit: int, locked: bool = False, limit: int = 400) -> tuple[bool, int]:
    """Reference: ``forcing.assume`` in plain Python on the state's lists (changed in place); the touched
    units are a bitmask (bit ``u`` = unit ``u``), searched lowest bit first."""
    g = state.g
    units, peers = g.units, g.peers
    unit_bits = state.g.units_of_bits
    full = g.all_mask
    c, vals = state.cands, state.values
    queue = [(cell, digit)]
    dirty = 0
    made = 0
    while made < limit:
        while queue:
            s, d = queue.pop()
            if vals[s]:
                if vals[s] != d:
                    return False, made
                continue
            bit = 1 << (d - 1)
            if not c[s] & bit:
                return False, made
            vals[s] = d
            c[s] = 0
            made += 1
            dirty |= unit_bits[s]
            for p in peers[s]:
                m = c[p]
                if m & bit:
                    m &= ~bit
                    c[p] = m
                    if not m:
                        return False, made
                    dirty |= unit_bits[p]
                    if not m & (m - 1):
                        queue.append((p, m.bit_length()))
        if dirty:
            todo, dirty = dirty, 0
            while todo:
                low = todo & -todo
                todo ^= low
                unit = units[low.bit_length() - 1]
                once = more = placed = 0
                for s in unit:
                    m = c[s]
                    more |= once & m
                    once |= m
                    if vals[s]:
                        placed |= 1 << (vals[s] - 1)
                if (once | placed) != full:
                    return False, made
                only = once & ~more & ~placed
                while only:
                    bit = only & -only
                    only ^= bit
                    for s in unit:
                        if c[s] & bit:
                            queue.append((s, bit.bit_length()))
                            break
            if queue:
                continue
        if locked:
            state.changed()
            step = intersections.pointing(state) or intersections.claiming(state)
            if step is not None:
                for s, d in step.eliminations:
                    c[s] &= ~(1 << (d - 1))
                    m = c[s]
                    if not m:
                        return False, made
                    dirty |= unit_bits[s]
                    if not m & (m - 1):
                        queue.append((s, m.bit_length()))
                made += 1
                continue
        return True, made
    return True, made


def sorted_assume(state: State, cell: int, digit: int, limit: int) -> tuple[bool, int]:
    """Reference for the documented order: singles followed from a stack, then the units touched since the
    last search (a plain set) searched for hidden singles in ``sorted`` order."""
    g, c, vals = state.g, state.cands, state.values
    stack, dirty, made = [(cell, digit)], set(), 0
    while made < limit:
        while stack:
            s, d = stack.pop()
            if vals[s]:
                if vals[s] != d:
                    return False, made
                continue
            if not c[s] >> (d - 1) & 1:
                return False, made
            vals[s], c[s] = d, 0
            made += 1
            dirty.update(g.units_of[s])
            for p in g.peers[s]:
                if c[p] >> (d - 1) & 1:
                    c[p] &= ~(1 << (d - 1))
                    if not c[p]:
                        return False, made
                    dirty.update(g.units_of[p])
                    if c[p].bit_count() == 1:
                        stack.append((p, c[p].bit_length()))
        if not dirty:
            break
        for u in sorted(dirty):
            unit = g.units[u]
            for d in g.digits:
                where = [s for s in unit if c[s] >> (d - 1) & 1]
                if not where and not any(vals[s] == d for s in unit):
                    return False, made
                if len(where) == 1:
                    stack.append((where[0], d))
        dirty = set()
        if not stack:
            break
    return True, made


def test_assume_follows_every_candidate_like_the_plain_propagation(hard_states, variant_states):
    # same verdict, same count and the same grid afterwards, with and without locked candidates, also when
    # the propagation cap stops it
    for state in hard_states[::3] + variant_states:
        for s in state.empty_cells()[::2]:
            for d in state.digits(s):
                for locked, limit in ((False, 6), (False, 400), (True, 6), (True, 400)):
                    trial, ref = state.copy(), state.copy()
                    assert forcing.assume(trial, s, d, locked, limit) == plain_assume(ref, s, d, locked, limit)
                    assert (trial.values, trial.cands) == (ref.values, ref.cands)


def test_assume_searches_the_touched_units_in_ascending_unit_number(hard_states, variant_states):
    for state in hard_states[::2] + variant_states:
        for s in state.empty_cells()[::3]:
            for d in state.digits(s):
                trial, ref = state.copy(), state.copy()
                assert forcing.assume(trial, s, d) == sorted_assume(ref, s, d, 400)
                assert (trial.values, trial.cands) == (ref.values, ref.cands)


def plain_search(state: State, locked: bool) -> tuple[int, int, int] | None:
    """Reference: the contradiction search's iterative deepening over :func:`plain_assume`."""
    return forcing._search_locked(state, partial(plain_assume, locked=locked))


def test_contradiction_kernel_finds_the_plain_search_answer(hard_states, variant_states):
    for state in hard_states + variant_states:
        assert forcing._search(state) == plain_search(state, locked=False)


def test_dynamic_search_finds_the_plain_search_answer(hard_states, variant_states):
    for state in hard_states[::4] + variant_states[::2]:
        assert forcing._search_locked(state) == plain_search(state, locked=True)


def test_contradiction_kernel_leaves_the_state_alone(hard_states):
    state = hard_states[0]
    values, cands = state.values[:], state.cands[:]
    forcing.contradiction_chain(state)
    assert (state.values, state.cands) == (values, cands)
