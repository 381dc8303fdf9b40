"""The paper's numbers, reproduced; every verdict checked a second way (slow: about 30 s)."""

from __future__ import annotations

import pytest

from sudokit.grid import Grid
from sudokit.rules.classify import contains_two_lines_of_a_chute
from sudokit.rules.lemmas import close_mask, closure
from sudokit.rules.model import board
from sudokit.rules.reproduce import format_report, reproduce
from sudokit.rules.sat import CountingOracle, Oracle

pytestmark = pytest.mark.slow
B = board(3)


def units_hold(grid: Grid, cells) -> bool:
    return sorted(grid.values[c] for c in cells) == list(range(1, 10))


def assert_counterexample(model: int, grid: Grid) -> None:
    assert all(1 <= v <= 9 for v in grid.values)
    assert all(units_hold(grid, B.cells(u)) for u in B.members(model))
    assert not all(units_hold(grid, B.cells(u)) for u in B.members(B.missing(model)))


@pytest.fixture(scope="module")
def report():
    return reproduce()


@pytest.fixture(scope="module")
def oracle():
    o = Oracle(B)
    yield o
    o.close()


def test_every_number_matches_the_paper(report):
    assert report.all_agree, format_report(report, details=False)
    m6 = report.levels[6]
    assert m6.total == 296_010
    assert len(m6.sudoku) == 39
    assert len(report.levels[1].sudoku) == len(report.levels[1].classes)
    assert report.levels[7].sudoku == []
    assert [len(report.levels[n].sudoku) for n in range(1, 7)] == [2, 6, 16, 33, 48, 39]


def test_the_papers_70_are_the_classes_missing_at_most_one_line_per_chute(report):
    m6 = report.levels[6]
    assert len(m6.not_sudoku) == 281
    assert sum(not contains_two_lines_of_a_chute(B, c.missing) for c in m6.not_sudoku) == 70
    assert not any(contains_two_lines_of_a_chute(B, c.missing) for c in m6.sudoku)


def test_seven_minimal_negatives_and_one_new_in_missing_7(report):
    assert sorted(bin(c.missing).count("1") for c in report.negatives) == [2, 3, 4, 4, 5, 6, 6]
    assert [B.describe(B.full & ~c.missing) for c in report.new_negatives] == ["-R7,C7,B2,B3,B4,B5,B7"]
    for c in report.negatives + report.new_negatives:
        model = B.full & ~c.missing
        assert c.counterexample is not None
        assert_counterexample(c.closed, c.counterexample)
        assert not CountingOracle(B).entails(model)  # the second encoding refutes it too
        for u in B.members(c.missing):  # minimal: putting any one constraint back gives Sudoku
            assert closure(B, model | 1 << u).complete


def test_every_sudoku_class_of_missing_6_is_proved_twice(report, oracle):
    for c in report.levels[6].sudoku:
        model = B.full & ~c.missing
        assert closure(B, model).complete  # lemma proof
        assert oracle.entails(model).entailed  # and SAT
        assert CountingOracle(B).entails(model)  # and SAT with another encoding and solver


def test_every_non_sudoku_class_of_missing_6_and_7_has_a_checked_counterexample(report, oracle):
    for n in (6, 7):
        for c in report.levels[n].not_sudoku:
            model = B.full & ~c.missing
            assert close_mask(B, model) != B.full
            verdict = oracle.entails(model)
            assert not verdict.entailed
            assert_counterexample(model, verdict.counterexample)


def test_small_constraint_extremes(report):
    assert min(report.small.values()) == 648 and max(report.small.values()) == 690
    (fewest,) = report.fewest
    assert B.describe(B.full & ~fewest) == "-R1,R4,R7,C1,C4,C7"
    assert report.removals_refuted == 648
