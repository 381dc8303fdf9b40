"""``sudokit transform``: apply validity-preserving symmetries to puzzles, or make random isomorphs."""

from __future__ import annotations

import click

from sudokit.cli.inputs import POSITIVE_INT, SEED, input_format_option, open_puzzles, variant_option
from sudokit.cli.report import report_bad_entry
from sudokit.errors import SudokitError


def _order(text: str, what: str) -> list[int]:
    """``"312"`` (1-based, as people count) -> ``[2, 0, 1]``."""
    if not (text.isascii() and text.isdigit()):  # str.isdigit alone takes "²", which int() refuses
        raise SudokitError(f"{what} is written as 1-based digits such as 312, got {text!r}")
    return [int(ch) - 1 for ch in text]


def _indexed(text: str, what: str) -> tuple[int, list[int]]:
    """``"2:213"`` -> (1, [1, 0, 2]): band/stack 2, reordered."""
    where, sep, order = text.partition(":")
    if not sep or not (where.isascii() and where.isdigit()):
        raise SudokitError(f"{what} is written INDEX:ORDER such as 2:213, got {text!r}")
    return int(where) - 1, _order(order, what)


@click.command()
@click.argument("puzzle")
@click.option("--relabel", default=None, metavar="DIGITS", help="New name of each digit 1..n, e.g. 987654321.")
@click.option("--bands", default=None, metavar="ORDER", help="Band order, 1-based, e.g. 312.")
@click.option("--stacks", default=None, metavar="ORDER", help="Stack order, 1-based, e.g. 213.")
@click.option("--rows", multiple=True, metavar="BAND:ORDER", help="Row order inside a band, e.g. 1:321 (repeatable).")
@click.option("--cols", multiple=True, metavar="STACK:ORDER", help="Column order inside a stack, e.g. 3:132.")
@click.option("--transpose", is_flag=True, help="Rows become columns.")
@click.option("--rotate", type=click.IntRange(0, 3), default=0, help="Quarter turns clockwise.")
@click.option("--mirror", is_flag=True, help="Reflect left-right.")
@click.option("--flip", is_flag=True, help="Reflect top-bottom.")
@click.option("--random", "random_", is_flag=True, help="A random isomorph (uniform over the board's symmetries).")
@click.option("--count", "-n", default=1, type=POSITIVE_INT, help="With --random: isomorphs per puzzle.")
@click.option("--seed", type=SEED, default=None, help="Seed for --random (same seed, same output).")
@click.option("--format", "-f", "fmt", type=click.Choice(["line", "grid", "sdk", "ss"]), default="line")
@variant_option
@input_format_option
def command(
    puzzle: str,
    relabel: str | None,
    bands: str | None,
    stacks: str | None,
    rows: tuple[str, ...],
    cols: tuple[str, ...],
    transpose: bool,
    rotate: int,
    mirror: bool,
    flip: bool,
    random_: bool,
    count: int,
    seed: int | None,
    fmt: str,
    variant: str | None,
    input_format: str,
) -> None:
    """Transform PUZZLE (a puzzle string, a file, or -): the named symmetries are applied in the order
    relabel, bands, stacks, rows, cols, transpose, rotate, mirror, flip; then --random if given.

    Each result solves exactly when the input does: these moves keep every row, column and box a unit.
    """
    import numpy as np

    from sudokit.formats import format_grid, separator
    from sudokit.generate import transforms as sym

    rng = np.random.default_rng(seed)
    source = open_puzzles(puzzle, variant, input_format)
    bad = shown = 0
    for entry in source.entries:
        if entry.grid is None:
            bad += report_bad_entry(entry)
            continue
        g = entry.grid.geometry
        t = sym.Transform.identity(g)
        if relabel:
            t = t.then(sym.relabel(g, relabel))
        if bands:
            t = t.then(sym.bands(g, _order(bands, "--bands")))
        if stacks:
            t = t.then(sym.stacks(g, _order(stacks, "--stacks")))
        for text in rows:
            t = t.then(sym.rows(g, *_indexed(text, "--rows")))
        for text in cols:
            t = t.then(sym.cols(g, *_indexed(text, "--cols")))
        if transpose:
            t = t.then(sym.transpose(g))
        if rotate:
            t = t.then(sym.rotate(g, rotate))
        if mirror:
            t = t.then(sym.mirror(g))
        if flip:
            t = t.then(sym.flip(g))
        base = t.apply(entry.grid)
        outs = [sym.random_isomorph(base, rng) for _ in range(count)] if random_ else [base]
        for grid in outs:
            if shown:
                click.echo(separator(fmt), nl=False)
            click.echo(format_grid(grid, fmt), nl=False)
            shown += 1
    if shown:
        click.echo()
    if bad:
        raise SystemExit(2)
