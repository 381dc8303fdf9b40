"""The batch driver every many-puzzle command goes through: chunks in, answers written in input order.

A command cuts its input into chunks (:func:`split_blocks` of the reader's blocks, or :func:`chunked` entries),
names a top-level task that turns one chunk into an :class:`Answer` (its output bytes, its stderr lines, its
share of the summary), and :meth:`Batch.run` maps the task over a :class:`~sudokit.jobs.runner.Runner`:

- **Order.** Answers come back in input order; each is written (stderr lines first, then its output) and
  flushed as soon as it and every chunk before it are done. At most ``window`` chunks are in flight, so memory
  stays bounded whatever the input's length.
- **Bad lines.** The task reports a bad line as one of its stderr lines and writes nothing (or a marker) for
  it; the other lines of the chunk are answered.
- **A failed chunk.** A task that raises is run again once (:class:`Guarded`); when it fails again the command's
  ``lost`` function answers the chunk (a marker per puzzle, the lines named on stderr). A worker that dies is the
  runner's to handle (:mod:`sudokit.jobs.processes`). No line is lost either way.
- **Ctrl-C.** A chunk's lines are written and counted together (:func:`held_interrupt`), so after Ctrl-C the
  summary counts exactly the lines written; :meth:`Batch.run` returns ``True`` and the command prints its
  summary and exits with status 130. The key press is also noted (:func:`noted_interrupt`) and looked at after
  each chunk, because the ``KeyboardInterrupt`` itself can be lost: numba drops an exception raised while
  compiled code calls back into Python (boxing an array a kernel returns calls numba's unpickler), and the job
  ran on to the end as if no key had been pressed.
- **Progress** on stderr (rich), only on a terminal.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO

import click

from sudokit.errors import SudokitError


@dataclass
class Answer:
    """What one chunk produced: ``data`` to write, ``messages`` for stderr (bad lines, notes), its ``tally``
    (merged into the job's, see :meth:`Batch.write`), how many puzzles it covers (for progress), and ``held``:
    what a step that runs in input order turns into ``data`` (see ``ordered`` in :meth:`Batch.run`)."""

    data: bytes = b""
    messages: list[str] = field(default_factory=list)
    tally: Any = None
    puzzles: int = 0
    held: Any = None


@dataclass(frozen=True)
class Failed:
    """A chunk that could not be answered: why; ``user`` for a user error (one ``sudokit: error:`` line, exit 2)."""

    why: str
    user: bool = False


class Guarded:
    """``task(chunk)``, run once more when it raises; an exception the second time becomes :class:`Failed`
    (a :class:`~sudokit.errors.SudokitError` at once: a user error does not go away on a second try)."""

    def __init__(self, task: Callable[[Any], Answer]) -> None:
        self.task = task

    def __call__(self, chunk: Any) -> Answer | Failed:
        for attempt in (1, 2):
            try:
                return self.task(chunk)
            except SudokitError as exc:
                return Failed(str(exc), user=True)
            except Exception as exc:  # noqa: BLE001 - any failure of a task is reported, never lost
                if attempt == 2:
                    return Failed(f"{type(exc).__name__}: {exc}")
        raise AssertionError("unreachable")  # pragma: no cover


class Counts(Counter):
    """A tally that is only counts (``Counter`` with :meth:`merge`)."""

    def merge(self, other: Counter | None) -> None:
        if other:
            self.update(other)


@contextlib.contextmanager
def held_interrupt():
    """Ctrl-C waits until the block is done: a chunk's lines are written, flushed and counted together, so the
    summary after an interrupt counts exactly the lines written."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        yield  # (a process started with Ctrl-C ignored keeps ignoring it)
        return
    caught: list = []
    previous = signal.signal(signal.SIGINT, lambda *_: caught.append(True))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.default_int_handler)
    if caught:
        raise KeyboardInterrupt


@contextlib.contextmanager
def noted_interrupt() -> Iterator[list[bool]]:
    """Ctrl-C raises ``KeyboardInterrupt`` as before and also sets the yielded flag, which outlives a
    ``KeyboardInterrupt`` that was lost on its way up (see the module's notes); the handler before is back after
    the block unless the block ignored Ctrl-C on its way out."""
    pressed = [False]
    if threading.current_thread() is not threading.main_thread():
        yield pressed
        return
    before = signal.getsignal(signal.SIGINT)
    if not callable(before):  # ignored (SIG_IGN) or the system's default: left as it is
        yield pressed
        return

    def note(signum: int, frame: Any) -> None:
        pressed[0] = True
        before(signum, frame)  # Python's handler raises KeyboardInterrupt

    signal.signal(signal.SIGINT, note)
    try:
        yield pressed
    finally:
        if signal.getsignal(signal.SIGINT) is note:
            signal.signal(signal.SIGINT, before)


def progress(label: str, show: bool | None = None):
    """A rich progress display on stderr (puzzles done, elapsed time); ``show`` None: only when stderr is a
    terminal and the output is not (written lines on the terminal are progress enough, and would tear the bar)."""
    from rich.console import Console
    from rich.progress import MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    return Progress(
        SpinnerColumn(),
        TextColumn(label),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not (console.is_terminal and not _is_terminal(sys.stdout) if show is None else show),
    )


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def write_all(out: BinaryIO, data: bytes) -> None:
    """Write every byte of ``data`` and flush. A signal whose handler returns (the held Ctrl-C of a batch) can
    cut a buffered write to a pipe short, and ``write`` then returns the count written: write the rest."""
    view = memoryview(data)
    while view:
        written = out.write(view)
        view = view[written if written is not None else len(view) :]
    out.flush()


class Batch:
    """Writes a job's answers in order to ``out`` (default stdout) and adds up their tallies in ``tally``
    (anything with ``merge``). ``head`` goes before the first output (a CSV header), ``gap`` between the output
    of two chunks (a blank line between multi-line grids)."""

    def __init__(self, tally: Any = None, out=None, gap: bytes = b"", head: bytes = b"") -> None:
        self.tally = tally if tally is not None else Counts()
        self.out = out
        self.gap = gap
        self.head = head
        self.started = False
        self.puzzles = 0  #: puzzles covered by the answers written

    def write(self, answer: Answer) -> None:
        """Write a chunk's stderr lines and output and count it: all of it or (after Ctrl-C) none."""
        with held_interrupt():
            sys.stdout.flush()
            for message in answer.messages:
                click.echo(message, err=True)
            if answer.data:
                out = self.out if self.out is not None else sys.stdout.buffer
                lead = self.gap if self.started else self.head
                write_all(out, lead + answer.data)
                self.started = True
            if answer.tally is not None:
                self.tally.merge(answer.tally)
            self.puzzles += answer.puzzles

    def run(
        self,
        runner,
        task: Callable[[Any], Answer],
        chunks: Iterable[Any],
        lost: Callable[[Any, str], Answer],
        *,
        label: str = "working",
        show_progress: bool | None = None,
        window: int | None = None,
        ordered: Callable[[Answer], Answer] | None = None,
    ) -> bool:
        """Map ``task`` over ``chunks`` on ``runner`` and write every answer in input order; a chunk whose task
        failed twice is answered by ``lost(chunk, why)``; ``ordered(answer)``, when given, runs here on each
        answer in input order before it is written (what needs every earlier chunk: canon's dedupe). True when
        Ctrl-C stopped the job (every line written so far is kept and counted; a second Ctrl-C is ignored so
        the caller can print its summary)."""
        kept: deque = deque()  # the chunks in flight, to answer one that failed

        def fed() -> Iterator[Any]:
            for chunk in chunks:
                kept.append(chunk)
                yield chunk

        answers = runner.map(Guarded(task), fed(), window)
        try:
            with noted_interrupt() as pressed, progress(label, show_progress) as bar:
                counter = bar.add_task(label, total=None)
                for answer in answers:
                    chunk = kept.popleft()
                    if isinstance(answer, Failed):
                        if answer.user:
                            raise SudokitError(answer.why)
                        answer = lost(chunk, answer.why)
                    elif ordered is not None:
                        answer = ordered(answer)
                    self.write(answer)
                    bar.advance(counter, answer.puzzles)
                    if pressed[0]:  # a Ctrl-C whose KeyboardInterrupt was lost on the way
                        raise KeyboardInterrupt
        except KeyboardInterrupt:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            ending = getattr(runner, "interrupted", None)  # a runner that must quieten its shutdown
            if ending is not None:
                ending()
            return True
        finally:
            close = getattr(answers, "close", None)
            if close is not None:
                close()
        return False


def interrupted(puzzles: int) -> None:
    """The line after Ctrl-C for a command without a summary of its own; exits with status 130."""
    from sudokit.words import plural

    click.echo(f"sudokit: interrupted: the output above covers the first {plural(puzzles, 'puzzle')}", err=True)
    sys.exit(130)


# ---- chunks ---------------------------------------------------------------------------------------------------
def split_blocks(blocks: Iterable, size: int | None) -> Iterator:
    """The reader's :class:`~sudokit.formats.Block` s cut into blocks of at most ``size`` rows (None: as read)."""
    from sudokit.formats import Block

    for block in blocks:
        if size is None or len(block) <= size:
            yield block
            continue
        for lo in range(0, len(block), size):
            hi = min(lo + size, len(block))
            entries = {i - lo: e for i, e in block.entries.items() if lo <= i < hi}
            grids, lines, usable = block.grids[lo:hi], block.lines[lo:hi], block.usable[lo:hi]
            yield Block(block.source, block.geometry, block.start + lo, grids, lines, usable, entries)


def chunked(items: Iterable, size: int) -> Iterator[list]:
    """Items ``size`` at a time, as lists."""
    batch: list = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def lines_of(chunk) -> str:
    """``lines 12-340`` (or ``line 12``) of a chunk of a block or of entries, for messages."""
    if isinstance(chunk, list):
        first, last = (chunk[0].line, chunk[-1].line) if chunk else (0, 0)
    else:
        first, last = (int(chunk.lines[0]), int(chunk.lines[-1])) if len(chunk) else (0, 0)
    return f"line {first}" if first == last else f"lines {first}-{last}"


def source_of(chunk) -> str:
    """The input a chunk came from (a file name, ``<stdin>``)."""
    if isinstance(chunk, list):
        return chunk[0].source if chunk else "<input>"
    return chunk.source
