"""Listings: ``balance games``, ``params``, ``players``, ``events`` and ``board``."""

from __future__ import annotations

import sys
from typing import Annotated, Any, Optional

import typer

from balance.cli.app import app
from balance.cli.common import (
    BoardOpt,
    GameArg,
    JsonOpt,
    PlayerFileOpt,
    blocks,
    fits,
    game_name,
    print_json,
    stdout_console,
)


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

    con = stdout_console()
    table = Table(title=f"{spec.title}: rule parameters", title_justify="left", show_lines=True)
    for col in ("name", "type", "default", "allowed", "meaning", "source"):
        table.add_column(col, no_wrap=col in ("name", "type", "default"))
    for r in rows:
        table.add_row(r["name"], r["type"], _shown(r["default"]), r["allowed"], r["meaning"], r["source"])
    if con.width > COMPACT_WIDTH and fits(con, table):
        con.print(table)
        return
    # Piped or narrow: a block per parameter, its text wrapped at spaces (never a name or number cut).
    blocks(con, f"{spec.title}: rule parameters", [
        (f"{r['name']} = {_shown(r['default'])}", f"({r['type']}: {r['allowed']})",
         [(r["meaning"], ""), (f"source: {r['source']}", "dim")])
        for r in rows
    ])


@app.command()
def events(
    game: GameArg = None,
    as_json: JsonOpt = False,
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Every game's events as the Markdown page docs/events.md.")
    ] = False,
) -> None:
    """A game's trace events (what 'balance trace' writes): each event, its fields and what they mean."""
    from balance.errors import UserError
    from balance.registry import game_names, get_game

    if markdown:
        if game is not None or as_json:
            raise UserError("--markdown writes every game's events: give no GAME and no --json")
        sys.stdout.write(events_markdown([get_game(g) for g in game_names()]))
        return
    spec = get_game(game_name(game))
    rows = _schema(spec)
    if as_json:
        print_json(rows)
        return
    con = stdout_console()
    blocks(con, f"{spec.title}: trace events ('balance trace {spec.name}'), after the setup event", [
        (r["event"], "", [(r["meaning"], ""), *[
            (f"{f['name']} ({f['kind']})" + (f": {f['meaning']}" if f["meaning"] else ""), "dim")
            for f in r["fields"]
        ]])
        for r in rows
    ])


def _schema(spec: Any) -> list[dict[str, Any]]:
    from balance.errors import UserError

    declared = spec.events
    if declared is None:
        raise UserError(f"{spec.name} decodes its trace by hand: it declares no events (docs/adding-a-game.md, 7)")
    return declared.schema()


def events_markdown(specs: list[Any]) -> str:
    """docs/events.md: every game's declared events (``balance events --markdown``)."""
    out = [
        "# Trace events",
        "",
        "What `balance trace GAME` writes, game by game: after the `setup` event (the game,",
        "seed, rules, players and what a referee needs to replay it), one event per line.",
        "Every event carries `type` and `turn`. Generated from each game's declarations",
        "(`sims/GAME/events.py`) by `balance events --markdown > docs/events.md`; a test",
        "keeps this page equal to them. Field kinds: " + "; ".join(f"`{k}` {v}" for k, v in _kinds().items()) + ".",
        "",
    ]
    for spec in specs:
        if spec.events is None:
            continue
        out += [f"## {spec.title} (`{spec.name}`)", "", "| event | fields | meaning |", "|---|---|---|"]
        for r in _schema(spec):
            fields = "<br>".join(
                f"`{f['name']}` ({f['kind']})" + (f": {f['meaning']}" if f["meaning"] else "") for f in r["fields"]
            ) or "–"
            out.append(f"| `{r['event']}` | {fields} | {r['meaning']} |")
        out.append("")
    return "\n".join(out)


def _kinds() -> dict[str, str]:
    from balance.state import FIELD_KINDS

    return FIELD_KINDS


@app.command()
def players(game: GameArg = None, player_file: PlayerFileOpt = None, as_json: JsonOpt = False) -> None:
    """A game's players (built-in, and those of --player-file): what each does, whether
    it draws random numbers, and its own parameters (NAME:KEY=VALUE;KEY=VALUE)."""
    from balance.registry import get_game

    spec = get_game(game_name(game))
    found = list(spec.players)
    if player_file:
        from balance.playerfile import load_player_file

        found += list(load_player_file(player_file, spec))
    rows = [p.to_dict() for p in found]
    if as_json:
        print_json(rows)
        return
    from rich.table import Table

    con = stdout_console()
    table = Table(title=f"{spec.title}: players (default: {','.join(spec.default_players)})", title_justify="left")
    for col in ("name", "description", "random", "parameters", "source"):
        table.add_column(col, no_wrap=col == "name")
    for r in rows:
        params = ", ".join(f"{p['name']}={_shown(p['default'])}" for p in r["params"]) or "–"
        table.add_row(
            r["name"], r["description"], "yes" if r["stochastic"] else "no", params,
            "built-in" if r["builtin"] else "player file",
        )
    with_params = [r for r in rows if r["params"]]
    if con.width <= COMPACT_WIDTH or not fits(con, table):
        blocks(con, str(table.title), [
            (r["name"], f"({'draws random numbers' if r['stochastic'] else 'deterministic'}; "
             f"{'built-in' if r['builtin'] else 'player file'})",
             [(r["description"], ""),
              *([(", ".join(f"{p['name']}={_shown(p['default'])}" for p in r["params"]), "")] if r["params"] else [])])
            for r in rows
        ])
        _notes(con, rows)
        if with_params:
            blocks(con, "Player parameters (set them as NAME:KEY=VALUE;KEY=VALUE, e.g. in --players)", [
                (f"{r['name']}:{p['name']} = {_shown(p['default'])}", f"({p['allowed']})",
                 [(p["meaning"], ""), (f"source: {p['source']}", "dim")])
                for r in with_params for p in r["params"]
            ])
        return
    con.print(table)
    _notes(con, rows)
    if with_params:
        detail = Table(
            title="Player parameters (set them as NAME:KEY=VALUE;KEY=VALUE, e.g. in --players)", title_justify="left",
            show_lines=True,
        )
        for col in ("player", "parameter", "default", "allowed", "meaning", "source"):
            detail.add_column(col, no_wrap=col in ("player", "parameter", "default"))
        for r in with_params:
            for p in r["params"]:
                detail.add_row(
                    r["name"], p["name"], _shown(p["default"]), p["allowed"], p["meaning"], p["source"]
                )
        con.print(detail)


def _notes(con: Any, rows: list[dict[str, Any]]) -> None:
    """What was measured of a player (the search player's budget ladder)."""
    for r in rows:
        for note in r.get("notes") or ():
            con.print(f"{r['name']}: {note}", markup=False, soft_wrap=False)


COMPACT_WIDTH = 100  # at this width and below, parameter tables are printed a block per parameter


def _shown(value: object) -> str:
    from balance.format import format_value

    return format_value(value)


@app.command()
def board(
    game: GameArg = None,
    board_file: BoardOpt = None,
    svg: Annotated[
        Optional[str], typer.Option("--svg", help="Write the board as an SVG picture to this file (games that draw one).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """A game's board: drawn when the game draws itself, else its data (nodes and their adjacency)."""
    from balance.errors import UserError
    from balance.registry import get_game

    spec = get_game(game_name(game))
    data = spec.load_board(board_file)
    if svg is not None:
        from pathlib import Path

        picture = spec.board_svg(data)
        if picture is None:
            raise UserError(f"--svg: {spec.name} does not draw its board as a picture; try 'balance board {spec.name}'")
        target = Path(svg)
        if target.is_dir():
            raise UserError(f"--svg {svg}: is a directory; give a file name such as board.svg")
        from balance.store import atomic_write_bytes

        try:
            atomic_write_bytes(target, picture.encode("utf-8"))
        except OSError as exc:
            raise UserError(f"--svg {svg}: cannot write the picture there ({exc.strerror or exc})") from None
        stdout_console().print(f"wrote {target}", markup=False)
        return
    if as_json:
        print_json(spec.board_json(data))
        return
    con = stdout_console()
    text = spec.board_text(data)
    if text is not None:
        con.print(text, markup=False, highlight=False, soft_wrap=True)
        return
    table = spec.board_json(data)
    nodes, adjacency = table.get("nodes"), table.get("adjacency")
    if not table:
        con.print(f"{spec.title}: no board data", markup=False)
        return
    if nodes is not None and adjacency is not None:
        arcs = sum(len(a) for a in adjacency)
        pairs = {frozenset((u, v)) for u, row in enumerate(adjacency) for v in row}
        links = f"{len(pairs)} links" if arcs == 2 * len(pairs) else f"{arcs} one-way links"
        con.print(f"{spec.title} board: {len(nodes)} nodes, {links}")
        for i, (name, nbrs) in enumerate(zip(nodes, adjacency)):
            con.print(f"{i:3d} {name:>8}: " + ", ".join(nodes[j] for j in nbrs))
    for key, value in table.items():
        if key not in ("nodes", "adjacency"):
            con.print(f"{key}: {value}")
