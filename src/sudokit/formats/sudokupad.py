"""SudokuPad's own puzzle format: ``scl…`` / ``ctc…`` payloads and the JSON inside them.

A SudokuPad link ``https://sudokupad.app/scl…`` (``ctc…`` is the same format under its older name, and
``…/sudoku/…``, ``?puzzleid=…`` and ``/scf?puzzleid=…`` forms occur) carries lz-string ``compressToBase64``
of SudokuPad's puzzle JSON, nearly always *zipped*: keys shortened (``cells`` -> ``ce``, ``wayPoints`` ->
``wp``, … :data:`SHORT_KEYS`), keys unquoted, ``'`` for ``"``, empty objects left out (``[,,]``), ``t``/``f``
for true/false and colours without their ``#``. :func:`unzip` and :func:`zip_json` undo and redo that.

SudokuPad's JSON is a *drawing*: cells with givens, regions, cages (with their sums), lines, arrows, and
overlay/underlay shapes with text. sudokit reads the rules back from the way SudokuPad draws the f-puzzles
constraints (its f-puzzles importer: grey thermometers with a round bulb, grey arrows from a circled bulb,
Kropki dots as small round overlays on an edge, X/V as text on an edge, grey circles and squares for odd and
even, little-killer arrows and sums outside the grid, …) and the way Sudoku Maker draws the same kinds:
:func:`sudokupad_to_fpuzzles` turns the drawing into an f-puzzles object, read as any other
(:func:`~sudokit.formats.fpuzzles.read_fpuzzles`), so both formats give the same constraints.
:func:`fpuzzles_to_sudokupad` draws an f-puzzles object the same way; lines that SudokuPad's importer has no
colour for get the colours of :data:`LINE_COLOURS`, and the kinds no drawing tells apart (:data:`NOT_DRAWN`)
travel as f-puzzles fields in ``metadata["sudokit"]``, so every puzzle round-trips. A shape that no known
constraint is drawn as is an error naming it (``SudokuPad lines[3] (a line; color '#ff0000', thickness 5):
…``), never dropped; rules SudokuPad only states in the rules text (anti-knight and the like) are read from
the ``metadata`` flags sudokit and SudokuPad's importer write, not from the text.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from typing import Any

from sudokit.errors import SudokitError

SCL_URL = "https://sudokupad.app/scl"

#: SudokuPad's short keys (its puzzle zipper), long name -> short name.
SHORT_KEYS = {
    "color": "c",
    "cages": "ca",
    "center": "ct",
    "borderColor": "c1",
    "backgroundColor": "c2",
    "cells": "ce",
    "cellSize": "cs",
    "arrows": "a",
    "overlays": "o",
    "underlays": "u",
    "width": "w",
    "height": "h",
    "value": "v",
    "videos": "vd",
    "lines": "l",
    "rounded": "r",
    "regions": "re",
    "fontSize": "fs",
    "thickness": "th",
    "headLength": "hl",
    "wayPoints": "wp",
    "title": "t",
    "text": "te",
    "duration": "d",
}
LONG_KEYS = {short: long for long, short in SHORT_KEYS.items()}

#: Line colours: SudokuPad's importer draws thermometers (thick) and palindromes (medium) in this grey, and
#: between lines thin with a circle at each end.
GREY = "#cfcfcf"
#: f-puzzles' own line colours, used for the lines SudokuPad's importer does not draw (sudokit writes and
#: reads these): kind -> colour.
LINE_COLOURS = {
    "doublearrow": "#a8a8ff",
    "renban": "#f067f0",
    "whispers": "#67f067",
    "regionsumline": "#2ecbff",
    "zipperline": "#ffcf3f",
    "modularline": "#ff9f40",
    "entropicline": "#ff6f6f",
    "slowthermometer": "#b0b0b0",
}
ARROW_GREY = "#a1a1a1"
DIAGONAL_BLUE = "#34bbe6"
#: Line thickness (SudokuPad pixels, a cell is 64) of each grey line kind.
THERMO_WIDTH, PALINDROME_WIDTH, COLOURED_WIDTH = 21, 16, 10

#: Top-level fields of SudokuPad's JSON that carry no rule.
COSMETIC = frozenset(
    {"id", "cellSize", "settings", "metadata", "metaData", "solution", "videos", "duration", "title", "author", "rules"}
)


# ---- zipped JSON -------------------------------------------------------------------------------------------
def unzip(text: str) -> str:
    """SudokuPad's zipped JSON text as plain JSON text (plain JSON comes back unchanged)."""
    if '"' not in text:  # quotes were swapped for ' (and ' escaped as \')
        text = text.replace("\\'", "\0").replace("'", '"').replace("\0", "'")
    text = re.sub(r"([,{\[])([a-zA-Z0-9]+):", r'\1"\2":', text)
    text = re.sub(r"([,{\[])(?=[,}\]])", r"\1_", text)
    text = text.replace("{_}", "{}")
    text = re.sub(r"([,{\[])_", r"\1{}", text)
    text = re.sub(r":f(?=[,}\]])", ":false", text)
    text = re.sub(r":t(?=[,}\]])", ":true", text)
    text = re.sub(r":#0(?=[,}\]])", ':"#000000"', text)
    text = re.sub(r":#F(?=[,}\]])", ':"#FFFFFF"', text)
    return re.sub(r":([0-9a-fA-F]{6})(?=[,}\]])", r':"#\1"', text)


def _renamed(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, list):
        return [_renamed(v, names) for v in value]
    if isinstance(value, dict):
        return {names.get(k, k): _renamed(v, names) for k, v in value.items()}
    return value


def _cleared(value: Any) -> Any:
    """Empty lists left out (the zipper cannot tell ``[]`` from ``[{}]``), numeric strings as numbers."""
    if isinstance(value, list):
        return [_cleared(v) for v in value]
    if isinstance(value, dict):
        return {k: _cleared(v) for k, v in value.items() if v != []}
    if isinstance(value, str) and re.fullmatch(r"-?[1-9][0-9]*|0", value):
        return int(value)
    return value


def zip_json(obj: dict) -> str:
    """SudokuPad's zipped text of a puzzle object (what follows ``scl`` once compressed)."""
    text = json.dumps(_renamed(_cleared(obj), SHORT_KEYS), separators=(",", ":"), ensure_ascii=False)
    text = re.sub(r'([,{\[])"([a-zA-Z0-9]+)":', r"\1\2:", text)
    text = re.sub(r"([,{\[])\{\}(?=[,}\]])", r"\1", text)
    text = re.sub(r":false(?=[,}\]])", ":f", text)
    text = re.sub(r":true(?=[,}\]])", ":t", text)
    text = re.sub(r':"#000000"(?=[,}\]])', ":#0", text)
    text = re.sub(r':"#FFFFFF"(?=[,}\]])', ":#F", text)
    text = re.sub(r':"#([0-9a-fA-F]{6})"(?=[,}\]])', r":\1", text)
    return text.replace("'", "\\'").replace('"', "'")


def decode_payload(payload: str) -> dict:
    """The puzzle object of an ``scl`` / ``ctc`` payload (the part after the prefix)."""
    from sudokit.formats.fpuzzles import decompress

    return parse_json(decompress(payload), "SudokuPad payload")


def parse_json(text: str, what: str = "SudokuPad JSON") -> dict:
    """The puzzle object (long keys) of SudokuPad's JSON text, zipped or plain."""
    text = text.strip()
    try:
        obj = json.loads(text)
    except json.JSONDecodeError:
        try:
            obj = json.loads(unzip(text))
        except json.JSONDecodeError as exc:
            raise SudokitError(f"{what}: not SudokuPad JSON (column {exc.colno}: {exc.msg})") from None
    if not isinstance(obj, dict):
        raise SudokitError(f"{what}: a puzzle is a JSON object, got {type(obj).__name__}")
    return _renamed(obj, LONG_KEYS)


def is_sudokupad(obj: dict) -> bool:
    """True for SudokuPad's JSON (``cells`` or ``ce`` rows), as opposed to f-puzzles' (``size`` and ``grid``)."""
    return isinstance(obj.get("cells", obj.get("ce")), list) and "grid" not in obj


def encode_payload(obj: dict) -> str:
    """``scl`` + the compressed zipped text: the payload of a SudokuPad link."""
    from sudokit.formats.fpuzzles import compress

    return "scl" + compress(zip_json(obj))


# ---- reading the drawing -----------------------------------------------------------------------------------
def _colour(value: Any) -> str | None:
    """``#rrggbb`` (lower case) of a colour as SudokuPad writes it (``#abc``, ``#rrggbbaa``, ``rgba(…)``)."""
    if not isinstance(value, str):
        return None
    v = value.strip().lower()
    m = re.fullmatch(r"rgba?\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*(?:,\s*[\d.]+\s*)?\)", v)
    if m:
        return "#" + "".join(f"{min(255, int(x)):02x}" for x in m.groups())
    if re.fullmatch(r"#[0-9a-f]{3,4}", v):
        return "#" + "".join(ch * 2 for ch in v[1:4])
    if re.fullmatch(r"#[0-9a-f]{6}([0-9a-f]{2})?", v):
        return v[:7]
    if re.fullmatch(r"[0-9a-f]{6}", v):
        return "#" + v
    return {"black": "#000000", "white": "#ffffff"}.get(v)


def _dark(colour: str | None) -> bool:
    if colour is None:
        return False
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return r + g + b < 200


def _near(a: float, b: float, eps: float = 0.06) -> bool:
    return abs(a - b) <= eps


def _num(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        if isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                raise SudokitError(f"SudokuPad {where}: expected a number, got {value!r}") from None
        else:
            raise SudokitError(f"SudokuPad {where}: expected a number, got {value!r}")
    if not math.isfinite(value) or abs(value) > 1e6:
        raise SudokitError(f"SudokuPad {where}: expected a number of cells, got {value!r}")
    return float(value)


class _Drawing:
    """Reads one SudokuPad puzzle object into an f-puzzles object; errors name the item
    (``SudokuPad overlays[4]``)."""

    def __init__(self, obj: dict) -> None:
        self.obj = obj
        rows = obj.get("cells")
        if not isinstance(rows, list) or not rows or any(not isinstance(r, list) for r in rows):
            raise SudokitError("SudokuPad field 'cells': expected rows of cell objects")
        self.n = n = len(rows)
        if any(len(r) != n for r in rows):
            raise SudokitError(f"SudokuPad field 'cells': {n} rows, so every row needs {n} cells (a square grid)")
        if not 1 <= n <= 35:
            raise SudokitError(f"SudokuPad field 'cells': a {n}x{n} grid is not supported")
        self.out: dict = {"size": n}
        self.used: set[tuple[str, int]] = set()  #: items read as part of another (a bulb, an end circle)
        self.between_ends: list[tuple[int, int]] = []  #: the end cells of between lines
        #: what the carried fields (``metadata["sudokit"]``) draw: (kind, cell names) lines, (cell, value) clues
        self.carried_lines: set[tuple[str, tuple]] = set()
        #: the carried clues' (cell, number), as many times as carried: each skips one drawn number
        self.carried_clues: Counter[tuple[str, str]] = Counter()
        #: the cells of the carried arrows' bulbs: a drawn arrow starting there came with the metadata
        self.carried_bulbs: set[str] = set()

    # geometry of points (SudokuPad points are [row, column] in cells, 0 at the grid's top-left corner)
    def point(self, value: Any, where: str) -> tuple[float, float]:
        if not isinstance(value, list | tuple) or len(value) != 2:
            raise SudokitError(f"SudokuPad {where}: expected a point [row, column], got {value!r}")
        return _num(value[0], where), _num(value[1], where)

    def way_points(self, item: dict, where: str) -> list[tuple[float, float]]:
        """The points of a line or an arrow (``wayPoints``)."""
        raw = item.get("wayPoints") or []
        if not isinstance(raw, list):
            raise SudokitError(f"SudokuPad {where}.wayPoints: expected a list of [row, column] points")
        return [self.point(p, f"{where}.wayPoints[{j}]") for j, p in enumerate(raw)]

    def name(self, r: int, c: int) -> str:
        return f"R{r + 1}C{c + 1}"

    def inside(self, r: int, c: int) -> bool:
        return 0 <= r < self.n and 0 <= c < self.n

    def centre_cell(self, p: tuple[float, float], where: str, outside: bool = False) -> tuple[int, int]:
        """The cell whose centre ``p`` is (within a little)."""
        r, c = math.floor(p[0]), math.floor(p[1])
        if not (_near(p[0], r + 0.5, 0.2) and _near(p[1], c + 0.5, 0.2)):
            raise SudokitError(f"SudokuPad {where}: point {list(p)} is not a cell's centre")
        lo, hi = (-1, self.n) if outside else (0, self.n - 1)
        if not (lo <= r <= hi and lo <= c <= hi):
            raise SudokitError(f"SudokuPad {where}: point {list(p)} is outside the {self.n}x{self.n} grid")
        return r, c

    def edge_cells(self, p: tuple[float, float]) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """The two cells an edge's middle ``p`` lies between, or None when ``p`` is not on an inner edge."""
        r, c = p
        if _near(r, round(r)) and _near(c, math.floor(c) + 0.5):
            a, b = (round(r) - 1, math.floor(c)), (round(r), math.floor(c))
        elif _near(c, round(c)) and _near(r, math.floor(r) + 0.5):
            a, b = (math.floor(r), round(c) - 1), (math.floor(r), round(c))
        else:
            return None
        return (a, b) if self.inside(*a) and self.inside(*b) else None

    def corner_cells(self, p: tuple[float, float]) -> list[tuple[int, int]] | None:
        r, c = p
        if not (_near(r, round(r)) and _near(c, round(c))):
            return None
        cells = [(round(r) + dr, round(c) + dc) for dr in (-1, 0) for dc in (-1, 0)]
        return cells if all(self.inside(*x) for x in cells) else None

    def items(self, field: str) -> list[tuple[int, dict]]:
        value = self.obj.get(field) or []
        if not isinstance(value, list):
            raise SudokitError(f"SudokuPad field '{field}': expected a list, got {type(value).__name__}")
        out = []
        for i, item in enumerate(value):
            if not isinstance(item, dict):
                raise SudokitError(f"SudokuPad {field}[{i}]: expected an object")
            out.append((i, item))
        return out

    def add(self, field: str, item: dict) -> None:
        self.out.setdefault(field, []).append(item)

    def unknown(self, field: str, i: int, item: dict, what: str) -> SudokitError:
        looks = ", ".join(
            f"{k} {item[k]!r}"
            for k in ("color", "backgroundColor", "borderColor", "thickness", "width", "text")
            if k in item and item[k] not in ("", None)
        )
        return SudokitError(
            f"SudokuPad {field}[{i}] ({what}{'; ' + looks if looks else ''}): "
            "no constraint sudokit knows is drawn this way"
        )


def sudokupad_to_fpuzzles(obj: dict) -> dict:
    """The f-puzzles object of a SudokuPad puzzle object (long or short keys; see the module doc for what is
    read)."""
    obj = _renamed(obj, LONG_KEYS)
    d = _Drawing(obj)
    for key, value in obj.items():
        known = COSMETIC | {"cells", "regions", "cages", "lines", "arrows", "overlays", "underlays"}
        if key not in known and value not in (None, False, [], {}, ""):
            raise SudokitError(f"SudokuPad field '{key}': unknown constraint kind")
    _meta(d)
    _grid(d)
    _cages(d)
    bulbs = _arrow_bulbs(d)
    thermo_bulbs: dict[tuple[int, int], list[int]] = {}  # round underlays the size of a thermo's bulb, by cell
    for i, u in d.items("underlays"):
        if u.get("rounded") and _near(_num(u.get("width", 0), f"underlays[{i}].width"), 0.85, 0.1):
            p = d.point(u.get("center"), f"underlays[{i}].center")
            if d.inside(math.floor(p[0]), math.floor(p[1])):
                thermo_bulbs.setdefault((math.floor(p[0]), math.floor(p[1])), []).append(i)
    _lines(d, thermo_bulbs, bulbs)
    clues = _arrows(d, bulbs)
    _overlays(d, clues)
    _underlays(d)
    for (r, c), directions in clues.items():
        if directions:
            raise SudokitError(f"SudokuPad: the little-killer arrow at {d.name(r, c)} has no sum beside it")
    return d.out


def _meta(d: _Drawing) -> None:
    meta: dict = {k: d.obj[k] for k in ("title", "author", "rules") if isinstance(d.obj.get(k), str)}
    for key in ("metaData", "metadata"):
        value = d.obj.get(key)
        if isinstance(value, dict):
            meta.update(value)
    for i, cage in d.items("cages"):  # older puzzles keep title, author and rules in cages without cells
        m = re.match(r"^([^: ]+):\s*([\s\S]+)", str(cage.get("value", "")))
        if not cage.get("cells") and m:
            meta.setdefault(m.group(1), m.group(2))
            d.used.add(("cages", i))
    for src, dst in (("title", "title"), ("author", "author"), ("rules", "ruleset")):
        if meta.get(src):
            d.out[dst] = str(meta[src])
    for flag in ("antiknight", "antiking", "nonconsecutive", "disjointgroups", "diagonal+", "diagonal-"):
        value = meta.get(flag)
        if value in (True, "true", "True", 1, "1"):
            d.out[flag] = True
    carried = meta.get(CARRIED) or {}
    if not isinstance(carried, dict) or any(k not in (*NOT_DRAWN, "whispers", "arrow") for k in carried):
        fields = ", ".join((*NOT_DRAWN, "whispers", "arrow"))
        raise SudokitError(f"SudokuPad metadata '{CARRIED}': expected f-puzzles fields {fields}")
    for field, items in carried.items():
        if not isinstance(items, list):
            raise SudokitError(f"SudokuPad metadata '{CARRIED}.{field}': expected a list")
        d.out[field] = list(items)
        for item in items:
            if not isinstance(item, dict):
                raise SudokitError(f"SudokuPad metadata '{CARRIED}.{field}': expected objects")
            if field == "whispers":
                lines = item.get("lines")
                d.carried_lines |= (
                    {("whispers", tuple(map(str, x))) for x in lines if isinstance(x, list)}
                    if isinstance(lines, list)
                    else set()
                )
            elif field == "arrow":
                bulb = item.get("cells")
                d.carried_bulbs |= {str(x) for x in bulb} if isinstance(bulb, list) else set()
            elif field == "doublearrow":
                lines = item.get("lines")
                d.carried_lines |= (
                    {("doublearrow", tuple(map(str, x))) for x in lines if isinstance(x, list)}
                    if isinstance(lines, list)
                    else set()
                )
            else:
                d.carried_clues[(str(item.get("cell")), str(item.get("value")))] += 1
    negative = meta.get("negative")
    if negative:
        names = negative if isinstance(negative, list) else [x.strip() for x in str(negative).split(",")]
        d.out["negative"] = [str(x) for x in names if x]


def _grid(d: _Drawing) -> None:
    n = d.n
    grid: list[list[dict]] = [[{} for _ in range(n)] for _ in range(n)]
    for r, row in enumerate(d.obj["cells"]):
        for c, cell in enumerate(row):
            if not isinstance(cell, dict):
                raise SudokitError(f"SudokuPad cells[{r}][{c}]: expected a cell object")
            value = cell.get("value")
            if value not in (None, ""):
                if isinstance(value, str) and value.isdigit():
                    value = int(value)
                if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= n:
                    raise SudokitError(f"SudokuPad cells[{r}][{c}].value: expected a digit 1..{n}, got {value!r}")
                grid[r][c] = {"value": value, "given": True}
    regions = d.obj.get("regions")
    if regions:
        if not isinstance(regions, list):
            raise SudokitError("SudokuPad field 'regions': expected a list of cell lists")
        seen: dict[tuple[int, int], int] = {}
        for k, region in enumerate(regions):
            if not isinstance(region, list):
                raise SudokitError(f"SudokuPad regions[{k}]: expected a list of [row, column] cells")
            for j, rc in enumerate(region):
                where = f"regions[{k}][{j}]"
                r, c = (round(x) for x in d.point(rc, where))
                if not d.inside(r, c):
                    raise SudokitError(f"SudokuPad {where}: {rc!r} is not a cell of the {n}x{n} grid")
                if (r, c) in seen:
                    raise SudokitError(f"SudokuPad {where}: cell {d.name(r, c)} is in two regions")
                seen[(r, c)] = k
        for r in range(n):
            for c in range(n):
                grid[r][c]["region"] = seen.get((r, c))
    d.out["grid"] = grid


def _cells(d: _Drawing, value: Any, where: str) -> list[str]:
    if not isinstance(value, list):
        raise SudokitError(f"SudokuPad {where}: expected a list of [row, column] cells")
    out = []
    for j, rc in enumerate(value):
        r, c = (round(x) for x in d.point(rc, f"{where}[{j}]"))
        if not d.inside(r, c):
            raise SudokitError(f"SudokuPad {where}[{j}]: {rc!r} is not a cell of the {d.n}x{d.n} grid")
        out.append(d.name(r, c))
    return out


def _cages(d: _Drawing) -> None:
    for i, cage in d.items("cages"):
        if ("cages", i) in d.used:
            continue
        where = f"cages[{i}]"
        if not cage.get("cells"):
            if cage.get("value") in (None, ""):
                continue  # an empty cage draws nothing
            raise d.unknown("cages", i, cage, "a cage without cells")
        if cage.get("hidden") and not cage.get("unique"):
            continue  # the cells of no region (SudokuPad's form of f-puzzles' region null)
        style = cage.get("style")
        if style not in (None, "", "killer", "box"):
            raise SudokitError(f"SudokuPad {where}.style: cage style {style!r} is not a constraint sudokit knows")
        cells = _cells(d, cage.get("cells"), f"{where}.cells")
        value = cage.get("sum", cage.get("value"))
        if value in (None, ""):
            if cage.get("unique"):
                d.add("killercage", {"cells": cells})
            else:  # SudokuPad's importer draws an extra region as a cage without sum, shaded
                d.add("extraregion", {"cells": cells})
            continue
        if not re.fullmatch(r"\s*\d+\s*", str(value)):
            raise SudokitError(f"SudokuPad {where}.value: a killer cage's sum is a number, got {value!r}")
        d.add("killercage", {"cells": cells, "value": str(int(str(value)))})


def _arrow_bulbs(d: _Drawing) -> dict[tuple[int, int], list[str]]:
    """Arrow bulbs: grey-rimmed round overlays (one cell, or a straight run of cells) and the grey+white
    line pairs SudokuPad draws for other bulbs; each of their cells -> the bulb's cell names."""
    bulbs: dict[tuple[int, int], list[str]] = {}
    for i, o in d.items("overlays"):
        rim = _colour(o.get("borderColor"))
        w, h = (_num(o.get(k, 0), f"overlays[{i}].{k}") for k in ("width", "height"))
        if not (o.get("rounded") and rim == ARROW_GREY and w >= 0.6 and h >= 0.6):
            continue
        cr, cc = d.point(o.get("center"), f"overlays[{i}].center")
        rows = range(math.floor(cr - (h - 0.75) / 2 + 1e-6), math.floor(cr + (h - 0.75) / 2 + 1e-6) + 1)
        cols = range(math.floor(cc - (w - 0.75) / 2 + 1e-6), math.floor(cc + (w - 0.75) / 2 + 1e-6) + 1)
        cells = [(r, c) for r in rows for c in cols]
        if not all(d.inside(*x) for x in cells):
            raise SudokitError(f"SudokuPad overlays[{i}]: an arrow bulb outside the grid")
        names = [d.name(*x) for x in cells]
        for x in cells:
            bulbs[x] = names
        d.used.add(("overlays", i))
    for i, line in d.items("lines"):
        colour = _colour(line.get("color"))
        thick = _num(line.get("thickness", 0), f"lines[{i}].thickness")
        if colour == ARROW_GREY and thick >= 20:
            points = d.way_points(line, f"lines[{i}]")
            cells = [d.centre_cell(p, f"lines[{i}].wayPoints") for p in points]
            names = [d.name(*x) for x in cells]
            for x in cells:
                bulbs[x] = names
            d.used.add(("lines", i))
    for i, line in d.items("lines"):  # the white core of a line-drawn bulb
        if _colour(line.get("color")) == "#ffffff" and ("lines", i) not in d.used:
            points = d.way_points(line, f"lines[{i}]")
            try:
                cells = [d.centre_cell(p, f"lines[{i}]") for p in points]
            except SudokitError:
                continue
            if cells and all(x in bulbs for x in cells):
                d.used.add(("lines", i))
    return bulbs


def _lines(d: _Drawing, thermo_bulbs: dict, bulbs: dict) -> None:
    n = d.n
    by_colour = {colour: kind for kind, colour in LINE_COLOURS.items()}
    between_ends = d.between_ends
    for i, line in d.items("lines"):
        if ("lines", i) in d.used:
            continue
        where = f"lines[{i}]"
        colour = _colour(line.get("color"))
        thick = _num(line.get("thickness", 0), f"{where}.thickness")
        points = d.way_points(line, where)
        if len(points) < 2:
            raise SudokitError(f"SudokuPad {where}: a line needs at least two points")
        ends = {(round(points[0][0]), round(points[0][1])), (round(points[-1][0]), round(points[-1][1]))}
        if (
            len(points) == 2
            and all(_near(x, round(x)) for p in points for x in p)
            and (ends in ({(0, 0), (n, n)}, {(0, n), (n, 0)}))
        ):
            d.out["diagonal-" if (0, 0) in ends else "diagonal+"] = True
            continue
        if colour == GREY and thick <= 4:  # a between line: its ends were pulled back to the circles' rims
            fixed = [points[0], *points[1:-1], points[-1]]
            for k in (0, -1):
                r, c = fixed[k]
                fixed[k] = (math.floor(r) + 0.5, math.floor(c) + 0.5)
            cells = [d.centre_cell(p, f"{where}.wayPoints") for p in fixed]
            between_ends += [cells[0], cells[-1]]
            d.add("betweenline", {"lines": [[d.name(*x) for x in cells]]})
            continue
        cells = [d.centre_cell(p, f"{where}.wayPoints[{j}]") for j, p in enumerate(points)]
        names = [d.name(*x) for x in cells]
        if colour == GREY and thick >= 18:
            if cells[-1] in thermo_bulbs and cells[0] not in thermo_bulbs:
                names.reverse()
            for x in (cells[0], cells[-1]):
                d.used.update(("underlays", k) for k in thermo_bulbs.get(x, ()))
            d.add("thermometer", {"lines": [names]})
        elif colour == GREY and 10 <= thick < 18:
            d.add("palindrome", {"lines": [names]})
        elif colour in by_colour:
            kind = by_colour[colour]
            if (kind, tuple(names)) in d.carried_lines:
                continue  # drawn for the eye; the rule came with the metadata
            if kind == "doublearrow":
                raise d.unknown("lines", i, line, "a double-arrow line without its rule in the metadata")
            if kind == "slowthermometer":
                for x in (cells[0], cells[-1]):
                    d.used.update(("underlays", k) for k in thermo_bulbs.get(x, ()))
            d.add(kind, {"lines": [names]})
        else:
            raise d.unknown("lines", i, line, "a line")


def _arrows(d: _Drawing, bulbs: dict) -> dict[tuple[int, int], list[str]]:
    """Arrow shafts (from a bulb) and little-killer arrows (outside the grid); returns the little killers'
    clue cells with their directions, for the sums among the overlays."""
    clues: dict[tuple[int, int], list[str]] = {}  # a clue cell may hold several, sums drawn in the same order
    arrows: dict[tuple[str, ...], list[list[str]]] = {}
    for i, arrow in d.items("arrows"):
        where = f"arrows[{i}]"
        points = d.way_points(arrow, where)
        if len(points) < 2:
            raise SudokitError(f"SudokuPad {where}: an arrow needs at least two points")
        r, c = math.floor(points[0][0]), math.floor(points[0][1])
        if not d.inside(r, c):  # a little killer: a short diagonal arrow in a clue cell outside the grid
            dr, dc = points[-1][0] - points[0][0], points[-1][1] - points[0][1]
            if abs(abs(dr) - abs(dc)) > 0.05 or dr == 0:
                raise d.unknown("arrows", i, arrow, "an arrow outside the grid that is not diagonal")
            clues.setdefault((r, c), []).append(("D" if dr > 0 else "U") + ("R" if dc > 0 else "L"))
            continue
        start = (r, c)
        if d.name(*start) in d.carried_bulbs:  # an arrow of bulbs sharing a cell: its rule came with the metadata
            continue
        shaft = [d.centre_cell(p, f"{where}.wayPoints[{j}]") for j, p in enumerate(points[1:], 1)]
        bulb = bulbs.get(start, [d.name(*start)])
        line = [d.name(*start), *(d.name(*x) for x in shaft)]
        arrows.setdefault(tuple(bulb), []).append(line)
    for bulb, lines in arrows.items():
        d.add("arrow", {"cells": list(bulb), "lines": lines})
    return clues


def _overlays(d: _Drawing, clues: dict) -> None:
    n = d.n
    ends = set(d.between_ends)
    for i, o in d.items("overlays"):
        if ("overlays", i) in d.used:
            continue
        where = f"overlays[{i}]"
        p = d.point(o.get("center"), f"{where}.center")
        text = str(o.get("text", "")).strip()
        w = _num(o.get("width", 0), f"{where}.width")
        fill, rim = _colour(o.get("backgroundColor")), _colour(o.get("borderColor"))
        edge = d.edge_cells(p)
        if edge and text.upper() in ("X", "V"):
            d.add("xv", {"cells": [d.name(*x) for x in edge], "value": text.upper()})
            continue
        if edge and o.get("rounded") and w <= 0.5 and (text == "" or text.isdigit()):
            item: dict = {"cells": [d.name(*x) for x in edge]}
            if text:
                item["value"] = text
            d.add("ratio" if _dark(fill) else "difference", item)
            continue
        corner = d.corner_cells(p)
        if corner and o.get("rounded") and re.fullmatch(r"[\d\s]+", text or "x"):
            d.add("quadruple", {"cells": [d.name(*x) for x in corner], "values": [int(x) for x in text.split()]})
            continue
        r, c = math.floor(p[0]), math.floor(p[1])
        if o.get("rounded") and rim == GREY and text == "" and (r, c) in ends:
            continue  # a between line's end circle
        outside = not d.inside(r, c) and -1 <= r <= n and -1 <= c <= n
        if outside and re.fullmatch(r"\d+", text):
            cell = d.name(r, c)
            if d.carried_clues[(cell, text)] > 0:  # an X-sum or skyscraper clue: its rule came with the metadata
                d.carried_clues[(cell, text)] -= 1
                continue
            if clues.get((r, c)):
                d.add("littlekillersum", {"cell": cell, "direction": clues[(r, c)].pop(0), "value": text})
            else:
                d.add("sandwichsum", {"cell": cell, "value": text})
            continue
        raise d.unknown("overlays", i, o, f"a shape at {list(p)}")


def _underlays(d: _Drawing) -> None:
    for i, u in d.items("underlays"):
        if ("underlays", i) in d.used:
            continue
        where = f"underlays[{i}]"
        p = d.point(u.get("center"), f"{where}.center")
        w = _num(u.get("width", 0), f"{where}.width")
        h = _num(u.get("height", w), f"{where}.height")
        if _near(w, 1, 0.05) and _near(h, 1, 0.05) and not u.get("rounded") and not u.get("text"):
            continue  # a shaded cell (f-puzzles' cell colours, extra regions): no rule
        if _near(w, 0.7, 0.15) and _near(h, w, 0.05) and not u.get("text"):
            r, c = d.centre_cell(p, where)
            d.add("odd" if u.get("rounded") else "even", {"cell": d.name(r, c)})
            continue
        raise d.unknown("underlays", i, u, f"a shape at {list(p)}")


# ---- writing the drawing -----------------------------------------------------------------------------------
def _rc(name: str) -> tuple[int, int]:
    m = re.fullmatch(r"R(\d+)C(\d+)", name)
    assert m is not None  # sudokit's own f-puzzles objects
    return int(m.group(1)) - 1, int(m.group(2)) - 1


def _centre(name: str) -> list[float]:
    r, c = _rc(name)
    return [r + 0.5, c + 0.5]


def _between(a: str, b: str) -> list[float]:
    (r1, c1), (r2, c2) = _rc(a), _rc(b)
    return [(r1 + r2) / 2 + 0.5, (c1 + c2) / 2 + 0.5]


#: f-puzzles fields SudokuPad has no drawing for that tells them apart (an X-sum clue looks like a sandwich
#: clue): written into ``metadata["sudokit"]`` as f-puzzles fields, and drawn too (the clue numbers, the
#: line), so SudokuPad shows them; the reader takes them from there and skips their drawing. Whispers with a
#: gap other than the default are carried the same way.
NOT_DRAWN = {
    "xsum": "X-sums",
    "skyscraper": "skyscrapers",
    "doublearrow": "double arrows",
}
#: The metadata key of the carried fields.
CARRIED = "sudokit"


def _shape(center: list[float], size: float, rounded: bool, fill: str, rim: str | None = None, **extra) -> dict:
    """An overlay or underlay as SudokuPad's importer writes them (``size`` is the width and the height)."""
    shape: dict[str, Any] = {"center": list(center), "width": size, "height": size, "rounded": rounded}
    shape["backgroundColor"] = fill
    if rim is not None:
        shape["borderColor"] = rim
    return {**shape, **extra}


def _pulled(points: list[list[float]], end: int, by: float) -> None:
    """Move the point at ``end`` (0 or -1) ``by`` cells toward its neighbour along the line, rounded to a
    tenth as SudokuPad's importer does (an arrow starts at its bulb's rim, a between line at its circles')."""
    nxt = 1 if end == 0 else -2
    dr, dc = points[nxt][0] - points[end][0], points[nxt][1] - points[end][1]
    dist = math.hypot(dr, dc) or 1.0
    points[end] = [
        points[end][0] + (round(10 * by * math.copysign(1, dr) / dist) / 10 if dr else 0),
        points[end][1] + (round(10 * by * math.copysign(1, dc) / dist) / 10 if dc else 0),
    ]


def fpuzzles_to_sudokupad(fp: dict) -> dict:
    """SudokuPad's JSON (long keys) of an f-puzzles object written by sudokit, drawn as SudokuPad's f-puzzles
    importer draws it (the colours of :data:`LINE_COLOURS` for the lines it has none for; the kinds of
    :data:`NOT_DRAWN` also carried in ``metadata["sudokit"]``)."""
    from sudokit.formats.fpuzzles import default_box_shape

    n = fp["size"]
    meta: dict[str, Any] = {}
    carried = {field: fp[field] for field in NOT_DRAWN if fp.get(field)}
    gap = str(math.ceil(n / 2))
    odd_gaps = [w for w in fp.get("whispers", []) if str(w.get("value", gap)) != gap]
    if odd_gaps:
        carried["whispers"] = odd_gaps
    arrows_fp = fp.get("arrow", [])
    bulb_uses = Counter(x for item in arrows_fp for x in set(item["cells"]))
    shared = [item for item in arrows_fp if any(bulb_uses[x] > 1 for x in item["cells"])]
    if shared:  # a drawn arrow from a cell of two bulbs could belong to either: carried (and drawn)
        carried["arrow"] = shared
    if carried:  # rules SudokuPad draws no way sudokit reads back: kept as f-puzzles fields, drawn for the eye
        meta[CARRIED] = carried
    for src, dst in (("title", "title"), ("author", "author"), ("ruleset", "rules")):
        if fp.get(src):
            meta[dst] = fp[src]
    h, w = default_box_shape(n)
    cells: list[list[dict]] = []
    regions: dict[Any, list[list[int]]] = {}
    for r, row in enumerate(fp["grid"]):
        cells.append([{"value": cell["value"]} if cell.get("given") else {} for cell in row])
        for c, cell in enumerate(row):
            region = cell.get("region", (r // h) * h + c // w)
            if region is not None:
                regions.setdefault(region, []).append([r, c])
    cages, lines, arrows, overlays, underlays = [], [], [], [], []

    def line(names, colour: str, thickness: float) -> None:
        lines.append({"wayPoints": [_centre(x) for x in names], "color": colour, "thickness": thickness})

    for cage in fp.get("killercage", []):
        item: dict[str, Any] = {"cells": [list(_rc(x)) for x in cage["cells"]], "unique": True}
        if cage.get("value") not in (None, ""):
            item["value"] = str(cage["value"])
        cages.append(item)
    for region in fp.get("extraregion", []):
        underlays += [_shape(_centre(x), 1, False, "#CFCFCFF2") for x in region["cells"]]
        cages.append({"cells": [list(_rc(x)) for x in region["cells"]]})
    for field, colour in (("thermometer", GREY), ("slowthermometer", LINE_COLOURS["slowthermometer"].upper())):
        for item in fp.get(field, []):
            for names in item["lines"]:
                underlays.append(_shape(_centre(names[0]), 0.85, True, colour, colour))
                line(names, colour, THERMO_WIDTH)
    for item in fp.get("palindrome", []):
        for names in item["lines"]:
            line(names, GREY, PALINDROME_WIDTH)
    for kind in ("renban", "whispers", "regionsumline", "zipperline", "modularline", "entropicline", "doublearrow"):
        for item in fp.get(kind, []):
            for names in item["lines"]:
                line(names, LINE_COLOURS[kind].upper(), COLOURED_WIDTH)
    for item in fp.get("betweenline", []):
        for names in item["lines"]:
            points = [_centre(x) for x in names]
            overlays += [_shape(p, 0.8, True, "#FFFFFF", GREY.upper()) for p in (points[0], points[-1])]
            _pulled(points, 0, 0.4)
            _pulled(points, -1, 0.4)
            lines.append({"wayPoints": points, "color": GREY.upper(), "thickness": 2})
    for item in fp.get("arrow", []):
        centres = [_centre(x) for x in item["cells"]]
        rows, cols = {p[0] for p in centres}, {p[1] for p in centres}
        if len(rows) == 1 or len(cols) == 1:  # a round bulb, stretched along a straight bulb
            middle = [sum(p[0] for p in centres) / len(centres), sum(p[1] for p in centres) / len(centres)]
            bulb = _shape(middle, 0.75, True, "#FFFFFF", ARROW_GREY.upper(), thickness=5, text="")
            overlays.append({**bulb, "width": 0.75 + max(cols) - min(cols), "height": 0.75 + max(rows) - min(rows)})
        else:  # a bent bulb: a thick grey line with a white core
            lines.append({"wayPoints": centres, "color": ARROW_GREY.upper(), "thickness": 35})
            lines.append({"wayPoints": centres, "color": "#FFFFFF", "thickness": 25})
        for names in item["lines"]:
            points = [_centre(x) for x in names]
            _pulled(points, 0, 0.3)
            arrows.append({"wayPoints": points, "color": ARROW_GREY.upper(), "thickness": 5, "headLength": 0.3})
    for field, fill in (("ratio", "#000000"), ("difference", "#FFFFFF")):
        for item in fp.get(field, []):
            dot = _shape(_between(*item["cells"][:2]), 0.3, True, fill, "#000000", text="")
            if item.get("value") not in (None, ""):
                dot.update(text=str(item["value"]), color="#FFFFFF" if fill == "#000000" else "#000000")
            overlays.append(dot)
    for item in fp.get("xv", []):
        overlays.append(
            _shape(_between(*item["cells"][:2]), 0.25, False, "#FFFFFF", "#FFFFFF", fontSize=21, text=item["value"])
        )
    for field, rounded in (("odd", True), ("even", False)):
        underlays += [
            _shape(_centre(item["cell"]), 0.7, rounded, GREY.upper(), GREY.upper()) for item in fp.get(field, [])
        ]
    steps = {"UR": (-1, 1), "UL": (-1, -1), "DR": (1, 1), "DL": (1, -1)}
    for item in fp.get("littlekillersum", []):
        y, x = _centre(item["cell"])
        dr, dc = steps[item["direction"]]
        tail, tip = [y + 0.3 * dr, x + 0.3 * dc], [y + 0.48 * dr, x + 0.48 * dc]
        arrows.append({"wayPoints": [tail, tip], "color": "#000000", "thickness": 2})
        overlays.append(_shape([y, x], 0.25, False, "#FFFFFF", "#FFFFFF", fontSize=28, text=str(item["value"])))
    for item in [*fp.get("sandwichsum", []), *fp.get("xsum", []), *fp.get("skyscraper", [])]:
        clue = _shape(_centre(item["cell"]), 0.25, False, "#FFFFFF", "#FFFFFF", fontSize=32, text=str(item["value"]))
        overlays.append(clue)
    for item in fp.get("quadruple", []):
        corner = [sum(_rc(x)[0] for x in item["cells"]) / 4 + 0.5, sum(_rc(x)[1] for x in item["cells"]) / 4 + 0.5]
        text = " ".join(str(v) for v in item["values"])
        overlays.append(_shape(corner, 0.7, True, "#FFFFFF", "#000000", fontSize=14, text=text))
    for flag, ends in (("diagonal+", [[0, n], [n, 0]]), ("diagonal-", [[0, 0], [n, n]])):
        if fp.get(flag):
            lines.append({"wayPoints": ends, "color": DIAGONAL_BLUE.upper(), "thickness": 2})
    for flag in ("antiknight", "antiking", "nonconsecutive", "disjointgroups"):
        if fp.get(flag):
            meta[flag] = True
    if fp.get("negative"):
        meta["negative"] = list(fp["negative"])
    out: dict[str, Any] = {"id": "sudokit", "cellSize": 50, "cells": cells}
    out.update(regions=[group for _, group in sorted(regions.items())], cages=cages, lines=lines, arrows=arrows)
    out.update(overlays=overlays, underlays=underlays)
    if meta:
        out["metadata"] = meta
    return out


def to_sudokupad(puzzle) -> dict:
    """SudokuPad's JSON (long keys) of a :class:`~sudokit.constraints.VariantPuzzle`."""
    from sudokit.formats.fpuzzles import to_fpuzzles

    return fpuzzles_to_sudokupad(to_fpuzzles(puzzle))


def to_sudokupad_json(puzzle) -> str:
    """SudokuPad's JSON text of a puzzle (plain JSON, long keys: SudokuPad reads it pasted, as a file, or
    zipped in an ``scl`` link)."""
    return json.dumps(to_sudokupad(puzzle), separators=(",", ":"), ensure_ascii=False)
