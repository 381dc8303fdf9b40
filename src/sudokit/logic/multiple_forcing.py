"""Multiple forcing chains (Sudoku Explainer's cell and region forcing chains, 8.0 + length).

Every candidate of a cell, or every place of a digit in a unit, is assumed in turn and followed through the
static implications of the grid as it stands (:mod:`sudokit.logic.implication_kernel`, not dynamic: a cell or
unit link counts only if it is one before the chain starts). What every branch leads to holds: a candidate
turned on in all of them is placed, one turned off in all is removed. As in SE, only cells of three candidates
or more start them (a region's first place of the digit must be such a cell): a bivalue cell's chains are
dynamic ones to SE. The conclusion with the fewest ancestors over all branches is taken (ties as SE breaks
them). Measured on every 10th puzzle ``sudoku_exchange_rated`` rates 7.0-9.4 (198): see CHANGELOG.md."""

from __future__ import annotations

from sudokit.logic import implications
from sudokit.logic.state import State
from sudokit.logic.step import Step

NAME = "Multiple Forcing Chain"
BASE = 8.0


def multiple_forcing_chain(state: State) -> Step | None:
    """The cell or region forcing chain with the shortest chains, SE-rated, or None."""
    return implications.find(state, NAME, BASE, dynamic=False, x_only=False, binary=0, multiple=True, min_cell=3)
