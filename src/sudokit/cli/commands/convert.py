"""``sudokit convert``: rewrite a puzzle file (or string) in another layout, streaming."""

from __future__ import annotations

import contextlib
import sys

import click

from sudokit.cli.inputs import (
    cluster_option,
    input_format_option,
    jobs_option,
    open_puzzles,
    strict_option,
    variant_option,
)
from sudokit.cli.report import BadEntries
from sudokit.cli.variants import VARIANT_FORMATS, is_variant_arg
from sudokit.cli.variants import convert as variant_convert
from sudokit.formats import WRITE_FORMATS, csv_header, format_grid, line_rows, separator, spliced
from sudokit.jobs.batch import Answer, Batch, Counts, interrupted, lines_of


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
@jobs_option()
@cluster_option
def command(
    puzzles: str,
    to_format: str,
    output: str | None,
    variant: str | None,
    input_format: str,
    strict: bool,
    jobs: int,
    cluster: str | None,
) -> None:
    """Convert PUZZLES (a string, a file, or -) to another layout; bad entries are reported and skipped."""
    import functools

    from sudokit.jobs.runner import open_runner

    if to_format in VARIANT_FORMATS or is_variant_arg(puzzles):
        raise SystemExit(variant_convert(puzzles, to_format, output, variant, input_format, strict))
    source = open_puzzles(puzzles, variant, input_format, strict)
    head = (csv_header() + "\n").encode() if to_format == "csv" else b""
    with open(output, "wb") if output else contextlib.nullcontext(sys.stdout.buffer) as out:
        batch = Batch(Counts(), out=out, gap=separator(to_format)[:-1].encode(), head=head)
        with open_runner(1 if source.single else jobs, cluster) as runner:
            stopped = batch.run(
                runner,
                functools.partial(_convert_chunk, to_format),
                source.blocks,
                _lost,
                label="converting",
            )
    if stopped:
        interrupted(batch.puzzles)
    if batch.tally["bad"]:
        raise SystemExit(2)


def _convert_chunk(to_format: str, block) -> Answer:
    """One block converted; its bad entries reported."""
    messages: list[str] = []
    skipped = BadEntries(messages)
    data = _converted(block, to_format, skipped)
    return Answer(data, messages, Counts(bad=skipped.count), len(block))


def _lost(block, why: str) -> Answer:
    """A block whose task failed twice: its lines named on stderr, counted as bad, none written."""
    message = f"sudokit: error: {block.source}: {lines_of(block)}: not converted: {why}"
    return Answer(b"", [message], Counts(bad=len(block)), len(block))


def _converted(block, to_format: str, skipped: BadEntries) -> bytes:
    """One block in layout ``to_format``: one-line layouts are written with numpy from the block's array, the
    rest one puzzle at a time; bad entries are reported and left out. The batch puts the CSV header before the
    first block's output and the layout's separator between two blocks'."""
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
    if to_format in ("line", "sdm", "csv"):
        rows = line_rows(block.grids, block.geometry)
        if to_format == "csv":
            rows = np.concatenate([rows[:, :-1], np.full((len(rows), 1), ord(","), np.uint8), rows[:, -1:]], axis=1)
        return spliced(rows, texts)
    gap = separator(to_format)[:-1]
    parts = [t for t in texts.values() if t is not None]
    return gap.join(t + "\n" for t in parts).encode("utf-8")
