"""The board a run played, drawn on its report page (``GameSpec.board_svg``).

One section, self-contained: the game's own picture of the board (the default
one, or the ``--board`` file the run names), scaled to the page.  A run whose
board file is gone, or no longer the file that was played (its sha256 differs
from the one the run recorded), gets one sentence saying so instead of a
picture that could show another board.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from pathlib import Path
from typing import Any

_STYLE = "display:block;width:100%;height:auto;max-width:960px;max-height:none"


def board_figure(spec: Any, board: Any, caption: str = "") -> str:
    """The picture of ``board`` with a caption; "" when the game draws no picture."""
    svg = spec.board_svg(board) if board is not None else None
    if not svg:
        return ""
    # inline in HTML the SVG namespace is implied: the page names no address at all
    svg = svg.replace(' xmlns="http://www.w3.org/2000/svg"', "", 1).replace("<svg ", f'<svg style="{_STYLE}" ', 1)
    text = caption or "The board the games were played on, drawn from its data; hover a space for its details."
    return f'<figure class="board">{svg}<figcaption>{html.escape(text)}</figcaption></figure>'


def board_section(spec: Any, board: Any, caption: str = "", prefix: str = "") -> str:
    """The board section of a page (``<section id="{prefix}board">``); "" when
    the game draws no picture."""
    figure = board_figure(spec, board, caption)
    return f'<section id="{prefix}board"><h2>Board</h2>{figure}</section>' if figure else ""


def run_board_section(data: Mapping[str, Any], prefix: str = "") -> str:
    """The board section of a report (``run_board_body`` in a section)."""
    body = run_board_body(data)
    return f'<section id="{prefix}board"><h2>Board</h2>{body}</section>' if body else ""


def run_board_body(data: Mapping[str, Any]) -> str:
    """What a report shows of its board: ``data`` names the game (``game``) and
    the run (``run``: ``board``, the file's path or None for the default, and
    ``board_sha256``); "" when the game draws no picture."""
    from balance.errors import UserError
    from balance.registry import get_game
    from balance.store import file_sha256

    try:
        spec = get_game(data["game"])
    except UserError:
        return ""  # a game not installed here: nothing to draw it with
    run = data.get("run") or {}
    path = run.get("board")
    if not path:
        return board_figure(spec, spec.load_board(None), "The game's default board, drawn from its data.")
    file = Path(path)
    shown = html.escape(str(path))
    if not file.is_file():
        return _note(f"The board file {shown} no longer exists: its picture cannot be drawn.")
    recorded = run.get("board_sha256")
    if recorded and file_sha256(file) != recorded:
        return _note(f"The board file {shown} has changed since the run (sha256 differs): not drawn, it is no longer the board played.")
    try:
        board = spec.load_board(str(file))
    except UserError as exc:
        return _note(html.escape(f"The board file cannot be drawn: {exc}"))
    return board_figure(spec, board, f"The board file {path}, drawn from its data (sha256 {str(recorded or '')[:12]}).")


def _note(text: str) -> str:
    return f'<p class="lede">{text}</p>'
