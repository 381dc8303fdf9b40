"""``sudokit plot``: the AC-3 queue plot of one solve, and distributions over a puzzle set."""

from __future__ import annotations

import click

from sudokit.cli.inputs import POSITIVE_INT, SECONDS, input_format_option, one_puzzle, open_puzzles, variant_option
from sudokit.words import plural

METHOD_CHOICES = ("engine", "udacity", "norvig", "ac3")
#: Each measure's name in a title and its axis label.
MEASURES = {
    "er": ("SE-style rating", "Sudoku Explainer-style rating (hardest technique on the easiest path)"),
    "score": ("HoDoKu-style score", "HoDoKu-style score (sum of the steps' scores)"),
    "norvig": ("Norvig's level", "Norvig's level: log10 of the product of candidate counts after propagation"),
    "clues": ("Clue count", "number of givens"),
}


@click.group()
def command() -> None:
    """Plots: the AC-3 queue of one solve, solve times and guesses, ratings over a puzzle set."""


@command.command()
@click.argument("puzzle")
@click.option("--output", "-o", required=True, help="Picture file: .png, .svg or .pdf.")
@click.option("--time-limit", type=SECONDS, default=60.0, show_default=True, help="Seconds before the solve gives up.")
@variant_option
@input_format_option
def queue(puzzle: str, output: str, time_limit: float, variant: str | None, input_format: str) -> None:
    """The AC-3 queue length after every arc while the ac3 method solves PUZZLE (as in the AC-3 seed).

    When AC-3 alone does not finish the grid, backtracking runs AC-3 again after every assignment (MAC);
    those calls are drawn in a second colour, and the first few are shown enlarged below.
    """
    from sudokit.methods import METHODS
    from sudokit.render.plots import queue_plot

    grid = one_puzzle(puzzle, variant, input_format)
    result = METHODS["ac3"](grid, limit=1, time_limit=time_limit, trace=True)
    queue_plot(result.trace, output)
    trace = result.trace
    click.echo(
        f"wrote {output}: {plural(len(trace.queue_lengths), 'step')}, {plural(len(trace.search_starts), 'MAC call')}, "
        f"{trace.outcome or result.status}",
        err=True,
    )


def _solver(method: str):
    if method == "engine":  # the compiled kernel, which these times are about (not the one-puzzle plain port)
        from sudokit.engine.api import solve_compiled

        return solve_compiled
    from sudokit.methods import METHODS

    return METHODS[method]


def _grids(file: str, variant: str | None, input_format: str, limit: int | None):
    """The readable puzzles of a file (bad lines are reported on stderr and skipped)."""
    grids = []
    for entry in open_puzzles(file, variant, input_format).entries:
        if entry.error is not None:
            click.echo(f"sudokit: skipped: {entry.error}", err=True)
            continue
        grids.append(entry.grid)
        if limit is not None and len(grids) >= limit:
            break
    return grids


def _engine_times(grids) -> tuple[list[float], list[int], int] | None:
    """(seconds, guesses, unsolved) of the engine's batch path, each puzzle timed inside the kernel (as
    ``sudokit solve FILE`` does); None when the puzzles do not share one board or no cycle counter is readable."""
    import numpy as np

    from sudokit.engine.batch import SOLVED, solve_all, warm_up

    if not grids or len({g.geometry for g in grids}) != 1:
        return None
    geometry = grids[0].geometry
    puzzles = np.array([g.values for g in grids], dtype=np.uint8)
    warm_up(geometry)
    batch = solve_all(puzzles, geometry=geometry, timing="puzzle")
    seconds = batch.seconds()
    if seconds is None:
        return None
    solved = batch.status == SOLVED
    return seconds[solved].tolist(), batch.guesses[solved].tolist(), int((~solved).sum())


@command.command()
@click.argument("file")
@click.option("--output", "-o", required=True, help="Picture file: .png, .svg or .pdf.")
@click.option("--method", "-m", type=click.Choice(METHOD_CHOICES), default="engine", show_default=True)
@click.option("--limit", "-n", type=POSITIVE_INT, default=None, help="Only the first N puzzles.")
@click.option("--time-limit", type=SECONDS, default=10.0, show_default=True, help="Seconds per puzzle (methods).")
@variant_option
@input_format_option
def times(
    file: str, output: str, method: str, limit: int | None, time_limit: float, variant: str | None, input_format: str
) -> None:
    """Solve-time and guess distributions of METHOD over the puzzles of FILE."""
    from sudokit.errors import SudokitError
    from sudokit.render.plots import times_plot

    grids = _grids(file, variant, input_format, limit)
    timed = _engine_times(grids) if method == "engine" else None
    if timed is not None:
        seconds, guesses, unsolved = timed
    else:
        solve = _solver(method)
        if method == "engine" and grids:
            solve(grids[0], time_limit=time_limit)  # compile the kernels before timing
        seconds, guesses = [], []
        unsolved = 0
        for grid in grids:
            result = solve(grid, time_limit=time_limit)
            if result.solution is None:
                unsolved += 1
                continue
            seconds.append(result.stats.seconds)
            guesses.append(result.stats.guesses)
    if not seconds:
        raise SudokitError(f"{file}: no puzzle was solved, nothing to plot")
    times_plot(seconds, guesses, output, title=f"{method} on {file}: {plural(len(seconds), 'puzzle')} solved")
    note = f", {unsolved} not solved (left out)" if unsolved else ""
    total = sum(seconds)
    click.echo(f"wrote {output}: {plural(len(seconds), 'puzzle')}, {total:.3f} s in all{note}", err=True)


@command.command()
@click.argument("file")
@click.option("--output", "-o", required=True, help="Picture file: .png, .svg or .pdf.")
@click.option("--measure", type=click.Choice(list(MEASURES)), default="er", show_default=True)
@click.option("--limit", "-n", type=POSITIVE_INT, default=None, help="Only the first N puzzles.")
@variant_option
@input_format_option
def ratings(file: str, output: str, measure: str, limit: int | None, variant: str | None, input_format: str) -> None:
    """A histogram of one difficulty measure over the puzzles of FILE.

    Measures: er (SE-style rating), score (HoDoKu-style), norvig (Norvig's level), clues.
    """
    from sudokit.render.plots import histogram_plot

    grids = _grids(file, variant, input_format, limit)
    measured = [_measure(grid, measure) for grid in grids]
    values = [v for v in measured if v is not None]
    left_out = len(measured) - len(values)
    bins = range(min(values), max(values) + 2) if values and measure == "clues" else 30
    histogram_plot(
        values,
        output,
        xlabel=MEASURES[measure][1],
        title=f"{MEASURES[measure][0]} of {plural(len(values), 'puzzle')} in {file}",
        bins=bins,
    )
    note = f", {left_out} left out (no {measure} value: not solvable, or not a proper puzzle)" if left_out else ""
    click.echo(f"wrote {output}: {plural(len(values), 'puzzle')}{note}", err=True)


def _measure(grid, measure: str):
    if measure == "clues":
        return grid.givens
    if measure == "norvig":
        from sudokit.methods.norvig import level

        found = level(grid)
        return found.log10 if found.product else None
    from sudokit.logic.rating import not_proper, rate

    if not_proper(grid):  # only proper puzzles have a rating
        return None
    rating = rate(grid, extras=False)
    return rating.er if measure == "er" else rating.score
