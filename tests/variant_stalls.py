"""States where logic stalls on bundled variant puzzles, for the variant rows' first-step cases.

Each case walks a bundled puzzle by logic with the case's row (and the rows that would open the puzzle before it)
left out, to the state where every other row is stuck; the case's row must then be the next step. The walks
cost ~20 s of CPU, so their end states are stored in ``variant_stalls.json``; the tests check at each stored
state that the puzzle's solution is still in it, that every row left in is stuck there and that the case's row
is the first step. After a change of the logic rows, ``python tests/variant_stalls.py`` walks again and rewrites
the file.
"""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path

from variant_corpus import RECORDS, start_state

FILE = Path(__file__).with_name("variant_stalls.json")
#: The rows that fill a unit's (or two units') cages together (unit_cages.py): they finish lines 71, 90, 92 and 93
#: before the rows those puzzles were chosen for, so the cases of those rows leave them out.
WEBS = "cages around a unit,cages around two units"
#: The row that combines every sum by elimination (sum_equations.py): it finishes line 93 without Region Sum and
#: on line 75 takes steps before the templates, so the cases of those rows leave it out.
SUMS = "sum equation"
#: The almost locked set rows: with sets of every size (als.max_size) they finish line 93 before its region sums,
#: so that case leaves them out.
ALS = "als-xz,als-xy-wing,als-chain,death blossom"
#: Case name -> (the RECORDS index of its bundled puzzle, the rows its walk leaves out).
STALLS: dict[str, tuple[int, str]] = {
    # "tarek unsolvable #41" (data line 75): its templates need a cage that must hold the digit
    "Pattern Overlay": (74, f"forcing chain,pattern overlay,template combination,{SUMS}"),
    # a diagonal killer (data line 93) that logic finishes with region sums (it needed templates before)
    "Region Sum": (92, f"forcing chain,region sum,pattern overlay,template combination,{WEBS},{SUMS},{ALS}"),
    # data line 90: logic finishes it with cage links in its chains, not without them
    "Variant AIC": (89, f"forcing chain,variant aic,{WEBS}"),
    # "White Room" (data line 71): logic finishes it with two digits' templates, not without them
    "Template Combination": (70, f"forcing chain,template combination,{WEBS}"),
    # a killer (data line 95) that logic without forcing chains finishes with a unit's web, not without
    "Cages Around a Unit": (94, f"forcing chain,{WEBS}"),
    # a diagonal killer of 2-cell cages (data line 89) that needs two units' webs as well
    "Cages Around Two Units": (88, "forcing chain,cages around two units"),
    # "CTC Tribute" (data line 40): arrows, cages and thermometers; its arrows are taken out of the 45 rule
    "Sum Combination": (39, f"forcing chain,sum combination,{WEBS}"),
    # "Hailstone - little killer [easier]" (data line 49): five parallel little killers each way, a Band Sum
    "Band Sum": (48, f"forcing chain,band sum,{WEBS}"),
    "Sum Equation": (74, "forcing chain,sum equation"),
}


def walk(index: int, exclude: str):
    """The bundled puzzle's state where every row but ``exclude`` is stuck (the walk the file stores)."""
    from sudokit.logic import registry
    from sudokit.logic.explain import next_step

    state = start_state(index)
    rows = registry.applicable(state, techniques=registry.technique_set(exclude=exclude))
    while (step := next_step(state, rows)) is not None:
        state.apply(step)
    assert not state.is_solved()
    return state


def _masks(state) -> str:
    return " ".join(f"{v}:{m:x}" for v, m in zip(state.values, state.cands))


@cache
def _stored() -> dict:
    return json.loads(FILE.read_text(encoding="utf-8"))


def stalled(name: str):
    """Case ``name``'s stored stall: a fresh state of its puzzle with the stored digits and candidates."""
    index, exclude = STALLS[name]
    entry = _stored()[name]
    assert (entry["line"], entry["exclude"]) == (index + 1, exclude), f"{FILE.name} is stale: rewrite it"
    state = start_state(index)
    pairs = [token.split(":") for token in entry["cells"].split()]
    state.values = [int(v) for v, _ in pairs]
    state.cands = [int(m, 16) for _, m in pairs]
    state.changed()
    return state


def main() -> None:
    out = {}
    for name, (index, exclude) in STALLS.items():
        state = walk(index, exclude)
        out[name] = {"line": index + 1, "name": RECORDS[index]["name"], "exclude": exclude, "cells": _masks(state)}
        print(f"{name}: line {index + 1}", file=sys.stderr)
    FILE.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
