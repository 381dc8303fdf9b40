"""Difficulty rating from the human-style solving path.

- **SE-style** (Sudoku Explainer): the hardest step of the easiest-first path (``er``); ``ep`` is the
  hardest up to the first placement made by something other than a single, ``ed`` the first step's rating.
  20.0 means the techniques here did not finish the grid.
- **HoDoKu-style**: the score is the sum of the steps' base scores; the level is the hardest step's level,
  raised while the score passes the level's cap (Easy 800, Medium 1000, Hard 1600, Unfair 1800).
- **Norvig's level**: log10 of the product of candidate counts after the givens are propagated
  (:func:`sudokit.methods.norvig.level`).
- **Guesses**: the fast engine's guess count.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from sudokit.grid import Candidates, Grid
from sudokit.logic import registry
from sudokit.logic.explain import Path, Techniques, explain, read_start
from sudokit.result import Status

if TYPE_CHECKING:
    from sudokit.constraints import VariantPuzzle

LEVEL_CAPS = {"Easy": 800, "Medium": 1000, "Hard": 1600, "Unfair": 1800}
UNSOLVED = 20.0


@dataclass
class Rating:
    """Every difficulty measure of one puzzle."""

    er: float
    ep: float
    ed: float
    score: int
    level: str
    hardest: str
    solved: bool
    steps: int
    norvig: float | None = None
    guesses: int | None = None
    techniques: dict[str, int] = field(default_factory=dict)
    technique_set: str = "all"  #: the set the solver used (:func:`registry.technique_set`'s spec)
    version: str = field(default_factory=lambda: _version())  #: the sudokit that rated it

    @property
    def se(self) -> str:
        """``ER/EP/ED`` as Sudoku Explainer prints it."""
        return f"{self.er:.1f}/{self.ep:.1f}/{self.ed:.1f}"

    def to_dict(self) -> dict:
        return {**asdict(self), "se": self.se}


def _version() -> str:
    from sudokit import __version__

    return __version__


def hodoku_level(path: Path) -> tuple[int, str]:
    """HoDoKu-style (score, level) of a solving path. The caps are HoDoKu's for 9x9; a variant puzzle's grow
    with its empty cells beyond 56 (every placement scores, and a killer has no givens); other sizes scale
    them by the number of cells (a 16x16 grid takes ~3x the steps of a 9x9 one)."""
    scale = path.grid.geometry.n_cells / 81 if path.grid is not None else 1.0
    if path.variant_empty:  # a variant puzzle often has no givens: caps as for a classic one with 25 (56 empty)
        scale *= max(1.0, path.variant_empty / (56 * scale))
    score = 0
    level = 0
    for step in path.steps:
        tech = technique_of(step.technique)
        score += tech.score if tech else 0
        if tech:
            level = max(level, registry.LEVELS.index(tech.level))
    if not path.solved:
        return score, "Extreme"
    while level < len(registry.LEVELS) - 1 and score > LEVEL_CAPS[registry.LEVELS[level]] * scale:
        level += 1
    return score, registry.LEVELS[level]


@lru_cache(maxsize=4096)
def technique_of(name: str) -> registry.Technique | None:
    """The table's row of a step's technique name (remembered: the table is fixed, and every step asks)."""
    if name in registry.BY_NAME:
        return registry.BY_NAME[name]
    for tech in registry.TECHNIQUES:  # "Unique Rectangle Type 2" -> "Unique Rectangle"
        if name.startswith(tech.name):
            return tech
    if name == "Hidden Single":
        return registry.BY_NAME["Hidden Single (box)"]
    return None


def se_parts(path: Path) -> tuple[float, float, float]:
    """(ER, EP, ED) of a path."""
    if not path.solved:
        return UNSOLVED, UNSOLVED, UNSOLVED
    ratings = [s.rating for s in path.steps]
    if not ratings:
        return 0.0, 0.0, 0.0
    er = max(ratings)
    ed = ratings[0]
    ep = 0.0
    for s in path.steps:
        ep = max(ep, s.rating)
        if s.placements:
            break
    return er, ep, ed


def norvig_level(puzzle: Grid) -> float | None:
    """Norvig's level (:func:`sudokit.methods.norvig.level`) as log10, to 2 decimals; None on a contradiction."""
    masks = singles_closure(puzzle)
    if masks is None:  # a contradiction (or clashing givens): Norvig's own code says what it makes of them
        from sudokit.methods.norvig import level

        value = level(puzzle).log10
        return None if value == -math.inf else round(value, 2)
    return round(math.log10(math.prod(m.bit_count() for m in masks)), 2)


def singles_closure(puzzle: Grid) -> list[int] | None:
    """Each cell's candidates (bit ``d - 1`` for digit ``d``; a given or placed cell keeps its one digit) once the
    givens are propagated by Norvig's two rules to the end: a cell down to one digit removes it from its peers,
    and a digit with one place left in a unit goes there. None when that shows a contradiction.

    Those rules only remove candidates, and each still applies once more is removed (unless a cell or a unit is
    left empty, a contradiction), so any order of applying them ends in the same candidates: these are the ones
    :func:`sudokit.methods.norvig.parse_grid` reaches, found here by the plain engine's propagation without its
    locked candidates (:func:`sudokit.engine.pure.propagate`; a fifth of ``parse_grid``'s CPU time: ``rate``
    computes Norvig's level for every puzzle)."""
    from sudokit.engine.pure import propagate

    g = puzzle.geometry
    cand = [g.all_mask] * g.n_cells
    queue = [s for s, v in enumerate(puzzle.values) if v]
    for s in queue:
        cand[s] = 1 << (puzzle.values[s] - 1)
    if not propagate(cand, [0] * g.n_cells, queue, g, None, g.all_mask, [0]):
        return None
    return cand


def engine_guesses(puzzle: Grid) -> int:
    """Guesses the fast engine makes on the puzzle."""
    from sudokit.engine import solve

    return int(solve(puzzle).stats.guesses)


@dataclass(frozen=True)
class ProperCheck:
    """Whether a puzzle is proper (exactly one solution): a :class:`Status` to branch on, words for people."""

    status: Status  #: ``SOLVED`` (exactly one solution), ``NO_SOLUTION`` or ``MULTIPLE``
    why: str = ""  #: why it is not proper, e.g. "the puzzle has no solution" (empty when it is)

    @property
    def proper(self) -> bool:
        """True when the puzzle has exactly one solution."""
        return self.status is Status.SOLVED


def check_proper(puzzle: Grid | Candidates | VariantPuzzle) -> ProperCheck:
    """Whether ``puzzle`` has exactly one solution, by the fast engine. Pencil marks (:class:`Candidates`) count
    the solutions that keep every digit among its cell's marks.

    Techniques that assume a unique solution (unique rectangles, BUG+1) can remove true digits from a puzzle
    with several solutions, and a rating only means something for a proper puzzle, so the logic commands and
    the web page ask first. Code branches on ``status``; ``why`` is for messages."""
    from sudokit.constraints import VariantPuzzle
    from sudokit.engine import count_solutions

    if isinstance(puzzle, Candidates):
        return _marks_check(puzzle)
    if isinstance(puzzle, VariantPuzzle):
        from sudokit.constraints.solver import count_variant

        count = count_variant(puzzle, limit=2)
    else:
        count = count_solutions(puzzle, limit=2)
    if count == 1:
        return ProperCheck(Status.SOLVED)
    if count == 0:
        return ProperCheck(Status.NO_SOLUTION, "the puzzle has no solution")
    return ProperCheck(Status.MULTIPLE, "the puzzle has more than one solution")


def not_proper(puzzle: Grid | Candidates | VariantPuzzle) -> str | None:
    """Why ``puzzle`` is not a proper puzzle (:attr:`ProperCheck.why`), or None when it has exactly one solution."""
    check = check_proper(puzzle)
    return None if check.proper else check.why


def _marks_check(marks: Candidates, seconds: float = 10.0) -> ProperCheck:
    """:func:`check_proper` of pencil marks: the engine solves the placed digits; when they have one solution it
    must agree with the marks, else Norvig's search (which starts from any candidates) counts up to two."""
    from sudokit.engine import solve
    from sudokit.logic.state import State

    state = State.from_marks(marks)
    grid = state.to_grid()
    if grid.conflicts() or state.is_broken():
        return ProperCheck(Status.NO_SOLUTION, "the puzzle has no solution")
    result = solve(grid, limit=2)
    if result.count == 0:
        return ProperCheck(Status.NO_SOLUTION, "the puzzle has no solution")
    if result.count == 1:
        assert result.solution is not None  # a count of one comes with its solution
        g = marks.geometry
        for s in g.cells:
            d = result.solution.values[s]
            if not marks.masks[s] >> (d - 1) & 1:
                why = f"the puzzle has no solution: the pencil marks remove {g.symbols[d - 1]} from {g.label(s)}"
                return ProperCheck(Status.NO_SOLUTION, why)
        return ProperCheck(Status.SOLVED)
    from sudokit.methods.norvig import _deep_recursion, assign, search
    from sudokit.methods.runner import Budget, LimitReached

    values = [1 << (v - 1) if v else m for v, m in zip(state.values, state.cands)]
    ok = True
    with _deep_recursion(grid.geometry.n_cells):
        for s in grid.geometry.cells:
            m = values[s]
            if ok and m and not m & (m - 1):
                ok = assign(values, s, m.bit_length(), grid.geometry)
    found = 0
    try:
        for _ in search(values if ok else None, grid.geometry, Budget(time_limit=seconds)):
            found += 1
            if found == 2:
                break
    except LimitReached:
        why = f"the pencil marks were not proved to have one solution within {seconds:g} s"
        return ProperCheck(Status.TIMEOUT, why)
    if found == 1:
        return ProperCheck(Status.SOLVED)
    if found == 0:
        return ProperCheck(Status.NO_SOLUTION, "the puzzle has no solution")
    return ProperCheck(Status.MULTIPLE, "the puzzle has more than one solution")


def rate(
    puzzle: Grid | Candidates | VariantPuzzle | str,
    extras: bool = True,
    uniqueness: bool = True,
    techniques: Techniques = None,
) -> Rating:
    """All difficulty measures of ``puzzle``; ``extras`` adds Norvig's level and the engine's guesses.

    Pencil marks (:class:`Candidates`) are rated from the marks themselves; Norvig's level and the engine's
    guesses measure the placed digits (the engine does not take marks), so they are left out for marks and
    for variant puzzles (a link, f-puzzles JSON, a :class:`VariantPuzzle`: rated by the same table, with its
    variant rows; see docs/logic.md).
    The rating assumes a proper puzzle (one solution); ``uniqueness=False`` leaves out the techniques that
    rely on it; ``techniques`` limits the solver to a set (:func:`registry.technique_set`), recorded in the
    rating with the sudokit version."""
    chosen = registry.technique_set(techniques)
    if isinstance(puzzle, str):
        puzzle = read_start(puzzle)
    path = explain(puzzle, uniqueness=uniqueness, techniques=chosen)
    er, ep, ed = se_parts(path)
    score, level = hodoku_level(path)
    if not path.solved:
        hardest = "beyond these techniques"
    elif path.steps:
        hardest = max(path.steps, key=lambda s: s.rating).technique
    else:
        hardest = "none (the grid is complete)"
    counts: dict[str, int] = {}
    for s in path.steps:
        counts[s.technique] = counts.get(s.technique, 0) + 1
    givens = puzzle if extras and isinstance(puzzle, Grid) else None
    return Rating(
        er=er,
        ep=ep,
        ed=ed,
        score=score,
        level=level,
        hardest=hardest,
        solved=path.solved,
        steps=len(path.steps),
        norvig=norvig_level(givens) if givens is not None else None,
        guesses=engine_guesses(givens) if givens is not None else None,
        techniques=counts,
        technique_set=chosen.spec if uniqueness else f"{chosen.spec}; no uniqueness",
    )
