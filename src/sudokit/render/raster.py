"""Fast raster frames: a scene painted with pillow, for animations.

The replay paints hundreds of boards; matplotlib takes about 60 ms a board, pillow a few. Pillow does
not antialias shapes, so each frame is painted at twice the size and scaled down (supersampling).
The fonts are matplotlib's bundled DejaVu Sans, so no system font is needed. Single pictures go
through :mod:`.png` (matplotlib), whose text rendering is finer.
"""

from __future__ import annotations

import math
from functools import lru_cache

from sudokit.render.scene import NO_FILL, Arrow, Circle, Line, Polyline, Rect, Scene, Text

SUPERSAMPLE = 2


@lru_cache(maxsize=64)
def _font(size: int, bold: bool):
    from matplotlib import font_manager
    from PIL import ImageFont

    path = font_manager.findfont(font_manager.FontProperties(family="DejaVu Sans", weight="bold" if bold else "normal"))
    return ImageFont.truetype(path, size)


def _dashed(draw, x1, y1, x2, y2, colour, width, on, off) -> None:
    length = math.hypot(x2 - x1, y2 - y1)
    if length == 0:
        return
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    t = 0.0
    while t < length:
        end = min(t + on, length)
        draw.line((x1 + ux * t, y1 + uy * t, x1 + ux * end, y1 + uy * end), fill=colour, width=width)
        t = end + off


def shrink(big, scene: Scene, scale: float = 1.0):
    """Scale a supersampled painting down to the scene's size (this is what antialiases it)."""
    from PIL import Image

    size = (max(1, round(scene.width * scale)), max(1, round(scene.height * scale)))
    if big.size == (size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE):
        return big.reduce(SUPERSAMPLE)  # a box filter: fast, and all an exact 2:1 needs
    return big.resize(size, Image.Resampling.LANCZOS)


def paint(draw, items, k: float) -> None:
    """Paint scene primitives with a pillow ``ImageDraw`` at ``k`` image pixels per scene pixel."""
    for item in items:
        if isinstance(item, Rect):
            draw.rectangle(
                (item.x * k, item.y * k, (item.x + item.w) * k - 1, (item.y + item.h) * k - 1),
                fill=None if item.fill == NO_FILL else item.fill,
                outline=item.stroke,
                width=max(1, round(item.stroke_width * k)) if item.stroke else 0,
            )
        elif isinstance(item, Line):
            w = max(1, round(item.width * k))
            half = w / 2 if item.width >= 2 else 0  # square caps for the thick borders
            dx = half if item.x1 != item.x2 else 0
            dy = half if item.y1 != item.y2 else 0
            draw.line(
                ((item.x1 * k - dx), (item.y1 * k - dy), (item.x2 * k + dx), (item.y2 * k + dy)),
                fill=item.color,
                width=w,
            )
        elif isinstance(item, Circle):
            r = item.r * k
            draw.ellipse(
                (item.cx * k - r, item.cy * k - r, item.cx * k + r, item.cy * k + r),
                fill=None if item.fill == NO_FILL else item.fill,
                outline=item.stroke,
                width=max(1, round(item.stroke_width * k)) if item.stroke else 0,
            )
        elif isinstance(item, Polyline):  # opacity is not painted: the frames are opaque
            w = max(1, round(item.width * k))
            points = [(x * k, y * k) for x, y in item.points]
            for (xa, ya), (xb, yb) in zip(points, points[1:]):
                if item.dash:
                    _dashed(draw, xa, ya, xb, yb, item.color, w, item.dash[0] * k, item.dash[1] * k)
                else:
                    draw.line((xa, ya, xb, yb), fill=item.color, width=w)
            if not item.dash and w > 2:  # round joins and ends
                for x, y in points:
                    draw.ellipse((x - w / 2, y - w / 2, x + w / 2, y + w / 2), fill=item.color)
        elif isinstance(item, Text):
            font = _font(max(1, round(item.size * k)), item.bold)
            anchor = "lm" if item.anchor == "start" else "mm"
            draw.text((item.x * k, item.y * k), item.text, fill=item.color, font=font, anchor=anchor)
        elif isinstance(item, Arrow):
            w = max(1, round(item.width * k))
            points = [(x * k, y * k) for x, y in item.points()]
            (ax, ay), (x2, y2) = points[-2], points[-1]
            length = math.hypot(x2 - ax, y2 - ay) or 1.0
            ux, uy = (x2 - ax) / length, (y2 - ay) / length
            head = w * 4
            bx, by = x2 - ux * head, y2 - uy * head
            points[-1] = (bx, by)
            for (xa, ya), (xb, yb) in zip(points, points[1:]):
                if item.dashed:
                    _dashed(draw, xa, ya, xb, yb, item.color, w, w * 3, w * 2)
                else:
                    draw.line((xa, ya, xb, yb), fill=item.color, width=w)
            draw.polygon(
                [(x2, y2), (bx - uy * head / 2, by + ux * head / 2), (bx + uy * head / 2, by - ux * head / 2)],
                fill=item.color,
            )
