"""Basic fish (X-Wing, Swordfish, Jellyfish): ``k`` rows whose places for a digit lie in ``k`` columns
(or the other way round) remove the digit from the rest of those columns. Rows and columns only, so it
works on any geometry.

The basic fish search has two forms side by side that name the same fish (tested against each other): a numba
kernel (``fish_kernel.fish_hit``) and plain Python (:func:`fish_plain`); :func:`sudokit.jit.either` chooses.
Finned fish run in their kernel only."""

from __future__ import annotations

from functools import cache, lru_cache, partial
from itertools import combinations
from types import ModuleType

import numpy as np

from sudokit import jit
from sudokit.geometry import Geometry
from sudokit.logic import text
from sudokit.logic.misses import digit_cells, first_by_digit
from sudokit.logic.state import State
from sudokit.logic.step import Step

KERNELS = "sudokit.logic.fish_kernel"


@cache
def _modules() -> tuple[ModuleType, ...]:
    """fish_kernel, state_arrays: imported at the first search (numba comes with them), then kept
    (an import statement in every search cost more than a small kernel's work)."""
    from sudokit.logic import fish_kernel, state_arrays

    return fish_kernel, state_arrays


FISH_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}


def basic_fish(state: State, k: int) -> Step | None:
    """The first ``k``-fish found, rows as base first, then columns; digit by digit, then combinations of
    the base lines in increasing order (the kernel or the plain form finds which; Python writes out that
    one)."""
    hit = jit.either(KERNELS, fish_plain, _fish_kernel, state, k)
    return None if hit is None else fish_step(state, *hit)


def _fish_kernel(state: State, k: int) -> tuple[int, list[int]] | None:
    fish_kernel, state_arrays = _modules()

    _values, cands = state_arrays.arrays(state)
    units = state_arrays.tables(state.g)[0]
    found = np.empty(k, dtype=np.int64)
    for base, cover, cover_index in _fish_tables(state.g):
        d = fish_kernel.fish_hit(cands, units, base, cover, cover_index, state.g.size, k, found)
        if d >= 0:
            return int(d) + 1, [int(base[i]) for i in found]
    return None


def fish_plain(state: State, k: int) -> tuple[int, list[int]] | None:
    """:func:`fish_kernel.fish_hit` in plain Python, in the same order (rows as base, then columns; digit by
    digit; combinations of the base lines holding the digit in 2 to ``k`` places): (digit from 1, base lines)
    of the first ``k``-fish that removes something, or None."""
    g, cands = state.g, state.cands
    table = state.positions_table()
    for base, cover_of, base_of in ((g.rows, g.col_of, g.row_of), (g.cols, g.row_of, g.col_of)):
        for d in range(1, g.size + 1):
            lines = [u for u in base if 2 <= len(table[u][d]) <= k]
            if len(lines) < k:
                continue
            bit = 1 << (d - 1)
            for combo in combinations(lines, k):
                covers = {cover_of[s] for u in combo for s in table[u][d]}
                if len(covers) == k and any(
                    cands[s] & bit and base_of[s] not in combo for c in covers for s in g.units[c]
                ):
                    return d, list(combo)
    return None


@lru_cache(maxsize=32)
def _fish_tables(g: Geometry) -> tuple:
    """(base lines, cover lines, position in the cover lines of each cell's cover line) as arrays, rows as
    base first, then columns."""
    out = []
    for base, cover, cover_of in ((g.rows, g.cols, g.col_of), (g.cols, g.rows, g.row_of)):
        index = {u: i for i, u in enumerate(cover)}
        out.append(
            (
                np.array(base, dtype=np.int64),
                np.array(cover, dtype=np.int64),
                np.array([index[cover_of[s]] for s in range(g.n_cells)], dtype=np.int64),
            )
        )
    return tuple(out)


def fish_step(state: State, d: int, combo: list[int]) -> Step:
    """The fish step of digit ``d`` with the base lines ``combo`` (their places for ``d`` lie in
    ``len(combo)`` cover lines)."""
    g = state.g
    cover_of = g.col_of if combo[0] in g.rows else g.row_of
    bit = 1 << (d - 1)
    inside = {s for u in combo for s in state.positions(u, d)}
    covers = sorted({cover_of[s] for s in inside})
    elim = [(s, d) for v in covers for s in state.g.units[v] if state.cands[s] & bit and s not in inside]
    name = FISH_NAMES[len(combo)]
    return Step(
        name,
        eliminations=elim,
        cells=sorted(inside),
        units=list(combo) + covers,
        candidates=[(s, d) for s in sorted(inside)],
        explanation=(
            f"{name} on {state.sym(d)}: in {_names(state, combo)}, {state.sym(d)} can only go in "
            f"{_names(state, covers)} "
            f"({text.cells(state, inside)}): {text.removals(state, elim)}"
        ),
    )


@lru_cache(maxsize=32)
def _fin_tables(g: Geometry) -> tuple:
    """Per-geometry tables of :func:`finned_fish`, rows as base first, then columns: (base, cover units,
    cover line of each cell, band masks, box of each base line in each cover band, cover index of each cell,
    base lines (as indices into base) of each band of boxes). Needs rectangular boxes."""
    if g.box_rows is None or g.box_cols is None:
        raise ValueError(f"finned fish need rectangular boxes; {g.name} has none")
    index_of = {u: i for i, u in enumerate(g.cols)} | {u: i for i, u in enumerate(g.rows)}
    out = []
    for base, cover_units, cover_of, band in (
        (g.rows, g.cols, g.col_of, g.box_cols),
        (g.cols, g.rows, g.row_of, g.box_rows),
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
                per.setdefault(index_of[cover_of[s]] // band, set()).add(g.box_of[s])
            line_box[u] = [next(iter(per[b])) if len(per.get(b, ())) == 1 else None for b in range(len(bands))]
        cover_index = [index_of[cover_of[s]] for s in range(g.n_cells)]
        across = g.size // (g.size // band)  # base lines per band of boxes (box_rows when rows are the base)
        base_bands = [[i for i in range(len(base)) if i // across == b] for b in range(g.size // across)]
        arrays = (  # for the kernels: band masks, each band of boxes as a run of base lines, base, cover indices
            np.array(bands, dtype=np.int64),
            np.array([group[0] for group in base_bands], dtype=np.int64),
            np.array([len(group) for group in base_bands], dtype=np.int64),
            np.array(base, dtype=np.int64),
            np.array(cover_index, dtype=np.int64),
        )
        out.append((base, cover_units, cover_of, bands, line_box, cover_index, base_bands, arrays))
    return tuple(out)


def finned_fish(state: State, k: int, sashimi: bool = False) -> Step | None:
    """A fish whose base lines also hold ``d`` in a few extra cells (the fins), all in one box: either the
    fish holds, or a fin is ``d``, so cells of the cover lines inside the fins' box lose ``d``. Needs boxes.

    ``sashimi``: only the sashimi fish, whose base lines without the fins hold ``d`` in one cell or none in
    some line (HoDoKu names and scores them apart); else only the other finned fish."""
    g = state.g
    if not g.has_boxes:
        return None
    for o, tables in enumerate(_fin_tables(g)):
        find_on = partial(_finned_on, state, k, tables=tables, sashimi=sashimi)
        step = first_by_digit(("finned", k, o, sashimi), state, find_on)
        if step is not None:
            return step
    return None


def _finned_on(state: State, k: int, d: int, tables: tuple, sashimi: bool = False) -> Step | None:
    """The first finned ``k``-fish on digit ``d`` with the base lines of ``tables`` (the first sashimi one if
    ``sashimi``, else the first that is not sashimi)."""
    g, c = state.g, state.cands
    box_of = g.box_of
    size = g.size
    base, cover_units, cover_of, bands, line_box, cover_index, base_bands, arrays = tables
    band = bands[0].bit_count()
    bit = 1 << (d - 1)
    # the k-combinations of lines that can give a step (few), found by a kernel from the candidates; the covers
    # and the step are then spelled out here, in the same order as before
    fish_kernel, state_arrays = _modules()

    # the finned and the sashimi row of a size ask the same lines of the same state: found once
    key = ("finned-lines", k, id(tables), d)
    found = state.memo.get(key)
    if found is None:
        _values, cands = state_arrays.arrays(state)
        found = state.memo[key] = fish_kernel.finned_lines(
            cands, g.unit_array, arrays[3], arrays[4], bit, k, k + band, arrays[0], arrays[1], arrays[2]
        )
    kept, hits = found
    if not hits:
        return None
    pos = state.positions_table()  # (most states have no hit: they build no table)
    order = [base[i] for i in kept]  # base units are in increasing order, as ``sorted(lines)`` was
    lines = {u: pos[u][d] for u in order}
    span_of = {u: sum(1 << cover_index[s] for s in lines[u]) for u in order}
    for h in range(0, len(hits), k + 2):
        combo = tuple(order[j] for j in hits[h : h + k])
        union, found = hits[h + k], hits[h + k + 1]
        fin_bands = {bi for bi in range(len(bands)) if found >> bi & 1}
        inside = None
        for bi, band_mask in enumerate(bands):
            if bi not in fin_bands:
                continue
            required = union & ~band_mask
            need = k - required.bit_count()
            if need < 0:
                continue
            optional = [i for i in range(size) if (union & band_mask) >> i & 1]
            for extra in combinations(optional, need):
                cover_mask = required
                for i in extra:
                    cover_mask |= 1 << i
                if not union & ~cover_mask:
                    continue
                fin_box = None
                for u in combo:
                    if span_of[u] & ~cover_mask:
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
                    where = [cover_index[s] for s in inside]
                fins = [s for s, i in zip(inside, where) if not cover_mask >> i & 1]
                first = box_of[fins[0]]
                if any(box_of[s] != first for s in fins):
                    continue
                covers = [cover_units[i] for i in range(size) if cover_mask >> i & 1]
                box = g.unit_sets[first]
                body = [s for s in inside if cover_of[s] in covers]
                thin = [u for u in combo if sum(1 for s in lines[u] if cover_of[s] in covers) <= 1]
                if bool(thin) != sashimi:
                    continue
                elim = [(s, d) for v in covers for s in g.units[v] if s in box and c[s] & bit and s not in inside]
                if elim:
                    return _finned_step(state, d, combo, covers, body, fins, thin, elim)
    return None


def _finned_step(state: State, d: int, combo, covers, body, fins, thin, elim) -> Step:
    """The finned (or, with ``thin`` base lines, sashimi) fish step of digit ``d``: base lines ``combo``,
    cover lines ``covers``, the fish's cells ``body`` and ``fins``; ``thin``: the base lines holding ``d`` in
    one cover cell or none (a sashimi fish)."""
    name = f"{'Sashimi' if thin else 'Finned'} {FISH_NAMES[len(combo)]}"
    sym = state.sym(d)
    why = ""
    if thin:  # a base line left with one place of d (or none) once the fins are taken away
        left = [[s for s in body if s in state.g.unit_sets[u]] for u in thin]
        why = "; without the fin, " + text.and_list(
            [
                f"{state.unit_name(u)} holds {sym} only in {state.label(s[0])}"
                if s
                else f"{state.unit_name(u)} has no {sym}"
                for u, s in zip(thin, left)
            ]
        )
    inside = sorted([*body, *fins])
    return Step(
        name,
        eliminations=elim,
        cells=inside,
        units=list(combo) + list(covers),
        candidates=[(s, d) for s in inside],
        explanation=(
            f"{name} on {sym}: in {_names(state, combo)}, {sym} goes in {_names(state, covers)} "
            f"({text.cells(state, body)}) or in the fin {text.cells(state, fins)}{why}: "
            f"{text.removals(state, elim)}"
        ),
    )


def _names(state: State, units) -> str:
    return text.and_list([state.unit_name(u) for u in units])


# ---- Franken and Mutant fish ---------------------------------------------------------------------------------
#: HoDoKu's names of the fish whose base or cover sets hold boxes (Franken) or mix rows and columns (Mutant)
FRANKEN, MUTANT = "Franken", "Mutant"
#: at most this many fins (HoDoKu's default)
MAX_FINS = 5


def complex_fish(state: State, k: int, family: str, finned: bool = False) -> Step | None:
    """The first Franken or Mutant ``k``-fish (``family``) on the state, finned or not, digit by digit.

    ``k`` base units (rows, columns or boxes) that share no cell holding the digit ``d`` each hold ``d``
    once: ``k`` different cells. When every place of ``d`` in the base units lies in ``k`` cover units (none
    of them a base unit), each cover unit, which holds ``d`` at most once, holds one of those ``k`` cells, so
    ``d`` goes nowhere else in the cover units: not in their cells outside the base units, nor in a base cell
    that lies in two cover units. With fins (base cells outside every cover unit, up to :data:`MAX_FINS`)
    either the fish holds or a fin is ``d``: only the cells that see every fin lose ``d``.

    A Franken fish takes rows and boxes as base units and columns and boxes as cover units (or columns and
    rows the other way round), with a box among them; a Mutant fish is any other mix (:func:`family_of`).
    Needs boxes."""
    g = state.g
    if not g.has_boxes:
        return None
    cells = digit_cells(state)
    find_on = partial(_complex_on, state, k, family, finned, cells)
    return first_by_digit(("complex", k, family, finned), state, find_on)


@lru_cache(maxsize=32)
def _complex_sets(g: Geometry, family: str) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """(base units, cover units) to search for a ``family`` fish."""
    if family == FRANKEN:
        return ((g.rows + g.boxes, g.cols + g.boxes), (g.cols + g.boxes, g.rows + g.boxes))
    units = g.rows + g.cols + g.boxes
    return ((units, units),)


def family_of(g: Geometry, base, cover) -> str:
    """``"basic"``, :data:`FRANKEN` or :data:`MUTANT`: what a fish with these base and cover units is, as HoDoKu
    names it. Franken: rows (and boxes) as base units, columns (and boxes) as cover units, or columns and rows
    the other way round; basic if there is no box; Mutant otherwise (rows and columns mixed on one side, or
    boxes alone)."""
    kb = {g.unit_kind(u) for u in base}
    kc = {g.unit_kind(u) for u in cover}
    for line, other in (("row", "column"), ("column", "row")):
        if line in kb and kb <= {line, "box"} and other in kc and kc <= {other, "box"}:
            return "basic" if (kb, kc) == ({line}, {other}) else FRANKEN
    return MUTANT


def _complex_on(state: State, k: int, family: str, finned: bool, cells, d: int) -> Step | None:
    """The first ``family`` ``k``-fish on digit ``d``: base units in increasing order (pairwise without a
    common place of ``d``), then the cover units found by :func:`_covers`."""
    g = state.g
    where = cells[d][1]  # cells with candidate d
    ub = g.unit_bits
    for base_units, cover_units in _complex_sets(g, family):
        lines = [(u, ub[u] & where) for u in base_units if (ub[u] & where).bit_count() >= 2]
        max_fins = MAX_FINS if finned else 0
        for combo, body in _disjoint(lines, k):
            chosen = {u for u, _ in combo}
            allowed = [u for u in cover_units if u not in chosen]
            # k cover units hold at most the k largest shares of the base cells: the rest must be fins
            held = sorted(((ub[u] & body).bit_count() for u in allowed), reverse=True)
            if sum(held[:k]) < body.bit_count() - max_fins:
                continue
            for covers, fins in _covers(g, body, where, allowed, k, max_fins):
                base = [u for u, _ in combo]
                if family_of(g, base, covers) != family or (finned and not fins):
                    continue
                elim = _complex_removals(g, body, where, covers, fins)
                if elim:
                    return _complex_step(state, d, family, base, covers, body, fins, elim)
    return None


def _disjoint(lines: list[tuple[int, int]], k: int):
    """The ``k``-combinations of ``lines`` ((unit, its cells as a bitset)) whose cells do not overlap, in
    increasing order, each with the union of their cells."""

    def grow(start: int, combo: list[tuple[int, int]], union: int):
        if len(combo) == k:
            yield list(combo), union
            return
        for i in range(start, len(lines) - (k - len(combo)) + 1):
            u, bits = lines[i]
            if bits & union:
                continue
            combo.append((u, bits))
            yield from grow(i + 1, combo, union | bits)
            combo.pop()

    yield from grow(0, [], 0)


def _covers(g: Geometry, body: int, where: int, allowed: list[int], k: int, max_fins: int, need_peer: bool = True):
    """The sets of ``k`` units of ``allowed`` that hold every cell of ``body`` but at most ``max_fins`` (the
    fins), each unit holding one at least: (cover units, fins as a bitset). Each cell of ``body`` in turn,
    lowest first, is held by one of its units not chosen yet, or is a fin (then none of its units may be
    chosen later), so every set comes once. Fins must have a common peer holding the digit outside the base
    units (what a finned fish can remove: a base cell in two cover units that sees every fin is not looked for),
    unless not ``need_peer`` (a Kraken fish's fins each reach the cell by a chain)."""
    ub, pb = g.unit_bits, g.peer_bits
    allowed_set = set(allowed)
    units_of = g.units_of
    size = g.size

    def grow(rest: int, chosen: list[int], covered: int, fins: int, seen: int, banned: frozenset[int]):
        # seen: the cells outside the base units, holding the digit, that see every fin so far
        rest &= ~covered
        if rest.bit_count() > (k - len(chosen)) * size + max_fins - fins.bit_count():
            return  # more cells left than the covers still to choose and the fins left can take
        if not rest:
            if len(chosen) == k:
                yield list(chosen), fins
            return
        low = rest & -rest
        c = low.bit_length() - 1
        if len(chosen) < k:
            for u in units_of[c]:
                if u in allowed_set and u not in banned and u not in chosen:
                    chosen.append(u)
                    yield from grow(rest, chosen, covered | ub[u], fins, seen, banned)
                    chosen.pop()
        if fins.bit_count() < max_fins and (seen & pb[c] or not need_peer):
            yield from grow(rest & ~low, chosen, covered, fins | low, seen & pb[c], banned | set(units_of[c]))

    yield from grow(body, [], 0, 0, where & ~body, frozenset())


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _complex_removals(g: Geometry, body: int, where: int, covers: list[int], fins: int) -> int:
    """The cells losing the digit, as a bitset (``where``: the cells with it): the cover units' cells outside
    the base units and the base cells in two cover units; with fins, only those that see every fin."""
    ub, pb = g.unit_bits, g.peer_bits
    once = twice = 0
    for u in covers:
        m = ub[u] & where
        twice |= once & m
        once |= m
    out = (once & ~body) | (twice & body)
    for s in _bits(fins):
        out &= pb[s]
    return out


def _complex_step(state: State, d: int, family: str, base, covers, body: int, fins: int, elim: int) -> Step:
    """The Franken or Mutant fish step of digit ``d`` (cells as bitsets: ``body``, the base cells, fins
    included; ``elim``, the cells losing ``d``)."""
    name = f"{'Finned ' if fins else ''}{family} {FISH_NAMES[len(base)]}"
    covers = sorted(covers)
    sym = state.sym(d)
    inside = list(_bits(body))
    fin_cells = list(_bits(fins))
    removed = [(s, d) for s in _bits(elim)]
    fin = f", or {sym} is in the fin {text.cells(state, fin_cells)}" if fins else ""
    return Step(
        name,
        eliminations=removed,
        cells=inside,
        units=list(base) + list(covers),
        candidates=[(s, d) for s in inside],
        explanation=(
            f"{name} on {sym}: {_names(state, base)} each hold {sym} once, and share none of its places "
            f"({text.cells(state, inside)}); {_names(state, covers)} hold {sym} at most once each and hold "
            f"those places{' but the fins' if fins else ''}, so {sym} is in them only there{fin}: "
            f"{text.removals(state, removed)}"
        ),
    )


# ---- Kraken fish --------------------------------------------------------------------------------------------
#: HoDoKu's name of the step, and its default number of fins for it
KRAKEN, KRAKEN_FINS = "Kraken Fish", 2


def kraken_fish(state: State) -> Step | None:
    """The first Kraken fish, sizes 2 to 4 in turn: a basic fish with up to :data:`KRAKEN_FINS` fins anywhere,
    and a cell of a cover line outside the base lines that, for every fin, loses the digit once that fin is
    assumed to hold it and the singles it forces are followed (a fin whose assumption breaks the grid is left
    to the forcing chains). Either the fish holds, and the cell is not the digit, or a fin is, and the cell is
    not the digit either: it loses it. Cells that see every fin are left to the finned rows."""
    for k in (2, 3, 4):
        cells = digit_cells(state)
        step = first_by_digit(("kraken", k), state, partial(_kraken_on, state, k, cells))
        if step is not None:
            return step
    return None


def _kraken_on(state: State, k: int, cells, d: int) -> Step | None:
    from sudokit.logic.forcing import assume

    g = state.g
    where = cells[d][1]
    ub, pb = g.unit_bits, g.peer_bits
    bit = 1 << (d - 1)
    for base_units, cover_units in ((g.rows, g.cols), (g.cols, g.rows)):
        lines = [(u, ub[u] & where) for u in base_units if (ub[u] & where).bit_count() >= 2]
        for combo, body in _disjoint(lines, k):
            for covers, fins in _covers(g, body, where, list(cover_units), k, KRAKEN_FINS, need_peer=False):
                if not fins:
                    continue
                targets = _complex_removals(g, body, where, covers, 0) & ~body
                plain = targets
                for f in _bits(fins):
                    plain &= pb[f]
                targets &= ~plain  # those the finned fish removes
                why = []
                for f in _bits(fins):
                    if not targets:
                        break
                    trial = state.copy()
                    consistent, _ = assume(trial, f, d)
                    if not consistent:  # the fin is no candidate at all: a forcing chain's step, not this one
                        targets = 0
                        break
                    targets &= ~sum(1 << s for s in _bits(targets) if trial.values[s] == d or trial.cands[s] & bit)
                    why.append(f)
                if targets:
                    base = [u for u, _ in combo]
                    return _kraken_step(state, d, base, covers, body, fins, targets, why)
    return None


def _kraken_step(state: State, d: int, base, covers, body: int, fins: int, targets: int, why) -> Step:
    sym = state.sym(d)
    name = FISH_NAMES[len(base)]
    covers = sorted(covers)
    inside = list(_bits(body))
    fin_cells = list(_bits(fins))
    removed = [(s, d) for s in _bits(targets)]
    gone = text.cells(state, [s for s, _ in removed])
    reasons = [f"if {state.label(f)} is {sym}, the singles that follow remove {sym} from {gone}" for f in why]
    return Step(
        KRAKEN,
        eliminations=removed,
        cells=inside,
        units=list(base) + list(covers),
        candidates=[(s, d) for s in inside],
        explanation=(
            f"{KRAKEN} ({name}) on {sym}: in {_names(state, base)}, {sym} goes in {_names(state, covers)} "
            f"({text.cells(state, [s for s in inside if s not in fin_cells])}) or in the fin "
            f"{text.cells(state, fin_cells)}; {'; '.join(reasons)}: {text.removals(state, removed)}"
        ),
    )
