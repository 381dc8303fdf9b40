"""Dynamic forcing chains (Sudoku Explainer 8.5 + length): contradiction, double, cell and region forcing
chains that follow every implication with the grid updated as they go.

A candidate is assumed on (and off), or every candidate of a cell, or every place of a digit in a unit, and
followed through cell and unit links (:mod:`sudokit.logic.implication_kernel`, dynamic: a cell or unit left with
two candidates or places after the chain's own removals is a link). An assumption that turns a candidate both
on and off is false; what every branch leads to holds. The conclusion with the fewest ancestors is taken."""

from __future__ import annotations

from sudokit.logic import implications
from sudokit.logic.state import State
from sudokit.logic.step import Step

NAME = "SE Dynamic Forcing Chain"
BASE = 8.5


def dynamic_forcing_chain(state: State) -> Step | None:
    """The dynamic forcing chain with the shortest chains, SE-rated, or None."""
    return implications.find(state, NAME, BASE, dynamic=True, x_only=False, binary=7, multiple=True)
