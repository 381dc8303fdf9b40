"""Reproduce the numbers of Demoen & Garcia de la Banda (2012) and set them next to the paper's.

Plan (fast on purpose): Missing(n) is reduced to classes under the board group *before* anything is
decided; each class is closed under the chute lemmas (a proof when it reaches all 27); a stuck class
that misses everything a non-Sudoku class of Missing(n-1) misses is settled by that; only what is
left goes to SAT, which returns a counterexample grid checked cell by cell. On 9x9 that is eight
SAT calls for Missing(1..7), one per negative lemma.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from sudokit.rules.classify import (
    Classification,
    ClassVerdict,
    Solver,
    classify,
    classify_up_to,
    contains_two_lines_of_a_chute,
    minimal_negatives,
)
from sudokit.rules.model import Board, board
from sudokit.rules.symmetry import group


@dataclass(frozen=True)
class Row:
    """One reproduced number: what it is, the paper's value, ours, and whether they agree."""

    what: str
    paper: str
    ours: str

    @property
    def agrees(self) -> bool:
        """True when our value is the paper's (rows the paper has no value for count as agreeing)."""
        return self.paper in ("", "-") or self.paper == self.ours


@dataclass
class Report:
    """Everything ``sudokit rules reproduce`` prints."""

    board: Board
    rows: list[Row] = field(default_factory=list)
    levels: dict[int, Classification] = field(default_factory=dict)
    negatives: list[ClassVerdict] = field(default_factory=list)
    new_negatives: list[ClassVerdict] = field(default_factory=list)
    small: dict[int, int] = field(default_factory=dict)
    fewest: list[int] = field(default_factory=list)
    removals_refuted: int = 0
    sat_calls: int = 0
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def seconds(self) -> float:
        """Total wall time."""
        return sum(self.timings.values())

    @property
    def all_agree(self) -> bool:
        """True when every number matches the paper."""
        return all(r.agrees for r in self.rows)


def reproduce(progress: Callable[[str], None] | None = None, *, minimality: bool = True) -> Report:
    """Run the whole reproduction on the 9x9 board (about ten seconds on two cores)."""
    say = progress or (lambda _msg: None)
    b = board(3)
    grp = group(b, "full")
    solver = Solver(b)
    rep = Report(b)
    add = rep.rows.append

    t = time.perf_counter()
    say("classifying Missing(1..6) up to symmetry")
    rep.levels = classify_up_to(solver, grp, 6)
    rep.timings["Missing(1..6)"] = time.perf_counter() - t
    m1, m6 = rep.levels[1], rep.levels[6]
    add(Row("Missing(1): models that are Sudoku", "27 of 27", f"{m1.sudoku_models} of {m1.total}"))
    add(Row("|Missing(6)|", "296,010", f"{m6.total:,}"))
    add(Row("Missing(6): Sudoku classes (up to symmetry)", "39", str(len(m6.sudoku))))
    add(Row("Missing(6): Sudoku models (all, not up to symmetry)", "-", f"{m6.sudoku_models:,}"))
    add(Row(f"Missing(6): non-Sudoku classes, group of order {2 * 6**8:,}", "-", str(len(m6.not_sudoku))))
    paper_reading = [c for c in m6.not_sudoku if not contains_two_lines_of_a_chute(b, c.missing)]
    add(Row("  ... of which miss at most one line per chute (the paper's 70)", "70", str(len(paper_reading))))

    t = time.perf_counter()
    say("classifying Missing(7)")
    rep.levels[7] = classify(solver, grp, 7, m6)
    rep.timings["Missing(7)"] = time.perf_counter() - t
    found = minimal_negatives(rep.levels)
    rep.negatives = [c for c in found if _count(c.missing) <= 6]
    rep.new_negatives = [c for c in found if _count(c.missing) == 7]
    sizes = ", ".join(str(_count(c.missing)) for c in rep.negatives)
    add(Row(f"minimal negative models, Missing(2..6) (sizes {sizes})", "7", str(len(rep.negatives))))
    add(Row("new minimal negative model in Missing(7) (Section 5.3)", "1", str(len(rep.new_negatives))))
    add(Row("Missing(7): Sudoku classes", "0", str(len(rep.levels[7].sudoku))))

    t = time.perf_counter()
    say("counting small constraints")
    add(Row("small constraints of Sudoku", "810", str(len(b.small_constraints(b.full)))))
    rep.small = {c.missing: len(b.small_constraints(b.full & ~c.missing)) for c in m6.sudoku}
    low, high = min(rep.small.values()), max(rep.small.values())
    rep.fewest = [m for m, v in rep.small.items() if v == low]
    add(Row("fewest small constraints, Sudoku models of Missing(6)", "648", str(low)))
    add(Row("most small constraints, Sudoku models of Missing(6)", "690", str(high)))
    add(Row("classes reaching the fewest (Theorem 4.5 only)", "1", str(len(rep.fewest))))
    rep.timings["small constraints"] = time.perf_counter() - t

    if minimality:
        from sudokit.rules.small import local_minimality

        t = time.perf_counter()
        say("checking local minimality of the 648 small constraints")
        pairs = b.small_constraints(b.full & ~rep.fewest[0])
        removals = local_minimality(b.geometry, pairs)
        rep.removals_refuted = sum(r.grid is not None for r in removals)
        add(Row("single removals from the 648 set that admit a counterexample", "648 of 648",
                f"{rep.removals_refuted} of {len(removals)}"))  # fmt: skip
        rep.timings["local minimality"] = time.perf_counter() - t
    rep.sat_calls = solver.sat_calls()
    return rep


def _count(mask: int) -> int:
    return bin(mask).count("1")


def format_report(rep: Report, *, details: bool = True) -> str:
    """The report as plain text: the table, then (with ``details``) the classes and lemmas."""
    b = rep.board
    width = max(len(r.what) for r in rep.rows)
    lines = [f"{'':2}{'what':<{width}}  {'paper':>10}  {'sudokit':>16}", f"{'':2}{'-' * (width + 30)}"]
    for r in rep.rows:
        mark = "(not in the paper)" if r.paper in ("", "-") else "ok" if r.agrees else "DIFFERS"
        lines.append(f"{'':2}{r.what:<{width}}  {r.paper:>10}  {r.ours:>16}  {mark}")
    lines.append("")
    per_level = ", ".join(f"M({n}) {len(c.sudoku)}/{len(c.classes)}" for n, c in sorted(rep.levels.items()))
    lines.append(f"  Sudoku classes / all classes: {per_level}")
    timing = ", ".join(f"{k} {v:.1f}s" for k, v in rep.timings.items())
    lines.append(f"  SAT calls: {rep.sat_calls}; wall time {rep.seconds:.1f}s ({timing})")
    if not details:
        return "\n".join(lines)
    m6 = rep.levels[6]
    lines += ["", f"The {len(m6.sudoku)} Sudoku classes of Missing(6) (missing constraints; small constraints):"]
    for i, c in enumerate(sorted(m6.sudoku, key=lambda c: (rep.small[c.missing], c.missing)), 1):
        lines.append(f"  {i:>2}. {b.describe(b.full & ~c.missing):<28} {rep.small[c.missing]:>4}  ({c.size:,} models)")
    lines += [
        "",
        "Minimal negative models (not Sudoku, but putting back any one constraint makes them Sudoku),",
        "N1..N7 for Section 5.1 and N8 for Section 5.3 (our order: by size), each with a checked counterexample:",
    ]
    for i, c in enumerate(rep.negatives + rep.new_negatives, 1):
        grid = c.counterexample
        note = grid.to_line() if grid is not None else "(settled by a smaller one)"
        lines.append(f"  N{i}  {b.describe(b.full & ~c.missing):<24} {note}")
    return "\n".join(lines)
