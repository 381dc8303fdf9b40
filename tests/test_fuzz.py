"""The fuzz campaign's targets (``benchmarks/fuzz.py``) as property tests, with a modest number of inputs.

Each target draws its inputs with hypothesis and judges every call: a SudokitError is a fair answer, any
other exception a traceback; every returned solution is checked against the givens and the rules, every
logic step against the puzzle's solution; a batch answers every line. ``python benchmarks/fuzz.py`` runs the
same targets at full size (docs/robustness.md).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("hypothesis")

_spec = importlib.util.spec_from_file_location("fuzz", Path(__file__).resolve().parents[1] / "benchmarks" / "fuzz.py")
fuzz = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("fuzz", fuzz)  # dataclasses look their module up by name
_spec.loader.exec_module(fuzz)


def _clean(tally) -> None:
    assert tally.tried > 0
    assert (tally.tracebacks, tally.wrong, tally.hangs, tally.lost) == (0, 0, 0, 0), "\n\n".join(tally.examples)


@pytest.mark.parametrize(
    ("target", "examples"),
    [("parse", 300), ("readers", 150), ("geometry", 300), ("solve", 150), ("solve_many", 60), ("logic", 120)],
)
def test_library_target_never_crashes_and_never_answers_wrong(target, examples):
    _clean(fuzz.run_target(target, examples, seed=16))


def test_random_command_lines_never_print_a_traceback():
    _clean(fuzz.run_cli(60, subprocess_share=0.0, seed=16))


def test_a_batch_answers_every_line_of_a_messy_file():
    _clean(fuzz.run_batch(2, 60, seed=16))


def test_the_fuzz_judge_counts_a_traceback_and_a_wrong_answer():
    tally = fuzz.Tally("judge")
    fuzz.attempt(tally, "boom", lambda: [][1])
    fuzz.attempt(tally, "wrong", lambda: 3, check=lambda v: "three is wrong" if v == 3 else None)
    assert (tally.tried, tally.tracebacks, tally.wrong) == (2, 1, 1)
