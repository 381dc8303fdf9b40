"""``sudokit cnf``: DIMACS CNF of a puzzle, or of the question "is this model Sudoku?"."""

from __future__ import annotations

import click


@click.command()
@click.argument("target")
@click.option(
    "--encoding",
    type=click.Choice(["minimal", "extended"]),
    default=None,
    help="minimal: cell at-least-one + unit at-most-once; extended: adds the redundant clauses "
    "(default: minimal for puzzles, extended for models).",
)
@click.option("--model", "as_model", is_flag=True, help="Read TARGET as a model even if it could be a puzzle.")
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default="-", help="File (default stdout)."
)
def command(target: str, encoding: str | None, as_model: bool, output: str) -> None:
    """Write DIMACS CNF for TARGET: a puzzle (string, file or -), or a MODEL such as 21, all,
    missing:R1,C4 (unsatisfiable exactly when the model is Sudoku)."""
    from sudokit.cli.inputs import one_puzzle
    from sudokit.errors import SudokitError
    from sudokit.rules.cnf import model_cnf, puzzle_cnf, to_dimacs
    from sudokit.rules.model import board

    b = board(3)
    model = None
    if as_model or (target != "-" and len(target) < 60):
        try:
            model = b.parse(target)
        except SudokitError:
            if as_model:
                raise
    if model is not None:
        enc = encoding or "extended"
        n_vars, clauses = model_cnf(b, model, enc)
        notes = [f"sudokit: is model {b.describe(model)} Sudoku? UNSAT means yes", f"encoding: {enc}",
                 "variable (cell*9 + d) + 1: cell (0..80, row by row) holds digit d+1"]  # fmt: skip
    else:
        grid = one_puzzle(target)
        enc = encoding or "minimal"
        n_vars, clauses = puzzle_cnf(grid, enc)
        n = grid.geometry.size
        notes = [f"sudokit: puzzle {grid.to_line()}", f"encoding: {enc}",
                 f"variable (cell*{n} + d) + 1: cell (row by row) holds digit d+1"]  # fmt: skip
    text = to_dimacs(n_vars, clauses, notes)
    if output == "-":
        click.echo(text, nl=False)
    else:
        with open(output, "w") as fh:
            fh.write(text)
        click.echo(f"wrote {output}: {n_vars} variables, {len(clauses)} clauses ({enc})", err=True)
