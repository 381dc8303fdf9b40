"""``sudokit generate``: unique (by default minimal) puzzles by clue count, symmetry, pattern or difficulty."""

from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass
from typing import Any

import click

from sudokit.cli.inputs import POSITIVE_INT, SECONDS, SEED, cluster_option, jobs_option, variant_option
from sudokit.cli.techniques import technique_options
from sudokit.errors import SudokitError
from sudokit.geometry import DIGIT_SYMBOLS, Geometry
from sudokit.jobs.batch import Answer, Batch, Counts, interrupted
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
@click.option(
    "--needs",
    default=None,
    metavar="LIST",
    help="Keep only puzzles whose logical path (as `sudokit explain` finds it) uses each of these techniques "
    "(comma list; names, aliases or presets).",
)
@click.option(
    "--at-most",
    default=None,
    metavar="TECHNIQUE",
    help="Nothing harder than this technique: logic solves the puzzle with the techniques rated no higher.",
)
@technique_options
@click.option("--with-path", is_flag=True, help="Also print each puzzle's logical path as '#' comment lines.")
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
@jobs_option()
@cluster_option
def command(
    count: int,
    clues: str | None,
    symmetry: str,
    difficulty: str | None,
    rating: str | None,
    needs: str | None,
    at_most: str | None,
    techniques,
    with_path: bool,
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
    jobs: int,
    cluster: str | None,
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
    from sudokit.generate import Generator
    from sudokit.generate.generator import parse_range
    from sudokit.generate.needs import path_wants
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
            "--needs": needs,
            "--at-most": at_most,
            "--techniques/--exclude": None if techniques.spec == "all" else techniques.spec,
            "--with-path": with_path or None,
        }
        named = [k for k, v in unused.items() if v is not None]
        if named:
            raise SudokitError(
                f"--variant {variant}: {', '.join(named)} not available for variant puzzles yet (9x9; --rating "
                "MIN-MAX sets the difficulty)"
            )
        _variants(variant.lower(), count, seed, fmt, parse_range(rating, "rating", float), with_solution, time_limit)
        return
    if fmt in VARIANT_OUTPUTS:
        raise SudokitError(f"--format {fmt} is for variant puzzles: --variant {' | '.join(VARIANT_KINDS)}")

    if size is not None:
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
    if with_path and fmt == "csv":
        raise SudokitError("--with-path: the path is written as '#' comment lines, which --format csv has not")
    wants = None
    if needs or at_most or techniques.spec != "all":
        wants = path_wants(needs, techniques, at_most=at_most)
    settings: dict[str, Any] = {
        "symmetry": symmetry,
        "clues": parse_range(clues, "clues"),
        "pattern": pattern,
        "difficulty": difficulty,
        "rating": parse_range(rating, "rating", float),
        "method": method,
        "time_limit": time_limit,
        "wants": wants,
    }
    checked = Generator(geometry, seed=seed, **settings)  # a request it refuses is reported before any work
    if seed is None:
        import secrets

        seed = secrets.randbits(64)  # one seed for the whole job: its chunks' seeds derive from it
    job = _Job(geometry, seed, settings, fmt, with_solution, with_rating, with_path)
    quick = checked.batched and not (with_rating or with_path)
    _generate(job, count, jobs, cluster, progress, KERNEL_CHUNK if quick else CHUNK)


#: Puzzles per chunk (puzzle ``i`` of a seed is the same whatever the chunks: see :func:`_generate_chunk`): a few
#: where a puzzle can take seconds (a difficulty, a rating or a path to meet, another board, ``--with-rating``).
CHUNK = 8
#: At most this many per chunk where the 9x9 kernel makes them in a fraction of a millisecond each: a chunk then
#: takes ~0.1 s, and sending it and writing its answer costs the main process next to nothing. A job is still
#: cut into at least :data:`CHUNKS_PER_WORKER` chunks per worker, so a small one keeps every worker busy.
KERNEL_CHUNK = 512
CHUNKS_PER_WORKER = 4


def chunk_size(count: int, workers: int, largest: int) -> int:
    """Puzzles per chunk for a job of ``count`` on ``workers``: ``largest`` at most, at least :data:`CHUNK`,
    and small enough to give each worker :data:`CHUNKS_PER_WORKER` chunks."""
    return max(CHUNK, min(largest, -(-count // (CHUNKS_PER_WORKER * workers))))


@dataclass(frozen=True)
class _Job:
    """What every chunk of a ``generate -n`` job makes and how it writes it (it goes to the workers)."""

    geometry: Geometry
    seed: int
    settings: dict
    fmt: str
    with_solution: bool
    with_rating: bool
    with_path: bool = False


def _generate(
    job: _Job, count: int, jobs: int, cluster: str | None, progress: bool | None, largest: int = CHUNK
) -> None:
    """``count`` puzzles in chunks of at most ``largest`` (:func:`chunk_size`), on ``jobs`` processes (or a
    cluster), in order."""
    import functools

    from sudokit.jobs.runner import open_runner

    gap = b"\n" if job.fmt not in ("csv", "line") else b""
    head = (",".join(CSV_HEADER) + "\n").encode() if job.fmt == "csv" else b""
    batch = Batch(Counts(), gap=gap, head=head)
    show = progress if progress is not None else (None if count > 1 else False)
    # no more processes than the job has chunks of the smallest size: `-n 1 --jobs 8` starts no pool at all
    jobs = min(jobs, -(-count // CHUNK))
    # the time limit is for the puzzles, not for loading the compiled kernels: they load before the first chunk
    with open_runner(jobs, cluster, functools.partial(_load_engine, job.geometry)) as runner:
        size = chunk_size(count, runner.workers, largest)
        chunks = ((start, min(size, count - start)) for start in range(0, count, size))
        stopped = batch.run(
            runner,
            functools.partial(_generate_chunk, job),
            chunks,
            _lost,
            label="generating",
            show_progress=show,
        )
    if stopped:
        interrupted(batch.puzzles)
    if batch.tally["failed"]:
        raise SystemExit(1)


def _generate_chunk(job: _Job, chunk: tuple[int, int]) -> Answer:
    """Puzzles ``start`` .. ``start + n - 1`` of the job: puzzle ``i`` depends only on the seed and ``i``
    (:class:`~sudokit.generate.Generator`'s ``start``), so the output is the same however the job is cut."""
    from sudokit.generate import Generator, measure_difficulty

    start, n = chunk
    gen = Generator(job.geometry, seed=job.seed, start=start, **job.settings)
    notes: list[str] = []
    texts = []
    for i, found in enumerate(gen.puzzles(n), start):
        if found.extra.get("minimal") is False:
            notes.append(
                f"sudokit: note: puzzle {i + 1}: the time limit stopped the digging at "
                f"{plural(found.clues, 'clue')}: it has one solution but is not minimal"
            )
        if job.with_rating and found.rating is None and found.unique is not False:
            found.rating = measure_difficulty(found.puzzle)
        texts.append(_render(found, job.fmt, job.with_solution, job.with_rating))
        if job.with_path:
            texts[-1] += "\n" + _path_lines(found)
    gap = "\n" if job.fmt not in ("csv", "line") else ""
    return Answer(gap.join(t + "\n" for t in texts).encode("utf-8"), notes, None, n)


def _lost(chunk: tuple[int, int], why: str) -> Answer:
    """A chunk whose task failed twice: its puzzles are missing, and stderr says which."""
    start, n = chunk
    message = f"sudokit: error: puzzles {start + 1}-{start + n} not generated: {why}"
    return Answer(b"", [message], Counts(failed=n), n)


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


def _note(found, with_rating: bool) -> str:
    """The comment after a puzzle: not-unique warnings always, the difficulty when asked."""
    parts = []
    if found.unique is False:
        several = found.extra.get("solutions") != "none"
        parts.append(f"{'NOT UNIQUE: several solutions' if several else 'NO SOLUTION'} (Norvig's random_puzzle)")
    if with_rating and found.rating is not None:
        parts.append(str(found.rating))
    return "  # " + "; ".join(parts) if parts else ""


def _path_lines(found) -> str:
    """The puzzle's logical path as comment lines, one step each (``#  3. [2.6] Pointing: ...``), and its end."""
    from sudokit.logic import explain

    path = found.extra.get("path") or explain(found.puzzle)
    width = len(str(len(path.steps)))
    lines = [f"# {i:>{width}}. [{s.rating:.1f}] {s.explanation}" for i, s in enumerate(path.steps, 1)]
    end = "solved by logic" if path.solved else "logic is stuck here"
    lines.append(f"# {end}: {len(path.steps)} steps, SE {path.rating:.1f}")
    return "\n".join(lines)


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
