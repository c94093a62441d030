"""The Carnage referee (tests/carnage/referee.py) against the kernel's traces.

1. It accepts the traces of 500+ games: random seeds, parameter values across
   their declared ranges, every built-in player (mc at a small budget), 2-4
   players.
2. It rejects deliberately corrupted traces, each with a message that names the
   problem (the table ``CORRUPTIONS``): the proof that it bites.
"""

from __future__ import annotations

import copy
import random
import time
from collections.abc import Callable
from typing import Any

import pytest

from tests.carnage.helpers import player_labels, trace_events
from tests.carnage.referee import CarnageState
from tests.carnage.referee import replay as referee_carnage
from tests.property import boundary_params, random_params
from tests.referees import IllegalTrace

N_TRACES = 500  # random setups; boundary values come on top
MASTER_SEED = 20240602


@pytest.fixture(scope="module")
def spec():
    from sims.carnage import SPEC

    return SPEC


def _random_labels(spec: Any, rng: random.Random, n: int | None = None) -> list[str]:
    labels = player_labels(spec)
    n = n or rng.randint(spec.min_players, spec.max_players)
    return [rng.choice(labels) for _ in range(n)]


def _setups(spec: Any, n: int, master: int):
    rng = random.Random(master)
    labels = player_labels(spec)
    for j in range(n):
        params = random_params(spec, rng)
        k = rng.randint(2, 4)
        players = _random_labels(spec, rng, k)
        players[0] = labels[j % len(labels)]  # every built-in player, often
        yield params, players, rng.getrandbits(63), rng.randrange(10**6)
    # Then every parameter at both ends of its range, two games each.
    for j, params in enumerate(p for p in boundary_params(spec) for _ in range(2)):
        yield params, _random_labels(spec, rng), rng.getrandbits(63), j


def chi_square(counts: list[int]) -> float:
    expected = sum(counts) / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts)


def test_referee_accepts_kernel_traces(spec):
    t0 = time.perf_counter()
    reasons: dict[str, int] = {}
    counts: dict[str, int] = {}
    seen_players: set[str] = set()
    rolls, cards = [0] * 6, [0] * 16
    n = 0
    for params, players, seed, game in _setups(spec, N_TRACES, MASTER_SEED):
        n += 1
        events = trace_events(spec, params, players, seed, game)
        try:
            state = referee_carnage(events)
        except IllegalTrace as exc:
            pytest.fail(
                f"{exc}\nreproduce: seed={seed} game={game} players={players} params={params}"
            )
        reasons[state.reason] = reasons.get(state.reason, 0) + 1
        for ev in events:
            if ev["type"] == "spawn":
                if ev["roll"] is not None:
                    rolls[ev["roll"] - 1] += 1
                if ev["spawned"]:
                    cards[ev["card"]] += 1
        for key, v in state.counts.items():
            counts[key] = counts.get(key, 0) + v
        seen_players.update(players)
    elapsed = time.perf_counter() - t0
    print(
        f"\ncarnage referee: {n} traces accepted in {elapsed:.1f} s; end reasons {reasons}; events {counts}"
    )
    assert seen_players == set(player_labels(spec))
    # "roll a d6", "draws one of the 16 spawn cards uniformly": chi-square, p < 1e-6 fails.
    assert chi_square(rolls) < 35.89, f"d6 rolls not uniform: {rolls}"
    assert chi_square(cards) < 56.49, f"spawn cards not drawn uniformly: {cards}"
    # The sample reaches the rules that matter, so acceptance means something.
    for reason in ("deliveries", "cars", "last_standing", "gridlock", "turn_limit"):
        assert reasons.get(reason, 0) > 0, f"no game ended by {reason}: {reasons}"
    for key in (
        "buy",
        "drop",
        "move",
        "take",
        "upkeep",
        "lose:bankrupt",
        "spawn:drop:yes",
        "spawn:turn_end:no",
    ):
        assert counts.get(key, 0) > 0, f"no {key} event in {N_TRACES} traces"


PARAMETER_LABELS = [
    "greedy:reserve=0;side_step=false;detour=0",
    "nearest:reserve=8;detour=2",
    "fleet:reserve=0;side_step=false",
    "blocker:block_at=1;block_with=1;detour=1",
    "blocker:block_at=2;block_with=2;reserve=5",
    "mc:rollouts=4;horizon=8;rollout_policy=blocker",
]


def test_referee_accepts_traces_with_player_parameters(spec):
    """The player parameters (reserve, side_step, detour, block_at, block_with)
    and the rule parameters they meet most (hq, bank_money, gridlock_turns),
    2-4 seats: every trace is legal."""
    rng = random.Random(MASTER_SEED + 1)
    rules = [
        {},
        {"hq": "chosen"},
        {"hq": "anywhere", "bank_money": 40},
        {"bank_money": 40, "gridlock_turns": 1},
        {"hq": "chosen", "bank_money": 30, "gridlock_turns": 3, "start_money": 15},
    ]
    hqs = 0
    for j in range(60):
        params = spec.resolve_params(rules[j % len(rules)])
        players = [rng.choice(PARAMETER_LABELS) for _ in range(rng.randint(2, 4))]
        players[0] = PARAMETER_LABELS[j % len(PARAMETER_LABELS)]
        seed, game = rng.getrandbits(63), rng.randrange(10**6)
        events = trace_events(spec, params, players, seed, game)
        try:
            referee_carnage(events)
        except IllegalTrace as exc:
            pytest.fail(f"{exc}\nreproduce: seed={seed} game={game} players={players} params={params}")
        hqs += sum(1 for e in events if e["type"] == "hq")
    assert hqs >= 120  # every seat of every game places its HQ


# ---- corruptions ---------------------------------------------------------------------
class _Found(Exception):
    pass


def scan(
    events: list[dict],
    pick: Callable[[int, dict, CarnageState, list[dict]], list | None],
) -> list | None:
    """Replay ``events``; after each event ``pick`` may return a corrupted copy (first wins)."""
    out: list = []

    def observer(i: int, ev: dict, st: CarnageState) -> None:
        res = pick(i, ev, st, events)
        if res is not None:
            out.append(res)
            raise _Found

    try:
        referee_carnage(events, observer)
    except _Found:
        return out[0]
    return None


def at(events: list[dict], i: int) -> dict:
    return events[i] if i < len(events) else {}


def first(events: list[dict], cond: Callable[[dict], bool]) -> int | None:
    return next((i for i, ev in enumerate(events) if cond(ev)), None)


def edit(events: list[dict], i: int, **changes: Any) -> list[dict]:
    new = copy.deepcopy(events)
    new[i].update(changes)
    return new


def insert(events: list[dict], i: int, *new_events: dict) -> list[dict]:
    return (
        copy.deepcopy(events[:i])
        + [dict(e) for e in new_events]
        + copy.deepcopy(events[i:])
    )


def delete(events: list[dict], i: int) -> list[dict]:
    return copy.deepcopy(events[:i] + events[i + 1 :])


def action_gap(i: int, events: list[dict], st: CarnageState) -> bool:
    """After event i, may the player of the turn insert an action (before events[i+1])?"""
    ev, nxt = events[i], at(events, i + 1)
    if st.ended or st.seat < 0:
        return False
    if ev["type"] == "turn" and nxt.get("type") == "lose":
        return False  # a stuck turn
    if ev["type"] == "spawn" and ev.get("cause") == "drop":
        if nxt.get("type") == "spawn" and nxt.get("cause") == "drop":
            return False
    elif ev["type"] not in ("turn", "buy", "move", "take"):
        return False
    return nxt.get("type") in ("buy", "drop", "move", "take") or (
        nxt.get("type") == "spawn" and nxt.get("cause") == "turn_end"
    )


def live_cars(st: CarnageState, p: int) -> list[int]:
    return [
        c for c, s in enumerate(st.fleet[p]) if s is not None and c not in st.bought_now
    ]


def occupied(st: CarnageState) -> set[int]:
    return {s for cars in st.fleet for s in cars if s is not None}


def base(st: CarnageState, kind: str, **kw: Any) -> dict:
    return {"type": kind, "turn": st.turn, "seat": st.seat, **kw}


# Each corruption returns a corrupted copy of a legal trace, or None where it does not apply.
def c_wrong_fare(ev):
    i = first(ev, lambda e: e["type"] == "take")
    return None if i is None else edit(ev, i, fare=ev[i]["fare"] + 1)


def c_move_not_adjacent(ev):
    def pick(i, e, st, evs):
        nxt = at(evs, i + 1)
        if nxt.get("type") != "move":
            return None
        here = nxt["from"]
        bad = [
            s
            for s in range(len(st.adjacency))
            if s != here and s not in st.adjacency[here] and s not in occupied(st)
        ]
        return edit(evs, i + 1, to=bad[0]) if bad else None

    return scan(ev, pick)


def c_move_occupied(ev):
    def pick(i, e, st, evs):
        nxt = at(evs, i + 1)
        if nxt.get("type") != "move":
            return None
        taken = [s for s in st.adjacency[nxt["from"]] if s in occupied(st)]
        return edit(evs, i + 1, to=taken[0]) if taken else None

    return scan(ev, pick)


def c_two_moves(ev):
    i = first(ev, lambda e: e["type"] == "move")
    if i is None:
        return None
    m = ev[i]
    return insert(ev, i + 1, dict(m, **{"from": m["to"], "to": m["from"]}))


def c_take_over_capacity(ev):
    def pick(i, e, st, evs):
        if not action_gap(i, evs, st):
            return None
        cap = st.params["car_capacity"]
        for c in live_cars(st, st.seat):
            if st.acted.get((c, "take")):
                continue
            s = st.fleet[st.seat][c]
            ks = st.waiting_on(s)
            if ks and len(st.riding[st.seat][c]) + len(ks) > cap:
                fare = st.params["fare_per_block"] * sum(
                    st.dist[st.token_origin[k]][st.token_dest[k]] for k in ks
                )
                return insert(
                    evs,
                    i + 1,
                    base(st, "take", car=c, street=s, commuters=ks, fare=fare),
                )
        return None

    return scan(ev, pick)


def c_two_takes(ev):
    def pick(i, e, st, evs):
        if e["type"] != "take" or not action_gap(i, evs, st):
            return None
        c, s = e["car"], e["street"]
        ks = st.waiting_on(s)
        if not ks:
            return None
        fare = (
            st.params["fare_per_block"]
            * st.dist[st.token_origin[ks[0]]][st.token_dest[ks[0]]]
        )
        return insert(
            evs, i + 1, base(st, "take", car=c, street=s, commuters=ks[:1], fare=fare)
        )

    return scan(ev, pick)


def c_take_not_waiting(ev):
    def pick(i, e, st, evs):
        nxt = at(evs, i + 1)
        if nxt.get("type") != "take":
            return None
        others = [
            k
            for k in range(len(st.token_where))
            if st.token_where[k] != ("wait", nxt["street"])
        ]
        return (
            edit(evs, i + 1, commuters=[others[0]] + nxt["commuters"][1:])
            if others
            else None
        )

    return scan(ev, pick)


def c_drop_wrong_dest(ev):
    def pick(i, e, st, evs):
        if (
            e["type"] != "take"
            or st.acted.get((e["car"], "drop"))
            or not action_gap(i, evs, st)
        ):
            return None
        return insert(
            evs,
            i + 1,
            base(
                st,
                "drop",
                car=e["car"],
                street=e["street"],
                commuters=e["commuters"][:1],
            ),
        )

    return scan(ev, pick)


def c_drop_not_riding(ev):
    def pick(i, e, st, evs):
        nxt = at(evs, i + 1)
        if nxt.get("type") != "drop":
            return None
        stranger = [
            k
            for k in range(len(st.token_where))
            if st.token_where[k] is None or st.token_where[k][0] == "wait"
        ]
        return edit(evs, i + 1, commuters=stranger[:1]) if stranger else None

    return scan(ev, pick)


def c_wrong_upkeep(ev):
    i = first(ev, lambda e: e["type"] == "upkeep")
    return (
        None
        if i is None
        else edit(ev, i, paid=ev[i]["paid"] + 1, money=ev[i]["money"] - 1)
    )


def c_upkeep_money(ev):
    i = first(ev, lambda e: e["type"] == "upkeep")
    return None if i is None else edit(ev, i, money=ev[i]["money"] + 1)


def c_missing_drop_spawn(ev):
    i = first(ev, lambda e: e["type"] == "spawn" and e["cause"] == "drop")
    return None if i is None else delete(ev, i)


def c_missing_turn_end_spawn(ev):
    i = first(ev, lambda e: e["type"] == "spawn" and e["cause"] == "turn_end")
    return None if i is None else delete(ev, i)


def c_spawn_above_roll(ev):
    def ok(e):
        return e["type"] == "spawn" and e["cause"] == "turn_end" and e["spawned"]

    i = first(ev, ok)
    if i is None or ev[0]["params"]["spawn_on_turn_end"] >= 6:
        return None
    return edit(ev, i, roll=ev[0]["params"]["spawn_on_turn_end"] + 1)


def c_spawn_withheld(ev):
    i = first(
        ev, lambda e: e["type"] == "spawn" and e["cause"] != "setup" and e["spawned"]
    )
    if i is None:
        return None
    new = edit(ev, i, spawned=False)
    for key in ("card", "commuter", "origin", "dest"):
        new[i].pop(key, None)
    return new


def c_spawn_token_in_use(ev):
    def pick(i, e, st, evs):
        nxt = at(evs, i + 1)
        busy = [k for k, w in enumerate(st.token_where) if w is not None]
        if nxt.get("type") == "spawn" and nxt.get("spawned") and busy:
            return edit(evs, i + 1, commuter=busy[0])
        return None

    return scan(ev, pick)


def c_spawn_card_mismatch(ev):
    cards = ev[0]["board"]["spawn_cards"]
    i = first(ev, lambda e: e["type"] == "spawn" and e["spawned"])
    if i is None:
        return None
    other = [j for j, c in enumerate(cards) if c[0] != ev[i]["origin"]]
    return edit(ev, i, card=other[0]) if other else None


def c_card_out_of_range(ev):
    i = first(ev, lambda e: e["type"] == "spawn" and e["spawned"])
    return None if i is None else edit(ev, i, card=len(ev[0]["board"]["spawn_cards"]))


def c_setup_spawn_rolled(ev):
    i = first(ev, lambda e: e["type"] == "spawn")
    return edit(ev, i, roll=1)


def c_setup_money(ev):
    return edit(ev, 0, money=[m + 1 for m in ev[0]["money"]])


def c_turn_order(ev):
    i = first(ev, lambda e: e["type"] == "turn")
    n = len(ev[0]["players"])
    return None if i is None else edit(ev, i, seat=(ev[i]["seat"] + 1) % n)


def c_turn_skipped(ev):
    i = first(ev, lambda e: e["type"] == "turn" and e["turn"] > 1)
    return None if i is None else edit(ev, i, turn=ev[i]["turn"] + 1)


def c_buy_wrong_cost(ev):
    i = first(ev, lambda e: e["type"] == "buy")
    return None if i is None else edit(ev, i, cost=ev[i]["cost"] + 1)


def _buy_where(cond):
    def corrupt(ev):
        def pick(i, e, st, evs):
            if not action_gap(i, evs, st):
                return None
            p = st.seat
            if cond(st, p):
                c = len(st.fleet[p])
                return insert(
                    evs,
                    i + 1,
                    base(st, "buy", car=c, street=st.hq[p], cost=st.params["car_cost"]),
                )
            return None

        return scan(ev, pick)

    return corrupt


def _hq_free(st, p):
    return st.hq[p] not in occupied(st)


c_buy_without_money = _buy_where(
    lambda st, p: (
        st.money[p] < st.params["car_cost"]
        and _hq_free(st, p)
        and st.cars_owned(p) < st.params["max_cars"]
    )
)
c_buy_hq_occupied = _buy_where(
    lambda st, p: (
        st.money[p] >= st.params["car_cost"]
        and not _hq_free(st, p)
        and st.cars_owned(p) < st.params["max_cars"]
    )
)
c_buy_over_max_cars = _buy_where(
    lambda st, p: (
        st.money[p] >= st.params["car_cost"]
        and _hq_free(st, p)
        and st.cars_owned(p) >= st.params["max_cars"]
    )
)


def c_bought_car_moves(ev):
    def pick(i, e, st, evs):
        if e["type"] != "buy" or not action_gap(i, evs, st):
            return None
        free = [s for s in st.adjacency[e["street"]] if s not in occupied(st)]
        if not free:
            return None
        return insert(
            evs,
            i + 1,
            base(st, "move", car=e["car"], **{"from": e["street"], "to": free[0]}),
        )

    return scan(ev, pick)


def c_fake_stuck(ev):
    i = first(ev, lambda e: e["type"] == "turn")
    e = ev[i]
    return insert(
        ev,
        i + 1,
        {"type": "lose", "turn": e["turn"], "seat": e["seat"], "reason": "stuck"},
    )


def c_missing_bankrupt(ev):
    i = first(ev, lambda e: e["type"] == "lose" and e["reason"] == "bankrupt")
    return None if i is None else delete(ev, i)


def c_missing_stuck(ev):
    i = first(ev, lambda e: e["type"] == "lose" and e["reason"] == "stuck")
    return None if i is None else delete(ev, i)


def c_lose_with_money(ev):
    i = first(ev, lambda e: e["type"] == "upkeep" and e["money"] > 0)
    if i is None:
        return None
    e = ev[i]
    return insert(
        ev,
        i + 1,
        {"type": "lose", "turn": e["turn"], "seat": e["seat"], "reason": "bankrupt"},
    )


def c_win_ignored(ev):
    if ev[-1]["reason"] != "deliveries":
        return None
    return delete(ev, len(ev) - 1)


def c_car_win_ignored(ev):
    if ev[-1]["reason"] != "cars":
        return None
    return delete(ev, len(ev) - 1)


def c_gridlock_ignored(ev):
    if ev[-1]["reason"] != "gridlock":
        return None
    return delete(ev, len(ev) - 1)


def c_early_turn_limit(ev):
    idx = [i for i, e in enumerate(ev) if e["type"] == "turn"]
    if len(idx) < 3:
        return None
    i = idx[len(idx) // 2]
    last = ev[-1]
    fake = dict(last, turn=ev[i]["turn"] - 1, reason="turn_limit", winner=-1)
    return copy.deepcopy(ev[:i]) + [fake]


def c_wrong_winner(ev):
    w = ev[-1]["winner"]
    return edit(ev, len(ev) - 1, winner=0 if w != 0 else 1)


def c_wrong_reason(ev):
    r = ev[-1]["reason"]
    return edit(ev, len(ev) - 1, reason="cars" if r != "cars" else "deliveries")


def c_end_money(ev):
    return edit(ev, len(ev) - 1, money=[m + 1 for m in ev[-1]["money"]])


def c_end_delivered(ev):
    return edit(ev, len(ev) - 1, delivered=[d + 1 for d in ev[-1]["delivered"]])


def c_end_cars(ev):
    return edit(ev, len(ev) - 1, cars=[c + 1 for c in ev[-1]["cars"]])


def c_board_asymmetric(ev):
    new = copy.deepcopy(ev)
    adj = new[0]["board"]["adjacency"]
    u = next(u for u, row in enumerate(adj) if row)
    adj[u] = adj[u][1:]
    return new


def c_board_same_hq(ev):
    new = copy.deepcopy(ev)
    hq = new[0]["board"]["hq"]
    hq[1] = hq[0]
    return new


def c_board_card_loop(ev):
    new = copy.deepcopy(ev)
    card = new[0]["board"]["spawn_cards"][3]
    card[1] = card[0]
    return new


def c_event_after_end(ev):
    return copy.deepcopy(ev) + [{"type": "turn", "turn": ev[-1]["turn"] + 1, "seat": 0}]


def c_truncated(ev):
    return copy.deepcopy(ev[:-1])


CORRUPTIONS = [
    # (name, corruption, words the message must contain)
    ("wrong fare", c_wrong_fare, "fare"),
    ("move to a non-adjacent street", c_move_not_adjacent, "is not adjacent"),
    ("move onto an occupied street", c_move_occupied, "is occupied by car"),
    ("two moves by one car in a turn", c_two_moves, "already did move"),
    ("take over capacity", c_take_over_capacity, "exceeds car_capacity"),
    ("two takes by one car in a turn", c_two_takes, "already did take"),
    ("take a commuter not waiting there", c_take_not_waiting, "not waiting on street"),
    ("drop a commuter off its destination", c_drop_wrong_dest, "its destination is"),
    ("drop a commuter not aboard", c_drop_not_riding, "not riding in car"),
    ("wrong upkeep", c_wrong_upkeep, "upkeep paid"),
    ("wrong money after upkeep", c_upkeep_money, "money after upkeep"),
    ("missing spawn after drop", c_missing_drop_spawn, "drop spawn"),
    ("missing end-of-turn spawn", c_missing_turn_end_spawn, "turn_end spawn"),
    (
        "spawn with a roll above the threshold",
        c_spawn_above_roll,
        "above the turn_end threshold",
    ),
    ("no spawn despite a hit and a free token", c_spawn_withheld, "expected a spawn"),
    ("spawn a token already in play", c_spawn_token_in_use, "is not free"),
    ("spawn origin not the card's", c_spawn_card_mismatch, "spawn origin"),
    ("spawn card out of range", c_card_out_of_range, "out of range"),
    ("setup spawn with a roll", c_setup_spawn_rolled, "setup spawn has roll"),
    ("setup money not start_money", c_setup_money, "setup money"),
    ("wrong seat to play", c_turn_order, "seat to play"),
    ("turn number skipped", c_turn_skipped, "turn number"),
    ("buy at a wrong price", c_buy_wrong_cost, "car cost"),
    ("buy without the money", c_buy_without_money, "< car_cost"),
    ("buy onto an occupied HQ", c_buy_hq_occupied, "HQ street"),
    ("buy beyond max_cars", c_buy_over_max_cars, "max_cars"),
    ("a car bought this turn moves", c_bought_car_moves, "bought this turn"),
    ("stuck loss of a player who can move", c_fake_stuck, "not stuck"),
    ("no loss when bankrupt", c_missing_bankrupt, "bankrupt"),
    ("no loss when stuck", c_missing_stuck, "is stuck"),
    ("bankrupt loss with money left", c_lose_with_money, "> 0 after upkeep"),
    ("deliveries win ignored", c_win_ignored, "game over: deliveries"),
    ("cars win ignored", c_car_win_ignored, "game over: cars"),
    ("gridlock ignored", c_gridlock_ignored, "game over: gridlock"),
    ("turn_limit before max_turns", c_early_turn_limit, "nothing ends the game"),
    ("wrong winner", c_wrong_winner, "winner"),
    ("wrong end reason", c_wrong_reason, "end reason"),
    ("wrong final money", c_end_money, "final money"),
    ("wrong final delivered", c_end_delivered, "final delivered"),
    ("wrong final cars", c_end_cars, "final cars"),
    ("board adjacency not symmetric", c_board_asymmetric, "not symmetric"),
    ("two seats on one HQ", c_board_same_hq, "distinct streets"),
    ("spawn card from a street to itself", c_board_card_loop, "distinct streets"),
    ("event after end", c_event_after_end, "event after end"),
    ("trace cut before end", c_truncated, "trace ends early"),
]


def _pool_setups(spec):
    """Legal traces where every corruption finds a place: defaults, random values, and
    settings that make rare situations common (small cars, many commuters, small fleets)."""
    names = player_labels(spec)
    rng = random.Random(7)
    special = [
        {},
        {"car_capacity": 1, "spawn_on_drop": 6, "spawn_on_turn_end": 6},
        {"max_cars": 2, "win_cars": 5, "car_cost": 2, "start_money": 30},
        {"spawn_on_turn_end": 6, "spawn_on_drop": 6, "gridlock_limit": 3},
        {"start_money": 3, "upkeep_per_car": 3},
        {"car_cost": 1, "start_money": 5},
        {"max_turns": 12},
    ]
    for j in range(70):
        over = special[j % len(special)] if j < 3 * len(special) else None
        params = (
            spec.resolve_params(over) if over is not None else random_params(spec, rng)
        )
        players = [names[(j + k) % len(names)] for k in range(2 + j % 3)]
        yield params, players, 1000 + j, j


# ---- hand-traced positions ------------------------------------------------------------
DEFAULTS = {
    "start_money": 10,
    "fare_per_block": 2,
    "car_cost": 10,
    "max_cars": 4,
    "win_cars": 4,
    "win_deliveries": 7,
    "spawn_on_drop": 3,
    "spawn_on_turn_end": 2,
    "upkeep_per_car": 1,
    "gridlock_limit": 10,
    "gridlock_turns": 2,
    "max_turns": 500,
    "car_capacity": 2,
    "commuter_tokens": 16,
    "bank_money": 0,
    "hq": "fixed",
}


def stuck_trace_3p() -> list[dict]:
    """Streets 0-1-2-3-4 in a line; HQs 0, 1, 4.  Seat 0's only car has its one
    neighbour taken by seat 1: stuck at the start of turn 1, it loses with no spawn
    and no upkeep, and turn 4 skips it.  Ends by max_turns = 4."""
    params = dict(DEFAULTS, max_turns=4)
    return [
        {
            "type": "setup",
            "game": "carnage",
            "seed": 0,
            "params": params,
            "players": ["a", "b", "c"],
            "board": {
                "adjacency": [[1], [0, 2], [1, 3], [2, 4], [3]],
                "hq": [0, 1, 4],
                "spawn_cards": [[2, 4], [4, 2]]
                + [[k % 5, (k + 2) % 5] for k in range(14)],
            },
            "money": [10, 10, 10],
        },
        {"type": "hq", "turn": 0, "seat": 0, "street": 0},
        {"type": "hq", "turn": 0, "seat": 1, "street": 1},
        {"type": "hq", "turn": 0, "seat": 2, "street": 4},
        {
            "type": "spawn",
            "turn": 0,
            "cause": "setup",
            "roll": None,
            "spawned": True,
            "card": 0,
            "commuter": 0,
            "origin": 2,
            "dest": 4,
        },
        {
            "type": "spawn",
            "turn": 0,
            "cause": "setup",
            "roll": None,
            "spawned": True,
            "card": 1,
            "commuter": 1,
            "origin": 4,
            "dest": 2,
        },
        {"type": "turn", "turn": 1, "seat": 0},
        {"type": "lose", "turn": 1, "seat": 0, "reason": "stuck"},
        {"type": "turn", "turn": 2, "seat": 1},
        {"type": "move", "turn": 2, "seat": 1, "car": 0, "from": 1, "to": 2},
        {
            "type": "take",
            "turn": 2,
            "seat": 1,
            "car": 0,
            "street": 2,
            "commuters": [0],
            "fare": 4,
        },
        {"type": "spawn", "turn": 2, "cause": "turn_end", "roll": 6, "spawned": False},
        {"type": "upkeep", "turn": 2, "seat": 1, "paid": 1, "money": 13},
        {"type": "turn", "turn": 3, "seat": 2},
        {
            "type": "take",
            "turn": 3,
            "seat": 2,
            "car": 0,
            "street": 4,
            "commuters": [1],
            "fare": 4,
        },
        {"type": "move", "turn": 3, "seat": 2, "car": 0, "from": 4, "to": 3},
        {
            "type": "spawn",
            "turn": 3,
            "cause": "turn_end",
            "roll": 1,
            "spawned": True,
            "card": 0,
            "commuter": 2,
            "origin": 2,
            "dest": 4,
        },
        {"type": "upkeep", "turn": 3, "seat": 2, "paid": 1, "money": 13},
        {"type": "turn", "turn": 4, "seat": 1},
        {"type": "move", "turn": 4, "seat": 1, "car": 0, "from": 2, "to": 1},
        {"type": "spawn", "turn": 4, "cause": "turn_end", "roll": 3, "spawned": False},
        {"type": "upkeep", "turn": 4, "seat": 1, "paid": 1, "money": 12},
        {
            "type": "end",
            "turn": 4,
            "winner": -1,
            "reason": "turn_limit",
            "money": [10, 12, 13],
            "delivered": [0, 0, 0],
            "cars": [0, 1, 1],
        },
    ]


def stuck_trace_2p() -> list[dict]:
    """Two players, seat 0 stuck at once: seat 1 is the last one standing."""
    three = stuck_trace_3p()
    ev = three[:3] + three[4:8]  # setup, the HQs of seats 0 and 1, the setup spawns, turn 1, stuck
    ev[0] = dict(
        ev[0], players=["a", "b"], money=[10, 10], board=dict(ev[0]["board"], hq=[0, 1])
    )
    return ev + [
        {
            "type": "end",
            "turn": 1,
            "winner": 1,
            "reason": "last_standing",
            "money": [10, 10],
            "delivered": [0, 0],
            "cars": [0, 1],
        }
    ]


def test_hand_traced_stuck_positions():
    state = referee_carnage(stuck_trace_3p())
    assert state.reason == "turn_limit" and state.alive == [False, True, True]
    assert state.counts["lose:stuck"] == 1
    state = referee_carnage(stuck_trace_2p())
    assert (state.winner, state.reason) == (1, "last_standing")
    # Skipping the loser is compulsory: seat 0 may not play turn 4.
    bad = edit(stuck_trace_3p(), 18, seat=0)
    with pytest.raises(IllegalTrace, match="seat to play"):
        referee_carnage(bad)
    # A stuck player gets no end-of-turn spawn or upkeep.
    bad = insert(
        stuck_trace_2p(),
        7,
        {"type": "spawn", "turn": 1, "cause": "turn_end", "roll": 6, "spawned": False},
    )
    with pytest.raises(IllegalTrace, match="game over: last_standing"):
        referee_carnage(bad)


@pytest.fixture(scope="module")
def pool(spec):
    traces = []
    for params, players, seed, game in _pool_setups(spec):
        events = trace_events(spec, params, players, seed, game)
        referee_carnage(events)  # the pool is legal to begin with
        traces.append(events)
    # Stuck losses are rare in play (none in 520 random games): hand-traced ones.
    traces += [stuck_trace_3p(), stuck_trace_2p()]
    return traces


@pytest.mark.parametrize(
    "name,corrupt,words", CORRUPTIONS, ids=[c[0] for c in CORRUPTIONS]
)
def test_referee_rejects_corruption(pool, name, corrupt, words):
    for events in pool:
        bad = corrupt(events)
        if bad is None:
            continue
        with pytest.raises(IllegalTrace) as info:
            referee_carnage(bad)
        assert words in str(info.value), (
            f"{name}: rejected for another reason: {info.value}"
        )
        return
    pytest.fail(f"no trace in the pool of {len(pool)} offers a place for: {name}")


def test_referee_refuses_malformed_events(pool):
    events = copy.deepcopy(pool[0])
    del events[2]["type"]
    with pytest.raises(IllegalTrace):
        referee_carnage(events)
    with pytest.raises(IllegalTrace, match="setup"):
        referee_carnage(pool[0][1:])
