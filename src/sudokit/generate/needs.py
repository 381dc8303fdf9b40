"""Generation by technique: keep the puzzles whose logical path uses the named techniques, and nothing more.

A :class:`PathWants` says what a generated puzzle's path must look like:

- ``needs``: techniques the path must use (each item a technique, an alias such as ``Locked Candidates``, or a
  preset; an item is met when one of the rows it names makes a step of the path);
- ``techniques``: the rows the solver may use (:func:`sudokit.logic.registry.technique_set`), so "nothing
  harder than" is a technique set: the puzzle must be solved by logic within it;
- ``at_most``: a shorthand that narrows ``techniques`` to the rows rated no harder (SE rating) than the
  named technique.

The path is the one ``sudokit explain`` prints (easiest applicable technique first), so "uses X-Wing" means
that at some step nothing easier applied and an X-Wing did. Generation stays generate-and-test: random
unique minimal puzzles are made and explained until one meets the wants, under the generator's time limit.
"""

from __future__ import annotations

from dataclasses import dataclass

from sudokit.errors import SudokitError
from sudokit.grid import Grid
from sudokit.logic.explain import Path
from sudokit.logic.registry import TechniqueSet, technique_set


@dataclass(frozen=True)
class Need:
    """One ``--needs`` item: its name as written and the rows that meet it."""

    name: str
    rows: frozenset[str]


@dataclass(frozen=True)
class PathWants:
    """What a generated puzzle's logical path must use (``needs``) and may use (``techniques``)."""

    needs: tuple[Need, ...]
    techniques: TechniqueSet

    @property
    def spec(self) -> str:
        """How the wants read in words: ``needs X-Wing; techniques all; exclude uniqueness``."""
        needs = ",".join(n.name for n in self.needs)
        return (f"needs {needs}; " if needs else "") + f"techniques {self.techniques.spec}"

    def path(self, puzzle: Grid) -> Path | None:
        """The puzzle's path when it meets the wants (solved within the set, every need used), else None."""
        from sudokit.logic.explain import explain
        from sudokit.logic.rating import technique_of

        path = explain(puzzle, techniques=self.techniques)
        if not path.solved:
            return None
        used: set[str] = set()
        for step in path.steps:
            row = technique_of(step.technique)
            used.add(row.name if row is not None else step.technique)
        return path if all(need.rows & used for need in self.needs) else None


def path_wants(
    needs: str | None = None,
    techniques: str | TechniqueSet | None = None,
    exclude: str | None = None,
    at_most: str | None = None,
) -> PathWants:
    """The wants from their option texts (comma lists of technique names, aliases and presets); an unknown
    name, a need the allowed set leaves out, or a set that leaves nothing is a :class:`SudokitError`."""
    allowed = technique_set(techniques, exclude)
    spec = allowed.spec
    if at_most is not None:
        ceiling = max(t.se for t in _named(at_most, "--at-most"))
        spec += f"; at most {at_most.strip()} (SE {ceiling:g})"
        allowed = TechniqueSet(spec, tuple(t for t in allowed.rows if t.se <= ceiling))
    wanted = []
    for item in (p.strip() for p in (needs or "").split(",")):
        if not item:
            continue
        names = frozenset(t.name for t in _named(item, "--needs"))
        if not names & set(allowed.names):
            raise SudokitError(f"--needs: '{item}' is not among the techniques the solver may use ({allowed.spec})")
        wanted.append(Need(item, names))
    return PathWants(tuple(wanted), allowed)


def _named(item: str, option: str):
    """The rows one name stands for, an unknown name reported under ``option``."""
    try:
        return technique_set(item).rows
    except SudokitError as exc:
        raise SudokitError(str(exc).replace("--techniques", option, 1)) from None
