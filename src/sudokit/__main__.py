"""``python -m sudokit``: the same as the ``sudokit`` command (through its launcher, which keeps Ctrl-C quiet
while the command loads)."""

from _sudokit_command import main

main()
