"""A plain-Python model of Sudoku Explainer's forcing chains (Nishio, multiple and dynamic), written from its
rules, to check :mod:`sudokit.logic.implication_kernel` against: the ratings the kernel gives must be the ones
this model gives on the same 9x9 states.

The rules modelled: a chain starts from one candidate on or off (or from each candidate of a cell, or each
place of a digit in a unit) and follows, breadth first with every pending *on* taken before the next *off*, the
implications of the grid: an on turns off the cell's other candidates (not in Nishio) and the digit elsewhere
in its box, row and column (in that order); an off turns on the cell's last other candidate (not in Nishio) and
the digit's last other place in its box, row or column. *Dynamic* chains remove each off from the grid as it is
taken, and an on made by a cell or unit so emptied has every candidate removed from it so far as a cause. A
contradiction is a candidate reached on and off; the chain stops there. A conclusion's length is the number of
distinct nodes among its ends' causes, summed over the ends (SE's ``getAncestorCount``); the rating is the
technique's base plus :func:`penalty` of that length. SE tries cell chains from cells of 3+ candidates only
when static, double chains only from cells of 3+ candidates, and keeps what a branch reached before a
contradiction.
"""

from __future__ import annotations

from collections import deque

Node = tuple[int, int, int]  # (cell, digit from 0, 1 on / 0 off)


def _regions(s: int) -> list[list[int]]:
    r, c = divmod(s, 9)
    br, bc = r // 3 * 3, c // 3 * 3
    return [
        [(br + i) * 9 + bc + j for i in range(3) for j in range(3)],
        [r * 9 + j for j in range(9)],
        [i * 9 + c for i in range(9)],
    ]


REGIONS = [_regions(s) for s in range(81)]


def _digits(mask: int) -> list[int]:
    return [d for d in range(9) if mask >> d & 1]


def _on_to_off(grid: list[int], p: Node, cells: bool) -> list[Node]:
    s, d, _ = p
    out: dict[Node, None] = {}
    if cells:
        for e in _digits(grid[s]):
            if e != d:
                out.setdefault((s, e, 0), None)
    for region in REGIONS[s]:
        for t in region:
            if t != s and grid[t] >> d & 1:
                out.setdefault((t, d, 0), None)
    return list(out)


def _off_to_on(grid: list[int], p: Node, start: list[int], cells: bool) -> list[tuple[Node, list[Node]]]:
    s, d, _ = p
    out: dict[Node, list[Node]] = {}
    if cells and bin(grid[s]).count("1") == 2:
        e = next(x for x in _digits(grid[s]) if x != d)
        gone = [(s, v, 0) for v in range(9) if start[s] >> v & 1 and not grid[s] >> v & 1]
        out.setdefault((s, e, 1), [p, *gone])
    for region in REGIONS[s]:
        places = [t for t in region if grid[t] >> d & 1]
        if len(places) == 2:
            other = places[1] if places[0] == s else places[0]
            gone = [(t, d, 0) for t in region if start[t] >> d & 1 and not grid[t] >> d & 1]
            out.setdefault((other, d, 1), [p, *gone])
    return list(out.items())


class Branch:
    """What one start leads to: the causes of every node reached, and the contradiction met, if any (the
    candidate already reached one way, and the causes of its new, other end)."""

    def __init__(self, start: list[int], first: Node, dynamic: bool, nishio: bool):
        grid = list(start)
        self.causes: dict[Node, list[Node]] = {first: []}
        self.clash: tuple[Node, list[Node]] | None = None
        pending_on: deque[Node] = deque([first] if first[2] else [])
        pending_off: deque[Node] = deque([] if first[2] else [first])
        while pending_on or pending_off:
            if pending_on:
                p = pending_on.popleft()
                for q in _on_to_off(grid, p, not nishio):
                    if (q[0], q[1], 1) in self.causes:
                        self.clash = (q, [p])
                        return
                    if q not in self.causes:
                        self.causes[q] = [p]
                        pending_off.append(q)
            else:
                p = pending_off.popleft()
                made = _off_to_on(grid, p, start, not nishio)
                if dynamic:
                    grid[p[0]] &= ~(1 << p[1])
                for q, why in made:
                    if (q[0], q[1], 0) in self.causes:
                        self.clash = (q, why)
                        return
                    if q not in self.causes:
                        self.causes[q] = why
                        pending_on.append(q)

    def length(self, node: Node, causes: list[Node] | None = None) -> int:
        """SE's ancestor count of ``node`` (with ``causes`` for a contradiction's new end)."""
        seen: set[Node] = set()
        todo = [node]
        first = True
        while todo:
            nxt = []
            for x in todo:
                if x in seen:
                    continue
                seen.add(x)
                nxt.extend(causes if first and causes is not None else self.causes.get(x, []))
                first = False
            todo = nxt
        return len(seen)

    def contradiction_length(self) -> int:
        assert self.clash is not None
        new, causes = self.clash
        old = (new[0], new[1], 1 - new[2])
        return self.length(old) + self.length(new, causes)


def penalty(length: int) -> float:
    """SE's length penalty: +0.1 each time ``length - 2`` passes 4, 6, 8, 12, 16, 24, ..."""
    ceil, extra, added, odd = 4, length - 2, 0, False
    while extra > ceil:
        added += 1
        ceil = ceil * 4 // 3 if odd else ceil * 3 // 2
        odd = not odd
    return added / 10


def shortest(cands: list[int], dynamic: bool, nishio: bool) -> int | None:
    """The length of the shortest conclusion SE's Nishio (``nishio``), multiple (static) or dynamic chains
    find on the candidates ``cands`` (9x9, bit ``d`` for digit ``d + 1``; placed cells 0), or None."""
    best: int | None = None

    def keep(length: int) -> None:
        nonlocal best
        best = length if best is None else min(best, length)

    for s in range(81):
        count = bin(cands[s]).count("1")
        if count < 2 or (count < 3 and not dynamic):
            continue
        ons = []
        for d in _digits(cands[s]):
            on = Branch(cands, (s, d, 1), dynamic, nishio)
            if dynamic or nishio:
                off = Branch(cands, (s, d, 0), dynamic, nishio)
                for branch in (on, off):
                    if branch.clash is not None:
                        keep(branch.contradiction_length())
                if count >= 3 and not nishio:
                    for x in on.causes:
                        if x in off.causes and x[:2] != (s, d):
                            keep(on.length(x) + off.length(x))
            if nishio:
                continue
            for region in REGIONS[s]:
                places = [t for t in region if cands[t] >> d & 1]
                if len(places) >= 2 and places[0] == s:
                    branches = [on] + [Branch(cands, (t, d, 1), dynamic, False) for t in places[1:]]
                    for x in on.causes:
                        if all(x in b.causes for b in branches):
                            keep(sum(b.length(x) for b in branches))
            ons.append(on)
        if ons:
            for x in ons[0].causes:
                if all(x in b.causes for b in ons):
                    keep(sum(b.length(x) for b in ons))
    return best
