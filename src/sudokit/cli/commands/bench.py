"""``sudokit bench``: the engine benchmark table (the same runner as ``benchmarks/solve.py``)."""

from __future__ import annotations

from pathlib import Path

import click

from sudokit.cli.inputs import POSITIVE_INT, SECONDS


@click.command()
@click.option("--sets", default=None, help="Comma-separated dataset names (default: the five of the table).")
@click.option("--data", "data_dir", type=click.Path(file_okay=False, path_type=Path), default=None, help="Data folder.")
@click.option("--workers", "-j", type=POSITIVE_INT, default=None, help="Threads for the all-cores column.")
@click.option("--limit", type=click.IntRange(1, 2), default=1, show_default=True, help="1 first solution, 2 unique.")
@click.option("--repeat", type=POSITIVE_INT, default=1, show_default=True, help="Best of R runs.")
@click.option("--baseline-seconds", type=SECONDS, default=2.0, show_default=True, help="Time box of the baseline.")
def command(sets, data_dir, workers, limit, repeat, baseline_seconds) -> None:
    """Benchmark the engine on the bundled datasets: puzzles/sec, µs/puzzle, guesses, ratio to pure Python."""
    from sudokit.engine import bench
    from sudokit.errors import SudokitError

    names = [s for s in sets.split(",") if s] if sets else list(bench.DATASETS)
    folder = data_dir or bench.default_data_dir()
    missing = [n for n in names if not (folder / f"{n}.txt").exists()]
    if missing:
        raise SudokitError(f"no dataset {', '.join(missing)} in {folder} (use --data DIR)")
    bench.main(
        datasets=names,
        data_dir=folder,
        workers=workers,
        limit=limit,
        repeat=repeat,
        baseline_seconds=baseline_seconds,
        echo=click.echo,
        progress=lambda text: click.echo(text, err=True),
    )
