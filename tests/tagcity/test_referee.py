"""The referee replays Tag City traces: hundreds of games of every player (mc
at a small budget), 2-4 seats, random rule values inside their ranges, side B
and boards of other shapes pass it; traces with one thing changed (an amount,
a cell, a die, a tile, a completion, the winner ...) are refused.

Default run: 520 traces (about a minute on two cores); ``-m slow`` replays
2,000 more."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sims.tagcity import SPEC
from tests.property import random_params
from tests.tagcity.referee import referee, replay

HEURISTICS = ["random", "greedy", "builder", "sniper", "closer"]
SEARCH = "mc:rollouts=4"

ODD_BOARD = """name = "odd test board"
source = "tests: non-contiguous district, low above high, a 6-cell tile"
[sheet]
rows = 6
cols = 9
districts = ["AAABBBCCC", "AAABBBCCC", "DDDBBBCCA", "DDDEEECCC", "DDDEEEFFF", "DDDEEEFFF"]
district_names = ["A", "B", "C", "D", "E", "F"]
row_values = [[5, 1], [5, 1], [5, 1], [5, 1], [5, 1], [5, 1]]
col_values = [[2, 2], [2, 2], [2, 2], [2, 2], [2, 2], [2, 2], [2, 2], [2, 2], [2, 2]]
district_values = [[3, 1], [4, 1], [4, 2], [4, 1], [1, 4], [3, 1]]
remote = [0, -1, -3, -6, -10, -15]
[shapes]
dot = [[0, 0]]
bar = [[0, 0], [1, 0], [2, 0]]
zig = [[0, 0], [0, 1], [1, 1], [1, 2]]
hook = [[0, 0], [1, 0], [1, 1], [1, 2], [0, 2], [2, 2]]
tee = [[0, 1], [1, 0], [1, 1], [1, 2]]
[hq]
ring_a = ["bar", "zig", "tee", "hook"]
centre = ["dot", "bar"]
faces = [[0, 1], [1, 2], [2, 3], [3, 0], [0, 2], [1, 3]]
pool_b = ["hook", "tee", "zig", "bar", "dot"]
"""


def odd_board(tmp: Path):
    from sims.tagcity.board import load_board

    path = tmp / "odd.toml"
    path.write_text(ODD_BOARD, encoding="utf-8")
    return load_board(path)


def trace(labels: list[str], params: dict[str, Any], seed: int, game: int, board: Any = None) -> list[dict]:
    distinct = list(dict.fromkeys(labels))
    players = [SPEC.parse_player(x) for x in distinct]
    seating = np.asarray([[distinct.index(x) for x in labels]], dtype=np.int64)
    events = SPEC.trace(SPEC.resolve_params(params), players, seating, seed, game, board)
    return json.loads(json.dumps(events))  # what a referee reads: JSON


def mixed(rng: random.Random, n: int, search_share: float = 0.05) -> list[str]:
    return [SEARCH if rng.random() < search_share else rng.choice(HEURISTICS) for _ in range(n)]


def cases(count: int, seed: str, boards: list[Any]) -> Iterator[tuple[list[str], dict, int, int, Any]]:
    """Varied games: seat counts 2-4 in turn, mixed players, rule values drawn
    inside their ranges (every fourth game the defaults, every fifth side B),
    every seventh game on another board."""
    rng = random.Random(seed)
    for i in range(count):
        n = 2 + i % 3
        labels = mixed(rng, n)
        params = {} if i % 4 == 0 else dict(random_params(SPEC, rng))
        if i % 5 == 0:
            params["hq_side"] = "B"
        board = boards[i // 7 % len(boards)] if i % 7 == 0 and boards else None
        if board is not None and params.get("drone_boxes", 5) > len(board.remote):
            params["drone_boxes"] = len(board.remote)
        yield labels, params, rng.randrange(2**32), rng.randrange(10_000), board


def test_every_player_at_every_seat_count_passes(tmp_path):
    names = [*HEURISTICS, SEARCH]
    seen = 0
    for n in (2, 3, 4):
        for k, name in enumerate(names):
            labels = [name] + [names[(k + j) % len(names)] if name != SEARCH else "builder" for j in range(1, n)]
            for game in range(4):
                referee(trace(labels, {}, 100 + n, game))
                seen += 1
    assert seen == 72


def test_random_games_pass_the_referee(tmp_path):
    boards = [odd_board(tmp_path)]
    reasons: dict[str, int] = {}
    n = 0
    for labels, params, seed, game, board in cases(448, "tagcity-referee", boards):
        events = trace(labels, params, seed, game, board)
        referee(events)
        reasons[events[-1]["reason"]] = reasons.get(events[-1]["reason"], 0) + 1
        n += 1
    assert n == 448
    assert {"all_targets", "social", "drones", "round_limit"} <= set(reasons), reasons


@pytest.mark.slow
def test_two_thousand_more_games_pass_the_referee(tmp_path):
    boards = [odd_board(tmp_path)]
    for labels, params, seed, game, board in cases(2000, "tagcity-referee-slow", boards):
        referee(trace(labels, params, seed, game, board))


# --------------------------------------------------------------------------- corrupted traces
def first(events: list[dict], test: Callable[[dict], bool]) -> int:
    return next(i for i, e in enumerate(events) if test(e))


def painted_before(events: list[dict], i: int, seat: int) -> list[list[int]]:
    return [c for e in events[:i] if e["type"] == "action" and e["seat"] == seat and "cells" in e for c in e["cells"]]


def _points(ev):
    i = first(ev, lambda e: e["type"] == "action" and e["kind"] == "drone")
    ev[i]["points"] -= 1


def _score(ev):
    i = first(ev, lambda e: e["type"] == "action" and e["turn"] == 3)
    ev[i]["score"] += 1


def _overlap(ev):
    i = first(ev, lambda e: e["type"] == "action" and e["kind"] == "paint" and e["turn"] >= 3)
    ev[i]["cells"][0] = painted_before(ev, i, ev[i]["seat"])[0]
    ev[i]["cells"].sort()


def _not_the_tile(ev):
    i = first(ev, lambda e: e["type"] == "action" and e["kind"] == "paint" and e["turn"] == 1)
    r, c = ev[i]["cells"][-1]
    ev[i]["cells"][-1] = [r, c + 3] if c + 3 < 12 else [r, c - 3]
    ev[i]["cells"].sort()


def _off_the_sheet(ev):
    i = first(ev, lambda e: e["type"] == "action" and e["kind"] == "paint")
    ev[i]["cells"] = [[r + 20, c] for r, c in ev[i]["cells"]]


def _another_tile(ev):
    i = first(ev, lambda e: e["type"] == "action" and e["kind"] == "paint" and e["shape"] == "I4")
    ev[i]["shape"] = "L4"


def _taken_die(ev):
    i = first(ev, lambda e: e["type"] == "action" and not e["shared"] and e["turn"] == 2)
    ev[i + 1 if ev[i + 1]["type"] == "action" else i + 2]["die"] = ev[i]["die"]


def _shared_die(ev):
    i = first(ev, lambda e: e["type"] == "action" and e["shared"])
    ev[i]["die"] = (ev[i]["die"] + 1) % 3


def _high_flag(ev):
    i = first(ev, lambda e: e["type"] == "complete")
    ev[i]["high"] = not ev[i]["high"]


def _missed_completion(ev):
    i = first(ev, lambda e: e["type"] == "complete")
    del ev[i]


def _extra_completion(ev):
    i = first(ev, lambda e: e["type"] == "complete")
    ev.insert(i + 1, copy.deepcopy(ev[i]))


def _winner(ev):
    ev[-1]["winner"] = 1 - ev[-1]["winner"] if ev[-1]["winner"] in (0, 1) else 0


def _reason(ev):
    ev[-1]["reason"] = "social" if ev[-1]["reason"] != "social" else "drones"


def _end_score(ev):
    ev[-1]["score"][0] += 1


def _end_parts(ev):
    ev[-1]["drones"][1] += 1


def _conditions(ev):
    ev[-1]["conditions"] = []


def _roll(ev):
    i = first(ev, lambda e: e["type"] == "assign")
    slot = ev[i]["slots"][0]
    faces = ev[0]["board"]["hq"]["faces"]
    ev[i - 1]["dice"][0] = next(v for v in range(1, 7) if slot not in faces[v - 1])


def _assign_shape(ev):
    i = first(ev, lambda e: e["type"] == "assign")
    ev[i]["shapes"][0] = "U5"


def _leader(ev):
    i = first(ev, lambda e: e["type"] == "roll" and e["turn"] == 2)
    ev[i]["leader"] = 0


def _draft_order(ev):
    i = first(ev, lambda e: e["type"] == "action" and not e["shared"] and e["turn"] == 1)
    j = i + 1
    while ev[j]["type"] != "action":
        j += 1
    ev[i], ev[j] = ev[j], ev[i]


def _box(ev):
    i = first(ev, lambda e: e["type"] == "action" and e["kind"] == "drone")
    ev[i]["box"] += 1


def _circle(ev):
    circled = [e["circle"] for e in ev if e["type"] == "action" and e["kind"] == "social" and not e["shared"]]
    i = max(
        k
        for k, e in enumerate(ev)
        if e["type"] == "action"
        and e["kind"] == "social"
        and not e["shared"]
        and e["circle"] is not None
        and e["circle"] != circled[0]
    )
    ev[i]["circle"] = circled[0]


def _shared_flag(ev):
    i = first(ev, lambda e: e["type"] == "action" and e["shared"])
    ev[i]["shared"] = False


def _board_value(ev):
    ev[0]["board"]["sheet"]["row_values"][0] = [5, 2]


def _pool_order(ev):
    ev[0]["ring"] = list(reversed(ev[0]["ring"]))


def _dice_count(ev):
    ev[0]["dice"] += 1


def _unsorted(ev):
    i = first(ev, lambda e: e["type"] == "action" and e["kind"] == "paint")
    ev[i]["cells"].reverse()


def _truncated(ev):
    del ev[-1]


def _after_the_end(ev):
    ev.append(copy.deepcopy(ev[-2]))


CORRUPTIONS = {
    "a drone's points": (_points, ["builder", "sniper"], {}),
    "an action's score": (_score, ["builder", "sniper"], {}),
    "a drawing over painted cells": (_overlap, ["builder", "sniper"], {}),
    "cells that are not the tile": (_not_the_tile, ["builder", "sniper"], {}),
    "cells off the sheet": (_off_the_sheet, ["builder", "sniper"], {}),
    "another tile than the die's": (_another_tile, ["builder", "sniper"], {}),
    "a die already taken": (_taken_die, ["builder", "sniper", "greedy"], {}),
    "the shared step with another die": (_shared_die, ["builder", "sniper"], {}),
    "a low value scored high": (_high_flag, ["builder", "sniper"], {}),
    "a completion left out": (_missed_completion, ["builder", "sniper"], {}),
    "a completion scored twice": (_extra_completion, ["builder", "sniper"], {}),
    "the wrong winner": (_winner, ["builder", "sniper"], {}),
    "the wrong end reason": (_reason, ["builder", "sniper"], {}),
    "an end score": (_end_score, ["builder", "sniper"], {}),
    "an end count": (_end_parts, ["builder", "sniper"], {}),
    "the end conditions": (_conditions, ["builder", "sniper"], {}),
    "a die placed beside another face": (_roll, ["builder", "sniper"], {}),
    "a die's tile": (_assign_shape, ["builder", "sniper"], {}),
    "the wrong leader": (_leader, ["builder", "sniper"], {}),
    "the draft out of order": (_draft_order, ["builder", "sniper", "greedy"], {}),
    "a drone box skipped": (_box, ["builder", "sniper"], {}),
    "a social circle taken twice": (_circle, ["random", "random"], {"social_circles": 16}),
    "a shared action in the draft": (_shared_flag, ["builder", "sniper"], {}),
    "the default board altered": (_board_value, ["builder", "sniper"], {}),
    "the ring not the pool's first tiles": (_pool_order, ["builder", "sniper"], {"hq_side": "B"}),
    "the number of dice": (_dice_count, ["builder", "sniper"], {}),
    "cells out of order": (_unsorted, ["builder", "sniper"], {}),
    "no end event": (_truncated, ["builder", "sniper"], {}),
    "events after the end": (_after_the_end, ["builder", "sniper"], {}),
}


@pytest.mark.parametrize("name", list(CORRUPTIONS))
def test_a_corrupted_trace_is_refused(name):
    corrupt, labels, params = CORRUPTIONS[name]
    for game in range(40):  # the first game where the corruption applies
        events = trace(labels, params, 9, game)
        referee(events)
        try:
            corrupt(events)
        except (StopIteration, IndexError, ValueError):
            continue
        with pytest.raises(AssertionError):
            referee(events)
        return
    pytest.fail(f"no game in 40 to corrupt with {name!r}")


def test_a_drone_with_a_full_remote_is_refused():
    for game in range(60):
        events = trace(["sniper", "greedy"], {"drone_boxes": 1, "finish_round": True}, 4, game)
        drones = [i for i, e in enumerate(events) if e["type"] == "action" and e["kind"] == "drone"]
        paints = (
            [
                i
                for i, e in enumerate(events)
                if e["type"] == "action"
                and e["kind"] == "paint"
                and e["seat"] == events[drones[0]]["seat"]
                and i > drones[0]
            ]
            if drones
            else []
        )
        if paints:
            i = paints[0]
            events[i]["kind"] = "drone"
            events[i]["box"] = 1
            events[i]["points"] = -2
            with pytest.raises(AssertionError):
                referee(events)
            return
    pytest.fail("no game with a paint after a full remote")


def test_the_replayed_state_is_the_end_event():
    events = trace(["builder", "sniper", "closer"], {}, 1, 2)
    table = replay(events)
    end = events[-1]
    assert table.ended and table.score == end["score"] and table.drones == end["drones"]
    assert all(sum(len(d) for d in table.drawings[s]) == len(table.painted[s]) for s in range(3))
