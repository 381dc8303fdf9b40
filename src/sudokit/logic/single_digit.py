"""Single-digit patterns: Skyscraper, 2-String Kite, Turbot Fish (two strong links joined by a weak
link) and Empty Rectangle (which needs boxes)."""

from __future__ import annotations

from sudokit.logic import text
from sudokit.logic._memo import first_by_digit
from sudokit.logic.state import State
from sudokit.logic.step import Step


def strong_links(state: State, d: int) -> list[tuple[int, int, int]]:
    """``(unit, a, b)`` for every unit where ``d`` has exactly two places."""
    out = []
    for u in range(len(state.g.units)):
        where = state.positions(u, d)
        if len(where) == 2:
            out.append((u, where[0], where[1]))
    return out


def _kind(state: State, u: int) -> str:
    lay = state.lay
    return "row" if u in lay.rows else "column" if u in lay.cols else "other"


def _turbot(state: State, wanted: str) -> Step | None:
    return first_by_digit(wanted, state, lambda d: _turbot_on(state, wanted, d))


def _turbot_on(state: State, wanted: str, d: int) -> Step | None:
    """The first ``wanted`` pattern (Skyscraper, 2-String Kite or Turbot Fish) on digit ``d``."""
    peers = state.lay.peer_sets
    bit = 1 << (d - 1)
    links = strong_links(state, d)
    for i, (u1, a1, b1) in enumerate(links):
        for u2, a2, b2 in links[i + 1 :]:
            if len({a1, b1, a2, b2}) < 4:
                continue
            k1, k2 = _kind(state, u1), _kind(state, u2)
            if k1 == k2 and k1 != "other":
                name = "Skyscraper"
            elif {k1, k2} == {"row", "column"}:
                name = "2-String Kite"
            else:
                name = "Turbot Fish"
            if name != wanted:
                continue
            for x, y in ((a1, b1), (b1, a1)):
                for z, w in ((a2, b2), (b2, a2)):
                    if z not in peers[y]:
                        continue
                    if name == "2-String Kite" and state.lay.box_of[y] != state.lay.box_of[z]:
                        continue
                    common = (peers[x] & peers[w]) - {x, y, z, w}
                    elim = [(s, d) for s in sorted(common) if state.cands[s] & bit]
                    if elim:
                        return Step(
                            name,
                            eliminations=elim,
                            cells=[x, y, z, w],
                            units=[u1, u2],
                            candidates=[(s, d) for s in (x, y, z, w)],
                            links=[((x, d), (y, d), True), ((y, d), (z, d), False), ((z, d), (w, d), True)],
                            explanation=(
                                f"{name} on {d}: {d} is in {state.label(x)} or {state.label(y)} "
                                f"({state.unit_name(u1)}) and in {state.label(z)} or {state.label(w)} "
                                f"({state.unit_name(u2)}); {state.label(y)} and {state.label(z)} see each other, "
                                f"so {state.label(x)} or {state.label(w)} is {d}: {text.removals(state, elim)}"
                            ),
                        )
    return None


def skyscraper(state: State) -> Step | None:
    """Two strong links in parallel rows (or columns) with one end of each in a common line."""
    return _turbot(state, "Skyscraper")


def two_string_kite(state: State) -> Step | None:
    """A strong link in a row and one in a column whose ends meet in a box."""
    return _turbot(state, "2-String Kite")


def turbot_fish(state: State) -> Step | None:
    """Any other two strong links joined by a weak link (one link in a box or extra unit)."""
    return _turbot(state, "Turbot Fish")


def empty_rectangle(state: State) -> Step | None:
    """A box whose places for ``d`` lie in one row and one column of it (not in just one), with a strong
    link on ``d`` in a line outside the box: the cell where the other end's line meets the box's line
    cannot be ``d``. Needs rectangular boxes."""
    lay = state.lay
    if not lay.has_boxes:
        return None
    return first_by_digit("Empty Rectangle", state, lambda d: _empty_rectangle_on(state, d))


def _empty_rectangle_on(state: State, d: int) -> Step | None:
    """The first empty rectangle on digit ``d``."""
    g, lay = state.g, state.lay
    bit = 1 << (d - 1)
    for b in lay.boxes:
        where = state.positions(b, d)
        if len(where) < 2:
            continue
        rows = {lay.row_of[s] for s in where}
        cols = {lay.col_of[s] for s in where}
        if len(rows) < 2 or len(cols) < 2:
            continue
        box_rows = {lay.row_of[s] for s in g.units[b]}
        box_cols = {lay.col_of[s] for s in g.units[b]}
        for r in box_rows:
            for col in box_cols:
                if not all(lay.row_of[s] == r or lay.col_of[s] == col for s in where):
                    continue
                # strong link in a column outside the box, one end in row r; or a row, one end in column col
                for line_units, cross_of, _along_of, er_line, er_cross in (
                    (lay.cols, lay.row_of, lay.col_of, r, col),
                    (lay.rows, lay.col_of, lay.row_of, col, r),
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
                            elim = [(target, d)]
                            return Step(
                                "Empty Rectangle",
                                eliminations=elim,
                                cells=where + [near, far],
                                units=[b, u],
                                candidates=[(s, d) for s in where + [near, far]],
                                explanation=(
                                    f"Empty rectangle on {d} in {state.unit_name(b)} (its {d}s lie in "
                                    f"{state.unit_name(r)} and {state.unit_name(col)}) with {d} at "
                                    f"{state.label(near)} or {state.label(far)} in {state.unit_name(u)}: "
                                    f"{text.removals(state, elim)}"
                                ),
                            )
    return None
