"""Redundant rules: models, lemma closure, SAT entailment, symmetry, small constraints, CNF, CLI."""

from __future__ import annotations

import random
from math import comb
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.errors import SudokitError
from sudokit.grid import Grid, is_solution
from sudokit.rules import TWENTY_ONE, check_with_units
from sudokit.rules.classify import Solver, classify_up_to, minimal_negatives
from sudokit.rules.cnf import model_cnf, puzzle_cnf, read_solution, to_dimacs
from sudokit.rules.lemmas import close_mask, closure
from sudokit.rules.model import board
from sudokit.rules.sat import CountingOracle, Oracle
from sudokit.rules.small import local_minimality
from sudokit.rules.symmetry import group, orbits

DATA = Path(__file__).resolve().parents[1] / "data"
B9 = board(3)
B4 = board(2)


def unit_ok(grid: Grid, cells) -> bool:
    """Independent plain check: the cells hold n distinct digits 1..n."""
    values = [grid.values[c] for c in cells]
    return sorted(values) == list(range(1, grid.geometry.size + 1))


def assert_counterexample(b, model: int, grid: Grid) -> None:
    """The grid keeps every unit of the model and breaks some unit the model leaves out."""
    assert all(1 <= v <= b.geometry.size for v in grid.values)
    assert all(unit_ok(grid, b.cells(u)) for u in b.members(model))
    assert any(not unit_ok(grid, b.cells(u)) for u in b.members(b.missing(model)))


@pytest.fixture(scope="module")
def oracle():
    o = Oracle(B9)
    yield o
    o.close()


# ---- models -----------------------------------------------------------------------------------
def test_board_names_are_the_papers():
    assert B9.names[:3] == ("R1", "R2", "R3") and B9.names[9] == "C1" and B9.names[26] == "B9"
    assert board(3, "diagonal").names[-2:] == ("D1", "D2")


def test_model_spellings_agree():
    missing = B9.full & ~B9.mask(["R1", "C4"])
    assert B9.parse("-R1,C4") == B9.parse("missing:r1, c4") == missing
    assert B9.parse(",".join(B9.names_of(missing))) == missing
    assert B9.parse("all") == B9.full
    assert B9.describe(B9.parse("21")) == "-R2,R5,R8,C2,C5,C8"


def test_unknown_constraint_is_a_user_error():
    with pytest.raises(SudokitError, match="unknown constraint"):
        B9.parse("-R10")


def test_sudoku_has_810_small_constraints_and_the_21_model_648():
    assert len(B9.small_constraints(B9.full)) == 810
    assert len(B9.small_constraints(B9.mask(TWENTY_ONE))) == 648


# ---- lemmas -----------------------------------------------------------------------------------
def test_lemma_4_1_derives_the_missing_box_of_a_band():
    proof = closure(B9, B9.parse("-B2"))
    assert proof.complete
    assert proof.steps[0].describe(B9) == "Lemma 4.1 in band 1: R1 R2 R3 B1 B3 => B2"


def test_lemma_4_2_derives_the_missing_row_of_a_band():
    proof = closure(B9, B9.parse("-R2"))
    assert proof.complete
    assert proof.steps[0].describe(B9) == "Lemma 4.2 in band 1: B1 B2 B3 R1 R3 => R2"


def test_every_model_of_missing_1_is_sudoku_by_the_lemmas():
    assert all(close_mask(B9, B9.full & ~(1 << u)) == B9.full for u in range(27))


def test_two_rows_of_a_band_leave_the_lemmas_stuck():
    proof = closure(B9, B9.parse("-R1,R2"))
    assert not proof.complete and proof.closed == B9.parse("-R1,R2")
    assert "stuck" in proof.proof()


@settings(max_examples=60, deadline=None)
@given(st.sets(st.integers(0, 26), max_size=9))
def test_closure_is_a_closure_and_the_fast_path_agrees(gone):
    model = B9.full & ~B9.mask(sorted(gone))
    proof = closure(B9, model)
    assert proof.closed == close_mask(B9, model)
    assert proof.closed & model == model
    assert close_mask(B9, proof.closed) == proof.closed
    # each step uses premises that are present at that point
    have = model
    for step in proof.steps:
        assert all(have >> u & 1 for u in step.premises)
        have = step.model_after


# ---- SAT ----------------------------------------------------------------------------------------
def test_sat_refutes_two_rows_of_a_band_with_a_checked_grid(oracle):
    model = B9.parse("-R1,R2")
    verdict = oracle.entails(model)
    assert not verdict.entailed
    assert_counterexample(B9, model, verdict.counterexample)
    assert set(verdict.broken) == {B9.lookup("R1"), B9.lookup("R2")}


def test_both_encodings_entail_theorem_4_5(oracle):
    model = B9.parse("21")
    assert oracle.entails(model).entailed
    assert CountingOracle(B9).entails(model)


@settings(max_examples=25, deadline=None)
@given(st.sets(st.integers(0, 26), min_size=1, max_size=6))
def test_lemma_proofs_and_sat_agree_on_random_models(oracle, gone):
    o = oracle
    model = B9.full & ~B9.mask(sorted(gone))
    verdict = o.entails(model)
    if close_mask(B9, model) == B9.full:
        assert verdict.entailed  # a lemma proof, confirmed by SAT
    if not verdict.entailed:
        assert_counterexample(B9, model, verdict.counterexample)
        assert close_mask(B9, model) != B9.full


def test_entailment_of_a_single_target(oracle):
    model = B9.parse("-R1,R2")
    assert not oracle.entails(model, B9.mask(["R1"])).entailed
    assert oracle.entails(B9.parse("-R1"), B9.mask(["R1"])).entailed


# ---- the 21-unit check --------------------------------------------------------------------------
def _solutions(count: int) -> list[Grid]:
    lines = (DATA / "kaggle_sample.solutions.txt").read_text().split()[:count]
    return [Grid.from_values([int(ch) for ch in line]) for line in lines]


def test_twenty_one_units_are_a_proven_model():
    assert len(TWENTY_ONE) == 21
    assert closure(B9, B9.mask(TWENTY_ONE)).complete


def test_check_with_21_units_agrees_with_all_27_on_solutions_and_damaged_grids():
    rng = random.Random(7)
    for grid in _solutions(40):
        assert check_with_units(grid, TWENTY_ONE) and is_solution(grid)
        values = list(grid.values)
        a, b = rng.sample(range(81), 2)
        values[a], values[b] = values[b], values[a]
        damaged = Grid(grid.geometry, tuple(values))
        assert check_with_units(damaged, TWENTY_ONE) == is_solution(damaged)
        values[rng.randrange(81)] = rng.randint(1, 9)
        damaged = Grid(grid.geometry, tuple(values))
        assert check_with_units(damaged, TWENTY_ONE) == is_solution(damaged)


def test_check_with_units_catches_a_counterexample_outside_the_units(oracle):
    grid = oracle.entails(B9.parse("-R1,R2")).counterexample
    assert check_with_units(grid, [n for n in B9.names if n not in ("R1", "R2")])
    assert not check_with_units(grid, TWENTY_ONE)


def test_check_with_units_rejects_incomplete_grids():
    grid = _solutions(1)[0].with_value(0, 0)
    assert not check_with_units(grid, TWENTY_ONE)


# ---- symmetry -----------------------------------------------------------------------------------
def test_the_4x4_board_group_has_order_128():
    assert group(B4).order == 2 * 2**6


def test_orbits_partition_every_subset():
    grp = group(B9)
    for k, classes in [(1, 2), (2, 7)]:
        orb = orbits(grp, k)
        assert len(orb) == classes
        assert sum(orb.sizes.values()) == comb(27, k)


def test_classes_are_closed_under_the_generators():
    grp = group(B9)
    orb = orbits(grp, 3)
    rng = random.Random(3)
    for mask in rng.sample([int(m) for m in orb.masks], 50):
        for g in grp.generators:
            assert orb.canonical(grp.apply(g, mask)) == orb.canonical(mask)


def test_symmetric_models_get_the_same_verdict():
    grp = group(B9)
    for mask in [B9.parse("-R1,R2"), B9.parse("21"), B9.parse("-R1,C1,B1")]:
        sudoku = close_mask(B9, mask) == B9.full
        for g in grp.generators:
            assert (close_mask(B9, grp.apply(g, mask)) == B9.full) == sudoku


# ---- beyond: 4x4 ------------------------------------------------------------------------------
def test_4x4_allows_four_missing_constraints_but_never_five():
    solver = Solver(B4)
    levels = classify_up_to(solver, group(B4), 5)
    assert [len(levels[n].sudoku) for n in range(1, 6)] == [2, 6, 9, 8, 0]
    assert levels[4].sudoku_models == 192
    for table in levels.values():
        for c in table.classes:
            model = B4.full & ~c.missing
            if c.counterexample is not None:
                assert_counterexample(B4, model & c.closed, c.counterexample)
            if c.sudoku:
                assert CountingOracle(B4).entails(model)
    assert len(minimal_negatives(levels)) == 5


def test_small_constraints_of_the_4x4_theorem_4_5_shape_are_locally_minimal():
    model = B4.parse("-R1,R3,C1,C3")
    assert closure(B4, model).complete
    pairs = B4.small_constraints(model)
    removals = local_minimality(B4.geometry, pairs)
    assert len(removals) == len(pairs)
    for r in removals:
        assert r.grid is not None
        a, b = r.pair
        assert r.grid.values[a] == r.grid.values[b]
        assert all(r.grid.values[p] != r.grid.values[q] for p, q in pairs if (p, q) != r.pair)


# ---- CNF ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("encoding", ["minimal", "extended"])
def test_puzzle_cnf_solves_to_a_checked_solution(encoding):
    from pysat.solvers import Solver as Sat

    line = (DATA / "norvig_easy50.txt").read_text().split()[0]
    puzzle = Grid.from_values([int(ch) if ch.isdigit() else 0 for ch in line])
    n_vars, clauses = puzzle_cnf(puzzle, encoding)
    with Sat(name="minisat22", bootstrap_with=clauses) as s:
        assert s.solve()
        solution = Grid.from_values(read_solution(puzzle, s.get_model()))
    assert is_solution(solution, puzzle)


def test_model_cnf_is_unsatisfiable_exactly_for_sudoku_models():
    from pysat.solvers import Solver as Sat

    for spec, sudoku in [("21", True), ("-R1,R2", False), ("all", True)]:
        model = B9.parse(spec)
        _, clauses = model_cnf(B9, model)
        with Sat(name="cadical153", bootstrap_with=clauses) as s:
            assert s.solve() is not sudoku
            if not sudoku:
                grid = Grid.from_values(read_solution(B9, s.get_model()))
                assert_counterexample(B9, model, grid)


def test_dimacs_header_counts_clauses():
    text = to_dimacs(3, [[1, -2], [3]], ["hello"])
    assert text.splitlines()[:2] == ["c hello", "p cnf 3 2"] and text.endswith("3 0\n")


# ---- CLI ----------------------------------------------------------------------------------------
def _run(*args: str):
    from sudokit.cli import main

    return CliRunner().invoke(main, list(args))


def test_cli_check_proves_21_and_refutes_two_rows():
    ok = _run("rules", "check", "21")
    assert ok.exit_code == 0 and "Sudoku, by the chute lemmas" in ok.output
    bad = _run("rules", "check", "--", "-R1,R2")
    assert bad.exit_code == 1 and "not Sudoku" in bad.output
    grid = Grid.from_values([int(ch) for ch in bad.output.strip().splitlines()[-1]])
    assert_counterexample(B9, B9.parse("-R1,R2"), grid)


def test_cli_prove_prints_the_chain():
    out = _run("rules", "prove", "missing:R1,R4,R7,C1,C4,C7").output
    assert out.count("Lemma 4.2") == 6 and "the model is Sudoku" in out


def test_cli_bad_model_is_one_line_exit_2():
    result = _run("rules", "check", "missing:Q7")
    assert result.exit_code == 2 and "unknown constraint" in result.output


def test_cli_picture_writes_a_png(tmp_path):
    out = tmp_path / "model.png"
    result = _run("rules", "picture", "21", "missing:R1,R2", "-o", str(out))
    assert result.exit_code == 0 and out.read_bytes()[:4] == b"\x89PNG"


def test_cli_cnf_writes_a_model_and_a_puzzle():
    model = _run("cnf", "21")
    assert model.exit_code == 0 and "p cnf" in model.output and "UNSAT means yes" in model.output
    line = (DATA / "norvig_easy50.txt").read_text().split()[0]
    puzzle = _run("cnf", line, "--encoding", "extended")
    header = next(ln for ln in puzzle.output.splitlines() if ln.startswith("p cnf"))
    assert header.split()[2] == "729"


# ---- beyond: diagonal -----------------------------------------------------------------------------
def test_diagonal_needs_both_diagonals_but_can_lose_six_boxes_beyond_the_lemmas():
    bd = board(3, "diagonal")
    o = Oracle(bd)
    try:
        dropped = bd.parse("-D1")
        verdict = o.entails(dropped)
        assert not verdict.entailed
        assert_counterexample(bd, dropped, verdict.counterexample)
        beyond = bd.parse("-B1,B3,B5,B6,B7,B8")
        assert not closure(bd, beyond).complete  # the chute lemmas are stuck ...
        assert o.entails(beyond).entailed  # ... yet SAT proves it Sudoku
        assert CountingOracle(bd).entails(beyond)  # and so does the second encoding
    finally:
        o.close()
