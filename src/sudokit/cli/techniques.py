"""``--techniques`` / ``--exclude``: the technique set of the logic commands (hint, explain, rate)."""

from __future__ import annotations

import functools

import click


def technique_options(f):
    """Add ``--techniques LIST`` and ``--exclude LIST`` to a command; it receives them as one ``techniques``
    argument, a :class:`~sudokit.logic.registry.TechniqueSet` (an unknown name is a one-line user error)."""

    @functools.wraps(f)
    def run(*args, techniques: str | None, exclude: str | None, **kwargs):
        from sudokit.logic.registry import technique_set

        return f(*args, techniques=technique_set(techniques, exclude), **kwargs)

    run = click.option(
        "--exclude",
        metavar="LIST",
        default=None,
        help="Comma list of techniques or presets the solver may not use.",
    )(run)
    return click.option(
        "--techniques",
        metavar="LIST",
        default=None,
        help="Comma list of techniques (HoDoKu-style names, any case) and presets: all (default), se, hodoku, "
        "singles, uniqueness, variant. The names are those of `sudokit explain` steps (docs/logic.md).",
    )(run)
