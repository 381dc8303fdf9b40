"""``sudokit warm-up``: compile every numba kernel now (for container images and CI), each group in its own process.

Later commands then load machine code from numba's cache instead of compiling on first use. ``--check`` only
reports which groups the cache lacks (exit status 1 when one does). See :mod:`sudokit.jit`.
"""

from __future__ import annotations

import os
import sys
import time

import click

from sudokit import jit

_NAMES = [g.name for g in jit.GROUPS]


def _child(name: str) -> tuple[str, float, float]:
    jit.quiet()  # the parent reports for its children
    return jit.warm(name)


@click.command()
@click.argument("groups", nargs=-1, type=click.Choice(_NAMES))
@click.option(
    "--jobs", "-j", type=click.IntRange(min=1), default=None, help="Processes compiling at once (default: cores)."
)
@click.option("--check", is_flag=True, help="Only report what the cache lacks; exit 1 when something is cold.")
def command(groups: tuple[str, ...], jobs: int | None, check: bool) -> None:
    """Compile the kernels of GROUPS (default: all of them) so that no later command compiles."""
    chosen = [g for g in jit.GROUPS if not groups or g.name in groups]
    before = {g.name: jit.cold(g.modules) for g in chosen}
    if check:
        for g in chosen:
            n_cold, total = before[g.name]
            state = "cold" if n_cold else "cached"
            click.echo(f"{g.name:8s} {state:6s} {total - n_cold}/{total} kernels cached  ({g.what})")
        sys.exit(1 if any(n for n, _ in before.values()) else 0)
    jit.quiet()
    start = time.perf_counter()
    results = _run([g.name for g in chosen], jobs or os.cpu_count() or 1)
    for g in chosen:
        _, wall, cpu = results[g.name]
        n_cold, total = before[g.name]
        done = "compiled" if n_cold else "loaded"
        click.echo(f"{g.name:8s} {done:8s} in {wall:5.1f} s (CPU {cpu:5.1f} s)  {g.what}")
    still = {g.name: jit.cold(g.modules)[0] for g in chosen}
    click.echo(f"warm-up done in {time.perf_counter() - start:.1f} s")
    missing = [f"{name} ({n})" for name, n in still.items() if n]
    if missing:
        # kernels no warm-up input reaches (a technique never tried on its puzzles): they compile on first use
        click.echo(f"not reached by the warm-up inputs: {', '.join(missing)} kernels", err=True)


def _run(names: list[str], jobs: int) -> dict[str, tuple[str, float, float]]:
    """Warm each group, ``jobs`` processes at a time. The threaded solver calls the serial one, so it waits for it
    (two processes would compile the same kernels)."""
    if jobs <= 1 or len(names) <= 1:
        return {name: jit.warm(name) for name in names}
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    results: dict[str, tuple[str, float, float]] = {}
    later = [n for n in names if n == "threads" and "solver" in names]
    first = [n for n in names if n not in later]
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(jobs, len(names)), mp_context=spawn) as pool:
        futures = {name: pool.submit(_child, name) for name in first}
        if later:
            results["solver"] = futures.pop("solver").result()
            futures.update({name: pool.submit(_child, name) for name in later})
        for name, future in futures.items():
            results[name] = future.result()
    return results
