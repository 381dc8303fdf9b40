"""``sudokit show``: print puzzles as pretty grids, optionally with their candidates."""

from __future__ import annotations

import click

from sudokit.cli.inputs import input_format_option, open_puzzles, strict_option, variant_option
from sudokit.cli.report import clash_message, report_bad_entry
from sudokit.formats import check_givens
from sudokit.grid import Candidates


@click.command()
@click.argument("puzzle")
@click.option("--candidates", "-c", is_flag=True, help="Show every empty cell's candidates (after peer elimination).")
@click.option("--color/--no-color", default=None, help="Colour output (default: only on a terminal).")
@variant_option
@input_format_option
@strict_option
def command(
    puzzle: str, candidates: bool, color: bool | None, variant: str | None, input_format: str, strict: bool
) -> None:
    """Print PUZZLE (a puzzle string, a file, or - for stdin) as a grid with box separators; a variant puzzle
    (f-puzzles / SudokuPad link, JSON, .json file) also lists its constraints in words."""
    from sudokit.cli import variants

    if variants.is_variant_arg(puzzle):
        raise SystemExit(variants.show(puzzle))
    source = open_puzzles(puzzle, variant, input_format, strict)
    bad = shown = 0
    for entry in source.entries:
        if entry.grid is None:
            bad += report_bad_entry(entry)
            continue
        grid = (
            check_givens(entry.grid, entry.source, entry.line, one_line="\n" not in puzzle.strip())
            if source.single
            else entry.grid
        )
        clash = None if source.single else clash_message(grid)
        if clash:
            bad += report_bad_entry(entry, clash)
            continue
        if shown:
            click.echo()
        shown += 1
        cands = entry.candidates or (Candidates.of(grid) if candidates else None)
        _print(grid, cands, color)
    if bad:
        raise SystemExit(2)


def _print(grid, cands, color: bool | None) -> None:
    """Colour through the terminal renderer."""
    from sudokit.render.terminal import print_grid

    print_grid(grid, candidates=cands, color=color)
