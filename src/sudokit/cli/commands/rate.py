"""``sudokit rate``: SE-style rating, HoDoKu-style level and score, Norvig's level and engine guesses."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import click

from sudokit.cli.inputs import cluster_option, input_format_option, jobs_option, open_puzzles, variant_option
from sudokit.cli.logic_input import start_of, why_not_rated
from sudokit.cli.report import BadEntries
from sudokit.cli.techniques import technique_options
from sudokit.errors import SudokitError
from sudokit.jobs.api import RATE_WINDOW, rate_chunk, warm_rating
from sudokit.jobs.batch import Answer, Batch, chunked, interrupted, lines_of, source_of
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
@jobs_option()
@cluster_option
def command(
    puzzle: str,
    as_json: bool,
    fast: bool,
    no_progress: bool,
    out_format: str,
    variant,
    input_format,
    techniques,
    jobs: int,
    cluster: str | None,
) -> None:
    """Rate PUZZLE (a string, a file of puzzles, or -) by the techniques its logical solution needs.

    Only proper puzzles (exactly one solution) are rated; any other (an empty grid, none, several) is reported
    as not rated, and the batch goes on (exit status 1). A puzzle the techniques do not finish is rated 20.0,
    "beyond these techniques". Pencil marks (a pencilmark line, a candidate grid) are rated from the marks.
    Every output names the technique set and the sudokit version (a '#' line first with --format se)."""
    import functools

    from sudokit.cli import variants

    if variants.is_variant_arg(puzzle):  # an f-puzzles / SudokuPad link or JSON: logic with its constraints
        if out_format == "se":
            raise SudokitError("--format se: a variant puzzle has no one-line form there; use --json")
        raise SystemExit(variants.rate(puzzle, as_json, techniques))
    from sudokit import __version__
    from sudokit.jobs.runner import open_runner

    se_lines = out_format == "se"
    if se_lines and as_json:
        raise SudokitError("--json and --format se: choose one")
    if se_lines:
        fast = True
    source = open_puzzles(puzzle, variant, input_format)
    if se_lines:
        click.echo(f"# sudokit {__version__} rate, techniques: {techniques.spec}")
    if source.single:
        _rate_single(source, fast, as_json, se_lines, techniques)
        return
    layout = "se" if se_lines else "json" if as_json else "text"
    tally = _Tally()
    batch = Batch(tally)
    show = False if no_progress or as_json or se_lines or puzzle == "-" else None
    with open_runner(jobs, cluster, warm_rating) as runner:
        stopped = batch.run(
            runner,
            functools.partial(_rate_chunk, _Settings(layout, fast, techniques)),
            chunked(source.entries, rate_chunk(cluster)),
            functools.partial(_lost, layout),
            label="rating",
            show_progress=show,
            window=RATE_WINDOW * runner.workers,
        )
    if layout == "text" and tally.levels.total():
        _summary(tally.levels, tally.bands)
        click.echo(f"techniques: {techniques.spec}; sudokit {__version__}")
    if stopped:
        interrupted(batch.puzzles)
    if tally.bad:
        raise SystemExit(2)
    if tally.not_rated:
        raise SystemExit(1)


@dataclass
class _Tally:
    """A rating batch's counts: HoDoKu levels, SE bands, puzzles not rated, bad entries."""

    levels: Counter = field(default_factory=Counter)
    bands: Counter = field(default_factory=Counter)
    not_rated: int = 0
    bad: int = 0

    def merge(self, other: _Tally) -> None:
        self.levels.update(other.levels)
        self.bands.update(other.bands)
        self.not_rated += other.not_rated
        self.bad += other.bad


@dataclass(frozen=True)
class _Settings:
    """How a batch rates (it goes to the workers with each chunk): ``layout`` text, json or se."""

    layout: str
    fast: bool
    techniques: Any


def _rate_chunk(settings: _Settings, entries: list) -> Answer:
    """The output lines of a few puzzles rated one by one (:func:`~sudokit.jobs.api.rate_one`, as
    ``rate_many`` rates them), their bad entries reported."""
    from sudokit.jobs.api import NotRated, rate_one

    tally = _Tally()
    messages: list[str] = []
    skipped = BadEntries(messages)
    lines = []
    for entry in skipped.usable(entries):
        assert entry.grid is not None  # usable entries were read
        r = rate_one(start_of(entry), extras=not settings.fast, techniques=settings.techniques)
        if isinstance(r, NotRated):
            tally.not_rated += 1
            if settings.layout == "json":
                lines.append(json.dumps({"line": entry.line, "puzzle": entry.grid.to_line(), "error": r.why}))
            elif settings.layout == "se":
                lines.append(f"{entry.grid.to_line()} not rated: {r.why}")
            else:
                lines.append(f"{entry.line}: not rated: {r.why}")
            continue
        tally.levels[r.level] += 1
        tally.bands[_band(r.er, r.solved)] += 1
        if settings.layout == "se":
            lines.append(f"{entry.grid.to_line()} ED={r.se}")
        elif settings.layout == "json":
            lines.append(json.dumps({"line": entry.line, "puzzle": entry.grid.to_line(), **r.to_dict()}))
        else:
            extra = "" if settings.fast else f"  norvig {_fmt(r.norvig)}  guesses {_fmt(r.guesses)}"
            lines.append(f"{entry.line}: {r.se}  {r.level} ({r.score})  {r.hardest}{extra}")
    tally.bad = skipped.count
    return Answer("".join(t + "\n" for t in lines).encode("utf-8"), messages, tally, len(entries))


def _lost(layout: str, entries: list, why: str) -> Answer:
    """A chunk whose task failed twice: each puzzle not rated, its lines named on stderr."""
    lines = []
    for entry in entries:
        text = entry.grid.to_line() if entry.grid is not None else ""
        if layout == "json":
            lines.append(json.dumps({"line": entry.line, "puzzle": text, "error": f"failed: {why}"}))
        elif layout == "se":
            lines.append(f"{text} not rated: failed: {why}")
        else:
            lines.append(f"{entry.line}: not rated: failed: {why}")
    message = f"sudokit: error: {source_of(entries)}: {lines_of(entries)}: not rated: {why}"
    tally = _Tally(not_rated=len(entries))
    return Answer("".join(t + "\n" for t in lines).encode("utf-8"), [message], tally, len(entries))


def _rate_single(source, fast: bool, as_json: bool, se_lines: bool, techniques) -> None:
    """One puzzle typed on the command line: the full rating (or its one line)."""
    from sudokit.logic.rating import rate

    skipped = BadEntries()
    for entry in skipped.usable(source.entries):
        start = start_of(entry)
        assert entry.grid is not None  # usable entries were read
        why = why_not_rated(start)
        if why is not None:
            if as_json:
                click.echo(json.dumps({"line": entry.line, "puzzle": entry.grid.to_line(), "error": why}))
            elif se_lines:
                click.echo(f"{entry.grid.to_line()} not rated: {why}")
            else:
                click.echo(f"sudokit: not rated: {why}", err=True)
            raise SystemExit(1)
        r = rate(start, extras=not fast, techniques=techniques)
        if se_lines:
            click.echo(f"{entry.grid.to_line()} ED={r.se}")
        elif as_json:
            click.echo(json.dumps({"line": entry.line, "puzzle": entry.grid.to_line(), **r.to_dict()}))
        else:
            _show(r)
    if skipped.count:
        raise SystemExit(2)


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
