"""The kernel of Skyscraper, 2-String Kite and Turbot Fish (``logic/single_digit_kernel.py``) against plain
loops over strong links."""

from __future__ import annotations

from logic_states import fresh
from sudokit.logic import (
    single_digit,
)
from sudokit.logic.state import State


def plain_turbot(state: State, wanted: str):
    """Reference: the first Skyscraper / 2-String Kite / Turbot Fish by plain loops over strong links."""
    g, peers = state.g, state.g.peer_sets

    def kind(u: int) -> str:
        return "row" if u in g.rows else "column" if u in g.cols else "other"

    for d in g.digits:
        links = [(u, *state.positions(u, d)) for u in range(len(g.units)) if len(state.positions(u, d)) == 2]
        for i, (u1, a1, b1) in enumerate(links):
            for u2, a2, b2 in links[i + 1 :]:
                if len({a1, b1, a2, b2}) < 4:
                    continue
                k1, k2 = kind(u1), kind(u2)
                name = (
                    "Skyscraper"
                    if k1 == k2 and k1 != "other"
                    else "2-String Kite"
                    if {k1, k2} == {"row", "column"}
                    else "Turbot Fish"
                )
                if name != wanted:
                    continue
                for x, y in ((a1, b1), (b1, a1)):
                    for z, w in ((a2, b2), (b2, a2)):
                        if z not in peers[y] or (name == "2-String Kite" and g.box_of[y] != g.box_of[z]):
                            continue
                        if any(state.cands[s] >> (d - 1) & 1 for s in (peers[x] & peers[w]) - {x, y, z, w}):
                            return single_digit.turbot_step(state, name, d, (u1, u2), (x, y, z, w))
    return None


def test_turbot_kernel_finds_the_step_plain_loops_find(loop_states, kernels):
    found = {}
    for state in loop_states:
        for name, find in (
            ("Skyscraper", single_digit.skyscraper),
            ("2-String Kite", single_digit.two_string_kite),
            ("Turbot Fish", single_digit.turbot_fish),
        ):
            want = plain_turbot(state, name)
            assert find(fresh(state)) == want
            found[name] = found.get(name, 0) + (want is not None)
    assert min(found.values()) >= 3, found
