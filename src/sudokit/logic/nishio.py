"""Nishio forcing chains (Sudoku Explainer 7.5 + length): assume a candidate and follow its digit alone.

The candidate on turns its digit off in its peers; a digit left with one place in a unit goes there; and the
grid is updated as the chain goes (dynamic, :mod:`sudokit.logic.implication_kernel` with ``x_only``). If the
digit ends up both on and off in a cell, the assumption was false; if assuming the candidate *off* does, it is
true; what both assumptions lead to holds. The shortest such chains (fewest ancestors of the conclusion) are
taken, as SE takes its easiest hint."""

from __future__ import annotations

from sudokit.logic import implications
from sudokit.logic.state import State
from sudokit.logic.step import Step

NAME = "Nishio Forcing Chain"
BASE = 7.5


def nishio_forcing_chain(state: State) -> Step | None:
    """The Nishio forcing chain with the shortest chains, SE-rated, or None."""
    return implications.find(state, NAME, BASE, dynamic=True, x_only=True, binary=3, multiple=False)
