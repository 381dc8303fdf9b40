"""``explain``: the whole logical solving path; ``hint``: only the next step."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Union

from sudokit.errors import SudokitError
from sudokit.grid import Candidates, Grid
from sudokit.logic import registry
from sudokit.logic.state import State
from sudokit.logic.step import Step

if TYPE_CHECKING:
    from sudokit.constraints import VariantPuzzle

#: What logic starts from: a grid, pencil marks, a state, a variant puzzle, or text (a puzzle line, a
#: pencilmark line, an f-puzzles / SudokuPad link or JSON).
Puzzle = Union[Grid, Candidates, State, "VariantPuzzle", str]  # noqa: UP007 (a name only known to type checkers)


@dataclass
class Path:
    """The steps logic found, whether they finished the grid, and the grid they reached."""

    steps: list[Step] = field(default_factory=list)
    solved: bool = False
    grid: Grid | None = None
    stuck: bool = False  # no technique applies and the grid is not complete
    #: cells empty at the start, on a variant puzzle (0 for a classic grid): see rating.hodoku_level
    variant_empty: int = 0

    @property
    def rating(self) -> float:
        """SE-style rating: the hardest step (20.0 when logic did not finish)."""
        if not self.solved:
            return 20.0
        return max((s.rating for s in self.steps), default=0.0)


def read_start(text: str) -> Grid | Candidates | VariantPuzzle:
    """A puzzle string as logic reads it: an f-puzzles / SudokuPad link or JSON gives the variant puzzle, a
    pencilmark line (n**3 characters, unless that is also a board's cell count, as 64 is) its marks, anything
    else the grid."""
    from sudokit.formats import parse_grid, parse_pencilmark
    from sudokit.formats.fpuzzles import looks_like_variant, parse_variant
    from sudokit.geometry import BOX_SHAPES

    if looks_like_variant(text):
        return parse_variant(text)
    body = text.strip()
    if len(body) in {n**3 for n in BOX_SHAPES} and len(body) not in {n * n for n in BOX_SHAPES}:
        return parse_pencilmark(body)
    return parse_grid(text)


def start_state(puzzle: Puzzle) -> State:
    """The state logic starts from: a grid's own candidates, or the pencil marks the user gives (a
    :class:`Candidates`, or a pencilmark line as a string), never the givens' candidates instead; a variant
    puzzle's state carries its constraints (:meth:`State.from_variant`)."""
    from sudokit.constraints import VariantPuzzle

    if isinstance(puzzle, State):
        return puzzle.copy()
    if isinstance(puzzle, str):
        puzzle = read_start(puzzle)
    if isinstance(puzzle, VariantPuzzle):
        return State.from_variant(puzzle)
    if isinstance(puzzle, Candidates):
        return State.from_marks(puzzle)
    if not isinstance(puzzle, Grid):
        raise SudokitError(f"give a puzzle as a Grid, Candidates, a State or text, not {type(puzzle).__name__}")
    return State.from_grid(puzzle)


def next_step(state: State, techniques: list[registry.Technique] | None = None) -> Step | None:
    """The easiest step available in ``state`` (None when no technique applies)."""
    for tech in techniques if techniques is not None else registry.applicable(state):
        step = tech.find(state)
        if step is not None:
            if not step.rating:
                step.rating = tech.se
            step.technique = step.technique or tech.name
            return step
    return None


Techniques = registry.TechniqueSet | str | Iterable[str] | None


def explain(
    puzzle: Puzzle,
    uniqueness: bool = True,
    max_steps: int = 10_000,
    techniques: Techniques = None,
    several_solutions: bool = False,
) -> Path:
    """Solve by logic alone, easiest technique first, and return every step taken. ``uniqueness=False``
    leaves out the techniques that assume exactly one solution; ``techniques`` limits the solver to a set
    (:func:`sudokit.logic.registry.technique_set`: a comma list of names and presets such as ``"se"``).
    ``several_solutions``: the caller knows the puzzle has more than one; when solutions found at once use
    every candidate, no sound step exists and the path is stuck with no step, without a walk through every
    technique (:mod:`sudokit.logic.solution_cover`)."""
    state = start_state(puzzle)
    path = Path(variant_empty=sum(1 for v in state.values if not v) if state.constraints else 0)
    if several_solutions and _stuck_for_certain(state, puzzle):
        path.stuck, path.solved, path.grid = True, False, state.to_grid()
        return path
    rows = registry.applicable(state, uniqueness, registry.technique_set(techniques))
    changed: list[int] | None = None  # the cells the last step changed: only they can have broken the state
    while not state.is_solved() and len(path.steps) < max_steps:
        if state.is_broken() if changed is None else state.broken_at(changed):
            break
        step = next_step(state, rows)
        if step is None:
            path.stuck = True
            break
        path.steps.append(step)
        changed = state.apply(step)
    path.solved = state.is_solved()
    path.grid = state.to_grid()
    return path


def hint(
    puzzle: Puzzle,
    level: int = 2,
    uniqueness: bool = True,
    techniques: Techniques = None,
    several_solutions: bool = False,
) -> Step | None:
    """The next step. ``level=1`` is a gentle hint: the technique and where to look, nothing removed or
    placed; ``level=2`` (default) is the full step. ``techniques`` and ``several_solutions`` as for
    :func:`explain`."""
    state = start_state(puzzle)
    if several_solutions and _stuck_for_certain(state, puzzle):
        return None
    step = next_step(state, registry.applicable(state, uniqueness, registry.technique_set(techniques)))
    if step is None or level >= 2:
        return step
    where = [state.unit_name(u) for u in step.units] or [state.label(s) for s in step.cells]
    look = ", ".join(where[:3])
    return Step(
        step.technique,
        cells=[] if step.units else list(step.cells),
        units=list(step.units),
        explanation=f"Look at {look}: there is a {step.technique.lower()}",
        rating=step.rating,
    )


def _stuck_for_certain(state: State, puzzle: Puzzle) -> bool:
    """Solutions use every candidate of ``state``: no sound step (only for a grid or a variant puzzle)."""
    from sudokit.constraints import VariantPuzzle
    from sudokit.logic.solution_cover import stuck_for_certain

    if isinstance(puzzle, (Grid, VariantPuzzle)) and not isinstance(puzzle, Candidates):
        return stuck_for_certain(state, puzzle) is not None
    return False
