"""The kernel of Aligned Pair Exclusion (``logic/exclusion_kernel.py``) against a plain search over pairs of
cells in grid order."""

from __future__ import annotations

from logic_states import fresh
from sudokit.logic import exclusion
from sudokit.logic.state import State
from sudokit.logic.step import Step


def plain_exclusion(state: State) -> Step | None:
    """Reference: pairs of cells with two or more candidates and a bivalue peer, in grid order; the first whose
    possible digit pairs, given the bivalue cells that see both (two or more), leave a digit out."""
    c, peers = state.cands, state.g.peer_sets
    bivalue = {s for s in state.empty_cells() if c[s].bit_count() == 2}
    base = [s for s in state.empty_cells() if c[s].bit_count() >= 2 and peers[s] & bivalue]
    for i, a in enumerate(base):
        for b in base[i + 1 :]:
            common = sorted(peers[a] & peers[b] & bivalue)
            if len(common) < 2:
                continue
            elim = exclusion.pair_removals(state, a, b, common)
            if elim:
                return exclusion._step(state, a, b, common, elim)
    return None


def test_exclusion_kernel_finds_the_step_plain_search_finds(loop_states):
    found = 0
    for state in loop_states:
        want = plain_exclusion(state)
        assert exclusion.aligned_pair_exclusion(fresh(state)) == want
        found += want is not None
    assert found >= 5, found
