"""``sudokit hint``: the next logical step only, gently (where to look) or in full."""

from __future__ import annotations

import json

import click

from sudokit.cli.inputs import input_format_option, variant_option
from sudokit.cli.logic_input import COMPLETE, STUCK, is_complete, logic_start, read_start
from sudokit.cli.techniques import technique_options


@click.command()
@click.argument("puzzle")
@click.option(
    "--level",
    "-l",
    type=click.IntRange(1, 2),
    default=2,
    show_default=True,
    help="1: which technique and where to look; 2: the full step.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the step as JSON.")
@click.option("--no-uniqueness", is_flag=True, help="Leave out techniques that assume a unique solution.")
@variant_option
@input_format_option
@technique_options
def command(puzzle: str, level: int, as_json: bool, no_uniqueness: bool, variant, input_format, techniques) -> None:
    """Show the next step for PUZZLE (a string, a one-puzzle file, or -).

    Pencil marks (a pencilmark line, a candidate grid) are the state the step starts from. Exit status: 0 with
    a step or a complete grid, 1 when logic is stuck or the grid is empty or has no solution, 2 for bad input."""
    from sudokit.cli import variants

    if variants.is_variant_arg(puzzle):  # an f-puzzles / SudokuPad link or JSON: logic with its constraints
        raise SystemExit(variants.hint(puzzle, level, as_json, techniques))
    from sudokit.logic import hint

    start = read_start(puzzle, variant, input_format)
    if is_complete(start):
        click.echo(COMPLETE)
        return
    uniqueness, several = logic_start(start, not no_uniqueness)
    step = hint(start, level=level, uniqueness=uniqueness, techniques=techniques, several_solutions=several)
    if step is None:
        click.echo(STUCK)
        raise SystemExit(1)
    click.echo(json.dumps(step.to_dict(), indent=1) if as_json else step.explanation)
