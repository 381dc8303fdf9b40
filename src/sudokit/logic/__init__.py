"""Human-style logic: techniques as small finders over a :class:`State`, one table to order them,
``explain`` (the whole path) and ``hint`` (the next step)."""

from sudokit.logic.explain import Path, explain, hint, next_step
from sudokit.logic.registry import BY_NAME, TECHNIQUES, Technique
from sudokit.logic.state import State
from sudokit.logic.step import Step

__all__ = ["BY_NAME", "TECHNIQUES", "Path", "State", "Step", "Technique", "explain", "hint", "next_step"]
