"""How batch commands report a bad entry: one line on stderr, the batch goes on."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import click

from sudokit.formats import Entry
from sudokit.grid import Grid


def bad_entry_message(entry: Entry, why: str | None = None) -> str:
    """``sudokit: error: source:line[:column]: what is wrong`` (the entry's own error unless ``why`` is given)."""
    if why is None and entry.error is not None:
        message = entry.error.describe()
    else:
        message = f"{entry.source}:{entry.line}: {why}"
    return f"sudokit: error: {message}"


def report_bad_entry(entry: Entry, why: str | None = None) -> int:
    """Print :func:`bad_entry_message` to stderr; return 1 (to count failures)."""
    click.echo(bad_entry_message(entry, why), err=True)
    return 1


def clash_message(grid: Grid) -> str | None:
    """``duplicate givens: digit 5 twice in row A (A1, A2)`` when two givens clash, else None."""
    found = grid.conflicts()
    return f"duplicate givens: {found[0].describe(grid.geometry)}" if found else None


def clashing_rows(grids, geometry):
    """True where a row of a ``(k, n_cells)`` array has clashing givens (a digit twice in a unit), for all rows at
    once with numpy; the rows flagged are then described one by one (:func:`clash_message`)."""
    import numpy as np

    units = np.array(geometry.units, dtype=np.intp)
    found = np.zeros(len(grids), dtype=bool)
    for lo in range(0, len(grids), 4096):  # bounded temporary arrays
        values = np.sort(grids[lo : lo + 4096][:, units], axis=2)
        found[lo : lo + 4096] = ((values[:, :, 1:] == values[:, :, :-1]) & (values[:, :, 1:] != 0)).any(axis=(1, 2))
    return found


class BadEntries:
    """What a batch command reports and skips: unreadable entries and entries whose givens clash."""

    def __init__(self, messages: list[str] | None = None) -> None:
        self.count = 0
        self.messages = messages  #: where the reports go (a batch chunk's stderr lines); None: stderr now

    def report(self, entry: Entry, why: str | None = None) -> None:
        """Report one entry that cannot be worked on, and count it."""
        self.count += 1
        if self.messages is None:
            report_bad_entry(entry, why)
        else:
            self.messages.append(bad_entry_message(entry, why))

    def usable(self, entries: Iterable[Entry]) -> Iterator[Entry]:
        """The entries that can be worked on; every other one is reported on stderr and counted."""
        for entry in entries:
            if entry.grid is None:
                self.report(entry)
                continue
            clash = clash_message(entry.grid)
            if clash:
                self.report(entry, clash)
                continue
            yield entry

    def plain_rows(self, block):
        """Which rows of a block can be written straight from its array (``True``): readable, of the block's
        geometry, nothing more to them (no solution, candidates or header fields) and no clashing givens. The
        others are checked and reported by :meth:`usable` when they are reached one by one."""
        plain = block.usable.copy()
        for i in block.entries:
            plain[i] = False
        rows = plain.nonzero()[0]
        plain[rows[clashing_rows(block.grids[rows], block.geometry)]] = False
        return plain


def count_text(count: int | None, limit: int) -> str:
    """A solution count as solve prints it: ``N``, or ``N+`` when the count reached the limit."""
    if count is None:
        return "?"
    return f"{count}+" if count >= limit else str(count)


def describe_result(result, limit: int, counting: bool) -> str:
    """A short sentence for a result that is not a plain solution (and for a count): what solve prints."""
    status = str(result.status)
    if status == "timeout":  # a count or a search cut short is no answer, whatever was found by then
        return f"timeout: {result.message}" if result.message else "timeout"
    if counting:
        return f"{count_text(result.count, limit)} solution{'' if result.count == 1 and limit > 1 else 's'}"
    if status == "multiple":
        return f"multiple solutions (at least {result.count})"
    if status == "no_solution":
        return "no solution"
    if status == "invalid":
        return f"invalid: {result.message}"
    return status
