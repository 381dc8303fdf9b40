"""``sudokit convert``: rewrite a puzzle file (or string) in another layout, streaming."""

from __future__ import annotations

import contextlib
import sys

import click

from sudokit.cli.inputs import input_format_option, open_puzzles, strict_option, variant_option
from sudokit.cli.report import BadEntries
from sudokit.formats import WRITE_FORMATS, csv_header, format_grid, separator


@click.command()
@click.argument("puzzles")
@click.option("--to", "to_format", type=click.Choice(WRITE_FORMATS), required=True, help="Output layout.")
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
