"""``balance init``, ``balance baseline`` and ``balance check`` (docs/ci.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from balance.cli.app import app
from balance.cli.common import (
    GameArg,
    GameProgress,
    JsonOpt,
    interruptible,
    parse_count,
    print_json,
    stderr_console,
)

ConfigOpt = Annotated[
    Path | None,
    typer.Option(
        "--config",
        "-c",
        help="Rule file to use (default: ./balance.toml when present).",
    ),
]
NoConfigOpt = Annotated[
    bool,
    typer.Option(
        "--no-config",
        help="Ignore ./balance.toml: use each baseline's recorded rules over today's defaults.",
    ),
]
ThreadsOpt = Annotated[
    int | None, typer.Option("--threads", help="Threads to use (default: all cores).")
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        help="Dask scheduler address (default: [cluster] scheduler of balance.toml).",
    ),
]


@app.command()
def init(
    game: Annotated[str, typer.Argument(help="Game name (see 'balance games').")],
    output: Annotated[
        Path, typer.Option("--output", "-o", help="File to write.")
    ] = Path("balance.toml"),
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite an existing file.")
    ] = False,
) -> None:
    """Write a starter balance.toml: every rule parameter at its default, example targets on the
    game's scale (from a short run of its defaults), check settings."""
    from balance.config import INIT_GAMES
    from balance.config import init as api_init

    path = api_init(game, output, force=force)
    typer.echo(
        f"wrote {path} (example targets from {INIT_GAMES:,} games of the defaults): edit [params] and "
        "[targets]; 'balance run' plays it, then 'balance baseline' and 'balance check'"
    )


@app.command()
def baseline(
    game: GameArg = None,
    config: ConfigOpt = None,
    no_config: NoConfigOpt = False,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="Baseline file (default: reports/baselines/GAME.json).",
        ),
    ] = None,
    games: Annotated[
        str | None,
        typer.Option("--games", "-n", help="Games to play (default: [game] games)."),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Master seed (default: [game] seed).")
    ] = None,
    players: Annotated[
        str | None, typer.Option("--players", help="Comma-separated players by seat.")
    ] = None,
    update: Annotated[
        bool,
        typer.Option(
            "--update",
            help="Record every baseline in reports/baselines/ again from its own configuration.",
        ),
    ] = False,
    threads: ThreadsOpt = None,
    scheduler: SchedulerOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Play the rule file's configuration and record every metric as a baseline (JSON)."""
    from balance.check import baseline as api_baseline
    from balance.check import update as api_update
    from balance.errors import UserError

    if update:
        given = [
            name
            for name, v in (
                ("GAME", game),
                ("--output", output),
                ("--games", games),
                ("--seed", seed),
                ("--players", players),
            )
            if v is not None
        ]
        if given:
            raise UserError(
                f"--update re-records each baseline as it was configured; drop {', '.join(given)}"
            )
        with GameProgress(None, "baselines") as bar:
            done = interruptible(
                lambda: api_update(
                    config=config,
                    use_config=not no_config,
                    threads=threads,
                    scheduler=scheduler,
                    progress=bar,
                    on_start=bar.set_total,
                ),
                "the baselines recorded so far are written; the others unchanged",
            )
        if as_json:
            print_json([b.to_dict() for b in done])
        for b in done:
            _said(b, as_json)
        return
    n = parse_count(games) if games is not None else None
    with GameProgress(n, "baseline") as bar:
        b = interruptible(
            lambda: api_baseline(
                game,
                config=config,
                use_config=not no_config,
                games=n,
                seed=seed,
                players=players,
                output=output,
                threads=threads,
                scheduler=scheduler,
                progress=bar,
                on_start=bar.set_total,
            ),
            "nothing written (a baseline is written once all its games are played)",
        )
    if as_json:
        print_json(b.to_dict())
    _said(b, as_json)


def _said(b, as_json: bool) -> None:
    cfg = b.data["config"]
    line = (
        f"wrote {b.path}: {b.game}, {cfg['games']:,} games, seed {cfg['seed']}, players {', '.join(cfg['players'])} "
        f"({b.data['elapsed_s']:.1f} s)"
    )
    if as_json:
        stderr_console().print(line, markup=False)
    else:
        typer.echo(line)


@app.command()
def check(
    baselines: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Baseline files (default: every reports/baselines/*.json)."
        ),
    ] = None,
    config: ConfigOpt = None,
    no_config: NoConfigOpt = False,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", help="Play other games than the baseline's (independent samples)."
        ),
    ] = None,
    markdown: Annotated[
        bool,
        typer.Option(
            "--markdown", help="Print a Markdown table for a pull-request comment."
        ),
    ] = False,
    junit: Annotated[
        Path | None, typer.Option("--junit", help="Also write JUnit XML to this file.")
    ] = None,
    html: Annotated[
        Path | None,
        typer.Option("--html", help="Also write a self-contained HTML page (verdicts with intervals) to this file."),
    ] = None,
    threads: ThreadsOpt = None,
    scheduler: SchedulerOpt = None,
    sequential: Annotated[
        bool,
        typer.Option("--sequential", help="Play in looks; stop once the verdict is certain (false alarms still at alpha)."),
    ] = False,
    looks: Annotated[int | None, typer.Option("--looks", help="Looks of --sequential (default 4).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Replay each baseline's games with today's code and rules; exit 1 on a regression or failed target."""
    from balance.check import check as api_check
    from balance.errors import UserError

    if markdown and as_json:
        raise UserError("--markdown and --json: choose one")
    if looks is not None and not sequential:
        raise UserError("--looks goes with --sequential")
    if html is not None:
        from balance.report.run import check_out

        check_out(html, "--html", "check.html")
    with GameProgress(None, "check") as bar:
        report = interruptible(
            lambda: api_check(
                baselines or None,
                config=config,
                use_config=not no_config,
                seed=seed,
                threads=threads,
                scheduler=scheduler,
                progress=bar,
                on_start=bar.set_total,
                sequential=(looks or 4) if sequential else None,
            ),
            "no verdict: the check stopped before every baseline was replayed (nothing written)",
        )
    if junit is not None:
        junit.parent.mkdir(parents=True, exist_ok=True)
        junit.write_text(report.to_junit(), encoding="utf-8")
    if html is not None:
        from balance.store import atomic_write_bytes

        html.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(html, report.to_html().encode("utf-8"))
    if as_json:
        print_json(report.to_dict())
    elif markdown:
        typer.echo(report.to_markdown())
    else:
        typer.echo(report.to_text(), nl=False)
    if report.exit_code:
        # SystemExit, not typer.Exit: under standalone_mode=False click returns an Exit's code
        # instead of raising it, and main() would exit 0.
        raise SystemExit(report.exit_code)
