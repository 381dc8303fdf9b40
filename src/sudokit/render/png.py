"""Boards as PNG, painted with matplotlib's Agg canvas.

Why matplotlib: it is already a dependency (for the plots), its wheels bundle everything they need
(Agg rasteriser, FreeType, the DejaVu fonts), so a PNG needs no system library; and it draws
antialiased text, dashed lines and arrow heads itself. SVG rasterisers on PyPI either wrap a system
library (cairosvg needs libcairo) or add a native dependency for what matplotlib already does.
The PNG is painted from the same :class:`~sudokit.render.scene.Scene` as the SVG, so the two agree.
"""

from __future__ import annotations

import io
from pathlib import Path

from sudokit.grid import Candidates, Grid
from sudokit.render.highlight import Highlight
from sudokit.render.scene import Arrow, Circle, Line, Polyline, Rect, Scene, Text, board_scene

#: Pixels per inch of the canvas; text sizes are converted from pixels to points with it.
DPI = 100


def scene_figure(scene: Scene, scale: float = 1.0):
    """A matplotlib ``Figure`` (no pyplot state) painting ``scene`` at ``scale`` pixels per scene pixel."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.collections import LineCollection
    from matplotlib.figure import Figure
    from matplotlib.patches import Circle as MplCircle
    from matplotlib.patches import FancyArrowPatch, Rectangle
    from matplotlib.path import Path as MplPath

    fig = Figure(figsize=(scene.width * scale / DPI, scene.height * scale / DPI), dpi=DPI)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, scene.width)
    ax.set_ylim(scene.height, 0)
    ax.set_axis_off()
    pt = 72 / DPI * scale  # points per scene pixel
    runs = _polyline_runs(scene.items)
    for z, item in enumerate(scene.items):
        if isinstance(item, Polyline):
            run = runs.get(z)
            if run is None:  # painted with the first of its run
                continue
            style = (0, (item.dash[0] / item.width, item.dash[1] / item.width)) if item.dash else "solid"
            lines = LineCollection(
                [p.points for p in run],
                colors=item.color,
                linewidths=item.width * pt,
                alpha=item.opacity,
                linestyles=[style],
                capstyle="butt" if item.dash else "round",
                joinstyle="round",
                zorder=z,
            )
            ax.add_collection(lines)
        elif isinstance(item, Rect):
            ax.add_patch(
                Rectangle(
                    (item.x, item.y),
                    item.w,
                    item.h,
                    facecolor=item.fill,
                    edgecolor=item.stroke or "none",
                    linewidth=item.stroke_width * pt,
                    zorder=z,
                )
            )
        elif isinstance(item, Line):
            ax.plot(
                (item.x1, item.x2),
                (item.y1, item.y2),
                color=item.color,
                linewidth=item.width * pt,
                solid_capstyle="projecting",
                zorder=z,
            )
        elif isinstance(item, Circle):
            ax.add_patch(
                MplCircle(
                    (item.cx, item.cy),
                    item.r,
                    facecolor=item.fill,
                    edgecolor=item.stroke or "none",
                    linewidth=item.stroke_width * pt,
                    zorder=z,
                )
            )
        elif isinstance(item, Text):
            ax.text(
                item.x,
                item.y,
                item.text,
                fontsize=item.size * pt,
                color=item.color,
                fontweight="bold" if item.bold else "normal",
                ha="left" if item.anchor == "start" else "center",
                va="center_baseline",
                family="DejaVu Sans",
                zorder=z,
            )
        elif isinstance(item, Arrow):
            if item.cx is None or item.cy is None:
                path = MplPath([(item.x1, item.y1), (item.x2, item.y2)], [MplPath.MOVETO, MplPath.LINETO])
            else:
                path = MplPath(
                    [(item.x1, item.y1), (item.cx, item.cy), (item.x2, item.y2)],
                    [MplPath.MOVETO, MplPath.CURVE3, MplPath.CURVE3],
                )
            ax.add_patch(
                FancyArrowPatch(
                    path=path,
                    arrowstyle="-|>",
                    mutation_scale=item.width * 5 * pt,
                    color=item.color,
                    linewidth=item.width * pt,
                    linestyle=(0, (3, 2)) if item.dashed else "solid",
                    zorder=z,
                )
            )
    return fig


def _polyline_runs(items: list) -> dict[int, list[Polyline]]:
    """Consecutive polylines of one style (a cage's dashed sides, an arrow's shaft and head) painted as one
    collection: index of the first -> the run. A killer's hundred cage sides then cost one artist, not a
    hundred."""
    runs: dict[int, list[Polyline]] = {}
    start = None
    for z, item in enumerate(items):
        key = (item.color, item.width, item.opacity, item.dash) if isinstance(item, Polyline) else None
        if key is None:
            start = None
            continue
        first = items[start] if start is not None else None
        if first is not None and (first.color, first.width, first.opacity, first.dash) == key:
            runs[start].append(item)
        else:
            start = z
            runs[z] = [item]
    return runs


def scene_png(scene: Scene, scale: float = 1.0) -> bytes:
    """PNG bytes of a scene; the image is ``round(width * scale)`` x ``round(height * scale)`` pixels."""
    fig = scene_figure(scene, scale)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, facecolor="white")
    return buf.getvalue()


def board_png(
    grid: Grid,
    candidates: Candidates | None = None,
    highlight: Highlight | dict | None = None,
    solution_of: Grid | None = None,
    scale: float = 1.0,
    cell_size: float | None = None,
    coordinates: bool = True,
    puzzle=None,
) -> bytes:
    """PNG bytes of a board (same layout as :func:`~sudokit.render.svg.board_svg`); ``scale=2`` for print;
    ``puzzle``: a variant puzzle whose constraints are drawn."""
    return scene_png(board_scene(grid, candidates, highlight, solution_of, cell_size, coordinates, puzzle), scale)


def save_board(path: str | Path, grid: Grid, **options) -> Path:
    """Write a board to ``path``: SVG or PNG chosen by the suffix (``.svg``/``.png``)."""
    from sudokit.errors import SudokitError
    from sudokit.render.svg import board_svg

    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".svg":
        options.pop("scale", None)
        path.write_text(board_svg(grid, **options), encoding="utf-8")
    elif suffix == ".png":
        path.write_bytes(board_png(grid, **options))
    else:
        raise SudokitError(f"{path}: choose a .svg or .png file name")
    return path
