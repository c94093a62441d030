"""``balance tune``: rule values that meet the targets for every line-up (balance.tune)."""

from __future__ import annotations

import sys
from typing import Annotated, Any, Optional

import typer

from balance.cli.app import app
from balance.cli.common import (
    BoardOpt, GameArg, JsonOpt, PlayerFileOpt, interruptible, parse_count, print_json, stderr_console, stdout_console,
)


@app.command()
def tune(
    game: GameArg = None,
    param: Annotated[
        Optional[list[str]],
        typer.Option("--param", "-p", help="A rule to search, NAME=LOW..HIGH or NAME=A,B,C, or to hold, NAME=VALUE "
                                          "(repeatable)."),
    ] = None,
    target: Annotated[
        Optional[list[str]],
        typer.Option("--target", help="A goal NAME=LOW..HIGH: seat_win_rate, strategy_win_rate, no_winner_rate, "
                                      "turns_median, turns_p90, turns_mean, end_reason.NAME (repeatable; default: "
                                      "[targets] of ./balance.toml)."),
    ] = None,
    players: Annotated[
        Optional[list[str]],
        typer.Option("--players", help="A line-up by seat, e.g. greedy,greedy; repeat for several: the answer must "
                                       "hold for every one."),
    ] = None,
    trials: Annotated[int, typer.Option("--trials", help="Trials to complete (with --resume: in all). Default 30.")] = 30,
    rungs: Annotated[
        str, typer.Option("--rungs", help="Games per line-up at each rung of successive halving. Default 100,400,1600.")
    ] = "100,400,1600",
    seed: Annotated[int, typer.Option("--seed", help="Master seed of the tuning games (and of the sampler).")] = 0,
    confirm_top: Annotated[int, typer.Option("--confirm-top", help="Best settings played again on fresh games. "
                                                                    "Default 2.")] = 2,
    confirm_games: Annotated[
        str, typer.Option("--confirm-games", help="Games per line-up on the fresh seed. Default 6000.")
    ] = "6000",
    board: BoardOpt = None,
    player_file: PlayerFileOpt = None,
    out: Annotated[Optional[str], typer.Option("--out", help="Run folder (default runs/<game>-tune-<time>).")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue the tuning in --out (the same options; more "
                                                          "--trials).")] = False,
    threads: Annotated[Optional[int], typer.Option("--threads", help="Threads to use (default: all cores).")] = None,
    scheduler: Annotated[
        Optional[str], typer.Option("--scheduler", help="Dask scheduler address tcp://HOST:PORT (optional extra).")
    ] = None,
    chunk: Annotated[Optional[int], typer.Option("--chunk", hidden=True, help="Games per task.")] = None,
    verbose: Annotated[bool, typer.Option("--verbose", help="Show Optuna's own log lines.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Search rule values (Optuna TPE, multi-objective for several targets) that meet every --target for every
    --players line-up with 95% confidence: every trial on the same games, few games first and more for the
    promising (successive halving), the study in --out/study.db (--resume continues), the best confirmed on fresh
    games; writes tuned.json and report.html."""
    from balance.errors import UserError
    from balance.sweep import command_line
    from balance.tune import tune as run_tuning

    if not param:
        raise UserError("--param: give a rule to search, e.g. --param car_cost=6..16")
    counts = []
    for text in rungs.split(","):
        counts.append(parse_count(text, "--rungs"))
    bar = _TuneProgress(trials)
    with bar:
        result = interruptible(lambda: run_tuning(
            game or _default(),
            params=param,
            targets=target,
            players=players,
            trials=trials,
            rungs=counts,
            seed=seed,
            confirm_top=confirm_top,
            confirm_games=parse_count(confirm_games, "--confirm-games"),
            board=board,
            player_file=player_file,
            out=out,
            resume=resume,
            threads=threads,
            scheduler=scheduler,
            chunk=chunk,
            verbose=verbose,
            command=command_line() if "tune" in sys.argv[1:] else None,
            on_games=bar.games,
            on_trial=bar.trial,
        ), "nothing written")
    if as_json:
        print_json({**result.to_dict(), "html": str(result.html) if result.html else None})
        return
    render(result)


def _default() -> str:
    from balance.config import default_game

    return default_game()


class _TuneProgress:
    """Trials done, the best so far and the games played on stderr (a terminal only)."""

    def __init__(self, trials: int) -> None:
        self.trials = trials
        self.enabled = sys.stderr.isatty()
        self._progress: Any = None
        self._task: Any = None
        self._games = 0
        self._best = ""

    def __enter__(self) -> "_TuneProgress":
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
            self._progress.update(self._task, note=f"{self._best}  {self._games:,} games".strip())

    def trial(self, event: dict[str, Any]) -> None:
        if self._progress is None:
            return
        if event.get("phase") == "confirm":
            self._progress.update(self._task, description=f"confirming {event['settings']} on fresh games",
                                  completed=0, total=event["settings"] * event["games"])
            return
        self._best = f"best {event['best']:.2f} {event['best_label']}"
        self._progress.update(self._task, completed=event["done"], total=event["total"])

    def __exit__(self, *exc: Any) -> None:
        if self._progress is not None:
            self._progress.stop()


def render(result: Any) -> None:
    from rich.markup import escape
    from rich.table import Table

    from balance import format as fmt

    con = stdout_console()
    f = result.figures
    a = f["answer"]
    con.print(
        f"{f['game']}: {f['trials']} trials, {' / '.join(format(g, ',') for g in f['rungs'])} games per line-up by "
        f"rung (seed {f['seed']}); the best {len(f['confirmation'])} confirmed on {f['confirm_games']:,} fresh games "
        f"per line-up (seed {f['confirm_seed']}); {f['games_played']:,} games in all",
        markup=False,
    )
    word = "meets every target (95%)" if a["meets"] else "nearest miss (no setting meets every target)"
    con.print(f"{word}: {a['label']}", markup=False)
    table = Table(title=f"{a['label']} on fresh games", title_justify="left")
    for col in ("line-up", "figure", "value", "95% CI", "n", "target", "reading"):
        table.add_column(col, justify="left" if col in ("line-up", "figure", "reading") else "right",
                         overflow="fold")
    for x in a["figures"]:
        v, lo, hi = fmt.values(x["kind"], (x["value"], *x["ci95"]))
        blo, bhi = fmt.values(x["kind"], tuple(x["band"]))
        table.add_row(x["lineup"], escape(x["metric"]), v, f"{lo} to {hi}", f"{x['n']:,}", f"{blo} to {bhi}", x["reading"])
    con.print(table)
    for line in f["findings"]:
        con.print(f"- {line}", markup=False)
    con.print(f"{result.out}/tuned.json · {result.out}/report.html · {result.elapsed_s:.1f} s", markup=False)
