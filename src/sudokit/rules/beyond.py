"""Beyond the paper: the same analysis on 4x4 boards, 16x16 construction, and diagonal Sudoku.

The paper suggests that for box side ``k`` no model in Missing(2k+1) is Sudoku. On 4x4 (``k = 2``)
the whole lattice Missing(0..12) is small enough to settle exactly; on 9x9 the reproduction already
shows Missing(7) empty. For 16x16 only the positive half is cheap: leaving out one row per band and
one column per stack (``2k = 8`` constraints) is Sudoku by Lemma 4.2 alone.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from sudokit.rules.classify import Classification, Solver, classify, minimal_negatives
from sudokit.rules.lemmas import closure
from sudokit.rules.model import Board, board
from sudokit.rules.sat import CountingOracle
from sudokit.rules.symmetry import group


@dataclass
class BoardStudy:
    """Missing(n) classified for one board, for n = 1 .. ``top`` (stopping after the first empty one)."""

    name: str
    board: Board
    levels: dict[int, Classification] = field(default_factory=dict)
    sat_calls: int = 0
    seconds: float = 0.0
    confirmed: dict[int, bool] = field(default_factory=dict)

    @property
    def most_redundant(self) -> int:
        """The largest n for which some model of Missing(n) is Sudoku."""
        return max((n for n, c in self.levels.items() if c.sudoku), default=0)

    @property
    def lemma_gaps(self) -> list[int]:
        """Missing sets that are Sudoku but not by the lemmas alone (found by SAT)."""
        return [c.missing for t in self.levels.values() for c in t.classes if c.sudoku and c.how == "sat"]


def study(name: str, b: Board, group_name: str, top: int, progress: Callable[[str], None]) -> BoardStudy:
    """Classify Missing(1..top) of a board, stopping after a level with no Sudoku class."""
    start = time.perf_counter()
    out = BoardStudy(name, b)
    solver = Solver(b)
    grp = group(b, group_name)
    for n in range(1, top + 1):
        progress(f"{name}: Missing({n})")
        out.levels[n] = classify(solver, grp, n, out.levels.get(n - 1))
        if not out.levels[n].sudoku:
            break
    out.sat_calls = solver.sat_calls()
    for missing in out.lemma_gaps:  # SAT-only "Sudoku" verdicts: ask the second encoding too
        out.confirmed[missing] = CountingOracle(b).entails(b.full & ~missing)
    out.seconds = time.perf_counter() - start
    return out


@dataclass
class Beyond:
    """The results of :func:`run_beyond`."""

    studies: list[BoardStudy]
    construction_16: str


def run_beyond(diagonal: bool = False, diagonal_top: int = 8, progress: Callable[[str], None] | None = None) -> Beyond:
    """4x4 fully; 16x16 construction; diagonal 9x9 up to Missing(``diagonal_top``) if asked."""
    say = progress or (lambda _m: None)
    studies = [study("4x4", board(2), "full", 12, say)]
    if diagonal:
        studies.append(study("diagonal 9x9", board(3, "diagonal"), "diagonal", diagonal_top, say))
    b16 = board(4)
    gone = [f"R{4 * i + 1}" for i in range(4)] + [f"C{4 * i + 1}" for i in range(4)]
    proof = closure(b16, b16.full & ~b16.mask(gone))
    verdict = "Sudoku" if proof.complete else "not settled by the lemmas"
    construction = f"16x16 missing {','.join(gone)} (2k = 8): {verdict}, {len(proof.steps)} uses of Lemma 4.2"
    return Beyond(studies, construction)


def format_beyond(result: Beyond) -> str:
    """Plain-text summary of :func:`run_beyond`."""
    lines = []
    for s in result.studies:
        b = s.board
        lines.append(f"{s.name}: {b.n_constraints} big constraints; {s.sat_calls} SAT calls, {s.seconds:.1f}s")
        lines.append(f"  {'n':>3} {'models':>9} {'classes':>8} {'Sudoku classes':>15} {'Sudoku models':>14}")
        for n, t in sorted(s.levels.items()):
            lines.append(f"  {n:>3} {t.total:>9,} {len(t.classes):>8} {len(t.sudoku):>15} {t.sudoku_models:>14,}")
        k = b.geometry.box_rows
        assert k is not None  # the boards of this study have square boxes
        lines.append(f"  most constraints that can go: {s.most_redundant} (the paper's 2k = {2 * k})")
        if s.levels.get(2 * k + 1) is not None:
            empty = not s.levels[2 * k + 1].sudoku
            lines.append(f"  Missing(2k+1) = Missing({2 * k + 1}) has {'no' if empty else 'a'} Sudoku model")
        if s.confirmed:
            lines.append("  Sudoku by SAT but not by the chute lemmas (does the second encoding agree?):")
            for m, ok in s.confirmed.items():
                lines.append(f"    {b.describe(b.full & ~m):<28} {'yes' if ok else 'NO'}")
        negs = minimal_negatives(s.levels)
        shown = "; ".join(b.describe(b.full & ~c.missing) for c in negs[:8])
        more = f"; ... ({len(negs) - 8} more)" if len(negs) > 8 else ""
        lines.append(f"  minimal negative models ({len(negs)} classes): {shown}{more}")
    lines.append(result.construction_16)
    return "\n".join(lines)
