"""``sudokit explain``: the whole logical solving path, easiest technique first, one line per step."""

from __future__ import annotations

import json

import click

from sudokit.cli.inputs import input_format_option, variant_option
from sudokit.cli.logic_input import COMPLETE, STUCK, is_complete, logic_uniqueness, read_start
from sudokit.cli.techniques import technique_options
from sudokit.words import plural

SINGLES = {"Full House", "Hidden Single", "Naked Single"}


@click.command()
@click.argument("puzzle")
@click.option("--json", "as_json", is_flag=True, help="Print the steps as JSON (technique, rating, highlight).")
@click.option("--no-uniqueness", is_flag=True, help="Leave out techniques that assume a unique solution.")
@click.option("--hard-only", is_flag=True, help="Print only steps harder than singles.")
@variant_option
@input_format_option
@technique_options
def command(
    puzzle: str, as_json: bool, no_uniqueness: bool, hard_only: bool, variant, input_format, techniques
) -> None:
    """Explain how to solve PUZZLE (a string, a one-puzzle file, or -) step by step.

    Pencil marks (a pencilmark line, a candidate grid) are the state the path starts from. Exit status: 0 when
    logic solves the grid (or it is complete), 1 when logic is stuck or the grid is empty or has no solution, 2
    for bad input."""
    from sudokit.cli import variants

    if variants.is_variant_arg(puzzle):  # an f-puzzles / SudokuPad link or JSON: logic with its constraints
        raise SystemExit(variants.explain(puzzle, as_json, hard_only, techniques, SINGLES))
    from sudokit.formats import format_grid
    from sudokit.logic import explain
    from sudokit.logic.rating import hodoku_level, se_parts

    start = read_start(puzzle, variant, input_format)
    if is_complete(start) and not as_json:
        click.echo(COMPLETE)
        return
    path = explain(start, uniqueness=logic_uniqueness(start, not no_uniqueness), techniques=techniques)
    er, ep, ed = se_parts(path)
    score, level = hodoku_level(path)
    if as_json:
        out = {
            "solved": path.solved,
            "rating": er,
            "level": level,
            "score": score,
            "technique_set": techniques.spec,
            "grid": path.grid.to_line() if path.grid else None,
            "steps": [s.to_dict() for s in path.steps],
        }
        click.echo(json.dumps(out, indent=1))
        if not path.solved:
            raise SystemExit(1)
        return
    width = len(str(len(path.steps)))
    for i, step in enumerate(path.steps, 1):
        if hard_only and step.technique in SINGLES:
            continue
        click.echo(f"{i:>{width}}. [{step.rating:.1f}] {step.explanation}")
    steps = plural(len(path.steps), "step")
    if path.solved:
        click.echo(f"Solved by logic in {steps}: SE {er:.1f}/{ep:.1f}/{ed:.1f}, {level} ({score})")
        return
    click.echo(f"{STUCK} After {steps}, the grid is:")
    assert path.grid is not None  # explain() always records the grid it reached
    click.echo(format_grid(path.grid, "line"))
    raise SystemExit(1)
