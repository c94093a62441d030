"""``balance tournament``: players against each other, rated (balance.tournaments)."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from balance.cli.app import app
from balance.cli.common import (
    BoardOpt,
    GameArg,
    GameProgress,
    JsonOpt,
    ParamOpt,
    PlayerFileOpt,
    interruptible,
    parse_count,
    print_json,
    show,
    stdout_console,
)


@app.command()
def tournament(
    game: GameArg = None,
    players: Annotated[
        str,
        typer.Option(
            "--players",
            help="Comma-separated players to rate, e.g. greedy,fleet,nearest,mc (parameters: greedy:reserve=3;x=1).",
        ),
    ] = "",
    games: Annotated[str | None, typer.Option("--games", "-n", help="Games per table (1e4, 20k). Default 20000.")] = None,
    seats: Annotated[
        int | None,
        typer.Option("--seats", help="Seats per table (default: the game's fewest); above 2, every table of that many distinct players."),
    ] = None,
    param: ParamOpt = None,
    seed: Annotated[int, typer.Option("--seed", help="Master seed: game g is the same deal at every table.")] = 0,
    board: BoardOpt = None,
    player_file: PlayerFileOpt = None,
    out: Annotated[str | None, typer.Option("--out", help="Tournament directory (default runs/<game>-tournament-<time>).")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue the tournament in --out, skipping finished tables.")] = False,
    no_seat_tables: Annotated[
        bool, typer.Option("--no-seat-tables", help="Skip the tables with one player in every seat (the seat effect).")
    ] = False,
    threads: Annotated[int | None, typer.Option("--threads", help="Threads to use (default: all cores).")] = None,
    scheduler: Annotated[
        str | None, typer.Option("--scheduler", help="Dask scheduler address tcp://HOST:PORT (optional extra).")
    ] = None,
    chunk: Annotated[int | None, typer.Option("--chunk", hidden=True, help="Games per task.")] = None,
    stallers: Annotated[
        bool,
        typer.Option("--stallers", help="Add the game's stalling players (GameSpec.stallers): do the rules let a player "
                     "keep a game from ending?"),
    ] = False,
    precision: Annotated[
        float | None,
        typer.Option("--precision", help="Play rounds of the same games at every table until each seat's and player's "
                     "95% interval is at most ± this many points."),
    ] = None,
    max_games: Annotated[
        str | None, typer.Option("--max-games", help="Most games per table --precision may play (default 10000000).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Rate players: every pairing with seats rotated on the same games, a win-rate matrix, Bradley-Terry
    ratings with 95% intervals and the seat effect; writes report.html and report.json in --out."""
    from balance.runspec import parse_param_assignments
    from balance.sweep import command_line
    from balance.tournaments import tournament as play_tournament

    if not players.strip():
        from balance.errors import UserError

        raise UserError("--players: name at least 2 players to rate, e.g. --players greedy,fleet,mc")
    if precision is not None and games is not None:
        from balance.errors import UserError

        raise UserError("--games and --precision: choose one (--max-games caps a run to a precision)")
    name = game or _default()
    with GameProgress(None, f"{name}: tournament") as bar:
        result = interruptible(lambda: play_tournament(
            name,
            players=players,
            games=parse_count(games) if games is not None else 20_000,
            seats=seats,
            seed=seed,
            params=parse_param_assignments(param or []),
            board=board,
            player_file=player_file,
            out=out,
            resume=resume,
            seat_tables=not no_seat_tables,
            threads=threads,
            scheduler=scheduler,
            chunk=chunk,
            progress=bar,
            command=command_line() if "tournament" in sys.argv[1:] else None,
            on_start=bar.set_total,
            stallers=stallers,
            precision=precision,
            max_games=parse_count(max_games, "--max-games") if max_games is not None else None,
        ), "the tables are saved in --out as they finish: --resume continues")
    if as_json:
        print_json({**result.to_dict(), "out": str(result.out), "html": str(result.html) if result.html else None})
        return
    render(result)
    done = result.manifest.get("precision")
    if done:
        last = done["rounds"][-1]
        stdout_console().print(
            f"--precision {precision:g}: " + ("every table's seat and player intervals at most" if done["reached"]
                                              else "not reached: widest")
            + f" ±{last['widest_half_width_points']:.2f} points after {last['games']:,} games per table in "
            f"{len(done['rounds'])} rounds", markup=False)


def _default() -> str:
    from balance.config import default_game

    return default_game()


def render(result: Any) -> None:
    from rich.table import Table

    from balance import format as fmt
    from balance.tournaments import findings

    con = stdout_console()
    f = result.figures
    m = result.manifest
    con.print(
        f"{m['game']}: {len(f['players'])} players, {m['seats']} seats, {m['games']:,} games per table, "
        f"seed {m['seed']}, seats rotated",
        markup=False,
    )
    table = Table(title="Ratings (Bradley-Terry, Elo scale, 95% interval)", title_justify="left")
    for col in ("player", "rating", "95% interval", "win rate (all its games)", "games"):
        table.add_column(col, justify="left" if col == "player" else "right")
    overall = {o["player"]: o for o in f["overall"]}
    for r in f["ratings"]:
        o = overall[r["player"]]
        table.add_row(
            r["player"], f"{r['elo']:+.0f}", f"{r['ci95'][0]:+.0f} to {r['ci95'][1]:+.0f}",
            fmt.percent_ci_cell(o["rate"], o["ci95"]), f"{o['n']:,}",
        )
    show(con, table)
    matrix = Table(title="Row player's win rate against the column player (decided games, 95% Wilson)", title_justify="left")
    matrix.add_column("")
    for b in f["players"]:
        matrix.add_column(b, justify="right")
    for a, row in zip(f["players"], f["matrix"]):
        matrix.add_row(a, *("–" if c is None else fmt.percent_ci_cell(c["rate"], c["ci95"]) for c in row))
    show(con, matrix, label="against {}")
    if f["seat_effect"]:
        seats = Table(title="Seat effect: the same player in every seat (95% Wilson)", title_justify="left")
        seats.add_column("player")
        for s in range(m["seats"]):
            seats.add_column(f"seat {s}", justify="right")
        seats.add_column("no winner", justify="right")
        for e in f["seat_effect"]:
            seats.add_row(
                e["player"], *(fmt.percent_ci_cell(c["rate"], c["ci95"]) for c in e["seats"]),
                fmt.percent_ci_cell(e["no_winner"]["rate"], e["no_winner"]["ci95"]),
            )
        show(con, seats)
    if f.get("feel"):
        feel = Table(title=f"Game feel by table (who is ahead: {f['feel'][0]['feel']['standing']}; 95% intervals)",
                     title_justify="left")
        for col in ("table", "P(win | leading at half)", "comeback", "lead changes", "games"):
            feel.add_column(col, justify="left" if col == "table" else "right")
        for row in f["feel"]:
            g = row["feel"]
            half, back, changes = g["lead_wins"][1], g["comeback"], g["lead_changes"]
            name = " vs ".join(row["players"]) if row["kind"] == "match" else f"{row['players'][0]} in every seat"
            feel.add_row(
                name, fmt.percent_ci_cell(half["rate"] or 0.0, half["ci95"]), fmt.percent_ci_cell(back["rate"] or 0.0, back["ci95"]),
                f"{changes['mean']:.2f} ({changes['ci95'][0]:.2f} to {changes['ci95'][1]:.2f})", f"{g['games']:,}",
            )
        show(con, feel)
    for line in findings(m, f):
        con.print(f"- {line}", markup=False)
    con.print(f"{result.out}/report.html · {result.out}/report.json · {result.elapsed_s:.1f} s", markup=False)
