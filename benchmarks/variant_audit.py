"""Variant audit against an independent oracle: ``python benchmarks/variant_audit.py [--size 4|6|8] [--seeds N]
[--start S] [--limit L] [--jigsaw] [--givens LO-HI] [--logic [--noise K] [--logic-seconds S]] [--formats N]``,
``--nine`` (9x9) or ``--corpus`` (the bundled puzzles).

Random small variant puzzles written as f-puzzles JSON (every field sudokit reads, drawn so a random solved
grid keeps them; the grids of the global rules found by a randomised search; ``--jigsaw`` random regions;
``--givens`` the share of the grid given), read by :func:`sudokit.formats.fpuzzles.read_fpuzzles`, and checked
against an **independent oracle**: each rule written again here from the f-puzzles field itself (not from
sudokit's constraint classes), and a brute-force count over the rows, columns and regions that checks each
rule once its cells are filled. Compared with it:

- ``count_variant``, ``count_plain`` and the kernel's ``run`` under the search settings of :data:`SETTINGS`
  (restarts after 1-3 failures, probing every node, bounds probing, branching on places): the count below
  the limit, and every returned grid distinct and keeping every rule by the oracle;
- ``solve_variant``'s status and solution;
- ``--logic``, on the puzzles with one solution: every row of the logic table (forcing chains included) run on
  every state of the walk, each step it finds checked against the solution (not only the first row's);
  ``--noise K`` first removes K wrong candidates at random before each step;
- ``--formats N``: the puzzle written as an f-puzzles, SudokuPad and ``scl`` link and read back (the written
  JSON counted by the oracle), and N damaged copies of its JSON and of its SudokuPad drawing read and counted
  (a traceback is a bug; an accepted copy the oracle reads must count as the oracle counts; ``--review F``
  writes the accepted ones it cannot read).

``--nine``: 9x9 puzzles of the generator's kinds (seeds, ``merges``, a rating) and random mixes made unique by
digging givens; each (and a copy with three givens fewer) counted by the plain solver and every kernel
setting, and walked as ``--logic`` does. ``--corpus``: the bundled puzzles walked that way. Prints each
disagreement with the puzzle's JSON; ends with the counts per kind and the CPU time (exit status 1 on a
problem).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from sudokit.constraints.solver import count_plain, count_variant, solve_variant
from sudokit.constraints.solver_model import Model, run
from sudokit.formats.fpuzzles import read_fpuzzles
from sudokit.result import Status

Check = tuple[tuple[int, ...], Callable[[list[int]], bool]]


# ---- random solved grids and constraints ---------------------------------------------------------------
def solved_grid(rng: random.Random, n: int) -> list[int]:
    h = max(d for d in range(1, math.isqrt(n) + 1) if n % d == 0)
    w = n // h
    base = [[(w * (r % h) + r // h + c) % n + 1 for c in range(n)] for r in range(n)]
    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    bands = rng.sample(range(w), w)
    rows = [b * h + r for b in bands for r in rng.sample(range(h), h)]
    stacks = rng.sample(range(h), h)
    cols = [s * w + c for s in stacks for c in rng.sample(range(w), w)]
    return [digits[base[r][c] - 1] for r in rows for c in cols]


def name(n: int, s: int) -> str:
    return f"R{s // n + 1}C{s % n + 1}"


def walk(
    rng: random.Random, n: int, length: int, ok: Callable[[list[int], int], bool], diag: bool = False
) -> list[int]:
    path = [rng.randrange(n * n)]
    steps = [(0, 1), (1, 0), (0, -1), (-1, 0)] + ([(1, 1), (1, -1), (-1, 1), (-1, -1)] if diag else [])
    for _ in range(length - 1):
        r, c = divmod(path[-1], n)
        options = [
            (r + dr) * n + c + dc
            for dr, dc in steps
            if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr) * n + c + dc not in path
        ]
        options = [s for s in options if ok(path, s)]
        if not options:
            break
        path.append(rng.choice(options))
    return path


def orth_pairs(n: int) -> list[tuple[int, int]]:
    out = []
    for r in range(n):
        for c in range(n):
            if c + 1 < n:
                out.append((r * n + c, r * n + c + 1))
            if r + 1 < n:
                out.append((r * n + c, (r + 1) * n + c))
    return out


def seen(vals: list[int]) -> int:
    top = count = 0
    for v in vals:
        if v > top:
            count, top = count + 1, v
    return count


def line_from_clue(n: int, r: int, c: int) -> list[int]:
    """The row or column a clue outside the grid (0-based, -1 or n) reads, from the clue's side."""
    if r == -1:
        return [i * n + c for i in range(n)]
    if r == n:
        return [i * n + c for i in range(n - 1, -1, -1)]
    if c == -1:
        return [r * n + i for i in range(n)]
    return [r * n + i for i in range(n - 1, -1, -1)]


def diagonal_from_clue(n: int, r: int, c: int, direction: str) -> list[int]:
    dr = -1 if direction[0] == "U" else 1
    dc = 1 if direction[1] == "R" else -1
    out = []
    r, c = r + dr, c + dc
    while 0 <= r < n and 0 <= c < n:
        out.append(r * n + c)
        r, c = r + dr, c + dc
    return out


def sandwich_sum(vals: list[int], n: int) -> int:
    i, j = sorted((vals.index(1), vals.index(n)))
    return sum(vals[i + 1 : j])


def random_fpuzzle(rng: random.Random, n: int, values: list[int], kinds: list[str], regions=None) -> dict:
    """An f-puzzles object whose rules ``values`` keeps: each field of ``kinds`` once or a few times."""
    v = values
    obj: dict = {"size": n}
    cells = range(n * n)

    def add(field: str, item: dict) -> None:
        obj.setdefault(field, []).append(item)

    def nm(line) -> list[str]:
        return [name(n, s) for s in line]

    def distinct(p: list[int], s: int) -> bool:
        return v[s] not in {v[q] for q in p}

    pill_cells: set[int] = set()  # cells of the arrows' pills so far
    for kind in kinds:
        for _ in range(rng.randint(1, 3)):
            if kind == "killercage":
                cage = walk(rng, n, rng.randint(1, 4), distinct)
                item = {"cells": nm(cage)}
                if rng.random() < 0.75:
                    item["value"] = str(sum(v[s] for s in cage))
                add(kind, item)
            elif kind in ("thermometer", "slowthermometer"):
                slow = kind == "slowthermometer"
                line = walk(
                    rng,
                    n,
                    rng.randint(2, 4),
                    lambda p, s, slow=slow: v[s] > v[p[-1]] or (slow and v[s] == v[p[-1]]),
                    True,
                )
                if len(line) > 1:
                    add(kind, {"lines": [nm(line)]})
            elif kind == "arrow":
                shaft = walk(rng, n, rng.randint(1, 3), lambda p, s: True, True)
                total = sum(v[s] for s in shaft)
                if rng.random() < 0.15:  # a pill the line comes back to: f-puzzles sums its first cell again
                    pills = [(a, b) for a, b in orth_pairs(n) if 9 * v[a] + v[b] == total]
                    pills = [p for p in pills if not set(p) & set(shaft)]
                    if pills:
                        a, b = rng.choice(pills)
                        add(kind, {"cells": nm((a, b)), "lines": [nm((b, *shaft, a))]})
                        pill_cells.update((a, b))
                        continue
                if rng.random() < 0.3 and total >= 11 and total % 10:  # a two-cell bulb ("pill")
                    tens, units = divmod(total, 10)
                    pills = [(a, b) for a, b in orth_pairs(n) if (v[a], v[b]) == (tens, units)]
                    pills = [p for p in pills if not set(p) & set(shaft)]
                    if pills:
                        a, b = rng.choice(pills)
                        add(kind, {"cells": nm((a, b)), "lines": [nm((b, *shaft))]})
                        pill_cells.update((a, b))
                        continue
                bulbs = [s for s in cells if v[s] == total and s not in shaft]
                shared = [s for s in bulbs if s in pill_cells]  # a one-cell bulb inside a pill: scl carries it
                if shared and rng.random() < 0.5:
                    bulbs = shared
                if bulbs:
                    b = rng.choice(bulbs)
                    add(kind, {"cells": nm((b,)), "lines": [nm((b, *shaft))]})
            elif kind in ("difference", "ratio", "xv"):
                pairs = orth_pairs(n)
                rng.shuffle(pairs)
                for a, b in pairs[: 2 * n]:
                    x, y = v[a], v[b]
                    if kind == "difference" and rng.random() < 0.5:
                        item = {"cells": nm((a, b))}
                        if abs(x - y) != 1:
                            item["value"] = str(abs(x - y))
                        if abs(x - y) == 1 or rng.random() < 0.2:
                            add(kind, item)
                    elif kind == "ratio" and (x % y == 0 or y % x == 0):
                        k = max(x, y) // min(x, y)
                        item = {"cells": nm((a, b))}
                        if k != 2:
                            item["value"] = str(k)
                        if k == 2 or rng.random() < 0.3:
                            add(kind, item)
                    elif kind == "xv" and x + y in (5, 10):
                        add(kind, {"cells": nm((a, b)), "value": "X" if x + y == 10 else "V"})
                break
            elif kind in ("odd", "even"):
                s = rng.choice([s for s in cells if v[s] % 2 == (kind == "odd")])
                add(kind, {"cell": name(n, s)})
            elif kind == "littlekillersum":
                side = rng.choice("TBLR")
                k = rng.randrange(n)
                r, c, direction = {
                    "T": (-1, k, rng.choice(["DR", "DL"])),
                    "B": (n, k, rng.choice(["UR", "UL"])),
                    "L": (k, -1, rng.choice(["UR", "DR"])),
                    "R": (k, n, rng.choice(["UL", "DL"])),
                }[side]
                line = diagonal_from_clue(n, r, c, direction)
                if line:
                    add(
                        kind,
                        {"cell": f"R{r + 1}C{c + 1}", "direction": direction, "value": str(sum(v[s] for s in line))},
                    )
            elif kind in ("sandwichsum", "xsum", "skyscraper"):
                k = rng.randrange(n)
                r, c = rng.choice([(-1, k), (n, k), (k, -1), (k, n)])
                line = [v[s] for s in line_from_clue(n, r, c)]
                value = {"sandwichsum": sandwich_sum(line, n), "xsum": sum(line[: line[0]]), "skyscraper": seen(line)}
                add(kind, {"cell": f"R{r + 1}C{c + 1}", "value": str(value[kind])})
            elif kind == "renban":
                line = walk(rng, n, rng.randint(2, 4), distinct, True)
                ds = {v[s] for s in line}
                if max(ds) - min(ds) == len(ds) - 1:
                    add(kind, {"lines": [nm(line)]})
            elif kind == "whispers":
                gap = rng.choice([math.ceil(n / 2), 2, 3])
                line = walk(rng, n, rng.randint(2, 5), lambda p, s, g=gap: abs(v[s] - v[p[-1]]) >= g, True)
                if len(line) > 1:
                    item = {"lines": [nm(line)]}
                    if gap != math.ceil(n / 2) or rng.random() < 0.5:
                        item["value"] = str(gap)
                    add(kind, item)
            elif kind == "palindrome":
                line = walk(rng, n, rng.randint(3, 5), lambda p, s: True, True)
                k = len(line)
                if all(v[line[i]] == v[line[k - 1 - i]] for i in range(k)):
                    add(kind, {"lines": [nm(line)]})
                elif k >= 2:  # a line of three whose ends match
                    same = [
                        (a, b)
                        for a in cells
                        for b in cells
                        if a < b and v[a] == v[b] and abs(a // n - b // n) <= 2 and abs(a % n - b % n) <= 2
                    ]
                    a, b = rng.choice(same)
                    mids = [
                        m
                        for m in cells
                        if m not in (a, b)
                        and max(abs(m // n - a // n), abs(m % n - a % n)) == 1
                        and max(abs(m // n - b // n), abs(m % n - b % n)) == 1
                    ]
                    if mids:
                        add(kind, {"lines": [nm((a, rng.choice(mids), b))]})
            elif kind == "betweenline":
                line = walk(rng, n, rng.randint(3, 5), lambda p, s: True, True)
                lo, hi = sorted((v[line[0]], v[line[-1]]))
                if len(line) >= 2 and all(lo < v[s] < hi for s in line[1:-1]):
                    add(kind, {"lines": [nm(line)]})
                else:  # ends around a middle drawn from the solution
                    line = walk(rng, n, 3, lambda p, s: len(p) != 1 or True, True)
                    if len(line) == 3 and min(v[line[0]], v[line[2]]) < v[line[1]] < max(v[line[0]], v[line[2]]):
                        add(kind, {"lines": [nm(line)]})
            elif kind in ("doublearrow", "zipperline", "regionsumline"):
                line = walk(rng, n, rng.randint(3, 6), lambda p, s: True, True)
                vals = [v[s] for s in line]
                k = len(vals)
                if kind == "doublearrow" and k >= 3 and vals[0] + vals[-1] == sum(vals[1:-1]):
                    add(kind, {"lines": [nm(line)]})
                elif kind == "zipperline":
                    sums = {vals[i] + vals[k - 1 - i] for i in range(k // 2)}
                    if len(sums) == 1 and (k % 2 == 0 or vals[k // 2] in sums):
                        add(kind, {"lines": [nm(line)]})
                elif kind == "regionsumline":
                    h = max(d for d in range(1, math.isqrt(n) + 1) if n % d == 0)
                    w = n // h
                    runs: list[list[int]] = []
                    for s in line:
                        box = regions[s] if regions else (s // n // h, s % n // w)
                        if runs and runs[-1][0] == box:
                            runs[-1][1].append(v[s])
                        else:
                            runs.append([box, [v[s]]])
                    if len(runs) >= 2 and len({sum(r[1]) for r in runs}) == 1:
                        add(kind, {"lines": [nm(line)]})
            elif kind == "quadruple":
                r, c = rng.randrange(n - 1), rng.randrange(n - 1)
                block = [r * n + c, r * n + c + 1, (r + 1) * n + c, (r + 1) * n + c + 1]
                listed = sorted(rng.sample([v[s] for s in block], rng.randint(1, 4)))
                add(kind, {"cells": nm(block), "values": listed})
            elif kind in ("modularline", "entropicline"):
                if kind == "entropicline" and n % 3:
                    continue
                cls = (lambda d: d % 3) if kind == "modularline" else (lambda d: (d - 1) * 3 // n)
                line = walk(
                    rng, n, rng.randint(2, 5), lambda p, s, cls=cls: all(cls(v[s]) != cls(v[q]) for q in p[-2:]), True
                )
                if len(line) > 1:
                    add(kind, {"lines": [nm(line)]})
            elif kind == "extraregion":
                region = walk(rng, n, rng.randint(2, n), distinct)
                add(kind, {"cells": nm(region)})
        if kind in ("antiknight", "antiking", "diagonal+", "diagonal-", "disjointgroups", "nonconsecutive"):
            obj[kind] = True
        if kind in ("negative_ratio", "negative_xv"):  # every dot / mark of the kind the grid has
            obj.setdefault("negative", []).append(kind[9:])
            field = kind[9:]
            have = {frozenset(cell_of(n, t) for t in item["cells"]) for item in obj.get(field, [])}
            if field == "ratio":
                have |= {frozenset(cell_of(n, t) for t in item["cells"]) for item in obj.get("difference", [])}
                ks = {2} | {int(item.get("value") or 2) for item in obj.get("ratio", [])}
            for a, b in orth_pairs(n):
                x, y = v[a], v[b]
                if frozenset((a, b)) in have:
                    continue
                if field == "ratio":
                    for k in sorted(ks):
                        if x == k * y or y == k * x:
                            add(field, {"cells": nm((a, b)), **({"value": str(k)} if k != 2 else {})})
                elif field == "xv" and x + y in (5, 10):
                    add(field, {"cells": nm((a, b)), "value": "X" if x + y == 10 else "V"})
    return obj


def random_regions(rng: random.Random, n: int) -> list[int]:
    """A random jigsaw: n connected regions of n cells (region number per cell), grown from random seeds."""
    while True:
        region = [-1] * (n * n)
        sizes = [1] * n
        for k, s in enumerate(rng.sample(range(n * n), n)):
            region[s] = k
        stuck = False
        while -1 in region and not stuck:
            options = [
                (t, region[s])
                for s in range(n * n)
                if region[s] >= 0 and sizes[region[s]] < n
                for t in (s - n, s + n, s - 1 if s % n else -1, s + 1 if s % n < n - 1 else -1)
                if 0 <= t < n * n and region[t] < 0
            ]
            if not options:
                stuck = True
                break
            t, k = rng.choice(options)
            region[t] = k
            sizes[k] += 1
        if not stuck:
            return region


GLOBAL = ("antiknight", "antiking", "diagonal+", "diagonal-", "disjointgroups", "nonconsecutive")


def search_tables(units: list[list[int]], checks: list[Check], cells: int) -> tuple[list[set[int]], list[list]]:
    """For a search in reading order: each cell's earlier peers, and the rules whose last cell it is."""
    peers: list[set[int]] = [set() for _ in range(cells)]
    for u in units:
        for a in u:
            peers[a].update(b for b in u if b < a)
    ready: list[list] = [[] for _ in range(cells)]
    for cs, fn in checks:
        ready[max(cs)].append(fn)
    return peers, ready


def random_grid(rng: random.Random, n: int, flags: list[str], regions=None) -> list[int] | None:
    """A random solved grid keeping the global rules ``flags`` (None when none is found quickly)."""
    obj = {"size": n, "grid": [[{} for _ in range(n)] for _ in range(n)], **{f: True for f in flags}}
    if regions:
        for s, k in enumerate(regions):
            obj["grid"][s // n][s % n]["region"] = k
    units, checks, _ = oracle(obj)
    cells = n * n
    peers, ready = search_tables(units, checks, cells)
    x = [0] * cells
    budget = [20000]

    def go(s: int) -> bool:
        if s == cells:
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        taken = {x[p] for p in peers[s]}
        for d in rng.sample(range(1, n + 1), n):
            if d in taken:
                continue
            x[s] = d
            if all(fn(x) for fn in ready[s]) and go(s + 1):
                return True
        x[s] = 0
        return False

    return x if go(0) else None


# ---- the oracle: every rule again, from the f-puzzles object ---------------------------------------------
def cell_of(n: int, text: str) -> int:
    r, c = text[1:].upper().split("C")
    return (int(r) - 1) * n + int(c) - 1


def oracle(obj: dict) -> tuple[list[list[int]], list[Check], list[int]]:
    """The units (rows, columns, boxes), the rules as (cells, test on the grid's values), and the givens."""
    n = obj["size"]
    h = max(d for d in range(1, math.isqrt(n) + 1) if n % d == 0)
    w = n // h
    units = [[r * n + c for c in range(n)] for r in range(n)] + [[r * n + c for r in range(n)] for c in range(n)]
    units += [
        [(br * h + i) * n + bc * w + j for i in range(h) for j in range(w)]
        for br in range(n // h)
        for bc in range(n // w)
    ]
    regions: dict[int, list[int]] = {}
    for r, row in enumerate(obj["grid"]):
        for c, cell in enumerate(row):
            if "region" in cell:
                regions.setdefault(cell["region"], []).append(r * n + c)
    if regions:  # a jigsaw: its regions replace the boxes
        units = units[: 2 * n] + [sorted(cs) for key, cs in sorted(regions.items()) if key is not None]
    region_of = {s: k for k, u in enumerate(units[2 * n : 3 * n]) for s in u}
    checks: list[Check] = []
    givens = [0] * (n * n)
    for r, row in enumerate(obj["grid"]):
        for c, cell in enumerate(row):
            if cell.get("given"):
                givens[r * n + c] = cell["value"]

    def add(cs, fn) -> None:
        checks.append((tuple(cs), fn))

    def cl(items) -> list[int]:
        return [cell_of(n, t) for t in items]

    def diff(cs):
        return lambda x, cs=cs: len({x[s] for s in cs}) == len(cs)

    for item in obj.get("killercage", []):
        cs = cl(item["cells"])
        add(cs, diff(cs))
        if item.get("value"):
            add(cs, lambda x, cs=cs, t=int(item["value"]): sum(x[s] for s in cs) == t)
    for field in ("thermometer", "slowthermometer"):
        for item in obj.get(field, []):
            for line in item["lines"]:
                cs = cl(line)
                if field == "thermometer":
                    add(cs, lambda x, cs=cs: all(x[a] < x[b] for a, b in zip(cs, cs[1:])))
                else:
                    add(cs, lambda x, cs=cs: all(x[a] <= x[b] for a, b in zip(cs, cs[1:])))
    for item in obj.get("arrow", []):
        bulb = cl(item["cells"])
        for line in item["lines"]:
            shaft = cl(line)[1:]  # f-puzzles sums every cell after the first, a bulb cell again too
            add(bulb + shaft, lambda x, b=bulb, sh=shaft: int("".join(str(x[s]) for s in b)) == sum(x[s] for s in sh))
    dotted, marked, ratios = set(), set(), set()
    for item in obj.get("difference", []):
        a, b = cl(item["cells"])
        k = int(item.get("value") or 1)
        dotted.add(frozenset((a, b)))
        add((a, b), lambda x, a=a, b=b, k=k: abs(x[a] - x[b]) == k)
    for item in obj.get("ratio", []):
        a, b = cl(item["cells"])
        k = int(item.get("value") or 2)
        dotted.add(frozenset((a, b)))
        ratios.add(k)
        add((a, b), lambda x, a=a, b=b, k=k: x[a] == k * x[b] or x[b] == k * x[a])
    for item in obj.get("xv", []):
        a, b = cl(item["cells"])
        t = 10 if str(item["value"]).upper() == "X" else 5
        marked.add(frozenset((a, b)))
        add((a, b), lambda x, a=a, b=b, t=t: x[a] + x[b] == t)
    for field in ("odd", "even"):
        for item in obj.get(field, []):
            s = cell_of(n, item["cell"])
            add((s,), lambda x, s=s, odd=field == "odd": x[s] % 2 == odd)

    def outside(text):
        r, c = text[1:].upper().split("C")
        return int(r) - 1, int(c) - 1

    for item in obj.get("littlekillersum", []):
        line = diagonal_from_clue(n, *outside(item["cell"]), item["direction"])
        add(line, lambda x, cs=line, t=int(item["value"]): sum(x[s] for s in cs) == t)
    for item in obj.get("sandwichsum", []):
        line = line_from_clue(n, *outside(item["cell"]))
        add(line, lambda x, cs=line, t=int(item["value"]): sandwich_sum([x[s] for s in cs], n) == t)
    for item in obj.get("xsum", []):
        line = line_from_clue(n, *outside(item["cell"]))
        add(line, lambda x, cs=line, t=int(item["value"]): sum(x[s] for s in cs[: x[cs[0]]]) == t)
    for item in obj.get("skyscraper", []):
        line = line_from_clue(n, *outside(item["cell"]))
        add(line, lambda x, cs=line, t=int(item["value"]): seen([x[s] for s in cs]) == t)
    for item in obj.get("renban", []):
        for line in item["lines"]:
            cs = cl(line)
            add(
                cs,
                lambda x, cs=cs: (
                    len({x[s] for s in cs}) == len(cs) and max(x[s] for s in cs) - min(x[s] for s in cs) == len(cs) - 1
                ),
            )
    for item in obj.get("whispers", []):
        g = int(item.get("value") or math.ceil(n / 2))
        for line in item["lines"]:
            cs = cl(line)
            add(cs, lambda x, cs=cs, g=g: all(abs(x[a] - x[b]) >= g for a, b in zip(cs, cs[1:])))
    for item in obj.get("palindrome", []):
        for line in item["lines"]:
            cs = cl(line)
            add(cs, lambda x, cs=cs: [x[s] for s in cs] == [x[s] for s in reversed(cs)])
    for item in obj.get("betweenline", []):
        for line in item["lines"]:
            cs = cl(line)
            add(cs, lambda x, cs=cs: all(min(x[cs[0]], x[cs[-1]]) < x[s] < max(x[cs[0]], x[cs[-1]]) for s in cs[1:-1]))
    for item in obj.get("doublearrow", []):
        for line in item["lines"]:
            cs = cl(line)
            add(cs, lambda x, cs=cs: x[cs[0]] + x[cs[-1]] == sum(x[s] for s in cs[1:-1]))
    for item in obj.get("zipperline", []):
        for line in item["lines"]:
            cs = cl(line)

            def zipper(x, cs=cs):
                k = len(cs)
                sums = {x[cs[i]] + x[cs[k - 1 - i]] for i in range(k // 2)}
                return len(sums) == 1 and (k % 2 == 0 or x[cs[k // 2]] in sums)

            add(cs, zipper)
    for item in obj.get("regionsumline", []):
        for line in item["lines"]:
            cs = cl(line)

            def region_sums(x, cs=cs):
                runs: list[list] = []
                for s in cs:
                    box = region_of.get(s)
                    if runs and runs[-1][0] == box:
                        runs[-1][1] += x[s]
                    else:
                        runs.append([box, x[s]])
                return len({r[1] for r in runs}) == 1

            add(cs, region_sums)
    for item in obj.get("quadruple", []):
        cs = cl(item["cells"])
        need = Counter(int(d) for d in item["values"])
        add(cs, lambda x, cs=cs, need=need: all(Counter(x[s] for s in cs)[d] >= k for d, k in need.items()))
    for field in ("modularline", "entropicline"):
        for item in obj.get(field, []):
            cls = (lambda d: d % 3) if field == "modularline" else (lambda d: (d - 1) * 3 // n)
            for line in item["lines"]:
                cs = cl(line)
                add(
                    cs,
                    lambda x, cs=cs, cls=cls: all(
                        len({cls(x[s]) for s in cs[i : i + 3]}) == len(cs[i : i + 3]) for i in range(len(cs))
                    ),
                )
    for item in obj.get("extraregion", []):
        cs = cl(item["cells"])
        add(cs, diff(cs))
    moves = []
    if obj.get("antiknight"):
        moves += [(1, 2), (2, 1), (1, -2), (2, -1)]
    if obj.get("antiking"):
        moves += [(1, 1), (1, -1)]
    for r in range(n):
        for c in range(n):
            for dr, dc in moves:
                if 0 <= r + dr < n and 0 <= c + dc < n:
                    a, b = r * n + c, (r + dr) * n + c + dc
                    add((a, b), lambda x, a=a, b=b: x[a] != x[b])
    if obj.get("diagonal+"):
        units.append([(n - 1 - i) * n + i for i in range(n)])
    if obj.get("diagonal-"):
        units.append([i * n + i for i in range(n)])
    if obj.get("disjointgroups"):
        boxes = units[2 * n : 3 * n]
        units += [[box[k] for box in boxes] for k in range(n)]
    negative = obj.get("negative", [])
    for a, b in orth_pairs(n):
        pair = frozenset((a, b))
        if obj.get("nonconsecutive") and pair not in dotted:
            add((a, b), lambda x, a=a, b=b: abs(x[a] - x[b]) != 1)
        if "ratio" in negative and pair not in dotted:
            ks = tuple(ratios | {2})  # f-puzzles' solver: 2 always, and every black dot's ratio
            add((a, b), lambda x, a=a, b=b, ks=ks: all(x[a] != k * x[b] and x[b] != k * x[a] for k in ks))
        if "xv" in negative and pair not in marked:
            add((a, b), lambda x, a=a, b=b: x[a] + x[b] not in (5, 10))
    return units, checks, givens


def oracle_ok(obj: dict, values: list[int] | tuple[int, ...]) -> bool:
    units, checks, givens = oracle(obj)
    x = list(values)
    n = obj["size"]
    if any(g and g != x[s] for s, g in enumerate(givens)):
        return False
    if any(sorted(x[s] for s in u) != list(range(1, n + 1)) for u in units):
        return False
    return all(fn(x) for _, fn in checks)


def brute_count(obj: dict, limit: int, deadline: float) -> int | None:
    """Solutions up to ``limit`` by plain backtracking in reading order (None past ``deadline``)."""
    units, checks, givens = oracle(obj)
    n = obj["size"]
    cells = n * n
    peers, ready = search_tables(units, checks, cells)
    x = [0] * cells
    count = 0
    ticks = 0

    def go(s: int) -> bool:
        nonlocal count, ticks
        if s == cells:
            count += 1
            return count >= limit
        ticks += 1
        if not ticks & 1023 and time.process_time() > deadline:
            raise TimeoutError
        taken = {x[p] for p in peers[s]}
        for d in (givens[s],) if givens[s] else range(1, n + 1):
            if d in taken:
                continue
            x[s] = d
            if all(fn(x) for fn in ready[s]) and go(s + 1):
                return True
        x[s] = 0
        return False

    try:
        go(0)
    except TimeoutError:
        return None
    return count


# ---- the comparisons --------------------------------------------------------------------------------------
SETTINGS = {
    "default": {},
    "restart1": {"restart_base": 1},
    "restart3+probe": {"restart_base": 3, "probe_after": 0, "probe_depth": 4},
    "probe-bounds": {"probe_after": 0, "probe_depth": 3, "probe_bounds": True},
    "places-max": {"places": 1, "restart_base": 2},
    "places-sum": {"places": 2},
    "no-restart+probe": {"restart_base": 0, "probe_after": 0, "probe_depth": 6},
}

ALL_FIELDS = [
    "killercage", "thermometer", "slowthermometer", "arrow", "difference", "ratio", "xv", "odd", "even",
    "littlekillersum", "sandwichsum", "xsum", "skyscraper", "renban", "whispers", "palindrome", "betweenline",
    "doublearrow", "zipperline", "regionsumline", "quadruple", "modularline", "entropicline", "extraregion",
    "antiknight", "antiking", "diagonal+", "diagonal-", "disjointgroups", "nonconsecutive", "negative_ratio",
    "negative_xv",
]  # fmt: skip


def puzzle_case(rng: random.Random, n: int, jigsaw: bool = False, givens=None) -> tuple[dict, list[int]]:
    """A random f-puzzles object on an n x n grid (its rules kept by a random solved grid, some of that grid
    given) and the grid. Global rules the grid breaks are left out."""
    while True:
        kinds = rng.sample(ALL_FIELDS, rng.randint(1, 4))
        flags = [k for k in kinds if k in GLOBAL]
        regions = random_regions(rng, n) if jigsaw else None
        found = random_grid(rng, n, flags, regions) if flags or regions else solved_grid(rng, n)
        if found is None:
            continue
        values = found
        obj = random_fpuzzle(rng, n, values, kinds, regions)
        keep = rng.uniform(*givens) if givens else rng.uniform(0.0, 0.3) if n == 4 else rng.uniform(0.35, 0.6)
        obj["grid"] = [
            [{"value": values[r * n + c], "given": True} if rng.random() < keep else {} for c in range(n)]
            for r in range(n)
        ]
        if regions:
            for s, k in enumerate(regions):
                obj["grid"][s // n][s % n]["region"] = k
        if oracle_ok(obj, values):
            return obj, values


def logic_report(label: str, obj: dict, solution: list[int], seconds: float, show: bool = False) -> tuple[int, int]:
    """:func:`logic_check` on one puzzle, printed: its steps and CPU time, then each unsound step (with the
    puzzle's JSON when ``show``). Returns (unsound steps, steps)."""
    start = time.process_time()
    bad, checked = logic_check(obj, solution, seconds)
    print(f"{label}: {checked} steps, {time.process_time() - start:.1f} s", flush=True)
    puzzle = f"\n  {json.dumps(obj, separators=(',', ':'))}" if show else ""
    for b in bad:
        print(f"  UNSOUND {b}{puzzle}", flush=True)
    return len(bad), checked


def logic_check(obj: dict, solution: list[int], seconds: float) -> tuple[list[str], int]:
    """Every row's step on every state of the walk, checked against the solution: (unsound steps, steps)."""
    from sudokit.logic import registry
    from sudokit.logic.explain import next_step
    from sudokit.logic.state import State

    state = State.from_variant(read_fpuzzles(obj))
    rows = registry.applicable(state)
    bad: list[str] = []
    checked = 0
    end = time.process_time() + seconds
    rng = random.Random(len(bad) + sum(solution))
    while not state.is_solved() and time.process_time() < end:
        wrong = [(s, d) for s in state.empty_cells() for d in state.digits(s) if d != solution[s]]
        for s, d in rng.sample(wrong, min(NOISE[0], len(wrong))):  # sound removals no row made (--noise)
            state.eliminate(s, d)
        for row in rows:
            if time.process_time() > end:
                break
            try:
                step = row.find(state.copy())
            except Exception as exc:  # noqa: BLE001 - a crash is reported as a problem
                bad.append(f"{row.name}: CRASH {exc!r} on {state.to_grid().to_line()}")
                continue
            if step is None:
                continue
            checked += 1
            if any(solution[s] != d for s, d in step.placements) or any(solution[s] == d for s, d in step.eliminations):
                bad.append(f"{row.name}: {step.explanation}")
        step = next_step(state, rows)
        if step is None:
            break
        state.apply(step)
    return bad, checked


@dataclass
class Case:
    """One random puzzle's audit: its JSON, the fields it uses, the brute-force count (None: over its time),
    the logic steps checked and every disagreement found."""

    text: str
    fields: list[str]
    expected: int | None
    steps: int = 0
    problems: list[str] = dataclasses.field(default_factory=list)


def audit_case(
    seed: int, size: int, limit: int = 20, logic: bool = False, seconds: float = 20.0, formats: int = 0,
    jigsaw: bool = False, givens: tuple[float, ...] | None = None,
) -> Case:  # fmt: skip
    """The checks of the module doc on the random puzzle of ``seed`` (the runner's loop body; tests call it)."""
    rng = random.Random(seed * 1000 + size)
    obj, values = puzzle_case(rng, size, jigsaw, givens)
    fields = [k for k in ALL_FIELDS if k in obj or k[9:] in obj.get("negative", [])]
    case = Case(json.dumps(obj, separators=(",", ":")), fields, brute_count(obj, limit, time.process_time() + 20))
    expected = case.expected
    if expected is None:
        return case
    msgs = case.problems
    try:
        puzzle = read_fpuzzles(obj)
    except Exception as exc:  # noqa: BLE001 - every failure is reported
        msgs.append(f"read failed {exc!r}")
        return case
    got = count_variant(puzzle, limit)
    if got != expected:
        msgs.append(f"count_variant {got} != {expected}")
    plain = count_plain(puzzle, limit)
    if plain != expected:
        msgs.append(f"count_plain {plain} != {expected}")
    model = Model.of(puzzle)
    for label, kw in SETTINGS.items():
        out = run(model, limit, keep=limit, **kw)
        rows = [tuple(int(d) for d in r) for r in out.solutions]
        if out.count != expected:
            msgs.append(f"run[{label}] count {out.count} != {expected}")
        if len(set(rows)) != len(rows):
            msgs.append(f"run[{label}] the same grid twice")
        if any(not oracle_ok(obj, r) for r in rows):
            msgs.append(f"run[{label}] a grid breaking a rule")
    result = solve_variant(puzzle)
    want = {0: Status.NO_SOLUTION, 1: Status.SOLVED}.get(expected, Status.MULTIPLE)
    if result.status is not want:
        msgs.append(f"solve_variant {result.status} (brute {expected})")
    elif want is Status.SOLVED and not oracle_ok(obj, result.solution.values):
        msgs.append("solve_variant's solution breaks a rule")
    if expected == 1 and logic:
        bad, case.steps = logic_check(obj, values, seconds)
        msgs += [f"UNSOUND {b}" for b in bad]
    if formats:
        msgs += round_trips(obj, expected, limit)
        msgs += damage_check(rng, obj, formats)
    return case


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--size", type=int, default=4)
    parser.add_argument("--limit", type=int, default=20, help="solutions counted up to (default 20)")
    parser.add_argument("--logic", action="store_true", help="walk the unique ones with every logic row")
    parser.add_argument("--logic-seconds", type=float, default=20.0)
    parser.add_argument("--corpus", action="store_true", help="the bundled variant puzzles, every logic row")
    parser.add_argument("--noise", type=int, default=0, help="wrong candidates removed before each logic step")
    parser.add_argument("--jigsaw", action="store_true", help="random jigsaw regions instead of boxes")
    parser.add_argument("--givens", help="the share of the solution given, LO-HI (default 0-0.3 on 4x4, 0.35-0.6)")
    parser.add_argument("--nine", action="store_true", help="9x9: generated kinds and mixes, every logic row")
    parser.add_argument("--review", help="write the damaged copies accepted but unjudged here")
    parser.add_argument("--formats", type=int, default=0, help="round trips, and this many damaged copies each")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}", flush=True)
    NOISE[0] = args.noise
    if args.corpus:
        corpus(args.logic_seconds)
        return
    if args.nine:
        nine(range(args.start, args.start + args.seeds), args.logic_seconds)
        return
    if args.review:
        REVIEW.append(open(args.review, "w", encoding="utf-8"))  # noqa: SIM115 - open for the whole run
    cpu = time.process_time()
    kinds: Counter[str] = Counter()
    problems = skipped = unique = logic_steps = 0
    share = tuple(map(float, args.givens.split("-"))) if args.givens else None
    for seed in range(args.start, args.start + args.seeds):
        case = audit_case(seed, args.size, args.limit, args.logic, args.logic_seconds, args.formats, args.jigsaw, share)
        kinds.update(case.fields)
        if case.expected is None:
            skipped += 1
            continue
        unique += case.expected == 1
        logic_steps += case.steps
        if case.problems:
            problems += 1
            print(f"seed {seed}: " + "; ".join(case.problems) + f"\n  {case.text}", flush=True)
    cpu = time.process_time() - cpu
    print(
        f"\n{args.seeds} puzzles {args.size}x{args.size} (seeds {args.start}..{args.start + args.seeds - 1}), "
        f"{skipped} skipped (brute force over 20 s), {unique} unique, {problems} with a problem, "
        f"{logic_steps} logic steps checked; CPU {cpu:.1f} s; load average {os.getloadavg()[0]:.1f}"
    )
    print("fields:", dict(sorted(kinds.items())))
    if args.formats:
        print("damaged copies:", dict(DAMAGE))
    sys.exit(1 if problems else 0)


# ---- formats: round trips and damaged objects -------------------------------------------------------------
def round_trips(obj: dict, expected: int, limit: int) -> list[str]:
    """The puzzle written as an f-puzzles link, a SudokuPad link and an ``scl`` link, read back and written
    as f-puzzles JSON again: the oracle's count of that JSON must be the original's."""
    from sudokit.formats.fpuzzles import parse_variant, to_fpuzzles, to_link

    out = []
    puzzle = read_fpuzzles(obj)
    for site in ("f-puzzles", "sudokupad", "scl"):
        try:
            again = to_fpuzzles(parse_variant(to_link(puzzle, site)))
            got = brute_count(again, limit, time.process_time() + 20)
        except Exception as exc:  # noqa: BLE001 - every failure is reported
            out.append(f"{site} round trip: {exc!r}")
            continue
        if got is not None and got != expected:
            out.append(f"{site} round trip: the oracle counts {got}, not {expected}: {json.dumps(again)}")
    return out


DAMAGE: Counter[str] = Counter()
NOISE = [0]  # wrong candidates removed at random before each step of a logic walk (--noise)
REVIEW: list = []  # a file for the accepted copies the oracle cannot read
JUNK: list[object] = [
    None,
    True,
    0,
    -1,
    1.5,
    10**12,
    "",
    "x",
    "R0C0",
    "R99C1",
    "R1C1",
    [],
    {},
    ["R1C1", "R1C1"],
    [["R1C1"]],
    "NaN",
]


def damaged(rng: random.Random, obj: dict) -> dict:
    """A copy of ``obj`` with one random leaf, list or key replaced by junk (or a list item repeated)."""
    out = json.loads(json.dumps(obj))
    paths: list[tuple[object, object]] = []

    def collect(node: object) -> None:
        if isinstance(node, dict):
            for k, val in node.items():
                paths.append((node, k))
                collect(val)
        elif isinstance(node, list):
            for i, val in enumerate(node):
                paths.append((node, i))
                collect(val)

    collect(out)
    parent, key = rng.choice(paths)
    what = rng.random()
    if what < 0.15 and isinstance(parent, dict):
        del parent[key]  # type: ignore[arg-type]
    elif what < 0.3 and isinstance(parent, list):
        parent.append(parent[key])  # type: ignore[index]
    else:
        parent[key] = rng.choice(JUNK)  # type: ignore[index]
    return out


def damage_check(rng: random.Random, obj: dict, tries: int) -> list[str]:
    """Damaged copies through the reader and the solver: an exception other than SudokitError is a bug; an
    accepted copy the oracle reads must count as the oracle counts."""
    from sudokit.errors import SudokitError
    from sudokit.formats.fpuzzles import parse_variant, read_puzzle_object
    from sudokit.formats.sudokupad import fpuzzles_to_sudokupad

    out = []
    drawing = fpuzzles_to_sudokupad(obj)
    for _ in range(tries):  # SudokuPad's drawing damaged: read as an error or a puzzle, never a traceback
        bad_drawing = damaged(rng, drawing)
        DAMAGE["drawings"] += 1
        try:
            count_variant(read_puzzle_object(bad_drawing), 3, time_limit=5)
        except SudokitError:
            continue
        except Exception as exc:  # noqa: BLE001 - the bug this looks for
            out.append(f"damaged drawing: {exc!r}: {json.dumps(bad_drawing)}")
    for _ in range(tries):
        bad = damaged(rng, obj)
        text = json.dumps(bad)
        DAMAGE["copies"] += 1
        try:
            puzzle = parse_variant(text)
            got = count_variant(puzzle, 3, time_limit=5)
        except SudokitError:
            continue
        except Exception as exc:  # noqa: BLE001 - the bug this looks for
            out.append(f"damaged: {exc!r}: {text}")
            continue
        DAMAGE["accepted"] += 1
        try:
            want = brute_count(bad, 3, time.process_time() + 10)
        except Exception:  # noqa: BLE001 - the oracle cannot read it: judged by hand (--review)
            DAMAGE["unjudged"] += 1
            if REVIEW:
                print(f"review: {text}", file=REVIEW[0])
            continue
        if want is not None and want != got:
            out.append(f"damaged and accepted: count {got}, the oracle {want}: {text}")
    return out


# ---- 9x9: the generator's kinds and random mixes, walked by every logic row ---------------------------------
def nine_cases(seeds: range):
    """(label, f-puzzles object, solution) for the generator's kinds (several seeds, merges and a rating) and
    random mixes of every field on 9x9 made unique by digging givens with the variant counter."""
    import numpy as np

    from sudokit.formats.fpuzzles import to_fpuzzles
    from sudokit.generate.variants import KINDS, dig, generate_variant
    from sudokit.geometry import standard

    for seed in seeds:
        kind = KINDS[seed % len(KINDS)]
        options: dict = {}
        if kind == "killer" and seed % 3 == 1:
            options["merges"] = 10 + seed % 20
        if seed % 7 == 3:
            options["rating"] = (2.0, 9.0)
        made = generate_variant(kind, seed, **options)
        yield f"{kind} {options}", to_fpuzzles(made.puzzle), list(made.solution.values)
        rng = random.Random(seed)
        kinds = rng.sample(ALL_FIELDS, rng.randint(2, 5))
        flags = [k for k in kinds if k in GLOBAL]
        values = random_grid(rng, 9, flags) if flags else solved_grid(rng, 9)
        if values is None:
            continue
        obj = random_fpuzzle(rng, 9, values, kinds)
        obj["grid"] = [[{} for _ in range(9)] for _ in range(9)]
        if not oracle_ok(obj, values):
            continue
        puzzle = read_fpuzzles(obj)
        dug = dig(standard(), values, list(puzzle.constraints), np.random.default_rng(seed), time.perf_counter() + 30)
        yield f"mix {','.join(kinds)}", to_fpuzzles(dug), values


def nine_counts(obj: dict, rng: random.Random, limit: int = 20) -> list[str]:
    """The puzzle and a copy with a few givens taken out, counted by the plain solver and by the kernel under
    every setting of :data:`SETTINGS` (no brute force on 9x9: they must agree), each grid kept by the oracle."""
    out = []
    loose = json.loads(json.dumps(obj))
    given = [(r, c) for r, row in enumerate(loose["grid"]) for c, cell in enumerate(row) if cell.get("given")]
    for r, c in rng.sample(given, min(len(given), 3)):
        loose["grid"][r][c] = {k: v for k, v in loose["grid"][r][c].items() if k not in ("value", "given")}
    for which, case in (("puzzle", obj), ("fewer givens", loose)):
        puzzle = read_fpuzzles(case)
        counts = {"plain": count_plain(puzzle, limit)}
        model = Model.of(puzzle)
        for label, kw in SETTINGS.items():
            got = run(model, limit, keep=limit, **kw)
            rows = [tuple(int(d) for d in row) for row in got.solutions]
            counts[label] = got.count
            if len(set(rows)) != len(rows) or any(not oracle_ok(case, row) for row in rows):
                out.append(f"{which}: run[{label}] repeats a grid or keeps one breaking a rule")
        if len(set(counts.values())) != 1 or (which == "puzzle" and counts["plain"] != 1):
            out.append(f"{which}: counts differ {counts}")
    return out


def corpus(seconds: float) -> None:
    """The bundled variant puzzles (data/variants/iss_fpuzzles.jsonl) walked with every row on every state
    (with ``--noise``, wrong candidates removed at random first), each step checked against the solution."""
    from pathlib import Path

    data = Path(__file__).resolve().parents[1] / "data" / "variants" / "iss_fpuzzles.jsonl"
    cpu = time.process_time()
    problems = steps = 0
    for number, line in enumerate(data.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        rec = json.loads(line)
        solution = [int(ch, 36) for ch in rec["solution"]]
        unsound, checked = logic_report(f"line {number} {rec['name']}", rec["fpuzzles"], solution, seconds)
        problems += unsound
        steps += checked
    print(
        f"\ncorpus: {steps} steps checked, {problems} problems, noise {NOISE[0]}, "
        f"CPU {time.process_time() - cpu:.1f} s, load average {os.getloadavg()[0]:.1f}"
    )


def nine(seeds: range, seconds: float) -> None:
    cpu = time.process_time()
    problems = steps = 0
    for label, obj, solution in nine_cases(seeds):
        if not oracle_ok(obj, solution):
            print(f"{label}: the solution breaks a rule by the oracle: {json.dumps(obj)}")
            problems += 1
            continue
        for msg in nine_counts(obj, random.Random(len(label) + steps)):
            problems += 1
            print(f"{label}: {msg}\n  {json.dumps(obj, separators=(',', ':'))}", flush=True)
        unsound, checked = logic_report(label, obj, solution, seconds, show=True)
        problems += unsound
        steps += checked
    print(
        f"\n9x9: seeds {seeds.start}..{seeds.stop - 1}, {steps} steps checked, {problems} problems, "
        f"CPU {time.process_time() - cpu:.1f} s, load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
