"""The layout of a board picture, shared by every back-end.

:func:`board_scene` turns a grid (and optional candidates and highlight) into a flat list of drawing
primitives in pixel coordinates (origin top left, y down). The SVG writer (:mod:`.svg`) and the PNG
painter (:mod:`.png`) only translate those primitives, so both pictures always agree.

Layers, bottom to top: extra-unit shading (diagonals, windows) -> highlighted units -> highlighted
cells -> a variant's shapes and lines (odd/even, thermometers, arrows, coloured lines) -> thin cell
lines -> thick region borders (boxes, jigsaw regions, the frame) -> a variant's marks (cages, dots, X/V,
clues outside) -> candidate marks -> digits -> link arrows.

A link is a straight arrow when nothing is in its way, else a curve that
bends around the digits and candidates it would cross (:func:`link_path`); a link between two candidates
of one cell always bends, so it stays visible.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sudokit.geometry import Geometry
from sudokit.grid import Candidates, Grid, digits_of
from sudokit.render.highlight import Highlight, normalize

if TYPE_CHECKING:
    from sudokit.constraints import VariantPuzzle

#: Colours (one place, so the SVG, the PNG and the replay match).
PALETTE = {
    "background": "#ffffff",
    "extra_unit": "#e6e3f3",  # diagonals, windows
    "unit": "#dbeafe",  # highlighted unit
    "cell": "#fde68a",  # highlighted cell
    "thin": "#a3a3a3",
    "thick": "#1f2937",
    "given": "#111827",
    "solved": "#1d4ed8",
    "candidate": "#6b7280",
    "label": "#6b7280",
    "mark": "#fcd34d",  # involved candidate
    "elimination": "#dc2626",
    "elimination_bg": "#fecaca",
    "placement": "#15803d",
    "placement_bg": "#bbf7d0",
    "link": "#7c3aed",
}

FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
#: The fill of a shape drawn as an outline only (an arrow's bulb, a between line's end circles).
NO_FILL = "none"


@dataclass
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str
    role: str = ""  #: e.g. ``cursor`` for the replay's moving cell mark
    stroke: str | None = None  #: outline colour (none when None)
    stroke_width: float = 0.0


@dataclass
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    color: str
    width: float


@dataclass
class Circle:
    cx: float
    cy: float
    r: float
    fill: str
    stroke: str | None = None  #: outline colour (none when None)
    stroke_width: float = 0.0


@dataclass
class Polyline:
    """A line through ``points`` with round ends and joins: thermometers, variant lines, arrow shafts, cage
    outlines (``dash``: on and off lengths)."""

    points: tuple[tuple[float, float], ...]
    color: str
    width: float
    opacity: float = 1.0
    dash: tuple[float, float] | None = None


@dataclass
class Text:
    x: float
    y: float
    text: str
    size: float
    color: str
    bold: bool = False
    role: str = ""  #: e.g. ``cell-12`` for a cell's digit (the HTML replay addresses it)
    anchor: str = "middle"  #: ``middle``: centred on (x, y); ``start``: starts at x (cage sums)


@dataclass
class Arrow:
    """A chain link from (x1, y1) to (x2, y2): straight, or a quadratic curve through the control point
    (cx, cy) when one is given (the curve bends around digits in its way)."""

    x1: float
    y1: float
    x2: float
    y2: float
    color: str
    width: float
    dashed: bool
    cx: float | None = None
    cy: float | None = None

    def points(self, steps: int = 24) -> list[tuple[float, float]]:
        """Points along the link, first to last (two for a straight one)."""
        if self.cx is None or self.cy is None:
            return [(self.x1, self.y1), (self.x2, self.y2)]
        ends, control = ((self.x1, self.y1), (self.x2, self.y2)), (self.cx, self.cy)
        return [_bezier(ends[0], control, ends[1], i / steps) for i in range(steps + 1)]


def _bezier(p0, c, p1, t: float) -> tuple[float, float]:
    u = 1 - t
    return (u * u * p0[0] + 2 * u * t * c[0] + t * t * p1[0], u * u * p0[1] + 2 * u * t * c[1] + t * t * p1[1])


#: Bends tried for a link, as the control point's distance from the chord's middle over the chord's length
#: (0 = straight); the first that clears every digit in the way wins.
BENDS = (0.0, 0.2, -0.2, 0.35, -0.35, 0.5, -0.5, 0.7, -0.7)
#: Bends tried for a link inside one cell, in candidate spots (never straight: the candidates are too close
#: for a visible line).
CELL_BENDS = (0.9, -0.9, 1.4, -1.4)


def link_path(
    p1: tuple[float, float],
    p2: tuple[float, float],
    obstacles: list[tuple[float, float, float]],
    bounds: tuple[float, float, float, float],
    spot: float = 0.0,
) -> tuple[float, float] | None:
    """The control point of the curve a link from ``p1`` to ``p2`` takes, or None for a straight line.

    ``obstacles`` are (x, y, radius) discs the link should not cross (digits and candidates other than its
    ends); ``bounds`` (x0, y0, x1, y1) is the board, which the curve should not leave. The straight line is
    taken when nothing is in its way; otherwise the smallest bend, on either side, that clears the most.
    ``spot`` (the distance between neighbouring candidates) marks a link inside one cell: it always bends,
    by about a spot.
    """
    (x1, y1), (x2, y2) = p1, p2
    length = math.hypot(x2 - x1, y2 - y1)
    if length < 1e-9:
        return None
    nx, ny = -(y2 - y1) / length, (x2 - x1) / length
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    best, best_cost = None, math.inf
    for bend in [b * spot / length for b in CELL_BENDS] if spot else BENDS:
        c = (mx + nx * bend * length, my + ny * bend * length)
        cost = 0.0
        for i in range(2, 19):  # the ends sit on their candidates: test the middle of the curve
            x, y = _bezier(p1, c, p2, i / 20)
            if not (bounds[0] <= x <= bounds[2] and bounds[1] <= y <= bounds[3]):
                cost += 0.5
            for ox, oy, r in obstacles:
                if (x - ox) ** 2 + (y - oy) ** 2 < r * r:
                    cost += 1
        cost += abs(bend) * 0.01  # among equals, the flattest
        if cost < best_cost:
            best, best_cost = c, cost
        if cost < 0.5:
            break
    return None if best is None or best == (mx, my) else best


@dataclass
class Scene:
    """A picture: its size in pixels and its primitives, bottom layer first."""

    width: int
    height: int
    items: list = field(default_factory=list)
    cell_size: float = 0.0
    origin: tuple[float, float] = (0.0, 0.0)


def _toward(p: tuple[float, float], q: tuple[float, float], distance: float) -> tuple[float, float]:
    """The point ``distance`` from ``p`` toward ``q``."""
    length = math.hypot(q[0] - p[0], q[1] - p[1]) or 1.0
    return p[0] + (q[0] - p[0]) / length * distance, p[1] + (q[1] - p[1]) / length * distance


def default_cell_size(size: int) -> int:
    """Cell side in pixels: roomy for small boards, tighter for 16x16 and 25x25 so they stay on screen."""
    if size <= 9:
        return 52
    if size <= 16:
        return 44
    return 38


def candidate_layout(size: int) -> tuple[int, int]:
    """(rows, columns) of the small grid in which a cell's candidates sit: 3x3 for 9, 4x4 for 16."""
    cols = math.ceil(math.sqrt(size))
    return math.ceil(size / cols), cols


def regions_of(geometry: Geometry) -> tuple[int, ...] | None:
    """For each cell, the index of its box or jigsaw region; None when the units have no such partition."""
    region = geometry.region_of
    return None if -1 in region else region


def shaded_cells(geometry: Geometry) -> set[int]:
    """Cells of extra units that are not rows, columns or regions (diagonals, windows): drawn tinted."""
    return {s for u in geometry.extra_units for s in geometry.units[u]}


def row_label(geometry: Geometry, r: int) -> str:
    """The label of a row as the cell labels spell it: ``A``..``I`` on 9x9, ``1``..``n`` otherwise."""
    label = geometry.label(geometry.cell(r, 0))
    return label[0] if geometry.size == 9 else str(r + 1)


def _region_runs(geometry: Geometry, region: tuple[int, ...] | None) -> list[tuple[int, int, int, int]]:
    """Thick border segments in cell units (x1, y1, x2, y2), merged into straight runs."""
    n = geometry.size
    runs = [(0, 0, n, 0), (0, n, n, n), (0, 0, 0, n), (n, 0, n, n)]
    if region is None:
        return runs
    for c in range(1, n):  # vertical boundaries between column c-1 and c
        start = None
        for r in range(n + 1):
            edge = r < n and region[geometry.cell(r, c - 1)] != region[geometry.cell(r, c)]
            if edge and start is None:
                start = r
            elif not edge and start is not None:
                runs.append((c, start, c, r))
                start = None
    for r in range(1, n):  # horizontal boundaries between row r-1 and r
        start = None
        for c in range(n + 1):
            edge = c < n and region[geometry.cell(r - 1, c)] != region[geometry.cell(r, c)]
            if edge and start is None:
                start = c
            elif not edge and start is not None:
                runs.append((start, r, c, r))
                start = None
    return runs


def board_scene(
    grid: Grid,
    candidates: Candidates | None = None,
    highlight: Highlight | dict | None = None,
    solution_of: Grid | None = None,
    cell_size: float | None = None,
    coordinates: bool = True,
    puzzle: VariantPuzzle | None = None,
) -> Scene:
    """Lay out a board: digits (givens bold, solved digits blue), candidates, highlights and borders.

    ``solution_of`` is the puzzle whose givens appear as givens; the other digits of ``grid`` are
    drawn as solved. Without it every digit is a given. Candidates are shown in empty cells only;
    highlighted candidates are drawn even when ``candidates`` is not given. ``puzzle``: a variant puzzle
    whose constraints are drawn (:mod:`sudokit.render.constraints`; clues outside the grid get a ring of one
    cell around it); its diagonals and extra regions are drawn as the setters draw them, not tinted.
    """
    g = grid.geometry
    n = g.size
    cs = float(cell_size or default_cell_size(n))
    spec = normalize(highlight, g)
    ring = 0.0
    if puzzle is not None:  # the constraints' module (and sudokit.constraints) only when there are some
        from sudokit.render.constraints import Frame, constraint_layers, needs_ring

        ring = cs if needs_ring(puzzle) else 0.0
    margin = 0.55 * cs if coordinates else 0.12 * cs
    pad = 0.12 * cs + ring
    ox = oy = margin + ring
    side = n * cs
    width = math.ceil(ox + side + pad)
    height = math.ceil(oy + side + pad)
    scene = Scene(width, height, cell_size=cs, origin=(ox, oy))
    items = scene.items
    items.append(Rect(0, 0, width, height, PALETTE["background"]))
    layers = constraint_layers(puzzle, Frame(ox, oy, cs, g)) if puzzle is not None else None

    def corner(s: int) -> tuple[float, float]:
        return ox + g.col(s) * cs, oy + g.row(s) * cs

    def fill(cells, colour: str) -> None:
        for s in sorted(set(cells)):
            x, y = corner(s)
            items.append(Rect(x, y, cs, cs, colour))

    if layers is None:
        fill(shaded_cells(g), PALETTE["extra_unit"])
    else:
        items += layers.fills
    fill((s for u in spec["units"] for s in g.units[u]), PALETTE["unit"])
    fill(spec["cells"], PALETTE["cell"])
    if layers is not None:
        items += layers.shapes + layers.lines

    thin = max(1.0, cs / 48)
    for i in range(1, n):
        items.append(Line(ox + i * cs, oy, ox + i * cs, oy + side, PALETTE["thin"], thin))
        items.append(Line(ox, oy + i * cs, ox + side, oy + i * cs, PALETTE["thin"], thin))
    thick = max(2.0, cs / 18)
    for c1, r1, c2, r2 in _region_runs(g, regions_of(g)):
        items.append(Line(ox + c1 * cs, oy + r1 * cs, ox + c2 * cs, oy + r2 * cs, PALETTE["thick"], thick))
    if layers is not None:
        items += layers.marks

    if coordinates:
        size = 0.3 * cs
        for i in range(n):
            items.append(Text(ox + (i + 0.5) * cs, oy - ring - 0.28 * cs, str(i + 1), size, PALETTE["label"]))
            items.append(Text(ox - ring - 0.3 * cs, oy + (i + 0.5) * cs, row_label(g, i), size, PALETTE["label"]))

    # candidates: where each digit sits inside its cell
    sub_rows, sub_cols = candidate_layout(n)
    sub_w, sub_h = cs / sub_cols, cs / sub_rows
    cand_size = min(sub_w, sub_h) * 0.72

    def spot(s: int, d: int) -> tuple[float, float]:
        x, y = corner(s)
        i, j = divmod(d - 1, sub_cols)
        return x + (j + 0.5) * sub_w, y + (i + 0.5) * sub_h

    marks: dict[tuple[int, int], tuple[str, str]] = {}  # (cell, digit) -> (background, text colour)
    for pairs, bg, fg in (
        (spec["candidates"], PALETTE["mark"], PALETTE["given"]),
        (spec["eliminations"], PALETTE["elimination_bg"], PALETTE["elimination"]),
        (spec["placements"], PALETTE["placement_bg"], PALETTE["placement"]),
    ):
        for s, d in pairs:
            marks[(s, d)] = (bg, fg)

    placed = {s: d for s, d in spec["placements"] if grid.values[s] == d}
    radius = min(sub_w, sub_h) * 0.46
    symbols = g.symbols
    for s in g.cells:
        if grid.values[s]:
            continue
        shown = set(digits_of(candidates.masks[s])) if candidates is not None else set()
        shown |= {d for (c, d) in marks if c == s}
        for d in sorted(shown):
            x, y = spot(s, d)
            colour = PALETTE["candidate"]
            if (s, d) in marks:
                bg, colour = marks[(s, d)]
                items.append(Circle(x, y, radius, bg))
            items.append(Text(x, y, symbols[d - 1], cand_size, colour, bold=(s, d) in marks))

    digit_size = cs * 0.6
    for s in g.cells:
        v = grid.values[s]
        if not v:
            continue
        x, y = corner(s)
        given = solution_of is None or bool(solution_of.values[s])
        colour = PALETTE["given"] if given else PALETTE["solved"]
        if s in placed:
            items.append(Circle(x + cs / 2, y + cs / 2, cs * 0.4, PALETTE["placement_bg"]))
            colour = PALETTE["placement"]
        items.append(Text(x + cs / 2, y + cs / 2, symbols[v - 1], digit_size, colour, bold=given, role=f"cell-{s}"))

    # links: straight when clear, else curved around the digits and candidates in their way
    obstacles = [(x + cs / 2, y + cs / 2, cs * 0.3) for s in g.cells if grid.values[s] for x, y in [corner(s)]]
    for s in g.cells:
        if not grid.values[s]:
            shown = set(digits_of(candidates.masks[s])) if candidates is not None else set()
            shown |= {d for (c, d) in marks if c == s}
            obstacles += [(*spot(s, d), radius * 0.8) for d in sorted(shown)]
    bounds = (ox, oy, ox + side, oy + side)
    for (s1, d1), (s2, d2), strong in spec["links"]:
        p1, p2 = spot(s1, d1), spot(s2, d2)
        if math.hypot(p2[0] - p1[0], p2[1] - p1[1]) < 1e-6:
            continue
        others = [o for o in obstacles if (o[0], o[1]) not in (p1, p2)]
        control = link_path(p1, p2, others, bounds, spot=min(sub_w, sub_h) if s1 == s2 else 0.0)
        # trim both ends to the candidate's disc, along the direction the line leaves it
        trim = radius * (0.85 if s1 == s2 else 1.05)
        a = _toward(p1, control or p2, trim)
        b = _toward(p2, control or p1, trim)
        items.append(
            Arrow(
                *a,
                *b,
                PALETTE["link"],
                max(1.5, cs / 30),
                dashed=not strong,
                cx=control[0] if control else None,
                cy=control[1] if control else None,
            )
        )
    return scene
