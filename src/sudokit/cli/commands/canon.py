"""``sudokit canon``: the minlex canonical form of puzzles; dedupes a file up to symmetry."""

from __future__ import annotations

import sys

import click

from sudokit.cli.inputs import input_format_option, open_puzzles, variant_option
from sudokit.cli.report import report_bad_entry, write_all
from sudokit.words import plural


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
    source = open_puzzles(puzzle, variant, input_format)
    seen: set[bytes] = set()
    read = bad = 0
    for block in source.blocks:
        keys, originals_of = _canonical_block(block)
        out = []
        for i, key in enumerate(keys):
            if key is None:
                bad += report_bad_entry(block.entry(i))
                continue
            read += 1
            if dedupe and key in seen:
                continue
            seen.add(key)
            out.append(originals_of[i] if originals else key)
        write_all(sys.stdout.buffer, b"".join(out))
    if not source.single and not quiet:
        distinct = f"{len(seen)} distinct up to symmetry" if dedupe else "not deduplicated"
        click.echo(f"{plural(read, 'puzzle')} read, {distinct}" + (f", {bad} unreadable" if bad else ""), err=True)
    if bad:
        raise SystemExit(2)


def _canonical_block(block) -> tuple[list[bytes | None], list[bytes]]:
    """Each row's canonical line (None for an unreadable entry) and its original line, as bytes ending in LF:
    the block's array canonicalized in one call (spread over every core), other sizes one by one."""
    import numpy as np

    from sudokit.formats import line_rows
    from sudokit.generate.transforms import canonical_many

    def lines(grids, geometry) -> list[bytes]:
        text = line_rows(grids, geometry)
        return text.view(f"S{text.shape[1]}").ravel().tolist() if len(text) else []

    rows = block.usable.nonzero()[0]
    keys: list[bytes | None] = [None] * len(block)
    canonical = canonical_many(block.grids[rows], block.geometry) if len(rows) else block.grids[rows]
    for at, key in zip(rows.tolist(), lines(canonical, block.geometry)):
        keys[at] = key
    originals = lines(block.grids, block.geometry)
    for i, entry in block.entries.items():
        if block.usable[i] or not entry.ok:
            continue
        grid = np.array([entry.grid.values], dtype=np.uint8)
        keys[i] = lines(canonical_many(grid, entry.grid.geometry), entry.grid.geometry)[0]
        originals[i] = lines(grid, entry.grid.geometry)[0]
    return keys, originals
