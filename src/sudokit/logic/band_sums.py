"""Band sums: little killers on neighbouring parallel diagonals added up, less the boxes and cages inside.

Little killers whose clues cover a run of neighbouring diagonals of one direction (a diagonal unit of the
puzzle counts as a clue of 45 on its diagonal) add up to a known total over a *band* of cells. Two bands of
crossing directions add up too, their shared cells counted twice. From that count of cells (each cell
counted once or twice) the whole summed cages inside are taken off first, then the whole boxes and other
units, each as often as every cell of it is still counted (cages first: a cage that sticks out of a box
into the band is worth more taken whole than the box). When every cell left is counted once, those cells
add up to the rest of the total, and are narrowed clique by clique (``sum_combinations.clique_fit``: each
row, column, box or cage of them holds different digits; repeats allowed between cliques). A clique lying
in a box adds up to one of the sums of its digit sets that the other cliques can complete the total with;
the rest of that box adds up to the box's sum less one of those, and its cells are narrowed to match.

The "Hailstone" little killers (data lines 48, 49): the five clues parallel to diagonal - (A1 to I9, itself
one of them) add up to 216, less boxes 1, 5, 9 leaves 12 cells adding up to 81; the crossing band 83.
Together (434), less the four cages that stick out of box 5 (61) and boxes 1, 3, 5, 7, 9 (225), 20 cells in
boxes 2, 4, 6, 8 and E5 add up to 148, at most 4 x 35 + 9 = 149: E5 is 8 or 9 and each box's five cells
hold its five biggest digits but one, so the box's other four cells add up to 10 or 11."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from sudokit.constraints.base import add_sums
from sudokit.logic import text
from sudokit.logic.cages import cliques_of, distinct_fit, summed_cages
from sudokit.logic.puzzle_memo import puzzle_memo
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step
from sudokit.logic.sum_combinations import clique_fit, set_sums

NAME = "Band Sum"
#: SE rating: several little killers added and boxes and cages taken off, a region with no unit's shape,
#: sometimes two such regions crossing: above Sum Combination (3.7), which takes up to four sums along
#: shared cells, at the level of a Region Sum over five units (3.6 + 4 x 0.2 = 4.4).
RATING = 4.4
#: Bands whose open cells left are more than this are not narrowed (their bounds say little).
MAX_CELLS = 24


@dataclass(frozen=True)
class Band:
    """Neighbouring parallel diagonals with known sums: their cells, total and the clues, in words."""

    cells: frozenset[int]
    total: int
    how: str


def _diagonal(n: int, s: int, down: bool) -> int:
    """The index of cell ``s``'s diagonal: ``row - col`` (``down``: top left to bottom right), else
    ``row + col`` (bottom left to top right)."""
    r, c = divmod(s, n)
    return r - c if down else r + c


def _lines(state: State, down: bool) -> dict[int, tuple[frozenset[int], int, str]]:
    """The diagonals of one direction with a known sum: a little killer along the whole diagonal, or a unit
    of the puzzle lying on it (all digits once: 45)."""
    from sudokit.constraints import LittleKiller

    g = state.g
    n = g.size
    whole: dict[int, set[int]] = {}
    for s in range(g.n_cells):
        whole.setdefault(_diagonal(n, s, down), set()).add(s)
    out: dict[int, tuple[frozenset[int], int, str]] = {}
    for con in state.constraints:
        if isinstance(con, LittleKiller) and len(set(con.line)) == len(con.line):
            k = _diagonal(n, con.line[0], down)
            if set(con.line) == whole[k]:
                out[k] = (frozenset(con.line), con.total, f"little killer {con.total} at {state.label(con.line[0])}")
    full = n * (n + 1) // 2
    for u, unit in enumerate(g.units):
        k = _diagonal(n, unit[0], down)
        if len(unit) == n and set(unit) == whole[k] and k not in out:
            out[k] = (frozenset(unit), full, f"{state.unit_name(u)} ({full})")
    return out


def _bands(state: State, down: bool) -> list[Band]:
    """Every run of two or more neighbouring diagonals of one direction with known sums."""
    lines = _lines(state, down)
    out: list[Band] = []
    for start in sorted(lines):
        cells: frozenset[int] = frozenset()
        total = 0
        hows: list[str] = []
        k = start
        while k in lines:
            line, t, how = lines[k]
            cells |= line
            total += t
            hows.append(how)
            if len(hows) >= 2 and any("little killer" in h for h in hows):
                out.append(Band(cells, total, ", ".join(hows)))
            k += 1
    return out


def _regions(state: State) -> Iterator[tuple[list[Band], dict[int, int], int]]:
    """The bands, then pairs of crossing bands: (bands, how often each cell is counted, total)."""
    ups, downs = _bands(state, False), _bands(state, True)
    for band in downs + ups:
        yield [band], dict.fromkeys(band.cells, 1), band.total
    for a in downs:
        for b in ups:
            if a.cells & b.cells:
                count = dict.fromkeys(a.cells, 1)
                for s in b.cells:
                    count[s] = count.get(s, 0) + 1
                yield [a, b], count, a.total + b.total


def _peel(state: State, count: dict[int, int], total: int) -> tuple[list[tuple[str, int]], int]:
    """Take the whole summed cages (each once), then the whole full-size units (boxes first, each as often as
    every cell of it is still counted), out of ``count`` (in place): (what was taken and its sum, the total
    left). A cage taken twice where a band pair counts it twice would leave the box it sticks out of
    short of a count."""
    g = state.g
    full = g.size * (g.size + 1) // 2
    pieces = [
        (f"cage {'+'.join(state.label(s) for s in c.cage)} = {c.total}", tuple(c.cage), c.total or 0)
        for c in summed_cages(state)
    ]
    boxes = set(g.boxes) if g.has_boxes else set()
    order = sorted(range(len(g.units)), key=lambda u: u not in boxes)
    cages = len(pieces)
    pieces += [(state.unit_name(u), tuple(g.units[u]), full) for u in order if len(g.units[u]) == g.size]
    taken: list[tuple[str, int]] = []
    for i, (name, cells, t) in enumerate(pieces):
        while all(count.get(s, 0) >= 1 for s in cells) and (i >= cages or (name, t) not in taken):
            for s in cells:
                count[s] -= 1
            taken.append((name, t))
            total -= t
    return taken, total


def _plans(state: State) -> list[tuple[list[Band], int, list[tuple[str, int]], int, list[int]]]:
    """Each band or pair of crossing bands (:func:`_regions` order) whose cells left after :func:`_peel` are
    counted once each: (bands, their total, what was taken, the total left, the cells left); kept for the
    puzzle (it depends on the constraints only)."""
    memo = puzzle_memo(state)
    found = memo.get("band-sums")
    if found is not None:
        return found
    out = []
    for bands, count, total in _regions(state):
        taken, left = _peel(state, count, total)
        rest = sorted(s for s, k in count.items() if k)
        if not taken or any(count[s] > 1 for s in rest):
            continue
        out.append((bands, total, taken, left, rest))
    memo["band-sums"] = out
    return out


def band_sum(state: State) -> Step | None:
    """The first band or pair of crossing bands (see the module) whose cells left, counted once each, lose a
    candidate to their sum."""
    if not any(con.kind == "little_killer" for con in state.constraints):
        return None
    vals, cands = state.values, state.cands
    for bands, total, taken, left, rest in _plans(state):
        cells = tuple(s for s in rest if not vals[s])
        open_total = left - sum(vals[s] for s in rest)
        if not 2 <= len(cells) <= MAX_CELLS:
            continue
        masks = tuple(cands[s] for s in cells)
        ones = (1,) * len(cells)
        keep = clique_fit(masks, ones, open_total, cliques_of(state, cells, ones))
        if not all(keep):
            continue  # nothing fits: a broken state is not this step's to say
        elim = [(s, d) for s, m, k in zip(cells, masks, keep) for d in digits_of(m & ~k)]
        rests = _rests(state, cells, keep, open_total)
        for s, k in rests:
            elim += [(s, d) for d in digits_of(cands[s] & ~k) if (s, d) not in elim]
        if elim:
            return _step(state, bands, taken, total, rest, cells, open_total, keep, sorted(elim), rests)
    return None


def _rests(state: State, cells: tuple[int, ...], keep: tuple[int, ...], total: int) -> list[tuple[int, int]]:
    """The rest of a box (or other full unit) holding a clique of the band's cells: the clique adds up to one
    of the sums the other cliques can complete ``total`` with, so the rest of the unit to the unit's sum less
    one of them; each open cell of the rest with the digits some such set of different digits gives it."""
    g = state.g
    full = g.size * (g.size + 1) // 2
    vals, cands = state.values, state.cands
    ones = (1,) * len(cells)
    cliques = cliques_of(state, cells, ones)
    sums = [set_sums(tuple(keep[i] for i in q)) for q in cliques]
    out: list[tuple[int, int]] = []
    seen: set[int] = set()
    for i, q in enumerate(cliques):
        members = {cells[j] for j in q}
        unit = next((u for u in (g.boxes if g.has_boxes else ()) if members <= set(g.units[u])), None)
        if unit is None or len(q) < 2:
            continue
        others = 1
        for j, t in enumerate(sums):
            if j != i:
                others = add_sums(others, t)
        rest = [s for s in g.units[unit] if s not in members]
        open_rest = tuple(s for s in rest if not vals[s] and s not in seen)
        if not open_rest or len(open_rest) != sum(1 for s in rest if not vals[s]):
            continue
        placed = sum(vals[s] for s in rest)
        masks = tuple(cands[s] for s in open_rest)
        kept = [0] * len(open_rest)
        for t in range(sums[i].bit_length()):
            if sums[i] >> t & 1 and total - t >= 0 and others >> (total - t) & 1:
                _, k = distinct_fit(masks, full - t - placed)
                kept = [a | b for a, b in zip(kept, k)]
        if all(kept) and any(m & ~k for m, k in zip(masks, kept)):
            out += list(zip(open_rest, kept))
            seen.update(open_rest)
    return out


def _step(state, bands, taken, total, rest, cells, open_total, keep, elim, rests) -> Step:
    plus = "+".join(state.label(s) for s in cells)
    clues = "; ".join(f"{b.how} add up to {b.total}" for b in bands)
    both = f", {total} together (cells in both counted twice)" if len(bands) > 1 else ""
    off = " + ".join(f"{name}" for name, _ in taken)
    less = sum(t for _, t in taken)
    placed = [s for s in rest if state.values[s]]
    placed_text = f", less the placed {', '.join(state.label(s) for s in placed)}" if placed else ""
    left = "; ".join(f"{state.label(s)} keeps {text.digit_set(digits_of(k), state)}" for s, k in zip(cells, keep))
    if rests:
        full = state.g.size * (state.g.size + 1) // 2
        left += f"; so the rest of each box holding a clique of them adds up to {full} less one of its sums: "
        left += "; ".join(f"{state.label(s)} keeps {text.digit_set(digits_of(k), state)}" for s, k in rests)
    return Step(
        NAME,
        eliminations=elim,
        cells=sorted({s for b in bands for s in b.cells}),
        candidates=[(s, d) for s in cells for d in digits_of(state.cands[s])],
        explanation=(
            f"{NAME}: {clues}{both}; less {off} ({less}) inside, the rest{placed_text} adds up to "
            f"{plus} = {open_total}, with no digit twice in a row, column, box or cage of them: {left}: "
            f"{text.removals(state, elim)}"
        ),
        rating=RATING,
    )
