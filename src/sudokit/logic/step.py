"""One deduction of human-style solving: what was found, where, and what it changes."""

from __future__ import annotations

from dataclasses import dataclass, field

Candidate = tuple[int, int]  # (cell, digit)
Link = tuple[Candidate, Candidate, bool]  # ((cell, digit), (cell, digit), strong)


@dataclass
class Step:
    """A technique's finding.

    ``placements`` and ``eliminations`` are ``(cell, digit)`` pairs; ``cells``, ``units`` and
    ``candidates`` are what a reader should look at; ``links`` are the chain's links (strong or weak);
    ``rating`` is Sudoku-Explainer style (chain-length penalties included).
    """

    technique: str
    placements: list[Candidate] = field(default_factory=list)
    eliminations: list[Candidate] = field(default_factory=list)
    cells: list[int] = field(default_factory=list)
    units: list[int] = field(default_factory=list)
    candidates: list[Candidate] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    explanation: str = ""
    rating: float = 0.0

    def highlight(self) -> dict:
        """What a renderer should mark, as plain lists (JSON-ready)."""
        return {
            "cells": sorted(set(self.cells)),
            "units": sorted(set(self.units)),
            "candidates": [list(c) for c in self.candidates],
            "eliminations": [list(c) for c in self.eliminations],
            "placements": [list(c) for c in self.placements],
            "links": [[list(a), list(b), strong] for a, b, strong in self.links],
        }

    def to_dict(self) -> dict:
        """The step for ``--json`` output."""
        return {"technique": self.technique, "rating": self.rating, "explanation": self.explanation, **self.highlight()}
