"""The ``balance`` command-line application: the typer app every command module adds to."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="balance",
    help="Monte Carlo balance analysis for board games: who wins, how and how long, with confidence intervals.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
