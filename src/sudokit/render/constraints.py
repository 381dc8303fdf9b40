"""Variant constraints drawn the way setters draw them (f-puzzles and SudokuPad conventions).

:func:`constraint_layers` turns a :class:`~sudokit.constraints.VariantPuzzle`'s constraints into scene
primitives in two layers: ``under`` (below the grid lines and digits: extra-region shading, odd circles and
even squares, thermometers, coloured lines, arrows) and ``over`` (above the grid lines, below the digits:
dashed killer cages with their sums, Kropki dots, X/V, quadruple circles, clues outside the grid).
:func:`board_scene <sudokit.render.scene.board_scene>` places them; the SVG, PNG and raster back-ends only
translate primitives, so every picture of a variant agrees.

One drawer per kind, in :data:`DRAWERS`. Kinds that are a rule about the whole grid (anti-knight, anti-king,
non-consecutive, disjoint groups, the negative dot/XV rules) have no mark: :data:`RULE_ONLY` lists them, and
:meth:`VariantPuzzle.describe` says them in words.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from sudokit.constraints import (
    XV,
    AntiKing,
    AntiKnight,
    Arrow,
    BetweenLine,
    Constraint,
    Diagonal,
    DisjointGroups,
    EqualSums,
    ExtraRegion,
    KillerCage,
    Kropki,
    LittleKiller,
    NegativeRatio,
    NegativeXV,
    NonConsecutive,
    Palindrome,
    Parity,
    Quadruple,
    Renban,
    Sandwich,
    Skyscraper,
    Thermometer,
    ThreeClassLine,
    VariantPuzzle,
    Whispers,
    XSum,
)
from sudokit.geometry import Geometry
from sudokit.render.scene import NO_FILL, Circle, Polyline, Rect, Text

#: Colours of the constraint marks (the f-puzzles / SudokuPad defaults, slightly darkened for print).
COLOURS = {
    "cage": "#262626",
    "thermo": "#c6c6c6",
    "arrow": "#9a9a9a",
    "dot": "#111111",
    "parity": "#d2d2d2",
    "region": "#e4e4e4",
    "diagonal": "#5b9bd5",
    "clue": "#111111",
    "renban": "#e27ee2",
    "whispers": "#5ccf5c",
    "palindrome": "#b4b4b4",
    "between": "#a8a8a8",
    "modular": "#f0a33c",
    "entropic": "#e0783c",
    "zipperline": "#b08ee0",
    "regionsumline": "#38b8f0",
    "doublearrow": "#a8a8a8",
    "paper": "#ffffff",
}

#: Kinds with no mark in the picture: rules about the whole grid, listed in words by ``sudokit show``.
RULE_ONLY: tuple[type[Constraint], ...] = (
    AntiKnight,
    AntiKing,
    NonConsecutive,
    DisjointGroups,
    NegativeRatio,
    NegativeXV,
)

#: Kinds drawn outside the grid: a puzzle with one gets a ring of one cell around the board.
OUTSIDE: tuple[type[Constraint], ...] = (LittleKiller, Sandwich, XSum, Skyscraper)


@dataclass(frozen=True)
class Frame:
    """Where the grid is: its top-left corner in pixels and the cell side."""

    ox: float
    oy: float
    cs: float
    geometry: Geometry

    def at(self, r: float, c: float) -> tuple[float, float]:
        """The pixel of a point in cell units (row ``r``, column ``c``; 0 is the grid's top or left edge)."""
        return self.ox + c * self.cs, self.oy + r * self.cs

    def centre(self, s: int) -> tuple[float, float]:
        g = self.geometry
        return self.at(g.row(s) + 0.5, g.col(s) + 0.5)

    def centres(self, cells) -> tuple[tuple[float, float], ...]:
        return tuple(self.centre(s) for s in cells)


@dataclass
class Layers:
    """The primitives of the constraints, by layer (each list is painted in order)."""

    fills: list = field(default_factory=list)  #: shaded cells (extra regions)
    shapes: list = field(default_factory=list)  #: odd circles, even squares
    lines: list = field(default_factory=list)  #: thermometers, coloured lines, arrows
    marks: list = field(default_factory=list)  #: cages, dots, X/V, quadruples, outside clues

    @property
    def under(self) -> list:
        return self.fills + self.shapes + self.lines

    @property
    def over(self) -> list:
        return self.marks


def needs_ring(puzzle: VariantPuzzle | None) -> bool:
    """True when some clue of the puzzle sits outside the grid."""
    return puzzle is not None and any(isinstance(con, OUTSIDE) for con in puzzle.constraints)


def constraint_layers(puzzle: VariantPuzzle, frame: Frame) -> Layers:
    """Every constraint of ``puzzle`` as primitives (a line shared by several constraints is drawn once)."""
    layers = Layers()
    drawn: set = set()
    for con in puzzle.constraints:
        key = (type(con), getattr(con, "line", None) or id(con))
        if key in drawn:
            continue
        drawn.add(key)
        draw = DRAWERS.get(type(con))
        if draw is not None:
            draw(con, frame, layers)
        elif not isinstance(con, RULE_ONLY):  # pragma: no cover - every kind is in DRAWERS or RULE_ONLY
            raise TypeError(f"no drawing for the {con.kind} constraint")
    return layers


# ---- shared shapes --------------------------------------------------------------------------------------
def _unit(p: tuple[float, float], q: tuple[float, float]) -> tuple[float, float]:
    length = math.hypot(q[0] - p[0], q[1] - p[1]) or 1.0
    return (q[0] - p[0]) / length, (q[1] - p[1]) / length


def _head(tip: tuple[float, float], direction: tuple[float, float], size: float, colour: str, width: float):
    """An open arrow head (a chevron) at ``tip`` pointing along ``direction``."""
    ux, uy = direction
    back = (tip[0] - ux * size, tip[1] - uy * size)
    side = (-uy * size * 0.7, ux * size * 0.7)
    return Polyline(
        ((back[0] + side[0], back[1] + side[1]), tip, (back[0] - side[0], back[1] - side[1])), colour, width
    )


def _line(points, colour: str, width: float, opacity: float = 1.0) -> Polyline:
    return Polyline(tuple(points), colour, width, opacity)


def cage_outline(frame: Frame, cells, inset: float) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The segments of a cage's outline, ``inset`` pixels inside its cells' outer edges (collinear pieces
    merged, so the dashes run on)."""
    g, cs = frame.geometry, frame.cs
    inside = {(g.row(s), g.col(s)) for s in cells}
    d = inset / cs
    horizontal: dict[float, list[list[float]]] = {}
    vertical: dict[float, list[list[float]]] = {}

    def end(r: int, c: int, dr: int, dc: int, side_r: int, side_c: int) -> float:
        """How far past the cell's corner (towards ``(dr, dc)``) the inset edge on side ``(side_r, side_c)``
        runs: short of it at an outer corner, past it at an inner corner, to it on a straight run."""
        if (r + dr, c + dc) not in inside:
            return -d
        if (r + dr + side_r, c + dc + side_c) in inside:
            return d
        return 0.0

    for r, c in sorted(inside):
        for side_r, side_c in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if (r + side_r, c + side_c) in inside:
                continue
            if side_r:  # a top or bottom edge
                y = r + (0 if side_r < 0 else 1) - side_r * d
                x0 = c - end(r, c, 0, -1, side_r, 0)
                x1 = c + 1 + end(r, c, 0, 1, side_r, 0)
                horizontal.setdefault(y, []).append([x0, x1])
            else:
                x = c + (0 if side_c < 0 else 1) - side_c * d
                y0 = r - end(r, c, -1, 0, 0, side_c)
                y1 = r + 1 + end(r, c, 1, 0, 0, side_c)
                vertical.setdefault(x, []).append([y0, y1])
    out = []
    for y, spans in horizontal.items():
        for a, b in _merged(spans):
            out.append((frame.at(y, a), frame.at(y, b)))
    for x, spans in vertical.items():
        for a, b in _merged(spans):
            out.append((frame.at(a, x), frame.at(b, x)))
    return out


def _merged(spans: list[list[float]]) -> list[tuple[float, float]]:
    spans.sort()
    out: list[list[float]] = []
    for a, b in spans:
        if out and a <= out[-1][1] + 1e-9:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


# ---- one drawer per kind --------------------------------------------------------------------------------
def _killer(con: KillerCage, f: Frame, out: Layers) -> None:
    cs = f.cs
    width = max(1.0, cs / 40)
    for p, q in cage_outline(f, con.cage, cs * 0.09):
        out.marks.append(Polyline((p, q), COLOURS["cage"], width, dash=(cs * 0.07, cs * 0.05)))
    if con.total is None:
        return
    g = f.geometry
    first = min(con.cage, key=lambda s: (g.row(s), g.col(s)))
    x, y = f.at(g.row(first), g.col(first))
    text = str(con.total)
    size = cs * 0.22
    box_w = size * 0.62 * len(text) + cs * 0.06
    out.marks.append(Rect(x + cs * 0.03, y + cs * 0.03, box_w, size * 1.05, COLOURS["paper"]))
    out.marks.append(Text(x + cs * 0.06, y + cs * 0.03 + size * 0.55, text, size, COLOURS["cage"], anchor="start"))


def _thermo(con: Thermometer, f: Frame, out: Layers) -> None:
    cs = f.cs
    points = f.centres(con.line)
    out.lines.append(_line(points, COLOURS["thermo"], cs * 0.3))
    out.lines.append(Circle(*points[0], cs * 0.38, COLOURS["thermo"]))
    if con.slow:  # a slow thermometer: a white dashed core along the line
        out.lines.append(Polyline(points, COLOURS["paper"], cs * 0.06, dash=(cs * 0.12, cs * 0.12)))


def _arrow(con: Arrow, f: Frame, out: Layers) -> None:
    g, cs = f.geometry, f.cs
    colour, width = COLOURS["arrow"], max(1.5, cs * 0.045)
    bulb = f.centres(con.bulb)
    if len(con.bulb) == 1:
        out.lines.append(Circle(*bulb[0], cs * 0.4, NO_FILL, colour, width))
    else:
        out.lines.append(_line(bulb, colour, cs * 0.8))
        out.lines.append(_line(bulb, COLOURS["paper"], cs * 0.8 - 2 * width))
    head = con.shaft[0]
    start = next(
        (b for b in con.bulb if max(abs(g.row(b) - g.row(head)), abs(g.col(b) - g.col(head))) == 1), con.bulb[0]
    )
    points = [f.centre(start), *f.centres(con.shaft)]
    ux, uy = _unit(points[0], points[1])
    points[0] = (points[0][0] + ux * cs * 0.4, points[0][1] + uy * cs * 0.4)
    out.lines.append(_line(points, colour, width))
    out.lines.append(_head(points[-1], _unit(points[-2], points[-1]), cs * 0.24, colour, width))


def _edge_mid(f: Frame, a: int, b: int) -> tuple[float, float]:
    (x1, y1), (x2, y2) = f.centre(a), f.centre(b)
    return (x1 + x2) / 2, (y1 + y2) / 2


def _kropki(con: Kropki, f: Frame, out: Layers) -> None:
    cs = f.cs
    x, y = _edge_mid(f, con.a, con.b)
    fill = COLOURS["dot"] if con.black else COLOURS["paper"]
    out.marks.append(Circle(x, y, cs * 0.12, fill, COLOURS["dot"], max(1.0, cs / 40)))
    if con.value is not None:
        ink = COLOURS["paper"] if con.black else COLOURS["dot"]
        out.marks.append(Text(x, y, str(con.value), cs * 0.15, ink, bold=True))


def _xv(con: XV, f: Frame, out: Layers) -> None:
    cs = f.cs
    x, y = _edge_mid(f, con.a, con.b)
    side = cs * 0.26
    out.marks.append(Rect(x - side / 2, y - side / 2, side, side, COLOURS["paper"]))
    out.marks.append(Text(x, y, "X" if con.total == 10 else "V", cs * 0.3, COLOURS["clue"], bold=True))


def _parity(con: Parity, f: Frame, out: Layers) -> None:
    cs = f.cs
    x, y = f.centre(con.cell)
    if con.odd:
        out.shapes.append(Circle(x, y, cs * 0.36, COLOURS["parity"]))
    else:
        side = cs * 0.7
        out.shapes.append(Rect(x - side / 2, y - side / 2, side, side, COLOURS["parity"]))


def _little_killer(con: LittleKiller, f: Frame, out: Layers) -> None:
    from sudokit.formats.fpuzzles import little_killer_clue

    cs = f.cs
    r, c, dr, dc = little_killer_clue(f.geometry, con.line)
    x, y = f.at(r + 0.5, c + 0.5)
    k = cs / math.sqrt(2)
    tail = (x + dc * 0.2 * k, y + dr * 0.2 * k)
    tip = (x + dc * 0.55 * k, y + dr * 0.55 * k)
    width = max(1.0, cs / 36)
    out.marks.append(Polyline((tail, tip), COLOURS["clue"], width))
    out.marks.append(_head(tip, _unit(tail, tip), cs * 0.1, COLOURS["clue"], width))
    out.marks.append(Text(x - dc * 0.12 * cs, y - dr * 0.12 * cs, str(con.total), cs * 0.3, COLOURS["clue"]))


def _outside_sum(con: Sandwich | XSum | Skyscraper, f: Frame, out: Layers) -> None:
    from sudokit.formats.fpuzzles import line_clue

    r, c = line_clue(f.geometry, con.line)
    x, y = f.at(r + 0.5, c + 0.5)
    value = con.seen if isinstance(con, Skyscraper) else con.total
    out.marks.append(Text(x, y, str(value), f.cs * 0.38, COLOURS["clue"]))


def _coloured(colour: str, share: float, opacity: float = 0.9) -> Callable[[Constraint, Frame, Layers], None]:
    def draw(con, f: Frame, out: Layers) -> None:
        out.lines.append(_line(f.centres(con.line), colour, f.cs * share, opacity))

    return draw


def _three_class(con: ThreeClassLine, f: Frame, out: Layers) -> None:
    _coloured(COLOURS["entropic" if con.entropic else "modular"], 0.22)(con, f, out)


def _between(con: BetweenLine, f: Frame, out: Layers) -> None:
    cs = f.cs
    points = list(f.centres(con.line))
    colour = COLOURS["between"]
    ends = (points[0], points[-1])
    for i, j in ((0, 1), (-1, -2)):  # the line starts at the circles' rims; the circles stay see-through
        ux, uy = _unit(points[i], points[j])
        points[i] = (points[i][0] + ux * cs * 0.4, points[i][1] + uy * cs * 0.4)
    out.lines.append(_line(points, colour, max(1.5, cs * 0.05)))
    for p in ends:
        out.lines.append(Circle(*p, cs * 0.4, NO_FILL, colour, max(1.5, cs * 0.05)))


def _equal_sums(con: EqualSums, f: Frame, out: Layers) -> None:
    cs = f.cs
    if con.source != "doublearrow":
        _coloured(COLOURS[con.source], 0.22)(con, f, out)
        return
    points = list(f.centres(con.line))
    colour, width = COLOURS["doublearrow"], max(1.5, cs * 0.045)
    for i, j in ((0, 1), (-1, -2)):  # trim each end to its cell's edge and give it a head
        ux, uy = _unit(points[i], points[j])
        points[i] = (points[i][0] + ux * cs * 0.15, points[i][1] + uy * cs * 0.15)
    out.lines.append(_line(points, colour, width))
    out.lines.append(_head(points[0], _unit(points[1], points[0]), cs * 0.22, colour, width))
    out.lines.append(_head(points[-1], _unit(points[-2], points[-1]), cs * 0.22, colour, width))


def _quadruple(con: Quadruple, f: Frame, out: Layers) -> None:
    cs = f.cs
    xs, ys = zip(*f.centres(con.group), strict=True)
    x, y = sum(xs) / len(xs), sum(ys) / len(ys)
    out.marks.append(Circle(x, y, cs * 0.3, COLOURS["paper"], COLOURS["dot"], max(1.0, cs / 40)))
    digits = [str(d) for d in con.digits]
    rows = [digits[:2], digits[2:]] if len(digits) > 2 else [digits]
    size = cs * 0.19
    for i, row in enumerate(rows):
        dy = (i - (len(rows) - 1) / 2) * size * 1.05
        out.marks.append(Text(x, y + dy, " ".join(row), size, COLOURS["clue"]))


def _extra_region(con: ExtraRegion, f: Frame, out: Layers) -> None:
    g, cs = f.geometry, f.cs
    for s in con.region:
        x, y = f.at(g.row(s), g.col(s))
        out.fills.append(Rect(x, y, cs, cs, COLOURS["region"]))


def _diagonal(con: Diagonal, f: Frame, out: Layers) -> None:
    n = f.geometry.size
    ends = (f.at(n, 0), f.at(0, n)) if con.positive else (f.at(0, 0), f.at(n, n))
    out.lines.append(_line(ends, COLOURS["diagonal"], max(1.5, f.cs * 0.04)))


DRAWERS: dict[type[Constraint], Callable] = {
    KillerCage: _killer,
    Thermometer: _thermo,
    Arrow: _arrow,
    Kropki: _kropki,
    XV: _xv,
    Parity: _parity,
    LittleKiller: _little_killer,
    Sandwich: _outside_sum,
    XSum: _outside_sum,
    Skyscraper: _outside_sum,
    Renban: _coloured(COLOURS["renban"], 0.28),
    Whispers: _coloured(COLOURS["whispers"], 0.28),
    Palindrome: _coloured(COLOURS["palindrome"], 0.28),
    BetweenLine: _between,
    ThreeClassLine: _three_class,
    EqualSums: _equal_sums,
    Quadruple: _quadruple,
    ExtraRegion: _extra_region,
    Diagonal: _diagonal,
}
