"""Draw models the paper's way: the board with the missing big constraints shaded.

A missing row, column or box is shaded grey; where missing constraints overlap the shade is darker,
so a cell's darkness tells how many of its constraints are gone. Several models side by side (for
instance each step of a proof) make one figure.
"""

from __future__ import annotations

from pathlib import Path

from sudokit.rules.model import Board


def draw(board: Board, models: list[int], titles: list[str] | None = None, path: str | Path | None = None):
    """Draw ``models`` in a row; save to ``path`` (PNG, SVG or PDF by suffix) when given.

    Returns the matplotlib figure.
    """
    if path is not None:
        from sudokit.render.plots import check_picture_path

        check_picture_path(path)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Polygon, Rectangle

    g = board.geometry
    n = g.size
    count = len(models)
    fig, axes = plt.subplots(1, count, figsize=(2.6 * count, 2.9), squeeze=False)
    for i, (ax, model) in enumerate(zip(axes[0], models)):
        missing = board.missing(model)
        for u in board.members(missing):
            for cell in board.cells(u):
                r, c = divmod(cell, n)
                ax.add_patch(Rectangle((c, n - 1 - r), 1, 1, facecolor="0.35", alpha=0.35, linewidth=0))
        for k in range(n + 1):
            thick = g.box_rows is not None and k % g.box_rows == 0
            ax.plot([0, n], [k, k], color="black", linewidth=2.0 if thick else 0.4)
            thick = g.box_cols is not None and k % g.box_cols == 0
            ax.plot([k, k], [0, n], color="black", linewidth=2.0 if thick else 0.4)
        for u in range(board.n_constraints):  # diagonals present: a thin line, so the variant shows
            if g.unit_kind(u) == "diagonal" and model >> u & 1:
                main = board.cells(u)[0] == 0
                ax.add_patch(Polygon([(0, n), (n, 0)] if main else [(0, 0), (n, n)], closed=False, fill=False,
                                     linewidth=0.8, linestyle="--", edgecolor="0.3"))  # fmt: skip
        ax.set_xlim(-0.05, n + 0.05)
        ax.set_ylim(-0.05, n + 0.05)
        ax.set_aspect("equal")
        ax.axis("off")
        title = titles[i] if titles and i < len(titles) else board.describe(model)
        ax.set_title(title, fontsize=8)
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=150)
        plt.close(fig)
    return fig
