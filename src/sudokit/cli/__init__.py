"""The ``sudokit`` command.

Each subcommand lives in its own module under :mod:`sudokit.cli.commands` and exposes a click
command named ``command``; the module name is the command name (``_`` becomes ``-``). Modules are
imported only when their command runs (or for ``--help``), and import heavy libraries inside their
functions, so small calls start quickly.

User errors (:class:`~sudokit.errors.SudokitError`, unreadable files) print one line to stderr and
exit with status 2; never a traceback.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys

import click

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


def fail(message: str) -> None:
    """Print ``sudokit: error: message`` to stderr and exit with status 2."""
    click.echo(f"sudokit: error: {message}", err=True)
    sys.exit(EXIT_USER_ERROR)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sudokit")
def main() -> None:
    """Sudoku as a constraint-satisfaction problem: solve, count, check, explain, rate, generate."""
