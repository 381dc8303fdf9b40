"""Making puzzles and moving between isomorphs: the generator, the board's transforms and the canonical form.

- :mod:`~sudokit.generate.generator` -- unique, minimal, symmetric puzzles by clue count, pattern or
  difficulty (:class:`Generator`, :func:`generate`, :func:`generate_many`);
- :mod:`~sudokit.generate.transforms` -- validity-preserving transforms (relabel, bands, rows, rotate, ...),
  random isomorphs and the minlex canonical form (:func:`canonical`);
- :mod:`~sudokit.generate.fast9` -- the numba kernel that makes classic 9x9 puzzles (grid, dig, check);
- :mod:`~sudokit.generate.minlex` -- the numba kernel behind the canonical form;
- :mod:`~sudokit.generate.norvig` -- Norvig's ``random_puzzle``.

The difficulty of a generated puzzle is the rating's level (:mod:`sudokit.logic.rating`).
"""

from __future__ import annotations

from sudokit.generate.generator import (
    DIFFICULTIES,
    METHODS,
    SYMMETRIES,
    Difficulty,
    Generated,
    Generator,
    TimeLimitReached,
    dig,
    generate,
    generate_many,
    is_minimal,
    measure_difficulty,
    orbits,
    parse_pattern,
    random_solution,
)
from sudokit.generate.transforms import Transform, canonical, canonical_many, random_isomorph, random_transform

__all__ = [
    "DIFFICULTIES",
    "METHODS",
    "SYMMETRIES",
    "Difficulty",
    "Generated",
    "Generator",
    "TimeLimitReached",
    "Transform",
    "canonical",
    "canonical_many",
    "dig",
    "generate",
    "generate_many",
    "is_minimal",
    "measure_difficulty",
    "orbits",
    "parse_pattern",
    "random_isomorph",
    "random_solution",
    "random_transform",
]
