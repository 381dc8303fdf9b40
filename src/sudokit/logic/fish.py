"""Basic fish (X-Wing, Swordfish, Jellyfish): ``k`` rows whose places for a digit lie in ``k`` columns
(or the other way round) remove the digit from the rest of those columns. Rows and columns only, so it
works on any geometry."""

from __future__ import annotations

from itertools import combinations

from sudokit.logic import text
from sudokit.logic.state import State
from sudokit.logic.step import Step

FISH_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}


def basic_fish(state: State, k: int) -> Step | None:
    """The first ``k``-fish found, rows as base first, then columns."""
    lay = state.lay
    for base, _cover, cover_of in ((lay.rows, lay.cols, lay.col_of), (lay.cols, lay.rows, lay.row_of)):
        for d in state.g.digits:
            bit = 1 << (d - 1)
            lines = {}
            for u in base:
                where = state.positions(u, d)
                if 2 <= len(where) <= k:
                    lines[u] = where
            if len(lines) < k:
                continue
            for combo in combinations(sorted(lines), k):
                covers = sorted({cover_of[s] for u in combo for s in lines[u]})
                if len(covers) != k:
                    continue
                inside = {s for u in combo for s in lines[u]}
                elim = [(s, d) for v in covers for s in state.g.units[v] if state.cands[s] & bit and s not in inside]
                if elim:
                    name = FISH_NAMES[k]
                    return Step(
                        name,
                        eliminations=elim,
                        cells=sorted(inside),
                        units=list(combo) + covers,
                        candidates=[(s, d) for s in sorted(inside)],
                        explanation=(
                            f"{name} on {d}: in {text.and_list([state.unit_name(u) for u in combo])}, {d} can only "
                            f"go in {text.and_list([state.unit_name(v) for v in covers])} "
                            f"({text.cells(state, inside)}): {text.removals(state, elim)}"
                        ),
                    )
    return None


def finned_fish(state: State, k: int) -> Step | None:
    """A fish whose base lines also hold ``d`` in a few extra cells (the fins), all in one box: either the
    fish holds, or a fin is ``d``, so cells of the cover lines inside the fins' box lose ``d``. Needs boxes."""
    lay, g = state.lay, state.g
    if not lay.has_boxes:
        return None
    index_of = {u: i for i, u in enumerate(lay.cols)} | {u: i for i, u in enumerate(lay.rows)}
    for base, cover_units, cover_of, band in (
        (lay.rows, lay.cols, lay.col_of, g.box_cols),
        (lay.cols, lay.rows, lay.row_of, g.box_rows),
    ):
        # fins must share a box, so their cover indices lie in one band of ``band`` lines: every cover index
        # outside that band must be a cover, and the rest of the covers come from inside the band
        bands = [((1 << band) - 1) << (i * band) for i in range(g.size // band)]
        # box of base line u's cells in cover band b (None if they span boxes): a cheap exact pre-check that
        # the fins share a box, before the cell lists are built
        line_box = {}
        for u in base:
            per: dict[int, set[int]] = {}
            for s in g.units[u]:
                per.setdefault(index_of[cover_of[s]] // band, set()).add(lay.box_of[s])
            line_box[u] = [next(iter(per[b])) if len(per.get(b, ())) == 1 else None for b in range(len(bands))]
        for d in g.digits:
            bit = 1 << (d - 1)
            lines = {u: state.positions(u, d) for u in base}
            lines = {u: w for u, w in lines.items() if 1 <= len(w) <= k + 3}
            spans = {}
            for u, w in lines.items():
                m = 0
                for s in w:
                    m |= 1 << index_of[cover_of[s]]
                spans[u] = m
            for combo in combinations(sorted(lines), k):
                union = 0
                for u in combo:
                    union |= spans[u]
                if not k < union.bit_count() <= k + band:
                    continue
                inside = None
                for bi, band_mask in enumerate(bands):
                    required = union & ~band_mask
                    need = k - required.bit_count()
                    if need < 0:
                        continue
                    optional = [i for i in range(g.size) if (union & band_mask) >> i & 1]
                    for extra in combinations(optional, need):
                        cover_mask = required
                        for i in extra:
                            cover_mask |= 1 << i
                        if not union & ~cover_mask:
                            continue
                        fin_box = None
                        for u in combo:
                            if spans[u] & ~cover_mask:
                                b = line_box[u][bi]
                                if b is None:
                                    fin_box = None
                                    break
                                if fin_box is None:
                                    fin_box = b
                                elif b != fin_box:
                                    fin_box = -1
                                    break
                        if fin_box == -1:
                            continue
                        if inside is None:
                            inside = [s for u in combo for s in lines[u]]
                            where = [index_of[cover_of[s]] for s in inside]
                        fins = [s for s, i in zip(inside, where) if not cover_mask >> i & 1]
                        box_of = lay.box_of
                        first = box_of[fins[0]]
                        if any(box_of[s] != first for s in fins):
                            continue
                        covers = [cover_units[i] for i in range(g.size) if cover_mask >> i & 1]
                        box = lay.unit_sets[first]
                        body = [s for s in inside if cover_of[s] in covers]
                        elim = [
                            (s, d)
                            for v in covers
                            for s in g.units[v]
                            if s in box and state.cands[s] & bit and s not in inside
                        ]
                        if elim:
                            name = f"Finned {FISH_NAMES[k]}"
                            return Step(
                                name,
                                eliminations=elim,
                                cells=sorted(inside),
                                units=list(combo) + list(covers),
                                candidates=[(s, d) for s in sorted(inside)],
                                explanation=(
                                    f"{name} on {d}: in {_names(state, combo)}, {d} goes in {_names(state, covers)} "
                                    f"({text.cells(state, body)}) or in the fin {text.cells(state, fins)}: "
                                    f"{text.removals(state, elim)}"
                                ),
                            )
    return None


def _names(state: State, units) -> str:
    return text.and_list([state.unit_name(u) for u in units])
