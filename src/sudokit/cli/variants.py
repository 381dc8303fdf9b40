"""Variant puzzles on the command line: ``solve``, ``show`` and ``convert`` hand an argument here when it is
an f-puzzles / SudokuPad link, f-puzzles JSON text, or a ``.json`` / ``.jsonl`` file (one puzzle, or one
link / JSON object per line). Same outputs and exit codes as for classic puzzles: 0 all solved, 1 a puzzle
without a unique solution, 2 unreadable input (one line ``sudokit: error: ...``)."""

from __future__ import annotations

import os
import sys
import time

import click

from sudokit.cli.report import count_text, describe_result
from sudokit.errors import SudokitError

#: ``convert --to`` layouts that keep every constraint.
VARIANT_FORMATS = ("fpuzzles", "fpuzzles-link", "sudokupad-link")


def is_variant_arg(arg: str) -> bool:
    """True when the argument names a variant puzzle (see the module doc)."""
    from sudokit.formats.fpuzzles import looks_like_variant

    return looks_like_variant(arg)


def load(arg: str) -> tuple[list, bool]:
    """``([(line, puzzle or error), ...], single)``: a puzzle typed as the argument is ``single``."""
    from sudokit.formats.fpuzzles import parse_variant, read_variant_lines

    text_arg = arg.strip()
    if text_arg == "-" or os.path.exists(text_arg) or text_arg.lower().endswith((".json", ".jsonl")):
        if text_arg != "-" and not os.path.isfile(text_arg):
            raise SudokitError(f"{text_arg}: no such file")
        source = "<stdin>" if text_arg == "-" else text_arg
        if text_arg == "-":
            text = sys.stdin.read()
        else:
            with open(text_arg, encoding="utf-8") as f:
                text = f.read()
        items = list(read_variant_lines(text, source))
        if not items:
            raise SudokitError(f"{source}: no puzzle in it")
        return items, False
    return [(1, parse_variant(text_arg))], True


def solve(
    arg: str,
    limit: int,
    counting: bool,
    stats: bool,
    time_limit: float | None = None,
    out_format: str | None = None,
    method: str = "engine",
) -> int:
    """``sudokit solve`` for variant puzzles; returns the exit status."""
    if method != "engine":
        raise SudokitError(f"--method {method} solves classic puzzles; variant puzzles have their own solver")
    from sudokit.constraints.solver import solve_variant
    from sudokit.formats import format_grid

    items, single = load(arg)
    if single:
        result = solve_variant(items[0][1], limit=limit, time_limit=time_limit)
        _print_result(result, limit, counting, out_format or "pretty")
        if stats:
            s = result.stats
            click.echo(
                f"status {result.status}, guesses {s.guesses}, nodes {s.nodes}, backtracks {s.backtracks}, "
                f"{s.seconds * 1e3:.3f} ms ({result.method})"
            )
        return 0 if result.status == "solved" or (counting and result.status == "multiple") else 1
    solved = failed = bad = 0
    start = time.perf_counter()
    for line, item in items:
        if isinstance(item, SudokitError):
            click.echo(f"sudokit: error: {item}", err=True)
            click.echo(f"# line {line}: unreadable")
            bad += 1
            continue
        result = solve_variant(item, limit=limit, time_limit=time_limit)
        if result.status == "timeout":
            click.echo(f"# line {line}: {describe_result(result, limit, counting)}")
        elif counting:
            click.echo(count_text(result.count, limit))
        elif result.solution is not None:
            click.echo(format_grid(result.solution, "line" if out_format in (None, "pretty") else out_format))
        else:
            click.echo(f"# line {line}: {describe_result(result, limit, False)}")
        if result.status == "solved":
            solved += 1
        else:
            failed += 1
    seconds = time.perf_counter() - start
    done = solved + failed
    avg = seconds / done if done else 0.0
    click.echo(f"Solved {solved} of {done + bad} puzzles (avg {avg * 1e3:.2f} ms)", err=True)
    if bad:  # the batch commands' rule: an unreadable line is status 2, whatever else happened
        return 2
    if counting:
        return 0
    return 1 if failed else 0


def _print_result(result, limit: int, counting: bool, out_format: str) -> None:
    from sudokit.formats import format_grid

    if counting:
        click.echo(describe_result(result, limit, True))
    elif result.solution is not None:
        click.echo(format_grid(result.solution, "grid" if out_format == "pretty" else out_format))
    else:
        click.echo(describe_result(result, limit, False))


def show(arg: str) -> int:
    """``sudokit show`` for variant puzzles: the givens as a grid, then every rule in words."""
    from sudokit.formats import format_grid

    items, _ = load(arg)
    bad = 0
    for i, (_, item) in enumerate(items):
        if isinstance(item, SudokitError):
            click.echo(f"sudokit: error: {item}", err=True)
            bad += 1
            continue
        if i:
            click.echo()
        if item.title:
            click.echo(item.title + (f" by {item.author}" if item.author else ""))
        click.echo(format_grid(item.givens, "grid"))
        for line in item.describe():
            click.echo(f"- {line}")
    return 2 if bad else 0


def convert(
    arg: str,
    to_format: str,
    output: str | None,
    variant: str | None = None,
    input_format: str = "auto",
    strict: bool = False,
) -> int:
    """``sudokit convert`` for variant puzzles (and classic ones, read as ``convert`` reads them, to f-puzzles):
    one puzzle per line."""
    from sudokit.constraints import VariantPuzzle
    from sudokit.formats.fpuzzles import to_json, to_link

    if to_format not in VARIANT_FORMATS:
        raise SudokitError(
            f"--to {to_format} would drop the variant's constraints: use --to {' or '.join(VARIANT_FORMATS)}"
        )
    if is_variant_arg(arg):
        items, _ = load(arg)
    else:
        from sudokit.cli.inputs import open_puzzles

        items = []
        for entry in open_puzzles(arg, variant, input_format, strict).entries:
            if entry.grid is None:
                items.append((entry.line, SudokitError(str(entry.error))))
            else:
                items.append((entry.line, VariantPuzzle.from_grid(entry.grid)))
    lines = []
    bad = 0
    for _, item in items:
        if isinstance(item, SudokitError):
            click.echo(f"sudokit: error: {item}", err=True)
            bad += 1
            continue
        if to_format == "fpuzzles":
            lines.append(to_json(item))
        else:
            lines.append(to_link(item, "f-puzzles" if to_format == "fpuzzles-link" else "sudokupad"))
    text = "".join(line + "\n" for line in lines)
    if output:
        with open(output, "w", encoding="utf-8") as out:
            out.write(text)
    else:
        click.echo(text, nl=False)
    return 2 if bad else 0


# ---- hint, explain and rate: logic on variant puzzles ------------------------------------------------
#: Seconds the solver may spend proving a variant puzzle has a solution (one) before logic works on it.
PROOF_SECONDS = 20.0


def _one_puzzle(arg: str, command: str):
    """The single variant puzzle ``hint`` / ``explain`` work on (a file must hold exactly one)."""
    items, _ = load(arg)
    if len(items) != 1:
        raise SudokitError(f"{arg}: {command} takes one puzzle, this holds {len(items)}")
    item = items[0][1]
    if isinstance(item, SudokitError):
        raise item
    return item


def _why_not_proper(puzzle) -> str | None:
    """Why logic should not work on ``puzzle`` (no solution, several), or None: proper, or not proved within
    :data:`PROOF_SECONDS` (logic is sound either way; a note says so)."""
    from sudokit.constraints.solver import solve_variant

    result = solve_variant(puzzle, limit=2, time_limit=PROOF_SECONDS)
    if result.status == "no_solution" or result.status == "invalid":
        return "the puzzle has no solution"
    if result.status == "multiple":
        return "the puzzle has more than one solution"
    if result.status == "timeout":
        click.echo(f"sudokit: note: uniqueness not proved within {PROOF_SECONDS:g} s", err=True)
    return None


def hint(arg: str, level: int, as_json: bool, techniques) -> int:
    """``sudokit hint`` on a variant puzzle; returns the exit status (as for classic puzzles)."""
    import json

    from sudokit.cli.logic_input import COMPLETE, STUCK
    from sudokit.logic import hint as next_hint

    puzzle = _one_puzzle(arg, "hint")
    if puzzle.givens.is_complete:
        click.echo(COMPLETE)
        return 0
    why = _why_not_proper(puzzle)
    if why == "the puzzle has no solution":
        click.echo(f"sudokit: {why}", err=True)
        return 1
    if why:
        click.echo(f"sudokit: note: {why}; the steps are sound but may not lead to one solution", err=True)
    step = next_hint(puzzle, level=level, techniques=techniques)
    if step is None:
        click.echo(STUCK)
        return 1
    click.echo(json.dumps(step.to_dict(), indent=1) if as_json else step.explanation)
    return 0


def explain(arg: str, as_json: bool, hard_only: bool, techniques, singles: set[str]) -> int:
    """``sudokit explain`` on a variant puzzle; returns the exit status (as for classic puzzles)."""
    import json

    from sudokit.cli.logic_input import COMPLETE, STUCK
    from sudokit.formats import format_grid
    from sudokit.logic import explain as solve_by_logic
    from sudokit.logic.rating import hodoku_level, se_parts
    from sudokit.words import plural

    puzzle = _one_puzzle(arg, "explain")
    if puzzle.givens.is_complete and not as_json:
        click.echo(COMPLETE)
        return 0
    why = _why_not_proper(puzzle)
    if why == "the puzzle has no solution":
        click.echo(f"sudokit: {why}", err=True)
        return 1
    if why:
        click.echo(f"sudokit: note: {why}; the steps are sound but may not lead to one solution", err=True)
    path = solve_by_logic(puzzle, techniques=techniques)
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
        return 0 if path.solved else 1
    width = len(str(len(path.steps)))
    for i, step in enumerate(path.steps, 1):
        if hard_only and step.technique in singles:
            continue
        click.echo(f"{i:>{width}}. [{step.rating:.1f}] {step.explanation}")
    steps = plural(len(path.steps), "step")
    if path.solved:
        click.echo(f"Solved by logic in {steps}: SE {er:.1f}/{ep:.1f}/{ed:.1f}, {level} ({score})")
        return 0
    click.echo(f"{STUCK} After {steps}, the grid is:")
    assert path.grid is not None  # explain() always records the grid it reached
    click.echo(format_grid(path.grid, "line"))
    return 1


def rate(arg: str, as_json: bool, techniques) -> int:
    """``sudokit rate`` on variant puzzles (one, or a file of them): the rating of each proper one; a puzzle
    without exactly one solution is not rated (exit 1), an unreadable line is exit 2."""
    import json

    from sudokit.logic.rating import rate as rate_one

    items, single = load(arg)
    bad = not_rated = 0
    for line, item in items:
        if isinstance(item, SudokitError):
            click.echo(f"sudokit: error: {item}", err=True)
            bad += 1
            continue
        why = _why_not_proper(item)
        if why is None and not any(item.givens.values) and not item.constraints:
            why = "the grid is empty: there is nothing to reason from"
        if why is not None:
            not_rated += 1
            if as_json:
                click.echo(json.dumps({"line": line, "error": why}))
            elif single:
                click.echo(f"sudokit: not rated: {why}", err=True)
            else:
                click.echo(f"{line}: not rated: {why}")
            continue
        r = rate_one(item, extras=False, techniques=techniques)
        if as_json:
            click.echo(json.dumps({"line": line, **r.to_dict()}))
        elif single:
            click.echo(f"SE rating (ER/EP/ED): {r.se}" + ("" if r.solved else "  (not solved by these techniques)"))
            click.echo(f"HoDoKu level: {r.level} (score {r.score})")
            click.echo(f"hardest step: {r.hardest}")
            click.echo(f"steps: {r.steps}")
            click.echo(f"techniques: {r.technique_set}; sudokit {r.version}")
        else:
            click.echo(f"{line}: {r.se}  {r.level} ({r.score})  {r.hardest}")
    if bad:
        return 2
    return 1 if not_rated else 0
