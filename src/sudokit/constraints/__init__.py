"""Variant Sudoku as constraints: a puzzle is a geometry + givens + a list of constraints.

Each kind is one small class (its cells, ``check`` on a completed grid, ``propagate`` on candidate masks,
``describe`` in words) in the module of its family; :data:`KINDS` names every kind. Region-like kinds
(diagonals, extra regions, disjoint groups, anti-knight, anti-king) add units or peers instead of
propagating themselves. :mod:`sudokit.constraints.solver` solves and counts; :mod:`sudokit.formats.fpuzzles`
reads and writes f-puzzles JSON and links.
"""

from __future__ import annotations

from sudokit.constraints.arrows import Arrow
from sudokit.constraints.base import Constraint
from sudokit.constraints.cages import KillerCage
from sudokit.constraints.dots import XV, Kropki, NegativeRatio, NegativeXV, NonConsecutive
from sudokit.constraints.lines import BetweenLine, Palindrome, Renban, Thermometer, ThreeClassLine, Whispers
from sudokit.constraints.outside import LittleKiller, Sandwich, Skyscraper, XSum
from sudokit.constraints.parity import Parity
from sudokit.constraints.puzzle import VariantPuzzle
from sudokit.constraints.quadruple import Quadruple
from sudokit.constraints.regions import AntiKing, AntiKnight, Diagonal, DisjointGroups, ExtraRegion
from sudokit.constraints.sums import EqualSums

#: Every constraint kind by its name, in the issue's order.
KINDS: dict[str, type[Constraint]] = {
    cls.kind: cls
    for cls in (
        KillerCage,
        Thermometer,
        Arrow,
        Kropki,
        NegativeRatio,
        XV,
        NegativeXV,
        Parity,
        LittleKiller,
        Sandwich,
        XSum,
        Skyscraper,
        Renban,
        Whispers,
        Palindrome,
        BetweenLine,
        ThreeClassLine,
        EqualSums,
        Quadruple,
        ExtraRegion,
        AntiKnight,
        AntiKing,
        NonConsecutive,
        Diagonal,
        DisjointGroups,
    )
}

__all__ = [
    "KINDS",
    "XV",
    "XSum",
    "AntiKing",
    "AntiKnight",
    "Arrow",
    "BetweenLine",
    "Constraint",
    "Diagonal",
    "DisjointGroups",
    "EqualSums",
    "ExtraRegion",
    "KillerCage",
    "Kropki",
    "LittleKiller",
    "NegativeRatio",
    "NegativeXV",
    "NonConsecutive",
    "Palindrome",
    "Parity",
    "Quadruple",
    "Renban",
    "Sandwich",
    "Skyscraper",
    "Thermometer",
    "ThreeClassLine",
    "VariantPuzzle",
    "Whispers",
]
