"""``sudokit generate``: unique (by default minimal) puzzles by clue count, symmetry, pattern or difficulty."""

from __future__ import annotations

import csv
import io
import os
import sys

import click

from sudokit.cli.inputs import POSITIVE_INT, SECONDS, SEED, variant_option
from sudokit.geometry import DIGIT_SYMBOLS
from sudokit.words import plural

OUTPUT_FORMATS = ("line", "grid", "sdk", "ss", "csv", "link", "sudokupad", "fpuzzles")
#: Formats that keep a variant's constraints (an f-puzzles link, a SudokuPad link, f-puzzles JSON).
VARIANT_OUTPUTS = ("link", "sudokupad", "fpuzzles")
CSV_HEADER = ("Puzzle", "Solution", "Givens", "Symmetry", "Unique", "Difficulty", "Rating", "Measure")


@click.command()
@click.option("--count", "-n", default=1, show_default=True, type=POSITIVE_INT, help="How many puzzles.")
@click.option("--clues", default=None, metavar="N|LO-HI", help="Number of givens, or a range (digging stops there).")
@click.option(
    "--symmetry",
    type=click.Choice(["none", "rot180", "rot90", "mirror", "flip", "diagonal", "random"]),
    default="none",
    show_default=True,
    help="Symmetry of the clue pattern (random: a different one per puzzle).",
)
@click.option(
    "--difficulty",
    type=click.Choice(["easy", "medium", "hard", "unfair", "extreme", "expert"], case_sensitive=False),
    default=None,
    help="Keep only puzzles of this level: the SE-style rating's level (HoDoKu caps); expert, the old name of "
    "unfair, still reads.",
)
@click.option(
    "--rating", default=None, metavar="MIN-MAX", help="Keep only puzzles with an SE-style rating (ER) in range."
)
@click.option("--pattern", default=None, metavar="PATTERN|FILE", help="Fill a clue pattern: 'x' a given, '.' empty.")
@click.option(
    "--method",
    type=click.Choice(["dig", "norvig"]),
    default="dig",
    show_default=True,
    help="dig: remove clues while unique; norvig: the seed's random_puzzle (may be ambiguous).",
)
@variant_option
@click.option(
    "--size", type=click.IntRange(1, len(DIGIT_SYMBOLS)), default=None, help="Board size: 4, 6, 9, 16, ... (default 9)."
)
@click.option("--seed", type=SEED, default=None, help="Random seed: the same seed gives the same output.")
@click.option("--format", "-f", "fmt", type=click.Choice(OUTPUT_FORMATS), default="line", show_default=True)
@click.option("--with-solution", is_flag=True, help="Also print each puzzle's solution.")
@click.option("--with-rating", is_flag=True, help="Also print each puzzle's difficulty.")
@click.option(
    "--time-limit",
    default=60.0,
    show_default=True,
    type=SECONDS,
    help="Seconds allowed per puzzle (a puzzle still digging then is printed unique but not minimal).",
)
@click.option("--progress/--no-progress", default=None, help="Progress bar on stderr (default: on a terminal).")
def command(
    count: int,
    clues: str | None,
    symmetry: str,
    difficulty: str | None,
    rating: str | None,
    pattern: str | None,
    method: str,
    variant: str | None,
    size: int | None,
    seed: int | None,
    fmt: str,
    with_solution: bool,
    with_rating: bool,
    time_limit: float,
    progress: bool | None,
) -> None:
    """Generate puzzles with exactly one solution, minimal unless --clues stops the digging early.

    --time-limit holds inside each puzzle's work: a request that cannot be met in time is an error, and a
    puzzle still being dug (16x16 and 25x25 dig for a long time) is printed as it is, unique but not minimal,
    with a note on stderr. Fewer clues than a board is proven to need (17 on 9x9) fail at once.

    Output is one puzzle per line by default; with --with-solution a line reads PUZZLE:1:SOLUTION
    (tdoku's layout, which `sudokit` reads back), and --with-rating adds a `# level` comment.

    --variant killer|thermo|arrow|kropki|xv makes a variant puzzle (a killer: cages only, no givens), printed
    as an f-puzzles link (--format link|sudokupad|fpuzzles); --rating MIN-MAX sets its difficulty.
    """
    from sudokit.generate import Generator, measure_difficulty
    from sudokit.generate.generator import parse_range
    from sudokit.generate.variants import KINDS as VARIANT_KINDS
    from sudokit.geometry import for_size, from_name

    if variant is not None and variant.lower() in VARIANT_KINDS:
        unused = {
            "--clues": clues,
            "--symmetry": None if symmetry == "none" else symmetry,
            "--difficulty": difficulty,
            "--pattern": pattern,
            "--method": None if method == "dig" else method,
            "--size": None if size in (None, 9) else size,
            "--with-rating": with_rating or None,
        }
        named = [k for k, v in unused.items() if v is not None]
        if named:
            from sudokit.errors import SudokitError

            raise SudokitError(
                f"--variant {variant}: {', '.join(named)} not available for variant puzzles yet (9x9; --rating "
                "MIN-MAX sets the difficulty)"
            )
        _variants(variant.lower(), count, seed, fmt, parse_range(rating, "rating", float), with_solution, time_limit)
        return
    if fmt in VARIANT_OUTPUTS:
        from sudokit.errors import SudokitError

        raise SudokitError(f"--format {fmt} is for variant puzzles: --variant {' | '.join(VARIANT_KINDS)}")

    if size is not None:
        from sudokit.errors import SudokitError
        from sudokit.geometry import BOX_SHAPES

        if size not in BOX_SHAPES:
            known = ", ".join(str(n) for n in sorted(BOX_SHAPES))
            raise SudokitError(f"--size {size}: no board has {plural(size, 'digit')} (sizes: {known})")
        geometry = from_name(variant or "standard", size * size)
    else:
        geometry = from_name(variant) if variant else for_size(9)
    if pattern is not None and os.path.exists(pattern):
        with open(pattern, encoding="utf-8") as fh:
            pattern = "".join(line.split("#", 1)[0] for line in fh)
    gen = Generator(
        geometry,
        seed=seed,
        symmetry=symmetry,
        clues=parse_range(clues, "clues"),
        pattern=pattern,
        difficulty=difficulty,
        rating=parse_range(rating, "rating", float),
        method=method,
        time_limit=time_limit,
    )
    _load_engine(geometry)  # the time limit is for the puzzles, not for loading the compiled kernels
    show_bar = progress if progress is not None else (count > 1 and sys.stderr.isatty())
    if fmt == "csv":
        click.echo(",".join(CSV_HEADER))
    bar = _progress(count) if show_bar else None
    try:
        for i, found in enumerate(gen.puzzles(count)):
            if found.extra.get("minimal") is False:
                click.echo(
                    f"sudokit: note: puzzle {i + 1}: the time limit stopped the digging at "
                    f"{plural(found.clues, 'clue')}: it has one solution but is not minimal",
                    err=True,
                )
            if with_rating and found.rating is None and found.unique is not False:
                found.rating = measure_difficulty(found.puzzle)
            if fmt != "csv" and i and fmt != "line":
                click.echo()
            click.echo(_render(found, fmt, with_solution, with_rating))
            if bar is not None:
                bar.advance(bar.task_ids[0])
    finally:
        if bar is not None:
            bar.stop()


def _variants(
    kind: str,
    count: int,
    seed: int | None,
    fmt: str,
    rating: tuple | None,
    with_solution: bool,
    time_limit: float,
) -> None:
    """``generate --variant killer|thermo|arrow|kropki|xv``: one puzzle per line as an f-puzzles link (``link``,
    and ``line``, the default, since a line of digits cannot carry constraints), a SudokuPad link
    (``sudokupad``) or f-puzzles JSON (``fpuzzles``); ``--with-solution`` adds ``# solution LINE``."""
    import numpy as np

    from sudokit.errors import SudokitError
    from sudokit.formats.fpuzzles import to_json, to_link
    from sudokit.generate.variants import generate_variant

    if fmt not in (*VARIANT_OUTPUTS, "line"):
        raise SudokitError(f"--format {fmt} would drop the constraints: use --format {' | '.join(VARIANT_OUTPUTS)}")
    rng = np.random.default_rng(seed)
    for _ in range(count):
        found = generate_variant(kind, rng, rating=rating, time_limit=time_limit)
        if fmt == "sudokupad":
            text = to_link(found.puzzle, "sudokupad")
        elif fmt == "fpuzzles":
            text = to_json(found.puzzle)
        else:
            text = to_link(found.puzzle)
        if with_solution:
            text += f"  # solution {found.solution.to_line()}"
        click.echo(text)


def _load_engine(geometry) -> None:
    """Run the engine's counter once on an empty board, so numba loads (or compiles) it before the clock runs."""
    import numpy as np

    from sudokit.engine import count_array

    count_array(np.zeros(geometry.n_cells, dtype=np.uint8), geometry, 1)


def _progress(total: int):
    from rich.console import Console
    from rich.progress import Progress

    bar = Progress(console=Console(stderr=True), transient=True)
    bar.add_task("generating", total=total)
    bar.start()
    return bar


def _note(found, with_rating: bool) -> str:
    """The comment after a puzzle: not-unique warnings always, the difficulty when asked."""
    parts = []
    if found.unique is False:
        several = found.extra.get("solutions") != "none"
        parts.append(f"{'NOT UNIQUE: several solutions' if several else 'NO SOLUTION'} (Norvig's random_puzzle)")
    if with_rating and found.rating is not None:
        parts.append(str(found.rating))
    return "  # " + "; ".join(parts) if parts else ""


def _render(found, fmt: str, with_solution: bool, with_rating: bool) -> str:
    from sudokit.formats import format_grid

    puzzle = found.puzzle
    if fmt == "csv":
        out = io.StringIO()
        r = found.rating
        csv.writer(out, lineterminator="").writerow(
            [
                puzzle.to_line(),
                found.solution.to_line() if with_solution and found.solution else "",
                puzzle.givens,
                found.symmetry,
                {True: "yes", False: "no", None: ""}[found.unique],
                r.level if r is not None and with_rating else "",
                f"{r.value:.1f}" if r is not None and with_rating else "",
                r.measure if r is not None and with_rating else "",
            ]
        )
        return out.getvalue()
    note = _note(found, with_rating)
    if fmt == "line":
        text = puzzle.to_line()
        if with_solution and found.solution is not None:
            text += f":1:{found.solution.to_line()}"
        return text + note
    text = format_grid(puzzle, fmt)
    if note:
        text = f"#{note.strip()[1:]}\n{text}" if fmt != "sdk" else f"#C{note.strip()[1:]}\n{text}"
    if with_solution and found.solution is not None:
        text += "\n\n" + format_grid(found.solution, fmt)
    return text
