"""Variant techniques other than the killer ones (see ``cages.py``): what one constraint of a variant puzzle
removes from its own cells, given their candidates.

Each technique is one family of constraint kinds (:data:`FAMILIES`): odd/even cells, palindromes,
thermometers, Kropki dots and X/V marks (and their negative forms), renban and whisper lines, arrows,
little killers, sandwiches (and X-sums, skyscrapers), and the other lines and clues. The finder asks each
constraint of its family, in puzzle order, to narrow its cells (:meth:`Constraint.propagate`, the same
narrowing the variant solver uses: exact for a pair, a chain of bounds or a sum with repeats allowed) and
returns the first that removes a candidate, with the rule, why, and each narrowed cell's digits left.
Anti-knight, anti-king, cages without a sum and the no-repeat part of renban lines are peers of the state's
geometry (:meth:`State.from_variant`): singles, subsets and chains see them without a technique here.
"""

from __future__ import annotations

from functools import lru_cache

from sudokit.constraints.base import Constraint
from sudokit.logic import text
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step

#: technique name -> (constraint kinds, SE rating, why the rule narrows in words)
FAMILIES: dict[str, tuple[tuple[str, ...], float, str]] = {
    "Odd/Even": (("parity",), 1.0, "the cell's parity is given"),
    "Palindrome": (("palindrome",), 1.3, "mirrored cells hold the same digit, so each keeps only what both allow"),
    "Thermometer": (
        ("thermometer",),
        1.6,
        "digits rise from the bulb, so each cell is above the lowest digit before it and below the highest after it",
    ),
    "Kropki/XV Pair": (
        ("kropki", "xv", "negative_ratio", "negative_xv", "nonconsecutive"),
        2.0,
        "a digit with no partner in the other cell of its pair cannot stay",
    ),
    "Renban/Whispers Range": (
        ("renban", "whispers", "between_line", "three_class_line"),
        2.2,
        "only the digits of a run (a gap, a range) that the line's candidates can still make stay",
    ),
    "Arrow Sum": (
        ("arrow",),
        2.2,
        "the shaft's reachable sums (no digit twice in cells that see each other) and the bulb's digits must meet",
    ),
    "Little Killer Sum": (
        ("little_killer",),
        2.5,
        "only digits that some choice along the diagonal adds up to the clue with stay (no digit twice in cells "
        "that see each other)",
    ),
    "Line Sum": (
        ("equal_sums", "quadruple"),
        2.5,
        "only digits that some choice reaching the same sums (the quadruple's digits) uses stay",
    ),
    "Sandwich Sum": (
        ("sandwich", "xsum", "skyscraper"),
        3.0,
        "only the places of the ends and the digits between them that can reach the clue stay",
    ),
}
#: The family of each kind.
FAMILY_OF: dict[str, str] = {kind: name for name, (kinds, _, _) in FAMILIES.items() for kind in kinds}


@lru_cache(maxsize=1 << 16)
def narrowed(con: Constraint, masks: tuple[int, ...]) -> tuple[int, ...] | None:
    """The masks of ``con.cells`` (given as ``masks``, in that order) after the constraint narrows them; None
    when it finds a contradiction. Memoised: most constraints see the same candidates step after step."""
    cells = con.cells
    top = max(cells) + 1 if cells else 0
    work = [0] * top
    for s, m in zip(cells, masks):
        work[s] = m
    if not con.propagate(work):
        return None
    return tuple(work[s] for s in cells)


#: Sums over at most this many cells are searched with the no-repeat rule of cells that are peers.
MAX_SUM_CELLS = 5


def _with_peers(state: State, con: Constraint, masks: tuple[int, ...]) -> tuple[int, ...] | None:
    """A little killer's or a one-cell-bulb arrow's narrowing, made tighter for cells that are peers (they
    cannot repeat a digit, which the constraint's own sum sets allow): exact up to :data:`MAX_SUM_CELLS`
    cells; on longer sums by cliques, each row, column, box or cage of the line's cells adding one of its
    sums of different digits, the cliques' sums put together with repeats allowed between them
    (:func:`sum_combinations.clique_fit`). ``masks`` narrowed
    further, or None on a contradiction. Other kinds are left as they are."""
    from sudokit.constraints import Arrow, LittleKiller
    from sudokit.logic.cages import cliques_of, loose_fit
    from sudokit.logic.sum_combinations import clique_fit

    peers = state.g.peer_sets

    def fit(cells: tuple[int, ...], cell_masks: tuple[int, ...], total: int) -> list[int]:
        if len(cells) <= MAX_SUM_CELLS:
            apart = [[b in peers[a] for b in cells] for a in cells]
            return loose_fit(cell_masks, total, apart)
        return list(clique_fit(cell_masks, (1,) * len(cells), total, cliques_of(state, cells)))

    if isinstance(con, LittleKiller) and len(set(con.line)) == len(con.line):
        keep = fit(con.line, masks, con.total)
        out = tuple(m & k for m, k in zip(masks, keep))
        return out if all(out) else None
    if (
        isinstance(con, Arrow)
        and len(con.bulb) == 1
        and len(set(con.shaft)) == len(con.shaft)
        and con.bulb[0] not in con.shaft
    ):
        shaft = con.shaft
        bulb_keep = 0
        shaft_keep = [0] * len(shaft)
        for d in digits_of(masks[0]):
            keep = fit(shaft, masks[1:], d)
            if all(keep):
                bulb_keep |= 1 << (d - 1)
                shaft_keep = [a | b for a, b in zip(shaft_keep, keep)]
        out = (masks[0] & bulb_keep, *(m & k for m, k in zip(masks[1:], shaft_keep)))
        return out if all(out) else None
    return masks


#: Why a modular or entropic line narrows by the classes of cells three apart (:func:`_three_classes`).
THREE_APART = (
    "any three cells in a row on it hold all three classes, so cells three apart hold the same class and the "
    "line's three sets of such cells take three different classes; only the classes some such choice gives stay"
)


def _class_of(con: Constraint, d: int) -> int:
    """A digit's class on a modular (residue mod 3) or entropic (low / middle / high third) line."""
    from sudokit.constraints import ThreeClassLine

    assert isinstance(con, ThreeClassLine)
    return (d - 1) // (con.size // 3) if con.entropic else d % 3


def _three_classes(con: Constraint, masks: tuple[int, ...]) -> tuple[int, ...] | None:
    """A modular or entropic line of three or more different cells narrowed by :data:`THREE_APART`: the cells
    at positions ``i``, ``i + 3``, ... along the line share a class, and the three sets take three different
    classes. ``masks`` (of ``con.cells``, which are sorted, not in line order) narrowed further, or None on a
    contradiction; other lines as they are."""
    from itertools import permutations

    from sudokit.constraints import ThreeClassLine

    assert isinstance(con, ThreeClassLine)
    line = con.line
    if len(line) < 3 or len(set(line)) != len(line):
        return masks
    mask_of = dict(zip(con.cells, masks))
    allowed = [{0, 1, 2} for _ in range(3)]
    for i, s in enumerate(line):
        allowed[i % 3] &= {_class_of(con, d) for d in digits_of(mask_of[s])}
    kept: list[set[int]] = [set(), set(), set()]
    for pick in permutations(range(3)):
        if all(pick[p] in allowed[p] for p in range(3)):
            for p in range(3):
                kept[p].add(pick[p])
    for i, s in enumerate(line):
        keep = sum(1 << (d - 1) for d in digits_of(mask_of[s]) if _class_of(con, d) in kept[i % 3])
        if not keep:
            return None
        mask_of[s] = keep
    return tuple(mask_of[s] for s in con.cells)


def rule_step(state: State, family: str) -> Step | None:
    """The first constraint of ``family`` (puzzle order) that removes a candidate from one of its cells."""
    kinds, rating, why = FAMILIES[family]
    vals, cands = state.values, state.cands
    for con in state.constraints:
        if con.kind not in kinds:
            continue
        cells = con.cells
        before = tuple(1 << (vals[s] - 1) if vals[s] else cands[s] for s in cells)
        after = narrowed(con, before)
        if after is not None and con.kind in ("little_killer", "arrow"):
            after = _with_peers(state, con, after)
        reason = why
        if after is not None and con.kind == "three_class_line":
            apart = _three_classes(con, after)
            if apart != after:
                reason = THREE_APART
            after = apart
        if after is None:
            continue  # a broken state: not this step's to say
        elim = []
        kept = []
        for s, old, new in zip(cells, before, after):
            gone = old & ~new
            if gone and not vals[s] and (s, new) not in kept:
                elim += [(s, d) for d in digits_of(gone)]
                kept.append((s, new))
        if not elim:
            continue
        elim = sorted(set(elim))
        left = "; ".join(f"{state.label(s)} keeps {text.digit_set(digits_of(m), state)}" for s, m in kept)
        return Step(
            family,
            eliminations=elim,
            cells=list(dict.fromkeys(cells)),
            candidates=[(s, d) for s in dict.fromkeys(cells) if not vals[s] for d in digits_of(cands[s])],
            explanation=f"{family}: {con.describe(state.g)}; {reason}: {left}: {text.removals(state, elim)}",
            rating=rating,
        )
    return None
