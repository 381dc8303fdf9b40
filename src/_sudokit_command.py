"""The ``sudokit`` command's launcher: Ctrl-C while the command is still loading ends it quietly.

The console script imports this small module before the ``sudokit`` package, so from the first instant
an interrupt prints ``sudokit: interrupted`` and exits with status 130 instead of a traceback from
whichever import it fell in. Once the command has loaded, Python's own handler is put back: the commands
catch ``KeyboardInterrupt`` themselves (a batch keeps its finished lines and prints its summary).
"""

import _signal  # the C module itself: ``signal`` would first import enum and functools, unguarded
import os
import sys


def _interrupted(signum, frame):
    sys.stderr.write("sudokit: interrupted\n")
    sys.stderr.flush()
    os._exit(130)


def guard() -> None:
    """Make Ctrl-C end the process quietly (status 130) until the command takes it over."""
    _signal.signal(_signal.SIGINT, _interrupted)


def main() -> None:
    """Load the command under the quiet guard, then run it with Python's usual Ctrl-C handling."""
    guard()
    from sudokit.cli import main as command

    _signal.signal(_signal.SIGINT, _signal.default_int_handler)
    command(prog_name="sudokit")
