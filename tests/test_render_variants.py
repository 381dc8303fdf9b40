"""Pictures of variant puzzles: each kind drawn the way setters draw it (the SVG holds each kind's marks), clues
outside the grid in a ring around it, the PNG and raster back-ends paint the same scene, ``sudokit render`` on
links."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from sudokit.constraints import KINDS, KillerCage, VariantPuzzle
from sudokit.formats.fpuzzles import read_fpuzzles, to_link
from sudokit.geometry import standard
from sudokit.render.constraints import COLOURS, DRAWERS, RULE_ONLY, Frame, cage_outline
from sudokit.render.png import board_png
from sudokit.render.scene import Polyline, board_scene
from sudokit.render.svg import board_svg, variant_svg
from variant_corpus import RECORDS as LINES

SVG = "{http://www.w3.org/2000/svg}"


def _puzzle(kind: str) -> VariantPuzzle:
    return read_fpuzzles(next(d for d in LINES if kind in d["types"])["fpuzzles"])


def _svg(puzzle: VariantPuzzle) -> ET.Element:
    return ET.fromstring(board_svg(puzzle.givens, puzzle=puzzle))


def _stroked(root: ET.Element, tag: str, colour: str) -> list[ET.Element]:
    return [e for e in root.iter(f"{SVG}{tag}") if e.get("stroke") == colour]


def _filled(root: ET.Element, tag: str, colour: str) -> list[ET.Element]:
    return [e for e in root.iter(f"{SVG}{tag}") if e.get("fill") == colour]


def _texts(root: ET.Element) -> list[ET.Element]:
    return list(root.iter(f"{SVG}text"))


def _grid_box(puzzle: VariantPuzzle) -> tuple[float, float, float, float]:
    scene = board_scene(puzzle.givens, puzzle=puzzle)
    ox, oy = scene.origin
    side = puzzle.geometry.size * scene.cell_size
    return ox, oy, ox + side, oy + side


def _outside_texts(puzzle: VariantPuzzle) -> list[str]:
    x0, y0, x1, y1 = _grid_box(puzzle)
    root = _svg(puzzle)
    cs = (x1 - x0) / puzzle.geometry.size
    out = []
    for t in _texts(root):
        x, y = float(t.get("x")), float(t.get("y"))
        outside = x < x0 or x > x1 or y < y0 or y > y1
        label = x < x0 - cs or y < y0 - cs  # the row and column labels sit beyond the ring
        if outside and not label:
            out.append(t.text)
    return out


def test_every_kind_is_drawn_or_a_rule_in_words():
    for cls in KINDS.values():
        assert cls in DRAWERS or issubclass(cls, RULE_ONLY), cls.kind


def test_killer_cages_are_dashed_with_the_sum_top_left():
    puzzle = _puzzle("killercage")
    root = _svg(puzzle)
    dashed = [p for p in _stroked(root, "polyline", COLOURS["cage"]) if p.get("stroke-dasharray")]
    assert dashed
    sums = [t for t in _texts(root) if t.get("text-anchor") == "start"]
    cages = [c for c in puzzle.constraints if isinstance(c, KillerCage) and c.total is not None]
    assert sorted(t.text for t in sums) == sorted(str(c.total) for c in cages)


@pytest.mark.parametrize(
    ("kind", "tag", "colour"),
    [
        ("thermometer", "polyline", "thermo"),
        ("renban", "polyline", "renban"),
        ("whispers", "polyline", "whispers"),
        ("palindrome", "polyline", "palindrome"),
        ("betweenline", "polyline", "between"),
        ("modularline", "polyline", "modular"),
        ("zipperline", "polyline", "zipperline"),
        ("regionsumline", "polyline", "regionsumline"),
        ("doublearrow", "polyline", "doublearrow"),
        ("arrow", "polyline", "arrow"),
        ("diagonal+", "polyline", "diagonal"),
    ],
)
def test_lines_are_drawn_in_their_colour(kind, tag, colour):
    assert _stroked(_svg(_puzzle(kind)), tag, COLOURS[colour])


def test_thermometers_have_bulbs_and_arrows_circles():
    assert _filled(_svg(_puzzle("thermometer")), "circle", COLOURS["thermo"])
    arrow = _svg(read_fpuzzles(next(d for d in LINES if d["name"] == "Arrow")["fpuzzles"]))
    bulbs = [c for c in _stroked(arrow, "circle", COLOURS["arrow"]) if c.get("fill") == "none"]
    assert bulbs
    between = _svg(_puzzle("betweenline"))
    assert len(_stroked(between, "circle", COLOURS["between"])) >= 2


def test_kropki_dots_xv_and_parity_shapes():
    dots = _svg(read_fpuzzles(next(d for d in LINES if d["name"] == "Kropki sudoku")["fpuzzles"]))
    assert _filled(dots, "circle", COLOURS["dot"])  # black
    assert [c for c in _stroked(dots, "circle", COLOURS["dot"]) if c.get("fill") == COLOURS["paper"]]  # white
    xv = _svg(_puzzle("xv"))
    assert {t.text for t in _texts(xv)} >= {"X", "V"}
    parity = _svg(_puzzle("odd"))
    assert _filled(parity, "circle", COLOURS["parity"])
    assert _filled(_svg(_puzzle("even")), "rect", COLOURS["parity"])


def test_quadruples_and_extra_regions():
    quad = _svg(_puzzle("quadruple"))
    assert _stroked(quad, "circle", COLOURS["dot"])
    assert any(t.text and t.text.replace(" ", "").isdigit() and len(t.text) >= 3 for t in _texts(quad))
    assert _filled(_svg(_puzzle("extraregion")), "rect", COLOURS["region"])


def test_diagonals_run_corner_to_corner():
    puzzle = _puzzle("diagonal+")
    x0, y0, x1, y1 = _grid_box(puzzle)
    lines = _stroked(_svg(puzzle), "polyline", COLOURS["diagonal"])
    ends = {tuple(sorted(line.get("points").split())) for line in lines}
    f = lambda x, y: f"{x:.2f}".rstrip("0").rstrip(".") + "," + f"{y:.2f}".rstrip("0").rstrip(".")  # noqa: E731
    assert tuple(sorted((f(x0, y1), f(x1, y0)))) in ends


@pytest.mark.parametrize("kind", ["littlekillersum", "sandwichsum", "xsum", "skyscraper"])
def test_clues_outside_the_grid(kind):
    d = next(d for d in LINES if kind in d["types"])
    puzzle = read_fpuzzles(d["fpuzzles"])
    field = d["fpuzzles"][kind]
    outside = _outside_texts(puzzle)
    assert sorted(outside) == sorted(str(item["value"]) for item in field if item.get("value") not in (None, ""))


def test_little_killer_arrows_point_into_the_grid():
    puzzle = _puzzle("littlekillersum")
    x0, y0, x1, y1 = _grid_box(puzzle)
    arrows = _stroked(_svg(puzzle), "polyline", COLOURS["clue"])
    assert arrows
    for line in arrows:
        for point in line.get("points").split():
            x, y = map(float, point.split(","))
            assert not (x0 + 1 < x < x1 - 1 and y0 + 1 < y < y1 - 1)  # all in the ring


def test_rule_only_kinds_still_render():
    puzzle = _puzzle("antiknight")
    root = _svg(puzzle)
    assert root.tag == f"{SVG}svg"


def test_cage_outline_runs_inside_the_cage():
    g = standard()
    frame = Frame(0, 0, 10, g)
    square = cage_outline(frame, [g.cell(0, 0), g.cell(0, 1), g.cell(1, 0), g.cell(1, 1)], 1)
    assert sorted(square) == sorted([((1, 1), (19, 1)), ((1, 19), (19, 19)), ((1, 1), (1, 19)), ((19, 1), (19, 19))])
    ell = cage_outline(frame, [g.cell(0, 0), g.cell(1, 0), g.cell(1, 1)], 1)
    assert len(ell) == 6
    assert ((9, 1), (9, 11)) in ell  # the right side of the top cell runs past the inner corner
    assert ((9, 11), (19, 11)) in ell


def test_png_of_a_variant_has_the_scene_size_and_the_ring():
    puzzle = _puzzle("littlekillersum")
    scene = board_scene(puzzle.givens, puzzle=puzzle)
    plain = board_scene(puzzle.givens)
    assert scene.width == pytest.approx(plain.width + 2 * scene.cell_size, abs=2)
    image = Image.open(io.BytesIO(board_png(puzzle.givens, puzzle=puzzle)))
    assert image.size == (scene.width, scene.height)
    assert len(image.convert("L").getcolors(256)) > 10  # something is painted


def test_raster_back_end_paints_variant_primitives():
    from PIL import ImageDraw

    from sudokit.render.raster import paint

    puzzle = _puzzle("killercage")
    scene = board_scene(puzzle.givens, puzzle=puzzle)
    assert any(isinstance(item, Polyline) for item in scene.items)
    image = Image.new("RGB", (scene.width, scene.height), "white")
    paint(ImageDraw.Draw(image), scene.items, 1.0)
    assert image.getbbox() is not None


def test_variant_svg_draws_the_solution_with_givens_bold():
    d = next(d for d in LINES if d["name"] == "Thermo")
    puzzle = read_fpuzzles(d["fpuzzles"])
    from sudokit.grid import Grid

    solution = Grid(puzzle.geometry, tuple(int(ch) for ch in d["solution"]))
    root = ET.fromstring(variant_svg(puzzle, solution))
    digits = [t for t in _texts(root) if (t.get("id") or "").startswith("cell-")]
    assert len(digits) == 81
    assert sum(t.get("font-weight") == "bold" for t in digits) == sum(1 for v in puzzle.givens.values if v)


def _cli(*args: str):
    from click.testing import CliRunner

    from sudokit.cli import main

    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("name", ["Killer", "Thermo", "Arrow", "Little Killer Sudoku"])
def test_cli_render_link_to_png_and_svg(name, tmp_path):
    d = next(d for d in LINES if d["name"] == name)
    link = to_link(read_fpuzzles(d["fpuzzles"]))
    out = tmp_path / "p.png"
    res = _cli("render", link, "-o", str(out), "--scale", "1")
    assert res.exit_code == 0, res.output
    assert Image.open(out).size[0] > 400
    svg = _cli("render", link, "--solve")
    assert svg.exit_code == 0
    root = ET.fromstring(svg.output)
    assert root.find(f"{SVG}polyline") is not None
    assert "".join(t.text for t in _texts(root) if (t.get("id") or "").startswith("cell-")) == d["solution"]


def test_cli_render_a_file_of_several_puzzles_is_one_line_exit_2(tmp_path):
    listing = tmp_path / "two.jsonl"
    listing.write_text("\n".join(json.dumps(d["fpuzzles"]) for d in LINES[:2]) + "\n")
    res = _cli("render", str(listing), "-o", str(tmp_path / "x.svg"))
    assert res.exit_code == 2
    assert res.output.strip() == f"sudokit: error: {listing}: render draws one puzzle, this file holds 2"


def test_every_bundled_puzzle_draws():
    """Every corpus puzzle gives a well-formed SVG, with marks beyond the plain board's when it has a kind that
    is drawn."""
    for d in LINES:
        puzzle = read_fpuzzles(d["fpuzzles"])
        ET.fromstring(board_svg(puzzle.givens, puzzle=puzzle))
        plain = board_scene(puzzle.givens).items
        drawn = board_scene(puzzle.givens, puzzle=puzzle).items
        marked = [c for c in puzzle.constraints if not isinstance(c, RULE_ONLY)]
        assert (drawn != plain) == bool(marked), d["name"]
