"""Lemma closure: grow a model with the paper's two constructive chute lemmas, keeping the proof.

In a chute (a band of rows with its boxes, or a stack of columns with its boxes) of a board with
``k x k`` boxes:

* **Lemma 4.1** — all ``k`` lines and ``k - 1`` boxes entail the last box: each digit sits once in
  each line, so ``k`` times in the chute; the ``k - 1`` boxes hold one each, the last box the rest.
* **Lemma 4.2** — all ``k`` boxes and ``k - 1`` lines entail the last line, by the same count.

Both only add constraints, so the closure (apply until nothing changes) is unique whatever the
order; the order we use is the paper's: Lemma 4.1 before Lemma 4.2, chutes in board order.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from sudokit.rules.model import Board


@dataclass(frozen=True)
class Step:
    """One rewrite: ``lemma`` applied in ``chute`` derives ``derived`` from ``premises``."""

    lemma: str
    chute: str
    premises: tuple[int, ...]
    derived: int
    model_after: int

    def describe(self, board: Board) -> str:
        """One proof line, e.g. ``Lemma 4.1 in band 1: R1 R2 R3 B1 B3 => B2``."""
        given = " ".join(board.names[u] for u in self.premises)
        return f"Lemma {self.lemma} in {self.chute}: {given} => {board.names[self.derived]}"


@dataclass(frozen=True)
class Closure:
    """A model, its lemma closure, and the steps that got there."""

    board: Board
    model: int
    closed: int
    steps: tuple[Step, ...]

    @property
    def complete(self) -> bool:
        """True when the lemmas derived every big constraint: a proof that the model is Sudoku."""
        return self.closed == self.board.full

    def proof(self) -> str:
        """The chain of rewrites, one model per line, as in the paper's proof of Theorem 4.4."""
        b = self.board
        lines = [f"  {b.describe(self.model)}"]
        for step in self.steps:
            lines.append(f"  => {b.describe(step.model_after):<28} ({step.describe(b)})")
        if self.complete:
            lines.append("  every big constraint is derived: the model is Sudoku")
        else:
            lines.append(f"  stuck: the lemmas derive nothing more from {b.describe(self.closed)}")
        return "\n".join(lines)


def _chute_masks(board: Board) -> list[tuple[str, int, int, tuple[int, ...], tuple[int, ...]]]:
    out = []
    for name, (lines, boxes) in zip(board.chute_names, board.chutes):
        line_mask = sum(1 << u for u in lines)
        box_mask = sum(1 << u for u in boxes)
        out.append((name, line_mask, box_mask, lines, boxes))
    return out


@cache
def _chutes(board: Board) -> list:
    return _chute_masks(board)


def close_mask(board: Board, model: int) -> int:
    """The lemma closure of a model, as a bitmask, without recording the proof (fast path)."""
    chutes = _chutes(board)
    changed = True
    while changed:
        changed = False
        for _, line_mask, box_mask, _, _ in chutes:
            have_lines = model & line_mask
            have_boxes = model & box_mask
            if have_lines == line_mask and have_boxes != box_mask:
                gap = box_mask & ~have_boxes
                if gap & (gap - 1) == 0:
                    model |= gap
                    changed = True
            elif have_boxes == box_mask and have_lines != line_mask:
                gap = line_mask & ~have_lines
                if gap & (gap - 1) == 0:
                    model |= gap
                    changed = True
    return model


def closure(board: Board, model: int) -> Closure:
    """Apply Lemmas 4.1 then 4.2 until neither adds a constraint; record each step."""
    chutes = _chutes(board)
    steps: list[Step] = []
    current = model
    while True:
        step = _one_step(chutes, current, "4.1") or _one_step(chutes, current, "4.2")
        if step is None:
            break
        current = step.model_after
        steps.append(step)
    return Closure(board, model, current, tuple(steps))


def _one_step(chutes, model: int, lemma: str) -> Step | None:
    for name, line_mask, box_mask, lines, boxes in chutes:
        # Lemma 4.1: every line present, one box missing; Lemma 4.2: every box, one line missing.
        whole, whole_units, part, part_units = (
            (line_mask, lines, box_mask, boxes) if lemma == "4.1" else (box_mask, boxes, line_mask, lines)
        )
        if model & whole != whole:
            continue
        gap = part & ~model
        if gap and gap & (gap - 1) == 0:
            derived = gap.bit_length() - 1
            premises = whole_units + tuple(u for u in part_units if u != derived)
            return Step(lemma, name, premises, derived, model | gap)
    return None
