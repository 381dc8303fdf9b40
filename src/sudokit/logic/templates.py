"""Pattern overlay (digit templates) on a variant grid, with the cages that must hold the digit.

A digit's *template* is one way to place all of its copies: one cell per row, none two of them peers (the
variant grid's peers hold the cage mates, anti-knight and anti-king cells, ...), every unit of the grid (rows,
columns, boxes, diagonals, extra regions of full size) hit once, and every summed cage that must hold the digit
(each set of different digits with the cage's sum that its cells can place holds it) hit once. A candidate of
the digit that no template uses is false (*template delete*); a cell every template uses holds the digit
(*template set*). Each solution's copies of the digit are a template, so both are sound.

This is the pattern overlay method (HoDoKu's "Template Set/Delete", among its last-resort steps). It finds what
a single-digit contradiction finds (SE's Nishio chain, 7.5), without assuming anything: it is rated so and comes
just before the Nishio row. On the bundled killers (``data/variants/iss_fpuzzles.jsonl``) the templates alone
finish lines 92 and 93, and on line 75 a cage that must hold the digit is what removes a candidate.

:func:`template_combination` takes two digits together (8.0, before the multiple forcing chain): a template
that overlaps every template of another digit would leave that digit no place. It finishes line 71.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from sudokit.geometry import Geometry
from sudokit.logic import text
from sudokit.logic.cages import distinct_fit, masks_of, summed_cages
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step

NAME = "Pattern Overlay"
#: SE-scale rating: what a single-digit Nishio chain (7.5) finds.
RATING = 7.5
#: Boards above this size are skipped (a digit of a 16x16 board has far too many templates to list).
MAX_SIZE = 9


def must_hold(state: State) -> dict[int, list[tuple[int, ...]]]:
    """Per digit, the summed cages (their cells) that every fitting set of different digits makes hold it,
    the digit not yet placed in them."""
    vals = state.values
    out: dict[int, list[tuple[int, ...]]] = {}
    for cage in summed_cages(state):
        cells = cage.cage
        sets, _ = distinct_fit(masks_of(state, cells), cage.total or 0)
        if not sets:
            continue
        required = state.g.all_mask
        for m in sets:
            required &= m
        for d in digits_of(required):
            if not any(vals[s] == d for s in cells):
                out.setdefault(d, []).append(tuple(cells))
    return out


@lru_cache(maxsize=16)
def _tables(g: Geometry) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Per cell the bitmask of itself and its peers; per unit its cell bitmask; the rows' cells."""
    peers = tuple(sum(1 << p for p in g.peer_sets[s]) | (1 << s) for s in range(g.n_cells))
    units = tuple(sum(1 << s for s in u) for u in g.units if len(u) == g.size)
    rows = tuple(tuple(g.units[r]) for r in g.rows)
    return peers, units, rows


@lru_cache(maxsize=16)
def _unsure(g: Geometry) -> tuple[int, ...]:
    """The full units (cell bitmasks) a template is not sure to hit. One cell per row, no two of them peers, is
    ``size`` cells in ``size`` different columns (boxes): every column (box) holds one. So a family of units
    that splits the grid (the rows, the columns, the boxes) is hit by every template; the others (diagonals,
    extra regions) are checked at its end."""
    full = (1 << g.n_cells) - 1
    sure: set[int] = set()
    for family in (g.rows, g.cols, g.boxes):
        masks = [sum(1 << s for s in g.units[u]) for u in family]
        if len(masks) == g.size and all(m.bit_count() == g.size for m in masks) and sum(masks) == full:
            union = 0
            for m in masks:
                union |= m
            if union == full:
                sure.update(masks)
    return tuple(u for u in _tables(g)[1] if u not in sure)


def _template_checks(g: Geometry, places: int, musts: tuple[int, ...]) -> tuple[bool, tuple[int, ...]]:
    """Whether every full unit and every mask of ``musts`` has one of the ``places``, and the masks (those
    places) a template must still be checked against at its end (:func:`_unsure`, and ``musts``)."""
    _, units, _ = _tables(g)
    if any(not u & places for u in units) or any(not m & places for m in musts):
        return False, ()
    return True, tuple(u & places for u in _unsure(g)) + tuple(m & places for m in musts)


@lru_cache(maxsize=1 << 12)
def overlay(g: Geometry, places: int, musts: tuple[int, ...]) -> tuple[int, int, int]:
    """The templates of a digit whose possible cells are the bitmask ``places`` (candidates and placed copies),
    each hitting every full unit and every mask of ``musts`` once: (cells some template uses, cells every
    template uses, how many templates). (0, 0, 0) when there is none."""
    peers, _, rows = _tables(g)
    some, checks = _template_checks(g, places, musts)
    if not some:
        return 0, 0, 0
    row_cells = [tuple(s for s in row if places >> s & 1) for row in rows]
    if not row_cells:
        return 0, 0, 0
    n = len(row_cells)
    later = [0] * (n + 1)  # later[r]: the cells of rows r.. (what is blocked before them matters no more)
    for r in range(n - 1, -1, -1):
        later[r] = later[r + 1] | sum(1 << s for s in rows[r])
    hits = {s: sum(1 << j for j, c in enumerate(checks) if c >> s & 1) for cells in row_cells for s in cells}
    every = (1 << len(checks)) - 1
    known: dict[tuple[int, int, int], tuple[int, int, int]] = {}

    def rest(r: int, blocked: int, hit: int) -> tuple[int, int, int]:
        """The ends of templates from row ``r`` on (their cells there), with ``blocked`` cells and the checks
        ``hit`` so far: (how many, cells some uses, cells every one uses); the same for every start that blocks
        the same cells of those rows and hits the same checks, so worked out once."""
        key = (r, blocked & later[r], hit)
        found = known.get(key)
        if found is not None:
            return found
        count, union, inter = 0, 0, -1
        if r == n - 1:  # the last row: each cell left ends a template that hits every check
            for s in row_cells[r]:
                if not blocked >> s & 1 and hit | hits[s] == every:
                    count += 1
                    union |= 1 << s
                    inter &= 1 << s
        else:
            for s in row_cells[r]:
                if not blocked >> s & 1:
                    c, u, i = rest(r + 1, blocked | peers[s], hit | hits[s])
                    if c:
                        count += c
                        union |= 1 << s | u
                        inter &= 1 << s | i
        found = known[key] = (count, union, inter) if count else (0, 0, 0)
        return found

    count, union, inter = rest(0, 0, 0)
    return (union, inter, count) if count else (0, 0, 0)


def _masks(cages: list[tuple[int, ...]]) -> tuple[int, ...]:
    return tuple(sorted(sum(1 << s for s in c) for c in cages))


def pattern_overlay(state: State) -> Step | None:
    """The first digit (in order) some of whose candidates no template uses, or a cell of which every template
    uses: a placement when there is one, else the eliminations. The step names the cages that must hold the
    digit only when it needs them (each one whose template rule changes nothing is left out)."""
    g = state.g
    if g.size > MAX_SIZE or not state.constraints:
        return None
    musts = must_hold(state)
    cands, vals = state.cands, state.values
    for d in g.digits:
        bit = 1 << (d - 1)
        places = 0
        for s in range(g.n_cells):
            if cands[s] & bit or vals[s] == d:
                places |= 1 << s
        cages = musts.get(d, [])
        union, inter, count = overlay(g, places, _masks(cages))
        if not count:
            continue  # no template at all: a broken state is not this step's to say
        for c in list(cages):  # name only the cages the step needs: drop each one that changes nothing
            fewer = [x for x in cages if x != c]
            if overlay(g, places, _masks(fewer))[:2] == (union, inter):
                cages = fewer
        union, inter, count = overlay(g, places, _masks(cages))
        step = _overlay_step(state, NAME, d, cages, union, inter, count)
        if step is not None:
            return step
    return None


def _overlay_step(
    state: State, name: str, d: int, cages: list[tuple[int, ...]], union: int, inter: int, count: int
) -> Step | None:
    """The step of digit ``d``'s ``count`` templates (``union``: cells some template uses, ``inter``: cells every
    one uses), with the cages they must hit: the placements, else the eliminations, else None."""
    g, cands = state.g, state.cands
    bit = 1 << (d - 1)
    put = [(s, d) for s in range(g.n_cells) if cands[s] & bit and inter >> s & 1]
    elim = [(s, d) for s in range(g.n_cells) if cands[s] & bit and not union >> s & 1]
    if not put and not elim:
        return None
    units = "row, column, box and other unit" if state.constraints else "row, column and box"
    rule = f"{state.sym(d)} goes once in every {units}, never in two cells that see each other"
    if cages:
        named = [" + ".join(state.label(s) for s in c) for c in cages]
        rule += (
            f", and once in {'cage' if len(cages) == 1 else 'cages'} {text.and_list(named)} (every set of "
            f"different digits with {'its' if len(cages) == 1 else 'their'} sum that fits the candidates holds "
            f"{state.sym(d)})"
        )
    ways = f"{count} way{'s' if count != 1 else ''}"
    if put:
        why = f"all {ways} to place every {state.sym(d)} use {text.cells(state, [s for s, _ in put])}"
        what = text.placements(state, put)
    else:
        why = f"none of the {ways} to place every {state.sym(d)} uses {text.cells(state, [s for s, _ in elim])}"
        what = text.removals(state, elim)
    return Step(
        name,
        placements=put,
        eliminations=[] if put else elim,
        cells=sorted({s for c in cages for s in c}),
        candidates=[(s, d) for s in range(g.n_cells) if cands[s] & bit],
        explanation=f"{name}: {rule}; {why}: {what}",
        rating=RATING,
    )


# ---- a classic grid's templates (HoDoKu's Template Set/Delete) ---------------------------------------------
CLASSIC = "Template Set/Delete"


def template_set_delete(state: State) -> Step | None:
    """HoDoKu's Template Set and Template Delete on a classic grid (no variant constraints, at most 9x9): the
    first digit (in order) that every template places in a cell (set), or whose candidates some cell no
    template uses (delete). Sound: each solution's copies of a digit are a template."""
    g = state.g
    if g.size > MAX_SIZE or state.constraints:
        return None
    cands, vals = state.cands, state.values
    for d in g.digits:
        bit = 1 << (d - 1)
        places = sum(1 << s for s in range(g.n_cells) if cands[s] & bit or vals[s] == d)
        union, inter, count = overlay(g, places, ())
        if count:
            step = _overlay_step(state, CLASSIC, d, [], union, inter, count)
            if step is not None:
                return step
    return None


# ---- two digits' templates together ----------------------------------------------------------------------
COMBINATION = "Template Combination"
#: SE-scale rating: what a forcing chain over two digits finds (a multiple forcing chain, 8.0).
COMBINATION_RATING = 8.0
#: A digit with more templates than this is not combined (the check is templates x templates per digit pair).
MAX_TEMPLATES = 6000


@lru_cache(maxsize=1 << 10)
def digit_templates(g: Geometry, places: int, musts: tuple[int, ...]) -> tuple[int, ...] | None:
    """Every template (a cell bitmask) of a digit as :func:`overlay` counts them; None when there are more
    than :data:`MAX_TEMPLATES`."""
    peers, _, rows = _tables(g)
    some, checks = _template_checks(g, places, musts)
    if not some:
        return ()
    row_cells = [tuple(s for s in row if places >> s & 1) for row in rows]
    out: list[int] = []

    def walk(r: int, blocked: int, used: int) -> bool:
        if r == len(row_cells):
            if all(c & used for c in checks):
                out.append(used)
            return len(out) <= MAX_TEMPLATES
        for s in row_cells[r]:
            if not blocked >> s & 1 and not walk(r + 1, blocked | peers[s], used | 1 << s):
                return False
        return True

    return tuple(out) if walk(0, 0, 0) else None


def _words(masks: tuple[int, ...], n_cells: int) -> np.ndarray:
    """Cell bitmasks as rows of 64-bit words (``(len(masks), words)``)."""
    words = (n_cells + 63) // 64
    out = np.zeros((len(masks), words), dtype=np.uint64)
    for i, m in enumerate(masks):
        for w in range(words):
            out[i, w] = (m >> (64 * w)) & 0xFFFFFFFFFFFFFFFF
    return out


@lru_cache(maxsize=1 << 12)
def room_for(g: Geometry, first: tuple[int, ...], second: tuple[int, ...]) -> int:
    """Bitmask over ``first`` (templates of one digit): those some template of ``second`` (another digit's)
    does not overlap. ``second`` is taken in blocks, each against the templates of ``first`` still without
    such a partner (most find one in the first block), which bounds memory too."""
    a, b = _words(first, g.n_cells), _words(second, g.n_cells)
    found = np.zeros(len(first), dtype=bool)
    step = 256
    for lo in range(0, len(second), step):
        rows = np.flatnonzero(~found)
        if not rows.size:
            break
        part, block = a[rows], b[lo : lo + step]
        for chunk in range(0, rows.size, max(1, 2_000_000 // step)):
            sub = part[chunk : chunk + 2_000_000 // step]
            overlap = np.zeros((len(sub), len(block)), dtype=bool)
            for w in range(a.shape[1]):
                overlap |= (sub[:, w, None] & block[None, :, w]) != 0
            found[rows[chunk : chunk + len(sub)][~overlap.all(axis=1)]] = True
    keep = 0
    for i in np.flatnonzero(found):
        keep |= 1 << int(i)
    return keep


def template_combination(state: State) -> Step | None:
    """The first digit (in order) some of whose templates (:func:`pattern_overlay`'s) leave no template of
    another digit that does not overlap them, so that the templates left lose a candidate or all use a cell."""
    g = state.g
    if g.size > MAX_SIZE or not state.constraints:
        return None
    musts = must_hold(state)
    cands, vals = state.cands, state.values
    every: dict[int, tuple[int, ...]] = {}
    for d in g.digits:
        bit = 1 << (d - 1)
        places = sum(1 << s for s in range(g.n_cells) if cands[s] & bit or vals[s] == d)
        found = digit_templates(g, places, _masks(musts.get(d, [])))
        if not found:
            return None  # too many to combine, or none (a broken state is not this step's to say)
        every[d] = found
    for d in g.digits:
        bit = 1 << (d - 1)
        mine = every[d]
        alive = (1 << len(mine)) - 1
        blocked_by: dict[int, int] = {}
        for e in g.digits:
            if e == d:
                continue
            fits = room_for(g, mine, every[e])
            for i in range(len(mine)):
                if alive >> i & 1 and not fits >> i & 1:
                    blocked_by[i] = e
            alive &= fits
        if not alive:
            continue
        union, inter = 0, -1
        for i, t in enumerate(mine):
            if alive >> i & 1:
                union |= t
                inter &= t
        put = [(s, d) for s in range(g.n_cells) if cands[s] & bit and inter >> s & 1]
        elim = [(s, d) for s in range(g.n_cells) if cands[s] & bit and not union >> s & 1]
        if not put and not elim:
            continue
        others = sorted(set(blocked_by.values()))
        kept = bin(alive).count("1")
        lead = (
            f"{COMBINATION}: {state.sym(d)} has {len(mine)} templates (ways to place every {state.sym(d)}, as in a "
            f"pattern overlay); {len(mine) - kept} of them overlap every template of "
            f"{' or of '.join(state.sym(e) for e in others)}, which would leave "
            f"{state.sym(others[0]) if len(others) == 1 else 'that digit'} no place, and the {kept} left"
        )
        if put:
            why, what = f"all use {text.cells(state, [s for s, _ in put])}", text.placements(state, put)
        else:
            why, what = f"never use {text.cells(state, [s for s, _ in elim])}", text.removals(state, elim)
        return Step(
            COMBINATION,
            placements=put,
            eliminations=[] if put else elim,
            candidates=[(s, d) for s in range(g.n_cells) if cands[s] & bit],
            explanation=f"{lead} {why}: {what}",
            rating=COMBINATION_RATING,
        )
    return None
