"""Listings: ``balance games``, ``params``, ``players`` and ``board``."""

from __future__ import annotations

from typing import Annotated

import typer

from balance.cli import app
from balance.cli.common import BoardOpt, GameArg, JsonOpt, PlayerFileOpt, game_name, print_json, stdout_console


@app.command()
def games(as_json: JsonOpt = False) -> None:
    """The games this installation can simulate."""
    from balance.registry import game_names, get_game

    rows = []
    for name in game_names():
        spec = get_game(name)
        rows.append(
            {
                "name": spec.name,
                "title": spec.title,
                "players": f"{spec.min_players}-{spec.max_players}",
                "summary": spec.summary,
                "rulebook": spec.rulebook,
            }
        )
    if as_json:
        print_json(rows)
        return
    from rich.table import Table

    table = Table()
    for col in ("name", "title", "players", "summary"):
        table.add_column(col)
    for r in rows:
        table.add_row(r["name"], r["title"], r["players"], r["summary"])
    stdout_console().print(table)


@app.command()
def params(game: GameArg = None, as_json: JsonOpt = False) -> None:
    """A game's rule parameters: type, default, allowed range, meaning and rulebook source."""
    from balance.registry import get_game

    spec = get_game(game_name(game))
    rows = [p.to_dict() for p in spec.params]
    if as_json:
        print_json(rows)
        return
    from rich.table import Table

    table = Table(title=f"{spec.title}: rule parameters", title_justify="left", show_lines=True)
    for col in ("name", "type", "default", "allowed", "meaning", "source"):
        table.add_column(col, overflow="fold")
    for r in rows:
        table.add_row(r["name"], r["type"], str(r["default"]), r["allowed"], r["meaning"], r["source"])
    stdout_console().print(table)


@app.command()
def players(game: GameArg = None, player_file: PlayerFileOpt = None, as_json: JsonOpt = False) -> None:
    """A game's players (built-in, and those of --player-file)."""
    from balance.registry import get_game

    spec = get_game(game_name(game))
    found = list(spec.players)
    if player_file:
        from balance.plugins import load_player_file

        found += list(load_player_file(player_file, spec))
    rows = [p.to_dict() for p in found]
    if as_json:
        print_json([{"name": r["name"], "description": r["description"]} for r in rows])
        return
    from rich.table import Table

    table = Table(title=f"{spec.title}: players (default: {','.join(spec.default_players)})", title_justify="left")
    for col in ("name", "description", "source"):
        table.add_column(col)
    for r in rows:
        table.add_row(r["name"], r["description"], "built-in" if r["builtin"] else "player file")
    stdout_console().print(table)


@app.command()
def board(game: GameArg = None, board_file: BoardOpt = None, as_json: JsonOpt = False) -> None:
    """A game's board: nodes (streets, fields) and their adjacency."""
    from balance.registry import get_game

    spec = get_game(game_name(game))
    data = spec.board_json(spec.load_board(board_file))
    if as_json:
        print_json(data)
        return
    con = stdout_console()
    nodes = data["nodes"]
    con.print(f"{spec.title} board: {len(nodes)} nodes, {sum(len(a) for a in data['adjacency']) // 2} links")
    for i, (name, nbrs) in enumerate(zip(nodes, data["adjacency"])):
        con.print(f"{i:3d} {name:>8}: " + ", ".join(nodes[j] for j in nbrs))
    for key, value in data.items():
        if key not in ("nodes", "adjacency"):
            con.print(f"{key}: {value}")
