"""A readable replay of a trace (``balance trace --format text``), for any game.

Games describe their events in the trace schema; this module only lays them out:
a header from the ``setup`` event, one block per turn, one line per event, and
board indices shown with their names when the board has names.
"""

from __future__ import annotations

from typing import Any, Sequence

LONG_LIST = 12  # a longer list (a deck's 200 cards) shows its first items and its length
_PLACE_KEYS = ("street", "field", "from", "to", "origin", "dest")


def _short(value: Any) -> str:
    """A list or dict for one line: long lists cut to their first items and their length."""
    if isinstance(value, list):
        shown = ", ".join(_short(v) for v in value[:LONG_LIST])
        more = f", … ({len(value)} items)" if len(value) > LONG_LIST else ""
        return "[" + shown + more + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_short(v)}" for k, v in value.items()) + "}"
    return "–" if value is None else str(value)


def _value(key: str, value: Any, nodes: Sequence[str] | None) -> str:
    if nodes and key in _PLACE_KEYS and isinstance(value, int) and 0 <= value < len(nodes):
        return f"{nodes[value]}"
    if isinstance(value, (list, dict)):
        return _short(value)
    if value is None:
        return "–"
    return str(value)


def replay_text(events: Sequence[dict[str, Any]]) -> str:
    lines: list[str] = []
    nodes: Sequence[str] | None = None
    players: Sequence[str] = ()
    for event in events:
        kind = event.get("type")
        if kind == "setup":
            board = event.get("board", {})
            nodes = board.get("nodes")
            players = event.get("players", [])
            lines.append(f"{event.get('game')} · seed {event.get('seed')} · game {event.get('game_index', 0)}")
            lines.append("players: " + ", ".join(f"seat {i} {p}" for i, p in enumerate(players)))
            params = event.get("params", {})
            lines.append("rules: " + ", ".join(f"{k}={v}" for k, v in params.items()))
            for key, value in event.items():
                if key in ("type", "game", "seed", "game_index", "players", "params", "board"):
                    continue
                lines.append(f"{key}: {_value(key, value, nodes)}")
            continue
        if kind == "turn":
            seat = event.get("seat")
            who = players[seat] if isinstance(seat, int) and seat < len(players) else "?"
            lines.append("")
            lines.append(f"turn {event.get('turn')} · seat {seat} ({who})")
            continue
        details = ", ".join(
            f"{k} {_value(k, v, nodes)}" for k, v in event.items() if k not in ("type", "turn", "seat")
        )
        indent = "  " if kind not in ("end",) else ""
        if kind == "end":
            lines.append("")
        lines.append(f"{indent}{kind}: {details}")
    return "\n".join(lines) + "\n"
