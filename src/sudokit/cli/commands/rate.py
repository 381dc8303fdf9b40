"""``sudokit rate``: SE-style rating, HoDoKu-style level and score, Norvig's level and engine guesses."""

from __future__ import annotations

import json
import sys
from collections import Counter

import click

from sudokit.cli.inputs import input_format_option, open_puzzles, variant_option
from sudokit.cli.logic_input import start_of, why_not_rated
from sudokit.cli.report import BadEntries
from sudokit.cli.techniques import technique_options
from sudokit.errors import SudokitError
from sudokit.words import plural

_BANDS = [
    (1.5, "< 1.5"),
    (2.5, "1.5-2.4"),
    (4.0, "2.5-3.9"),
    (5.0, "4.0-4.9"),
    (6.5, "5.0-6.4"),
    (7.5, "6.5-7.4"),
    (9.0, "7.5-8.9"),
    (20.0, "9.0+"),
]
#: The band of puzzles the techniques do not finish (SE 20.0).
_BEYOND = "beyond"


def _band(er: float, solved: bool = True) -> str:
    """The SE band of a rating; a puzzle logic did not finish is in its own band, whatever its number."""
    if not solved:
        return _BEYOND
    return next((name for top, name in _BANDS if er < top), _BANDS[-1][1])


@click.command()
@click.argument("puzzle")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per puzzle.")
@click.option("--fast", is_flag=True, help="Skip Norvig's level and the engine's guess count.")
@click.option("--no-progress", is_flag=True, help="No progress bar for files.")
@click.option(
    "--format",
    "out_format",
    type=click.Choice(["text", "se"]),
    default="text",
    show_default=True,
    help="se: one line per puzzle in the rated lists' form, '<puzzle> ED=ER/EP/ED'.",
)
@variant_option
@input_format_option
@technique_options
def command(
    puzzle: str, as_json: bool, fast: bool, no_progress: bool, out_format: str, variant, input_format, techniques
) -> None:
    """Rate PUZZLE (a string, a file of puzzles, or -) by the techniques its logical solution needs.

    Only proper puzzles (exactly one solution) are rated; any other (an empty grid, none, several) is reported
    as not rated, and the batch goes on (exit status 1). A puzzle the techniques do not finish is rated 20.0,
    "beyond these techniques". Pencil marks (a pencilmark line, a candidate grid) are rated from the marks.
    Every output names the technique set and the sudokit version (a '#' line first with --format se)."""
    from sudokit.cli import variants

    if variants.is_variant_arg(puzzle):  # an f-puzzles / SudokuPad link or JSON: logic with its constraints
        if out_format == "se":
            raise SudokitError("--format se: a variant puzzle has no one-line form there; use --json")
        raise SystemExit(variants.rate(puzzle, as_json, techniques))
    from sudokit import __version__
    from sudokit.logic.rating import rate

    se_lines = out_format == "se"
    if se_lines and as_json:
        raise SudokitError("--json and --format se: choose one")
    if se_lines:
        fast = True
    source = open_puzzles(puzzle, variant, input_format)
    levels: Counter[str] = Counter()
    bands: Counter[str] = Counter()
    skipped = BadEntries()
    entries = skipped.usable(source.entries)
    bar = None
    if se_lines:
        click.echo(f"# sudokit {__version__} rate, techniques: {techniques.spec}")
    if not source.single and not as_json and not se_lines and not no_progress and puzzle != "-" and sys.stderr.isatty():
        bar = click.progressbar(entries, label="rating", file=sys.stderr)
        entries = bar.__enter__()
    not_rated = 0
    try:
        for entry in entries:
            start = start_of(entry)
            assert entry.grid is not None  # usable entries were read
            why = why_not_rated(start)
            if why is not None:
                not_rated += 1
                if as_json:
                    click.echo(json.dumps({"line": entry.line, "puzzle": entry.grid.to_line(), "error": why}))
                elif se_lines:
                    click.echo(f"{entry.grid.to_line()} not rated: {why}")
                elif source.single:
                    click.echo(f"sudokit: not rated: {why}", err=True)
                else:
                    click.echo(f"{entry.line}: not rated: {why}")
                continue
            r = rate(start, extras=not fast, techniques=techniques)
            levels[r.level] += 1
            bands[_band(r.er, r.solved)] += 1
            if se_lines:
                click.echo(f"{entry.grid.to_line()} ED={r.se}")
            elif as_json:
                click.echo(json.dumps({"line": entry.line, "puzzle": entry.grid.to_line(), **r.to_dict()}))
            elif source.single:
                _show(r)
            else:
                extra = "" if fast else f"  norvig {_fmt(r.norvig)}  guesses {_fmt(r.guesses)}"
                click.echo(f"{entry.line}: {r.se}  {r.level} ({r.score})  {r.hardest}{extra}")
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    if not source.single and not as_json and not se_lines and levels.total():
        _summary(levels, bands)
        click.echo(f"techniques: {techniques.spec}; sudokit {__version__}")
    if skipped.count:
        raise SystemExit(2)
    if not_rated:
        raise SystemExit(1)


def _fmt(x) -> str:
    return "-" if x is None else str(x)


def _show(r) -> None:
    click.echo(f"SE rating (ER/EP/ED): {r.se}" + ("" if r.solved else "  (not solved by these techniques)"))
    click.echo(f"HoDoKu level: {r.level} (score {r.score})")
    click.echo(f"hardest step: {r.hardest}")
    click.echo(f"steps: {r.steps}")
    click.echo(f"Norvig level: 10^{_fmt(r.norvig)}")
    click.echo(f"engine guesses: {_fmt(r.guesses)}")
    click.echo(f"techniques: {r.technique_set}; sudokit {r.version}")


def _summary(levels: Counter, bands: Counter) -> None:
    total = sum(levels.values())
    width = 40
    click.echo(f"\n{plural(total, 'puzzle')}")
    from sudokit.logic.registry import LEVELS

    for name in LEVELS:
        n = levels.get(name, 0)
        click.echo(f"  {name:8s} {n:6d}  {'#' * round(width * n / total)}")
    click.echo("SE rating:")
    for name in [name for _, name in _BANDS] + [_BEYOND]:
        n = bands.get(name, 0)
        if n:
            click.echo(f"  {name:8s} {n:6d}  {'#' * round(width * n / total)}")
