"""The kernels of Skyscraper, 2-String Kite, Turbot Fish and Empty Rectangle (``logic/single_digit_kernel.py``)
against plain loops over strong links and boxes."""

from __future__ import annotations

from logic_states import fresh
from sudokit.logic import (
    single_digit,
)
from sudokit.logic.state import State
from sudokit.logic.step import Step


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


def plain_empty_rectangle_on(state: State, d: int) -> Step | None:
    """The first empty rectangle on digit ``d``."""
    g = state.g
    bit = 1 << (d - 1)
    for b in g.boxes:
        where = state.positions(b, d)
        if len(where) < 2:
            continue
        rows = {g.row_of[s] for s in where}
        cols = {g.col_of[s] for s in where}
        if len(rows) < 2 or len(cols) < 2:
            continue
        box_rows = {g.row_of[s] for s in g.units[b]}
        box_cols = {g.col_of[s] for s in g.units[b]}
        for r in box_rows:
            for col in box_cols:
                if not all(g.row_of[s] == r or g.col_of[s] == col for s in where):
                    continue
                # strong link in a column outside the box, one end in row r; or a row, one end in column col
                for line_units, cross_of, _along_of, er_line, er_cross in (
                    (g.cols, g.row_of, g.col_of, r, col),
                    (g.rows, g.col_of, g.row_of, col, r),
                ):
                    for u in line_units:
                        if u in box_cols or u in box_rows:
                            continue
                        pair = state.positions(u, d)
                        if len(pair) != 2:
                            continue
                        for near, far in ((pair[0], pair[1]), (pair[1], pair[0])):
                            if cross_of[near] != er_line or cross_of[far] in (box_rows | box_cols):
                                continue
                            target = next(s for s in g.units[er_cross] if cross_of[s] == cross_of[far])
                            if target in g.units[b] or not state.cands[target] & bit:
                                continue
                            return single_digit.empty_rectangle_step(state, d, b, r, col, u, near, far, target)
    return None


def plain_empty_rectangle(state: State) -> Step | None:
    """Reference: the first empty rectangle, digit by digit."""
    if not state.g.has_boxes:
        return None
    for d in state.g.digits:
        step = plain_empty_rectangle_on(state, d)
        if step is not None:
            return step
    return None


def test_empty_rectangle_kernel_finds_the_step_plain_loops_find(loop_states):
    found = 0
    for state in loop_states:
        want = plain_empty_rectangle(state)
        assert single_digit.empty_rectangle(fresh(state)) == want
        found += want is not None
    assert found >= 20, found
