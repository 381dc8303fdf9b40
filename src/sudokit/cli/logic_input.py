"""How ``hint``, ``explain`` and ``rate`` take a puzzle, and the one story they tell about grids logic cannot
work on.

The state logic starts from is what the user gives: a grid's own candidates, or the pencil marks of a
pencilmark line or candidate grid (never the givens' candidates instead). Then, for the three commands alike:

- clashing givens: ``sudokit: error: duplicate givens ...``, exit 2;
- an empty grid: ``sudokit: the grid is empty: ...`` (rate: not rated), exit 1;
- no solution: ``sudokit: the puzzle has no solution`` (rate: not rated), exit 1;
- several solutions: hint and explain go on without the techniques that assume one solution (a note says so);
  rate does not rate it, exit 1;
- a complete grid: "The grid is already complete: nothing to do." (rate: 0.0, hardest step none), exit 0;
- logic stuck: hint and explain say so in the same words (explain after the steps it found), exit 1.
"""

from __future__ import annotations

import click

from sudokit.cli.inputs import one_entry
from sudokit.cli.report import clash_message
from sudokit.errors import SudokitError
from sudokit.formats import Entry
from sudokit.grid import Candidates, Grid

#: What hint and explain print when no technique applies (exit status 1).
STUCK = "Logic is stuck: no technique here applies, so the next step needs a guess."
#: What hint and explain print for a complete grid (exit status 0).
COMPLETE = "The grid is already complete: nothing to do."
#: Why an empty grid gets no step and no rating.
EMPTY = "the grid is empty: there is nothing to reason from"


def start_of(entry: Entry) -> Grid | Candidates:
    """What logic starts from for one entry: its pencil marks when it has them, else its grid."""
    assert entry.grid is not None  # only entries that were read reach logic
    marks = entry.candidates
    if marks is None:
        return entry.grid
    if marks.geometry != entry.grid.geometry:  # --variant put the grid in another geometry of the same size
        marks = Candidates(entry.grid.geometry, marks.masks)
    return marks


def read_start(arg: str, variant: str | None, fmt: str) -> Grid | Candidates:
    """The single puzzle of a ``PUZZLE`` argument as logic starts from it; clashing givens are a user error."""
    return checked_start(one_entry(arg, variant, fmt))


def checked_start(entry: Entry) -> Grid | Candidates:
    """What logic starts from for the one puzzle of a command; a bad entry or clashing givens are user errors."""
    if entry.error is not None:
        raise entry.error
    start = start_of(entry)
    clash = clash_message(placed(start))
    if clash:
        raise SudokitError(clash)
    return start


def placed(start: Grid | Candidates) -> Grid:
    """The digits in place: a grid's givens, or the settled cells of pencil marks."""
    if isinstance(start, Grid):
        return start
    from sudokit.logic.state import State

    return State.from_marks(start).to_grid()


def is_complete(start: Grid | Candidates) -> bool:
    """True when every cell holds a digit."""
    return placed(start).is_complete


def why_not_rated(start: Grid | Candidates) -> str | None:
    """Why ``rate`` does not rate ``start`` (an empty grid, no solution, several), else None."""
    from sudokit.logic.rating import not_proper

    if not placed(start).givens and isinstance(start, Grid):
        return EMPTY
    return not_proper(start)


def logic_start(start: Grid | Candidates, wanted: bool) -> tuple[bool, bool]:
    """(whether hint and explain may use uniqueness techniques on ``start``, whether it has several solutions:
    they then first look for solutions that use every candidate, :mod:`sudokit.logic.solution_cover`).

    An empty grid or one without a solution stops the command (message on stderr, exit 1); a grid with several
    solutions is worked on without uniqueness techniques, with a note on stderr."""
    from sudokit.logic.rating import check_proper
    from sudokit.result import Status

    if not placed(start).givens and isinstance(start, Grid):
        click.echo(f"sudokit: {EMPTY}", err=True)
        raise SystemExit(1)
    check = check_proper(start)
    if check.proper:
        return wanted, False
    if check.status is Status.NO_SOLUTION:
        click.echo(f"sudokit: {check.why}", err=True)
        raise SystemExit(1)
    if wanted:
        click.echo(f"sudokit: note: {check.why}; techniques that assume a unique solution are left out", err=True)
    return False, check.status is Status.MULTIPLE
