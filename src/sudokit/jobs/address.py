"""The ``--cluster`` address a user gives: ``tcp://HOST:PORT`` (a running Dask scheduler) or ``local:N``.

Kept apart from :mod:`sudokit.jobs.cluster`, which imports Dask: a mistyped address is one error line before
anything heavy is loaded.
"""

from __future__ import annotations

import re

from sudokit.errors import SudokitError

#: The most worker processes ``local:N`` starts (more is a typo).
MAX_LOCAL_WORKERS = 256
ADDRESS_FORMS = "tcp://HOST:PORT (a running Dask scheduler) or local:N (N worker processes on this machine)"
_TCP = re.compile(r"tcp://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?):([0-9]{1,5})")
_LOCAL = re.compile(r"local:([0-9]{1,6})")


def parse_address(address: str) -> tuple[str, int]:
    """``("tcp", port)`` for ``tcp://HOST:PORT``, ``("local", N)`` for ``local:N``; else a SudokitError."""
    text = address.strip()
    if match := _LOCAL.fullmatch(text):
        count = int(match.group(1))
        if not 1 <= count <= MAX_LOCAL_WORKERS:
            raise SudokitError(f"--cluster {address}: local:N takes 1 to {MAX_LOCAL_WORKERS} worker processes")
        return "local", count
    if match := _TCP.fullmatch(text):
        port = int(match.group(2))
        if not 1 <= port <= 65535:
            raise SudokitError(f"--cluster {address}: port {port} is not in 1..65535")
        return "tcp", port
    raise SudokitError(f"--cluster {address}: expected {ADDRESS_FORMS}")
