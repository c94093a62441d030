"""``balance sweep`` and ``balance report``: thin wrappers over :mod:`balance.sweep`
and :mod:`balance.report`."""

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
    PlayerFileOpt,
    interruptible,
    parse_count,
    pct,
    fits,
    print_json,
    records,
    stdout_console,
)

SpecOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--param",
        "-p",
        help="NAME=SPEC (repeatable; several make the full grid). SPEC: 8..14, 8..14:2, 0.25..0.5:0.05, 8,10,12 or 9.",
    ),
]


@app.command()
def sweep(
    game: GameArg = None,
    param: SpecOpt = None,
    games: Annotated[
        str | None, typer.Option("--games", "-n", help="Games per point (1e6, 250k, 1_000_000). Default 1000000.")
    ] = None,
    players: Annotated[
        list[str] | None,
        typer.Option(
            "--players",
            help="Comma-separated players by seat (greedy,fleet); repeat it to play the grid once per list "
            "and compare them (--players greedy,greedy --players mc,mc).",
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Master seed; game g has the same seed at every point. Default 0.")] = None,
    board: BoardOpt = None,
    rotate_seats: Annotated[
        bool | None, typer.Option(
            "--rotate-seats/--no-rotate-seats",
            help="Play every seating equally often (n distinct players: n! seatings, 720 for six).",
        )
    ] = None,
    player_file: PlayerFileOpt = None,
    out: Annotated[str | None, typer.Option("--out", help="Run directory (default runs/<game>-<timestamp>).")] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue the sweep in --out, skipping finished points (or start it).")
    ] = False,
    keep_games: Annotated[
        bool | None, typer.Option("--keep-games/--no-keep-games", help="Also store one row per game (big).")
    ] = None,
    max_points: Annotated[
        int | None, typer.Option("--max-points", help="Refuse grids with more points than this. Default 10000.")
    ] = None,
    config: Annotated[
        str | None, typer.Option("--config", help="Sweep file (TOML) with the same settings; flags win over it.")
    ] = None,
    report: Annotated[str | None, typer.Option("--report", help="Also write the HTML report (and FILE.json).")] = None,
    png: Annotated[str | None, typer.Option("--png", help="Also write the main figure as a PNG.")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Print the expanded grid and stop.")] = False,
    threads: Annotated[int | None, typer.Option("--threads", help="Threads to use (default: all cores).")] = None,
    scheduler: Annotated[
        str | None, typer.Option("--scheduler", help="Dask scheduler address tcp://HOST:PORT (optional extra).")
    ] = None,
    chunk: Annotated[int | None, typer.Option("--chunk", hidden=True, help="Games per task.")] = None,
    device: Annotated[
        str | None, typer.Option("--device", help="cpu (default), or gpu: a CUDA GPU (games with a GPU kernel; the same numbers).")
    ] = None,
    ladder: Annotated[
        bool,
        typer.Option("--ladder", help="Play the grid once for each player of the game's ladder in every seat (its best "
                     "heuristic, its trained one, mc) and say where a finding differs between them."),
    ] = False,
    seats: Annotated[
        int | None, typer.Option("--seats", help="Seats for --ladder (default: the game's default table).")
    ] = None,
    precision: Annotated[
        float | None,
        typer.Option("--precision", help="Play rounds of the same games at every point until each seat's and "
                     "player's 95% interval is at most ± this many points."),
    ] = None,
    max_games: Annotated[
        str | None, typer.Option("--max-games", help="Most games per point --precision may play (default 10000000).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Play a grid of rule variants (same seeds at every point) and store the counts; see docs/sweeps.md."""
    from balance.errors import UserError
    from balance.runspec import parse_param_assignments
    from balance.sweep import check_sweep_precision, command_line, finish, ladder_sets, plan

    cap = parse_count(max_games, "--max-games") if max_games is not None else None
    check_sweep_precision(precision, cap, several=ladder or (players is not None and len(players) > 1),
                          resume=resume, keep_games=bool(keep_games), games=parse_count(games) if games else None)
    if ladder:
        if players:
            raise UserError("--ladder plays the game's ladder of players: leave out --players")
        players = ladder_sets(game, seats)
    elif seats is not None:
        raise UserError("--seats goes with --ladder (the players of --players give the seats)")
    if players is not None and len(players) > 1:
        return sweep_lists(
            game, players, dict(
                params=parse_param_assignments(param or []),
                games=parse_count(games) if games is not None else None,
                seed=seed, board=board, rotate_seats=rotate_seats, player_file=player_file, keep_games=keep_games,
                max_points=max_points, threads=threads, scheduler=scheduler, chunk=chunk, config=config,
                device=device,
            ), out, resume, report, png, dry_run, as_json,
        )
    the_plan = plan(
        game,
        params=parse_param_assignments(param or []),
        games=parse_count(games) if games is not None else None,
        players=players[0] if players else None,
        seed=seed,
        board=board,
        rotate_seats=rotate_seats,
        player_file=player_file,
        out=out,
        resume=resume,
        keep_games=keep_games,
        max_points=max_points,
        threads=threads,
        scheduler=scheduler,
        chunk=chunk,
        config=config,
        report=report,
        png=png,
        command=command_line() if "sweep" in sys.argv[1:] else None,
        device=device,
    )
    the_plan.precision, the_plan.max_games = precision, cap
    if as_json and dry_run:
        print_json({"dry_run": True, **the_plan.to_dict()})
        return
    text = "\n".join(the_plan.describe())
    if as_json:
        print(text, file=sys.stderr)
    else:
        stdout_console().print(text, markup=False)
    if dry_run:
        return
    n_points = the_plan.n_points
    if precision is not None:
        stdout_console().print(f"--precision {precision:g}: rounds of the same games at every point "
                               "(the games above are not a limit)", markup=False)
    with GameProgress(the_plan.pending_games, f"{the_plan.game}: point {len(the_plan.done)}/{n_points}") as bar:
        result = interruptible(
            lambda: finish(
                the_plan,
                progress=bar,
                on_point=lambda done, total: bar.set_description(f"{the_plan.game}: point {done}/{total}"),
            ),
            f"the points are saved in {the_plan.out} as they finish: --resume continues",
        )
    if as_json:
        print_json(result.to_dict())
    else:
        render_sweep(result)
        done = result.manifest.get("precision")
        if done:
            last = done["rounds"][-1]
            stdout_console().print(
                f"--precision {precision:g}: " + (
                    "every point's seat and player intervals at most" if done["reached"] else "not reached: widest"
                ) + f" ±{last['widest_half_width_points']:.2f} points after {last['games']:,} games per point in "
                f"{len(done['rounds'])} rounds", markup=False)


def sweep_lists(
    game: str | None, lists: list[str], kwargs: dict[str, Any], out: str | None, resume: bool,
    report: str | None, png: str | None, dry_run: bool, as_json: bool,
) -> None:
    """``--players`` given several times: the same grid for each list, one report comparing them."""
    from balance.sweep import command_line, finish, set_plans, write_set_manifest

    command = command_line() if "sweep" in sys.argv[1:] else None
    folder, plans = set_plans(game, lists, out=out, resume=resume, command=command, **kwargs)
    if dry_run:
        if as_json:
            print_json({"dry_run": True, "out": str(folder), "runs": [p.to_dict() for p in plans]})
        else:
            for p in plans:
                stdout_console().print("\n".join(p.describe()), markup=False)
        return
    write_set_manifest(folder, plans, command)
    results = []
    total = sum(p.pending_games for p in plans)
    from balance.sweep import interrupted

    def play_all() -> None:
        try:
            for i, p in enumerate(plans):
                bar.set_description(f"{p.game}: players {i + 1}/{len(plans)} ({', '.join(p.players)})")
                results.append(finish(p, progress=bar))
        except KeyboardInterrupt:
            raise interrupted(plans, folder) from None

    with GameProgress(total, f"{plans[0].game}: players 1/{len(plans)}") as bar:
        interruptible(play_all, f"the points are saved in {folder} as they finish: --resume continues")
    written = None
    if report or png:
        from balance.report import report as write_report

        written = write_report(folder, report, png=png)
    if as_json:
        print_json({"out": str(folder), "runs": [r.to_dict() for r in results],
                    "report": str(written.html) if written and report else None})
        return
    for p, r in zip(plans, results):
        stdout_console().print(f"players {', '.join(p.players)}:", markup=False)
        render_sweep(r)
    if written is not None:
        for f in written.data["between_players"]:
            stdout_console().print(f"- {f['text']}", markup=False, soft_wrap=True)
        stdout_console().print(f"report: {written.html}", markup=False)


def render_sweep(result: Any) -> None:
    from rich.table import Table

    con = stdout_console()
    m = result.manifest
    swept = [a["name"] for a in m["axes"] if len(a["values"]) > 1]
    rows = result.figures()
    limit = 40
    from balance.format import format_value

    title = "Win rate by seat (95% Wilson interval)"
    key_names = swept or ["point"]

    def keys_of(row: dict[str, Any]) -> list[str]:
        return [format_value(row["params"][n]) for n in swept] if swept else [str(row["point"])]

    # A column per seat (up to four seats), else a row per seat; in a terminal too narrow
    # for either, one point at a time (balance.cli.common.show): never an interval cut.
    wide = Table(title=title, title_justify="left")
    for name in key_names:
        wide.add_column(name, justify="right")
    for s, name in enumerate(m["players"]):
        wide.add_column(f"seat {s}" + ("" if m["rotate_seats"] else f" {name}"), justify="right")
    wide.add_column("no winner", justify="right")
    wide.add_column("median turns", justify="right")
    for row in rows[:limit]:
        cells = [pct(s["win_rate"], s["ci95"]) for s in row["seats"]]
        nw = row["no_winner_rate"]
        wide.add_row(*keys_of(row), *cells, pct(nw["rate"], nw["ci95"]), str(row["turns"]["median"]))
    long = Table(title=title, title_justify="left")
    for name in key_names:
        long.add_column(name, justify="right")
    long.add_column("seat", justify="left")
    long.add_column("win rate (95% CI)", justify="right")
    long.add_column("median turns", justify="right")
    for row in rows[:limit]:
        keys = keys_of(row)
        nw = row["no_winner_rate"]
        seats = [
            (f"seat {s['seat']}" + ("" if m["rotate_seats"] else f" {s['player']}"), s["win_rate"], s["ci95"])
            for s in row["seats"]
        ]
        for k, (label, rate, ci) in enumerate([*seats, ("no winner", nw["rate"], nw["ci95"])]):
            first = k == 0
            long.add_row(
                *(keys if first else [""] * len(keys)), label, pct(rate, ci),
                str(row["turns"]["median"]) if first else "", end_section=k == len(seats),
            )
    # Five or six seats: a row per seat even where the columns would fit (they read badly).
    for layout in [wide, long] if len(m["players"]) <= 4 else [long]:
        if fits(con, layout):
            con.print(layout)
            break
    else:
        con.print(records(wide, keys=len(key_names)))
    if len(rows) > limit:
        con.print(f"… {len(rows) - limit:,} more points: see the report or balance.load('{result.out}')")
    rate = f", {result.games_played / result.elapsed_s:,.0f} games/s" if result.elapsed_s > 0 and result.games_played else ""
    con.print(
        f"{result.points_played:,} points played ({result.games_played:,} games in {result.elapsed_s:.1f} s{rate}); "
        f"results in {result.out}",
        markup=False,
    )
    if result.report:
        con.print(f"report: {result.report} (and {result.report.with_suffix('.json')})", markup=False)
    if result.png:
        con.print(f"figure: {result.png}", markup=False)


@app.command()
def report(
    run_dir: Annotated[str, typer.Argument(metavar="DIR", help="A run directory written by 'balance sweep'.")],
    output: Annotated[
        str | None, typer.Option("--output", "-o", help="HTML file to write (default DIR/report.html).")
    ] = None,
    png: Annotated[str | None, typer.Option("--png", help="Also write the main figure as a PNG.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report's numbers (the JSON twin) to stdout.")] = False,
) -> None:
    """Write the self-contained HTML balance report of a sweep (and its JSON twin)."""
    from balance.report import report as api_report

    result = api_report(run_dir, output, png=png)
    if as_json:
        print_json(result.data)
        return
    con = stdout_console()
    con.print(f"report: {result.html} (numbers in {result.json})", markup=False)
    if result.png:
        con.print(f"figure: {result.png}", markup=False)
    for f in result.data["findings"]:
        con.print(f"- {f['text']}", markup=False, soft_wrap=True)
