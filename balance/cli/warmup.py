"""``balance warmup``: compile the games' kernels ahead (balance.warmup)."""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from balance.cli.app import app
from balance.cli.common import JsonOpt, print_json


@app.command()
def warmup(
    games: Annotated[
        Optional[list[str]],
        typer.Argument(
            metavar="GAME", help="Games to compile (see 'balance games'); default: every installed game.",
            show_default=False,
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Compile ahead what 'balance run' and the search player mc need (numba, cached on
    disk): about a minute a game, once; 'already compiled' when the cache is warm."""
    from balance.api import games_to_warm, warmup as api_warmup

    names = games_to_warm(games)  # every name checked before anything compiles
    done = []
    for name in names:
        result = api_warmup(name)
        done.append(result)
        if not as_json:
            sys.stdout.write(result.line() + "\n")
            sys.stdout.flush()
    if as_json:
        print_json([r.to_dict() for r in done])
