"""Counts in words: ``1 step``, ``2 steps`` (one place for every message that counts something)."""

from __future__ import annotations

#: Plurals that do not just add an ``s``.
_IRREGULAR = {"guess": "guesses", "box": "boxes"}


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and ``word`` in the right number: ``plural(1, "digit") == "1 digit"``, ``plural(3, "guess") ==
    "3 guesses"``; ``many`` names an irregular plural."""
    if n == 1:
        return f"{n} {word}"
    return f"{n} {many or _IRREGULAR.get(word, word + 's')}"
