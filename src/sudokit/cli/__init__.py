"""The ``sudokit`` command.

Each subcommand lives in its own module under :mod:`sudokit.cli.commands` and exposes a click
command named ``command``; the module name is the command name (``_`` becomes ``-``). Modules are
imported only when their command runs (or for ``--help``), and import heavy libraries inside their
functions, so small calls start quickly.

User errors (:class:`~sudokit.errors.SudokitError`, unreadable files) print one line to stderr and
exit with status 2; never a traceback.
"""

from __future__ import annotations

import difflib
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence
from typing import Any

import click

from sudokit import __version__
from sudokit.errors import SudokitError

EXIT_USER_ERROR = 2


class LazyGroup(click.Group):
    """A click group whose subcommands are discovered from the ``commands`` package on demand."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        from sudokit.cli import commands

        return sorted(
            m.name.replace("_", "-") for m in pkgutil.iter_modules(commands.__path__) if not m.name.startswith("_")
        )

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.list_commands(ctx):
            return None
        module = importlib.import_module(f"sudokit.cli.commands.{name.replace('-', '_')}")
        return module.command

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **kwargs: Any,
    ) -> Any:
        """Run the command; click's usage errors (an unknown option or command, a bad value) become one
        ``sudokit: error:`` line with exit status 2 instead of click's usage block."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **kwargs)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **kwargs)
        except click.exceptions.NoArgsIsHelpError as exc:  # bare ``sudokit``: the help, as click prints it
            exc.show()
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            message = exc.format_message()
            message = message[:1].lower() + message[1:]
            ctx = getattr(exc, "ctx", None)
            names = _subcommand_names(ctx)
            if message.startswith("no such command") and ctx is not None and isinstance(ctx.command, click.Group):
                message = _no_such_command(ctx, message.split("'")[1] if "'" in message else "", names)
            elif isinstance(exc, click.NoSuchOption) and not exc.possibilities:
                message = f"{message.rstrip('.')} ({' '.join(['sudokit', *names])} --help lists them)"
            fail(f"{' '.join(names)}: {message}" if names else message)
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except SudokitError as exc:
            fail(str(exc))
        except KeyboardInterrupt:
            # Ctrl-C before a command could take it (loading it, starting up): no traceback, no "Aborted!"
            click.echo("sudokit: interrupted", err=True)
            sys.exit(130)
        except BrokenPipeError:
            # the reader went away (``| head``): stop quietly, as Unix tools do
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(0)
        except (FileNotFoundError, IsADirectoryError, PermissionError) as exc:
            fail(f"{exc.filename}: {exc.strerror.lower() if exc.strerror else exc}")
        except OSError as exc:
            fail(str(exc))


def _subcommand_names(ctx: click.Context | None) -> list[str]:
    """The names of the subcommands a context is in (``["rules", "prove"]``), not the program's."""
    names: list[str] = []
    while ctx is not None and ctx.parent is not None:
        names.insert(0, ctx.info_name or "")
        ctx = ctx.parent
    return names


def _no_such_command(ctx: click.Context, name: str, names: list[str]) -> str:
    """``no such command 'solv'; did you mean 'solve'?`` (or where the commands are listed)."""
    assert isinstance(ctx.command, click.Group)  # the caller checked
    close = difflib.get_close_matches(name, ctx.command.list_commands(ctx), n=1, cutoff=0.6)
    if close:
        return f"no such command {name!r}; did you mean {close[0]!r}?"
    return f"no such command {name!r} ({' '.join(['sudokit', *names])} --help lists them)"


def fail(message: str) -> None:
    """Print ``sudokit: error: message`` to stderr and exit with status 2. The message stays on one line:
    control characters an argument brought in (a newline in a pasted puzzle) are written escaped, as ``\\n``."""
    message = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in message)
    click.echo(f"sudokit: error: {message}", err=True)
    sys.exit(EXIT_USER_ERROR)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__, prog_name="sudokit")
def main() -> None:
    """Sudoku as a constraint-satisfaction problem: solve, count, check, explain, rate, generate."""
