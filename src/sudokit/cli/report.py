"""How batch commands report a bad entry: one line on stderr, the batch goes on."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

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


class BadEntries:
    """What a batch command reports and skips: unreadable entries and entries whose givens clash."""

    def __init__(self) -> None:
        self.count = 0

    def usable(self, entries: Iterable[Entry]) -> Iterator[Entry]:
        """The entries that can be worked on; every other one is reported on stderr and counted."""
        for entry in entries:
            if entry.grid is None:
                self.count += report_bad_entry(entry)
                continue
            clash = clash_message(entry.grid)
            if clash:
                self.count += report_bad_entry(entry, clash)
                continue
            yield entry


def logic_uniqueness(grid: Grid, wanted: bool) -> bool:
    """Whether the logic commands may use uniqueness techniques on ``grid``.

    A puzzle without a solution stops the command (message on stderr, exit 1); one with several solutions is
    explained without uniqueness techniques, with a note on stderr."""
    from sudokit.logic.rating import check_proper
    from sudokit.result import Status

    check = check_proper(grid)
    if check.proper:
        return wanted
    if check.status is Status.NO_SOLUTION:
        click.echo(f"sudokit: {check.why}", err=True)
        raise SystemExit(1)
    if wanted:
        click.echo(f"sudokit: note: {check.why}; techniques that assume a unique solution are left out", err=True)
    return False
