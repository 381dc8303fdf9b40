"""Variant puzzles made from a random solved grid: killer cages, thermometers, arrows, Kropki dots, X/V.

Every kind starts from :func:`~sudokit.generate.generator.random_solution` and draws constraints the grid
keeps, then proves the puzzle has exactly one solution with the variant solver
(:func:`sudokit.count_solutions` on a :class:`~sudokit.constraints.VariantPuzzle`, the public API):

- **killer** (cages only, no givens): the cells are cut into random cages of 2-4 orthogonally connected
  cells without a repeated digit, each with its sum. While the puzzle has several solutions a cage of three
  or more cells is split in two; then (``merges``) neighbouring cages are joined while the solution stays
  unique, which makes the puzzle harder.
- **thermo**, **arrow**: random lines the grid keeps (rising digits; a shaft summing to its bulb);
  **kropki**, **xv**: every dot (white: consecutive, black: one digit twice the other) or every X / V
  (sums 10 and 5) the grid has, as the negative rule "all dots are given" is not assumed. Then the givens
  are dug out, cell by cell in random order, while the solution stays unique.

``rating=(lo, hi)`` keeps only puzzles whose SE-style rating (:func:`sudokit.logic.rating.rate`, the
variant rows included) lies in the range, trying new grids until ``time_limit`` (for a killer above 2.0,
each try merges ten more cages than the last, up to 120 attempts). The same ``seed`` gives the
same puzzle.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from sudokit.constraints import XV, Arrow, KillerCage, Kropki, Thermometer, VariantPuzzle
from sudokit.constraints.base import Constraint
from sudokit.errors import SudokitError
from sudokit.generate.generator import random_solution
from sudokit.geometry import Geometry, standard
from sudokit.grid import Grid

#: The kinds ``generate --variant`` makes.
KINDS = ("killer", "thermo", "arrow", "kropki", "xv")


@dataclass
class VariantGenerated:
    """One generated variant puzzle, its solution, and its SE-style rating when it was asked for."""

    puzzle: VariantPuzzle
    solution: Grid
    rating: float | None = None
    tries: int = 1  #: grids drawn before one met the rating


def _unique(puzzle: VariantPuzzle) -> bool:
    from sudokit import count_solutions

    return count_solutions(puzzle, limit=2) == 1


def _neighbours(g: Geometry, s: int) -> list[int]:
    n, r, c = g.size, g.row(s), g.col(s)
    return [
        g.cell(r + dr, c + dc) for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)) if 0 <= r + dr < n and 0 <= c + dc < n
    ]


# ---- killer ------------------------------------------------------------------------------------------
def random_cages(g: Geometry, values: list[int], rng: np.random.Generator) -> list[list[int]]:
    """A partition of the cells into connected cages of 1-4 cells (mostly 2-3) without a repeated digit; a
    lone cell joins a neighbouring cage when it can."""
    cage_of = [-1] * g.n_cells
    cages: list[list[int]] = []
    for start in (int(s) for s in rng.permutation(g.n_cells)):
        if cage_of[start] >= 0:
            continue
        want = int(rng.choice([2, 2, 3, 3, 3, 4]))
        cage = [start]
        cage_of[start] = len(cages)
        while len(cage) < want:
            held = {values[s] for s in cage}
            edge = [p for s in cage for p in _neighbours(g, s) if cage_of[p] < 0 and values[p] not in held]
            if not edge:
                break
            nxt = edge[int(rng.integers(len(edge)))]
            cage.append(nxt)
            cage_of[nxt] = len(cages)
        cages.append(cage)
    for i, cage in enumerate(cages):  # lone cells join a neighbour's cage (at most 5 cells, no repeat)
        if len(cage) != 1:
            continue
        s = cage[0]
        for p in _neighbours(g, s):
            j = cage_of[p]
            if j != i and cages[j] and len(cages[j]) < 5 and values[s] not in {values[q] for q in cages[j]}:
                cages[j].append(s)
                cage_of[s] = j
                cages[i] = []
                break
    return [sorted(c) for c in cages if c]


def _killer(g: Geometry, cages: list[list[int]], values: list[int]) -> VariantPuzzle:
    cons = [KillerCage(tuple(c), sum(values[s] for s in c)) for c in sorted(cages)]
    return VariantPuzzle.build(g, [0] * g.n_cells, cons)


def _split(cage: list[int], g: Geometry, rng: np.random.Generator) -> list[list[int]]:
    """A cage cut into two connected parts (a random cell's part grown to half the cage, the rest as it
    falls: the rest may be two parts, each connected)."""
    first = [cage[int(rng.integers(len(cage)))]]
    rest = set(cage) - set(first)
    while len(first) < len(cage) // 2:
        edge = [p for s in first for p in _neighbours(g, s) if p in rest]
        if not edge:
            break
        p = edge[int(rng.integers(len(edge)))]
        first.append(p)
        rest.discard(p)
    parts = [sorted(first)]
    while rest:  # the rest in connected pieces
        piece = [min(rest)]
        rest.discard(piece[0])
        grew = True
        while grew:
            grew = False
            for s in list(piece):
                for p in _neighbours(g, s):
                    if p in rest:
                        piece.append(p)
                        rest.discard(p)
                        grew = True
        parts.append(sorted(piece))
    return parts


def killer(
    rng: np.random.Generator, g: Geometry | None = None, merges: int = 0, deadline: float | None = None
) -> tuple[VariantPuzzle, Grid]:
    """A killer puzzle with cages only and exactly one solution (see the module doc)."""
    g = g or standard()
    values = [int(v) for v in random_solution(g, rng, deadline)]
    cages = random_cages(g, values, rng)
    puzzle = _killer(g, cages, values)
    while not _unique(puzzle):
        big = [i for i, c in enumerate(cages) if len(c) >= 3] or [i for i, c in enumerate(cages) if len(c) >= 2]
        i = big[int(rng.integers(len(big)))]
        cages[i : i + 1] = _split(cages[i], g, rng)
        puzzle = _killer(g, cages, values)
    cage_of = {s: i for i, c in enumerate(cages) for s in c}
    for _ in range(merges):  # join two neighbouring cages while the solution stays unique
        s = int(rng.integers(g.n_cells))
        others = [cage_of[p] for p in _neighbours(g, s) if cage_of[p] != cage_of[s]]
        if not others:
            continue
        a, b = cage_of[s], others[int(rng.integers(len(others)))]
        joined = cages[a] + cages[b]
        if len(joined) > 6 or len({values[x] for x in joined}) != len(joined):
            continue
        trial = [c for i, c in enumerate(cages) if i not in (a, b)] + [sorted(joined)]
        candidate = _killer(g, trial, values)
        if _unique(candidate):
            cages, puzzle = trial, candidate
            cage_of = {x: i for i, c in enumerate(cages) for x in c}
    return puzzle, Grid(g, tuple(values))


# ---- lines and dots, then givens dug out ------------------------------------------------------------
def _rising_lines(g: Geometry, values: list[int], rng: np.random.Generator, count: int) -> list[Constraint]:
    """Up to ``count`` thermometers: random walks (orthogonal or diagonal steps) to a higher digit, 3+ cells."""
    used: set[int] = set()
    out: list[Constraint] = []
    for start in (int(s) for s in rng.permutation(g.n_cells)):
        if len(out) >= count:
            break
        if start in used:
            continue
        line = [start]
        while True:
            r, c = g.row(line[-1]), g.col(line[-1])
            nxt = [
                g.cell(r + dr, c + dc)
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if (dr or dc) and 0 <= r + dr < g.size and 0 <= c + dc < g.size
            ]
            nxt = [p for p in nxt if p not in used and p not in line and values[p] > values[line[-1]]]
            if not nxt or len(line) >= 6:
                break
            line.append(nxt[int(rng.integers(len(nxt)))])
        if len(line) >= 3:
            used.update(line)
            out.append(Thermometer(tuple(line)))
    return out


def _arrows(g: Geometry, values: list[int], rng: np.random.Generator, count: int) -> list[Constraint]:
    """Up to ``count`` arrows: a one-cell bulb and a shaft of 2-3 orthogonal neighbours summing to it."""
    used: set[int] = set()
    out: list[Constraint] = []
    for bulb in (int(s) for s in rng.permutation(g.n_cells)):
        if len(out) >= count:
            break
        if bulb in used:
            continue
        for _ in range(8):
            shaft: list[int] = []
            at = bulb
            while sum(values[s] for s in shaft) < values[bulb] and len(shaft) < 3:
                nxt = [p for p in _neighbours(g, at) if p not in used and p != bulb and p not in shaft]
                if not nxt:
                    break
                at = nxt[int(rng.integers(len(nxt)))]
                shaft.append(at)
            if len(shaft) >= 2 and sum(values[s] for s in shaft) == values[bulb]:
                used.update([bulb, *shaft])
                out.append(Arrow((bulb,), tuple(shaft)))
                break
    return out


def _pairs(g: Geometry, values: list[int], kind: str) -> list[Constraint]:
    """Every Kropki dot (``kropki``) or X / V (``xv``) the grid has between orthogonal neighbours."""
    from sudokit.constraints.base import orthogonal_pairs

    out: list[Constraint] = []
    for a, b in orthogonal_pairs(g):
        x, y = values[a], values[b]
        if kind == "kropki":
            if abs(x - y) == 1:
                out.append(Kropki(a, b))
            elif x == 2 * y or y == 2 * x:
                out.append(Kropki(a, b, black=True))
        elif x + y in (5, 10):
            out.append(XV(a, b, x + y))
    return out


def dig(
    g: Geometry, values: list[int], cons: list[Constraint], rng: np.random.Generator, deadline: float | None = None
) -> VariantPuzzle:
    """The constraints with every given of the solution, then each given (random order) taken out while the
    solution stays unique; past ``deadline`` the digging stops (still unique)."""
    givens = list(values)
    puzzle = VariantPuzzle.build(g, givens, cons)
    for s in (int(x) for x in rng.permutation(g.n_cells)):
        if deadline is not None and time.perf_counter() > deadline:
            break
        trial = givens[:]
        trial[s] = 0
        candidate = VariantPuzzle.build(g, trial, cons)
        if _unique(candidate):
            givens, puzzle = trial, candidate
    return puzzle


def generate_variant(
    kind: str,
    seed: int | np.random.Generator | None = None,
    rating: tuple[float, float] | None = None,
    merges: int = 0,
    time_limit: float = 60.0,
    geometry: Geometry | None = None,
) -> VariantGenerated:
    """One puzzle of ``kind`` (:data:`KINDS`) with exactly one solution; ``rating`` a range of SE-style
    ratings to meet (new grids are drawn until one does, else :class:`SudokitError` at ``time_limit``);
    ``seed`` an integer or a numpy generator (several puzzles from one stream)."""
    if kind not in KINDS:
        raise SudokitError(f"--variant {kind}: not a variant kind the generator makes (kinds: {', '.join(KINDS)})")
    g = geometry or standard()
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    start = time.perf_counter()
    deadline = start + time_limit
    tries = 0
    while True:
        tries += 1
        if time.perf_counter() > deadline:
            wanted = f" with a rating in {rating[0]}-{rating[1]}" if rating else ""
            raise SudokitError(f"no {kind} puzzle{wanted} within {time_limit:g} s")
        if kind == "killer":
            # a rating above what small cages give needs bigger ones: each try merges more cages
            more = 0 if rating is None or rating[0] <= 2.0 else min(10 * (tries - 1), 120)
            puzzle, solution = killer(rng, g, merges + more, deadline)
        else:
            values = [int(v) for v in random_solution(g, rng, deadline)]
            if kind == "thermo":
                cons = _rising_lines(g, values, rng, 2 * g.size // 3)
            elif kind == "arrow":
                cons = _arrows(g, values, rng, 2 * g.size // 3)
            else:
                cons = _pairs(g, values, kind)
            puzzle, solution = dig(g, values, cons, rng, deadline), Grid(g, tuple(values))
        if not puzzle.is_solution(Grid(puzzle.geometry, solution.values)):  # pragma: no cover - built from it
            raise SudokitError(f"generated {kind} puzzle does not keep its own solution")
        if rating is None:
            return VariantGenerated(puzzle, solution, None, tries)
        from sudokit.logic.rating import rate

        er = rate(puzzle, extras=False).er
        if rating[0] <= er <= rating[1]:
            return VariantGenerated(puzzle, solution, er, tries)
