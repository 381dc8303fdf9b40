"""``python -m sudokit``: the same as the ``sudokit`` command."""

import sys

try:
    from sudokit.cli import main
except KeyboardInterrupt:  # Ctrl-C while the command loads: one line, no traceback
    sys.stderr.write("sudokit: interrupted\n")
    sys.exit(130)

main(prog_name="sudokit")
