"""Plots with matplotlib: the AC-3 queue plot of one solve, and distributions over a puzzle set.

Every function returns a matplotlib ``Figure`` built without pyplot (no global state, no display
needed) and saves it when given a path. The queue plot follows the AC-3 seed: the queue length after
every arc taken from the queue; each drop to zero is the end of one AC-3 call, and with backtracking
(MAC) every assignment starts a new call, marked on the plot.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from sudokit.errors import SudokitError
from sudokit.words import plural

INITIAL = "#2563eb"
SEARCH = "#ea580c"
#: How many MAC calls the zoomed panel of the queue plot shows.
ZOOM_CALLS = 8


def _figure(width: float = 8.0, height: float = 4.0):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def check_picture_path(path: str | Path) -> None:
    """Refuse, before any drawing, a picture file name whose suffix matplotlib is not asked to write."""
    if Path(path).suffix.lower() not in (".png", ".svg", ".pdf"):
        raise SudokitError(f"{path}: choose a .png, .svg or .pdf file name")


def _save(fig, path: str | Path | None):
    if path is not None:
        check_picture_path(path)
        fig.savefig(path)
    return fig


def queue_plot(trace, path: str | Path | None = None, title: str | None = None):
    """The AC-3 queue length per step of a trace, initial AC-3 and the MAC calls of the search apart.

    ``trace`` is a :class:`sudokit.methods.trace.Trace` recorded by the ``ac3`` method.
    """
    lengths = list(trace.queue_lengths)
    if not lengths:
        raise SudokitError(f"the {trace.method} trace has no AC-3 queue lengths (record it with the ac3 method)")
    starts = sorted(s for s in trace.search_starts if 0 <= s < len(lengths))
    first = starts[0] if starts else len(lengths)
    outcome = getattr(trace, "outcome", "") or ("needed backtracking" if starts else "solved by AC-3 alone")
    fig = _figure(8, 6.5 if starts else 4)
    axes = fig.subplots(2, 1, height_ratios=(3, 2)) if starts else [fig.add_subplot()]
    _queue_lines(axes[0], lengths, starts, first, 0, len(lengths))
    axes[0].set_title(title or f"AC-3 queue length: {outcome}")
    axes[0].legend(loc="upper right", frameon=False)
    if starts:
        shown = starts[:ZOOM_CALLS]
        stop = starts[ZOOM_CALLS] if len(starts) > ZOOM_CALLS else len(lengths)
        lo = max(0, first - (stop - first) // 8)
        _queue_lines(axes[1], lengths, starts, first, lo, stop)
        top = max(lengths[lo:stop]) or 1
        axes[1].vlines(shown, 0, top * 1.05, colors=SEARCH, alpha=0.35, linewidth=0.8, linestyles="dotted")
        axes[1].set_title(
            f"zoom: the end of the initial AC-3 and the first {len(shown)} of {len(starts)} MAC calls\n"
            "(each starts at a dotted line and ends at 0, or earlier when it empties a domain)",
            fontsize=9,
        )
    return _save(fig, path)


def _queue_lines(ax, lengths, starts, first, lo, hi) -> None:
    """Draw the queue lengths of steps ``lo..hi``: the initial AC-3 in blue, the MAC calls in orange."""
    a = min(first + 1, hi)
    if lo < a:
        ax.plot(range(lo, a), lengths[lo:a], color=INITIAL, linewidth=1.2, label="initial AC-3")
    if starts and max(first, lo) < hi:
        b = max(first, lo)
        ax.plot(
            range(b, hi),
            lengths[b:hi],
            color=SEARCH,
            linewidth=0.9,
            label=f"AC-3 after each assignment (MAC): {len(starts)} calls",
        )
    ax.set_xlim(lo, max(lo + 1, hi - 1))
    ax.set_ylim(bottom=0)
    ax.set_xlabel("step (arcs taken from the queue)")
    ax.set_ylabel("length of the queue")
    ax.grid(alpha=0.3, axis="y")


def _log_bins(values: Sequence[float], count: int = 30) -> list[float]:
    low = min(v for v in values if v > 0)
    high = max(values)
    if high <= low:
        return [low / 1.5, high * 1.5]
    step = (math.log10(high) - math.log10(low)) / count
    return [10 ** (math.log10(low) + i * step) for i in range(count + 1)]


def times_plot(
    seconds: Sequence[float],
    guesses: Sequence[int],
    path: str | Path | None = None,
    title: str = "",
):
    """Two histograms over a puzzle set: solve time (log scale) and guesses per puzzle."""
    if not seconds:
        raise SudokitError("no solved puzzles to plot")
    fig = _figure(10, 4)
    left, right = fig.subplots(1, 2)
    from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator, NullFormatter

    ordered = sorted(seconds)
    unit, scale = ("µs", 1e6) if ordered[len(ordered) // 2] < 1e-3 else ("ms", 1e3)
    times = [max(s * scale, 1e-3) for s in seconds]
    left.hist(times, bins=_log_bins(times), color=INITIAL, edgecolor="white", linewidth=0.4)
    left.set_xscale("log")
    # plain numbers at 1, 2, 5 x 10^k and no labels on the other minor ticks: matplotlib's default labels
    # (3x10^-3, 4x10^-3, ...) ran into each other
    left.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    left.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    left.xaxis.set_minor_formatter(NullFormatter())
    left.set_xlabel(f"solve time ({unit}, log scale)")
    left.set_ylabel("puzzles")
    median = sorted(times)[len(times) // 2]
    left.axvline(median, color="black", linewidth=1, linestyle="--", label=f"median {median:.3g} {unit}")
    left.legend(frameon=False, loc="best")
    for ax in (left, right):
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # puzzle counts are whole
    top = max(guesses) if guesses else 0
    bins = range(0, top + 2) if top < 40 else 40
    right.hist(list(guesses), bins=bins, color=SEARCH, edgecolor="white", linewidth=0.4, align="left")
    right.set_xlabel("guesses")
    right.set_ylabel("puzzles")
    none = sum(1 for g in guesses if g == 0)
    right.set_title(f"{none} of {len(guesses)} solved without guessing", fontsize=10)
    fig.suptitle(title or plural(len(seconds), "puzzle"))
    return _save(fig, path)


def histogram_plot(
    values: Sequence[float],
    path: str | Path | None = None,
    xlabel: str = "rating",
    title: str = "",
    bins: int | Sequence[float] = 30,
):
    """A histogram of one number per puzzle (a rating, a level, a clue count)."""
    if not values:
        raise SudokitError("nothing to plot")
    from matplotlib.ticker import MaxNLocator

    fig = _figure()
    ax = fig.add_subplot()
    ax.hist(list(values), bins=bins, color=INITIAL, edgecolor="white", linewidth=0.4)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("puzzles")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title(title or f"{xlabel} of {plural(len(values), 'puzzle')}")
    ax.grid(alpha=0.3, axis="y")
    return _save(fig, path)
