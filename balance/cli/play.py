"""``balance run`` and ``balance trace``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from balance.cli.app import app
from balance.cli.common import (
    BoardOpt,
    GameArg,
    GameProgress,
    JsonOpt,
    ParamOpt,
    PlayerFileOpt,
    PlayersOpt,
    SeedOpt,
    game_name,
    parse_count,
    pct,
    print_json,
    stdout_console,
)


@app.command()
def run(
    game: GameArg = None,
    games: Annotated[str, typer.Option("--games", "-n", help="Number of games (1e6, 250k and 1_000_000 work).")] = "1000000",
    players: PlayersOpt = None,
    param: ParamOpt = None,
    seed: SeedOpt = 0,
    board: BoardOpt = None,
    rotate_seats: Annotated[
        bool,
        typer.Option(
            "--rotate-seats",
            help="Play every seating of the players equally often (n distinct players: n! seatings, 720 for six).",
        ),
    ] = False,
    player_file: PlayerFileOpt = None,
    threads: Annotated[Optional[int], typer.Option("--threads", help="Threads to use (default: all cores).")] = None,
    scheduler: Annotated[
        Optional[str], typer.Option("--scheduler", help="Dask scheduler address tcp://HOST:PORT (optional extra).")
    ] = None,
    device: Annotated[
        str, typer.Option("--device", help="cpu, or gpu: a CUDA GPU (games with a GPU kernel; the same numbers).")
    ] = "cpu",
    report: Annotated[
        Optional[str], typer.Option("--report", help="Also write the run's HTML page (and FILE.json with its numbers).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Play many games of one rule set: win rates, end reasons and game length, with 95% intervals."""
    from balance.runspec import parse_param_assignments
    from balance.api import run as api_run

    if report is not None:
        from balance.report.run import check_out

        check_out(report)
    n = parse_count(games)
    with GameProgress(n, f"{game_name(game)}") as bar:
        result = api_run(
            game_name(game),
            games=n,
            players=players,
            params=parse_param_assignments(param or []),
            seed=seed,
            board=board,
            rotate_seats=rotate_seats,
            player_file=player_file,
            threads=threads,
            scheduler=scheduler,
            progress=bar,
            device=device,
        )
    data = result.to_dict()
    if report is not None:
        from balance.api import run_report
        from balance.sweep import command_line

        data["report"] = str(run_report(result, report, command=command_line() if "run" in sys.argv[1:] else None).html)
    if as_json:
        print_json(data)
    else:
        render_run(data)
        if report is not None:
            stdout_console().print(f"report: {data['report']} (numbers in {Path(data['report']).with_suffix('.json')})", markup=False)


def render_run(data: dict[str, Any]) -> None:
    from rich.table import Table

    con = stdout_console()
    changed = ""
    con.print(
        f"[bold]{data['game']}[/bold]: {data['games']:,} games, seed {data['seed']}, "
        f"players {', '.join(data['players'])}{' (seats rotated)' if data['rotate_seats'] else ''}{changed}"
        f"{' on the GPU' if data.get('device') == 'gpu' else ''}"
    )
    seats = Table(title="Win rate by seat (95% Wilson interval)", title_justify="left")
    for col in ("seat", "player", "wins", "win rate (95% CI)"):
        seats.add_column(col, justify="right" if col != "player" else "left")
    for s in data["seats"]:
        seats.add_row(str(s["seat"]), s["player"], f"{s['wins']:,}", pct(s["win_rate"], s["ci95"]))
    nw = data["no_winner_rate"]
    seats.add_row("–", "no winner", f"{data['no_winner']:,}", pct(nw["rate"], nw["ci95"]))
    con.print(seats)
    if data.get("seat_note"):
        con.print(f"[yellow]note:[/yellow] {data['seat_note']}")
    if len(data["strategies"]) > 1 or data["rotate_seats"]:
        strat = Table(title="Win rate by player (games it took part in)", title_justify="left")
        for col in ("player", "games", "wins", "win rate (95% CI)", "fair share"):
            strat.add_column(col, justify="right" if col != "player" else "left")
        for s in data["strategies"]:
            # a player's fair share: the seats it holds over the seats (2 of 4 seats: 50%)
            strat.add_row(s["player"], f"{s['games']:,}", f"{s['wins']:,}", pct(s["win_rate"], s["ci95"]),
                          f"{100 * s['fair_share']:.1f}%")
        con.print(strat)
    reasons = Table(title="How games end", title_justify="left")
    for col in ("end reason", "games", "share (95% CI)"):
        reasons.add_column(col, justify="right" if col != "end reason" else "left")
    for name, count in data["end_reasons"].items():
        share = data["end_reason_shares"][name]
        reasons.add_row(name, f"{count:,}", pct(share["share"], share["ci95"]))
    con.print(reasons)
    t = data["turns"]
    con.print(
        f"Game length in player turns (n={data['games']:,}): mean {t['mean']:.2f} ± {1.96 * t['mean_se']:.2f}, "
        f"median {t['median']}, p10 {t['p10']}, p90 {t['p90']}, max {t['max']}"
    )
    con.print(f"{data['games']:,} games in {data['elapsed_s']:.2f} s: {data['games_per_second']:,.0f} games/s")
    if data.get("warning"):
        con.print(f"[yellow]note:[/yellow] {data['warning']}")


@app.command()
def trace(
    game: GameArg = None,
    seed: SeedOpt = 0,
    game_index: Annotated[int, typer.Option("--game-index", help="Which game of the seed's sequence (0 = first).")] = 0,
    players: PlayersOpt = None,
    param: ParamOpt = None,
    board: BoardOpt = None,
    player_file: PlayerFileOpt = None,
    fmt: Annotated[str, typer.Option("--format", help="jsonl (default) or text (a readable replay).")] = "jsonl",
) -> None:
    """One game, event by event, as JSON Lines (or a readable replay with --format text)."""
    import json

    from balance.runspec import parse_param_assignments
    from balance.api import trace as api_trace
    from balance.errors import UserError

    if fmt not in ("jsonl", "text"):
        raise UserError(f"--format {fmt!r}: allowed: jsonl, text")
    events = api_trace(
        game_name(game),
        seed=seed,
        game_index=game_index,
        players=players,
        params=parse_param_assignments(param or []),
        board=board,
        player_file=player_file,
    )
    import sys

    if fmt == "jsonl":
        for event in events:
            sys.stdout.write(json.dumps(event, separators=(",", ":")) + "\n")
    else:
        from balance.textreplay import replay_text

        sys.stdout.write(replay_text(events))
