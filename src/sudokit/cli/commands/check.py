"""``sudokit check``: is a grid a valid complete solution, is a puzzle consistent?

Exit status: 0 when every grid checks, 1 when one does not, 2 for unreadable input.
"""

from __future__ import annotations

import click

from sudokit.cli.inputs import input_format_option, open_puzzles, strict_option, variant_option
from sudokit.cli.report import report_bad_entry
from sudokit.grid import Grid, is_solution
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
def command(grid: str, units: str, quiet: bool, variant: str | None, input_format: str, strict: bool) -> None:
    """Check GRID (a string, a file, or -): a complete grid must obey every unit; a puzzle must have no clash."""
    unit_names = None
    if units == "21":
        from sudokit.rules import TWENTY_ONE

        unit_names = tuple(TWENTY_ONE)
    source = open_puzzles(grid, variant, input_format, strict)
    failed = bad = 0
    for entry in source.entries:
        if not entry.ok:
            bad += report_bad_entry(entry)
            continue
        if unit_names is not None and (entry.grid.geometry.size != 9 or not entry.grid.geometry.is_standard):
            bad += report_bad_entry(entry, "--units 21 applies to standard 9x9 grids")
            continue
        ok, sentence = verdict(entry.grid, unit_names)
        failed += not ok
        if not quiet:
            where = "" if source.single else f"{entry.source}:{entry.line}: "
            click.echo(f"{where}{'ok' if ok else 'FAIL'}: {sentence}")
    if bad:
        raise SystemExit(2)
    if failed:
        raise SystemExit(1)
