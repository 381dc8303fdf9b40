"""Turn request bodies into puzzles, variants and numbers, or a clear 4xx error.

Every field a request may carry is checked here: its type, its length, its range. Puzzle text is read
with the library's own parser (so the page accepts what the command line accepts) and errors keep the
parser's line and column.
"""

from __future__ import annotations

import csv
import json
import os
import re
from functools import lru_cache
from typing import Any

from sudokit.errors import ParseError, SudokitError
from sudokit.geometry import BOX_SHAPES, Geometry, from_name
from sudokit.grid import Grid

#: Largest request body accepted, in bytes.
MAX_BODY = 1 << 20
#: Longest puzzle field: a 25x25 grid drawn with frames and spaces fits easily.
MAX_PUZZLE_CHARS = 20_000
#: Longest variant name (a jigsaw map of a 25x25 board is 625 symbols plus the prefix).
MAX_VARIANT_CHARS = 2_000
#: Largest board the API serves (the engine works beyond, but the page and time limits are sized for this).
MAX_SIZE = 25
#: How far into a pasted or uploaded file puzzles are counted.
MAX_SCAN = 1_000
#: Largest solution count a request may ask for.
MAX_COUNT_LIMIT = 100_000


@lru_cache(maxsize=128)
def cached_geometry(variant: str, n_cells: int | None = None) -> Geometry:
    """:func:`sudokit.geometry.from_name`, remembered: a geometry is immutable, and building one (with its
    peers and labels) costs more than the rest of a request."""
    return from_name(variant, n_cells)


class ApiError(Exception):
    """A request the API refuses: HTTP ``status`` and a message for people."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers


def bad(message: str) -> ApiError:
    """A 400 error."""
    return ApiError(400, message)


def decode_body(raw: bytes) -> dict[str, Any]:
    """The JSON object of a request body (an empty body is an empty object)."""
    if len(raw) > MAX_BODY:
        raise ApiError(413, f"request body too large: at most {MAX_BODY} bytes")
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise bad("request body is not UTF-8 text") from None
    except (ValueError, RecursionError) as exc:  # ValueError: also an integer over 4,300 digits
        raise bad(f"request body is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise bad("request body must be a JSON object")
    _refuse_surrogates(data)
    return data


#: A UTF-16 surrogate: JSON may spell one alone (``"\\ud800"``), but it is no character of any text.
_SURROGATE = re.compile("[\ud800-\udfff]")


def _refuse_surrogates(data: Any) -> None:
    """400 when a string (or key) anywhere in the decoded body holds a lone surrogate."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str) and _SURROGATE.search(value):
            raise bad("request body holds a lone UTF-16 surrogate (\\ud800-\\udfff), which is not text")


def text_field(body: dict[str, Any], name: str, max_chars: int, default: str | None = None) -> str:
    """A string field, present (unless it has a default) and at most ``max_chars`` long."""
    value = body.get(name, default)
    if value is None:
        raise bad(f"missing field {name!r}")
    if not isinstance(value, str):
        raise bad(f"field {name!r} must be a string")
    if len(value) > max_chars:
        raise bad(f"field {name!r} is too long: at most {max_chars} characters")
    return value


def int_field(body: dict[str, Any], name: str, default: int, low: int, high: int) -> int:
    """An integer field within ``low..high``."""
    value = body.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad(f"field {name!r} must be an integer")
    if not low <= value <= high:
        raise bad(f"field {name!r} must be between {low} and {high}")
    return value


def variant_name(body: dict[str, Any]) -> str:
    """The ``variant`` field (``standard`` when absent). Variant names are ASCII: ``²x3`` or Arabic-Indic
    digits are no board shape."""
    name = text_field(body, "variant", MAX_VARIANT_CHARS, "standard").strip() or "standard"
    if not name.isascii():
        raise bad(f"unknown variant {name[:40]!r}: variant names are plain ASCII (standard, diagonal, 6x6, jigsaw:MAP)")
    return name


def _number(text: str) -> bool:
    """True for a plain decimal number (``str.isdigit`` alone also takes ``²`` and other scripts' digits)."""
    return text.isascii() and text.isdigit()


def geometry_of(variant: str, n_cells: int | None = None) -> Geometry:
    """The geometry a variant names, at the size of ``n_cells`` when the name leaves it open."""
    shape = variant.strip().lower().split("x")
    if len(shape) == 2 and all(_number(p) for p in shape):
        # refuse big shapes before anything is built: "9999x9999" must not allocate a board
        r, c = (int(p) for p in shape)
        size = r if r == c and r in BOX_SHAPES else r * c
        if size > MAX_SIZE:
            raise bad(f"boards larger than {MAX_SIZE}x{MAX_SIZE} are not served")
    try:
        geometry = cached_geometry(variant, n_cells)
    except (SudokitError, ValueError) as exc:
        raise bad(str(exc)) from None
    if geometry.size > MAX_SIZE:
        raise bad(f"boards larger than {MAX_SIZE}x{MAX_SIZE} are not served")
    return geometry


def board_geometry(variant: str, size: int) -> Geometry:
    """The geometry of a variant on a board of ``size`` digits (the size is ignored when the name fixes it)."""
    if fixed_size(variant):
        return geometry_of(variant)
    if size not in BOX_SHAPES:
        raise bad(f"no standard board has {size} digits; known sizes: {sorted(BOX_SHAPES)}")
    return geometry_of(variant, size * size)


def fixed_size(variant: str) -> bool:
    """True when the variant name fixes the board size by itself (a size, a box shape, a jigsaw map)."""
    low = variant.lower()
    return low.startswith("jigsaw:") or "x" in low and all(_number(p) for p in low.split("x"))


def parse_puzzle(text: str, variant: str = "standard") -> Grid:
    """Read puzzle text (any single-grid layout) as a puzzle of ``variant``; 400 with the reason if not."""
    if not text.strip():
        raise bad("the puzzle is empty")
    try:
        if fixed_size(variant):
            return _read(text, geometry_of(variant))
        grid = _read(text, None)
        geometry = geometry_of(variant, grid.geometry.n_cells)
        return grid if geometry == grid.geometry else Grid(geometry, grid.values)
    except ParseError as exc:
        raise bad(exc.describe()) from None
    except (SudokitError, ValueError, csv.Error) as exc:
        raise bad(f"puzzle: {exc}") from None


def _read(text: str, geometry: Geometry | None) -> Grid:
    from sudokit.formats import parse_grid

    grid = parse_grid(text, geometry=geometry, source="puzzle")
    if grid.geometry.size > MAX_SIZE:
        raise bad(f"boards larger than {MAX_SIZE}x{MAX_SIZE} are not served")
    return grid


def puzzle_field(body: dict[str, Any]) -> Grid:
    """The ``puzzle`` and ``variant`` fields as a grid."""
    return parse_puzzle(text_field(body, "puzzle", MAX_PUZZLE_CHARS), variant_name(body))


def parse_text(text: str, variant: str = "standard", name: str = "", index: int = 0) -> tuple[Grid, int]:
    """Puzzle number ``index`` of pasted or uploaded text in any supported layout, and how many it holds
    (counted up to :data:`MAX_SCAN`).

    ``name`` (an uploaded file's name) only helps guess the layout from its extension.
    """
    from sudokit.formats import entries_from_text

    if not text.strip():
        raise bad("the text is empty")
    geometry = geometry_of(variant) if fixed_size(variant) else None
    source = os.path.basename(name.replace("\\", "/")) or "<text>"
    chosen = None
    first_error = None
    found = 0
    try:
        for entry in entries_from_text(text, geometry=geometry, source=source):
            if entry.error is not None:
                first_error = first_error or entry.error
                continue
            if found == index:
                chosen = entry.grid
            found += 1
            if found >= MAX_SCAN and chosen is not None:
                break
    except (SudokitError, ValueError, csv.Error) as exc:  # csv.Error: a bare CR, a field over 131,072 characters
        raise bad(f"{source}: {exc}") from None
    if chosen is None:
        if first_error is not None and found == 0:
            raise bad(first_error.describe() if isinstance(first_error, ParseError) else str(first_error))
        raise bad(f"no puzzle number {index + 1} in the text ({found} found)" if found else "no puzzle in the text")
    if chosen.geometry.size > MAX_SIZE:
        raise bad(f"boards larger than {MAX_SIZE}x{MAX_SIZE} are not served")
    if geometry is None:
        wanted = geometry_of(variant, chosen.geometry.n_cells)
        if wanted != chosen.geometry:
            chosen = Grid(wanted, chosen.values)
    return chosen, found


#: Most items a highlight list may hold.
MAX_HIGHLIGHT_ITEMS = 10_000


def _index(value: Any, high: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < high:
        raise bad(f"highlight: {what} {value!r} is not an integer 0..{high - 1}")
    return value


def _pair(value: Any, g: Geometry) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise bad(f"highlight: {value!r} is not a [cell, digit] pair")
    digit = value[1]
    if isinstance(digit, bool) or not isinstance(digit, int) or not 1 <= digit <= g.size:
        raise bad(f"highlight: digit {digit!r} is not 1..{g.size}")
    return _index(value[0], g.n_cells, "cell"), digit


def highlight_field(body: dict[str, Any], g: Geometry) -> dict[str, list] | None:
    """Optional ``highlight``: what to mark on a picture, in the shape of ``Step.highlight()``."""
    spec = body.get("highlight")
    if spec is None:
        return None
    if not isinstance(spec, dict):
        raise bad("field 'highlight' must be an object")
    out: dict[str, list] = {}
    for key, items in spec.items():
        if not isinstance(items, list) or len(items) > MAX_HIGHLIGHT_ITEMS:
            raise bad(f"highlight: {key!r} must be a list of at most {MAX_HIGHLIGHT_ITEMS} items")
        if key == "cells":
            out[key] = [_index(s, g.n_cells, "cell") for s in items]
        elif key == "units":
            out[key] = [_index(u, len(g.units), "unit") for u in items]
        elif key in ("candidates", "eliminations", "placements"):
            out[key] = [_pair(p, g) for p in items]
        elif key == "links":
            links = []
            for link in items:
                if not isinstance(link, list) or len(link) != 3 or not isinstance(link[2], bool):
                    raise bad(f"highlight: link {link!r} is not [[cell, digit], [cell, digit], strong]")
                links.append((_pair(link[0], g), _pair(link[1], g), link[2]))
            out[key] = links
        else:
            raise bad(f"highlight: unknown key {key!r}")
    return out
