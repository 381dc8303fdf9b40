"""One puzzle read from a file, or the error that stopped it being read."""

from __future__ import annotations

from dataclasses import dataclass, field

from sudokit.errors import ParseError
from sudokit.grid import Candidates, Grid


@dataclass
class Entry:
    """A puzzle from a file with where it came from; ``grid`` is None and ``error`` set for a bad one.

    Batch work keeps going past a bad entry: it reports ``error`` and keeps output aligned with input.
    """

    index: int  #: 0-based position among the file's puzzles (bad ones included)
    line: int  #: 1-based line where the puzzle starts
    source: str  #: file name, ``<stdin>`` or ``<argument>``
    grid: Grid | None = None
    error: ParseError | None = None
    solution: Grid | None = None  #: a solution the file gives (CSV, tdoku format)
    count: int | None = None  #: a solution count the file gives (tdoku format)
    candidates: Candidates | None = None  #: pencilmarks, when the format carries them
    meta: dict[str, str] = field(default_factory=dict)  #: header fields (.sdk), trailing text (ratings)

    @property
    def ok(self) -> bool:
        """True when the puzzle was read."""
        return self.grid is not None
