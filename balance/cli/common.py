"""Options and output helpers shared by the commands."""

from __future__ import annotations

import json
import math
import sys
from typing import Annotated, Any, Optional

import typer

from balance.errors import UserError

GameArg = Annotated[
    Optional[str],
    typer.Argument(
        help="Game name (see 'balance games'); default: the game in ./balance.toml, else the first installed game."
    ),
]
PlayersOpt = Annotated[
    Optional[str], typer.Option("--players", help="Comma-separated player names by seat, e.g. greedy,fleet.")
]
ParamOpt = Annotated[
    Optional[list[str]], typer.Option("--param", "-p", help="Rule parameter NAME=VALUE (repeatable).")
]
SeedOpt = Annotated[int, typer.Option("--seed", help="Master seed: same seed, same numbers.")]
BoardOpt = Annotated[Optional[str], typer.Option("--board", help="Board file (TOML) instead of the default board.")]
PlayerFileOpt = Annotated[
    Optional[str], typer.Option("--player-file", help="Python file defining extra players (see examples/).")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON to stdout instead of a table.")]


def parse_count(text: str, option: str = "--games") -> int:
    """A positive whole number: ``1000000``, ``1_000_000``, ``1e6``, ``1M`` or ``250k``."""
    raw = text.strip().replace("_", "").replace(",", "")
    scale = 1
    if raw[-1:].lower() in ("k", "m"):
        scale = 1000 if raw[-1].lower() == "k" else 1_000_000
        raw = raw[:-1]
    try:
        value = float(raw) * scale
    except ValueError:
        raise UserError(f"{option} {text}: expected a whole number of at least 1 (e.g. 100000, 1e6, 250k)") from None
    if not math.isfinite(value) or value < 1 or not float(value).is_integer():
        raise UserError(f"{option} {text}: expected a whole number of at least 1 (e.g. 100000, 1e6, 250k)")
    return int(value)


class Stopped(Exception):
    """Ctrl-C during a command, with what was kept: carried past typer, which turns a
    KeyboardInterrupt into a silent exit 130; :func:`balance.cli.main` prints it."""


def interruptible(play: Any, kept: str) -> Any:
    """``play()``; Ctrl-C meanwhile stops it with one line saying what was kept: the
    library's own (:class:`balance.errors.Interrupted`), else ``kept``."""
    from balance.errors import Interrupted

    try:
        return play()
    except KeyboardInterrupt as exc:
        raise Stopped(str(exc) if isinstance(exc, Interrupted) and str(exc) else kept) from None


def game_name(game: str | None) -> str:
    from balance.config import default_game

    return game or default_game()


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, default=_json_default) + "\n")


def _json_default(value: Any) -> Any:
    import numpy as np

    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.ndarray):
        return value.tolist()
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


def stdout_console() -> Any:
    from rich.console import Console

    return Console(highlight=False)


def stderr_console() -> Any:
    from rich.console import Console

    return Console(stderr=True, highlight=False)


def pct(rate: float, ci: list[float] | tuple[float, float]) -> str:
    """A rate and its interval in percent for a table cell (balance.format's rule:
    enough decimals to tell a rare event, 0.038%, from none at all)."""
    from balance.format import percent_ci_cell

    return percent_ci_cell(rate, ci)


class GameProgress:
    """A rich progress bar on stderr counting games: done, games/s, time left.

    Used as a context manager; calling it with ``n`` adds ``n`` finished games.
    """

    def __init__(self, total: int, description: str = "games", enabled: bool = True) -> None:
        self.total = total
        self.description = description
        self.enabled = enabled and sys.stderr.isatty()
        self._progress: Any = None
        self._task: Any = None

    def __enter__(self) -> "GameProgress":
        if self.enabled:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[rate]}"),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                console=stderr_console(),
                transient=True,
            )
            self._progress.start()
            self._task = self._progress.add_task(self.description, total=self.total, rate="")
        return self

    def __call__(self, n: int) -> None:
        if self._progress is not None:
            self._progress.advance(self._task, n)
            task = self._progress.tasks[0]
            speed = task.speed
            self._progress.update(self._task, rate=f"{speed:,.0f} games/s" if speed else "")

    def set_total(self, total: int) -> None:
        """The number of games to play, once known (a resumed run plays fewer)."""
        self.total = total
        if self._progress is not None:
            self._progress.update(self._task, total=total)

    def set_description(self, text: str) -> None:
        if self._progress is not None:
            self._progress.update(self._task, description=text)

    def __exit__(self, *exc: Any) -> None:
        if self._progress is not None:
            self._progress.stop()


# --------------------------------------------------------------------------- tables in any width
def fits(con: Any, table: Any) -> bool:
    """Whether ``table`` prints whole in ``con``'s width: drawn there once, no cell is
    cut to an ellipsis and every word of every cell and header is on one line (a
    value and its interval may wrap onto two lines at their space, nothing more)."""
    import io

    from rich.console import Console
    from rich.table import Table

    if not isinstance(table, Table):
        return True
    for column in table.columns:  # a one-word column cannot wrap: never let rich shrink it
        if all(len(str(cell).split()) <= 1 for cell in column.cells):
            column.no_wrap = True
    probe = Console(width=con.width, file=io.StringIO(), color_system=None, highlight=False)
    probe.print(table)
    drawn = probe.file.getvalue()
    words = {w for c in table.columns for x in [c.header, *c.cells] for w in str(x).split()}
    return "…" not in drawn and all(w in drawn for w in words)


def records(table: Any, keys: int = 1, label: str = "{}") -> Any:
    """``table`` one row at a time, for a terminal too narrow for its columns: each
    row's first ``keys`` cells as a heading, then one line per other column
    (``label`` formats its header), its cell whole beside it."""
    from rich.table import Table

    out = Table(title=table.title, title_justify="left", show_header=False, show_lines=False)
    columns = [(str(c.header), [str(x) for x in c.cells]) for c in table.columns]
    widest = max((len(label.format(name)) + 2 for name, _ in columns[keys:]), default=0)
    out.add_column("", justify="left", min_width=min(widest, 24), overflow="fold")  # a long name folds
    out.add_column("", justify="right")
    heading: list[str] = []
    for r in range(table.row_count):
        key = [cells[r] for _, cells in columns[:keys]]
        if any(key):  # a row with empty keys continues the record above
            heading = [f"{name} {cell}".strip() if name else cell for (name, _), cell in zip(columns[:keys], key)]
            if r:
                out.rows[-1].end_section = True
            out.add_row(" · ".join(h for h in heading if h), "", style="bold")
        for name, cells in columns[keys:]:
            if cells[r] != "":
                out.add_row("  " + label.format(name), cells[r])
    return out


def show(con: Any, *layouts: Any, keys: int = 1, label: str = "{}") -> None:
    """Print the first of ``layouts`` (rich tables, widest first) that fits the
    terminal; when none does, the first one as :func:`records`, row by row."""
    for layout in layouts:
        if fits(con, layout):
            con.print(layout)
            return
    con.print(records(layouts[0], keys, label))


def blocks(con: Any, title: str, items: Any) -> None:
    """A listing for a piped or narrow terminal: per item a heading line, then its
    lines indented, every line wrapped at spaces (never a name or a number cut).
    ``items``: ``(heading, detail, [(line, style)])``; ``detail`` follows the heading."""
    import textwrap

    from rich.text import Text

    width = max(20, con.width - 4)
    con.print(title, markup=False, soft_wrap=True)
    for heading, detail, lines in items:
        if detail and len(heading) + 2 + len(detail) > con.width:  # the detail on a line of its own
            lines = [(detail, ""), *lines]
            detail = ""
        con.print(Text(heading, style="bold") + Text(f"  {detail}" if detail else ""), soft_wrap=True)
        for line, style in lines:
            for part in textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False) or [""]:
                con.print(Text("    " + part, style=style), soft_wrap=True)
