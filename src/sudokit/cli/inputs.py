"""How commands take puzzles: ``PUZZLE`` is a puzzle string, a file name, or ``-`` for stdin."""

from __future__ import annotations

import io
import math
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import click

from sudokit.errors import INT64_MAX, SudokitError, expect_seconds
from sudokit.formats import FORMATS, Block, Entry, read_blocks, read_entries
from sudokit.geometry import Geometry, from_name, shape_of
from sudokit.grid import Grid

#: The shortest puzzle text (a 4x4 board); a shorter argument that is not a file is a mistyped name.
MIN_PUZZLE_LENGTH = 16


@dataclass
class PuzzleInput:
    """The puzzles of one ``PUZZLE`` argument, block by block; ``single`` is true for one puzzle typed on the
    command line (an argument holding several puzzles is read like a file)."""

    items: Iterator[Block] | list[Entry]  #: a file's blocks, or an argument's entries (read without numpy)
    single: bool
    source: str

    @property
    def blocks(self) -> Iterator[Block]:
        """The puzzles a block at a time (numpy arrays, for the batch commands)."""
        if isinstance(self.items, list):
            from sudokit.formats.blocks import entry_blocks

            return entry_blocks(self.items, self.source)
        return self.items

    @property
    def entries(self) -> Iterator[Entry]:
        """The puzzles one :class:`~sudokit.formats.Entry` at a time."""
        if isinstance(self.items, list):
            return iter(self.items)
        return (entry for block in self.items for entry in block)


def looks_like_file(arg: str) -> bool:
    """True when ``arg`` names stdin or an existing path (or plainly is a path, to report it missing)."""
    if arg == "-" or os.path.exists(arg):
        return True
    return os.sep in arg or arg.lower().endswith((".txt", ".csv", ".sdk", ".sdm", ".ss"))


def fixes_size(variant: str) -> bool:
    """True when a variant name settles the board size itself (``jigsaw:MAP``, ``6x6``, ``2x3``);
    other names (``diagonal``, ``windoku``, ``standard``) apply at the size of each puzzle read."""
    return variant.strip().lower().startswith("jigsaw:") or shape_of(variant) is not None


def geometry_for(variant: str | None, n_cells: int | None = None) -> Geometry | None:
    """The geometry a ``--variant`` names at a size (``n_cells``), or None to take the puzzle's own."""
    if not variant or (n_cells is None and not fixes_size(variant)):
        return None
    return from_name(variant, n_cells)


def open_puzzles(arg: str, variant: str | None = None, fmt: str = "auto", strict: bool = False) -> PuzzleInput:
    """Puzzles from a ``PUZZLE`` argument: a file (``-`` for stdin), or the text of one or more puzzles, read
    in any layout (auto-detected, or ``fmt``). A file that does not exist raises a SudokitError."""
    if variant:
        from_name(variant)  # an unknown name is reported before any input is read
    geometry = geometry_for(variant)
    if looks_like_file(arg):
        if arg != "-" and os.path.isdir(arg):
            raise SudokitError(f"{arg}: is a directory, not a puzzle file")
        if arg != "-" and not os.path.exists(arg):
            raise SudokitError(f"{arg}: no such file")
        blocks = read_blocks(arg, fmt=fmt, geometry=geometry, strict=strict)
        return PuzzleInput(_checked(blocks, variant, arg), single=False, source=arg)
    if len(arg.strip()) < MIN_PUZZLE_LENGTH:
        raise SudokitError(f"{arg}: no such file, and too short to be a puzzle")
    text = io.BytesIO(os.fsencode(arg))  # the argument's own bytes: one that is not UTF-8 is reported, not a crash
    entries = read_entries(text, fmt=fmt, geometry=geometry, source="<argument>", strict=strict)
    found = list(_checked_entries(entries, variant, "<argument>"))
    return PuzzleInput(found, single=len(found) == 1, source="<argument>")


def _checked_entries(entries: Iterable[Entry], variant: str | None, source: str) -> Iterator[Entry]:
    """The entries, each puzzle put in the variant's geometry at its own size; no puzzle at all is an error."""
    empty = True
    for entry in entries:
        empty = False
        if entry.grid is not None and variant and not fixes_size(variant):
            wanted = from_name(variant, entry.grid.geometry.n_cells)
            if wanted != entry.grid.geometry:
                entry.grid = Grid(wanted, entry.grid.values)
        yield entry
    if empty:
        raise SudokitError(f"{source}: no puzzle found")


def _checked(blocks: Iterable[Block], variant: str | None, source: str) -> Iterator[Block]:
    """The blocks, each puzzle put in the variant's geometry at its own size (``--variant diagonal``
    reads 9x9 and 16x16 files alike); an input with no puzzle at all is an error."""
    empty = True
    for block in blocks:
        empty = False
        if variant and not fixes_size(variant):
            for entry in block.entries.values():
                if entry.grid is not None and entry.grid.geometry != block.geometry:
                    entry.grid = Grid(from_name(variant, entry.grid.geometry.n_cells), entry.grid.values)
            block = block.with_geometry(from_name(variant, block.geometry.n_cells))
        yield block
    if empty:
        raise SudokitError(f"{source}: no puzzle found")


def one_puzzle(arg: str, variant: str | None = None, fmt: str = "auto", strict: bool = False):
    """The single puzzle of an argument (a file must hold exactly one); errors raise ParseError."""
    return one_entry(arg, variant, fmt, strict).grid


def one_entry(arg: str, variant: str | None = None, fmt: str = "auto", strict: bool = False) -> Entry:
    """The single entry of an argument, with its pencil marks when the layout carries them."""
    source = open_puzzles(arg, variant, fmt, strict)
    first = None
    for entry in source.entries:
        if entry.error:
            raise entry.error
        if first is not None:
            raise SudokitError(f"{source.source}: holds more than one puzzle; this command takes one")
        first = entry
    if first is None:
        raise SudokitError(f"{source.source}: no puzzle found")
    return first


# ---- options shared by commands -------------------------------------------------------------
def variant_option(f):
    """``--variant NAME``: the puzzle family (standard, diagonal, windoku, jigsaw:MAP, 6x6, 2x3, ...)."""
    return click.option(
        "--variant",
        "-V",
        default=None,
        metavar="NAME",
        help="Puzzle family: standard, diagonal, windoku, jigsaw:MAP, or a size such as 4x4, 6x6, 16x16.",
    )(f)


def input_format_option(f):
    """``--from FORMAT``: how to read the input (auto-detected by default)."""
    return click.option(
        "--from",
        "input_format",
        type=click.Choice(FORMATS),
        default="auto",
        show_default=True,
        help="Input layout.",
    )(f)


def strict_option(f):
    """``--strict``: exactly one character per cell, ``.`` for empty (no ``0``, no layout characters)."""
    return click.option("--strict", is_flag=True, help="Strict reading: one character per cell, '.' for empty.")(f)


def jobs_option(what: str = "processes"):
    """``--jobs N``: how many workers a batch command runs its chunks on (``what`` they are)."""
    return click.option(
        "--jobs", "-j", type=POSITIVE_INT, default=1, show_default=True, help=f"Files: {what} working at once."
    )


def cluster_option(f):
    """``--cluster ADDRESS``: run the batch on a Dask scheduler (``tcp://host:8786``), or ``local:N``."""
    return click.option(
        "--cluster",
        default=None,
        metavar="ADDRESS",
        help="Run on a Dask cluster: a scheduler address (tcp://host:8786), or local:N for a local one.",
    )(f)


# ---- number types shared by the options: each value checked where it is read ---------------------------------
#: Counts and limits (solutions, puzzles, nodes, threads): 1 up to the kernels' int64 range.
POSITIVE_INT = click.IntRange(1, INT64_MAX)
#: A random seed: any non-negative integer numpy's generators take (a negative one is refused up front).
SEED = click.IntRange(0, 2**128 - 1)


class Seconds(click.ParamType):
    """A time limit: a positive, finite number of seconds (``nan``, ``inf``, ``0`` and ``-1`` are refused)."""

    name = "seconds"

    def convert(self, value, param, ctx):
        if isinstance(value, float):
            return value
        try:
            return expect_seconds(float(value), "the time limit")
        except ValueError:
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        except SudokitError as exc:
            self.fail(str(exc), param, ctx)


SECONDS = Seconds()


class FiniteRange(click.FloatRange):
    """click's ``FloatRange`` that also refuses ``nan`` (every comparison with NaN is false, so the range alone
    lets it through)."""

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if math.isnan(number):
            self.fail(f"{value!r} is not a number", param, ctx)
        return number
