"""A record of how a method solved a puzzle: assignments, eliminations, guesses and the AC-3 queue.

Every method can fill a :class:`Trace` while it works. The replay animation, the queue plot and
``--trace FILE.json`` all read this one structure:

- ``events``: what happened, in order. ``kind`` is one of :data:`KINDS`; ``rule`` names what caused it
  (``eliminate``, ``only_choice``, ``naked_twins``, ``ac3``, ``norvig:peers``, ``norvig:unit``, ``search``, ...);
  ``depth`` is the search depth at the time (0 = before any guess).
- ``queue_lengths``: AC-3 only, the queue length after each arc is taken from the queue (the seed's plot).
- ``search_starts``: AC-3 only, indices into ``queue_lengths`` where a MAC call starts after an assignment.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sudokit.errors import SudokitError
from sudokit.geometry import Geometry, standard
from sudokit.grid import Grid


@dataclass
class Event:
    """One step of a solve."""

    kind: str  #: "assign" | "eliminate" | "guess" | "backtrack" | "solved" | "fail"
    cell: int | None = None
    digit: int | None = None
    rule: str = ""  #: what made the step, e.g. "only_choice" or "norvig:unit"
    depth: int = 0  #: search depth when it happened

    def to_json(self, geometry: Geometry) -> dict[str, Any]:
        """The event as a JSON-ready dict; the cell is given as an index and as a label."""
        out: dict[str, Any] = {"kind": self.kind, "cell": self.cell, "digit": self.digit}
        out["label"] = None if self.cell is None else geometry.label(self.cell)
        out["rule"] = self.rule
        out["depth"] = self.depth
        return out


@dataclass
class Trace:
    """Everything one method did on one puzzle, in order."""

    method: str
    geometry: Geometry
    puzzle: Grid
    events: list[Event] = field(default_factory=list)
    queue_lengths: list[int] = field(default_factory=list)  #: AC-3: queue length after each arc is taken
    search_starts: list[int] = field(default_factory=list)  #: AC-3: indices where a MAC call starts
    outcome: str = ""  #: how the solve ended, in the method's words (e.g. AC-3's "needed backtracking")

    def add(self, kind: str, cell: int | None = None, digit: int | None = None, rule: str = "", depth: int = 0):
        """Append one event."""
        self.events.append(Event(kind, cell, digit, rule, depth))

    def assignments(self) -> list[tuple[int, int]]:
        """``(cell, digit)`` of every assignment, in order: the Udacity ``assign_value`` history."""
        return [(e.cell, e.digit) for e in self.events if e.kind == "assign" and e.cell is not None and e.digit]

    def count(self, kind: str) -> int:
        """How many events of one kind were recorded."""
        return sum(1 for e in self.events if e.kind == kind)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (see :func:`write_trace`)."""
        return {
            "method": self.method,
            "geometry": self.geometry.name,
            "size": self.geometry.size,
            "units": [list(u) for u in self.geometry.units],
            "unit_names": list(self.geometry.unit_names),
            "unit_kinds": list(self.geometry.unit_kinds),
            "box": [self.geometry.box_rows, self.geometry.box_cols],
            "labels": list(self.geometry.labels),
            "puzzle": self.puzzle.to_line(),
            "outcome": self.outcome,
            "events": [e.to_json(self.geometry) for e in self.events],
            "assignments": [[cell, digit] for cell, digit in self.assignments()],
            "queue_lengths": list(self.queue_lengths),
            "search_starts": list(self.search_starts),
        }


def write_trace(trace: Trace, path: str | Path) -> Path:
    """Write ``trace`` as JSON to ``path`` ('-' writes to stdout); return the path written."""
    text = _dumps(trace.to_json())
    if str(path) == "-":
        print(text)
        return Path("-")
    target = Path(path)
    try:
        target.write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        raise SudokitError(f"{path}: cannot write the trace ({exc.strerror or exc})") from None
    return target


def _dumps(data: dict[str, Any]) -> str:
    """JSON with one top-level key per line and one event per line: readable, and diff-friendly."""
    lines = []
    for key, value in data.items():
        if key == "events":
            body = ",\n  ".join(json.dumps(e) for e in value)
            lines.append(f' "events": [\n  {body}\n ]' if value else ' "events": []')
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}"


def _old_kinds(units: tuple[tuple[int, ...], ...], box_rows: int | None, box_cols: int | None) -> tuple[str, ...]:
    """Unit kinds for a trace written before traces carried them: the standard board's kinds where its rows,
    columns and boxes come first, ``extra`` for every other unit."""
    kinds: tuple[str, ...] = ()
    if box_rows and box_cols:
        base = standard(box_rows, box_cols)
        if units[: len(base.units)] == base.units:
            kinds = base.unit_kinds
    return kinds + ("extra",) * (len(units) - len(kinds))


def read_trace(path: str | Path) -> Trace:
    """Read a trace written by :func:`write_trace`; the geometry is rebuilt from its units."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        box_rows, box_cols = data.get("box", [None, None])
        units = tuple(tuple(u) for u in data["units"])
        kinds = data.get("unit_kinds") or _old_kinds(units, box_rows, box_cols)
        names = tuple(data["unit_names"])
        geometry = Geometry(data["geometry"], data["size"], units, names, box_rows, box_cols, unit_kinds=tuple(kinds))
        symbols = geometry.symbols
        values = [0 if ch == "." else symbols.index(ch) + 1 for ch in data["puzzle"]]
        events = [Event(e["kind"], e["cell"], e["digit"], e.get("rule", ""), e.get("depth", 0)) for e in data["events"]]
        return Trace(
            data["method"],
            geometry,
            Grid(geometry, tuple(values)),
            events,
            list(data.get("queue_lengths", [])),
            list(data.get("search_starts", [])),
            data.get("outcome", ""),
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise SudokitError(f"{path}: not a readable trace file ({exc!r})") from None


class Recorder:
    """Where a method writes its events: a trace (or nothing) and the current search depth.

    The methods take a recorder rather than a trace so that recording costs nothing when no trace was asked
    for: check ``rec.on`` before building an event in a hot loop.
    """

    __slots__ = ("trace", "depth")

    def __init__(self, trace: Trace | None = None, depth: int = 0):
        self.trace = trace
        self.depth = depth

    @property
    def on(self) -> bool:
        """True when events are being recorded."""
        return self.trace is not None

    def note(self, kind: str, cell: int | None = None, digit: int | None = None, rule: str = "") -> None:
        """Record one event at the current depth (nothing when not recording)."""
        if self.trace is not None:
            self.trace.events.append(Event(kind, cell, digit, rule, self.depth))

    def deeper(self) -> Recorder:
        """A recorder one search level down, writing to the same trace."""
        return Recorder(self.trace, self.depth + 1)


#: The recorder that records nothing.
SILENT = Recorder()


def board_states(trace: Trace) -> list[tuple[int, Grid]]:
    """The board after every event that changes it: ``(event index, grid of assigned digits)``.

    Follows the search: a ``guess`` at depth d saves the board, a ``backtrack`` at depth d restores the board
    saved by the guess at that depth. Assignments fill a cell. This is what a replay shows frame by frame.
    """
    board = list(trace.puzzle.values)
    saved: list[tuple[int, list[int]]] = []
    states: list[tuple[int, Grid]] = []
    for i, e in enumerate(trace.events):
        if e.kind == "guess":
            saved.append((e.depth, list(board)))
        elif e.kind == "backtrack":
            while saved and saved[-1][0] > e.depth:
                saved.pop()
            if saved:
                board = list(saved.pop()[1])
                states.append((i, Grid(trace.geometry, tuple(board))))
        elif e.kind == "assign" and e.cell is not None and e.digit and board[e.cell] != e.digit:
            board[e.cell] = e.digit
            states.append((i, Grid(trace.geometry, tuple(board))))
    return states
