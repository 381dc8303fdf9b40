"""Classify Missing(n) up to symmetry: which models with ``n`` big constraints left out are Sudoku.

For each class (orbit of the missing sets under a symmetry group) the representative model is
first closed under the chute lemmas: a complete closure is a proof that it is Sudoku. A stuck
closure is handed to the SAT oracle, which returns a counterexample grid (checked in plain Python)
or, where the lemmas are not complete (e.g. with diagonals), an "entailed" verdict. SAT answers are
cached by closed model, so equal closures cost one call.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from sudokit.grid import Grid
from sudokit.rules.lemmas import close_mask
from sudokit.rules.model import Board, popcount
from sudokit.rules.symmetry import Group, orbits

if TYPE_CHECKING:
    from sudokit.rules.sat import Oracle


@dataclass(frozen=True)
class ClassVerdict:
    """One class of Missing(n): its representative missing set, size, verdict and evidence.

    ``how`` is ``lemmas`` (closure complete: a proof), ``sat`` (SAT found no counterexample),
    ``counterexample`` (a checked grid for the stuck closure, hence for the model), or ``subset``
    (it misses every constraint some non-Sudoku model misses, and more, so it is not Sudoku).
    """

    missing: int
    size: int
    sudoku: bool
    how: str
    closed: int
    counterexample: Grid | None = None


@dataclass
class Solver:
    """Memoised verdicts for one board: lemma closure first, SAT only for stuck closures."""

    board: Board
    oracle: Oracle | None = None  # created on first need
    sat_cache: dict[int, tuple[bool, Grid | None]] = field(default_factory=dict)

    def sat_calls(self) -> int:
        """How many SAT queries were made."""
        return 0 if self.oracle is None else self.oracle.calls

    def verdict(self, missing: int) -> tuple[bool, str, int, Grid | None]:
        """``(sudoku, how, closed_model, counterexample)`` for the model missing ``missing``."""
        b = self.board
        closed = close_mask(b, b.full & ~missing)
        if closed == b.full:
            return True, "lemmas", closed, None
        if closed not in self.sat_cache:
            if self.oracle is None:
                from sudokit.rules.sat import Oracle

                self.oracle = Oracle(b)
            v = self.oracle.entails(closed)
            self.sat_cache[closed] = (v.entailed, v.counterexample)
        entailed, grid = self.sat_cache[closed]
        return entailed, "sat" if entailed else "counterexample", closed, grid


@dataclass
class Classification:
    """Missing(n) of a board, split into classes under a group, each with its verdict."""

    board: Board
    group: Group
    n: int
    classes: list[ClassVerdict]

    @property
    def total(self) -> int:
        """How many models Missing(n) holds (``C(constraints, n)``)."""
        return sum(c.size for c in self.classes)

    @cached_property
    def sudoku(self) -> list[ClassVerdict]:
        """The classes whose models are Sudoku."""
        return [c for c in self.classes if c.sudoku]

    @cached_property
    def not_sudoku(self) -> list[ClassVerdict]:
        """The classes whose models are not Sudoku."""
        return [c for c in self.classes if not c.sudoku]

    @property
    def sudoku_models(self) -> int:
        """How many models (not classes) of Missing(n) are Sudoku."""
        return sum(c.size for c in self.sudoku)

    def lookup(self, missing: int) -> ClassVerdict:
        """The verdict of the class of any ``n``-subset of constraints."""
        rep = orbits(self.group, self.n).canonical(missing)
        return self._by_rep[rep]

    @cached_property
    def _by_rep(self) -> dict[int, ClassVerdict]:
        return {c.missing: c for c in self.classes}


def classify(solver: Solver, grp: Group, n: int, below: Classification | None = None) -> Classification:
    """Decide every class of Missing(n) under ``grp``.

    With ``below`` (Missing(n-1) under the same group), a stuck class that misses everything some
    non-Sudoku class of Missing(n-1) misses is settled without SAT (``how="subset"``): its model has
    fewer constraints than a model that already admits a counterexample.
    """
    orb = orbits(grp, n)
    b = solver.board
    classes = []
    for rep in orb.representatives:
        closed = close_mask(b, b.full & ~rep)
        if closed == b.full:
            classes.append(ClassVerdict(rep, orb.sizes[rep], True, "lemmas", closed))
            continue
        if below is not None and any(not below.lookup(rep & ~(1 << u)).sudoku for u in _bits(rep)):
            classes.append(ClassVerdict(rep, orb.sizes[rep], False, "subset", closed))
            continue
        sudoku, how, closed, grid = solver.verdict(rep)
        classes.append(ClassVerdict(rep, orb.sizes[rep], sudoku, how, closed, grid))
    return Classification(solver.board, grp, n, classes)


def classify_up_to(solver: Solver, grp: Group, top: int) -> dict[int, Classification]:
    """Missing(1) .. Missing(top), each settled with the help of the one below."""
    levels: dict[int, Classification] = {}
    for n in range(1, top + 1):
        levels[n] = classify(solver, grp, n, levels.get(n - 1))
    return levels


def minimal_negatives(levels: dict[int, Classification]) -> list[ClassVerdict]:
    """Non-Sudoku classes all of whose one-smaller missing sets are Sudoku: the negative lemmas.

    ``levels`` maps ``n`` to the classification of Missing(n) for consecutive ``n`` from 1.
    """
    out = []
    for n in sorted(levels):
        if n - 1 not in levels and n > 1:
            continue
        below = levels.get(n - 1)  # None for n = 1
        for c in levels[n].not_sudoku:
            if below is None or all(below.lookup(c.missing & ~(1 << u)).sudoku for u in _bits(c.missing)):
                out.append(c)
    return out


def contains_two_lines_of_a_chute(board: Board, missing: int) -> bool:
    """True when the missing set holds two rows of one band or two columns of one stack (the
    pattern of the first negative lemma, which the paper's appendix leaves out)."""
    return any(sum(missing >> u & 1 for u in lines) >= 2 for lines, _ in board.chutes)


def _bits(mask: int) -> list[int]:
    return [u for u in range(mask.bit_length()) if mask >> u & 1]


__all__ = [
    "ClassVerdict",
    "Classification",
    "Solver",
    "classify",
    "classify_up_to",
    "contains_two_lines_of_a_chute",
    "minimal_negatives",
    "popcount",
]
