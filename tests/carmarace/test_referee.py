"""The referee (tests/carmarace/referee.py) replays hundreds of kernel traces and
rejects corrupted ones.

Default run: 520 traces -- every built-in player (mc at a small budget) in every
seat count 2-6, random parameter values inside their ranges, both variants
(Good Karma, young players), the other tie rule, every start-square rule, and a
user map with small decks (tests/carmarace/data/mini.toml) -- plus coverage of
the rare rules over them; then every kind of corruption.  ``-m slow`` replays
1,000 more.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from sims.carmarace import SPEC
from tests.carmarace.referee import referee
from tests.property import random_params

MINI = str(Path(__file__).with_name("data") / "mini.toml")
NAMES = ["hunter", "saboteur", "racer", "random", "mc:rollouts=4"]


def trace(labels, params, seed, game, board=None):
    distinct = list(dict.fromkeys(labels))
    players = [SPEC.parse_player(x) for x in distinct]
    seating = np.asarray([[distinct.index(x) for x in labels]], np.int64)
    events = SPEC.trace(params, players, seating, seed, game, SPEC.board_for(board))
    return json.loads(json.dumps(events))


def cases(n, salt):
    """n (labels, params, seed, game, board) cases, covering seats x players x variants."""
    rng = random.Random(f"carmarace-referee-{salt}")
    out = []
    for k in range(n):
        seats = 2 + k % 5
        first = NAMES[(k // 5) % len(NAMES)]
        labels = [first] + [rng.choice(NAMES[:4]) for _ in range(seats - 1)]
        rng.shuffle(labels)
        params = random_params(SPEC, rng)
        variant = k % 6
        if variant == 1:
            params["good_karma_step"] = True
        elif variant == 2:
            params["young_players"] = True
        elif variant == 3:
            params["tie_rule"] = "random"
            params["start_squares"] = rng.choice(["highest", "random"])
        params["max_turns"] = min(params["max_turns"], 3000)
        board = MINI if k % 10 in (5, 7) else None  # 2 and 4 seats
        out.append((labels, SPEC.resolve_params(params), rng.randrange(2**32), rng.randrange(10_000), board))
    return out


def replay_all(todo):
    seen = Counter()

    def observe(i, ev, st):
        t = ev["type"]
        seen[t] += 1
        if t == "land":
            seen["land tied"] += bool(ev["tied"])
            seen["land by"] += ev["by"] is not None
            seen["land roll"] += ev["roll"] is not None
        elif t == "remove" and ev["removed"]:
            seen["remove some"] += 1
        elif t == "transport" and ev["kept"]:
            seen["kept " + st.cards[ev["card"]]["mode"]] += 1
        elif t == "move" and ev["rolls"]:
            seen["roll"] += 1
        elif t == "end":
            seen["end " + ev["reason"]] += 1
        elif t == "karma" and st.cards[ev["card"]]["effect"] == "on_top" and not st.young:
            seen["on_top"] += 1

    for labels, params, seed, game, board in todo:
        events = trace(labels, params, seed, game, board)
        try:
            referee(events, observe)
        except AssertionError as exc:
            raise AssertionError(f"{labels} {params} seed {seed} game {game} board {board}: {exc}") from None
    return seen


def test_referee_accepts_520_kernel_traces_and_they_reach_every_rule():
    todo = cases(520, "default")
    assert {len(c[0]) for c in todo} == {2, 3, 4, 5, 6}
    assert {x for c in todo for x in c[0]} == set(NAMES)
    assert sum(c[4] is not None for c in todo) >= 20
    seen = replay_all(todo)
    # (a 2-player vote, land.by, is rare: the golden case highest-squares-2p-vote has one, below)
    for key in ("shuffle", "gift", "leave", "land", "land tied", "land roll", "step", "remove some",
                "kept road", "kept plane", "roll", "on_top", "end convention", "end turn_limit"):
        assert seen[key] > 0, f"no {key} in 520 traces: {sorted(seen.items())}"


def test_referee_accepts_the_golden_two_player_vote():
    path = Path(__file__).parents[1] / "golden" / "carmarace" / "highest-squares-2p-vote.jsonl"
    events = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    referee(events)
    assert any(e["type"] == "land" and e["by"] is not None for e in events)


@pytest.mark.slow
def test_referee_accepts_1000_more_traces():
    replay_all(cases(1000, "slow"))


# --------------------------------------------------------------------------- corruptions
def _good():
    """Two traces rich in events: Good Karma with land and removals, and a 6-player game."""
    a = trace(["saboteur", "random", "hunter"], SPEC.resolve_params({"good_karma_step": True}), 2024, 10)
    b = trace(["saboteur", "hunter"], SPEC.resolve_params({"start_squares": "highest"}), 2024, 8)
    return a, b


GOOD = None


def good():
    global GOOD
    if GOOD is None:
        GOOD = _good()
        for events in GOOD:
            referee(events)
    return GOOD


def first(events, pred):
    for i, e in enumerate(events):
        if pred(e):
            return i
    raise AssertionError("no such event")


def corrupt_move_speed(ev):
    i = first(ev, lambda e: e["type"] == "move" and len(e["path"]) > 1)
    ev[i]["speed"] += 1


def corrupt_move_karma(ev):
    i = first(ev, lambda e: e["type"] == "move" and e["karma"] != 0)
    ev[i]["karma"] -= 1
    ev[i]["speed"] = max(0, ev[i]["base"] + ev[i]["karma"])


def corrupt_path_too_long(ev):
    i = first(ev, lambda e: e["type"] == "move" and len(e["path"]) - 1 == e["speed"] and e["speed"] > 0)
    setup = ev[0]["board"]
    last = ev[i]["path"][-1]
    nxt = setup["adjacency"][last]
    if not nxt:
        raise AssertionError("no successor")
    ev[i]["path"].append(nxt[0])


def corrupt_path_jump(ev):
    i = first(ev, lambda e: e["type"] == "move" and len(e["path"]) > 2)
    ev[i]["path"][1] = ev[i]["path"][2]


def corrupt_draw_card(ev):
    i = first(ev, lambda e: e["type"] == "draw" and e["turn"] > 0)
    ev[i]["card"] = (ev[i]["card"] + 1) % len(ev[0]["cards"])


def corrupt_draw_hand(ev):
    i = first(ev, lambda e: e["type"] == "draw")
    ev[i]["hand"] += 1


def corrupt_karma_card(ev):
    i = first(ev, lambda e: e["type"] == "karma")
    ev[i]["card"] = 199 if ev[i]["card"] != 199 else 198


def corrupt_karma_slot(ev):
    i = first(ev, lambda e: e["type"] == "karma")
    ev[i]["slot"] += 1


def corrupt_pass_seat(ev):
    i = first(ev, lambda e: e["type"] == "pass")
    ev[i]["seat"] = (ev[i]["seat"] + 1) % len(ev[0]["players"])


def corrupt_missing_pass(ev):
    i = first(ev, lambda e: e["type"] == "pass")
    del ev[i]


def corrupt_winner(ev):
    ev[-1]["winner"] = (ev[-1]["winner"] + 1) % len(ev[0]["players"])


def corrupt_end_togo(ev):
    ev[-1]["togo"][0] += 1


def corrupt_land_to(ev):
    i = first(ev, lambda e: e["type"] == "land" and e["tied"])
    other = [v for v in e_tied(ev[i]) if v != ev[i]["to"]]
    ev[i]["to"] = other[0]


def e_tied(e):
    return e["tied"]


def corrupt_land_by(ev):
    i = first(ev, lambda e: e["type"] == "land" and e["by"] is not None)
    ev[i]["by"] = 1 - ev[i]["by"]


def corrupt_step(ev):
    i = first(ev, lambda e: e["type"] == "step")
    ev[i]["to"] = ev[i]["from"]


def corrupt_cleanup_order(ev):
    i = first(ev, lambda e: e["type"] == "cleanup" and len(e["discarded"]) >= 2)
    ev[i]["discarded"].reverse()


def corrupt_cleanup_kept(ev):
    i = first(ev, lambda e: e["type"] == "cleanup" and e["kept"] is None and e["discarded"])
    ev[i]["kept"] = ev[i]["discarded"].pop(0)


def corrupt_refill(ev):
    i = first(ev, lambda e: e["type"] == "refill" and e["turn"] > 1)
    ev[i]["discarded"].append(0 if 0 not in ev[i]["discarded"] else 1)


def corrupt_remove(ev):
    i = first(ev, lambda e: e["type"] == "remove" and e["removed"])
    ev[i]["removed"] = ev[i]["removed"][:-1]


def corrupt_turn_seat(ev):
    i = first(ev, lambda e: e["type"] == "turn" and e["turn"] == 3)
    ev[i]["seat"] = (ev[i]["seat"] + 1) % len(ev[0]["players"])


def corrupt_transport(ev):
    # a train played on the road far from any station
    i = first(ev, lambda e: e["type"] == "transport" and e["card"] is not None and not e["kept"]
              and ev[0]["cards"][e["card"]]["mode"] == "road")
    ev[i]["card"] = 42  # the Bullet train


def corrupt_shuffle(ev):
    i = first(ev, lambda e: e["type"] == "shuffle")
    ev[i]["order"] = ev[i]["order"][1:] + ev[i]["order"][:1] if len(ev[i]["order"]) > 1 else []
    ev[i]["order"][0] = ev[i]["order"][1] if len(ev[i]["order"]) > 1 else 0


def corrupt_setup_deck(ev):
    ev[0]["decks"]["road"][0] = ev[0]["decks"]["road"][1]


def corrupt_roll(ev):
    board = ev[0]["board"]
    i = first(ev, lambda e: e["type"] == "move" and e["rolls"])
    roll = ev[i]["rolls"][0]
    faces = board["gps"][roll["at"]]
    roll["roll"] = next(f + 1 for f in range(6) if faces[f] != roll["to"])


def corrupt_limit(ev):
    i = first(ev, lambda e: e["type"] == "transport" and e["limit"] is not None)
    ev[i]["limit"] += 1


CORRUPTIONS = [
    corrupt_move_speed, corrupt_move_karma, corrupt_path_too_long, corrupt_path_jump, corrupt_draw_card,
    corrupt_draw_hand, corrupt_karma_card, corrupt_karma_slot, corrupt_pass_seat, corrupt_missing_pass,
    corrupt_winner, corrupt_end_togo, corrupt_land_to, corrupt_land_by, corrupt_step, corrupt_cleanup_order,
    corrupt_cleanup_kept, corrupt_refill, corrupt_remove, corrupt_turn_seat, corrupt_transport, corrupt_shuffle,
    corrupt_setup_deck, corrupt_roll, corrupt_limit,
]


@pytest.mark.parametrize("corrupt", CORRUPTIONS, ids=[c.__name__[8:] for c in CORRUPTIONS])
def test_referee_rejects_a_corrupted_trace(corrupt):
    applied = 0
    for events in good():
        bad = copy.deepcopy(events)
        try:
            corrupt(bad)
        except (AssertionError, StopIteration, IndexError):
            continue  # this trace has no such event
        applied += 1
        with pytest.raises(AssertionError):
            referee(bad)
    assert applied, f"{corrupt.__name__} found nothing to corrupt"
