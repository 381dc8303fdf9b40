"""``sudokit convert``: rewrite a puzzle file (or string) in another layout, streaming."""

from __future__ import annotations

import contextlib
import sys

import click

from sudokit.cli.inputs import input_format_option, open_puzzles, strict_option, variant_option
from sudokit.cli.report import BadEntries, write_all
from sudokit.cli.variants import VARIANT_FORMATS, is_variant_arg
from sudokit.cli.variants import convert as variant_convert
from sudokit.formats import WRITE_FORMATS, csv_header, format_grid, line_rows, separator, spliced


@click.command()
@click.argument("puzzles")
@click.option(
    "--to",
    "to_format",
    type=click.Choice([*WRITE_FORMATS, *VARIANT_FORMATS]),
    required=True,
    help="Output layout (fpuzzles: f-puzzles JSON; fpuzzles-link (or link), sudokupad-link: links that open "
    "the puzzle; scl, scl-link: SudokuPad's own JSON and link).",
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
    with open(output, "wb") if output else contextlib.nullcontext(sys.stdout.buffer) as out:
        written = 0
        for block in source.blocks:
            data, count = _converted(block, to_format, skipped, first=not written)
            write_all(out, data)
            written += count
    if skipped.count:
        raise SystemExit(2)


def _converted(block, to_format: str, skipped: BadEntries, first: bool) -> tuple[bytes, int]:
    """One block in layout ``to_format`` and how many puzzles it holds: one-line layouts are written with numpy
    from the block's array, the rest one puzzle at a time; bad entries are reported and left out."""
    import numpy as np

    plain = skipped.plain_rows(block) if to_format in ("line", "sdm", "csv") else block.usable & False
    texts: dict[int, str | None] = {}
    for i in (~plain).nonzero()[0].tolist():
        good = list(skipped.usable([block.entry(i)]))
        texts[i] = None
        if good:
            entry = good[0]
            assert entry.grid is not None  # usable entries were read
            texts[i] = format_grid(
                entry.grid, to_format, solution=entry.solution, candidates=entry.candidates, meta=entry.meta
            )
    count = int(plain.sum()) + sum(t is not None for t in texts.values())
    head = csv_header() + "\n" if first and count and to_format == "csv" else ""
    if to_format in ("line", "sdm", "csv"):
        rows = line_rows(block.grids, block.geometry)
        if to_format == "csv":
            rows = np.concatenate([rows[:, :-1], np.full((len(rows), 1), ord(","), np.uint8), rows[:, -1:]], axis=1)
        return head.encode() + spliced(rows, texts), count
    gap = separator(to_format)[:-1]
    parts = [t for t in texts.values() if t is not None]
    lead = "" if first else gap
    return (lead + gap.join(t + "\n" for t in parts)).encode("utf-8") if parts else b"", count
