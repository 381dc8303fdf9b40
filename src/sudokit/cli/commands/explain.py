"""``sudokit explain``: the whole logical solving path, easiest technique first, one line per step."""

from __future__ import annotations

import json

import click

from sudokit.cli.inputs import cluster_option, input_format_option, jobs_option, open_puzzles, variant_option
from sudokit.cli.logic_input import COMPLETE, STUCK, checked_start, is_complete, logic_start, read_start
from sudokit.cli.techniques import technique_options
from sudokit.jobs.batch import Answer, Batch, Counts, chunked, interrupted, lines_of, source_of
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
@jobs_option()
@cluster_option
def command(
    puzzle: str,
    as_json: bool,
    no_uniqueness: bool,
    hard_only: bool,
    variant,
    input_format,
    techniques,
    jobs: int,
    cluster: str | None,
) -> None:
    """Explain how to solve PUZZLE (a string, a one-puzzle file, or -) step by step.

    Pencil marks (a pencilmark line, a candidate grid) are the state the path starts from. Exit status: 0 when
    logic solves the grid (or it is complete), 1 when logic is stuck or the grid is empty or has no solution, 2
    for bad input. With --json, a file of several puzzles is explained puzzle by puzzle: one JSON object a
    line, with its line number and puzzle (the batch rules of the README)."""
    from sudokit.cli import variants

    if variants.is_variant_arg(puzzle):  # an f-puzzles / SudokuPad link or JSON: logic with its constraints
        raise SystemExit(variants.explain(puzzle, as_json, hard_only, techniques, SINGLES))
    from sudokit.formats import format_grid
    from sudokit.logic import explain
    from sudokit.logic.rating import hodoku_level, se_parts

    if as_json:
        first, every = _entries(puzzle, variant, input_format)
        if every is not None:
            _explain_file(every, not no_uniqueness, techniques, jobs, cluster)
            return
        start = checked_start(first)
    else:
        start = read_start(puzzle, variant, input_format)
    if is_complete(start) and not as_json:
        click.echo(COMPLETE)
        return
    uniqueness, several = logic_start(start, not no_uniqueness)
    path = explain(start, uniqueness=uniqueness, techniques=techniques, several_solutions=several)
    if as_json:
        click.echo(json.dumps(_path_json(path, techniques), indent=1))
        if not path.solved:
            raise SystemExit(1)
        return
    er, ep, ed = se_parts(path)
    score, level = hodoku_level(path)
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


#: Puzzles per chunk: few (a logical path can take seconds).
CHUNK = 2
#: Chunks in flight per worker: enough that a slow path at the head of the window does not idle the others.
WINDOW = 16


def _path_json(path, techniques) -> dict:
    """A logical path as ``explain --json`` prints it."""
    from sudokit.logic.rating import hodoku_level, se_parts

    er, _, _ = se_parts(path)
    score, level = hodoku_level(path)
    return {
        "solved": path.solved,
        "rating": er,
        "level": level,
        "score": score,
        "technique_set": techniques.spec,
        "grid": path.grid.to_line() if path.grid else None,
        "steps": [s.to_dict() for s in path.steps],
    }


def _entries(arg: str, variant, input_format):
    """The first entry of ``arg``, and all its entries (read as the batch goes) when it holds several, else
    None: one puzzle is explained as before, several one JSON line each."""
    import itertools

    source = open_puzzles(arg, variant, input_format)
    entries = iter(source.entries)
    first = list(itertools.islice(entries, 2))  # (an input without a puzzle is an error of the reader)
    if len(first) < 2 or source.single:
        return first[0], None
    return first[0], itertools.chain(first, entries)


def _explain_file(entries, uniqueness: bool, techniques, jobs: int, cluster: str | None) -> None:
    """``explain --json`` on a file: each puzzle's path, one JSON object a line, in input order."""
    import functools

    from sudokit.jobs.runner import open_runner

    batch = Batch(Counts())
    with open_runner(jobs, cluster) as runner:
        stopped = batch.run(
            runner,
            functools.partial(_explain_chunk, uniqueness, techniques),
            chunked(entries, CHUNK),
            _lost,
            label="explaining",
            window=WINDOW * runner.workers,
        )
    if stopped:
        interrupted(batch.puzzles)
    if batch.tally["bad"]:
        raise SystemExit(2)
    if batch.tally["unsolved"]:
        raise SystemExit(1)


def _explain_chunk(uniqueness: bool, techniques, entries: list) -> Answer:
    """A few puzzles' paths as JSON lines: ``error`` for a grid logic cannot start from (empty, no solution),
    ``note`` when several solutions leave the uniqueness techniques out; bad entries reported."""
    from sudokit.cli.logic_input import EMPTY, placed, start_of
    from sudokit.cli.report import BadEntries
    from sudokit.grid import Grid
    from sudokit.logic import explain
    from sudokit.logic.rating import check_proper
    from sudokit.result import Status

    counts = Counts()
    messages: list[str] = []
    skipped = BadEntries(messages)
    lines = []
    for entry in skipped.usable(entries):
        start = start_of(entry)
        head = {"line": entry.line, "puzzle": placed(start).to_line()}
        if not placed(start).givens and isinstance(start, Grid):
            counts["unsolved"] += 1
            lines.append(json.dumps({**head, "error": EMPTY}))
            continue
        check = check_proper(start)
        if check.status is Status.NO_SOLUTION:
            counts["unsolved"] += 1
            lines.append(json.dumps({**head, "error": check.why}))
            continue
        note = {} if check.proper or not uniqueness else {"note": f"{check.why}; uniqueness techniques left out"}
        path = explain(start, uniqueness=uniqueness and check.proper, techniques=techniques)
        counts["unsolved"] += not path.solved
        lines.append(json.dumps({**head, **note, **_path_json(path, techniques)}))
    counts["bad"] = skipped.count
    return Answer("".join(t + "\n" for t in lines).encode("utf-8"), messages, counts, len(entries))


def _lost(entries: list, why: str) -> Answer:
    """A chunk whose task failed twice: an ``error`` line for each puzzle, its lines named on stderr."""
    lines = [
        json.dumps({"line": e.line, "puzzle": e.grid.to_line() if e.grid else "", "error": f"failed: {why}"})
        for e in entries
    ]
    message = f"sudokit: error: {source_of(entries)}: {lines_of(entries)}: not explained: {why}"
    return Answer(
        "".join(t + "\n" for t in lines).encode("utf-8"), [message], Counts(unsolved=len(entries)), len(entries)
    )
