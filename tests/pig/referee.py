"""An independent referee for Pig traces (tests/piggame/RULES.md).

Replays a trace from its setup event and checks every roll, hold and the end;
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
    target, cap = params["target"], params["max_turns"]
    n = len(events[0]["players"])
    check(2 <= n <= 4, 0, f"{n} players; allowed 2 to 4")
    score = [0] * n
    turn, total, must_roll, winner = 1, 0, True, -1
    i = 1
    while i < len(events) and events[i].get("type") in ("roll", "hold"):
        ev = events[i]
        seat = (turn - 1) % n
        check(ev["turn"] == turn and ev["seat"] == seat, i, f"turn {turn} of seat {seat} expected")
        if ev["type"] == "roll":
            check(1 <= ev["face"] <= 6, i, "not a d6")
            total = 0 if ev["face"] == 1 else total + ev["face"]
            check(ev["turn_total"] == total and ev["score"] == score[seat], i, f"turn total {total} expected")
            if ev["face"] == 1:
                turn, total, must_roll = turn + 1, 0, True
            elif score[seat] + total >= target:
                score[seat] += total
                winner = seat
                i += 1
                break
            else:
                must_roll = False
        else:
            check(not must_roll, i, "a turn begins with a roll: no hold before it")
            check(ev["banked"] == total, i, f"a hold banks the turn total {total}")
            score[seat] += total
            check(ev["score"] == score[seat], i, f"score {score[seat]} expected")
            turn, total, must_roll = turn + 1, 0, True
        i += 1
    check(i == len(events) - 1 and events[i].get("type") == "end", i, "one end event, last")
    end = events[i]
    check(end["score"] == score, i, f"scores {score} expected")
    if winner >= 0:
        check((end["winner"], end["reason"], end["turn"]) == (winner, "target", turn), i, f"seat {winner} won")
    else:
        check(turn - 1 == cap and end["turn"] == cap, i, "the game stopped before the target or the cap")
        check((end["winner"], end["reason"]) == (-1, "turn_limit"), i, "a capped game has no winner")
