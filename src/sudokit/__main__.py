"""``python -m sudokit``: the same as the ``sudokit`` command."""

from sudokit.cli import main

main(prog_name="sudokit")
