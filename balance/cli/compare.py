"""``balance compare``: two rule sets on the same games, metric by metric."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from balance.cli.app import app
from balance.cli.common import GameProgress, JsonOpt, ParamOpt, interruptible, parse_count, print_json, show, stdout_console


@app.command()
def compare(
    files: Annotated[
        Optional[list[str]],
        typer.Argument(help="Rule files A.toml B.toml (balance.toml format); one file with --param, or none: the defaults."),
    ] = None,
    game: Annotated[Optional[str], typer.Option("--game", help="Game whose defaults are A (no rule file given).")] = None,
    param: ParamOpt = None,
    players: Annotated[
        Optional[list[str]],
        typer.Option("--players", help="Comma-separated players by seat; repeat to compare under several lists."),
    ] = None,
    games: Annotated[
        Optional[str], typer.Option("--games", "-n", help="Pairs of games (default: A's [game] games, else 100000).")
    ] = None,
    seed: Annotated[Optional[int], typer.Option("--seed", help="Master seed of both sides (default: A's, else 0).")] = None,
    rotate_seats: Annotated[
        Optional[bool], typer.Option("--rotate-seats/--no-rotate-seats", help="Play every seating equally often.")
    ] = None,
    seconds_per_turn: Annotated[
        Optional[float], typer.Option("--seconds-per-turn", help="Table time of a player turn (default: the game's).")
    ] = None,
    precision: Annotated[
        Optional[float],
        typer.Option("--precision", help="Play rounds until every seat's paired interval is at most ± this many points."),
    ] = None,
    max_games: Annotated[
        Optional[str], typer.Option("--max-games", help="Most pairs --precision may play (default 10000000).")
    ] = None,
    threads: Annotated[Optional[int], typer.Option("--threads", help="Threads to use (default: all cores).")] = None,
    scheduler: Annotated[
        Optional[str], typer.Option("--scheduler", help="Dask scheduler address tcp://HOST:PORT (optional extra).")
    ] = None,
    report: Annotated[
        Optional[str], typer.Option("--report", help="Write the HTML page, with FILE.json and FILE.md beside it.")
    ] = None,
    png: Annotated[
        Optional[str], typer.Option("--png", help="Write the picture of the paired differences (first players list) as a PNG.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Rules B against rules A on the same games (common random numbers): every metric of
    'balance check' under both, the paired difference with its 95% interval, Holm-adjusted."""
    from balance.errors import UserError
    from balance.rulecompare import compare as api_compare
    from balance.runspec import parse_param_assignments

    if report is not None:
        from balance.report.rulecompare import check_report

        check_report(report)
    if png is not None:
        from pathlib import Path

        if Path(png).is_dir():
            raise UserError(f"--png {png}: is a directory; give a file name such as differences.png")
        if Path(png).suffix.lower() != ".png":
            raise UserError(f"--png {png}: expected a file name ending in .png, such as differences.png")
    if precision is not None and games is not None:
        raise UserError("--games and --precision: choose one (--max-games caps a run to a precision)")
    n = parse_count(games) if games is not None else None
    cap = parse_count(max_games, "--max-games") if max_games is not None else None
    with GameProgress(n, "compare") as bar:
        result = interruptible(
            lambda: api_compare(
                files or [],
                game=game,
                params=parse_param_assignments(param or []),
                players=players,
                games=n,
                seed=seed,
                rotate_seats=rotate_seats,
                seconds_per_turn=seconds_per_turn,
                precision=precision,
                max_games=cap,
                threads=threads,
                scheduler=scheduler,
                progress=bar,
                on_start=bar.set_total,
            ),
            "nothing saved: 'balance compare' writes its report only when it has finished",
        )
    data = result.to_dict()
    if report is not None:
        from balance.report.rulecompare import write_report

        paths = write_report(result, report)
        data["report"] = {k: str(v) for k, v in paths.items()}
    if png is not None:
        from balance.report.rulecompare import write_png

        data["png"] = str(write_png(result, png))
    if as_json:
        print_json(data)
        return
    render(result)
    if png is not None:
        stdout_console().print(f"picture: {data['png']}", markup=False)
    if report is not None:
        stdout_console().print(
            f"report: {data['report']['html']} (numbers in {data['report']['json']}, Markdown in {data['report']['markdown']})",
            markup=False,
        )


def render(result) -> None:  # noqa: ANN001 (a CompareResult)
    from rich.table import Table

    from balance.report.rulecompare import FEEL_HEADER, HEADER, feel_notes, feel_table_rows, feel_title, how_text, table_rows

    con = stdout_console()
    a, b = result.sides
    con.print(f"[bold]{result.title}[/bold]: A = {a.source}; B = {b.source}")
    con.print(f"rules changed: {result.rules_text()}; seed {result.seed}", markup=False)
    for s in result.sections:
        for sentence in result.summary(s):
            con.print(sentence, markup=False)
        if s.rounds is not None:
            con.print(s.rounds.sentence(), markup=False)
        table = Table(title=f"{', '.join(s.players)}: {s.games:,} pairs of games (paired 95% intervals)", title_justify="left")
        for k, col in enumerate(HEADER):
            table.add_column(col, justify="left" if k in (0, 5) else "right")
        for row, cells in zip(s.rows, table_rows(s)):
            table.add_row(*cells, style="bold" if row.changed else None)
        show(con, table)
        if s.feel:
            feel = Table(title=feel_title(s), title_justify="left")
            for k, col in enumerate(FEEL_HEADER):
                feel.add_column(col, justify="left" if k in (0, 5) else "right")
            for row, cells in zip(s.feel, feel_table_rows(s)):
                feel.add_row(*cells, style="bold" if row.changed else None)
            show(con, feel)
            for note in feel_notes(s):
                con.print(note, markup=False, style="dim")
    for line in how_text(result):
        con.print(line, markup=False, style="dim")
    con.print(f"{sum(2 * s.games for s in result.sections):,} games in {result.elapsed_s:.2f} s")
