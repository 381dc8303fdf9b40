"""``sudokit replay PUZZLE --method M -o solve.gif|solve.html``: watch a method fill the board."""

from __future__ import annotations

import click

from sudokit.cli.inputs import SECONDS, input_format_option, one_puzzle, variant_option


@click.command()
@click.argument("puzzle")
@click.option("--method", "-m", type=click.Choice(["udacity", "norvig", "ac3"]), default="norvig", show_default=True)
@click.option("--output", "-o", required=True, help="Animation file: .gif, or .html (a page with play controls).")
@click.option("--max-frames", type=click.IntRange(2), default=300, show_default=True, help="Thin long solves to this.")
@click.option("--frame-ms", type=click.IntRange(10), default=120, show_default=True, help="GIF: milliseconds a frame.")
@click.option("--time-limit", type=SECONDS, default=60.0, show_default=True, help="Seconds before the solve gives up.")
@variant_option
@input_format_option
def command(
    puzzle: str,
    method: str,
    output: str,
    max_frames: int,
    frame_ms: int,
    time_limit: float,
    variant: str | None,
    input_format: str,
) -> None:
    """Record METHOD solving PUZZLE and replay its assignments on the board, frame by frame.

    Each frame is one change of the board: an assignment (the changed cell marked yellow) or a backtrack
    (the cells it clears marked red). The replay stops at the first solution.
    """
    from sudokit.errors import SudokitError
    from sudokit.methods import METHODS
    from sudokit.render.replay import replay_frames, replay_html, write_gif

    grid = one_puzzle(puzzle, variant, input_format)
    if not output.lower().endswith((".gif", ".html", ".htm")):
        raise SudokitError(f"{output}: choose a .gif or .html file name")
    result = METHODS[method](grid, limit=1, time_limit=time_limit, trace=True)
    frames = replay_frames(result.trace, max_frames)
    if output.lower().endswith(".gif"):
        write_gif(frames, output, frame_ms=frame_ms)
    else:
        with open(output, "w", encoding="utf-8") as out:
            out.write(replay_html(frames, f"{method} solving {grid.to_line()}"))
    click.echo(f"wrote {output}: {len(frames)} frames ({result.status})", err=True)
