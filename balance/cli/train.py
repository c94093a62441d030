"""``balance train``: a heuristic's parameters tuned against a field (balance.train)."""

from __future__ import annotations

import sys
from typing import Annotated, Any, Optional

import typer

from balance.cli.app import app
from balance.cli.common import (
    BoardOpt,
    GameArg,
    JsonOpt,
    ParamOpt,
    PlayerFileOpt,
    parse_count,
    print_json,
    stderr_console,
    stdout_console,
)


@app.command()
def train(
    game: GameArg = None,
    player: Annotated[str, typer.Option("--player", help="The heuristic to tune (its declared parameters), e.g. greedy.")] = "",
    against: Annotated[
        str, typer.Option("--against", help="Comma-separated players to beat, e.g. mc,fleet (parameters: fleet:reserve=2).")
    ] = "",
    trials: Annotated[int, typer.Option("--trials", help="Trials to complete (with --resume: in all). Default 40.")] = 40,
    games_per_trial: Annotated[
        str, typer.Option("--games-per-trial", help="Games against each opponent per trial (the same games every trial). Default 400.")
    ] = "400",
    seed: Annotated[int, typer.Option("--seed", help="Master seed of the tuning games (and of the sampler).")] = 0,
    space: Annotated[
        Optional[list[str]],
        typer.Option("--space", help="Narrow a parameter: NAME=LOW..HIGH, NAME=A,B,C or NAME=VALUE (held). Repeatable."),
    ] = None,
    confirm_top: Annotated[
        int, typer.Option("--confirm-top", help="Best trials played again on fresh games. Default 3.")
    ] = 3,
    confirm_games: Annotated[
        Optional[str], typer.Option("--confirm-games", help="Games per opponent on the fresh seed. Default 4 x --games-per-trial.")
    ] = None,
    param: ParamOpt = None,
    board: BoardOpt = None,
    player_file: PlayerFileOpt = None,
    out: Annotated[Optional[str], typer.Option("--out", help="Run folder (default runs/<game>-train-<player>-<time>).")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue the training in --out (the same options; more --trials).")] = False,
    threads: Annotated[Optional[int], typer.Option("--threads", help="Threads to use (default: all cores).")] = None,
    scheduler: Annotated[
        Optional[str], typer.Option("--scheduler", help="Dask scheduler address tcp://HOST:PORT (optional extra).")
    ] = None,
    chunk: Annotated[Optional[int], typer.Option("--chunk", hidden=True, help="Games per task.")] = None,
    verbose: Annotated[bool, typer.Option("--verbose", help="Show Optuna's own log lines.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Tune a heuristic's parameters with Optuna (TPE) to win against --against: every trial on the same games,
    the study in --out/study.db (--resume continues), the best trials confirmed on fresh games; writes tuned.txt,
    tuned.json and report.html."""
    from balance.errors import UserError
    from balance.runspec import parse_param_assignments
    from balance.sweep import command_line
    from balance.train import Interrupted, train as run_training

    if not player.strip():
        raise UserError("--player: name the heuristic to tune, e.g. --player greedy")
    if not against.strip():
        raise UserError("--against: name the players to beat, e.g. --against mc,fleet")
    bar = _TrainProgress(trials)
    try:
        with bar:
            result = run_training(
                game or _default(),
                player=player,
                against=against,
                trials=trials,
                games_per_trial=parse_count(games_per_trial, "--games-per-trial"),
                seed=seed,
                space=space,
                confirm_top=confirm_top,
                confirm_games=None if confirm_games is None else parse_count(confirm_games, "--confirm-games"),
                params=parse_param_assignments(param or []),
                board=board,
                player_file=player_file,
                out=out,
                resume=resume,
                threads=threads,
                scheduler=scheduler,
                chunk=chunk,
                verbose=verbose,
                command=command_line() if "train" in sys.argv[1:] else None,
                on_games=bar.games,
                on_trial=bar.trial,
            )
    except Interrupted as exc:
        print(exc.message, file=sys.stderr)
        raise typer.Exit(130) from None
    if as_json:
        print_json({**result.to_dict(), "html": str(result.html) if result.html else None})
        return
    render(result)


def _default() -> str:
    from balance.config import default_game

    return default_game()


class _TrainProgress:
    """Trials done, the best so far and games/s on stderr (a terminal only)."""

    def __init__(self, trials: int) -> None:
        self.trials = trials
        self.enabled = sys.stderr.isatty()
        self._progress: Any = None
        self._task: Any = None
        self._games = 0

    def __enter__(self) -> "_TrainProgress":
        if self.enabled:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self._progress = Progress(
                TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[note]}"),
                TimeElapsedColumn(), console=stderr_console(), transient=True,
            )
            self._progress.start()
            self._task = self._progress.add_task("trials", total=self.trials, note="")
        return self

    def games(self, n: int) -> None:
        self._games += n
        if self._progress is not None:
            self._progress.update(self._task, note=self._note())

    def _note(self, best: str = "") -> str:
        self._best = best or getattr(self, "_best", "")
        return f"{self._best}  {self._games:,} games".strip()

    def trial(self, event: dict[str, Any]) -> None:
        if self._progress is None:
            return
        if event.get("phase") == "confirm":
            self._progress.update(self._task, description="confirming on fresh games", total=None,
                                  note=self._note())
            return
        best = f"best {100 * event['best']:.1f}% {event['best_label']}"
        self._progress.update(self._task, completed=event["done"], total=event["total"], note=self._note(best))

    def __exit__(self, *exc: Any) -> None:
        if self._progress is not None:
            self._progress.stop()


def render(result: Any) -> None:
    from rich.table import Table

    from balance import format as fmt

    con = stdout_console()
    f = result.figures
    w = f["winner"]
    con.print(
        f"{f['game']}: {f['player']} trained against {', '.join(f['field'])}: {f['trials']} trials of "
        f"{f['games_per_trial']:,} games per opponent (seed {f['seed']}), confirmed on {f['confirm_games']:,} "
        f"(seed {f['confirm_seed']})",
        markup=False,
    )
    con.print(f"tuned: {f['tuned']}", markup=False)
    table = Table(title=f"{f['tuned']} on fresh games (share of decided games, 95% Wilson)", title_justify="left")
    for col in ("opponent", "tuned wins", "n", "the default's share"):
        if col == "opponent":
            table.add_column(col, justify="left", overflow="fold")
        else:
            table.add_column(col, justify="right")
    default_vs = {m["opponent"]: m for m in f["default_against"]}
    for m in f["against"]:
        d = default_vs[m["opponent"]]
        table.add_row(m["opponent"], _cell(m, fmt), f"{m['n']:,}", _cell(d, fmt))
    d = f["against_default"]
    table.add_row(f"{d['opponent']} (untuned default)", _cell(d, fmt), f"{d['n']:,}", "")
    c = w["confirmed"]
    table.add_row("mean over the field", fmt.percent_ci_cell(c["rate"], c["ci95"]), f"{c['n']:,}",
                  _cell(next(r for r in f["confirmation"] if r["default"])["confirmed"], fmt))
    con.print(table)
    conf = Table(title="Confirmation: the best trials and the default on fresh games", title_justify="left")
    for col in ("setting", "trial", "tuning score", "confirmed", "overstated by"):
        if col == "setting":
            conf.add_column(col, justify="left", overflow="fold")  # a spec is copied from here: never cut
        else:
            conf.add_column(col, justify="right")
    for r in f["confirmation"]:
        t = r.get("tuning")
        conf.add_row(
            r["label"] + (" (default)" if r["default"] else ""), "–" if r["trial"] is None else str(r["trial"]),
            "–" if t is None else fmt.percent_ci_cell(t["rate"], t["ci95"]),
            fmt.percent_ci_cell(r["confirmed"]["rate"], r["confirmed"]["ci95"]),
            "–" if t is None else fmt.points(r["overstated_by"]) + " pts",
        )
    con.print(conf)
    for line in f["findings"]:
        con.print(f"- {line}", markup=False)
    con.print(f"{result.out}/tuned.txt · {result.out}/report.html · {result.elapsed_s:.1f} s", markup=False)


def _cell(m: dict[str, Any], fmt: Any) -> str:
    if m.get("mirror"):
        return "the same player"
    return fmt.percent_ci_cell(m["rate"], m["ci95"])
