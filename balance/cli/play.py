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
    interruptible,
    parse_count,
    pct,
    print_json,
    show,
    stdout_console,
)


RunConfigOpt = Annotated[
    Optional[str],
    typer.Option("--config", "-c", help="Rule file to play (default: ./balance.toml when present and for this game)."),
]
RunNoConfigOpt = Annotated[
    bool, typer.Option("--no-config", help="Ignore ./balance.toml: the game's defaults and the options given only.")
]


@app.command()
def run(
    game: GameArg = None,
    games: Annotated[
        Optional[str],
        typer.Option(
            "--games", "-n", help="Number of games (1e6, 250k and 1_000_000 work). Default: [game] games, else 1000000."
        ),
    ] = None,
    players: PlayersOpt = None,
    param: ParamOpt = None,
    seed: Annotated[
        Optional[int], typer.Option("--seed", help="Master seed: same seed, same numbers. Default: [game] seed, else 0.")
    ] = None,
    board: BoardOpt = None,
    rotate_seats: Annotated[
        Optional[bool],
        typer.Option(
            "--rotate-seats/--no-rotate-seats",
            help="Play every seating of the players equally often (n distinct players: n! seatings, 720 for six).",
        ),
    ] = None,
    player_file: PlayerFileOpt = None,
    config: RunConfigOpt = None,
    no_config: RunNoConfigOpt = False,
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
    precision: Annotated[
        Optional[float],
        typer.Option("--precision", help="Play rounds until every seat's and player's 95% interval is at most ± this many points."),
    ] = None,
    max_games: Annotated[
        Optional[str], typer.Option("--max-games", help="Most games --precision may play (default 10000000).")
    ] = None,
    seconds_per_turn: Annotated[
        Optional[float],
        typer.Option("--seconds-per-turn", help="Table time of a player turn, for the length in minutes (default: the game's)."),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Play many games of one rule set: win rates, end reasons and game length, with 95% intervals.

    The rules, players, games and seed come from ./balance.toml when there is one
    (see 'balance init'); every option given overrides the file."""
    from balance.runspec import parse_param_assignments
    from balance.api import run as api_run
    from balance.errors import UserError

    if report is not None:
        from balance.report.run import check_out

        check_out(report)
    if config is not None and no_config:
        raise UserError("--config and --no-config: choose one")
    if precision is not None and games is not None:
        raise UserError("--games and --precision: choose one (--max-games caps a run to a precision)")
    n = parse_count(games) if games is not None else None
    cap = parse_count(max_games, "--max-games") if max_games is not None else None
    if cap is not None and precision is None:
        raise UserError("--max-games goes with --precision (without it, --games says how many games)")
    with GameProgress(n, f"{game or 'run'}") as bar:
        result = interruptible(
            lambda: api_run(
                game,
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
                config=config,
                use_config=not no_config,
                on_start=bar.set_total,
                precision=precision,
                max_games=cap,
                seconds_per_turn=seconds_per_turn,
            ),
            "nothing saved: 'balance run' keeps no results (a sweep with --out can be resumed)",
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


def describe_rules(data: dict[str, Any]) -> list[str]:
    """What was played besides the players: the rules that differ from the game's
    defaults, the board, the player file and the rule file (so that two different
    runs never read the same)."""
    from balance.format import format_value

    changed = data.get("params_changed") or {}
    if changed:
        rules = ", ".join(
            f"{k}={format_value(v['value'])} (default {format_value(v['default'])})" for k, v in changed.items()
        )
        lines = [f"rules: {rules}; every other rule at its default"]
    else:
        lines = ["rules: every rule at its default"]
    for key, label in (("board", "board"), ("player_file", "player file"), ("rule_file", "rule file")):
        if data.get(key):
            lines.append(f"{label}: {data[key]}")
    return lines


def render_run(data: dict[str, Any]) -> None:
    from rich.table import Table

    con = stdout_console()
    con.print(
        f"[bold]{data['game']}[/bold]: {data['games']:,} games, seed {data['seed']}, "
        f"players {', '.join(data['players'])}{' (seats rotated)' if data['rotate_seats'] else ''}"
        f"{' on the GPU' if data.get('device') == 'gpu' else ''}"
    )
    for line in describe_rules(data):
        con.print(line, markup=False, soft_wrap=True)
    seats = Table(title="Win rate by seat (95% Wilson interval)", title_justify="left")
    for col in ("seat", "player", "wins", "win rate (95% CI)"):
        seats.add_column(col, justify="right" if col != "player" else "left")
    for s in data["seats"]:
        seats.add_row(str(s["seat"]), s["player"], f"{s['wins']:,}", pct(s["win_rate"], s["ci95"]))
    nw = data["no_winner_rate"]
    seats.add_row("–", "no winner", f"{data['no_winner']:,}", pct(nw["rate"], nw["ci95"]))
    show(con, seats, keys=2)
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
        show(con, strat)
    reasons = Table(title="How games end", title_justify="left")
    for col in ("end reason", "games", "share (95% CI)"):
        reasons.add_column(col, justify="right" if col != "end reason" else "left")
    for name, count in data["end_reasons"].items():
        share = data["end_reason_shares"][name]
        reasons.add_row(name, f"{count:,}", pct(share["share"], share["ci95"]))
    show(con, reasons)
    for hole in data.get("holes") or ():
        con.print(f"[red]warning:[/red] {hole['message']}", soft_wrap=True)
    t = data["turns"]
    con.print(
        f"Game length in player turns (n={data['games']:,}): mean {t['mean']:.2f} ± {1.96 * t['mean_se']:.2f}, "
        f"median {t['median']}, p10 {t['p10']}, p90 {t['p90']}, max {t['max']}"
    )
    m = data.get("minutes")
    if m:
        con.print(
            f"Game length in minutes at {m['seconds_per_turn']:g} s a turn (n={data['games']:,}): mean {m['mean']:.1f} "
            f"(95% CI {m['mean_ci95'][0]:.1f}–{m['mean_ci95'][1]:.1f}), median {m['median']:.1f}, p90 {m['p90']:.1f} "
            f"({m['source']})",
            markup=False,
        )
    render_feel(con, data.get("feel"))
    con.print(f"{data['games']:,} games in {data['elapsed_s']:.2f} s: {data['games_per_second']:,.0f} games/s")
    if data.get("precision_note"):
        con.print(data["precision_note"], markup=False)
    if data.get("warning"):
        con.print(f"[yellow]note:[/yellow] {data['warning']}")


def render_feel(con: Any, feel: dict[str, Any] | None, title: str = "Game feel") -> None:
    """The game-feel table (balance.feel): each figure, its 95% interval, its games."""
    if not feel:
        return
    from rich.table import Table

    from balance.feel import rows

    table = Table(title=f"{title} (who is ahead: {feel['standing']}; 95% intervals)", title_justify="left")
    for col in ("figure", "value (95% CI)", "games"):
        table.add_column(col, justify="left" if col == "figure" else "right")
    for row in rows(feel, pct):
        table.add_row(*row)
    show(con, table)


@app.command()
def trace(
    game: GameArg = None,
    seed: Annotated[
        Optional[int], typer.Option("--seed", help="Master seed (default: [game] seed of ./balance.toml, else 0).")
    ] = None,
    game_index: Annotated[int, typer.Option("--game-index", help="Which game of the seed's sequence (0 = first).")] = 0,
    players: PlayersOpt = None,
    param: ParamOpt = None,
    board: BoardOpt = None,
    player_file: PlayerFileOpt = None,
    config: RunConfigOpt = None,
    no_config: RunNoConfigOpt = False,
    fmt: Annotated[str, typer.Option("--format", help="jsonl (default) or text (a readable replay).")] = "jsonl",
    state: Annotated[
        Optional[int],
        typer.Option("--state", help="Print the state, region by region, when decision N is asked (1 = the first)."),
    ] = None,
    static: Annotated[
        bool, typer.Option("--static", help="With --state: the rules and board regions too.")
    ] = False,
) -> None:
    """One game, event by event, as JSON Lines (or a readable replay with --format text),
    or its state at one decision (--state N); the rules of ./balance.toml like
    'balance run', the options given overriding them."""
    import json

    from balance.runspec import parse_param_assignments
    from balance.api import trace as api_trace
    from balance.errors import UserError

    if fmt not in ("jsonl", "text"):
        raise UserError(f"--format {fmt!r}: allowed: jsonl, text")
    if config is not None and no_config:
        raise UserError("--config and --no-config: choose one")
    if static and state is None:
        raise UserError("--static shows more of a --state: give --state N")
    if state is not None:
        from balance.api import state_at

        at = state_at(
            game, state, seed=seed, game_index=game_index, players=players,
            params=parse_param_assignments(param or []), board=board, player_file=player_file, config=config,
            use_config=not no_config, static=static,
        )
        sys.stdout.write(
            f"{at['game']}, game {at['game_index']} of seed {at['seed']}, decision {at['decision']} "
            f"(turn {at['turn']}): seat {at['seat']} ({at['player']}) is asked a decision of kind {at['kind']} "
            f"about {at['subject']}\n" + at["text"]
        )
        return
    events = api_trace(
        game,
        seed=seed,
        game_index=game_index,
        players=players,
        params=parse_param_assignments(param or []),
        board=board,
        player_file=player_file,
        config=config,
        use_config=not no_config,
    )
    if fmt == "jsonl":
        for event in events:
            sys.stdout.write(json.dumps(event, separators=(",", ":")) + "\n")
    else:
        from balance.textreplay import replay_text

        sys.stdout.write(replay_text(events))
