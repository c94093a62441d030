"""The ``balance`` command line: thin commands that call one API function each.

Every user mistake arrives as :class:`balance.errors.UserError` (or a usage
error from the parser) and is printed as one line on stderr with exit status 2;
runtime failures exit 1.  Heavy modules are imported inside the commands so
``balance --help`` answers at once.
"""

from __future__ import annotations

import sys

import typer

from balance.cli.app import app

# Each module adds its commands to ``app``.
from balance.cli import listing, play, compare, sweep, tournament, train, checks  # noqa: E402,F401,I001  (the order of --help)
from balance.cli import tune, sensitivity, warmup  # noqa: E402,F401,I001

__all__ = ["app", "main"]


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``balance`` console script and ``python -m balance``."""
    from balance.cli.common import Stopped
    from balance.errors import UserError

    try:
        rc = app(args=argv, prog_name="balance", standalone_mode=False)
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
    except Stopped as exc:  # Ctrl-C in a long command: what was kept, in one line
        print(f"interrupted: {exc}", file=sys.stderr)
        sys.exit(130)
    except typer.Abort:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.exceptions.TyperException as exc:  # usage errors: one line, exit 2
        if type(exc).__name__ == "NoArgsIsHelpError":  # bare 'balance': show the help
            ctx = getattr(exc, "ctx", None)
            print(ctx.get_help() if ctx is not None else exc.format_message())
            sys.exit(0)
        message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        ctx = getattr(exc, "ctx", None)
        where = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
        print(f"error: {' '.join(message.split())}{where}", file=sys.stderr)
        sys.exit(getattr(exc, "exit_code", 2))
    except KeyboardInterrupt as exc:  # balance.errors.Interrupted says what was kept
        said = str(exc)
        print(f"interrupted: {said}" if said else "interrupted", file=sys.stderr)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
    else:
        if rc == 130:  # typer's answer to Ctrl-C in a command that keeps nothing
            print("interrupted", file=sys.stderr)
        sys.exit(rc if isinstance(rc, int) else 0)
