"""Variant chains: alternating inference chains whose links may be a killer cage's sum or a rule's.

An AIC joins candidates by two kinds of link: a weak link (both cannot be true: one cell, or one digit in
cells that see each other) and a strong link (both cannot be false: a cell with two candidates, a digit
with two places in a unit). The classic chains (``chains.py``) know only those. A summed cage (or a
virtual cage of a few cells, ``killer_sums.py``) gives more, read off its exact combinations:

- a weak link between ``a = d`` and ``b = e`` (two of its cells) when no placement of the cage's digits
  with its sum, fitting the candidates, has both (e.g. ``A3 + A4 = 15``: ``A3 = 8`` and ``A4 = 6``);
- a strong link between ``a = d`` and ``b = e`` when every placement without ``a = d`` has ``b = e``
  (so one of them is true).

The other constraints (little killers, arrows, lines, ...) give links the same way, read off their own
narrowing (``propagate``) with one candidate set or removed.

A chain starts from a candidate ``A`` assumed false and follows the links alternately (false, so the strong
partner is true; true, so its weak partners are false; ...), one candidate at a time as an AIC does (never
two premises at once: that is a forcing net). When it reaches a candidate ``Z`` false that ``A`` also
excludes (``Z`` is weak to ``A``), ``Z`` is false either way and is removed; when it reaches ``A`` true,
``A`` is placed; a chain from ``A`` true that reaches ``A`` false removes ``A``. Only what the plain links
alone do not show is taken (the plain chains are the AIC rows'); a digit's places in a unit that also lie in
one other unit (a box and a line, a diagonal and a box) are a group node, linked like a candidate. The
shortest chain is shown, each link with its reason.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sudokit.constraints.base import Constraint
from sudokit.logic import text
from sudokit.logic.cages import distinct_fit, loose_fit, masks_of, summed_cages
from sudokit.logic.chains import bit_numbers, length_penalty
from sudokit.logic.killer_sums import sum_groups
from sudokit.logic.puzzle_memo import puzzle_memo
from sudokit.logic.state import State, digits_of
from sudokit.logic.step import Step
from sudokit.logic.variant_rules import narrowed

NAME = "Variant AIC"
#: SE rating of an AIC (7.0) plus its length penalty: a chain is a chain, whatever its links.
BASE = 7.0
#: Virtual cages of at most this many cells give links (bigger ones rarely tie two candidates).
MAX_GROUP_LINKS = 4
#: Rules over at most this many cells give links (a line, an arrow, a thermometer, a sandwich's row). A rule
#: over the whole grid (non-consecutive, a negative dot rule) is left out: asking it once per candidate cost
#: ~1 s a state (line 46), and its pair links are one cell's neighbours.
MAX_RULE_CELLS = 12


class Links:
    """The weak and strong links of a state's candidates, as bitsets over candidate numbers
    ``cell * size + digit - 1``, and the reasons of the cage links (for the text)."""

    def __init__(self, state: State) -> None:
        g = state.g
        self.n = n = g.size
        self.state = state
        cands, vals = state.cands, state.values
        count = g.n_cells * n
        self.weak = [0] * count
        self.strong = [0] * count
        #: (x, y) -> why, for links a cage or a sum gives (the others are named from the grid)
        self.why: dict[tuple[int, int], str] = {}
        peers = g.peer_sets
        for s in range(g.n_cells):
            if vals[s]:
                continue
            ds = digits_of(cands[s])
            for d in ds:
                x = s * n + d - 1
                w = 0
                for e in ds:
                    if e != d:
                        w |= 1 << (s * n + e - 1)
                bit = 1 << (d - 1)
                for p in peers[s]:
                    if cands[p] & bit:
                        w |= 1 << (p * n + d - 1)
                self.weak[x] = w
            if len(ds) == 2:
                a, b = s * n + ds[0] - 1, s * n + ds[1] - 1
                self.strong[a] |= 1 << b
                self.strong[b] |= 1 << a
        #: the plain links alone (one cell, one digit in a unit, two places), to tell what only a rule gives
        self.weak_plain = self.weak[:]
        self.strong_plain = self.strong[:]
        #: group nodes after the candidates: (cells, digit) of a digit's places where two units meet
        self.count = count
        self.groups: list[tuple[tuple[int, ...], int]] = []
        self._group_links(state)
        for cage in summed_cages(state):
            label = "+".join(state.label(s) for s in cage.cage)
            self._sum_links(cage.cage, cage.total or 0, f"cage {label} = {cage.total}")
        for con in state.constraints:
            if (
                con.kind != "killer"
                and 0 < len(con.cells) <= MAX_RULE_CELLS
                and type(con).propagate is not Constraint.propagate
            ):
                self._rule_links(con)
        for grp in sum_groups(state):
            if len(grp.cells) <= MAX_GROUP_LINKS:
                label = "+".join(state.label(s) for s in grp.cells)
                self._sum_links(grp.cells, grp.total, f"{label} = {grp.total}, from {grp.how}")

    def _group_links(self, state: State) -> None:
        """Strong links of a digit with two places in a unit, or two places and groups (its places in the unit
        that also lie in one other unit: a box and a line, a diagonal and a box); weak links of a group to the
        digit's candidates (and the other groups) that see all of its cells."""
        g, n = state.g, self.n
        peers = g.peer_sets
        index: dict[tuple[frozenset[int], int], int] = {}

        def node(cells: Sequence[int], d: int) -> int:
            if len(cells) == 1:
                return cells[0] * n + d - 1
            key = (frozenset(cells), d)
            if key not in index:
                index[key] = self.count + len(self.groups)
                self.groups.append((tuple(sorted(cells)), d))
                self.weak.append(0)
                self.strong.append(0)
            return index[key]

        vals = state.values
        for u in range(len(g.units)):
            placed = 0  # the digits placed in the unit
            for s in g.units[u]:
                if vals[s]:
                    placed |= 1 << (vals[s] - 1)
            for d in g.digits:
                where = state.positions(u, d)
                if len(where) < 2 or placed >> (d - 1) & 1:
                    continue
                inside = set(where)
                parts: list[tuple[int, ...]] = [(s,) for s in where]
                for v in {v for s in where for v in g.units_of[s] if v != u}:
                    part = tuple(s for s in where if s in g.unit_sets[v])
                    if 2 <= len(part) < len(where):
                        parts.append(part)
                nodes = {frozenset(p): p for p in parts}
                for p in nodes.values():
                    rest = frozenset(inside - set(p))
                    if rest in nodes and (len(p) > 1 or len(rest) > 1 or len(where) == 2):
                        a, b = node(p, d), node(nodes[rest], d)
                        self.strong[a] |= 1 << b
                        self.strong[b] |= 1 << a
                        if len(where) == 2:  # two places: a plain link
                            self.strong_plain[a] |= 1 << b
                            self.strong_plain[b] |= 1 << a
        of_digit: dict[int, list[tuple[int, frozenset[int]]]] = {}  # the groups of each digit
        for hi, (other, e) in enumerate(self.groups):
            of_digit.setdefault(e, []).append((hi, frozenset(other)))
        for gi, (cells, d) in enumerate(self.groups):
            x = self.count + gi
            bit = 1 << (d - 1)
            seen = frozenset.intersection(*(peers[c] for c in cells)) - set(cells)
            for c in seen:
                if state.cands[c] & bit and not state.values[c]:
                    y = c * n + d - 1
                    self.weak[x] |= 1 << y
                    self.weak[y] |= 1 << x
            for hi, other_cells in of_digit[d]:
                if hi != gi and other_cells <= seen:
                    self.weak[x] |= 1 << (self.count + hi)

    def cells_of(self, x: int) -> tuple[int, ...]:
        return self.groups[x - self.count][0] if x >= self.count else (x // self.n,)

    def digit_of(self, x: int) -> int:
        return self.groups[x - self.count][1] if x >= self.count else x % self.n + 1

    def _fit(self, cells: Sequence[int], masks: tuple[int, ...], total: int) -> tuple[int, ...]:
        apart = _apart(self.state, tuple(cells))
        if apart is None:
            return distinct_fit(masks, total)[1]
        return tuple(loose_fit(masks, total, apart))

    def _sum_links(self, cells: Sequence[int], total: int, why: str) -> None:
        """The weak and strong links of cells whose digits add up to ``total`` (see the module's text)."""
        masks = masks_of(self.state, cells)
        if not all(self._fit(cells, masks, total)):
            return  # a broken group: not this step's to say
        self._links_by(cells, masks, lambda m: self._fit(cells, m, total), why)

    def _links_by(
        self,
        cells: Sequence[int],
        masks: tuple[int, ...],
        narrow: Callable[[tuple[int, ...]], Sequence[int] | None],
        why: str,
    ) -> None:
        """The links between the cells' candidates that ``narrow`` shows (given the cells' digits, the digits it
        leaves them; None when it settles the cells alone), each open candidate set true and false in turn."""
        n, vals = self.n, self.state.values
        open_ = [i for i, s in enumerate(cells) if not vals[s]]
        for i in open_:
            s = cells[i]
            for d in digits_of(masks[i]):
                x = s * n + d - 1
                bit = 1 << (d - 1)
                on = narrow(masks[:i] + (bit,) + masks[i + 1 :])
                off = narrow(masks[:i] + (masks[i] & ~bit,) + masks[i + 1 :])
                if on is None or off is None:
                    continue  # the rule alone settles it: its own row's work, not a link
                self._add_links(cells, open_, masks, i, x, on, off, why)

    def _add_links(
        self,
        cells: Sequence[int],
        open_: list[int],
        masks: tuple[int, ...],
        i: int,
        x: int,
        on: Sequence[int],
        off: Sequence[int],
        why: str,
    ) -> None:
        """Links from candidate ``x`` (cell ``i`` of ``cells``): ``on``/``off`` are the cells' digits left
        with ``x`` true / false."""
        n = self.n
        for j in open_:
            if j == i:
                continue
            t = cells[j]
            for e in digits_of(masks[j] & ~on[j]):
                y = t * n + e - 1
                if not self.weak[x] >> y & 1:
                    self.weak[x] |= 1 << y
                    self.weak[y] |= 1 << x
                    self.why[(x, y)] = self.why[(y, x)] = why
        for j in open_:
            keep = off[j]
            if keep and not keep & (keep - 1) and masks[j] != keep:
                # x false makes y true, so y false makes x true (the same link read backwards)
                y = cells[j] * n + keep.bit_length() - 1
                if not self.strong[x] >> y & 1:
                    self.strong[x] |= 1 << y
                    self.strong[y] |= 1 << x
                    self.why[(x, y)] = self.why[(y, x)] = why

    def _rule_links(self, con: Constraint) -> None:
        """The links a constraint's own narrowing (``propagate``, as the rule rows use it) gives between its
        cells: ``b = e`` weak to ``a = d`` when the rule, with ``a = d``, removes ``e`` from ``b``; strong from
        ``a = d`` when, with ``d`` gone from ``a``, the rule leaves ``b`` only ``e``."""
        state = self.state
        cells = con.cells
        if len(set(cells)) != len(cells):
            return  # a cell twice (a loop): the masks below are per position
        masks = masks_of(state, cells)
        if narrowed(con, masks) is None:
            return
        why = f"the rule '{con.describe(state.g)}'"
        self._links_by(cells, masks, lambda m: narrowed(con, m), why)

    def where(self, x: int) -> str:
        """The cell of a candidate, ``(B1|C1)`` for a group."""
        cells = [self.state.label(s) for s in self.cells_of(x)]
        return cells[0] if len(cells) == 1 else f"({'|'.join(cells)})"

    def name(self, x: int, on: bool = True) -> str:
        return f"{self.where(x)}{'=' if on else '≠'}{self.state.sym(self.digit_of(x))}"

    def reason(self, x: int, y: int, strong: bool) -> str:
        """Why the link from ``x`` to ``y`` holds, in words."""
        if (x, y) in self.why:
            return self.why[(x, y)]
        state = self.state
        a, b = self.cells_of(x), self.cells_of(y)
        if a == b and len(a) == 1:
            return f"{state.label(a[0])} has only these two" if strong else "one cell"
        both = set(a) | set(b)
        units = [u for u in state.g.units_of[a[0]] if both <= state.g.unit_sets[u]]
        if units:
            return state.unit_name(units[0])
        return "the cells see each other"


def _apart(state: State, cells: tuple[int, ...]) -> list[list[bool]] | None:
    """Which of the cells see each other (None when they all do); kept for the puzzle."""
    known = puzzle_memo(state).setdefault("cage-chain-apart", {})
    if cells not in known:
        peers = state.g.peer_sets
        if all(b in peers[a] for i, a in enumerate(cells) for b in cells[:i]):
            known[cells] = None
        else:
            known[cells] = [[b in peers[a] for b in cells] for a in cells]
    return known[cells]


def _reach(weak: list[int], strong: list[int], start: int, start_on: bool):
    """Breadth-first over the chain from ``start`` (true when ``start_on``, else false) with bitsets: after
    each round (a weak and a strong link), the candidates reached true and false so far."""
    on = 1 << start if start_on else 0
    off = 0 if start_on else 1 << start
    front_on, front_off = on, off
    while front_on or front_off:
        new_off = 0
        rest = front_on
        while rest:
            low = rest & -rest
            new_off |= weak[low.bit_length() - 1]
            rest ^= low
        new_off &= ~off
        off |= new_off
        new_on = 0
        rest = front_off | new_off
        while rest:
            low = rest & -rest
            new_on |= strong[low.bit_length() - 1]
            rest ^= low
        new_on &= ~on
        on |= new_on
        yield on, off
        front_on, front_off = new_on, 0


def _shown(links: Links, weak: list[int], a: int, start_on: bool, on: int, off: int) -> int:
    """What the chain from ``a`` shows, as a bitset: ``a`` itself (placed from false, removed from true), or
    the candidates ``a`` excludes (``weak``) that the chain makes false."""
    if start_on:
        return off & (1 << a)
    if on >> a & 1:
        return 1 << a
    return weak[a] & off & ~(1 << a) & ((1 << links.count) - 1)


def _closure(links: Links, start: int, start_on: bool):
    """Breadth-first over the chain from ``start`` (true when ``start_on``, else false): the candidates reached
    true and false, each with the candidate it came from (shortest chains)."""
    on: dict[int, int] = {start: -1} if start_on else {}
    off: dict[int, int] = {} if start_on else {start: -1}
    front_on = [start] if start_on else []
    front_off = [] if start_on else [start]
    while front_on or front_off:
        nxt_off = []
        for y in front_on:
            for z in bit_numbers(links.weak[y]):
                if z not in off:
                    off[z] = y
                    nxt_off.append(z)
        nxt_on = []
        for x in front_off + nxt_off:
            for y in bit_numbers(links.strong[x]):
                if y not in on:
                    on[y] = x
                    nxt_on.append(y)
        yield on, off
        front_on, front_off = nxt_on, []
        if not nxt_on:
            break


def _path(links: Links, on: dict[int, int], off: dict[int, int], end: int, end_on: bool) -> list[tuple[int, bool]]:
    """The chain from its start to ``end`` (true when ``end_on``), as (candidate, true) pairs."""
    out = [(end, end_on)]
    x, is_on = end, end_on
    while True:
        back = (on if is_on else off)[x]
        if back == -1:
            break
        x, is_on = back, not is_on
        out.append((x, is_on))
    return out[::-1]


def _chain_text(links: Links, chain: list[tuple[int, bool]]) -> str:
    words = [f"{links.name(chain[0][0])} {'true' if chain[0][1] else 'false'}"]
    for (x, _), (y, y_on) in zip(chain, chain[1:]):
        words.append(f"{links.name(y, y_on)} ({links.reason(x, y, y_on)})")
    return " ⇒ ".join(words)


def variant_aic(state: State) -> Step | None:
    """The shortest chain (over every start candidate, in cell then digit order) that removes or places a
    candidate the plain links alone do not, on any variant state (a thermometer's or an arrow's links too);
    None when nothing is found."""
    if not state.constraints:
        return None
    links = Links(state)
    if not links.why:
        return None
    n = links.n
    best: tuple | None = None
    for s in state.empty_cells():
        for d in digits_of(state.cands[s]):
            a = s * n + d - 1
            for start_on in (False, True):
                plain = -1  # what plain links alone show from a (worked out when first needed)
                for depth, (on, off) in enumerate(_reach(links.weak, links.strong, a, start_on)):
                    if best is not None and depth >= best[0]:
                        break
                    shown = _shown(links, links.weak, a, start_on, on, off)
                    if shown and plain < 0:
                        plain = 0
                        for p_on, p_off in _reach(links.weak_plain, links.strong_plain, a, start_on):
                            plain = _shown(links, links.weak_plain, a, start_on, p_on, p_off)
                    shown &= ~plain
                    if shown:
                        z = (shown & -shown).bit_length() - 1
                        best = (depth, a, start_on, z)
                        break
    if best is None:
        return None
    depth, a, start_on, z = best
    for on, off in _closure(links, a, start_on):
        if (z in on) if (z == a and not start_on) else (z in off):
            break
    kind = ("remove" if start_on else "place") if z == a else "weak"
    return _step(links, a, start_on, kind, z, on, off)


def _step(links: Links, a: int, start_on: bool, kind: str, z: int, on, off) -> Step:
    state, n = links.state, links.n
    s, d = divmod(a, n)
    if kind == "place":
        chain = _path(links, on, off, a, True)
        body = f"{_chain_text(links, chain)}: {links.name(a)} false makes it true, so it is true"
        placements, elim = [(s, d + 1)], []
        what = f"place {state.sym(d + 1)} in {state.label(s)}"
    elif kind == "remove":
        chain = _path(links, on, off, a, False)
        body = f"{_chain_text(links, chain)}: {links.name(a)} true makes it false, so it is false"
        placements, elim = [], [(s, d + 1)]
        what = text.removals(state, elim)
    else:
        chain = _path(links, on, off, z, False)
        t, e = divmod(z, n)
        body = (
            f"{_chain_text(links, chain)}; and {links.name(a)} true makes {links.name(z)} false "
            f"({links.reason(a, z, False)}): either way {links.name(z)} is false"
        )
        placements, elim = [], [(t, e + 1)]
        what = text.removals(state, elim)
    cells = sorted({c for x, _ in chain for c in links.cells_of(x)})
    return Step(
        NAME,
        placements=placements,
        eliminations=elim,
        cells=cells,
        candidates=[(c, links.digit_of(x)) for x, _ in chain for c in links.cells_of(x)],
        explanation=f"{NAME}: {body}: {what}",
        rating=round(BASE + length_penalty(len(chain)), 1),
    )
