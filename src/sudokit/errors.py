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


class TimeLimitError(SudokitError):
    """A search stopped by its time limit before it could answer; ``count`` is the solutions found by then."""

    def __init__(self, message: str, count: int = 0):
        self.count = count
        super().__init__(message)


# ---- arguments: checked and normalised before they reach a kernel -----------------------------------------
#: The largest integer the kernels take (their counters are int64).
INT64_MAX = 2**63 - 1


def expect_int(value: object, name: str, low: int = 1, high: int = INT64_MAX) -> int:
    """``value`` as a plain ``int`` in ``low..high``, else a :class:`SudokitError` saying what was expected.

    Booleans, floats and strings are refused (``limit=1.5`` or ``True`` is a mistake, not a number), and
    numpy integers become ``int``, so every call reaches the compiled kernels with the same argument types.
    """
    if type(value) is int and low <= value <= high:  # the common case, without the ABC check (~0.5 us a call)
        return value
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise SudokitError(f"{name} must be an integer from {low} to {high}, not {type(value).__name__} {value!r}")
    number = int(value)
    if not low <= number <= high:
        raise SudokitError(f"{name} must be an integer from {low} to {high}, got {number}")
    return number


#: The longest time limit taken (a year): more is a mistake, and the tick count must fit the kernels' int64.
MAX_SECONDS = 365 * 24 * 3600.0


def expect_seconds(value: object, name: str = "time_limit") -> float | None:
    """A time limit as a positive, finite ``float`` of at most :data:`MAX_SECONDS` (None stays None)."""
    if value is None:
        return None
    import math
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise SudokitError(f"{name} must be a number of seconds, not {type(value).__name__} {value!r}")
    seconds = float(value)
    if not (math.isfinite(seconds) and 0 < seconds <= MAX_SECONDS):
        raise SudokitError(f"{name} must be a positive number of seconds up to {MAX_SECONDS:.0f}, got {value!r}")
    return seconds
