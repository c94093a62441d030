"""An independent referee for Dice Race traces (tests/toygame/RULES.md).

Replays a trace from its setup event and checks every roll, move and the end;
imports nothing from the game's package (tests/referees/__init__.py says why).
"""

from __future__ import annotations

from typing import Any

from tests.referees import IllegalTrace


def referee(events: list[dict[str, Any]]) -> None:
    def check(ok: bool, i: int, message: str) -> None:
        if not ok:
            raise IllegalTrace(i, events[i] if i < len(events) else {}, message)

    check(bool(events) and events[0].get("type") == "setup", 0, "a trace starts with setup")
    params = events[0]["params"]
    n = len(events[0]["players"])
    check(2 <= n <= 6, 0, f"{n} players; allowed 2 to 6")
    position = [0] * n
    turn = 0
    i = 1
    while i < len(events) and events[i].get("type") == "roll":
        ev = events[i]
        turn += 1
        seat = (turn - 1) % n
        bonus = params["first_bonus"] if turn == 1 else 0
        check(ev["turn"] == turn, i, f"turn {turn} expected")
        check(ev["seat"] == seat, i, f"seat {seat} expected")
        check(1 <= ev["roll"] <= 6, i, "not a d6")
        check(bonus <= ev["steps"] <= ev["roll"] + bonus, i, "steps outside 0..roll (plus the bonus)")
        position[seat] += ev["steps"]
        check(ev["pos"] == position[seat], i, f"position {position[seat]} expected")
        i += 1
        if position[seat] >= params["target"]:
            break
    check(i == len(events) - 1 and events[i].get("type") == "end", i, "one end event, last")
    end = events[i]
    check(end["turn"] == turn, i, f"turn {turn} expected")
    if max(position) >= params["target"]:
        winner = next(s for s in range(n) if position[s] >= params["target"])
        check((end["winner"], end["reason"]) == (winner, "target"), i, f"seat {winner} reached the target")
    else:
        check(turn == params["max_turns"], i, "the game stopped before the target or the cap")
        check((end["winner"], end["reason"]) == (-1, "turn_limit"), i, "a capped game has no winner")
