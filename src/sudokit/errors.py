"""The exceptions sudokit raises for user errors: one clear message naming the problem and where."""

from __future__ import annotations


class SudokitError(Exception):
    """A user error (bad input, bad option, impossible request): print the message, never a traceback."""


class ParseError(SudokitError):
    """Puzzle text that cannot be read, with its position: ``source:line:column: message``.

    ``line`` and ``column`` are 1-based; either may be ``None`` when unknown.
    """

    def __init__(self, message: str, source: str | None = None, line: int | None = None, column: int | None = None):
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        super().__init__(self.describe())

    def describe(self) -> str:
        """The message with its position, e.g. ``top95.txt:3:17: bad character 'x'``."""
        where = [str(p) for p in (self.source, self.line, self.column) if p is not None]
        return ":".join(where + [" " + self.message]) if where else self.message

    def at(self, source: str | None = None, line: int | None = None, column_offset: int = 0) -> ParseError:
        """A copy placed in a file: set the source and line, shift the column."""
        column = None if self.column is None else self.column + column_offset
        return ParseError(self.message, source or self.source, line or self.line, column)
