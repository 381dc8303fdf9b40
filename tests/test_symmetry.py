"""Transforms keep puzzles valid; the minlex canonical form is the same for every isomorph."""

from __future__ import annotations

import functools
import itertools
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.cli import main
from sudokit.errors import SudokitError
from sudokit.generate import transforms as sym
from sudokit.geometry import diagonal, for_size, standard
from sudokit.grid import Grid, is_solution

DATA = Path(__file__).resolve().parents[1] / "data"

SOLVED = Grid.from_values(
    int(ch) for ch in "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
)
TOP95_FIRST = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def lines(name: str) -> list[str]:
    return [line.strip() for line in (DATA / name).read_text().splitlines() if line.strip()]


def grid_of(line: str) -> Grid:
    return Grid.from_values(0 if ch in ".0" else int(ch) for ch in line)


def generators(g):
    """One instance of every single transform of a 9x9 board."""
    return [
        sym.relabel(g, "912345678"),
        sym.bands(g, [2, 0, 1]),
        sym.stacks(g, [1, 2, 0]),
        sym.rows(g, 1, [2, 1, 0]),
        sym.cols(g, 2, [0, 2, 1]),
        sym.transpose(g),
        sym.rotate(g, 1),
        sym.mirror(g),
        sym.flip(g),
    ]


# ---- transforms ----------------------------------------------------------------------------------
@pytest.mark.parametrize("index", range(9))
def test_every_transform_maps_a_solution_to_a_solution(index):
    t = generators(SOLVED.geometry)[index]
    out = t.apply(SOLVED)
    assert is_solution(out)
    assert out != SOLVED


def test_transform_then_inverse_is_identity():
    g = SOLVED.geometry
    t = sym.Transform.identity(g)
    for step in generators(g):
        t = t.then(step)
    assert t.inverse().apply(t.apply(SOLVED)) == SOLVED
    assert t.then(t.inverse()) == sym.Transform.identity(g)


def test_four_quarter_turns_and_two_transposes_change_nothing():
    p = grid_of(TOP95_FIRST)
    assert sym.rotate(p.geometry, 4).apply(p) == p
    assert sym.transpose(p.geometry).then(sym.transpose(p.geometry)).apply(p) == p
    assert sym.rotate(p.geometry, 2).apply(p) == sym.mirror(p.geometry).then(sym.flip(p.geometry)).apply(p)


def test_rotate_turns_clockwise():
    g = standard(2)
    grid = Grid(g, tuple(range(1, 5)) + (0,) * 12)  # top row 1 2 3 4
    turned = sym.rotate(g, 1).apply(grid)
    assert [turned.values[r * 4 + 3] for r in range(4)] == [1, 2, 3, 4]  # now the right column


def test_relabel_renames_digits():
    g = SOLVED.geometry
    out = sym.relabel(g, "234567891").apply(SOLVED)
    assert all(b == a % 9 + 1 for a, b in zip(SOLVED.values, out.values))


def test_transform_that_breaks_the_units_is_refused():
    six = for_size(6)
    with pytest.raises(SudokitError, match="does not keep the units"):
        sym.transpose(six).apply(Grid.empty(six))  # 2x3 boxes would become 3x2
    x = diagonal()
    with pytest.raises(SudokitError, match="does not keep the units"):
        sym.bands(x, [1, 0, 2]).apply(Grid.empty(x))
    assert sym.rotate(x, 1).preserves(x) and sym.transpose(x).preserves(x)


def test_bad_orders_are_user_errors():
    g = standard()
    with pytest.raises(SudokitError):
        sym.bands(g, [0, 0, 1])
    with pytest.raises(SudokitError):
        sym.rows(g, 3, [0, 1, 2])
    with pytest.raises(SudokitError):
        sym.relabel(g, "11")


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([standard(), diagonal(), for_size(4), for_size(6)]))
def test_random_transform_keeps_solutions_and_its_inverse_undoes_it(seed, geometry):
    from sudokit.generate import random_solution

    rng = np.random.default_rng(seed)
    grid = Grid(geometry, tuple(int(v) for v in random_solution(geometry, rng)))
    t = sym.random_transform(geometry, rng)
    assert t.preserves(geometry)
    out = t.apply(grid)
    assert is_solution(out)
    assert t.inverse().apply(out) == grid


@pytest.mark.parametrize("geometry", [standard(), diagonal(), for_size(4), for_size(6), for_size(16)])
def test_random_isomorph_of_a_solution_is_a_solution(geometry):
    from sudokit.generate import random_solution

    rng = np.random.default_rng(0)
    grid = Grid(geometry, tuple(int(v) for v in random_solution(geometry, rng)))
    for _ in range(3):
        assert is_solution(sym.random_isomorph(grid, rng))


# ---- canonical form ------------------------------------------------------------------------------
def test_random_isomorphs_of_every_top95_puzzle_share_a_canonical_form():
    rng = np.random.default_rng(95)
    puzzles = [grid_of(line) for line in lines("norvig_top95.txt")]
    keys = [sym.canonical(p) for p in puzzles]
    for p, key in zip(puzzles, keys):
        for _ in range(2):
            assert sym.canonical(sym.random_isomorph(p, rng)) == key
    # top95 holds one isomorphic pair: puzzle 76 is puzzle 74 with its bands reordered
    assert len({k.values for k in keys}) == len(puzzles) - 1
    assert keys[73] == keys[75]
    assert sym.bands(standard(), [2, 0, 1]).apply(puzzles[73]) == puzzles[75]


def test_non_isomorphic_puzzles_have_different_canonical_forms():
    a = grid_of(TOP95_FIRST)
    b = a.with_value(a.values.index(0), 1)  # one more given
    c = grid_of(lines("norvig_top95.txt")[1])
    assert len({sym.canonical(x).to_line() for x in (a, b, c)}) == 3


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_canonical_is_smaller_than_any_isomorph_and_idempotent(seed):
    rng = np.random.default_rng(seed)
    p = grid_of(TOP95_FIRST)
    iso = sym.random_isomorph(p, rng)
    key = sym.canonical(iso)
    assert key.values <= iso.values
    assert sym.canonical(key) == key
    assert key.givens == p.givens


def test_canonical_form_of_a_solution_grid_starts_with_the_digits_in_order():
    key = sym.canonical(sym.random_isomorph(SOLVED, 7))
    assert key.values[:9] == tuple(range(1, 10))
    assert is_solution(key)
    assert key == sym.canonical(SOLVED)


@functools.cache
def _all_moves(g) -> list[tuple[int, ...]]:
    """Every band/row/stack/column permutation (and transpose, for square boxes) as a cell order."""
    br, bc = g.box_rows, g.box_cols
    n = g.size
    moves = []
    for bo in itertools.permutations(range(n // br)):
        for rs in itertools.product(itertools.permutations(range(br)), repeat=n // br):
            for so in itertools.permutations(range(n // bc)):
                for cs in itertools.product(itertools.permutations(range(bc)), repeat=n // bc):
                    t = sym.bands(g, bo).then(sym.stacks(g, so))
                    for b, order in enumerate(rs):
                        t = t.then(sym.rows(g, b, order))
                    for s, order in enumerate(cs):
                        t = t.then(sym.cols(g, s, order))
                    moves.append(t.cells)
                    if br == bc:
                        moves.append(t.then(sym.transpose(g)).cells)
    return moves


def _brute_canonical(grid: Grid) -> tuple[int, ...]:
    """The minimum over every symmetry, by enumeration, relabelling digits by first appearance."""
    best = None
    for cells in _all_moves(grid.geometry):
        labels: dict[int, int] = {}
        out = []
        for c in cells:
            v = grid.values[c]
            if v and v not in labels:
                labels[v] = len(labels) + 1
            out.append(labels[v] if v else 0)
        if best is None or out < best:
            best = out
    return tuple(best)


@pytest.mark.parametrize("geometry", [for_size(4), for_size(6)])
def test_canonical_matches_exhaustive_search_on_small_boards(geometry):
    from sudokit.generate import random_solution

    rng = np.random.default_rng(4)
    for _ in range(6):
        solution = random_solution(geometry, rng)
        keep = rng.random(geometry.n_cells) < 0.45
        p = Grid(geometry, tuple(int(v) if k else 0 for v, k in zip(solution, keep)))
        assert sym.canonical(p).values == _brute_canonical(p)


def test_canonical_refuses_what_it_cannot_do():
    with pytest.raises(SudokitError, match="up to 9x9"):
        sym.canonical(Grid.empty(for_size(16)))
    with pytest.raises(SudokitError, match="standard boards"):
        sym.canonical(Grid.empty(diagonal()))


@pytest.mark.slow
def test_the_49158_seventeen_clue_puzzles_are_distinct_up_to_symmetry():
    rows = lines("17_clue.txt")
    values = np.array([[0 if ch in ".0" else int(ch) for ch in line] for line in rows], dtype=np.uint8)
    keys = sym.canonical_many(values, standard())
    assert len(rows) == 49158
    assert len({k.tobytes() for k in keys}) == len(rows)
    assert (np.count_nonzero(keys, axis=1) == 17).all()


# ---- command line --------------------------------------------------------------------------------
def test_cli_random_isomorphs_canonicalize_to_one_class(tmp_path):
    runner = CliRunner()
    out = runner.invoke(main, ["transform", TOP95_FIRST, "--random", "-n", "5", "--seed", "1"])
    assert out.exit_code == 0, out.output
    isos = out.output.split()
    assert len(set(isos)) == 5
    path = tmp_path / "isos.txt"
    path.write_text("\n".join(isos) + "\n")
    canon = runner.invoke(main, ["canon", str(path)])
    assert canon.exit_code == 0
    assert canon.stdout.split() == [sym.canonical(grid_of(TOP95_FIRST)).to_line()]
    assert "5 puzzles read, 1 distinct up to symmetry" in canon.stderr


def test_cli_transform_applies_named_moves_in_order():
    runner = CliRunner()
    out = runner.invoke(main, ["transform", TOP95_FIRST, "--bands", "312", "--rotate", "1"])
    g = standard()
    want = sym.bands(g, [2, 0, 1]).then(sym.rotate(g, 1)).apply(grid_of(TOP95_FIRST))
    assert out.output.strip() == want.to_line()


def test_cli_transform_bad_order_is_one_line_error():
    out = CliRunner().invoke(main, ["transform", TOP95_FIRST, "--bands", "31"])
    assert out.exit_code == 2
    assert out.stderr.startswith("sudokit: error:") and "Traceback" not in out.output


def test_cli_canon_keeps_first_original_of_each_class_or_every_line(tmp_path):
    top = lines("norvig_top95.txt")
    path = tmp_path / "pair.txt"
    path.write_text("\n".join([top[73], top[75], top[0]]) + "\n")
    runner = CliRunner()
    originals = runner.invoke(main, ["canon", str(path), "--originals", "-q"])
    assert originals.stdout.split() == [top[73], top[0]]
    every = runner.invoke(main, ["canon", str(path), "--no-dedupe", "-q"])
    assert len(every.stdout.split()) == 3 and len(set(every.stdout.split())) == 2
