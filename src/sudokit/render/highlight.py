"""The highlight spec: which cells, units and candidates a picture should point at.

One plain dict serves every renderer (SVG, PNG, terminal) and every producer (a logic ``Step``, the
command line, a notebook). Every key is optional::

    {"cells": [cell, ...],                      # involved cells, neutral emphasis
     "units": [unit_index, ...],                # whole units, shaded
     "candidates": [(cell, digit), ...],        # involved candidates, neutral emphasis
     "eliminations": [(cell, digit), ...],      # candidates a step removes (red)
     "placements": [(cell, digit), ...],        # digits a step places (green)
     "links": [((cell, digit), (cell, digit), strong), ...]}  # chain links: strong solid, weak dashed

On the command line (``--highlight``) the same spec is written as ``key=items`` parts separated by
``;``, items separated by ``,``; cells by label (``A1`` on 9x9, ``r1c1`` on any size), units by name
or index, candidates as ``cell:digit``, links as ``cell:digit=cell:digit`` (strong) or
``cell:digit-cell:digit`` (weak)::

    cells=E3;units=row E,box 4;cand=E5:4;elim=C5:3,C6:3;place=E5:4;link=A1:3=A5:3,A5:3-B5:3
"""

from __future__ import annotations

from typing import TypedDict

from sudokit.errors import SudokitError
from sudokit.geometry import Geometry

Candidate = tuple[int, int]
Link = tuple[Candidate, Candidate, bool]


class Highlight(TypedDict, total=False):
    """What to emphasise on a board (see the module docstring); every key is optional."""

    cells: list[int]
    units: list[int]
    candidates: list[Candidate]
    eliminations: list[Candidate]
    placements: list[Candidate]
    links: list[Link]


#: Command-line key -> spec key (the short forms are what people type).
KEYS = {
    "cells": "cells",
    "cell": "cells",
    "units": "units",
    "unit": "units",
    "candidates": "candidates",
    "cand": "candidates",
    "eliminations": "eliminations",
    "elim": "eliminations",
    "placements": "placements",
    "place": "placements",
    "links": "links",
    "link": "links",
}


def normalize(spec: Highlight | dict | None, geometry: Geometry) -> Highlight:
    """A checked copy of ``spec`` with every key present; bad cells, units or digits raise SudokitError."""
    spec = dict(spec or {})
    unknown = set(spec) - set(Highlight.__annotations__)
    if unknown:
        raise SudokitError(f"unknown highlight keys: {', '.join(sorted(unknown))}")
    n = geometry.size

    def cell(s) -> int:
        s = int(s)
        if not 0 <= s < geometry.n_cells:
            raise SudokitError(f"highlight names cell {s}, outside the {n}x{n} board")
        return s

    def cand(pair) -> Candidate:
        s, d = pair
        if not 1 <= int(d) <= n:
            raise SudokitError(f"highlight names digit {d}, outside 1..{n}")
        return cell(s), int(d)

    def unit(u) -> int:
        u = int(u)
        if not 0 <= u < len(geometry.units):
            raise SudokitError(f"highlight names unit {u}; this geometry has {len(geometry.units)}")
        return u

    return Highlight(
        cells=[cell(s) for s in spec.get("cells", ())],
        units=[unit(u) for u in spec.get("units", ())],
        candidates=[cand(p) for p in spec.get("candidates", ())],
        eliminations=[cand(p) for p in spec.get("eliminations", ())],
        placements=[cand(p) for p in spec.get("placements", ())],
        links=[(cand(a), cand(b), bool(strong)) for a, b, strong in spec.get("links", ())],
    )


def _unit_index(text: str, geometry: Geometry) -> int:
    if text.isascii() and text.isdigit():
        return int(text)
    names = {name.lower(): u for u, name in enumerate(geometry.unit_names)}
    key = " ".join(text.lower().split())
    if key in names:
        return names[key]
    raise SudokitError(f"no unit named {text!r} (e.g. {geometry.unit_names[0]!r}, {geometry.unit_names[-1]!r})")


def _candidate(text: str, geometry: Geometry) -> Candidate:
    label, sep, digit = text.strip().partition(":")
    if not sep or len(digit.strip()) != 1:
        raise SudokitError(f"a candidate is written cell:digit (e.g. A1:3), got {text!r}")
    symbol = digit.strip().upper()
    if symbol not in geometry.symbols:
        raise SudokitError(f"{symbol!r} is not a digit of a {geometry.size}x{geometry.size} board")
    return geometry.cell_of(label), geometry.symbols.index(symbol) + 1


def _link(text: str, geometry: Geometry) -> Link:
    for sep, strong in (("=", True), ("-", False)):
        if sep in text:
            a, _, b = text.partition(sep)
            return _candidate(a, geometry), _candidate(b, geometry), strong
    raise SudokitError(f"a link is written A1:3=A5:3 (strong) or A1:3-A5:3 (weak), got {text!r}")


def parse_highlight(text: str, geometry: Geometry) -> Highlight:
    """Read the ``--highlight`` syntax (see the module docstring) into a checked :class:`Highlight`."""
    spec: dict[str, list] = {}
    for part in text.split(";"):
        if not part.strip():
            continue
        key, sep, items = part.partition("=")
        key = key.strip().lower()
        if not sep or key not in KEYS:
            raise SudokitError(f"highlight parts are key=items with key one of {', '.join(sorted(set(KEYS)))}")
        field = KEYS[key]
        values = spec.setdefault(field, [])
        for item in (i.strip() for i in items.split(",")):
            if not item:
                continue
            if field == "cells":
                values.append(geometry.cell_of(item))
            elif field == "units":
                values.append(_unit_index(item, geometry))
            elif field == "links":
                values.append(_link(item, geometry))
            else:
                values.append(_candidate(item, geometry))
    return normalize(spec, geometry)
