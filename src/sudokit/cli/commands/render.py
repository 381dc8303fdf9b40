"""``sudokit render PUZZLE -o board.svg|png``: a picture of a board, with candidates and highlights."""

from __future__ import annotations

from typing import Any

import click

from sudokit.cli.inputs import FiniteRange, input_format_option, one_puzzle, variant_option


@click.command()
@click.argument("puzzle")
@click.option(
    "--output", "-o", default="-", show_default=True, help="File to write: .svg or .png ('-': SVG to stdout)."
)
@click.option("--candidates", "-c", is_flag=True, help="Pencil-mark every empty cell's candidates.")
@click.option(
    "--highlight",
    "-H",
    "highlight",
    default=None,
    metavar="SPEC",
    help="What to emphasise, e.g. 'cells=E3;units=row E;elim=C5:3;place=E5:4;link=A1:3=A5:3'.",
)
@click.option("--solve", "solve_it", is_flag=True, help="Draw the solution: givens bold, solved digits blue.")
@click.option("--scale", default=2.0, show_default=True, type=FiniteRange(0.25, 8), help="PNG pixels per unit.")
@click.option("--no-coordinates", is_flag=True, help="Leave out the row and column labels.")
@variant_option
@input_format_option
def command(
    puzzle: str,
    output: str,
    candidates: bool,
    highlight: str | None,
    solve_it: bool,
    scale: float,
    no_coordinates: bool,
    variant: str | None,
    input_format: str,
) -> None:
    """Draw PUZZLE (a puzzle string, a one-puzzle file, or -) as SVG or PNG, for any geometry; a variant
    puzzle (f-puzzles / SudokuPad link, JSON, .json file) with its constraints drawn.

    The highlight SPEC is key=items parts separated by ';': cells=A1,B2 units=row A,box 5
    cand=E5:4 elim=C5:3 place=E5:4 link=A1:3=A5:3 (strong) or link=A1:3-A5:3 (weak).
    Cells are labelled A1..I9 on 9x9 and r1c1 on other sizes.
    """
    from sudokit.cli import variants
    from sudokit.errors import SudokitError
    from sudokit.grid import Candidates
    from sudokit.render.highlight import parse_highlight

    if variants.is_variant_arg(puzzle):  # an f-puzzles / SudokuPad link or JSON: its constraints drawn too
        raise SystemExit(variants.render(puzzle, output, candidates, highlight, solve_it, scale, not no_coordinates))
    grid = one_puzzle(puzzle, variant, input_format)
    spec = parse_highlight(highlight, grid.geometry) if highlight else None
    shown, solution_of = grid, None
    if solve_it:
        from sudokit.engine import solve

        result = solve(grid)
        if result.solution is None:
            raise SudokitError(
                f"cannot draw the solution: {result.status}" + (f" ({result.message})" if result.message else "")
            )
        shown, solution_of = result.solution, grid
    cands = Candidates.of(grid) if candidates else None
    options: dict[str, Any] = dict(
        candidates=cands, highlight=spec, solution_of=solution_of, coordinates=not no_coordinates
    )
    if output == "-":
        from sudokit.render.svg import board_svg

        click.echo(board_svg(shown, **options))
        return
    from sudokit.render.png import save_board

    path = save_board(output, shown, scale=scale, **options)
    click.echo(f"wrote {path}", err=True)
