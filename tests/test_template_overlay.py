"""templates.overlay (Pattern Overlay's count of a digit's templates, by rows with the ends of templates worked
out once per blocked cells) against listing every template."""

from __future__ import annotations

import random

import pytest

from sudokit.geometry import standard
from sudokit.logic.templates import _tables, overlay
from variant_corpus import start_state


def _listed(g, places, musts):
    """Every template, one cell per row, no two peers, hitting every full unit and every mask of ``musts``."""
    peers, units, rows = _tables(g)
    found = []

    def walk(r, blocked, used):
        if r == len(rows):
            if all(u & used for u in units) and all(m & used for m in musts):
                found.append(used)
            return
        for s in rows[r]:
            if places >> s & 1 and not blocked >> s & 1:
                walk(r + 1, blocked | peers[s], used | 1 << s)

    walk(0, 0, 0)
    if not found:
        return 0, 0, 0
    union, inter = 0, -1
    for t in found:
        union |= t
        inter &= t
    return union, inter, len(found)


@pytest.mark.parametrize("geometry", ["classic", "diagonals"])
def test_overlay_counts_every_template(geometry):
    g = standard() if geometry == "classic" else start_state(47).g  # line 48: two diagonals as units
    rng = random.Random(19)
    for _ in range(60):
        places = sum(1 << s for s in range(81) if rng.random() < rng.choice([0.3, 0.45, 0.6]))
        musts = tuple(sorted(sum(1 << s for s in rng.sample(range(81), 4)) for _ in range(rng.randint(0, 2))))
        assert overlay.__wrapped__(g, places, musts) == _listed(g, places, musts)
