"""``balance sensitivity``: which rules matter for each headline metric (balance.sensitivity)."""

from __future__ import annotations

import sys
from typing import Annotated, Any, Optional

import typer

from balance.cli.app import app
from balance.cli.common import (
    BoardOpt, GameArg, JsonOpt, PlayerFileOpt, PlayersOpt, interruptible, parse_count, print_json, stderr_console,
    stdout_console,
)


@app.command()
def sensitivity(
    game: GameArg = None,
    param: Annotated[
        Optional[list[str]],
        typer.Option("--param", "-p", help="A parameter's range NAME=LOW..HIGH (or a set A,B,C), or NAME=VALUE to "
                                          "hold it; the others vary over their declared range (repeatable)."),
    ] = None,
    metric: Annotated[
        Optional[list[str]],
        typer.Option("--metric", help="A metric to explain (repeatable; default: first_seat_edge, turns_mean, each "
                                      "end reason's share, each player's win rate)."),
    ] = None,
    players: PlayersOpt = None,
    games: Annotated[str, typer.Option("--games", help="Games per point (the same games at every point). "
                                                       "Default 1000.")] = "1000",
    trajectories: Annotated[int, typer.Option("--trajectories", help="Morris trajectories. Default 10.")] = 10,
    sobol_n: Annotated[int, typer.Option("--sobol-n", help="Sobol base sample, a power of 2. Default 64.")] = 64,
    sobol_params: Annotated[int, typer.Option("--sobol-params", help="At most this many parameters get Sobol "
                                                                     "indices (0: none). Default 4.")] = 4,
    seed: Annotated[int, typer.Option("--seed", help="Master seed (of the games and the designs).")] = 0,
    span: Annotated[str, typer.Option("--span", help="Range of a parameter not given: local (half to twice its "
                                                     "current value, inside its allowed range) or allowed (its "
                                                     "whole declared range). Default local.")] = "local",
    board: BoardOpt = None,
    player_file: PlayerFileOpt = None,
    out: Annotated[Optional[str], typer.Option("--out", help="Run folder (default runs/<game>-sensitivity-<time>).")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue the run in --out (the same options).")] = False,
    threads: Annotated[Optional[int], typer.Option("--threads", help="Threads to use (default: all cores).")] = None,
    scheduler: Annotated[
        Optional[str], typer.Option("--scheduler", help="Dask scheduler address tcp://HOST:PORT (optional extra).")
    ] = None,
    chunk: Annotated[Optional[int], typer.Option("--chunk", hidden=True, help="Games per task.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Rank the rule parameters by their effect on each headline metric: each alone at the ends of its range
    (a tornado), Morris screening over all (SALib), Sobol first- and total-order indices for the few that matter,
    every point on the same games; writes sensitivity.json and report.html."""
    from balance.sensitivity import sensitivity as run_sensitivity
    from balance.sweep import command_line

    progress = _Progress()
    with progress:
        result = interruptible(lambda: run_sensitivity(
            game or _default(),
            params=param,
            metrics=metric,
            players=players,
            games=parse_count(games, "--games"),
            trajectories=trajectories,
            sobol_n=sobol_n,
            sobol_params=sobol_params,
            seed=seed,
            span=span,
            board=board,
            player_file=player_file,
            out=out,
            resume=resume,
            threads=threads,
            scheduler=scheduler,
            chunk=chunk,
            command=command_line() if "sensitivity" in sys.argv[1:] else None,
            on_plan=progress.plan,
            on_games=progress.games,
            on_point=progress.point,
        ), "nothing written")
    if as_json:
        print_json({**result.to_dict(), "html": str(result.html) if result.html else None})
        return
    render(result)


def _default() -> str:
    from balance.config import default_game

    return default_game()


class _Progress:
    """The cost up front (always, on stderr), then points and games as they finish (a terminal only)."""

    def __init__(self) -> None:
        self.enabled = sys.stderr.isatty()
        self._progress: Any = None
        self._task: Any = None
        self._phase = ""

    def __enter__(self) -> "_Progress":
        return self

    def plan(self, cost: dict[str, Any]) -> None:
        print(f"cost: {cost['oat']} one-at-a-time + {cost['morris']} Morris + at most {cost['sobol_at_most']} Sobol "
              f"points x {cost['games_per_point']:,} games = at most {cost['games_at_most']:,} games", file=sys.stderr)
        if self.enabled:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self._progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                      TimeElapsedColumn(), console=stderr_console(), transient=True)
            self._progress.start()
            self._task = self._progress.add_task("games", total=cost["games_at_most"])

    def games(self, n: int) -> None:
        if self._progress is not None:
            self._progress.advance(self._task, n)

    def point(self, event: dict[str, Any]) -> None:
        if self._progress is not None:
            self._progress.update(self._task, description=f"{event['phase']} {event['done']}/{event['total']} points")

    def __exit__(self, *exc: Any) -> None:
        if self._progress is not None:
            self._progress.stop()


def render(result: Any) -> None:
    from rich.markup import escape
    from rich.table import Table

    from balance.sensitivitypage import _num

    con = stdout_console()
    f = result.figures
    con.print(f"{f['game']}: {', '.join(f['players'])}; {f['points']:,} points x {f['games_per_point']:,} games "
              f"(seed {f['seed']})", markup=False)
    for m, d in f["metrics"].items():
        sob = {r["name"]: r for r in (d["sobol"] or {}).get("indices", [])} if d.get("sobol") else {}
        title = f"{m}: the parameters by Morris mu* (points for shares, turns for lengths; 95% bootstrap CI)"
        table = Table(title=escape(title), title_justify="left")
        for col in ("parameter", "mu*", "95% CI", "sigma", "S1 (95% CI)", "ST (95% CI)"):
            table.add_column(col, justify="left" if col == "parameter" else "right")
        for r in d["morris"][:8]:
            s = sob.get(r["name"])
            table.add_row(r["name"], _num(m, r["mu_star"]), f"{_num(m, r['ci95'][0])} to {_num(m, r['ci95'][1])}",
                          _num(m, r["sigma"]),
                          f"{s['S1']:.2f} ({s['S1_ci95'][0]:.2f} to {s['S1_ci95'][1]:.2f})" if s else "–",
                          f"{s['ST']:.2f} ({s['ST_ci95'][0]:.2f} to {s['ST_ci95'][1]:.2f})" if s else "–")
        con.print(table)
    for line in f["findings"]:
        con.print(f"- {line}", markup=False)
    con.print(f"{result.out}/sensitivity.json · {result.out}/report.html · {result.elapsed_s:.1f} s", markup=False)
