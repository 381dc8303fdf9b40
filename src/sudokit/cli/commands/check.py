"""``sudokit check``: is a grid a valid complete solution, is a puzzle consistent?

Exit status (the rule of every batch command): 0 when every grid checks, 1 when one does not, 2 when the input
(or a line of it) could not be read.
"""

from __future__ import annotations

import click

from sudokit.cli.inputs import (
    cluster_option,
    input_format_option,
    jobs_option,
    open_puzzles,
    strict_option,
    variant_option,
)
from sudokit.cli.report import bad_entry_message
from sudokit.grid import Grid, is_solution
from sudokit.jobs.batch import Answer, Batch, Counts, interrupted, lines_of
from sudokit.words import plural


def verdict(grid: Grid, unit_names: tuple[str, ...] | None = None) -> tuple[bool, str]:
    """(ok, sentence) for one grid: complete grids must satisfy every unit, puzzles must have no clash."""
    if grid.is_complete:
        if unit_names is not None:
            from sudokit.rules import check_with_units

            ok = check_with_units(grid, unit_names)
            used = f"checked with {len(unit_names)} units ({', '.join(unit_names)})"
            return ok, (
                f"valid complete grid, {used}" if ok else f"not a valid grid: {_repeat(grid, unit_names)} ({used})"
            )
        if is_solution(grid):
            return True, "valid complete grid"
        clash = grid.conflicts()
        return False, "not a valid grid: " + clash[0].describe(grid.geometry)
    clash = grid.conflicts()
    if clash:
        return False, "inconsistent puzzle: " + "; ".join(c.describe(grid.geometry) for c in clash)
    empty = grid.geometry.n_cells - grid.givens
    return True, f"consistent puzzle ({plural(grid.givens, 'given')}, {plural(empty, 'empty cell')})"


def _repeat(grid: Grid, unit_names: tuple[str, ...]) -> str:
    """``digit 6 twice in column 4 (A4, G4), unit C4``: the first named unit that repeats a digit."""
    from sudokit.rules.model import board_of

    g, b = grid.geometry, board_of(grid.geometry)
    for name in unit_names:
        cells = b.cells(b.lookup(name))
        for d in g.digits:
            where = [c for c in cells if grid.values[c] == d]
            if len(where) > 1:
                unit = next(g.unit_names[u] for u, us in enumerate(g.units) if set(us) == set(cells))
                times = "twice" if len(where) == 2 else f"{len(where)} times"
                labels = ", ".join(g.label(c) for c in where)
                return f"digit {g.symbols[d - 1]} {times} in {unit} ({labels}), unit {name}"
    return "a unit repeats a digit"  # pragma: no cover - check_with_units found one


@click.command()
@click.argument("grid")
@click.option(
    "--units",
    type=click.Choice(["27", "21"]),
    default="27",
    show_default=True,
    help="Check a complete 9x9 grid with all 27 units or with a proven 21-unit subset (Demoen & Garcia de la Banda).",
)
@click.option("--quiet", "-q", is_flag=True, help="Print nothing; only the exit status tells.")
@variant_option
@input_format_option
@strict_option
@jobs_option()
@cluster_option
def command(
    grid: str,
    units: str,
    quiet: bool,
    variant: str | None,
    input_format: str,
    strict: bool,
    jobs: int,
    cluster: str | None,
) -> None:
    """Check GRID (a string, a file, or -): a complete grid must obey every unit; a puzzle must have no clash."""
    import functools

    from sudokit.jobs.runner import open_runner

    unit_names = None
    if units == "21":
        from sudokit.rules import TWENTY_ONE

        unit_names = tuple(TWENTY_ONE)
    source = open_puzzles(grid, variant, input_format, strict)
    batch = Batch(Counts())
    with open_runner(1 if source.single else jobs, cluster) as runner:
        stopped = batch.run(
            runner,
            functools.partial(_check_chunk, unit_names, source.single, quiet),
            source.blocks,
            functools.partial(_lost, quiet),
            label="checking",
        )
    if stopped:
        interrupted(batch.puzzles)
    if batch.tally["bad"]:
        raise SystemExit(2)
    if batch.tally["failed"]:
        raise SystemExit(1)


def _check_chunk(unit_names: tuple[str, ...] | None, single: bool, quiet: bool, block) -> Answer:
    """One block's verdict lines (none with ``quiet``), its bad entries' reports and its counts."""
    messages: list[str] = []
    lines, failed, bad = _checked_block(block, unit_names, single, messages)
    data = b"" if quiet or not lines else ("\n".join(lines) + "\n").encode("utf-8")
    return Answer(data, messages, Counts(failed=failed, bad=bad), len(block))


def _lost(quiet: bool, block, why: str) -> Answer:
    """A block whose task failed twice: each of its lines fails, named on stderr."""
    message = f"sudokit: error: {block.source}: {lines_of(block)}: not checked: {why}"
    lines = [f"{block.source}:{n}: FAIL: not checked ({why})" for n in block.lines.tolist()]
    data = b"" if quiet else ("\n".join(lines) + "\n").encode("utf-8")
    return Answer(data, [message], Counts(failed=len(block)), len(block))


def _checked_block(
    block, unit_names: tuple[str, ...] | None, single: bool, messages: list[str]
) -> tuple[list[str], int, int]:
    """The verdict lines of a block, how many grids failed and how many entries were unreadable. Rows without a
    clash are judged from the array with numpy; the others one by one (:func:`verdict` names the clash). Bad
    entries are reported in ``messages``."""
    from sudokit.cli.report import clashing_rows

    quick = block.usable.copy() if unit_names is None else block.usable & False
    rows = quick.nonzero()[0]
    quick[rows[clashing_rows(block.grids[rows], block.geometry)]] = False
    givens = (block.grids != 0).sum(axis=1).tolist()
    n_cells = block.geometry.n_cells
    numbers = block.lines.tolist()
    lines: list[str] = []
    failed = bad = 0
    for i, fast in enumerate(quick.tolist()):
        if fast:
            ok, g = True, givens[i]
            sentence = (
                "valid complete grid" if g == n_cells else f"consistent puzzle ({g} givens, {n_cells - g} empty cells)"
            )
        else:
            entry = block.entry(i)
            if not entry.ok:
                bad += 1
                messages.append(bad_entry_message(entry))
                continue
            geometry = entry.grid.geometry
            if unit_names is not None and (geometry.size != 9 or not geometry.is_standard):
                bad += 1
                messages.append(bad_entry_message(entry, "--units 21 applies to standard 9x9 grids"))
                continue
            ok, sentence = verdict(entry.grid, unit_names)
        failed += not ok
        where = "" if single else f"{block.source}:{numbers[i]}: "
        lines.append(f"{where}{'ok' if ok else 'FAIL'}: {sentence}")
    return lines, failed, bad
