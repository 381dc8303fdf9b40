"""``sudokit level``: Norvig's difficulty level, with the candidates left after propagation."""

from __future__ import annotations

import click

from sudokit.cli.inputs import input_format_option, open_puzzles, variant_option
from sudokit.cli.report import report_bad_entry


@click.command()
@click.argument("puzzle")
@click.option(
    "--candidates/--no-candidates", default=None, help="Show the propagated candidates (default: one puzzle)."
)
@variant_option
@input_format_option
def command(puzzle: str, candidates: bool | None, variant: str | None, input_format: str) -> None:
    """Norvig's level of PUZZLE (string, file or -): squares (givens) and the product of candidate counts
    after the givens are propagated, as the seed prints it (level = 1.7e+25 is level 25)."""
    from sudokit.formats import display
    from sudokit.grid import Candidates
    from sudokit.methods.norvig import level, parse_grid

    source = open_puzzles(puzzle, variant, input_format)
    show = source.single if candidates is None else candidates
    bad = 0
    for entry in source.entries:
        if entry.grid is None:
            bad += report_bad_entry(entry)
            continue
        grid = entry.grid
        lv = level(grid)
        if not show:
            exponent = "contradiction" if lv.exponent is None else str(lv.exponent)
            click.echo(f"{grid.to_line()}  squares {lv.squares}  level {exponent}")
            continue
        click.echo(str(lv))
        values = parse_grid(grid)
        if values is not None:
            click.echo(
                display(Candidates(grid.geometry, tuple(values)).to_grid(), Candidates(grid.geometry, tuple(values)))
            )
        click.echo()
    if bad:
        raise SystemExit(2)
