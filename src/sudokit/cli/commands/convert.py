"""``sudokit convert``: rewrite a puzzle file (or string) in another layout, streaming."""

from __future__ import annotations

import contextlib
import sys

import click

from sudokit.cli.inputs import input_format_option, open_puzzles, strict_option, variant_option
from sudokit.cli.report import BadEntries
from sudokit.cli.variants import VARIANT_FORMATS, is_variant_arg
from sudokit.cli.variants import convert as variant_convert
from sudokit.formats import WRITE_FORMATS, csv_header, format_grid, separator


@click.command()
@click.argument("puzzles")
@click.option(
    "--to",
    "to_format",
    type=click.Choice([*WRITE_FORMATS, *VARIANT_FORMATS]),
    required=True,
    help="Output layout (fpuzzles: f-puzzles JSON; fpuzzles-link, sudokupad-link: links that open the puzzle).",
)
@click.option(
    "--output", "-o", type=click.Path(dir_okay=False, writable=True), default=None, help="Write here, not stdout."
)
@variant_option
@input_format_option
@strict_option
def command(
    puzzles: str, to_format: str, output: str | None, variant: str | None, input_format: str, strict: bool
) -> None:
    """Convert PUZZLES (a string, a file, or -) to another layout; bad entries are reported and skipped."""
    if to_format in VARIANT_FORMATS or is_variant_arg(puzzles):
        raise SystemExit(variant_convert(puzzles, to_format, output, variant, input_format, strict))
    source = open_puzzles(puzzles, variant, input_format, strict)
    skipped = BadEntries()
    with open(output, "w", encoding="utf-8") if output else contextlib.nullcontext(sys.stdout) as out:
        first = True
        for entry in skipped.usable(source.entries):
            if first and to_format == "csv":
                out.write(csv_header() + "\n")
            elif not first:
                out.write(separator(to_format)[:-1])
            text = format_grid(
                entry.grid, to_format, solution=entry.solution, candidates=entry.candidates, meta=entry.meta
            )
            out.write(text + "\n")
            first = False
    if skipped.count:
        raise SystemExit(2)
