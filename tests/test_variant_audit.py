"""The variant audit (``benchmarks/variant_audit.py``) on a few random 4x4 and 6x6 puzzles: every f-puzzles field
against rules written again from the fields and a brute-force count, the solvers under several search settings,
every logic row on every state of each walk, round trips and damaged copies. The full runs and their figures are
in docs/variants.md."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "variant_audit", Path(__file__).resolve().parents[1] / "benchmarks" / "variant_audit.py"
)
audit = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("variant_audit", audit)  # the dataclass looks its module up by name
_spec.loader.exec_module(audit)


@pytest.mark.parametrize(("size", "seeds", "jigsaw"), [(4, range(0, 6), False), (6, range(6, 9), True)])
def test_random_variant_puzzles_agree_with_the_oracle(size, seeds, jigsaw):
    for seed in seeds:
        case = audit.audit_case(seed, size, logic=True, seconds=2.0, formats=2, jigsaw=jigsaw)
        assert case.expected is not None and not case.problems, (seed, case.problems, case.text)


def test_the_oracle_refuses_a_grid_breaking_a_rule():
    """The oracle can fail: a killer cage's sum off by one, a thermometer read backwards."""
    grid = [[{} for _ in range(4)] for _ in range(4)]
    solution = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    assert audit.oracle_ok(
        {"size": 4, "grid": grid, "killercage": [{"cells": ["R1C1", "R1C2"], "value": "3"}]}, solution
    )
    assert not audit.oracle_ok(
        {"size": 4, "grid": grid, "killercage": [{"cells": ["R1C1", "R1C2"], "value": "4"}]}, solution
    )
    assert not audit.oracle_ok({"size": 4, "grid": grid, "thermometer": [{"lines": [["R1C2", "R1C1"]]}]}, solution)
