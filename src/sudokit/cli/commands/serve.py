"""``sudokit serve``: the workbench page and its JSON API on a local port (see ``docs/web.md``)."""

from __future__ import annotations

import errno
import ipaddress
import socket

import click

from sudokit.cli.inputs import FiniteRange

LOOPBACK_NAMES = ["127.0.0.1", "localhost", "::1", "[::1]"]


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (loopback by default).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535), help="TCP port.")
@click.option(
    "--workers",
    default=None,
    type=click.IntRange(1, 64),
    help="Worker processes for solving (default: up to 2, one per CPU).",
)
@click.option(
    "--timeout",
    default=10.0,
    show_default=True,
    type=FiniteRange(0.1, 600),
    help="Seconds a solve, count, hint or explanation may take.",
)
@click.option(
    "--generate-timeout",
    default=30.0,
    show_default=True,
    type=FiniteRange(0.1, 600),
    help="Seconds a generation may take.",
)
def command(host: str, port: int, workers: int | None, timeout: float, generate_timeout: float) -> None:
    """Start the local Sudoku workbench: type, paste or open puzzles; solve, count, hint, explain, generate, rate.

    Open the address it prints in a browser; Ctrl-C stops it. The page and the API listen on
    127.0.0.1 by default; listening elsewhere makes them reachable from other machines.
    """
    try:
        import uvicorn

        from sudokit.web.app import create_app
    except ImportError as exc:
        from sudokit.errors import SudokitError

        missing = f"sudokit serve needs the web extra ({exc.name} is missing)"
        raise SudokitError(f"{missing}: pip install 'sudokit[web]'") from None

    sock = listening_socket(host, port)  # a busy port is one error line before anything starts
    hosts = LOOPBACK_NAMES if is_loopback(host) else None
    if hosts is None:
        click.echo(f"sudokit: warning: listening on {host}: other machines can reach the workbench", err=True)
    app = create_app(workers=workers, timeout=timeout, generate_timeout=generate_timeout, allowed_hosts=hosts)
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"sudokit workbench on http://{shown}:{port}/  (Ctrl-C to stop)", err=True)
    uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning")).run(sockets=[sock])


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` for the server to listen on; a port in use or an address this machine
    does not have is a user error (one line, exit status 2), reported before the workers start."""
    from sudokit.errors import SudokitError

    address = host.strip("[]")
    try:
        family = socket.getaddrinfo(address, port, type=socket.SOCK_STREAM)[0][0]
    except socket.gaierror as exc:
        raise SudokitError(f"--host {host!r}: unknown address ({exc.strerror})") from None
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((address, port))
    except OSError as exc:
        sock.close()
        why = "the port is in use (try another --port)" if exc.errno == errno.EADDRINUSE else exc.strerror
        raise SudokitError(f"cannot listen on {host}:{port}: {why}") from None
    sock.set_inheritable(True)
    return sock
