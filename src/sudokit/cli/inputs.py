"""How commands take puzzles: ``PUZZLE`` is a puzzle string, a file name, or ``-`` for stdin."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

import click

from sudokit.errors import SudokitError
from sudokit.formats import FORMATS, Entry, entries_from_text, read_entries
from sudokit.geometry import Geometry, from_name


@dataclass
class PuzzleInput:
    """The entries of one ``PUZZLE`` argument; ``single`` is true for a puzzle typed on the command line."""

    entries: Iterator[Entry]
    single: bool
    source: str


def looks_like_file(arg: str) -> bool:
    """True when ``arg`` names stdin or an existing path (or plainly is a path, to report it missing)."""
    if arg == "-" or os.path.exists(arg):
        return True
    return os.sep in arg or arg.lower().endswith((".txt", ".csv", ".sdk", ".sdm", ".ss"))


def geometry_for(variant: str | None, n_cells: int | None = None) -> Geometry | None:
    """The geometry a ``--variant`` names, or None to take the size from the puzzle."""
    if not variant or variant.lower() == "standard" and n_cells is None:
        return None
    return from_name(variant, n_cells)


def open_puzzles(arg: str, variant: str | None = None, fmt: str = "auto", strict: bool = False) -> PuzzleInput:
    """Entries from a ``PUZZLE`` argument. A file that does not exist raises ``FileNotFoundError``."""
    geometry = geometry_for(variant)
    if looks_like_file(arg):
        if arg != "-" and os.path.isdir(arg):
            raise SudokitError(f"{arg}: is a directory, not a puzzle file")
        if arg != "-" and not os.path.exists(arg):
            raise SudokitError(f"{arg}: no such file")
        entries = read_entries(arg, fmt=fmt, geometry=geometry, strict=strict)
        return PuzzleInput(_checked(entries, variant, arg), single=False, source=arg)
    entries = entries_from_text(arg, fmt="grid" if fmt == "auto" else fmt, geometry=geometry, source="<argument>")
    return PuzzleInput(_checked(entries, variant, "<argument>"), single=True, source="<argument>")


def _checked(entries: Iterator[Entry], variant: str | None, source: str) -> Iterator[Entry]:
    """The entries, with a variant name re-read at the puzzle's own size (``--variant diagonal`` on a
    16x16 file); an input with no puzzle at all is an error."""
    empty = True
    for entry in entries:
        empty = False
        if (
            entry.ok
            and variant
            and entry.grid.geometry.size != 9
            and entry.grid.geometry == from_name("standard", entry.grid.geometry.n_cells)
        ):
            wanted = from_name(variant, entry.grid.geometry.n_cells)
            if wanted != entry.grid.geometry:
                entry.grid = type(entry.grid)(wanted, entry.grid.values)
        yield entry
    if empty:
        raise SudokitError(f"{source}: no puzzle found")


def one_puzzle(arg: str, variant: str | None = None, fmt: str = "auto", strict: bool = False):
    """The single puzzle of an argument (a file must hold exactly one); errors raise ParseError."""
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
    return first.grid


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
