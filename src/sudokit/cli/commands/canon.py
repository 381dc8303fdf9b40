"""``sudokit canon``: the minlex canonical form of puzzles; dedupes a file up to symmetry."""

from __future__ import annotations

import click

from sudokit.cli.inputs import POSITIVE_INT, cluster_option, input_format_option, open_puzzles, variant_option
from sudokit.jobs.batch import Answer, Batch, Counts, interrupted, lines_of
from sudokit.words import plural


@click.command()
@click.argument("puzzle")
@click.option("--dedupe/--no-dedupe", default=True, show_default=True, help="Print each class up to symmetry once.")
@click.option("--originals", is_flag=True, help="Print the first input of each class rather than its canonical form.")
@click.option("--quiet", "-q", is_flag=True, help="No summary line on stderr.")
@variant_option
@input_format_option
@click.option(
    "--jobs",
    "-j",
    type=POSITIVE_INT,
    default=None,
    help="Threads computing canonical forms (default: every core).",
)
@cluster_option
def command(
    puzzle: str,
    dedupe: bool,
    originals: bool,
    quiet: bool,
    variant: str | None,
    input_format: str,
    jobs: int | None,
    cluster: str | None,
) -> None:
    """Print the canonical (minimum-lexicographic) form of each puzzle or grid in PUZZLE.

    Isomorphic puzzles (equal up to relabelling digits, permuting bands, stacks, rows in a band,
    columns in a stack, and transposing) get the same canonical form. For a file, each class is
    printed once (first seen first) and a summary goes to stderr: how many were read and how many
    are distinct up to symmetry. Standard boards up to 9x9.
    """
    import functools

    from sudokit.jobs.runner import open_runner

    source = open_puzzles(puzzle, variant, input_format)
    seen: set[bytes] = set()
    batch = Batch(Counts())

    def kept(answer: Answer) -> Answer:
        """The block's lines, each class once (first seen first) when deduplicating."""
        keys, originals_of = answer.held
        out = []
        for key, original in zip(keys, originals_of, strict=True):
            if key is None or (dedupe and key in seen):
                continue
            seen.add(key)
            out.append(original if originals else key)
        answer.data = b"".join(out)
        return answer

    threads = jobs if cluster is None else 1
    with open_runner(1, cluster, functools.partial(_threads, threads)) as runner:
        stopped = batch.run(
            runner,
            _canon_chunk,
            source.blocks,
            _lost,
            label="canonicalizing",
            ordered=kept,
        )
    read, bad = batch.tally["read"], batch.tally["bad"]
    if (not source.single and not quiet) or stopped:
        distinct = f"{len(seen)} distinct up to symmetry" if dedupe else "not deduplicated"
        click.echo(f"{plural(read, 'puzzle')} read, {distinct}" + (f", {bad} unreadable" if bad else ""), err=True)
    if stopped:
        interrupted(batch.puzzles)
    if bad:
        raise SystemExit(2)


def _threads(threads: int | None) -> None:
    """Run numba's canonical-form kernel on ``threads`` threads (None: every core)."""
    if threads is not None:
        import numba

        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))


def _canon_chunk(block) -> Answer:
    """A block's canonical lines and original lines (``held``: the dedupe runs in order, in
    :func:`command`), its bad entries' reports and its counts."""
    from sudokit.cli.report import bad_entry_message

    keys, originals_of = _canonical_block(block)
    messages = [bad_entry_message(block.entry(i)) for i, key in enumerate(keys) if key is None]
    counts = Counts(read=len(keys) - len(messages), bad=len(messages))
    return Answer(b"", messages, counts, len(block), held=(keys, originals_of))


def _lost(block, why: str) -> Answer:
    """A block whose task failed twice: its lines named on stderr, counted as unreadable."""
    message = f"sudokit: error: {block.source}: {lines_of(block)}: not canonicalized: {why}"
    return Answer(b"", [message], Counts(bad=len(block)), len(block))


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
