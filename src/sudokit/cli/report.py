"""How batch commands report a bad entry: one line on stderr, the batch goes on."""

from __future__ import annotations

import click

from sudokit.formats import Entry
from sudokit.grid import Grid


def report_bad_entry(entry: Entry, why: str | None = None) -> int:
    """Print ``source:line[:column]: what is wrong`` to stderr; return 1 (to count failures)."""
    if why is None and entry.error is not None:
        message = entry.error.describe()
    else:
        message = f"{entry.source}:{entry.line}: {why}"
    click.echo(f"sudokit: error: {message}", err=True)
    return 1


def clash_message(grid: Grid) -> str | None:
    """``duplicate givens: digit 5 twice in row A (A1, A2)`` when two givens clash, else None."""
    found = grid.conflicts()
    return f"duplicate givens: {found[0].describe(grid.geometry)}" if found else None
