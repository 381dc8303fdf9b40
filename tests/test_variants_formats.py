"""Variant formats: f-puzzles JSON and links of every kind, SudokuPad's own ``scl``/``ctc`` payloads (read from a
real SudokuPad link and from links built here), the writers (``convert --to fpuzzles|link|scl|scl-link``), and
bad links / JSON / unknown kinds as one line with exit status 2."""

from __future__ import annotations

import json

import pytest

from sudokit.errors import SudokitError
from sudokit.formats.fpuzzles import compress, parse_variant, read_fpuzzles, to_json, to_link
from sudokit.formats.sudokupad import (
    CARRIED,
    LINE_COLOURS,
    NOT_DRAWN,
    encode_payload,
    parse_json,
    sudokupad_to_fpuzzles,
    to_sudokupad,
    to_sudokupad_json,
    unzip,
    zip_json,
)
from variant_corpus import BY_NAME, DATA
from variant_corpus import RECORDS as LINES

REAL_SCL = next(
    line for line in (DATA.parent / "sudokupad_scl.txt").read_text().splitlines() if line.startswith("https://")
)
PARITY_FISH = "854369172976251834123478956419582367568937421237146598785694213691823745342715689"
PAIR_FIELDS = ("difference", "ratio", "xv")  # symmetric: the order of a dot's two cells carries nothing


def canonical(puzzle) -> dict:
    """The f-puzzles object of a puzzle with its lists sorted (and the cells of symmetric marks): two
    readings of one puzzle compare equal however their items were ordered."""
    obj = json.loads(to_json(puzzle))
    out = {}
    for key, value in obj.items():
        if key in PAIR_FIELDS:
            value = [dict(item, cells=sorted(item["cells"])) for item in value]
        if isinstance(value, list) and key != "grid":
            value = sorted(json.dumps(item, sort_keys=True) for item in value)
        out[key] = value
    return out


def _kinds() -> list[str]:
    found = sorted({t for d in LINES for t in d["types"]})
    return [t for t in found if t not in ("classic", "givens")]


def _with(kind: str) -> list[dict]:
    return [d for d in LINES if kind in d["types"]]


# ---- f-puzzles: every kind through JSON and both links -------------------------------------------------
@pytest.mark.parametrize("kind", _kinds())
def test_every_kind_round_trips_through_json_and_links(kind):
    for d in _with(kind)[:3]:
        puzzle = read_fpuzzles(d["fpuzzles"])
        text = to_json(puzzle)
        assert to_json(parse_variant(text)) == text
        for site in ("f-puzzles", "sudokupad"):
            assert to_json(parse_variant(to_link(puzzle, site))) == text


@pytest.mark.parametrize(
    "clue", ["R0C2 DL", "R2C0 UR", "R0C3 DR", "R2C5 UL", "R3C0 DR", "R5C2 UL", "R5C3 UR", "R3C5 DL"]
)
def test_a_little_killer_on_a_corner_cell_is_written_where_it_was(clue):
    """A little killer whose diagonal is one corner cell: written back (f-puzzles JSON, SudokuPad's scl) it
    still sums that cell alone (it was written from the corner's outer clue, the whole main diagonal)."""
    cell, direction = clue.split()
    grid = [[{} for _ in range(4)] for _ in range(4)]
    puzzle = read_fpuzzles(
        {"size": 4, "grid": grid, "littlekillersum": [{"cell": cell, "direction": direction, "value": "3"}]}
    )
    (corner,) = puzzle.constraints[0].line
    for text in (to_json(puzzle), to_link(puzzle, "scl")):
        assert parse_variant(text).constraints[0].line == (corner,)


def test_fpuz_prefix_and_puzzleid_forms_are_read():
    d = BY_NAME["Thermo"]
    payload = compress(json.dumps(d["fpuzzles"]))
    want = to_json(read_fpuzzles(d["fpuzzles"]))
    for link in (
        f"fpuz{payload}",
        f"https://sudokupad.app/?puzzleid=fpuzzles{payload}",
        f"https://sudokupad.app/sudoku/fpuzzles{payload}?setting-nogrid=1",
    ):
        assert to_json(parse_variant(link)) == want


# ---- SudokuPad's zipped JSON ------------------------------------------------------------------------------
def test_zip_and_unzip_invert_each_other():
    obj = {
        "id": "x",
        "cells": [[{}, {"value": 3}, {}], [{}, {}, {}], [{"value": 1}, {}, {}]],
        "lines": [{"wayPoints": [[0.5, 0.5], [1.5, 1.5]], "color": "#CFCFCF", "thickness": 21}],
        "overlays": [{"center": [1, 0.5], "rounded": True, "backgroundColor": "#FFFFFF", "text": "it's"}],
        "cages": [{"cells": [[0, 0]], "value": "12", "unique": False}],
    }
    zipped = zip_json(obj)
    assert '"' not in zipped and "ce:[[,{v:3},]" in zipped and "r:t" in zipped and "c:CFCFCF" in zipped
    assert json.loads(unzip(zipped))["ce"][0][1] == {"v": 3}
    back = parse_json(zipped)
    assert back["cells"] == obj["cells"] and back["lines"] == obj["lines"]
    assert back["overlays"] == [{**obj["overlays"][0]}]
    assert back["cages"] == [{"cells": [[0, 0]], "value": 12, "unique": False}]  # numeric strings: numbers


# ---- a real SudokuPad link ---------------------------------------------------------------------------------
def test_real_scl_link_is_read():
    puzzle = parse_variant(REAL_SCL)
    assert puzzle.title == "Parity Fish" and puzzle.author == "Marty Sears"
    kinds = [(c.kind, c.black) for c in puzzle.constraints]
    assert kinds.count(("kropki", False)) == 16 and kinds.count(("kropki", True)) == 5
    assert not puzzle.broken([int(ch) for ch in PARITY_FISH])  # the setter's solution keeps every dot


def test_ctc_prefix_is_the_scl_format():
    payload = REAL_SCL.split("/scl", 1)[1]
    a, b = parse_variant("ctc" + payload), parse_variant(REAL_SCL)
    assert canonical(a) == canonical(b)
    assert canonical(parse_variant(f"https://sudokupad.app/?puzzleid=scl{payload}")) == canonical(b)


# ---- every kind: written as scl and read back ------------------------------------------------------------
@pytest.mark.parametrize("kind", _kinds())
def test_every_kind_round_trips_through_scl(kind):
    for d in _with(kind)[:3]:
        puzzle = read_fpuzzles(d["fpuzzles"])
        link = to_link(puzzle, "scl")
        assert link.startswith("https://sudokupad.app/scl")
        assert canonical(parse_variant(link)) == canonical(puzzle), d["name"]
        assert canonical(parse_variant(to_sudokupad_json(puzzle))) == canonical(puzzle)
        assert canonical(parse_variant(zip_json(to_sudokupad(puzzle)))) == canonical(puzzle)


@pytest.mark.parametrize("carried", ["xsum", "skyscraper"])
def test_a_carried_clue_beside_a_little_killer_or_itself_twice_round_trips_through_scl(carried):
    """An X-sum (or skyscraper) clue in the clue cell of a little killer was read back as a sandwich (only a
    cell without a little killer skipped its drawn number), and a carried clue listed twice skipped one
    drawn number only: the other became a sandwich. Each carried clue now skips one drawn number; two little
    killers in one clue cell each keep their own sum (the second was a sandwich)."""
    grid = [[{} for _ in range(4)] for _ in range(4)]
    fp = {
        "size": 4,
        "grid": grid,
        carried: [{"cell": "R5C2", "value": "3"}, {"cell": "R1C0", "value": "2"}, {"cell": "R1C0", "value": "2"}],
        "littlekillersum": [
            {"cell": "R5C2", "direction": "UR", "value": "5"},
            {"cell": "R3C0", "direction": "UR", "value": "4"},  # two in one clue cell: each its own sum
            {"cell": "R3C0", "direction": "DR", "value": "3"},
        ],
    }
    puzzle = read_fpuzzles(fp)
    assert canonical(parse_variant(to_link(puzzle, "scl"))) == canonical(puzzle)


@pytest.mark.parametrize("field", list(NOT_DRAWN))
def test_kinds_sudokupad_cannot_tell_apart_are_carried_and_drawn(field):
    """X-sums and skyscrapers look like sandwich clues, double arrows like any line: the rules go into
    metadata["sudokit"] as f-puzzles fields, and their clues and lines are drawn for SudokuPad's users."""
    d = next(d for d in LINES if field in d["types"])
    puzzle = read_fpuzzles(d["fpuzzles"])
    drawing = to_sudokupad(puzzle)
    assert drawing["metadata"][CARRIED][field] == json.loads(to_json(puzzle))[field]
    if field == "doublearrow":
        assert any(line["color"].lower() == LINE_COLOURS["doublearrow"] for line in drawing["lines"])
    else:
        shown = {o["text"] for o in drawing["overlays"]}
        assert {str(item["value"]) for item in d["fpuzzles"][field] if item.get("value")} <= shown
    del drawing["metadata"][CARRIED]  # without the metadata the drawing alone says less
    if field == "doublearrow":
        with pytest.raises(SudokitError, match="double-arrow line without its rule"):
            sudokupad_to_fpuzzles(drawing)
    else:
        assert field not in sudokupad_to_fpuzzles(drawing)


def test_sudokupad_importer_conventions_are_read():
    """A drawing made the way SudokuPad's f-puzzles importer draws: metadata in cell-less cages, a hidden cage
    for region-less cells, cell colours, a killer cage's sum as a number."""
    fp = read_fpuzzles(BY_NAME["Killer"]["fpuzzles"])
    drawing = to_sudokupad(fp)
    drawing.pop("metadata", None)
    drawing["cages"] += [{"value": "title: Killer"}, {"value": "author: someone"}]
    drawing["cages"][0]["value"] = int(drawing["cages"][0]["value"])
    drawing["underlays"] = [{"center": [0.5, 0.5], "width": 1, "height": 1, "backgroundColor": "#ffa0a0"}]
    puzzle = read_fpuzzles(sudokupad_to_fpuzzles(drawing))
    assert puzzle.title == "Killer" and puzzle.author == "someone"
    assert canonical(puzzle) == {**canonical(fp), "title": "Killer", "author": "someone"}


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda p: p["lines"].append({"wayPoints": [[0.5, 0.5], [0.5, 1.5]], "color": "#ff0000", "thickness": 5}),
         "lines[0] (a line; color '#ff0000', thickness 5): no constraint sudokit knows is drawn this way"),
        (lambda p: p["overlays"].append({"center": [4.5, 4.5], "width": 0.5, "text": "?"}),
         "overlays[0] (a shape at [4.5, 4.5]"),
        (lambda p: p.update(foglight=[[0, 0]]), "field 'foglight': unknown constraint kind"),
        (lambda p: p["cages"].append({"cells": [[0, 0], [0, 1]], "value": "x"}), "a killer cage's sum is a number"),
        (lambda p: p["cells"].pop(), "every row needs 8 cells"),
        (lambda p: p["cells"][0][0].update(value=12), "cells[0][0].value: expected a digit 1..9"),
        (lambda p: p["lines"].append({"wayPoints": 5, "color": "#CFCFCF"}), "lines[0].wayPoints: expected a list"),
        (lambda p: p.update(arrows=[{"wayPoints": [[float("nan"), 1], [1.5, 1.5]]}]),
         "arrows[0].wayPoints[0]: expected a number of cells, got nan"),
        (lambda p: p.update(metadata={"sudokit": {"whispers": [{"lines": [["R1C1", ["R1C2"]]]}]}}),
         "whispers[0].lines[0][1]: ['R1C2'] is not a cell"),  # a list in a carried line: was a TypeError
    ],
)  # fmt: skip
def test_bad_sudokupad_drawings_are_one_line(change, words):
    drawing = {"cells": [[{} for _ in range(9)] for _ in range(9)], "lines": [], "overlays": [], "cages": []}
    change(drawing)
    with pytest.raises(SudokitError) as info:
        parse_variant("https://sudokupad.app/" + encode_payload(drawing))
    assert words in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("https://sudokupad.app/pdyxs/whispers-in-the-mist", "needs the network"),
        ("https://crackingthecryptic.com/sudoku/8bNmDd4J9G", "needs the network"),
        ("https://sudokupad.app/sclAAAA", "damaged"),
        ("scl" + compress("{ce:[[,,],oops"), "not SudokuPad JSON"),
        ("scl" + compress("[1,2]"), "a puzzle is a JSON object"),
    ],
)
def test_bad_sudokupad_links_are_one_line(text, words):
    with pytest.raises(SudokitError) as info:
        parse_variant(text)
    assert words in str(info.value)
    assert "\n" not in str(info.value)


# ---- the command line ---------------------------------------------------------------------------------------
def _cli(*args: str, stdin: str | None = None):
    from click.testing import CliRunner

    from sudokit.cli import main

    return CliRunner().invoke(main, list(args), input=stdin)


def test_cli_reads_variant_links_from_stdin():
    thermo = to_link(read_fpuzzles(BY_NAME["Thermo"]["fpuzzles"]), "scl")
    killer = json.dumps(BY_NAME["Killer"]["fpuzzles"])
    res = _cli("solve", "-", stdin=f"# piped\n{thermo}\n{killer}\n")
    assert res.exit_code == 0, res.output
    assert BY_NAME["Thermo"]["solution"] in res.output and BY_NAME["Killer"]["solution"] in res.output
    classic = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    res = _cli("solve", "-", "-f", "line", stdin=classic + "\n")  # a classic puzzle still takes its own path
    assert res.exit_code == 0 and "483921657967345821" in res.output
    res = _cli("check", "-", stdin=f"{thermo}\n{killer}\n")
    assert res.exit_code == 0 and res.output.splitlines()[1].startswith("<stdin>:2: ok: consistent puzzle")


def test_cli_convert_to_every_variant_layout_and_back(tmp_path):
    d = BY_NAME["Thermo"]
    want = canonical(read_fpuzzles(d["fpuzzles"]))
    link = to_link(read_fpuzzles(d["fpuzzles"]))
    for layout in ("fpuzzles", "link", "fpuzzles-link", "sudokupad-link", "scl", "scl-link"):
        res = _cli("convert", link, "--to", layout)
        assert res.exit_code == 0, res.output
        text = res.output.strip()
        assert canonical(parse_variant(text)) == want, layout
        solved = _cli("solve", text, "-f", "line")
        assert solved.exit_code == 0 and solved.output.strip() == d["solution"], layout


def test_cli_reads_the_real_scl_link_and_a_text_file_of_links(tmp_path):
    shown = _cli("show", REAL_SCL)
    assert shown.exit_code == 0 and "Parity Fish by Marty Sears" in shown.output
    assert shown.output.count("white dot") == 16 and shown.output.count("black dot") == 5
    listing = tmp_path / "links.txt"
    thermo = to_link(read_fpuzzles(BY_NAME["Thermo"]["fpuzzles"]), "scl")
    killer = to_link(read_fpuzzles(BY_NAME["Killer"]["fpuzzles"]))
    listing.write_text(f"# two links\n{thermo}\n\n{killer}\n")
    res = _cli("solve", str(listing))
    assert res.exit_code == 0, res.output
    assert BY_NAME["Thermo"]["solution"] in res.output and BY_NAME["Killer"]["solution"] in res.output
    counted = _cli("solve", "--count", "3", str(listing))
    assert counted.exit_code == 0 and counted.output.split()[:2] == ["1", "1"]
    checked = _cli("check", str(listing))
    assert checked.exit_code == 0 and f"{listing}:2: ok: consistent puzzle" in checked.output


def test_cli_check_a_solution_against_the_constraints(tmp_path):
    d = BY_NAME["Killer"]
    fp = json.loads(json.dumps(d["fpuzzles"]))
    for r, row in enumerate(fp["grid"]):
        for c, cell in enumerate(row):
            cell.update(value=int(d["solution"][r * 9 + c]), given=True)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(fp))
    res = _cli("check", str(good))
    assert res.exit_code == 0 and res.output.startswith(f"{good}:1: ok: valid complete grid"), res.output
    fp["grid"][0][0]["value"], fp["grid"][0][1]["value"] = fp["grid"][0][1]["value"], fp["grid"][0][0]["value"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(fp))
    res = _cli("check", str(bad))
    assert res.exit_code == 1 and res.output.startswith(f"{bad}:1: FAIL: not a valid grid"), res.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("solve", "https://sudokupad.app/sclAAAA"), "damaged"),
        (("show", "https://sudokupad.app/pdyxs/whispers-in-the-mist"), "needs the network"),
        (("check", '{"size": 9, "grid": ['), "bad JSON at line 1"),
        (("render", '{"size": 4, "grid": [[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]], "clone": [1]}',
          "-o", "x.svg"), "'clone' (clones)"),
        (("solve", '{"size": 4, "grid": [[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]], "zigzag": [1]}'),
         "field 'zigzag': unknown constraint kind"),
        (("solve", '{"size": 4, "grid": [[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]], '
          '"killercage": [{"cells": ["R1C1", "R1C2"], "value": "9"}]}'), "no 2 different"),
    ],
)  # fmt: skip
def test_cli_bad_variant_input_is_one_line_exit_2(args, words):
    res = _cli(*args)
    assert res.exit_code == 2, res.output
    errors = [line for line in res.output.splitlines() if line.startswith("sudokit: error:")]
    assert len(errors) == 1 and words in errors[0], res.output
    assert "Traceback" not in res.output


def test_api_solves_and_counts_sudokupad_payloads():
    import sudokit

    d = BY_NAME["Thermo"]
    link = to_link(read_fpuzzles(d["fpuzzles"]), "scl")
    payload = link.split("sudokupad.app/", 1)[1]
    for text in (link, payload, "ctc" + payload[3:]):
        result = sudokit.solve(text)
        assert result.status == "solved" and result.solution.to_line() == d["solution"]
    assert sudokit.count_solutions(payload, limit=3) == 1
    assert sudokit.solve("C" + "." * 255).status == "multiple"  # a 16x16 line starting with the digit C


def test_damaged_drawings_never_crash():
    """Leaves of real drawings replaced by junk (seeded): every reading ends in a puzzle or one SudokitError."""
    import random

    bases = [to_sudokupad(read_fpuzzles(d["fpuzzles"])) for d in LINES[:40]]
    junk = [None, "x", -1, 1e9, [], {}, float("nan"), True, 0.5, [1], [[1, 2]], "#zz", 10**20, [[None]], {"a": 1}]

    def paths(o, path=()):
        items = o.items() if isinstance(o, dict) else enumerate(o) if isinstance(o, list) else ()
        for k, v in items:
            yield path + (k,)
            yield from paths(v, path + (k,))

    rng = random.Random(7)
    for _ in range(400):
        drawing = json.loads(json.dumps(rng.choice(bases)))
        for _ in range(rng.randint(1, 3)):
            *where, last = rng.choice(list(paths(drawing)))
            holder = drawing
            for k in where:
                holder = holder[k]
            holder[last] = rng.choice(junk)
        try:
            read_fpuzzles(sudokupad_to_fpuzzles(drawing))
        except SudokitError as exc:
            assert "\n" not in str(exc)


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"difference": [{"cells": ["R1C1", "R1C2"]}]}, "breaks white dot A1 A2: the digits differ by 1"),
        ({"killercage": [{"cells": ["R1C1", "R2C4"]}]}, "A1 and B4 must differ, both hold 1"),
    ],
)
def test_check_finds_givens_that_break_a_constraint(fields, words):
    grid = [[{} for _ in range(9)] for _ in range(9)]
    grid[0][0] = {"value": 1, "given": True}
    grid[0][1] = {"value": 4, "given": True}
    grid[1][3] = {"value": 1, "given": True}
    res = _cli("check", json.dumps({"size": 9, "grid": grid, **fields}))
    assert res.exit_code == 1 and res.output.strip() == f"FAIL: inconsistent puzzle: {words}", res.output


@pytest.mark.parametrize(
    "arrows",
    [
        [(["R1C1"], ["R1C1", "R2C1"]), (["R1C1", "R1C2"], ["R1C2", "R2C3", "R3C3"])],
        [(["R1C1", "R1C2"], ["R1C2", "R2C3", "R3C3"]), (["R1C2"], ["R1C2", "R2C2"])],
        [(["R2C2"], ["R2C2", "R3C2"]), (["R1C1", "R1C2", "R2C2"], ["R1C1", "R2C1"]), (["R5C5"], ["R5C5", "R6C6"])],
    ],
)
def test_an_arrow_from_a_cell_of_two_bulbs_round_trips_through_scl(arrows):
    """A cell that is a one-cell bulb and part of another pill: SudokuPad draws an arrow from either the same
    way, and the reader gave both arrows the pill read last. Arrows whose bulbs share a cell are now carried
    in metadata["sudokit"] (and drawn); the others are read from the drawing as before."""
    grid = [[{} for _ in range(6)] for _ in range(6)]
    fp = {"size": 6, "grid": grid, "arrow": [{"cells": b, "lines": [line]} for b, line in arrows]}
    puzzle = read_fpuzzles(fp)
    assert canonical(parse_variant(to_link(puzzle, "scl"))) == canonical(puzzle)
    assert canonical(parse_variant(to_link(puzzle, "sudokupad"))) == canonical(puzzle)
