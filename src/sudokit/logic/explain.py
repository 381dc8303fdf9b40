"""``explain``: the whole logical solving path; ``hint``: only the next step."""

from __future__ import annotations

from dataclasses import dataclass, field

from sudokit.errors import SudokitError
from sudokit.grid import Grid
from sudokit.logic import registry
from sudokit.logic.state import State
from sudokit.logic.step import Step


@dataclass
class Path:
    """The steps logic found, whether they finished the grid, and the grid they reached."""

    steps: list[Step] = field(default_factory=list)
    solved: bool = False
    grid: Grid | None = None
    stuck: bool = False  # no technique applies and the grid is not complete

    @property
    def rating(self) -> float:
        """SE-style rating: the hardest step (20.0 when logic did not finish)."""
        if not self.solved:
            return 20.0
        return max((s.rating for s in self.steps), default=0.0)


def _as_state(puzzle: Grid | State | str) -> State:
    if isinstance(puzzle, State):
        return puzzle.copy()
    if isinstance(puzzle, str):
        from sudokit.formats import parse_grid

        puzzle = parse_grid(puzzle)
    if not isinstance(puzzle, Grid):
        raise SudokitError(f"give a puzzle as a Grid, a State or text, not {type(puzzle).__name__}")
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


def explain(puzzle: Grid | State | str, uniqueness: bool = True, max_steps: int = 10_000) -> Path:
    """Solve by logic alone, easiest technique first, and return every step taken. ``uniqueness=False``
    leaves out the techniques that assume exactly one solution."""
    state = _as_state(puzzle)
    techniques = registry.applicable(state, uniqueness)
    path = Path()
    while not state.is_solved() and len(path.steps) < max_steps:
        if state.is_broken():
            break
        step = next_step(state, techniques)
        if step is None:
            path.stuck = True
            break
        path.steps.append(step)
        state.apply(step)
    path.solved = state.is_solved()
    path.grid = state.to_grid()
    return path


def hint(puzzle: Grid | State | str, level: int = 2, uniqueness: bool = True) -> Step | None:
    """The next step. ``level=1`` is a gentle hint: the technique and where to look, nothing removed or
    placed; ``level=2`` (default) is the full step."""
    state = _as_state(puzzle)
    step = next_step(state, registry.applicable(state, uniqueness))
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
