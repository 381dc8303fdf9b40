"""Boards as SVG text: for files, web pages and Jupyter (``Grid._repr_svg_`` calls :func:`board_svg`)."""

from __future__ import annotations

from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

from sudokit.grid import Candidates, Grid
from sudokit.render.highlight import Highlight
from sudokit.render.scene import FONT, Arrow, Circle, Line, Polyline, Rect, Scene, Text, board_scene

if TYPE_CHECKING:
    from sudokit.constraints import VariantPuzzle


def _num(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _stroke(item: Rect | Circle) -> str:
    if item.stroke is None:
        return ""
    return f' stroke="{item.stroke}" stroke-width="{_num(item.stroke_width)}"'


def scene_svg(scene: Scene, title: str | None = None) -> str:
    """The SVG document of a laid-out scene."""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{scene.width}" height="{scene.height}" '
        f'viewBox="0 0 {scene.width} {scene.height}" font-family={quoteattr(FONT)}>'
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    markers = {item.color for item in scene.items if isinstance(item, Arrow)}
    if markers:
        out.append("<defs>")
        for i, colour in enumerate(sorted(markers)):
            out.append(
                f'<marker id="arrow{i}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" '
                f'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>'
            )
        out.append("</defs>")
    marker_id = {colour: f"arrow{i}" for i, colour in enumerate(sorted(markers))}
    for item in scene.items:
        if isinstance(item, Rect):
            ident = f' id="{item.role}"' if item.role else ""
            out.append(
                f'<rect{ident} x="{_num(item.x)}" y="{_num(item.y)}" width="{_num(item.w)}" height="{_num(item.h)}" '
                f'fill="{item.fill}"{_stroke(item)}/>'
            )
        elif isinstance(item, Line):
            out.append(
                f'<line x1="{_num(item.x1)}" y1="{_num(item.y1)}" x2="{_num(item.x2)}" y2="{_num(item.y2)}" '
                f'stroke="{item.color}" stroke-width="{_num(item.width)}" stroke-linecap="square"/>'
            )
        elif isinstance(item, Circle):
            centre = f'cx="{_num(item.cx)}" cy="{_num(item.cy)}" r="{_num(item.r)}"'
            out.append(f'<circle {centre} fill="{item.fill}"{_stroke(item)}/>')
        elif isinstance(item, Polyline):
            points = " ".join(f"{_num(x)},{_num(y)}" for x, y in item.points)
            extra = f' stroke-opacity="{_num(item.opacity)}"' if item.opacity < 1 else ""
            if item.dash:
                extra += f' stroke-dasharray="{_num(item.dash[0])},{_num(item.dash[1])}"'
            out.append(
                f'<polyline points="{points}" fill="none" stroke="{item.color}" stroke-width="{_num(item.width)}" '
                f'stroke-linecap="{"butt" if item.dash else "round"}" stroke-linejoin="round"{extra}/>'
            )
        elif isinstance(item, Text):
            weight = ' font-weight="bold"' if item.bold else ""
            ident = f' id="{item.role}"' if item.role else ""
            out.append(
                f'<text{ident} x="{_num(item.x)}" y="{_num(item.y)}" font-size="{_num(item.size)}" '
                f'fill="{item.color}"{weight} text-anchor="{item.anchor}" dominant-baseline="central">'
                f"{escape(item.text)}</text>"
            )
        elif isinstance(item, Arrow):
            dash = f' stroke-dasharray="{_num(item.width * 3)},{_num(item.width * 2)}"' if item.dashed else ""
            if item.cx is None or item.cy is None:
                d = f"M{_num(item.x1)},{_num(item.y1)} L{_num(item.x2)},{_num(item.y2)}"
            else:
                d = f"M{_num(item.x1)},{_num(item.y1)} Q{_num(item.cx)},{_num(item.cy)} {_num(item.x2)},{_num(item.y2)}"
            kind = "weak" if item.dashed else "strong"
            out.append(
                f'<path class="link {kind}" d="{d}" fill="none" stroke="{item.color}" '
                f'stroke-width="{_num(item.width)}"{dash} marker-end="url(#{marker_id[item.color]})"/>'
            )
    out.append("</svg>")
    return "\n".join(out)


def board_svg(
    grid: Grid,
    candidates: Candidates | None = None,
    highlight: Highlight | dict | None = None,
    solution_of: Grid | None = None,
    cell_size: float | None = None,
    coordinates: bool = True,
    puzzle: VariantPuzzle | None = None,
) -> str:
    """An SVG picture of ``grid`` for any geometry (see :func:`~sudokit.render.scene.board_scene`); with
    ``puzzle``, its constraints drawn."""
    scene = board_scene(grid, candidates, highlight, solution_of, cell_size, coordinates, puzzle)
    title = puzzle.title if puzzle is not None and puzzle.title else f"{grid.geometry.name} {grid.to_line()}"
    return scene_svg(scene, title=title)


def variant_svg(puzzle: VariantPuzzle, solution: Grid | None = None, **options) -> str:
    """An SVG of a variant puzzle: its givens (or ``solution``, givens bold) and every constraint drawn."""
    if solution is not None:
        return board_svg(solution, solution_of=puzzle.givens, puzzle=puzzle, **options)
    return board_svg(puzzle.givens, puzzle=puzzle, **options)


def candidates_svg(candidates: Candidates, highlight: Highlight | dict | None = None) -> str:
    """An SVG of a candidates grid alone: single-candidate cells as digits, the others as pencil marks."""
    return board_svg(candidates.to_grid(), candidates, highlight)
