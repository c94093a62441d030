"""The Bahama Taxi referee (tests/bahama/referee.py) against the kernel's traces.

1. The board in the traces is the published board of issue 5 (built here from
   the issue's edge list, not from the package) and satisfies every fact the
   rulebook states.
2. The referee accepts the traces of 500+ games: random seeds, parameter values
   across their declared ranges, every built-in player, 2-4 players.
3. It rejects deliberately corrupted traces, each with a message naming the
   problem (``CORRUPTIONS``).
"""

from __future__ import annotations

import copy
import random
import time
from collections.abc import Callable
from typing import Any

import pytest

from balance.errors import UserError
from tests.bahama.referee import (
    BahamaState,
    board_edges,
    normalize_name,
    published_edges,
    referee_bahama,
)
from tests.property import boundary_params, random_params, random_players, trace_events
from tests.referees import IllegalTrace, bfs_distances

N_TRACES = 500  # random setups; boundary values come on top
MASTER_SEED = 5_2024


@pytest.fixture(scope="module")
def spec():
    try:
        from balance.registry import get_game

        return get_game("bahama")
    except (ImportError, AttributeError, UserError) as exc:  # game not there yet
        pytest.skip(f"bahama game not available: {exc}")


# ---- the published board -----------------------------------------------------------
RULEBOOK_ADJACENT = [("5♦", "2♠"), ("Q♠", "A♠"), ("A♣", "K♣")]
RULEBOOK_NOT_ADJACENT = [("3♥", "5♥"), ("A♠", "A♣")]
RULEBOOK_FARES = [
    ("8♠", "8♥", 3),
    ("10♠", "10♣", 4),
    ("K♣", "10♥", 2),
    ("3♣", "A♦", 5),
    ("K♦", "9♣", 3),
    ("5♦", "2♠", 1),
    ("2♦", "2♥", 7),
    ("6♦", "8♦", 2),
]


def test_published_board_satisfies_the_rulebook():
    edges = published_edges()
    assert len(edges) == 128
    names = sorted({n for e in edges for n in e})
    assert len(names) == 52
    index = {n: i for i, n in enumerate(names)}
    adjacency = [[] for _ in names]
    for e in edges:
        a, b = tuple(e)
        adjacency[index[a]].append(index[b])
        adjacency[index[b]].append(index[a])
    for a, b in RULEBOOK_ADJACENT:
        assert frozenset((a, b)) in edges
    for a, b in RULEBOOK_NOT_ADJACENT:
        assert frozenset((a, b)) not in edges
    dist = bfs_distances(adjacency)
    for a, b, fare in RULEBOOK_FARES:
        assert dist[index[a]][index[b]] == fare, (a, b)


def test_trace_board_is_the_published_board(spec):
    events = trace_events(spec, spec.resolve_params({}), ["random", "random"], 1, 0)
    board = events[0]["board"]
    assert board_edges(board["nodes"], board["adjacency"]) == published_edges()
    assert normalize_name("10S") == "10♠" and normalize_name("qh") == "Q♥"


# ---- acceptance ----------------------------------------------------------------------
def _setups(spec: Any, n: int, master: int):
    rng = random.Random(master)
    names = [p.name for p in spec.players]
    for j in range(n):
        params = random_params(spec, rng)
        players = random_players(spec, rng, rng.randint(2, 4))
        players[0] = names[j % len(names)]
        yield params, players, rng.getrandbits(63), rng.randrange(10**6)
    # Then every parameter at both ends of its range, two games each.
    for j, params in enumerate(p for p in boundary_params(spec) for _ in range(2)):
        yield params, random_players(spec, rng), rng.getrandbits(63), j


def chi_square(counts: list[int]) -> float:
    expected = sum(counts) / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts)


def test_referee_accepts_kernel_traces(spec):
    t0 = time.perf_counter()
    reasons: dict[str, int] = {}
    counts: dict[str, int] = {}
    endphase = 0
    seen_players: set[str] = set()
    first_cards, last_cards = [0] * 52, [0] * 52
    n = 0
    for params, players, seed, game in _setups(spec, N_TRACES, MASTER_SEED):
        n += 1
        events = trace_events(spec, params, players, seed, game)
        try:
            state = referee_bahama(events)
        except IllegalTrace as exc:
            pytest.fail(f"{exc}\nreproduce: seed={seed} game={game} players={players} params={params}")
        reasons[state.reason] = reasons.get(state.reason, 0) + 1
        first_cards[events[0]["deck"][0]] += 1
        last_cards[events[0]["deck"][-1]] += 1
        for key, v in state.counts.items():
            counts[key] = counts.get(key, 0) + v
        endphase += state.endphase_checks
        seen_players.update(label.partition(":")[0] for label in players)
    elapsed = time.perf_counter() - t0
    print(
        f"\nbahama referee: {n} traces accepted in {elapsed:.1f} s; end reasons {reasons}; "
        f"events {counts}; pick-ups under an end-phase limit {endphase}"
    )
    assert seen_players == {p.name for p in spec.players}
    # "the whole deck is shuffled": the top and bottom cards are uniform (chi-square, p < 1e-6 fails).
    assert chi_square(first_cards) < 114.1, f"first card not uniform: {first_cards}"
    assert chi_square(last_cards) < 114.1, f"last card not uniform: {last_cards}"
    assert reasons.get("no_waiting", 0) > 0 and reasons.get("turn_limit", 0) > 0, reasons
    for key in ("move:go", "move:stay", "drop", "pickup", "decline", "citizen"):
        assert counts.get(key, 0) > 0, f"no {key} event in {N_TRACES} traces"
    assert endphase > 0


# The players that use the rulebook's choices, with their parameters (standing guard
# without a limit included: those games often reach max_turns), and mc over them.
PARAMETER_PLAYERS = [
    "closer",
    "closer:margin=1",
    "waiter",
    "waiter:guard=2;patience=0",
    "waiter:margin=3;patience=5",
    "blocker",
    "blocker:reach=8;patience=0",
    "blocker:guard=3;margin=2",
    "mc:rollouts=4;rollout_policy=closer",
    "mc:rollouts=6;horizon=12",
]


def test_referee_accepts_new_players_and_parameters(spec):
    """Every new player and parameter value, mc over them, 2-4 seats, both pick-up
    readings, with and without must_move: the referee accepts every trace."""
    rng = random.Random(23)
    reasons: dict[str, int] = {}
    declines = 0
    seen = set()
    j = 0
    for n in (2, 3, 4):
        for pickup in ("optional", "compulsory"):
            for must_move in (False, True):
                for _ in range(2):
                    players = [PARAMETER_PLAYERS[(j + k * 3) % len(PARAMETER_PLAYERS)] for k in range(n)]
                    if rng.random() < 0.5:
                        players[-1] = "nearest"
                    j += 1
                    seen.update(players)
                    params = spec.resolve_params({"pickup": pickup, "must_move": must_move, "max_turns": 400})
                    seed = rng.getrandbits(63)
                    events = trace_events(spec, params, players, seed, j)
                    try:
                        state = referee_bahama(events)
                    except IllegalTrace as exc:
                        pytest.fail(f"{exc}\nreproduce: seed={seed} game={j} players={players} params={params}")
                    reasons[state.reason] = reasons.get(state.reason, 0) + 1
                    declines += state.declines
    assert seen >= set(PARAMETER_PLAYERS)
    assert declines > 0 and reasons.get("no_waiting", 0) > 0 and reasons.get("turn_limit", 0) > 0, (reasons, declines)


# ---- corruptions ----------------------------------------------------------------------
class _Found(Exception):
    pass


def scan(
    events: list[dict],
    pick: Callable[[int, dict, BahamaState, list[dict]], list | None],
) -> list | None:
    out: list = []

    def observer(i: int, ev: dict, st: BahamaState) -> None:
        res = pick(i, ev, st, events)
        if res is not None:
            out.append(res)
            raise _Found

    try:
        referee_bahama(events, observer)
    except _Found:
        return out[0]
    return None


def at(events, i):
    return events[i] if i < len(events) else {}


def first(events, cond):
    return next((i for i, ev in enumerate(events) if cond(ev)), None)


def edit(events, i, **changes):
    new = copy.deepcopy(events)
    new[i].update(changes)
    return new


def edit_params(events, **changes):
    new = copy.deepcopy(events)
    new[0]["params"].update(changes)
    return new


def insert(events, i, *new_events):
    return copy.deepcopy(events[:i]) + [dict(e) for e in new_events] + copy.deepcopy(events[i:])


def delete(events, i):
    return copy.deepcopy(events[:i] + events[i + 1 :])


def c_deck_duplicate(ev):
    deck = list(ev[0]["deck"])
    deck[-1] = deck[-2]
    return edit(ev, 0, deck=deck)


def c_deck_swapped(ev):
    """The first citizen's destination card swapped with the deck's last card."""
    n = len(ev[0]["players"])
    deck = list(ev[0]["deck"])
    deck[n + 1], deck[-1] = deck[-1], deck[n + 1]
    return edit(ev, 0, deck=deck)


def c_start_not_first_cards(ev):
    start = list(ev[0]["start"])
    start[0] = ev[0]["deck"][len(start)]
    return edit(ev, 0, start=start)


def c_citizen_id(ev):
    i = first(ev, lambda e: e["type"] == "citizen" and e["turn"] > 0)
    return None if i is None else edit(ev, i, citizen=ev[i]["citizen"] + 1)


def c_too_few_initial(ev):
    i = first(ev, lambda e: e["type"] == "citizen")
    return delete(ev, i)


def c_move_not_adjacent(ev):
    def pick(i, e, st, evs):
        nxt = at(evs, i + 1)
        if nxt.get("type") != "move":
            return None
        here = nxt["from"]
        bad = [f for f in range(52) if f != here and f not in st.adjacency[here] and st.taxi_at(f) is None]
        return edit(evs, i + 1, to=bad[0])

    return scan(ev, pick)


def c_move_occupied(ev):
    def pick(i, e, st, evs):
        nxt = at(evs, i + 1)
        if nxt.get("type") != "move":
            return None
        taken = [f for f in st.adjacency[nxt["from"]] if st.taxi_at(f) is not None]
        return edit(evs, i + 1, to=taken[0]) if taken else None

    return scan(ev, pick)


def c_two_moves(ev):
    i = first(ev, lambda e: e["type"] == "move")
    m = ev[i]
    return insert(ev, i + 1, dict(m, **{"from": m["to"], "to": m["to"]}))


def c_missing_move(ev):
    i = first(ev, lambda e: e["type"] == "move")
    return delete(ev, i)


def c_stay_under_must_move(ev):
    if ev[0]["params"]["must_move"]:
        return None

    def pick(i, e, st, evs):
        if e["type"] != "move" or e["to"] != e["from"]:
            return None
        free = [f for f in st.adjacency[e["from"]] if st.taxi_at(f) is None]
        return edit_params(evs, must_move=True) if free else None

    return scan(ev, pick)


def c_wrong_fare(ev):
    i = first(ev, lambda e: e["type"] == "drop")
    return None if i is None else edit(ev, i, fare=ev[i]["fare"] + 1)


def c_missed_drop(ev):
    i = first(ev, lambda e: e["type"] == "drop")
    return None if i is None else delete(ev, i)


def c_drop_extra_passenger(ev):
    def pick(i, e, st, evs):
        nxt = at(evs, i + 1)
        if nxt.get("type") != "drop":
            return None
        seat = nxt["seat"]
        extra = [k for k in st.aboard[seat] if k not in nxt["citizens"]]
        return edit(evs, i + 1, citizens=nxt["citizens"] + extra[:1]) if extra else None

    return scan(ev, pick)


def c_over_capacity(ev):
    """Lower the capacity below what a taxi actually carried."""
    st = referee_bahama(ev)
    if st.max_aboard < 2:
        return None
    return edit_params(ev, capacity=st.max_aboard - 1)


def _pickup_into(cond: Callable[[BahamaState, int, int, int], bool]):
    """Rewrite a turn: the mover drives to (or stays on) a field where a citizen waits
    and no passenger gets off, and picks that citizen up although ``cond`` forbids it."""

    def corrupt(ev):
        def pick(i, e, st, evs):
            nxt = at(evs, i + 1)
            if nxt.get("type") != "move":
                return None
            seat, here = nxt["seat"], nxt["from"]
            a, w = len(st.aboard[seat]), len(st.waiting())
            if a >= st.capacity or not cond(st, a, w, st.pile()):
                return None
            free = [f for f in st.adjacency[here] if st.taxi_at(f) is None]
            targets = list(free)
            if not (st.must_move and free):
                targets.append(here)
            dests = {st.citizen_dest[k] for k in st.aboard[seat]}
            for f in targets:
                ks = st.waiting_on(f)
                if ks and f not in dests:
                    move = dict(nxt, to=f)
                    pickup = {
                        "type": "pickup",
                        "turn": nxt["turn"],
                        "seat": seat,
                        "field": f,
                        "citizens": ks[:1],
                    }
                    return copy.deepcopy(evs[: i + 1]) + [move, pickup]
            return None

        return scan(ev, pick)

    return corrupt


c_second_passenger_late = _pickup_into(
    lambda st, a, w, pile: (
        st.second_lock and w <= st.second_lock_waiting and a == 1 and not (st.third_lock and pile < 2 and a >= 2)
    )
)
c_third_passenger_late = _pickup_into(
    lambda st, a, w, pile: (
        st.third_lock and pile < 2 and a == 2 and not (st.second_lock and w <= st.second_lock_waiting)
    )
)


def c_pickup_not_waiting_here(ev):
    def pick(i, e, st, evs):
        nxt = at(evs, i + 1)
        if nxt.get("type") != "pickup":
            return None
        elsewhere = [k for k in st.waiting() if st.citizen_where[k] != ("wait", nxt["field"])]
        return edit(evs, i + 1, citizens=elsewhere[:1]) if elsewhere else None

    return scan(ev, pick)


def c_skipped_pickup(ev):
    """A citizen waits where the taxi stops and the limits allow it: taking is compulsory."""
    if ev[0]["params"]["pickup"] != "compulsory":
        return None
    i = first(ev, lambda e: e["type"] == "pickup")
    if i is None:
        return None
    new = delete(ev, i)
    if new[i]["type"] == "citizen":
        new = delete(new, i)
    return new


def c_skipped_pickup_decision(ev):
    """pickup = optional: the mover's answer (pickup or decline) is missing."""
    if ev[0]["params"]["pickup"] != "optional":
        return None
    i = first(ev, lambda e: e["type"] == "decline")
    return None if i is None else delete(ev, i)


def c_decline_under_compulsory(ev):
    if ev[0]["params"]["pickup"] != "optional" or first(ev, lambda e: e["type"] == "decline") is None:
        return None
    return edit_params(ev, pickup="compulsory")


def c_decline_nothing_waiting(ev):
    """A decline after a move to a field where no citizen waits."""

    def pick(i, e, st, evs):
        if e["type"] != "move" or at(evs, i + 1).get("type") != "turn" or st.waiting_on(e["to"]):
            return None
        return insert(
            evs, i + 1, {"type": "decline", "turn": e["turn"], "seat": e["seat"], "field": e["to"], "citizens": [0]}
        )

    return scan(ev, pick) if ev[0]["params"]["pickup"] == "optional" else None


def c_decline_nothing_to_decide(ev):
    """A decline of a citizen the mover may not take (full, or an end-phase limit)."""

    def pick(i, e, st, evs):
        if e["type"] != "move" or at(evs, i + 1).get("type") != "turn":
            return None
        ks = st.waiting_on(e["to"])
        a, w = len(st.aboard[e["seat"]]), len(st.waiting())
        barred = (
            a >= st.capacity
            or (st.third_lock and st.pile() < 2 and a >= 2)
            or (st.second_lock and w <= st.second_lock_waiting and a >= 1)
        )
        if not ks or not barred:
            return None
        return insert(
            evs, i + 1, {"type": "decline", "turn": e["turn"], "seat": e["seat"], "field": e["to"], "citizens": ks}
        )

    return scan(ev, pick) if ev[0]["params"]["pickup"] == "optional" else None


def c_decline_then_replacement(ev):
    """A decline takes nobody: no replacement citizen follows it."""

    def pick(i, e, st, evs):
        if e["type"] != "decline" or st.pile() < 2:
            return None
        k = len(st.citizen_origin)
        return insert(
            evs,
            i + 1,
            {
                "type": "citizen",
                "turn": e["turn"],
                "citizen": k,
                "origin": st.deck[st.cursor],
                "dest": st.deck[st.cursor + 1],
            },
        )

    return scan(ev, pick)


def c_decline_then_pickup(ev):
    """Take or leave: one answer, not both."""
    i = first(ev, lambda e: e["type"] == "decline")
    if i is None:
        return None
    return insert(ev, i + 1, dict(ev[i], type="pickup"))


def c_missing_replacement(ev):
    i = first(ev, lambda e: e["type"] == "citizen" and e["turn"] > 0)
    return None if i is None else delete(ev, i)


def c_replacement_from_empty_pile(ev):
    def pick(i, e, st, evs):
        if e["type"] != "pickup" or st.pile() >= 2:
            return None
        k = len(st.citizen_origin)
        return insert(
            evs,
            i + 1,
            {
                "type": "citizen",
                "turn": e["turn"],
                "citizen": k,
                "origin": 0,
                "dest": 1,
            },
        )

    return scan(ev, pick)


def c_turn_order(ev):
    i = first(ev, lambda e: e["type"] == "turn")
    return edit(ev, i, seat=1)


def c_turn_skipped(ev):
    i = first(ev, lambda e: e["type"] == "turn" and e["turn"] > 1)
    return edit(ev, i, turn=ev[i]["turn"] + 1)


def c_play_on_after_no_waiting(ev):
    if ev[-1]["reason"] != "no_waiting":
        return None
    last = ev[-1]
    seat = (last["turn"]) % len(ev[0]["players"])
    return copy.deepcopy(ev[:-1]) + [
        {"type": "turn", "turn": last["turn"] + 1, "seat": seat},
        last,
    ]


def c_early_end(ev):
    idx = [i for i, e in enumerate(ev) if e["type"] == "turn"]
    if len(idx) < 3:
        return None
    i = idx[len(idx) // 2]
    return copy.deepcopy(ev[:i]) + [dict(ev[-1], turn=ev[i]["turn"] - 1, reason="turn_limit", winner=-1)]


def c_turn_limit_ignored(ev):
    if ev[-1]["reason"] != "turn_limit":
        return None
    return delete(ev, len(ev) - 1)


def c_wrong_winner(ev):
    w = ev[-1]["winner"]
    return edit(ev, len(ev) - 1, winner=0 if w != 0 else 1)


def c_wrong_income(ev):
    return edit(
        ev,
        len(ev) - 1,
        income=[x + 1 for x in ev[-1]["income"]][:1] + ev[-1]["income"][1:],
    )


def c_wrong_reason(ev):
    r = ev[-1]["reason"]
    return edit(ev, len(ev) - 1, reason="turn_limit" if r == "no_waiting" else "no_waiting")


def c_three_player_discard(ev):
    if len(ev[0]["players"]) != 3 or ev[0]["params"]["three_player_discard"]:
        return None
    return edit_params(ev, three_player_discard=True)


def c_board_asymmetric(ev):
    new = copy.deepcopy(ev)
    adj = new[0]["board"]["adjacency"]
    adj[0] = adj[0][1:]
    return new


def c_event_after_end(ev):
    return copy.deepcopy(ev) + [{"type": "turn", "turn": ev[-1]["turn"] + 1, "seat": 0}]


def c_truncated(ev):
    return copy.deepcopy(ev[:-1])


CORRUPTIONS = [
    ("deck not a permutation", c_deck_duplicate, "not a permutation"),
    ("swapped deck card", c_deck_swapped, "deck card"),
    ("start field not the first card", c_start_not_first_cards, "first"),
    ("citizen numbered wrongly", c_citizen_id, "citizen id"),
    ("initial citizen missing", c_too_few_initial, "citizen id"),
    ("move to a non-adjacent field", c_move_not_adjacent, "is not adjacent"),
    ("move onto an occupied field", c_move_occupied, "is occupied"),
    ("two moves in a turn", c_two_moves, "second move"),
    ("turn without a move", c_missing_move, "exactly one move"),
    ("stay under must_move", c_stay_under_must_move, "must_move"),
    ("wrong fare", c_wrong_fare, "fare (shortest-path"),
    (
        "drop of a passenger not arrived",
        c_drop_extra_passenger,
        "expected exactly the passengers",
    ),
    ("passenger carried past its destination", c_missed_drop, "have destination"),
    ("pickup over capacity", c_over_capacity, "capacity is"),
    ("2nd passenger once <= 4 wait", c_second_passenger_late, "no 2nd passenger"),
    ("3rd passenger once the pile is out", c_third_passenger_late, "no 3rd passenger"),
    (
        "pickup of a citizen waiting elsewhere",
        c_pickup_not_waiting_here,
        "not waiting on field",
    ),
    ("compulsory pickup skipped", c_skipped_pickup, "taking is compulsory"),
    ("optional pickup unanswered", c_skipped_pickup_decision, "neither pickup nor decline"),
    ("decline under compulsory pickup", c_decline_under_compulsory, "decline under pickup = compulsory"),
    ("decline where nobody waits", c_decline_nothing_waiting, "where no citizen waits"),
    ("decline of a citizen the taxi may not take", c_decline_nothing_to_decide, "nothing to decide"),
    ("replacement after a decline", c_decline_then_replacement, "expected turn"),
    ("pickup after a decline", c_decline_then_pickup, "out of place"),
    ("replacement citizen missing", c_missing_replacement, "replacement"),
    (
        "replacement from a pile under 2 cards",
        c_replacement_from_empty_pile,
        "pile holds",
    ),
    ("wrong seat to play", c_turn_order, "seat to play"),
    ("turn number skipped", c_turn_skipped, "turn number"),
    (
        "play on when no citizen waits",
        c_play_on_after_no_waiting,
        "game over: no_waiting",
    ),
    ("end before max_turns with citizens waiting", c_early_end, "citizens wait"),
    ("turn_limit ignored", c_turn_limit_ignored, "game over: turn_limit"),
    ("wrong winner", c_wrong_winner, "winner"),
    ("wrong income", c_wrong_income, "final income"),
    ("wrong end reason", c_wrong_reason, "end reason"),
    ("three_player_discard ignored", c_three_player_discard, "deck card"),
    ("board adjacency not symmetric", c_board_asymmetric, "not symmetric"),
    ("event after end", c_event_after_end, "event after end"),
    ("trace cut before end", c_truncated, "trace ends early"),
]


def _pool_setups(spec):
    names = [p.name for p in spec.players]
    rng = random.Random(11)
    special = [
        {},
        {"max_turns": 40},
        {"capacity": 4, "second_lock_waiting": 2},
        {"second_lock_waiting": 8},
        {"citizens_waiting": 4},
        {"pickup": "compulsory"},
    ]
    for j in range(60):
        over = special[j % len(special)] if j < 4 * len(special) else None
        params = spec.resolve_params(over) if over is not None else random_params(spec, rng)
        players = [names[(j + k) % len(names)] for k in range(2 + j % 3)]
        yield params, players, 500 + j, j


@pytest.fixture(scope="module")
def pool(spec):
    traces = []
    for params, players, seed, game in _pool_setups(spec):
        events = trace_events(spec, params, players, seed, game)
        referee_bahama(events)
        traces.append(events)
    return traces


@pytest.mark.parametrize("name,corrupt,words", CORRUPTIONS, ids=[c[0] for c in CORRUPTIONS])
def test_referee_rejects_corruption(pool, name, corrupt, words):
    for events in pool:
        bad = corrupt(events)
        if bad is None:
            continue
        with pytest.raises(IllegalTrace) as info:
            referee_bahama(bad)
        assert words in str(info.value), f"{name}: rejected for another reason: {info.value}"
        return
    pytest.fail(f"no trace in the pool of {len(pool)} offers a place for: {name}")
