"""Variant puzzles: the constraint kinds, the f-puzzles reader/writer and the variant solver.

The bundled corpus (data/variants/iss_fpuzzles.jsonl) is solved and checked against its given solutions;
random constraints made true by a random solved 4x4/6x6 grid are solved and counted against an independent
brute-force count; bad inputs give one clear line.
"""

from __future__ import annotations

import json
import random
from itertools import combinations
from pathlib import Path

import pytest

import sudokit
from sudokit.constraints import (
    XV,
    AntiKing,
    AntiKnight,
    Arrow,
    BetweenLine,
    Diagonal,
    EqualSums,
    ExtraRegion,
    KillerCage,
    Kropki,
    LittleKiller,
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
from sudokit.constraints.solver import count_variant, solve_variant
from sudokit.errors import SudokitError
from sudokit.formats.fpuzzles import NOT_YET, compress, parse_variant, read_fpuzzles, to_json, to_link
from sudokit.geometry import standard
from sudokit.grid import Grid
from sudokit.result import Status

CORPUS = Path(__file__).resolve().parents[1] / "data" / "variants" / "iss_fpuzzles.jsonl"
LINES = [json.loads(line) for line in CORPUS.read_text().splitlines()]
BY_NAME = {d["name"]: d for d in LINES}


def _read(d: dict) -> VariantPuzzle | None:
    try:
        return read_fpuzzles(d["fpuzzles"])
    except SudokitError as exc:
        assert "not support" in str(exc), str(exc)
        return None


SUPPORTED = [d for d in LINES if _read(d) is not None]

#: One or more quick puzzles of each family: these must be solved (not time out) and proved unique.
QUICK = [
    "Classic sudoku",
    "Odd & even",
    "Thermo",
    "German Whispers",
    "Elementary",
    "Sudoku Variants Series (013)",
    "Killer",
    "Arrow",
    "XV Kropki Sudoku",
    "Little Killer Sudoku",
    "Between 1 and 9 Sudoku",
    "Sudoku X",
    "I just like colours",
    "Jigsaw",
    "16x16: Jigsaw",
    "6x6",
    "Anti-knights move",
    "Anti-knight Anti-king",
    "Strict kropki",
    "Strict XV",
    "Windoku",
    "Anti-knight Anti-consecutive",
    "6x6: Little Killer",
    "Killer sudoku [gaps]",
    "Sudoku Variants Series (173)",
    "Modular Lines 1",
    "6x6: Between Odd and Even",
    "Double arrow",
    "Septa",
    "Zipper lines - tutorial",
    "Quadruple X",
    "Quadruple - repeated values",
    "X-Sum little killer",
]


def test_corpus_counts():
    assert len(LINES) == 96
    assert len(SUPPORTED) >= 75
    for name in QUICK:
        assert any(d["name"].startswith(name) for d in SUPPORTED), name


@pytest.mark.parametrize("name", QUICK)
def test_quick_corpus_puzzles_are_solved_and_unique(name):
    d = next(d for d in SUPPORTED if d["name"].startswith(name))
    puzzle = read_fpuzzles(d["fpuzzles"])
    result = solve_variant(puzzle, limit=2)
    assert result.status is Status.SOLVED, (name, result.status)
    assert result.solution.to_line() == d["solution"]
    assert result.count == 1
    assert puzzle.is_solution(result.solution)


#: Corpus puzzles whose proof takes about a second of CPU or more: marked slow (CI runs them).
SLOW_PROOFS = {
    "Killing with flowers",
    "The Barbed Cross",
    "Hailstone - little killer",
    "Anti-consectutive, hard",
    "Wecoc #1",
    "Wecoc #1 [mod A]",
    "Wecoc #2",
    "tarek unsolvable #41",
    "Hard renban 1",
    "Hard renban 2",
    "16x16: Sudoku X, very hard",
    "16x16: Sudoku X, hard",
    "16x16: Windoku",
    "3x3:d:k:26:27:3585:3586:3587",  # a name's start
    "I want to break free",
    "A kind of magic",
}


def _corpus_param(d: dict):
    slow = any(d["name"].startswith(name) for name in SLOW_PROOFS)
    return pytest.param(d, id=d["name"][:40], marks=[pytest.mark.slow] if slow else [])


def test_corpus_proof_lists_name_corpus_puzzles():
    names = [d["name"] for d in SUPPORTED]
    assert all(any(n.startswith(slow) for n in names) for slow in SLOW_PROOFS)


@pytest.mark.parametrize("d", [_corpus_param(d) for d in SUPPORTED])
def test_every_corpus_puzzle_is_solved_and_its_count_proved(d):
    """Issue #23's first measure: every corpus puzzle solved to the file's solution and its count proved (1,
    or the file's count where it gives one: one puzzle has 2 solutions). The wall-clock limit is generous, only
    so that a hung run cannot stall the suite."""
    puzzle = read_fpuzzles(d["fpuzzles"])
    expected = d.get("count") or 1
    result = solve_variant(puzzle, limit=2, time_limit=300.0)
    assert result.status is not Status.TIMEOUT
    assert result.count == expected, (result.status, result.count)
    if expected == 1:
        assert result.status is Status.SOLVED
        assert result.solution.to_line() == d["solution"]
        assert puzzle.is_solution(result.solution)
    else:
        assert result.status is Status.MULTIPLE
        first = solve_variant(puzzle, limit=1)
        assert first.status is Status.SOLVED and puzzle.is_solution(first.solution)


@pytest.mark.parametrize("index", range(len(SUPPORTED)))
def test_fpuzzles_round_trip(index):
    puzzle = read_fpuzzles(SUPPORTED[index]["fpuzzles"])
    again = parse_variant(to_json(puzzle))
    assert to_json(again) == to_json(puzzle)
    assert again.geometry == puzzle.geometry
    assert [c.describe(puzzle.geometry) for c in again.constraints] == [
        c.describe(puzzle.geometry) for c in puzzle.constraints
    ]


def test_links_in_and_out():
    d = BY_NAME["Thermo"]
    payload = compress(json.dumps(d["fpuzzles"]))
    for text in (
        "https://f-puzzles.com/?load=" + payload,
        "https://sudokupad.app/fpuzzles" + payload,
        "https://sudokupad.app/?puzzleid=fpuzzles" + payload,
        "fpuzzles" + payload,
        payload,
        json.dumps(d["fpuzzles"]),
    ):
        result = sudokit.solve(text)
        assert result.status is Status.SOLVED and result.solution.to_line() == d["solution"], text[:40]
    puzzle = parse_variant(payload)
    for site in ("f-puzzles", "sudokupad"):
        assert to_json(parse_variant(to_link(puzzle, site))) == to_json(puzzle)
    assert sudokit.count_solutions("https://f-puzzles.com/?load=" + payload, limit=5) == 1


def test_classic_entry_points_unchanged():
    line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    assert sudokit.solve(line).method == "engine"
    assert sudokit.count_solutions(line) == 1


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"size": 9, "grid": [', "bad JSON at line 1"),
        ("https://sudokupad.app/8bNmDd4J9G", "needs the network"),
        ("https://sudokupad.app/sclN4IgzglgXg", "damaged"),
        ("https://example.com/puzzle", "not an f-puzzles or SudokuPad link"),
        ("https://f-puzzles.com/?load=N4Ig!!", "not lz-string base64"),
        ("https://f-puzzles.com/?load=AAAA", "damaged"),
        ('{"size": 4, "grid": []}', "field 'grid'"),
        ('{"size": "9"}', "field 'size'"),
    ],
)
def test_bad_inputs_one_line(text, words):
    with pytest.raises(SudokitError) as info:
        parse_variant(text)
    assert words in str(info.value)
    assert "\n" not in str(info.value)


def _fp(size: int = 4, **fields) -> str:
    return json.dumps({"size": size, "grid": [[{} for _ in range(size)] for _ in range(size)], **fields})


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"killercage": [{"cells": ["R1C1", "R1C2"], "value": "9"}]}, "killer cage r1c1 r1c2: no 2 different"),
        ({"killercage": [{"cells": ["R1C1", "R9C2"], "value": "5"}]}, "killercage[0].cells[1]: 'R9C2'"),
        ({"clone": [{"cells": ["R1C1"], "cloneCells": ["R2C2"]}]}, "'clone' (clones)"),
        ({"skyscraper": [{"cell": "R0C1", "value": "5"}]}, "a skyscraper sees 1..4 digits, not 5"),
        ({"entropicline": [{"lines": [["R1C1", "R1C2", "R1C3"]]}]}, "do not split into thirds"),
        ({"bananas": [{"cells": ["R1C1"]}]}, "field 'bananas': unknown constraint kind"),
        ({"xv": [{"cells": ["R1C1", "R1C2"], "value": "Y"}]}, "xv[0].value"),
        ({"difference": [{"cells": ["R1C1", "R3C3"]}]}, "not orthogonal neighbours"),
        ({"negative": ["difference"]}, "negative 'difference'"),
        ({"antiknight": "yes"}, "field 'antiknight'"),
        ({"quadruple": [{"cells": ["R1C1", "R1C2", "R2C1", "R2C2"], "values": ["1", ""]}]}, "quadruple[0].values"),
        # wrong types that used to drop a rule silently: an arrow's shafts, a field that is not a list
        ({"arrow": [{"cells": ["R1C1"], "lines": 0}]}, "arrow[0].lines: expected a list"),
        ({"arrow": [{"cells": ["R1C1"]}]}, "arrow[0].lines: expected a list"),
        ({"arrow": [{"cells": ["R1C1"], "lines": []}]}, "arrow[0].lines: expected a list"),
        ({"renban": 0}, "field 'renban': expected a list"),
        ({"arrow": [{"cells": ["R1C1"], "lines": [["R1C2", "R1C3"]]}]}, "arrow[0].lines[0]: the arrow does not start"),
        ({"littlekillersum": [{"cell": "R2C2", "direction": "DR", "value": "5"}]}, "'R2C2' is inside the grid"),
        ({"xv": [{"cells": ["R1C1", "R1C2", "R1C3"], "value": "X"}]}, "xv[0].cells: a dot or mark joins two cells"),
        (
            {"littlekillersum": [{"cell": "R0C1", "direction": "DR", "value": "5", "cells": ["R1C1", "R2C2"]}]},
            "littlekillersum[0].cells: not the diagonal from 'R0C1' going 'DR'",
        ),  # f-puzzles' solver sums these
        # sums no digits make: a 10**21 overflowed the compiled solver's integers (a traceback)
        ({"littlekillersum": [{"cell": "R0C1", "direction": "DR", "value": "1" + "0" * 21}]}, "little killer 1000"),
        ({"sandwichsum": [{"cell": "R0C1", "value": "1" + "0" * 21}]}, "no digits 1..4 make it (possible: 0..5)"),
        ({"xsum": [{"cell": "R0C1", "value": "-3"}]}, "X-sum -3 on r1c1..r4c1: no digits 1..4 make it"),
    ],
)
def test_bad_fields_name_the_field(fields, words):
    with pytest.raises(SudokitError) as info:
        parse_variant(_fp(**fields))
    assert words in str(info.value)
    assert "\n" not in str(info.value)


def test_every_not_yet_field_is_refused_not_dropped():
    for field in NOT_YET:
        with pytest.raises(SudokitError, match=field):
            parse_variant(_fp(**{field: [{"lines": [["R1C1", "R1C2"]]}]}))


def test_empty_lists_and_false_flags_set_no_rule():
    puzzle = parse_variant(_fp(betweenline=[], antiknight=False, killercage=[]))
    assert puzzle.constraints == ()


def test_negative_ratio_forbids_2_beside_dots_of_other_ratios():
    """With black dots of ratio 3 only, "all black dots given" still forbids unmarked neighbours in ratio 2, as
    f-puzzles' own solver reads it (sudokit forbade only 3: a puzzle could gain solutions f-puzzles has not)."""
    from sudokit.constraints import NegativeRatio

    puzzle = parse_variant(_fp(ratio=[{"cells": ["R1C1", "R1C2"], "value": "3"}], negative=["ratio"]))
    (rule,) = [c for c in puzzle.constraints if isinstance(c, NegativeRatio)]
    assert rule.ratios == (2, 3)
    values = [1, 3, 2, 4, 2, 4, 1, 3, 3, 1, 4, 2, 4, 2, 3, 1]  # r1c3-r1c4 hold 2 and 4, unmarked
    assert not rule.check(values)


def test_a_region_sum_line_skips_cells_of_no_region():
    """A jigsaw's cells of no region ("region": null) are on no segment of a region sum line (f-puzzles' solver
    skips them); sudokit made each run of them a segment whose sum had to match the others'."""
    rows = [[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 2, 2], [None, None, None, None]]
    grid = [[{"region": k} for k in row] for row in rows]
    text = json.dumps({"size": 4, "grid": grid, "regionsumline": [{"lines": [["R2C1", "R3C2", "R4C3"]]}]})
    (rule,) = parse_variant(text).constraints
    assert sorted(rule.left + rule.right) == [4, 9]  # r2c1 and r3c2, not r4c3
    everything_null = json.dumps({"size": 4, "grid": [[{"region": None}] * 4] * 4, "regionsumline": [
        {"lines": [["R1C1", "R2C2"]]}]})  # fmt: skip
    assert parse_variant(everything_null).constraints[0].check([1] * 16)  # no segment: no rule


def test_sandwich_and_little_killer_geometry():
    puzzle = parse_variant(
        _fp(
            sandwichsum=[{"cell": "R0C2", "value": "0"}, {"cell": "R3C5", "value": "2"}],
            littlekillersum=[{"cell": "R5C0", "direction": "UR", "value": "10"}],
        )
    )
    diagonal, down, left = puzzle.constraints  # the reader takes little killers before sandwiches
    assert down.line == (1, 5, 9, 13) and left.line == (11, 10, 9, 8)
    assert diagonal.line == (12, 9, 6, 3)


# ---- property tests: random constraints made true by a random solved grid -----------------------
def _solved_grid(rng: random.Random, h: int, w: int) -> list[int]:
    n = h * w
    base = [[(w * (r % h) + r // h + c) % n + 1 for c in range(n)] for r in range(n)]
    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    bands = rng.sample(range(w), w)
    rows = [b * h + r for b in bands for r in rng.sample(range(h), h)]
    stacks = rng.sample(range(h), h)
    cols = [s * w + c for s in stacks for c in rng.sample(range(w), w)]
    return [digits[base[r][c] - 1] for r in rows for c in cols]


def _walk(rng: random.Random, n: int, start: int, steps: int, ok) -> list[int]:
    path = [start]
    for _ in range(steps):
        r, c = divmod(path[-1], n)
        options = [
            (r + dr) * n + c + dc
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
            if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr) * n + c + dc not in path
        ]
        options = [s for s in options if ok(path, s)]
        if not options:
            break
        path.append(rng.choice(options))
    return path


def _random_constraints(rng: random.Random, values: list[int], h: int, w: int) -> list:
    n = h * w
    cells = list(range(n * n))
    out: list = []
    for _ in range(rng.randint(0, 3)):  # killer cages: distinct digits, with or without the sum
        cage = _walk(rng, n, rng.choice(cells), rng.randint(1, 3), lambda p, s: values[s] not in {values[q] for q in p})
        out.append(KillerCage(tuple(cage), sum(values[s] for s in cage) if rng.random() < 0.8 else None))
    for _ in range(rng.randint(0, 2)):  # thermometers (slow ones may stay level)
        slow = rng.random() < 0.3

        def rising(p, s, slow=slow):
            return values[s] > values[p[-1]] or slow and values[s] == values[p[-1]]

        line = _walk(rng, n, rng.choice(cells), 3, rising)
        if len(line) > 1:
            out.append(Thermometer(tuple(line), slow))
    for _ in range(rng.randint(0, 2)):  # arrows: a shaft, and a bulb cell holding its sum
        shaft = _walk(rng, n, rng.choice(cells), rng.randint(0, 1), lambda p, s: True)
        total = sum(values[s] for s in shaft)
        bulbs = [s for s in cells if values[s] == total and s not in shaft]
        if bulbs:
            out.append(Arrow((rng.choice(bulbs),), tuple(shaft)))
    for a, b in rng.sample(orthogonal_pairs(standard(h, w)), 2 * n):
        x, y = values[a], values[b]
        if abs(x - y) == 1 and rng.random() < 0.5:
            out.append(Kropki(a, b))
        elif (x == 2 * y or y == 2 * x) and rng.random() < 0.5:
            out.append(Kropki(a, b, black=True))
        elif x + y in (5, 10) and rng.random() < 0.5:
            out.append(XV(a, b, x + y))
    for s in rng.sample(cells, rng.randint(0, 3)):
        out.append(Parity(s, odd=values[s] % 2 == 1))
    if rng.random() < 0.4:
        start = rng.randrange(n - 1)
        line = tuple(r * n + start + r for r in range(n - start))
        out.append(LittleKiller(line, sum(values[s] for s in line)))
    if rng.random() < 0.4:
        r = rng.randrange(n)
        line = tuple(r * n + c for c in range(n))
        vals = [values[s] for s in line]
        i, j = sorted((vals.index(1), vals.index(n)))
        out.append(Sandwich(line, sum(vals[i + 1 : j])))
    if rng.random() < 0.4:
        line = _walk(rng, n, rng.choice(cells), 2, lambda p, s: values[s] not in {values[q] for q in p})
        vals = {values[s] for s in line}
        if max(vals) - min(vals) == len(vals) - 1:
            out.append(Renban(tuple(line)))
    if rng.random() < 0.4:
        gap = (n + 1) // 2
        line = _walk(rng, n, rng.choice(cells), 3, lambda p, s: abs(values[s] - values[p[-1]]) >= gap)
        if len(line) > 1:
            out.append(Whispers(tuple(line), gap))
    same = [(a, b) for a, b in combinations(cells, 2) if values[a] == values[b]]
    if same and rng.random() < 0.4:
        a, b = rng.choice(same)
        out.append(Palindrome((a, rng.choice([s for s in cells if s not in (a, b)]), b)))
    if rng.random() < 0.3:
        region = []
        for s in rng.sample(cells, len(cells)):
            if values[s] not in {values[q] for q in region} and len(region) < n - 1:
                region.append(s)
        out.append(ExtraRegion(tuple(region)))
    for _ in range(rng.randint(0, 3)):  # between, modular and entropic lines: kept when the grid keeps them
        line = tuple(_walk(rng, n, rng.choice(cells), rng.randint(1, 3), lambda p, s: True))
        kinds = [BetweenLine(line), ThreeClassLine(line, n)]
        kinds += [EqualSums((line[0], line[-1]), line[1:-1], "doublearrow", line)] if len(line) > 2 else []
        kinds += [ThreeClassLine(line, n, True)] if n % 3 == 0 else []
        out.append(rng.choice(kinds))
    if rng.random() < 0.4:  # an X-sum on a column, read from either end
        c = rng.randrange(n)
        line = tuple(r * n + c for r in range(n))[:: rng.choice((1, -1))]
        x = values[line[0]]
        out.append(XSum(line, sum(values[s] for s in line[:x])))
    if rng.random() < 0.4:  # a skyscraper clue on a row, from either end
        r = rng.randrange(n)
        line = tuple(r * n + c for c in range(n))[:: rng.choice((1, -1))]
        out.append(Skyscraper(line, _seen([values[s] for s in line])))
    if rng.random() < 0.4:  # a quadruple on a 2x2 block: some of its digits, repeats included
        r, c = rng.randrange(n - 1), rng.randrange(n - 1)
        block = (r * n + c, r * n + c + 1, (r + 1) * n + c, (r + 1) * n + c + 1)
        out.append(Quadruple(block, tuple(sorted(rng.sample([values[s] for s in block], rng.randint(1, 4))))))
    geo = standard(h, w)
    extra = [
        AntiKnight(),
        AntiKing(),
        NonConsecutive(tuple(orthogonal_pairs(geo))),
        NegativeXV(tuple(orthogonal_pairs(geo))),
        Diagonal(n, True),
        Diagonal(n, False),
    ]
    out += [con for con in extra if con.check(values)]
    return [con for con in out if con.check(values)]


def _seen(vals: list[int]) -> int:
    return sum(1 for i, v in enumerate(vals) if all(v > u for u in vals[:i]))


def _brute_count(puzzle: VariantPuzzle, limit: int) -> int:
    """Independent count: fill cells in reading order with digits new to the geometry's peers, check each
    constraint once all its cells are filled (and the global ones at the end); no propagation at all."""
    g = puzzle.geometry
    n_cells = g.n_cells
    givens = puzzle.givens.values
    values = list(givens)
    ready: list[list] = [[] for _ in range(n_cells)]
    for con in puzzle.constraints:
        ready[max(con.cells) if con.cells else n_cells - 1].append(con)
    filled = [tuple(p for p in g.peers[s] if p < s or givens[p]) for s in range(n_cells)]  # peers with a digit
    digits = tuple(g.digits)
    count = 0

    def go(s: int) -> None:
        nonlocal count
        if s == n_cells:
            count += 1
            return
        given = givens[s]
        taken = {values[p] for p in filled[s]}
        for d in (given,) if given else digits:
            if d in taken:
                continue
            values[s] = d
            if ready[s]:
                full = values if s == n_cells - 1 else values[: s + 1] + [1] * (n_cells - s - 1)
                if not all(con.check(full) for con in ready[s]):
                    continue
            go(s + 1)
            if count >= limit:
                break
        values[s] = given

    go(0)
    return count


@pytest.mark.parametrize("seed", range(40))
def test_random_constraints_count_like_brute_force(seed):
    rng = random.Random(seed)
    h, w = (2, 2) if seed % 2 == 0 else (2, 3)
    n = h * w
    values = _solved_grid(rng, h, w)
    cons = _random_constraints(rng, values, h, w)
    keep = rng.uniform(0.0, 0.35) if n == 4 else rng.uniform(0.45, 0.7)
    givens = [v if rng.random() < keep else 0 for v in values]
    puzzle = VariantPuzzle.build(standard(h, w), givens, cons)
    assert puzzle.is_solution(Grid(puzzle.geometry, tuple(values)))
    limit = 30
    expected = _brute_count(puzzle, limit)
    assert expected >= 1
    assert count_variant(puzzle, limit) == expected
    result = solve_variant(puzzle, limit=2)
    assert result.status is (Status.SOLVED if expected == 1 else Status.MULTIPLE)
    if expected == 1:
        assert result.solution.values == tuple(values)
    first = solve_variant(puzzle, limit=1)
    assert first.status is Status.SOLVED and puzzle.is_solution(first.solution)
    assert json.loads(to_json(parse_variant(to_json(puzzle)))) == json.loads(to_json(puzzle))


# ---- command line ----------------------------------------------------------------------------------
def _cli(*args: str):
    from click.testing import CliRunner

    from sudokit.cli import main

    return CliRunner().invoke(main, list(args))


def _link(name: str, site: str = "https://f-puzzles.com/?load=") -> str:
    return site + compress(json.dumps(BY_NAME[name]["fpuzzles"]))


@pytest.mark.parametrize("name", ["Killer", "Thermo", "Arrow"])
def test_cli_solve_show_convert_links(name, tmp_path):
    d = BY_NAME[name]
    for link in (_link(name), _link(name, "https://sudokupad.app/fpuzzles")):
        res = _cli("solve", link)
        assert res.exit_code == 0, res.output
        assert "".join(ch for ch in res.output if ch.isdigit()) == d["solution"]
    shown = _cli("show", _link(name))
    assert shown.exit_code == 0 and f"{name.lower()}" in shown.output.lower()
    out = tmp_path / "p.json"
    conv = _cli("convert", _link(name), "--to", "fpuzzles", "-o", str(out))
    assert conv.exit_code == 0
    assert json.loads(out.read_text()) == json.loads(to_json(read_fpuzzles(d["fpuzzles"])))
    again = _cli("solve", str(out), "--format", "line")
    assert again.exit_code == 0 and d["solution"] in again.output
    link = _cli("convert", str(out), "--to", "sudokupad-link").output.strip()
    assert to_json(parse_variant(link)) == to_json(read_fpuzzles(d["fpuzzles"]))


def test_cli_count_and_batch(tmp_path):
    assert _cli("solve", _link("Thermo"), "--count").output.strip() == "1 solution"
    assert _cli("solve", _link("Thermo"), "-f", "line").output.strip() == BY_NAME["Thermo"]["solution"]
    lines = tmp_path / "v.jsonl"
    bad = _fp(minimum=[{"cell": "R1C1"}])  # a kind sudokit does not model yet
    lines.write_text("\n".join([json.dumps(BY_NAME["Killer"]), bad, json.dumps(BY_NAME["Thermo"])]) + "\n")
    res = _cli("solve", str(lines))
    assert res.exit_code == 2  # the batch commands' rule: an unreadable line makes the status 2
    assert BY_NAME["Killer"]["solution"] in res.output and BY_NAME["Thermo"]["solution"] in res.output
    assert "# line 2: unreadable" in res.output


@pytest.mark.parametrize(
    "arg",
    [
        "https://sudokupad.app/8bNmDd4J9G",
        "https://f-puzzles.com/?load=AAAA",
        '{"size": 4, "grid": [[{}]]}',
        '{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],"minimum":[{"cell":"R1C1"}]}',
    ],
)
def test_cli_bad_variant_input_is_one_line(arg):
    for command in ("solve", "show"):
        res = _cli(command, arg)
        assert res.exit_code == 2
        assert res.output.count("\n") == 1 and res.output.startswith("sudokit: error: ")


def test_cli_method_is_refused_for_variants():
    res = _cli("solve", _link("Thermo"), "--method", "norvig")
    assert res.exit_code == 2 and "variant puzzles have their own solver" in res.output


def test_cli_convert_refuses_to_drop_constraints():
    res = _cli("convert", _link("Thermo"), "--to", "line")
    assert res.exit_code == 2 and "would drop the variant's constraints" in res.output


def test_classic_grid_converts_to_fpuzzles():
    res = _cli(
        "convert",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        "--to",
        "fpuzzles",
        "-V",
        "diagonal",
    )
    obj = json.loads(res.output)
    assert obj["diagonal+"] and obj["diagonal-"] and obj["grid"][0][0] == {"value": 4, "given": True}


# ---- propagation of single kinds ---------------------------------------------------------------------
def _digits(mask: int) -> list[int]:
    return [d for d in range(1, 10) if mask >> (d - 1) & 1]


def test_cage_thermo_arrow_renban_propagation_on_open_cells():
    full = (1 << 9) - 1
    masks = [full] * 81
    assert KillerCage((0, 1), 3).propagate(masks)
    assert _digits(masks[0]) == _digits(masks[1]) == [1, 2]
    masks = [full] * 81
    assert Thermometer((0, 1, 2)).propagate(masks)
    assert [_digits(masks[s]) for s in (0, 1, 2)] == [list(range(1, 8)), list(range(2, 9)), list(range(3, 10))]
    masks = [full] * 81
    masks[9] = 1 << 8  # the pill reads d9: of 19, 29, ..., only 19 fits three shaft cells (27 at most)
    assert Arrow((0, 9), (18, 19, 20)).propagate(masks)
    assert _digits(masks[0]) == [1] and _digits(masks[18]) == list(range(1, 10))
    masks = [full] * 81
    masks[0] = 1 << 8
    assert Renban((0, 1, 2)).propagate(masks)
    assert _digits(masks[1]) == [7, 8, 9]
    assert KillerCage((0, 1), 3).describe(standard()) == "killer cage A1 A2: sum 3, no repeats"


def test_an_arrow_line_through_its_own_bulb_sums_that_cell_as_f_puzzles_does():
    """f-puzzles' solver sums every cell after an arrow line's first, a bulb cell the line comes back to
    too; sudokit left such a cell out of the shaft, so the puzzle below (12 = 6 + 5 + 1) had no solution.
    The model, both solvers, the writer, the SudokuPad drawing and the renderer read the same shaft."""
    from sudokit.constraints.solver import count_plain
    from sudokit.formats.fpuzzles import read_puzzle_object, to_json
    from sudokit.formats.sudokupad import fpuzzles_to_sudokupad
    from sudokit.render.svg import board_svg

    solved = [[(3 * (r % 2) + r // 2 + c) % 6 + 1 for c in range(6)] for r in range(6)]  # r1c1 1, r1c2 2
    arrow = {"cells": ["R1C1", "R1C2"], "lines": [["R1C2", "R2C3", "R2C2", "R1C1"]]}  # 6, 5 and the 1 again
    hidden = {(0, 0), (0, 1), (1, 1), (1, 2)}
    grid = [[{} if (r, c) in hidden else {"value": solved[r][c], "given": True} for c in range(6)] for r in range(6)]
    puzzle = parse_variant(json.dumps({"size": 6, "grid": grid, "arrow": [arrow]}))
    (con,) = puzzle.constraints
    assert con.bulb == (0, 1) and con.shaft == (8, 7, 0)
    assert count_variant(puzzle, 5) == count_plain(puzzle, 5) == 1
    loose = parse_variant(json.dumps({"size": 6, "grid": [[{}] * 6] * 6, "arrow": [arrow]}))
    result = solve_variant(loose, limit=1)
    assert result.solution is not None
    x = result.solution.values
    assert 10 * x[0] + x[1] == x[8] + x[7] + x[0]
    assert count_variant(loose, 50) == count_plain(loose, 50) == 50
    written = json.loads(to_json(puzzle))
    again = parse_variant(json.dumps(written))
    assert again.constraints == puzzle.constraints
    drawn = read_puzzle_object(fpuzzles_to_sudokupad(written))
    assert drawn.constraints == puzzle.constraints
    far = {"cells": ["R1C1", "R2C1"], "lines": [["R2C1", "R4C3", "R4C4", "R3C4", "R1C1"]]}  # R1C1 again
    back = parse_variant(to_json(parse_variant(_fp(6, arrow=[far]))))  # written from R2C1, not R1C1 twice
    assert back.constraints[0].shaft == (20, 21, 15, 0)
    assert "polyline" in board_svg(puzzle.givens, puzzle=puzzle)  # the line drawn back through the bulb
