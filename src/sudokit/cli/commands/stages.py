"""``sudokit stages``: original | after propagation | solution side by side, for one method, with its trace.

This is where a method's trace is written (``--trace FILE.json``), as the AC-3 seed's printout is shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from sudokit.cli.inputs import POSITIVE_INT, SECONDS, input_format_option, one_puzzle, variant_option

if TYPE_CHECKING:
    from sudokit.methods.stages import Stages


@click.command()
@click.argument("puzzle")
@click.option("--method", "-m", default="ac3", show_default=True, help="udacity, norvig or ac3.")
@click.option("--trace", "trace_path", default=None, metavar="FILE.json", help="Write the method's trace as JSON.")
@click.option("--no-candidates", is_flag=True, help="Show the propagated board without the candidates.")
@click.option("--limit", type=POSITIVE_INT, default=2, show_default=True, help="Solutions to look for.")
@click.option("--time-limit", type=SECONDS, default=30.0, show_default=True, metavar="SECONDS", help="Stop after this.")
@click.option("--node-limit", type=POSITIVE_INT, default=None, metavar="N", help="Stop after N search nodes.")
@variant_option
@input_format_option
def command(
    puzzle: str,
    method: str,
    trace_path: str | None,
    no_candidates: bool,
    limit: int,
    time_limit: float,
    node_limit: int | None,
    variant: str | None,
    input_format: str,
) -> None:
    """Solve PUZZLE with one method; print original | after propagation | solution and what the search did."""
    from sudokit.methods import get
    from sudokit.methods.stages import format_stages, stages
    from sudokit.methods.trace import write_trace

    get(method)  # an unknown name is a user error before any work
    grid = one_puzzle(puzzle, variant, input_format)
    st = stages(grid, method, limit=limit, time_limit=time_limit, node_limit=node_limit, trace=trace_path is not None)
    click.echo(format_stages(st, candidates=not no_candidates))
    click.echo()
    for line in summary(st):
        click.echo(line)
    if trace_path is not None:
        written = write_trace(st.result.trace, trace_path)
        if str(written) != "-":
            click.echo(f"wrote {written}: {len(st.result.trace.events)} events", err=True)


def summary(st: Stages) -> list[str]:
    """What the method did, in a few lines: status, search statistics and the method's own measures."""
    r = st.result
    s = r.stats
    lines = [
        f"{st.method}: {r.status}"
        + (f" (at least {r.count} solutions)" if r.status == "multiple" else "")
        + (f": {r.message}" if r.message else ""),
        f"nodes {s.nodes}, guesses {s.guesses}, backtracks {s.backtracks}, {1000 * s.seconds:.1f} ms",
    ]
    if st.method == "ac3":
        from sudokit.methods import ac3

        g = st.puzzle.geometry
        lines.append(f"constraints {len(ac3.constraints(g))} (x != y), directed arcs {len(ac3.arcs(g))}")
        lines.append(f"outcome: {ac3.outcome(r.status, s)}")
    if st.method == "norvig":
        from sudokit.methods.norvig import level

        lv = level(st.puzzle)
        lines.append(f"squares = {lv.squares}, level = 10^{lv.exponent}" if lv.product else "level: contradiction")
    return lines
