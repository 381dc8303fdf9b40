"""``sudokit hint``: the next logical step only, gently (where to look) or in full."""

from __future__ import annotations

import json

import click

from sudokit.cli.inputs import input_format_option, one_puzzle, variant_option
from sudokit.cli.report import clash_message, logic_uniqueness
from sudokit.cli.techniques import technique_options
from sudokit.errors import SudokitError


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
    """Show the next step for PUZZLE (a string, a one-puzzle file, or -)."""
    from sudokit.logic import hint

    grid = one_puzzle(puzzle, variant, input_format)
    clash = clash_message(grid)
    if clash:
        raise SudokitError(clash)
    if grid.is_complete:
        click.echo("The grid is already complete.")
        return
    step = hint(grid, level=level, uniqueness=logic_uniqueness(grid, not no_uniqueness), techniques=techniques)
    if step is None:
        click.echo("No technique here applies: the next step needs guessing.")
        raise SystemExit(1)
    click.echo(json.dumps(step.to_dict(), indent=1) if as_json else step.explanation)
