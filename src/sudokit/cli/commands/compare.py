"""``sudokit compare``: every method (and the fast engine) on a puzzle set, in one table."""

from __future__ import annotations

import click

from sudokit.cli.inputs import POSITIVE_INT, SECONDS, input_format_option, open_puzzles, variant_option
from sudokit.cli.report import report_bad_entry


@click.command()
@click.argument("puzzles")
@click.option(
    "--methods", "-m", "names", default=None, metavar="A,B", help="Methods to run, comma-separated (default: all)."
)
@click.option("--no-engine", is_flag=True, help="Leave out the fast engine.")
@click.option("--limit", type=POSITIVE_INT, default=2, show_default=True, help="Solutions to look for.")
@click.option("--time-limit", type=SECONDS, default=10.0, show_default=True, metavar="SECONDS", help="Per puzzle.")
@click.option("--node-limit", type=POSITIVE_INT, default=None, metavar="N", help="Search nodes per puzzle.")
@click.option("--max", "max_puzzles", type=POSITIVE_INT, default=None, metavar="N", help="First N puzzles.")
@variant_option
@input_format_option
def command(
    puzzles: str,
    names: str | None,
    no_engine: bool,
    limit: int,
    time_limit: float,
    node_limit: int | None,
    max_puzzles: int | None,
    variant: str | None,
    input_format: str,
) -> None:
    """Solve every puzzle of PUZZLES with each method and the engine; print solved, time, nodes, backtracks.

    Answers are checked against the file's solutions and solution counts when it has them (column "wrong").
    """
    from sudokit.methods.compare import compare, format_table, solvers

    chosen = solvers([n.strip() for n in names.split(",") if n.strip()] if names else None, engine=not no_engine)
    source = open_puzzles(puzzles, variant, input_format)
    bad = 0
    items = []
    for entry in source.entries:
        if entry.grid is None:
            bad += report_bad_entry(entry)
            continue
        items.append((entry.grid, entry.count, entry.solution))
        if max_puzzles is not None and len(items) >= max_puzzles:
            break
    if not items:
        raise SystemExit(2)
    rows = compare(items, chosen, limit=limit, time_limit=time_limit, node_limit=node_limit)
    click.echo(format_table(rows))
    if bad:
        raise SystemExit(2)
