"""``sudokit rules``: which of Sudoku's 27 big constraints are redundant (Demoen & Garcia de la Banda).

A MODEL names the big constraints kept: ``all``; ``missing:R1,C4`` or ``-R1,C4`` (write ``--``
before an argument that starts with ``-``); ``R1,R2,...`` (the constraints present); or a named
model: ``21`` / ``thm4.5`` (Theorem 4.5: the 21 units ``sudokit check --units 21`` uses).
"""

from __future__ import annotations

import click

BOARDS = {"9x9": (3, "standard"), "4x4": (2, "standard"), "diagonal": (3, "diagonal"), "diagonal-4x4": (2, "diagonal")}

board_option = click.option(
    "--board",
    "board_name",
    type=click.Choice(list(BOARDS)),
    default="9x9",
    show_default=True,
    help="The board whose big constraints the model picks from.",
)


def _board(name: str):
    from sudokit.rules.model import board

    return board(*BOARDS[name])


@click.group()
def command() -> None:
    """Redundant Sudoku rules: prove, refute, classify and draw models (sets of big constraints)."""


@command.command()
@click.option("--brief", is_flag=True, help="Only the table, not the list of classes and lemmas.")
@click.option("--no-minimality", is_flag=True, help="Skip the 648 SAT calls of the local-minimality check.")
def reproduce(brief: bool, no_minimality: bool) -> None:
    """Recompute the paper's numbers and print them next to the paper's values."""
    from sudokit.rules.reproduce import format_report
    from sudokit.rules.reproduce import reproduce as run

    report = run(lambda msg: click.echo(f"... {msg}", err=True), minimality=not no_minimality)
    click.echo(format_report(report, details=not brief))


@command.command()
@click.argument("model")
@board_option
@click.option("--confirm", is_flag=True, help="Confirm an 'entailed' verdict with a second SAT encoding and solver.")
def check(model: str, board_name: str, confirm: bool) -> None:
    """Is MODEL Sudoku? Prints a lemma proof, or a counterexample grid. Exit 1 when it is not Sudoku."""
    from sudokit.formats import display
    from sudokit.rules.lemmas import closure
    from sudokit.rules.sat import CountingOracle, Oracle

    b = _board(board_name)
    m = b.parse(model)
    click.echo(f"model {b.describe(m)}: {bin(m).count('1')} of {b.n_constraints} big constraints, "
               f"{len(b.small_constraints(m))} small constraints")  # fmt: skip
    proof = closure(b, m)
    if proof.complete:
        click.echo("Sudoku, by the chute lemmas:")
        click.echo(proof.proof())
        if confirm:
            click.echo(f"second encoding agrees: {CountingOracle(b).entails(m)}")
        return
    oracle = Oracle(b)
    verdict = oracle.entails(proof.closed)
    if verdict.entailed:
        click.echo(f"Sudoku, by SAT (the lemmas get stuck at {b.describe(proof.closed)})")
        if confirm:
            click.echo(f"second encoding agrees: {CountingOracle(b).entails(m)}")
        return
    broken = ", ".join(b.names[u] for u in verdict.broken)
    click.echo(f"not Sudoku: this grid satisfies every constraint of the model but breaks {broken}")
    grid = verdict.counterexample
    assert grid is not None  # a model that is not Sudoku comes with a grid that shows it
    click.echo(display(grid))
    click.echo(grid.to_line())
    raise SystemExit(1)


@command.command()
@click.argument("model")
@board_option
def prove(model: str, board_name: str) -> None:
    """Print the chain of chute-lemma rewrites from MODEL (as in the paper's Theorem 4.4)."""
    from sudokit.rules.lemmas import closure

    b = _board(board_name)
    click.echo(closure(b, b.parse(model)).proof())


@command.command()
@click.argument("n", type=int)
@board_option
@click.option(
    "--group",
    "group_name",
    type=click.Choice(["full", "no-transpose", "chutes", "diagonal"]),
    default=None,
    help="Symmetry group (default: full, or diagonal on diagonal boards).",
)
@click.option("--list", "list_classes", is_flag=True, help="List every class with its verdict.")
def classify(n: int, board_name: str, group_name: str | None, list_classes: bool) -> None:
    """Classify Missing(N) up to symmetry: which models without N big constraints are Sudoku."""
    from sudokit.errors import SudokitError
    from sudokit.rules.classify import Solver, classify_up_to
    from sudokit.rules.symmetry import group

    b = _board(board_name)
    if not 0 <= n <= b.n_constraints:
        raise SudokitError(f"N must be between 0 and {b.n_constraints}")
    grp = group(b, group_name or ("diagonal" if "diagonal" in board_name else "full"))
    solver = Solver(b)
    levels = classify_up_to(solver, grp, n) if n else {}
    if not n:
        click.echo("Missing(0) is Sudoku itself")
        return
    table = levels[n]
    click.echo(
        f"Missing({n}) on {board_name}: {table.total:,} models in {len(table.classes)} classes "
        f"(group '{grp.name}'); Sudoku: {len(table.sudoku)} classes, {table.sudoku_models:,} models; "
        f"SAT calls {solver.sat_calls()}"
    )
    if list_classes:
        for c in table.classes:
            verdict = "Sudoku" if c.sudoku else "not Sudoku"
            click.echo(f"  {b.describe(b.full & ~c.missing):<32} {verdict:<11} by {c.how:<15} {c.size:>8,} models")


@command.command()
@click.argument("model")
@board_option
@click.option("--minimality", is_flag=True, help="Also check that each small constraint is needed (SAT per pair).")
def small(model: str, board_name: str, minimality: bool) -> None:
    """Count the small (cell-pair !=) constraints of MODEL, and optionally test local minimality."""
    from sudokit.rules.small import local_minimality

    b = _board(board_name)
    m = b.parse(model)
    pairs = b.small_constraints(m)
    click.echo(f"model {b.describe(m)}: {len(pairs)} small constraints (all units: {len(b.small_constraints(b.full))})")
    if minimality:
        removals = local_minimality(b.geometry, pairs)
        needed = sum(r.grid is not None for r in removals)
        click.echo(f"{needed} of {len(pairs)} small constraints are needed: dropping one admits a grid where "
                   "its two cells are equal")  # fmt: skip
        for r in removals:
            if r.grid is None:
                a, c = r.pair
                click.echo(f"  redundant: {b.geometry.label(a)} != {b.geometry.label(c)}")


@command.command()
@click.argument("models", nargs=-1, required=True)
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="PNG, SVG or PDF file.")
@board_option
@click.option("--proof", is_flag=True, help="Draw every step of MODEL's lemma proof instead.")
def picture(models: tuple[str, ...], output: str, board_name: str, proof: bool) -> None:
    """Draw MODELS the paper's way (missing constraints shaded) into one picture."""
    from sudokit.rules.lemmas import closure
    from sudokit.rules.picture import draw

    b = _board(board_name)
    masks = [b.parse(m) for m in models]
    if proof:
        steps = closure(b, masks[0]).steps
        masks = [masks[0]] + [s.model_after for s in steps]
    draw(b, masks, path=output)
    click.echo(f"wrote {output} ({len(masks)} model{'s' if len(masks) > 1 else ''})")


@command.command()
@click.option("--diagonal", is_flag=True, help="Also classify diagonal Sudoku (29 constraints; about a minute).")
@click.option(
    "--top",
    type=click.IntRange(1, 29),
    default=8,
    show_default=True,
    help="Highest Missing(n) tried on diagonal boards.",
)
def beyond(diagonal: bool, top: int) -> None:
    """Beyond the paper: 4x4 Missing(n) for every n, and the Missing(2k+1) suggestion for k = 2, 3."""
    from sudokit.rules.beyond import format_beyond, run_beyond

    click.echo(
        format_beyond(
            run_beyond(diagonal=diagonal, diagonal_top=top, progress=lambda m: click.echo(f"... {m}", err=True))
        )
    )
