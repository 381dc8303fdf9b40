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
