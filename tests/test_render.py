"""Board pictures: SVG and PNG for every geometry, givens vs solved digits, candidates, highlights."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from sudokit.errors import SudokitError
from sudokit.formats import parse_grid
from sudokit.geometry import diagonal, jigsaw, standard, windoku
from sudokit.grid import Candidates, Grid
from sudokit.render.highlight import normalize, parse_highlight
from sudokit.render.notebook import Board, candidates_board, side_by_side
from sudokit.render.png import board_png, save_board
from sudokit.render.scene import PALETTE, board_scene, regions_of, shaded_cells
from sudokit.render.svg import board_svg, candidates_svg

SVG = "{http://www.w3.org/2000/svg}"
GRID1 = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLUTION1 = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
JIGSAW_MAP = "111122333111222333411222333445552666444555666444855566777888996777888999777889999"

GEOMETRIES = {
    "4x4": standard(2),
    "6x6": standard(2, 3),
    "9x9": standard(),
    "diagonal": diagonal(),
    "windoku": windoku(),
    "jigsaw": jigsaw(JIGSAW_MAP),
    "16x16": standard(4),
    "25x25": standard(5),
}


def sample_puzzle(geometry) -> Grid:
    """A few givens along the main diagonal (a digit per row, no clash), the rest empty."""
    n = geometry.size
    values = [0] * geometry.n_cells
    for r in range(0, n, 2):
        values[geometry.cell(r, r)] = r % n + 1
    return Grid(geometry, tuple(values))


def parse_svg(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    return root


def texts(root: ET.Element) -> list[ET.Element]:
    return list(root.iter(f"{SVG}text"))


@pytest.mark.parametrize("name", list(GEOMETRIES))
def test_every_geometry_renders_well_formed_svg_with_one_text_per_given(name):
    puzzle = sample_puzzle(GEOMETRIES[name])
    root = parse_svg(board_svg(puzzle, Candidates.of(puzzle)))
    scene = board_scene(puzzle)
    assert root.get("width") == str(scene.width) and root.get("height") == str(scene.height)
    digits = [t for t in texts(root) if (t.get("id") or "").startswith("cell-")]
    assert len(digits) == puzzle.givens
    symbols = puzzle.geometry.symbols
    assert {t.text for t in digits} == {symbols[v - 1] for v in puzzle.values if v}


@pytest.mark.parametrize("name", list(GEOMETRIES))
def test_every_geometry_renders_a_png_of_the_scene_size(name):
    puzzle = sample_puzzle(GEOMETRIES[name])
    scene = board_scene(puzzle)
    image = Image.open(io.BytesIO(board_png(puzzle)))
    assert image.format == "PNG"
    assert image.size == (scene.width, scene.height)


def test_png_scale_multiplies_the_pixel_size():
    puzzle = parse_grid(GRID1)
    scene = board_scene(puzzle)
    image = Image.open(io.BytesIO(board_png(puzzle, Candidates.of(puzzle), scale=2)))
    assert image.size == (2 * scene.width, 2 * scene.height)


def test_givens_are_bold_and_solved_digits_take_the_solved_colour():
    puzzle = parse_grid(GRID1)
    solution = parse_grid(SOLUTION1)
    root = parse_svg(board_svg(solution, solution_of=puzzle))
    by_cell = {int(t.get("id")[5:]): t for t in texts(root) if (t.get("id") or "").startswith("cell-")}
    assert len(by_cell) == 81
    for s in range(81):
        if puzzle.values[s]:
            assert by_cell[s].get("font-weight") == "bold" and by_cell[s].get("fill") == PALETTE["given"]
        else:
            assert by_cell[s].get("font-weight") is None and by_cell[s].get("fill") == PALETTE["solved"]


def test_without_solution_of_every_digit_is_a_given():
    root = parse_svg(board_svg(parse_grid(SOLUTION1)))
    fills = {t.get("fill") for t in texts(root) if (t.get("id") or "").startswith("cell-")}
    assert fills == {PALETTE["given"]}


def test_candidates_are_drawn_small_in_empty_cells_only():
    puzzle = parse_grid(GRID1)
    cands = Candidates.of(puzzle)
    root = parse_svg(board_svg(puzzle, cands, coordinates=False))
    small = [t for t in texts(root) if t.get("fill") == PALETTE["candidate"]]
    assert len(small) == sum(cands.count(s) for s in range(81) if not puzzle.values[s])
    big = max(float(t.get("font-size")) for t in texts(root))
    assert all(float(t.get("font-size")) < big / 2 for t in small)


def test_highlight_colours_eliminations_red_placements_green_and_cells_yellow():
    puzzle = parse_grid(GRID1)
    spec = parse_highlight("cells=E3;units=row E;elim=B2:4,B2:7;place=E5:6", puzzle.geometry)
    root = parse_svg(board_svg(puzzle, Candidates.of(puzzle), spec))
    red = [t.text for t in texts(root) if t.get("fill") == PALETTE["elimination"]]
    green = [t.text for t in texts(root) if t.get("fill") == PALETTE["placement"]]
    assert sorted(red) == ["4", "7"] and green == ["6"]
    fills = [r.get("fill") for r in root.iter(f"{SVG}rect")]
    assert fills.count(PALETTE["cell"]) == 1
    assert fills.count(PALETTE["unit"]) == 9


def test_links_are_arrows_solid_when_strong_and_dashed_when_weak():
    puzzle = parse_grid(GRID1)
    spec = parse_highlight("link=A1:4=A2:4,A2:4-E2:4", puzzle.geometry)
    root = parse_svg(board_svg(puzzle, Candidates.of(puzzle), spec))
    arrows = [path for path in root.iter(f"{SVG}path") if path.get("marker-end")]
    assert len(arrows) == 2
    assert arrows[0].get("class") == "link strong" and arrows[0].get("stroke-dasharray") is None
    assert arrows[1].get("class") == "link weak" and arrows[1].get("stroke-dasharray")
    assert root.find(f"{SVG}defs/{SVG}marker") is not None


def _links(scene):
    from sudokit.render.scene import Arrow

    return [item for item in scene.items if isinstance(item, Arrow)]


def _near(points, x, y, r) -> bool:
    return any((px - x) ** 2 + (py - y) ** 2 < r * r for px, py in points)


def test_a_link_inside_one_cell_is_a_visible_curve():
    # A1 holds 4, 5 (and others): the strong link 4=5 joins neighbouring spots, which a straight arrow
    # trimmed to both discs would reduce to a dot
    puzzle = parse_grid(GRID1)
    spec = parse_highlight("link=A1:4=A1:5", puzzle.geometry)
    scene = board_scene(puzzle, Candidates.of(puzzle), spec)
    (arrow,) = _links(scene)
    assert arrow.cx is not None
    points = arrow.points()
    length = sum(((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5 for (ax, ay), (bx, by) in zip(points, points[1:]))
    assert length > scene.cell_size * 0.2  # a straight arrow between the two discs would be under 1 px
    d = parse_svg(board_svg(puzzle, Candidates.of(puzzle), spec)).find(f"{SVG}path[@class='link strong']").get("d")
    assert " Q" in d


def test_a_link_between_cells_bends_around_the_digits_in_its_way():
    # A1:5 - A9:5 along the middle of row A crosses the givens 3 (A3), 2 (A5) and 6 (A7): it curves around them
    puzzle = parse_grid(GRID1)
    spec = parse_highlight("link=A1:5-A9:5", puzzle.geometry)
    scene = board_scene(puzzle, Candidates.of(puzzle), spec)
    (arrow,) = _links(scene)
    assert arrow.cx is not None and arrow.dashed
    cs = scene.cell_size
    ox, oy = scene.origin
    points = arrow.points()
    for col in (2, 4, 6):  # the digits' centres stay out of the curve's way
        assert not _near(points, ox + (col + 0.5) * cs, oy + 0.5 * cs, cs * 0.25)
    # with nothing in its way, a link stays straight
    straight = board_scene(puzzle, Candidates.of(puzzle), parse_highlight("link=A1:4=B2:4", puzzle.geometry))
    assert _links(straight)[0].cx is None


def test_curved_links_paint_in_png_and_raster():
    from PIL import ImageDraw

    from sudokit.render.raster import SUPERSAMPLE, paint, shrink

    puzzle = parse_grid(GRID1)
    spec = parse_highlight("link=A1:5-A9:5,A1:4=A1:5", puzzle.geometry)
    png = board_png(puzzle, Candidates.of(puzzle), spec)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    link = tuple(int(PALETTE["link"][i : i + 2], 16) for i in (1, 3, 5))
    assert _pixels_near(image, link) > 50
    scene = board_scene(puzzle, Candidates.of(puzzle), spec)  # painted as replay paints its frames
    big = Image.new("RGB", (round(scene.width * SUPERSAMPLE), round(scene.height * SUPERSAMPLE)), "white")
    paint(ImageDraw.Draw(big), scene.items, SUPERSAMPLE)
    frame = shrink(big, scene).convert("RGB")
    assert _pixels_near(frame, link) > 50


def _pixels_near(image, colour: tuple[int, ...]) -> int:
    """Pixels of an RGB ``image`` within 40 (summed over the channels) of ``colour``; read as bytes (Pillow 12
    deprecates ``getdata``)."""
    raw = image.tobytes()
    return sum(1 for i in range(0, len(raw), 3) if sum(abs(raw[i + k] - colour[k]) for k in range(3)) < 40)


def test_a_logic_step_highlight_with_lists_is_accepted():
    from sudokit.logic.step import Step

    step = Step(
        "naked pair",
        eliminations=[(3, 2)],
        cells=[1, 2],
        units=[0],
        candidates=[(1, 2)],
        links=[((1, 2), (2, 2), True)],
    )
    spec = normalize(step.highlight(), standard())
    assert spec["eliminations"] == [(3, 2)] and spec["links"] == [((1, 2), (2, 2), True)]
    assert "<svg" in Board(Grid.empty(standard()), highlight=step).svg()


def test_diagonals_are_shaded_and_jigsaw_regions_get_thick_borders():
    assert len(shaded_cells(diagonal())) == 17
    assert len(shaded_cells(windoku())) == 36
    assert shaded_cells(standard()) == set()
    root = parse_svg(board_svg(Grid.empty(diagonal())))
    assert [r.get("fill") for r in root.iter(f"{SVG}rect")].count(PALETTE["extra_unit"]) == 17

    def thick_lines(geometry):
        root = parse_svg(board_svg(Grid.empty(geometry), coordinates=False))
        return {
            tuple(round(float(line.get(k))) for k in ("x1", "y1", "x2", "y2"))
            for line in root.iter(f"{SVG}line")
            if line.get("stroke") == PALETTE["thick"]
        }

    assert len(thick_lines(standard())) == 8  # the frame and two lines each way
    assert len(thick_lines(jigsaw(JIGSAW_MAP))) > 8  # the regions' jagged edges are extra runs
    assert regions_of(jigsaw(JIGSAW_MAP))[3] == regions_of(jigsaw(JIGSAW_MAP))[0]


def test_parse_highlight_reads_every_key():
    g = standard()
    spec = parse_highlight("cells=A1,r2c2;units=row A,box 5,3;cand=E5:4;elim=C5:3;place=E5:4;link=A1:3=A5:3", g)
    assert spec["cells"] == [0, 10]
    assert spec["units"] == [0, g.unit_names.index("box 5"), 3]
    assert spec["candidates"] == [(40, 4)] and spec["eliminations"] == [(22, 3)] and spec["placements"] == [(40, 4)]
    assert spec["links"] == [((0, 3), (4, 3), True)]


def test_parse_highlight_reads_16x16_symbols():
    spec = parse_highlight("elim=r1c16:G", standard(4))
    assert spec["eliminations"] == [(15, 16)]


@pytest.mark.parametrize(
    "text, message",
    [
        ("cells=Z9", "no cell named"),
        ("units=row Z", "no unit named"),
        ("elim=A1", "cell:digit"),
        ("elim=A1:0", "not a digit"),
        ("colour=A1", "key=items"),
        ("link=A1:3", "strong"),
        ("units=99", "unit 99"),
    ],
)
def test_parse_highlight_rejects_bad_specs_with_a_user_error(text, message):
    with pytest.raises(SudokitError, match=message):
        parse_highlight(text, standard())


def test_normalize_rejects_cells_off_the_board_and_unknown_keys():
    with pytest.raises(SudokitError, match="outside"):
        normalize({"cells": [81]}, standard())
    with pytest.raises(SudokitError, match="unknown highlight keys"):
        normalize({"arrows": []}, standard())


def test_grid_and_result_display_as_svg_in_jupyter():
    from sudokit.methods import METHODS

    puzzle = parse_grid(GRID1)
    parse_svg(puzzle._repr_svg_())
    result = METHODS["norvig"](puzzle)
    assert result.solution.is_solution_of(puzzle)
    parse_svg(result._repr_svg_())


def test_candidates_display_via_candidates_svg_and_board():
    puzzle = parse_grid(GRID1)
    cands = Candidates.of(puzzle)
    root = parse_svg(candidates_svg(cands))
    singles = sum(1 for s in range(81) if cands.count(s) == 1)  # givens and cells with one candidate left
    assert singles > puzzle.givens
    assert len([t for t in texts(root) if (t.get("id") or "").startswith("cell-")]) == singles
    board = candidates_board(list(cands.masks), puzzle.geometry)
    assert board.svg() == board._repr_svg_()
    html = side_by_side(board, Board(puzzle), captions=["a", "b"])._repr_html_()
    assert html.count("<svg") == 2 and "<figcaption" in html


def test_save_board_picks_the_format_from_the_suffix(tmp_path):
    puzzle = parse_grid(GRID1)
    parse_svg(save_board(tmp_path / "b.svg", puzzle).read_text())
    assert Image.open(save_board(tmp_path / "b.png", puzzle, scale=1)).size == (
        board_scene(puzzle).width,
        board_scene(puzzle).height,
    )
    with pytest.raises(SudokitError, match=".svg or .png"):
        save_board(tmp_path / "b.jpg", puzzle)


# ---- the command -----------------------------------------------------------------------------
def test_render_command_writes_svg_to_stdout(run_cli):
    result = run_cli("render", GRID1, "-c", "-H", "cells=E3;elim=B2:4")
    assert result.exit_code == 0
    parse_svg(result.stdout)


def test_render_command_writes_a_png_of_the_scaled_size(run_cli, tmp_path):
    out = tmp_path / "board.png"
    result = run_cli("render", GRID1, "--solve", "--scale", "1.5", "-o", str(out))
    assert result.exit_code == 0
    scene = board_scene(parse_grid(GRID1))
    assert Image.open(out).size == (round(scene.width * 1.5), round(scene.height * 1.5))


def test_render_command_draws_a_16x16_file_and_a_jigsaw_variant(run_cli, data_dir, tmp_path):
    first = (data_dir / "sudoku16_janko.txt").read_text().splitlines()[0]
    result = run_cli("render", first, "-o", str(tmp_path / "b16.svg"))
    assert result.exit_code == 0
    assert len(texts(parse_svg((tmp_path / "b16.svg").read_text()))) > 100
    result = run_cli("render", "." * 81, "-V", f"jigsaw:{JIGSAW_MAP}")
    assert result.exit_code == 0 and parse_svg(result.stdout) is not None


@pytest.mark.parametrize(
    "args",
    [["-H", "cells=Z9"], ["-o", "board.jpg"], ["--solve"]],
)
def test_render_command_reports_user_errors_in_one_line(run_cli, tmp_path, args, monkeypatch):
    monkeypatch.chdir(tmp_path)
    puzzle = "11" + "." * 79 if args == ["--solve"] else GRID1
    result = run_cli("render", puzzle, *args)
    assert result.exit_code == 2
    assert result.stderr.startswith("sudokit: error:") and "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "technique, puzzle, exclude",
    [
        ("XY-Wing", "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....", None),
        (  # the single-digit chains of 2-6 links and SE's chains come before it in the table: left out
            "Simple Colouring",
            "39.6.......7.......6..9.12......5....2..1..6....4......85.6..9.......4.......7.32",
            "2-Link X-Chain,3-Link X-Chain,4-Link X-Chain,5-Link X-Chain,6-Link X-Chain,Static Forcing Chain,"
            "Aligned Triple Exclusion,Nishio Forcing Chain,Multiple Forcing Chain,SE Dynamic Forcing Chain",
        ),
    ],
)
def test_wing_and_colouring_steps_carry_their_links(technique, puzzle, exclude):
    """The picture of a step draws its links, so XY-Wing and Simple Colouring record them like the chains do:
    each strong link joins the only two places of a digit in a unit or the two digits of a bivalue cell, each
    weak link two candidates that cannot both be true."""
    from sudokit.logic import BY_NAME, State, explain
    from sudokit.logic.registry import technique_set

    grid = parse_grid(puzzle)
    state = State.from_grid(grid)
    for taken in explain(grid, techniques=technique_set(exclude=exclude)).steps:  # the first state on the path
        step = BY_NAME[technique].find(state)  # where the technique applies (the path may take another row)
        if step is not None:
            break
        state.apply(taken)
    else:
        pytest.fail(f"no {technique} step on the path")
    g = grid.geometry
    assert step.links
    for (s1, d1), (s2, d2), strong in step.links:
        assert state.cands[s1] >> (d1 - 1) & 1 and state.cands[s2] >> (d2 - 1) & 1
        if s1 == s2:
            assert d1 != d2 and (not strong or state.cands[s1].bit_count() == 2)
            continue
        assert d1 == d2 and s2 in g.peer_sets[s1]
        if strong:
            units = set(g.units_of[s1]) & set(g.units_of[s2])
            assert any([s for s in g.units[u] if state.cands[s] >> (d1 - 1) & 1] == sorted((s1, s2)) for u in units)
    svg = board_svg(Grid(g, tuple(state.values)), None, step.highlight())
    assert svg.count('class="link') == len(step.links)
