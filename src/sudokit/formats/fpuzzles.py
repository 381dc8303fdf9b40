"""f-puzzles JSON, compressed strings and links (f-puzzles ``?load=``, SudokuPad ``fpuzzles…``; SudokuPad's
own ``scl…``/``ctc…`` payloads are read through :mod:`sudokit.formats.sudokupad`).

f-puzzles stores a puzzle as one JSON object (``size``, ``grid`` of cell objects, one list per constraint
kind, global flags; cells are ``R<row>C<col>``, 1-based). Links carry it as lz-string ``compressToBase64``
of the JSON text. :func:`read_fpuzzles` turns the object into a :class:`~sudokit.constraints.VariantPuzzle`,
:func:`to_fpuzzles` writes one back; :func:`parse_variant` takes any of JSON text, a compressed string or a
link. A field sudokit does not know is an error naming it: a rule is never dropped silently. The fields and
their rules are described in ``docs/variants.md``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

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
from sudokit.constraints.base import orthogonal_pairs
from sudokit.errors import SudokitError
from sudokit.geometry import Geometry, standard

FPUZZLES_URL = "https://f-puzzles.com/?load="
SUDOKUPAD_URL = "https://sudokupad.app/fpuzzles"

#: Fields that only change how the puzzle looks (or carry text), never its solution.
COSMETIC = frozenset(
    {
        "size", "grid", "title", "author", "ruleset", "line", "cage", "text", "circle", "rectangle", "solution",
        "disabledlogic", "truecandidatesoptions", "highlightConflicts", "negative", "arrowhead",
    }
)  # fmt: skip

#: f-puzzles fields sudokit reads, with the constraint kind each becomes.
SUPPORTED = {
    "killercage": "killer",
    "thermometer": "thermometer",
    "slowthermometer": "thermometer",
    "arrow": "arrow",
    "difference": "kropki",
    "ratio": "kropki",
    "xv": "xv",
    "odd": "parity",
    "even": "parity",
    "littlekillersum": "little_killer",
    "sandwichsum": "sandwich",
    "xsum": "xsum",
    "skyscraper": "skyscraper",
    "renban": "renban",
    "whispers": "whispers",
    "palindrome": "palindrome",
    "betweenline": "between_line",
    "doublearrow": "equal_sums",
    "quadruple": "quadruple",
    "zipperline": "equal_sums",
    "regionsumline": "equal_sums",
    "modularline": "three_class_line",
    "entropicline": "three_class_line",
    "extraregion": "extra_region",
    "antiknight": "antiknight",
    "antiking": "antiking",
    "nonconsecutive": "nonconsecutive",
    "diagonal+": "diagonal",
    "diagonal-": "diagonal",
    "disjointgroups": "disjoint_groups",
}

#: f-puzzles fields with a rule sudokit does not model yet (an error when a puzzle uses them).
NOT_YET = {
    "minimum": "minimum cells",
    "maximum": "maximum cells",
    "clone": "clones",
    "rowindexer": "row indexers",
    "columnindexer": "column indexers",
}


def _lz():
    try:
        import lzstring
    except ImportError as exc:  # pragma: no cover - a declared dependency
        raise SudokitError("reading f-puzzles links needs the py-lzstring package (pip install py-lzstring)") from exc
    if not hasattr(lzstring, "decompress_from_base64"):  # pragma: no cover - the older 'lzstring' package
        raise SudokitError("the installed 'lzstring' module is not py-lzstring: pip install py-lzstring")
    return lzstring


def decompress(payload: str) -> str:
    """The JSON text of an lz-string base64 payload (``+`` read back from a space, ``%xx`` decoded)."""
    text = unquote(payload.strip()).replace(" ", "+")
    if not text or not re.fullmatch(r"[A-Za-z0-9+/=]+", text):
        raise SudokitError("f-puzzles payload: not lz-string base64 (letters, digits, '+', '/', '=')")
    try:
        out = _lz().decompress_from_base64(text)
    except Exception:  # the codec raises many kinds on a damaged payload
        out = None
    if not out:
        raise SudokitError("f-puzzles payload: the lz-string data is damaged (nothing decompresses)")
    return out


def compress(text: str) -> str:
    """The lz-string base64 payload of a JSON text (what f-puzzles puts after ``?load=``)."""
    return _lz().compress_to_base64(text)


_SHORT_ID = re.compile(r"^[A-Za-z0-9_-]{4,40}$")
#: A payload in a link or on its own: its format prefix (``fpuz`` and ``ctc`` are the older names of
#: ``fpuzzles`` and ``scl``) and the lz-string base64 text.
_PAYLOAD = re.compile(r"(?:^|[/=])(fpuzzles|fpuz|scl|ctc)([A-Za-z0-9+/=%_ -]+)")


def payload_of_link(link: str) -> str:
    """The JSON text an f-puzzles or SudokuPad link carries (one clear error for links that carry none);
    a SudokuPad ``scl``/``ctc`` link gives SudokuPad's JSON (see :mod:`sudokit.formats.sudokupad`)."""
    return json.dumps(_object_of_link(link), ensure_ascii=False)


def _object_of_link(link: str) -> dict:
    """The puzzle object an f-puzzles or SudokuPad link carries: f-puzzles' or SudokuPad's JSON."""
    text = link.strip()
    m = re.search(r"[?&]load=([^&#]+)", text)
    if m:
        return _json(decompress(m.group(1)), "link payload")
    m = _PAYLOAD.search(re.sub(r"^[a-z]+://[^/]+", "", text))
    if m:
        return _payload_object(m.group(1), re.split(r"[?&#]", m.group(2))[0])
    tail = re.sub(r"[?#].*$", "", text).rstrip("/").rsplit("/", 1)[-1]
    tail = re.sub(r"^puzzleid=", "", tail)
    if ("sudokupad" in text or "crackingthecryptic" in text) and _SHORT_ID.match(tail):
        raise SudokitError(
            f"SudokuPad short link {tail!r}: its puzzle is stored on SudokuPad's server and "
            "reading it needs the network, which sudokit does not use; open it in SudokuPad and share "
            "it as an f-puzzles or 'scl' link instead"
        )
    raise SudokitError(f"{text[:60]!r}: not an f-puzzles or SudokuPad link with a puzzle in it")


def _payload_object(prefix: str, payload: str) -> dict:
    if prefix in ("scl", "ctc"):
        from sudokit.formats.sudokupad import decode_payload

        return decode_payload(payload)
    return _json(decompress(payload), "f-puzzles payload")


def looks_like_variant(arg: str) -> bool:
    """True when a command-line argument is an f-puzzles / SudokuPad link or payload, f-puzzles or SudokuPad
    JSON text, or a ``.json`` / ``.jsonl`` file name (classic puzzle strings and text files are not)."""
    text = arg.strip()
    low = text.lower()
    if low.startswith(("http://", "https://")) or "f-puzzles.com" in low or "sudokupad" in low:
        return True
    if low.endswith((".json", ".jsonl")) or re.match(r"(fpuzzles|fpuz|scl|ctc)[A-Za-z0-9+/=%]{8}", text):
        return True
    return text.startswith("{") and ('"grid"' in text or '"cells"' in text or re.match(r"\{\w+:", text) is not None)


def as_variant(puzzle: object) -> VariantPuzzle | None:
    """``puzzle`` as a variant puzzle when it is one (a :class:`VariantPuzzle`, or a link / f-puzzles or
    SudokuPad JSON text / payload), else None: the solver entry points send these to the variant solver."""
    if isinstance(puzzle, VariantPuzzle):
        return puzzle
    if isinstance(puzzle, str):
        text = puzzle.strip()
        if re.match(r"(https?://|fpuzzles|fpuz|scl|ctc|\{)", text[:12], re.IGNORECASE) or _is_payload(text):
            return parse_variant(puzzle)
    return None


def _is_payload(text: str) -> bool:
    """A bare f-puzzles payload: lz-string base64 of ``{"size":…`` starts ``N4Ig`` (no classic grid does)."""
    return text.startswith("N4Ig") and re.fullmatch(r"[A-Za-z0-9+/=]+", text) is not None


def parse_variant(text: str) -> VariantPuzzle:
    """A variant puzzle from f-puzzles or SudokuPad JSON text, a link, or a compressed payload (``fpuzzles…``,
    ``scl…``, ``ctc…``, or a bare f-puzzles one)."""
    return read_puzzle_object(_object(text))


def read_puzzle_object(obj: dict) -> VariantPuzzle:
    """The puzzle of an f-puzzles object, or of a SudokuPad one (read through :mod:`.sudokupad`)."""
    from sudokit.formats.sudokupad import is_sudokupad, sudokupad_to_fpuzzles

    return read_fpuzzles(sudokupad_to_fpuzzles(obj) if is_sudokupad(obj) else obj)


def _object(text: str) -> dict:
    body = text.strip()
    if body.startswith("{"):
        if not body.startswith('{"') and re.match(r"\{\s*\w+\s*:", body):  # SudokuPad's zipped JSON
            from sudokit.formats.sudokupad import parse_json

            return parse_json(body, "SudokuPad JSON")
        return _json(body, "f-puzzles JSON")
    m = re.match(r"(fpuzzles|fpuz|scl|ctc)(.*)$", body, re.DOTALL)
    if m:
        return _payload_object(m.group(1), m.group(2))
    if "/" in body and ("://" in body or "." in body.split("/", 1)[0]):
        return _object_of_link(body)
    return _json(decompress(body), "f-puzzles payload")


def _json(text: str, what: str) -> dict:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SudokitError(f"{what}: bad JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    if isinstance(obj, dict) and isinstance(obj.get("fpuzzles"), dict):  # a line of sudokit's corpus files
        obj = obj["fpuzzles"]
    if not isinstance(obj, dict):
        raise SudokitError(f"{what}: an f-puzzles puzzle is a JSON object, got {type(obj).__name__}")
    return obj


def read_variant_lines(text: str, source: str) -> Iterator[tuple[int, VariantPuzzle | SudokitError]]:
    """The puzzles of a file: one JSON object (possibly over several lines), or one link / JSON object /
    compressed string per line (``#`` comments and blank lines skipped). Bad entries come back as errors
    prefixed with ``source:line``, so a batch reports them and goes on."""
    stripped = text.strip()
    if stripped.startswith("{") and "\n" in stripped:
        try:
            json.loads(stripped)
            whole = True
        except json.JSONDecodeError:
            whole = False
        if whole:
            yield 1, _located(stripped, source, 1)
            return
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip() and not line.lstrip().startswith("#"):
            yield number, _located(line, source, number)


def _located(text: str, source: str, line: int) -> VariantPuzzle | SudokitError:
    try:
        return parse_variant(text)
    except SudokitError as exc:
        return SudokitError(f"{source}:{line}: {exc}")


# ---- reading the JSON object ------------------------------------------------------------------
class _Reader:
    """Reads one f-puzzles object; errors name the field (``killercage[2].cells[0]``)."""

    def __init__(self, obj: dict) -> None:
        self.obj = obj
        size = obj.get("size")
        if not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= 35:
            raise SudokitError(f"f-puzzles field 'size': expected an integer 1..35, got {size!r}")
        self.n = size

    def cell(self, text, where: str, outside: bool = False) -> tuple[int, int]:
        """0-based (row, column) of ``R<r>C<c>``; ``outside`` allows the ring of clue cells around the grid."""
        m = re.fullmatch(r"[Rr](\d+)[Cc](\d+)", text) if isinstance(text, str) else None
        lo, hi = (0, self.n + 1) if outside else (1, self.n)
        if not m or not (lo <= int(m.group(1)) <= hi and lo <= int(m.group(2)) <= hi):
            raise SudokitError(f"f-puzzles {where}: {text!r} is not a cell of the {self.n}x{self.n} grid")
        return int(m.group(1)) - 1, int(m.group(2)) - 1

    def index(self, text, where: str) -> int:
        r, c = self.cell(text, where)
        return r * self.n + c

    def cells(self, items, where: str, at_least: int = 1, repeats: bool = False) -> tuple[int, ...]:
        """Cell indices of a list of names; ``repeats`` allows a line to pass a cell twice (a loop)."""
        if not isinstance(items, list) or len(items) < at_least:
            raise SudokitError(f"f-puzzles {where}: expected a list of at least {at_least} cell names")
        out = tuple(self.index(t, f"{where}[{i}]") for i, t in enumerate(items))
        if not repeats and len(set(out)) != len(out):
            raise SudokitError(f"f-puzzles {where}: a cell is listed twice")
        return out

    def pair(self, items, where: str) -> tuple[int, int]:
        """The two cells of a dot or mark (a third cell would be dropped: an error)."""
        cells = self.cells(items, where, 2)
        if len(cells) != 2:
            raise SudokitError(f"f-puzzles {where}: a dot or mark joins two cells, not {len(cells)}")
        return cells[0], cells[1]

    def number(self, value, where: str, default: int | None = None) -> int | None:
        if value is None or value == "":
            return default
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and re.fullmatch(r"\s*-?\d+\s*", value):
            return int(value)
        raise SudokitError(f"f-puzzles {where}: expected a number, got {value!r}")

    def items(self, field: str) -> list[tuple[str, dict]]:
        value = self.obj.get(field)
        if value is None:
            return []
        if not isinstance(value, list):  # 0, "" or false too: a wrong type, not an empty list
            raise SudokitError(f"f-puzzles field '{field}': expected a list, got {type(value).__name__}")
        out = []
        for i, item in enumerate(value):
            if not isinstance(item, dict):
                raise SudokitError(f"f-puzzles {field}[{i}]: expected an object")
            out.append((f"{field}[{i}]", item))
        return out

    def lines(
        self, field: str, at_least: int = 1, repeats: bool = False
    ) -> Iterator[tuple[str, dict, tuple[int, ...]]]:
        for where, item in self.items(field):
            lines = item.get("lines")
            if not isinstance(lines, list):
                raise SudokitError(f"f-puzzles {where}.lines: expected a list of cell lists")
            for j, line in enumerate(lines):
                yield where, item, self.cells(line, f"{where}.lines[{j}]", at_least, repeats)


def read_fpuzzles(obj: dict) -> VariantPuzzle:
    """The :class:`VariantPuzzle` of an f-puzzles JSON object (see the module doc for what is read)."""
    if not isinstance(obj, dict):
        raise SudokitError(f"an f-puzzles puzzle is a JSON object, got {type(obj).__name__}")
    unknown = [k for k in obj if k not in COSMETIC and k not in SUPPORTED]
    for field in unknown:
        value = obj[field]
        if value in (None, False, [], {}, ""):
            continue  # an empty list or a false flag sets no rule
        if field in NOT_YET:
            raise SudokitError(
                f"f-puzzles field '{field}' ({NOT_YET[field]}): sudokit does not support this constraint yet"
            )
        raise SudokitError(f"f-puzzles field '{field}': unknown constraint kind")
    if isinstance(obj.get("cage"), list):
        for where, item in _Reader(obj).items("cage"):
            if str(item.get("value", "")).upper().startswith("DR"):
                raise SudokitError(f"f-puzzles {where}: digital-root cages are not supported yet")
    rd = _Reader(obj)
    n = rd.n
    base, values = _grid(rd)
    cons: list[Constraint] = []
    for where, item in rd.items("killercage"):
        total = rd.number(item.get("value"), f"{where}.value")
        cons.append(KillerCage(rd.cells(item.get("cells"), f"{where}.cells"), total))
    for field, slow in (("thermometer", False), ("slowthermometer", True)):
        for _, _, line in rd.lines(field, 2):
            cons.append(Thermometer(line, slow))
    for where, item in rd.items("arrow"):
        bulb = rd.cells(item.get("cells"), f"{where}.cells")
        shafts = item.get("lines")
        if not isinstance(shafts, list) or not shafts:  # a bulb alone would drop the arrow's rule
            raise SudokitError(f"f-puzzles {where}.lines: expected a list of at least one line (the shafts)")
        for j, line in enumerate(shafts):
            cells = rd.cells(line, f"{where}.lines[{j}]", 2)
            if cells[0] not in bulb:  # f-puzzles' solver would drop the first cell: refused
                raise SudokitError(f"f-puzzles {where}.lines[{j}]: the arrow does not start in its bulb")
            if all(s in bulb for s in cells[1:]):
                raise SudokitError(f"f-puzzles {where}.lines[{j}]: the arrow has no shaft outside its bulb")
            # as f-puzzles' solver reads it: every cell after the line's first is summed, a bulb cell the
            # line passes through again too
            cons.append(Arrow(bulb, tuple(cells[1:])))
    dotted: set[frozenset[int]] = set()
    ratios: set[int] = set()
    for field in ("difference", "ratio"):
        for where, item in rd.items(field):
            a, b = rd.pair(item.get("cells"), f"{where}.cells")
            value = rd.number(item.get("value"), f"{where}.value")
            dot = Kropki(a, b, black=field == "ratio", value=value)
            cons.append(dot)
            dotted.add(frozenset((a, b)))
            if field == "ratio":
                ratios.add(dot.amount)
    marked: set[frozenset[int]] = set()
    for where, item in rd.items("xv"):
        a, b = rd.pair(item.get("cells"), f"{where}.cells")
        mark = str(item.get("value", "")).upper()
        if mark not in ("X", "V"):
            raise SudokitError(f"f-puzzles {where}.value: expected 'X' or 'V', got {item.get('value')!r}")
        cons.append(XV(a, b, 10 if mark == "X" else 5))
        marked.add(frozenset((a, b)))
    for field in ("odd", "even"):
        for where, item in rd.items(field):
            cons.append(Parity(rd.index(item.get("cell"), f"{where}.cell"), odd=field == "odd"))
    for where, item in rd.items("littlekillersum"):
        total = rd.number(item.get("value"), f"{where}.value")
        if total is not None:
            cons.append(LittleKiller(_diagonal(rd, item, where), total))
    for where, item in rd.items("sandwichsum"):
        total = rd.number(item.get("value"), f"{where}.value")
        if total is not None:
            cons.append(Sandwich(_sandwich_line(rd, item.get("cell"), where), total))
    for where, item in rd.items("xsum"):
        total = rd.number(item.get("value"), f"{where}.value")
        if total is not None:
            cons.append(XSum(_sandwich_line(rd, item.get("cell"), where), total))
    for where, item in rd.items("skyscraper"):
        seen = rd.number(item.get("value"), f"{where}.value")
        if seen is not None:
            if not 1 <= seen <= n:
                raise SudokitError(f"f-puzzles {where}.value: a skyscraper sees 1..{n} digits, not {seen}")
            cons.append(Skyscraper(_sandwich_line(rd, item.get("cell"), where), seen))
    for _, _, line in rd.lines("renban"):
        cons.append(Renban(line))
    for where, item, line in rd.lines("whispers", 2, repeats=True):
        gap = rd.number(item.get("value"), f"{where}.value", default=math.ceil(n / 2))
        assert gap is not None  # a default is given
        cons.append(Whispers(line, gap))
    for _, _, line in rd.lines("palindrome", 2, repeats=True):
        cons.append(Palindrome(line))
    for _, _, line in rd.lines("doublearrow", 3):
        cons.append(EqualSums((line[0], line[-1]), line[1:-1], "doublearrow", line))
    for _, _, line in rd.lines("zipperline", 2):
        cons += _zipper(line)
    for _, _, line in rd.lines("regionsumline", 2):
        cons += _region_sums(line, base)
    for where, item in rd.items("quadruple"):
        listed = item.get("values")
        if not isinstance(listed, list):
            raise SudokitError(f"f-puzzles {where}.values: expected a list of digits")
        ds = tuple(rd.number(v, f"{where}.values[{i}]") for i, v in enumerate(listed))
        digits = tuple(d for d in ds if d is not None)
        if len(digits) != len(ds):
            raise SudokitError(f"f-puzzles {where}.values: an empty value where a digit belongs")
        cons.append(Quadruple(rd.cells(item.get("cells"), f"{where}.cells"), digits))
    for _, _, line in rd.lines("betweenline", 2):
        cons.append(BetweenLine(line))
    for field in ("modularline", "entropicline"):
        for _, _, line in rd.lines(field, 2):
            cons.append(ThreeClassLine(line, n, entropic=field == "entropicline"))
    for where, item in rd.items("extraregion"):
        cons.append(ExtraRegion(rd.cells(item.get("cells"), f"{where}.cells")))
    flags = {
        f: obj.get(f) for f in ("diagonal+", "diagonal-", "antiknight", "antiking", "disjointgroups", "nonconsecutive")
    }
    for f, v in flags.items():
        if v not in (None, True, False):
            raise SudokitError(f"f-puzzles field '{f}': expected true or false, got {v!r}")
    if flags["diagonal+"]:
        cons.append(Diagonal(n, positive=True))
    if flags["diagonal-"]:
        cons.append(Diagonal(n, positive=False))
    if flags["antiknight"]:
        cons.append(AntiKnight())
    if flags["antiking"]:
        cons.append(AntiKing())
    if flags["disjointgroups"]:
        cons.append(DisjointGroups.of(base))
    pairs = orthogonal_pairs(base)
    if flags["nonconsecutive"]:
        cons.append(NonConsecutive(tuple(p for p in pairs if frozenset(p) not in dotted)))
    negative = obj.get("negative") or []
    if not isinstance(negative, list):
        raise SudokitError("f-puzzles field 'negative': expected a list of constraint names")
    for name in negative:
        if name == "ratio":
            free = tuple(p for p in pairs if frozenset(p) not in dotted)
            # f-puzzles' solver forbids 2 always, and each ratio a black dot shows (a dot of 3 does not free 2)
            cons.append(NegativeRatio(free, tuple(sorted(ratios | {2}))))
        elif name == "xv":
            cons.append(NegativeXV(tuple(p for p in pairs if frozenset(p) not in marked)))
        else:
            raise SudokitError(f"f-puzzles field 'negative': negative {name!r} is not supported (known: ratio, xv)")
    return VariantPuzzle.build(
        base,
        values,
        cons,
        title=str(obj.get("title") or ""),
        author=str(obj.get("author") or ""),
        rules=str(obj.get("ruleset") or ""),
    )


def _zipper(line: tuple[int, ...]) -> list[EqualSums]:
    """Mirrored cells of a zipper line have equal sums: the centre digit on an odd line, else one common sum."""
    k = len(line)
    pairs = [(line[i], line[k - 1 - i]) for i in range(k // 2)]
    if k % 2:
        return [EqualSums(p, (line[k // 2],), "zipperline", line) for p in pairs]
    return [EqualSums(a, b, "zipperline", line) for a, b in zip(pairs, pairs[1:])] or [
        EqualSums(pairs[0], pairs[0], "zipperline", line)
    ]


def _region_sums(line: tuple[int, ...], base: Geometry) -> list[EqualSums]:
    """Each run of a region sum line inside one region has the same sum (runs in consecutive order). A cell of
    no region (a jigsaw's ``"region": null``) is on no run, as f-puzzles' solver reads it."""
    runs: list[list[int]] = []
    for s in line:
        if base.region_of[s] < 0:
            continue
        if runs and base.region_of[runs[-1][-1]] == base.region_of[s]:
            runs[-1].append(s)
        else:
            runs.append([s])
    if len(runs) < 2:  # one run (or none): no rule beyond being written back
        whole = tuple(runs[0]) if runs else line
        return [EqualSums(whole, whole, "regionsumline", line)]
    return [EqualSums(tuple(a), tuple(b), "regionsumline", line) for a, b in zip(runs, runs[1:])]


def default_box_shape(n: int) -> tuple[int, int]:
    """f-puzzles' default boxes: height the largest divisor of ``n`` not above its square root."""
    h = max(d for d in range(1, math.isqrt(n) + 1) if n % d == 0)
    return h, n // h


def _grid(rd: _Reader) -> tuple[Geometry, list[int]]:
    n = rd.n
    rows = rd.obj.get("grid")
    if not isinstance(rows, list) or len(rows) != n or any(not isinstance(r, list) or len(r) != n for r in rows):
        raise SudokitError(f"f-puzzles field 'grid': expected {n} rows of {n} cell objects")
    h, w = default_box_shape(n)
    values = [0] * (n * n)
    region_of: list[int | None] = [0] * (n * n)
    own_regions = False
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            where = f"grid[{r}][{c}]"
            if not isinstance(cell, dict):
                raise SudokitError(f"f-puzzles {where}: expected a cell object")
            if cell.get("given") and cell.get("value") is not None:
                v = cell["value"]
                if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= n:
                    raise SudokitError(f"f-puzzles {where}.value: expected a digit 1..{n}, got {v!r}")
                values[r * n + c] = v
            if "region" in cell:
                own_regions = True
                reg = cell["region"]
                if reg is not None and (not isinstance(reg, int) or not 0 <= reg < n):
                    raise SudokitError(f"f-puzzles {where}.region: expected a region number 0..{n - 1} or null")
                region_of[r * n + c] = reg
            else:
                region_of[r * n + c] = (r // h) * h + c // w
    default = standard(h, w)
    if not own_regions:
        return default, values
    groups: dict[int, list[int]] = {}
    for s, reg in enumerate(region_of):
        if reg is not None:
            groups.setdefault(reg, []).append(s)
    for reg, cells in sorted(groups.items()):
        if len(cells) != n:
            raise SudokitError(
                f"f-puzzles field 'grid': region {reg} has {len(cells)} cells, a {n}x{n} board needs {n}"
            )
    regions = [tuple(cells) for _, cells in sorted(groups.items())]
    if {frozenset(u) for u in regions} == {default.unit_sets[u] for u in default.boxes} and len(regions) == n:
        return default, values
    units = list(default.units[: 2 * n]) + regions  # the default's rows and columns, then the regions
    names = list(default.unit_names[: 2 * n]) + [f"region {i + 1}" for i in range(len(regions))]
    kinds = ("row",) * n + ("column",) * n + ("region",) * len(regions)
    geo = Geometry(name="jigsaw", size=n, units=tuple(units), unit_names=tuple(names), unit_kinds=kinds)
    return geo, values


_STEPS = {"UR": (-1, 1), "UL": (-1, -1), "DR": (1, 1), "DL": (1, -1)}


def _diagonal(rd: _Reader, item: dict, where: str) -> tuple[int, ...]:
    r, c = rd.cell(item.get("cell"), f"{where}.cell", outside=True)
    n = rd.n
    if 0 <= r < n and 0 <= c < n:  # read as it is, the sum would silently leave out the clue's own cell
        raise SudokitError(f"f-puzzles {where}.cell: {item.get('cell')!r} is inside the grid, not a clue outside it")
    step = _STEPS.get(str(item.get("direction", "")).upper())
    if step is None:
        raise SudokitError(f"f-puzzles {where}.direction: expected UR, UL, DR or DL, got {item.get('direction')!r}")
    line = []
    r, c = r + step[0], c + step[1]
    while 0 <= r < n and 0 <= c < n:
        line.append(r * n + c)
        r, c = r + step[0], c + step[1]
    if not line:
        raise SudokitError(f"f-puzzles {where}: the little killer's diagonal holds no cell of the grid")
    listed = item.get("cells")  # f-puzzles also lists the diagonal's cells (its solver sums those)
    if listed is not None and set(rd.cells(listed, f"{where}.cells")) != set(line):
        raise SudokitError(
            f"f-puzzles {where}.cells: not the diagonal from {item.get('cell')!r} going {item.get('direction')!r}"
        )
    return tuple(line)


def _sandwich_line(rd: _Reader, text, where: str) -> tuple[int, ...]:
    r, c = rd.cell(text, f"{where}.cell", outside=True)
    n = rd.n
    if r in (-1, n) and 0 <= c < n:
        line = [i * n + c for i in range(n)]
        return tuple(line if r == -1 else line[::-1])
    if c in (-1, n) and 0 <= r < n:
        line = [r * n + i for i in range(n)]
        return tuple(line if c == -1 else line[::-1])
    raise SudokitError(f"f-puzzles {where}.cell: {text!r} is not beside a row or a column")


# ---- writing -------------------------------------------------------------------------------------
def _name(geometry: Geometry, s: int) -> str:
    return f"R{geometry.row(s) + 1}C{geometry.col(s) + 1}"


def to_fpuzzles(puzzle: VariantPuzzle) -> dict:
    """The f-puzzles JSON object of a variant puzzle (read back by :func:`read_fpuzzles` to the same rules)."""
    g = puzzle.geometry
    n = g.size

    def nm(cells) -> list[str]:
        return [_name(g, s) for s in cells]

    h, w = default_box_shape(n)
    default = standard(h, w)
    own = {g.unit_sets[u] for u in g.regions} != {default.unit_sets[u] for u in default.boxes}
    region_of = g.region_of
    regions = {u: i for i, u in enumerate(g.regions)}
    grid = []
    for r in range(n):
        row = []
        for c in range(n):
            s = r * n + c
            cell: dict = {}
            v = puzzle.givens.values[s]
            if v:
                cell["value"] = v
                cell["given"] = True
            if own:
                cell["region"] = regions.get(region_of[s])
            row.append(cell)
        grid.append(row)
    out: dict = {"size": n}
    if puzzle.title:
        out["title"] = puzzle.title
    if puzzle.author:
        out["author"] = puzzle.author
    if puzzle.rules:
        out["ruleset"] = puzzle.rules
    out["grid"] = grid

    def add(field: str, item) -> None:
        out.setdefault(field, []).append(item)

    negative: list[str] = []
    written: set[tuple[int, ...]] = set()
    for con in puzzle.constraints:
        if isinstance(con, KillerCage):
            item: dict[str, Any] = {"cells": nm(con.cage)}
            if con.total is not None:
                item["value"] = str(con.total)
            add("killercage", item)
        elif isinstance(con, Thermometer):
            add("slowthermometer" if con.slow else "thermometer", {"lines": [nm(con.line)]})
        elif isinstance(con, Arrow):
            free = [b for b in con.bulb if b not in con.shaft] or list(con.bulb)  # a line lists a cell once
            start = next((b for b in free if _touch(g, b, con.shaft[0])), free[0])
            add("arrow", {"cells": nm(con.bulb), "lines": [nm((start, *con.shaft))]})
        elif isinstance(con, Kropki):
            item = {"cells": nm((con.a, con.b))}
            if con.value is not None:
                item["value"] = str(con.value)
            add("ratio" if con.black else "difference", item)
        elif isinstance(con, XV):
            add("xv", {"cells": nm((con.a, con.b)), "value": "X" if con.total == 10 else "V"})
        elif isinstance(con, Parity):
            add("odd" if con.odd else "even", {"cell": _name(g, con.cell)})
        elif isinstance(con, LittleKiller):
            clue, direction = _little_killer_clue(g, con.line)
            add(
                "littlekillersum",
                {"cell": clue, "direction": direction, "value": str(con.total), "cells": nm(con.line)},
            )
        elif isinstance(con, Sandwich):
            add("sandwichsum", {"cell": _sandwich_clue(g, con.line), "value": str(con.total)})
        elif isinstance(con, XSum):
            add("xsum", {"cell": _sandwich_clue(g, con.line), "value": str(con.total)})
        elif isinstance(con, Skyscraper):
            add("skyscraper", {"cell": _sandwich_clue(g, con.line), "value": str(con.seen)})
        elif isinstance(con, Renban):
            add("renban", {"lines": [nm(con.line)]})
        elif isinstance(con, Whispers):
            add("whispers", {"lines": [nm(con.line)], "value": str(con.gap)})
        elif isinstance(con, Palindrome):
            add("palindrome", {"lines": [nm(con.line)]})
        elif isinstance(con, EqualSums):
            if not con.line:
                raise SudokitError("an equal-sums constraint without its line has no f-puzzles field")
            if con.line not in written:  # a line made of several equal sums is written once
                written.add(con.line)
                add(con.source, {"lines": [nm(con.line)]})
        elif isinstance(con, Quadruple):
            add("quadruple", {"cells": nm(con.group), "values": list(con.digits)})
        elif isinstance(con, BetweenLine):
            add("betweenline", {"lines": [nm(con.line)]})
        elif isinstance(con, ThreeClassLine):
            add("entropicline" if con.entropic else "modularline", {"lines": [nm(con.line)]})
        elif isinstance(con, ExtraRegion):
            add("extraregion", {"cells": nm(con.region)})
        elif isinstance(con, Diagonal):
            out["diagonal+" if con.positive else "diagonal-"] = True
        elif isinstance(con, AntiKing):
            out["antiking"] = True
        elif isinstance(con, AntiKnight):
            out["antiknight"] = True
        elif isinstance(con, DisjointGroups):
            out["disjointgroups"] = True
        elif isinstance(con, NonConsecutive):
            out["nonconsecutive"] = True
        elif isinstance(con, NegativeRatio):
            negative.append("ratio")
        elif isinstance(con, NegativeXV):
            negative.append("xv")
        else:  # pragma: no cover - every kind of KINDS is written above
            raise SudokitError(f"cannot write a {con.kind} constraint as f-puzzles")
    if negative:
        out["negative"] = negative
    return out


def _touch(g: Geometry, a: int, b: int) -> bool:
    return max(abs(g.row(a) - g.row(b)), abs(g.col(a) - g.col(b))) == 1


def little_killer_clue(g: Geometry, line: tuple[int, ...]) -> tuple[int, int, int, int]:
    """Where a little killer's clue sits: ``(row, col, dr, dc)``, the clue cell outside the grid (0-based, so
    -1 or ``size`` on the side it is on) and the diagonal step from it into the grid."""
    r, c = g.row(line[0]), g.col(line[0])
    if len(line) > 1:
        dr, dc = g.row(line[1]) - r, g.col(line[1]) - c
    else:  # a corner cell alone: the clue beside it on a side, on the diagonal that leaves the grid both ways
        dr = -1 if r == 0 else 1  # the next cell's row is off the grid
        dc = 1 if c == 0 else -1  # and the clue's column
    return r - dr, c - dc, dr, dc


def line_clue(g: Geometry, line: tuple[int, ...]) -> tuple[int, int]:
    """Where the clue of a row or column rule (sandwich, X-sum, skyscraper) sits: ``(row, col)`` outside the
    grid (0-based: -1 or ``size``), on the side its ``line`` is read from."""
    n = g.size
    a, b = line[0], line[1]
    if g.row(a) == g.row(b):  # a row: the clue is left (reading rightwards) or right
        return g.row(a), -1 if b > a else n
    return -1 if b > a else n, g.col(a)


def _little_killer_clue(g: Geometry, line: tuple[int, ...]) -> tuple[str, str]:
    r, c, dr, dc = little_killer_clue(g, line)
    return f"R{r + 1}C{c + 1}", ("D" if dr > 0 else "U") + ("R" if dc > 0 else "L")


def _sandwich_clue(g: Geometry, line: tuple[int, ...]) -> str:
    r, c = line_clue(g, line)
    return f"R{r + 1}C{c + 1}"


def to_json(puzzle: VariantPuzzle) -> str:
    """The f-puzzles JSON text (compact, as f-puzzles writes it)."""
    return json.dumps(to_fpuzzles(puzzle), separators=(",", ":"), ensure_ascii=False)


def to_link(puzzle: VariantPuzzle, site: str = "f-puzzles") -> str:
    """A link that opens the puzzle: ``site="f-puzzles"`` (``?load=`` + the f-puzzles payload),
    ``"sudokupad"`` (SudokuPad's ``fpuzzles`` + the same payload: every kind), or ``"scl"`` (SudokuPad's own
    format, ``https://sudokupad.app/scl…``: the kinds :mod:`.sudokupad` draws)."""
    if site == "scl":
        from sudokit.formats.sudokupad import SCL_URL, encode_payload, to_sudokupad

        return SCL_URL + encode_payload(to_sudokupad(puzzle))[3:]
    payload = compress(to_json(puzzle))
    if site == "f-puzzles":
        return FPUZZLES_URL + payload
    if site == "sudokupad":
        return SUDOKUPAD_URL + payload
    raise SudokitError(f"unknown site {site!r} (known: f-puzzles, sudokupad, scl)")
