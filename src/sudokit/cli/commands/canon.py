"""``sudokit canon``: the minlex canonical form of puzzles; dedupes a file up to symmetry."""

from __future__ import annotations

import click

from sudokit.cli.inputs import input_format_option, open_puzzles, variant_option
from sudokit.cli.report import report_bad_entry
from sudokit.words import plural

CHUNK = 4096  #: grids canonicalized per call (spread over every core)


@click.command()
@click.argument("puzzle")
@click.option("--dedupe/--no-dedupe", default=True, show_default=True, help="Print each class up to symmetry once.")
@click.option("--originals", is_flag=True, help="Print the first input of each class rather than its canonical form.")
@click.option("--quiet", "-q", is_flag=True, help="No summary line on stderr.")
@variant_option
@input_format_option
def command(puzzle: str, dedupe: bool, originals: bool, quiet: bool, variant: str | None, input_format: str) -> None:
    """Print the canonical (minimum-lexicographic) form of each puzzle or grid in PUZZLE.

    Isomorphic puzzles (equal up to relabelling digits, permuting bands, stacks, rows in a band,
    columns in a stack, and transposing) get the same canonical form. For a file, each class is
    printed once (first seen first) and a summary goes to stderr: how many were read and how many
    are distinct up to symmetry. Standard boards up to 9x9.
    """
    import numpy as np

    from sudokit.generate.transforms import canonical_many

    source = open_puzzles(puzzle, variant, input_format)
    seen: set[str] = set()
    read = bad = 0
    batch: list = []

    def flush() -> None:
        if not batch:
            return
        geometry = batch[0].geometry
        keys = canonical_many(np.array([g.values for g in batch], dtype=np.uint8), geometry)
        sym = "." + geometry.symbols
        for grid, key in zip(batch, keys):
            text = "".join(sym[v] for v in key)
            if dedupe and text in seen:
                continue
            seen.add(text)
            click.echo(grid.to_line() if originals else text)
        batch.clear()

    for entry in source.entries:
        if not entry.ok:
            bad += report_bad_entry(entry)
            continue
        read += 1
        if batch and (entry.grid.geometry != batch[0].geometry or len(batch) >= CHUNK):
            flush()
        batch.append(entry.grid)
    flush()
    if not source.single and not quiet:
        distinct = f"{len(seen)} distinct up to symmetry" if dedupe else "not deduplicated"
        click.echo(f"{plural(read, 'puzzle')} read, {distinct}" + (f", {bad} unreadable" if bad else ""), err=True)
    if bad:
        raise SystemExit(2)
