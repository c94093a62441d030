"""Hand-built positions: the kernel's own rules from constructed decks.

Each test deals a deck whose first cards are chosen (start fields, then
citizens as origin, destination) through ``SPEC.position(..., script=
deck_script(deck))`` (the setup's shuffle forced to deal that deck), plays given
answers turn by turn and checks the state and the trace events.  The remaining
cards follow in field order (A♠, K♠, Q♠, ...): replacement citizens come from
there, far from the ♦ fields the taxis use here.

Road facts used (issue 5's board): 6♦–5♦, 5♦–4♦, 4♦–3♦ (inside ♦), 5♦–2♠ and
6♦–8♠, 6♦–2♠ (♦ to ♠), 2♠–3♠, A♥–K♥, and 5♠'s only neighbours 6♠, 4♠, 2♥.
"""

from __future__ import annotations

import numpy as np
import pytest

from balance.state import ARM_VALUE, CANDIDATES, TURN, VALUE_SCALE, WINNER
from sims.bahama import kernel
from sims.bahama.kernel import deck_script
from sims.bahama.state import (
    DECK,
    DEST,
    INCOME,
    KIND_MOVE,
    KIND_PICKUP,
    N_WAITING,
    ORIGIN,
    PICKUP_DECLINE,
    PICKUP_TAKE,
    PILE,
    WAITING,
    aboard_slot,
    is_legal_move,
    n_aboard_slot,
    pile_can_supply,
    taxi_slot,
)


def deck(board, *names):
    first = [board.index(n) for n in names]
    return first + [i for i in range(52) if i not in first]


class Hand:
    """A game dealt from ``cards`` and played turn by turn with given answers."""

    def __init__(self, spec, n_seats, cards, players=None, **overrides):
        names = players or ["nearest"] * n_seats
        self.pos = spec.position(spec.resolve_params(overrides), names, script=deck_script(cards))
        self.first = self.pos.advance()  # setup, then turn 1 begins: seat 0 is asked
        self.st = self.pos.st

    def asked(self):
        """The pending decision ``(seat, kind, subject)``, running the rules to it."""
        if self.pos.ended:
            raise RuntimeError("the game has ended")
        return self.pos.pending or self.pos.advance()

    def turn(self, to, take=True):
        """The seat to move answers ``to`` and, if then asked whether to take the
        citizen waiting there (pickup = optional), ``take``; True once the game
        has ended."""
        self.asked()
        self.pos.answer(to)
        pending = self.pos.pending  # the move asked the same seat again (apply's ask)
        if pending is not None and pending[1] == KIND_PICKUP:
            self.pos.answer(PICKUP_TAKE if take else PICKUP_DECLINE)
        return self.pos.ended

    @property
    def ended(self):
        return self.pos.ended

    def trace(self):
        return self.pos.events()


def where(g, seat):
    return int(g.st[taxi_slot(seat)])


def aboard(g, seat):
    return [int(g.st[aboard_slot(seat, i)]) for i in range(g.st[n_aboard_slot(seat)])]


def waiting(g):
    return [int(c) for c in g.st[WAITING : WAITING + g.st[N_WAITING]]]


def incomes(g, n):
    return [int(x) for x in g.st[INCOME : INCOME + n]]


def test_deck_script_deals_the_deck(spec, board):
    cards = deck(board, "6♦", "A♥", "5♦", "2♠")
    g = Hand(spec, 2, cards)
    assert [int(x) for x in g.st[DECK : DECK + 52]] == cards
    assert g.trace()[0]["deck"] == cards and g.trace()[0]["start"] == cards[:2]
    rng = np.random.default_rng(3)
    for _ in range(5):
        shuffled = rng.permutation(52).tolist()
        assert [int(x) for x in Hand(spec, 3, shuffled).st[DECK : DECK + 52]] == shuffled
    with pytest.raises(ValueError):
        deck_script([0] * 52)


def test_setup_draws_starts_then_citizens(spec, board):
    g = Hand(spec, 2, deck(board, "6♦", "A♥", "5♦", "2♠", "4♦", "K♣"), citizens_waiting=3)
    f = board.index
    assert g.first == (0, int(KIND_MOVE), f("6♦"))  # turn 1: seat 0 decides where to go
    assert where(g, 0) == f("6♦") and where(g, 1) == f("A♥")
    assert waiting(g) == [0, 1, 2]
    assert [int(x) for x in g.st[ORIGIN : ORIGIN + 3]] == [f("5♦"), f("4♦"), f("A♠")]
    assert [int(x) for x in g.st[DEST : DEST + 3]] == [f("2♠"), f("K♣"), f("K♠")]
    assert g.st[PILE] == 2 + 2 * 3 and g.st[TURN] == 1
    assert g.trace()[1:] == [
        {
            "type": "citizen",
            "turn": 0,
            "citizen": 0,
            "origin": f("5♦"),
            "dest": f("2♠"),
        },
        {
            "type": "citizen",
            "turn": 0,
            "citizen": 1,
            "origin": f("4♦"),
            "dest": f("K♣"),
        },
        {
            "type": "citizen",
            "turn": 0,
            "citizen": 2,
            "origin": f("A♠"),
            "dest": f("K♠"),
        },
        {"type": "turn", "turn": 1, "seat": 0},
    ]


@pytest.mark.parametrize("discard,first_origin", [(False, "2♠"), (True, "4♦")])
def test_three_player_discard(spec, board, discard, first_origin):
    cards = deck(board, "6♦", "A♥", "8♠", "2♠", "4♦", "K♣", "Q♣")
    g = Hand(spec, 3, cards, citizens_waiting=1, three_player_discard=discard)
    assert g.st[ORIGIN] == board.index(first_origin)
    assert g.st[PILE] == 3 + discard + 2
    # With 2 players the variant does nothing.
    g2 = Hand(spec, 2, cards, citizens_waiting=1, three_player_discard=discard)
    assert g2.st[ORIGIN] == board.index("8♠")


def test_pickup_replacement_drop_and_fare(spec, board):
    """The rulebook's 5♦ → 2♠ ride: fare 1."""
    f = board.index
    g = Hand(spec, 2, deck(board, "6♦", "A♥", "5♦", "2♠"), citizens_waiting=1)
    assert not g.turn(f("5♦"))  # seat 0 takes citizen 0; citizen 1 (A♠ → K♠) replaces it
    assert aboard(g, 0) == [0] and waiting(g) == [1]
    assert not g.turn(f("A♥"))  # seat 1 stays
    assert not g.turn(f("2♠"))  # seat 0 sets citizen 0 down
    assert aboard(g, 0) == [] and incomes(g, 2) == [1, 0]
    assert g.trace()[2:] == [
        {"type": "turn", "turn": 1, "seat": 0},
        {"type": "move", "turn": 1, "seat": 0, "from": f("6♦"), "to": f("5♦")},
        {"type": "pickup", "turn": 1, "seat": 0, "field": f("5♦"), "citizens": [0]},
        {
            "type": "citizen",
            "turn": 1,
            "citizen": 1,
            "origin": f("A♠"),
            "dest": f("K♠"),
        },
        {"type": "turn", "turn": 2, "seat": 1},
        {"type": "move", "turn": 2, "seat": 1, "from": f("A♥"), "to": f("A♥")},
        {"type": "turn", "turn": 3, "seat": 0},
        {"type": "move", "turn": 3, "seat": 0, "from": f("5♦"), "to": f("2♠")},
        {
            "type": "drop",
            "turn": 3,
            "seat": 0,
            "field": f("2♠"),
            "citizens": [0],
            "fare": 1,
        },
    ]


def test_illegal_answers_become_stay(spec, board):
    f = board.index
    g = Hand(spec, 2, deck(board, "6♦", "8♠"))
    for answer in (999, -1, f("A♠"), f("8♠")):  # off the board, not adjacent, occupied
        seat = g.asked()[0]
        here = where(g, seat)
        g.turn(answer)
        assert where(g, seat) == here
    assert all(e["from"] == e["to"] for e in g.trace() if e["type"] == "move")


def test_must_move(spec, board):
    f = board.index
    # 6♦'s neighbours in field order: 8♠, 2♠, 10♦, 7♦, 5♦, 4♦; seat 1 stands on 8♠.
    free = Hand(spec, 2, deck(board, "6♦", "8♠"))
    free.turn(f("6♦"))
    assert where(free, 0) == f("6♦")
    forced = Hand(spec, 2, deck(board, "6♦", "8♠"), must_move=True)
    forced.turn(f("6♦"))  # staying is illegal: the first free neighbour in field order
    assert where(forced, 0) == f("2♠")
    forced.turn(f("6♦"))  # seat 1 moves to 6♦, now free: legal
    assert where(forced, 1) == f("6♦")


def test_must_move_boxed_in_stays(spec, board):
    f = board.index
    g = Hand(spec, 4, deck(board, "5♠", "6♠", "4♠", "2♥"), must_move=True)
    g.turn(f("5♠"))
    assert where(g, 0) == f("5♠")  # every neighbour is taken: staying is the only move
    # seat 1 (6♠) answers a taken field: must_move sends it to its first free neighbour
    g.turn(f("5♠"))
    assert where(g, 1) == board.adjacency[f("6♠")][0] != f("5♠")


def _ride_deck(board):
    # seat 0 on 6♦ can reach 5♦, 4♦, 3♦ in one step each; seat 1 waits on A♥.
    return deck(board, "6♦", "A♥", "5♦", "K♣", "4♦", "Q♣", "3♦", "J♣")


def test_capacity(spec, board):
    f = board.index
    one = Hand(spec, 2, _ride_deck(board), capacity=1)
    for to in ("5♦", "A♥", "4♦"):
        one.turn(f(to))
    assert aboard(one, 0) == [0] and 1 in waiting(one)
    three = Hand(spec, 2, _ride_deck(board), capacity=3)
    for to in ("5♦", "A♥", "4♦"):
        three.turn(f(to))
    assert aboard(three, 0) == [0, 1]


@pytest.mark.parametrize(
    "overrides,second_taken",
    [
        ({"citizens_waiting": 5}, True),  # 5 wait at the pick-up: > 4
        (
            {"citizens_waiting": 4},
            False,
        ),  # 4 wait at the pick-up (the citizen included): no 2nd
        ({"citizens_waiting": 5, "second_lock_waiting": 5}, False),
        ({"citizens_waiting": 4, "second_passenger_lock": False}, True),
    ],
)
def test_second_passenger_lock_at_each_pickup(spec, board, overrides, second_taken):
    f = board.index
    g = Hand(spec, 2, _ride_deck(board), **overrides)
    g.turn(f("5♦"))  # an empty taxi may always take a 1st passenger; it is replaced
    assert aboard(g, 0) == [0] and len(waiting(g)) == overrides["citizens_waiting"]
    g.turn(f("A♥"))
    g.turn(f("4♦"))
    assert aboard(g, 0) == ([0, 1] if second_taken else [0])
    assert (1 in waiting(g)) != second_taken


@pytest.mark.parametrize("lock,third_taken", [(True, False), (False, True)])
def test_third_passenger_lock_once_the_pile_cannot_supply(spec, board, lock, third_taken):
    """24 citizens with 2 players leave 2 cards: the first replacement empties the pile."""
    f = board.index
    g = Hand(spec, 2, _ride_deck(board), citizens_waiting=24, third_passenger_lock=lock)
    assert g.st[PILE] == 50
    g.turn(f("5♦"))
    assert g.st[PILE] == 52 and len(waiting(g)) == 24  # the last citizen replaced it
    g.turn(f("A♥"))
    g.turn(f("4♦"))  # 2nd passenger: 23 wait, the second lock does not hold
    g.turn(f("A♥"))
    g.turn(f("3♦"))  # 3rd passenger: the pile is empty
    assert aboard(g, 0) == ([0, 1, 2] if third_taken else [0, 1])
    assert not g.ended


def test_third_passenger_lock_with_one_card_left(spec, board):
    """3 players, no discard: 49 cards make 24 citizens and one card that cannot be one."""
    f = board.index
    cards = deck(board, "6♦", "A♥", "8♠", "5♦", "K♣", "4♦", "Q♣", "3♦", "J♣")
    g = Hand(spec, 3, cards, citizens_waiting=24)
    assert g.st[PILE] == 51  # one card left: the pile cannot supply a citizen
    for to in ("5♦", "A♥", "8♠", "4♦", "A♥", "8♠", "3♦"):
        g.turn(f(to))
    assert aboard(g, 0) == [0, 1]
    assert len(waiting(g)) == 22  # nothing was replaced


def _spent_pile(g):
    # A constructed position: the rest of the pile is gone (as after a long game).
    g.st[PILE] = 52


def test_game_ends_at_once_when_no_citizen_waits(spec, board):
    f = board.index
    g = Hand(spec, 2, deck(board, "6♦", "A♥", "5♦", "2♠", "3♠", "K♣"), citizens_waiting=2)
    _spent_pile(g)
    assert not g.turn(f("5♦"))  # takes citizen 0; one waits
    assert not g.turn(f("A♥"))
    assert not g.turn(f("2♠"))  # delivers, fare 1
    assert not g.turn(f("A♥"))
    assert g.turn(f("3♠"))  # takes the last waiting citizen: the game is over
    events = g.trace()
    assert events[-2]["type"] == "pickup"
    assert events[-1] == {
        "type": "end",
        "turn": 5,
        "reason": "no_waiting",
        "income": [1, 0],
        "winner": 0,
    }
    assert aboard(g, 0) == [1]  # its fare is lost
    assert g.pos.advance() is None  # nothing more to play
    with pytest.raises(RuntimeError):
        g.turn(f("2♠"))


def test_tie_for_first_has_no_winner(spec, board):
    f = board.index
    g = Hand(spec, 2, deck(board, "6♦", "A♥", "5♦", "2♠", "K♥", "2♣"), citizens_waiting=2)
    _spent_pile(g)
    assert not g.turn(f("5♦"))
    assert g.turn(f("K♥"))  # seat 1 takes the last one: incomes 0 and 0
    assert g.trace()[-1] == {
        "type": "end",
        "turn": 2,
        "reason": "no_waiting",
        "income": [0, 0],
        "winner": -1,
    }


def test_turn_limit_has_no_winner(spec, board):
    f = board.index
    g = Hand(spec, 2, deck(board, "6♦", "A♥", "5♦", "2♠"), citizens_waiting=1, max_turns=4)
    for to in ("5♦", "A♥", "2♠"):
        assert not g.turn(f(to))
    assert g.turn(f("A♥"))
    assert g.trace()[-1] == {
        "type": "end",
        "turn": 4,
        "reason": "turn_limit",
        "income": [1, 0],
        "winner": -1,
    }


def test_builtin_players_answer_legal_moves(spec):
    """Every built-in heuristic answers every decision legally itself (no
    fallback): a legal move, take or leave; under both must_move settings and
    both pick-up readings, over whole games (the ones that stand guard without
    a limit, too)."""
    from sims.bahama import players

    labels = [p.name for p in players.PLAYERS] + ["waiter:patience=0", "blocker:patience=0;guard=3"]
    for must_move in (False, True):
        for pickup in ("optional", "compulsory"):
            params = spec.resolve_params({"must_move": must_move, "pickup": pickup, "max_turns": 300})
            for label in labels:
                info = spec.parse_player(label).info
                for game in range(3):
                    pos = spec.position(params, [label] * 3, seed=11, game=game)
                    while (pending := pos.advance()) is not None:
                        seat, kind, subject = pending
                        answer = info.func(kind, seat, subject, pos.st)
                        if kind == KIND_PICKUP:
                            assert pickup == "optional" and answer in (PICKUP_TAKE, PICKUP_DECLINE), (label, answer)
                        else:
                            assert is_legal_move(pos.st, seat, answer), (label, seat, answer)
                        pos.answer(answer)


def test_hand_dealt_game_played_by_builtins(spec, board):
    """A constructed deck played to the end by built-in players (the engine's loop)."""
    g = Hand(spec, 2, deck(board, "6♦", "A♥", "5♦", "2♠"), players=["nearest", "courier"])
    g.pos.play()
    end = g.trace()[-1]
    assert g.ended and end["type"] == "end" and end["reason"] == "no_waiting"
    assert end["turn"] == g.st[TURN] and waiting(g) == []


# ---- what the search player sees ------------------------------------------------------
def test_candidates_are_the_heuristics_plans(spec):
    """The search compares the distinct moves of nearest, best_fare and courier,
    all legal; at a pick-up, take and leave once the pile is out (before, the
    rollout policy's answer: n = 0)."""
    from sims.bahama import players

    out = np.zeros(64, np.int64)
    sizes = set()
    pickups = {True: 0, False: 0}  # searched pick-ups, by "the pile can still supply a citizen"
    for must_move in (False, True):
        params = spec.resolve_params({"must_move": must_move, "max_turns": 200})
        pos = spec.position(params, ["nearest", "courier", "best_fare"], seed=3, game=must_move)
        while (pending := pos.advance()) is not None:
            seat, kind, subject = pending
            n = kernel.candidates(pos.st, out)
            if kind == KIND_PICKUP:
                supply = bool(pile_can_supply(pos.st))
                assert out[:n].tolist() == ([] if supply else [PICKUP_TAKE, PICKUP_DECLINE])
                pickups[supply] += 1
                pos.answer(pos.decide())
                continue
            plans = []
            for k in (1, 2, 3):
                a = int(players.PLAYERS[k].func(kind, seat, subject, pos.st))
                if a not in plans:
                    plans.append(a)
            assert out[:n].tolist() == plans
            assert all(is_legal_move(pos.st, seat, a) for a in plans)
            sizes.add(n)
            pos.answer(pos.decide())
    assert sizes >= {1, 2, 3}  # agreement (no search needed) and real choices both occur
    assert pickups[True] > 0 and pickups[False] > 0


def test_determinize_reshuffles_only_the_pile(spec, board):
    g = Hand(spec, 2, deck(board, "6♦", "A♥", "5♦", "2♠"))
    before = g.st.copy()
    pile = int(g.st[PILE])
    kernel.determinize(g.st, np.int64(0))
    cards = g.st[DECK : DECK + 52]
    assert (cards[:pile] == before[DECK : DECK + pile]).all()  # drawn cards stay
    assert sorted(cards[pile:].tolist()) == sorted(before[DECK + pile : DECK + 52].tolist())
    assert (cards[pile:] != before[DECK + pile : DECK + 52]).any()  # the hidden order changed
    rest = np.ones(g.st.shape[0], bool)
    rest[DECK : DECK + 52] = False
    rest[CANDIDATES : ARM_VALUE + 64] = False
    from balance.state import RNG

    rest[RNG : RNG + 2] = False  # the copy's own stream moved on
    assert (g.st[rest] == before[rest]).all()  # nothing else is touched


def test_evaluate(spec, board):
    g = Hand(spec, 3, deck(board, "6♦", "A♥", "8♠"))
    st = g.st
    st[INCOME : INCOME + 3] = [6, 2, 0]
    assert kernel.evaluate(st, np.int64(0)) == VALUE_SCALE * 6 // 8  # a cut playout: 6 / (6 + 2)
    assert kernel.evaluate(st, np.int64(1)) == VALUE_SCALE * 2 // 8
    assert kernel.evaluate(st, np.int64(2)) == 0
    st[INCOME : INCOME + 3] = [0, 0, 0]
    assert kernel.evaluate(st, np.int64(2)) == VALUE_SCALE // 2
    st[WINNER] = 1
    assert kernel.evaluate(st, np.int64(1)) == VALUE_SCALE and kernel.evaluate(st, np.int64(0)) == 0


# ---- pick-up: the player's decision (pickup = optional) or compulsory -------------------
def _finish_and_referee(g):
    """Play the hand-built game to its end with its players; the referee accepts the trace."""
    from tests.bahama.referee import referee_bahama

    g.pos.play()
    return referee_bahama(g.trace())


def test_optional_pickup_is_asked_after_the_move_and_drop(spec, board):
    f = board.index
    g = Hand(spec, 2, deck(board, "6♦", "A♥", "5♦", "2♠"), citizens_waiting=1)
    assert spec.resolve_params({})["pickup"] == "optional"  # the rulebook's "may take"
    g.asked()
    g.pos.answer(f("5♦"))
    assert g.pos.pending == (0, int(KIND_PICKUP), 0)  # the same seat, about citizen 0
    assert aboard(g, 0) == [] and waiting(g) == [0]  # nothing taken before the answer
    g.pos.answer(PICKUP_TAKE)
    assert aboard(g, 0) == [0] and waiting(g) == [1]  # taken and replaced
    assert g.asked()[:2] == (1, int(KIND_MOVE))
    assert [e["type"] for e in g.trace()[-4:]] == ["move", "pickup", "citizen", "turn"]


def test_declined_citizen_stays_and_is_asked_again(spec, board):
    f = board.index
    g = Hand(spec, 2, deck(board, "6♦", "A♥", "5♦", "2♠"), citizens_waiting=1)
    pile = int(g.st[PILE])
    g.turn(f("5♦"), take=False)
    assert aboard(g, 0) == [] and waiting(g) == [0] and g.st[PILE] == pile  # no replacement drawn
    assert g.trace()[-1] == {"type": "decline", "turn": 1, "seat": 0, "field": f("5♦"), "citizens": [0]}
    g.turn(f("A♥"))
    g.asked()
    g.pos.answer(f("5♦"))  # staying is a move: the question comes again
    assert g.pos.pending == (0, int(KIND_PICKUP), 0)
    g.pos.answer(PICKUP_TAKE)
    assert aboard(g, 0) == [0]
    _finish_and_referee(g)


@pytest.mark.parametrize("answer", [2, -1, 999, int(KIND_MOVE) + 40])
def test_illegal_pickup_answers_take(spec, board, answer):
    """Any answer but PICKUP_DECLINE (0) takes: the compulsory reading's play."""
    f = board.index
    g = Hand(spec, 2, deck(board, "6♦", "A♥", "5♦", "2♠"), citizens_waiting=1)
    g.asked()
    g.pos.answer(f("5♦"))
    g.pos.answer(answer)
    assert aboard(g, 0) == [0] and g.trace()[-2]["type"] == "pickup"


def test_compulsory_pickup_asks_nothing(spec, board):
    f = board.index
    g = Hand(spec, 2, deck(board, "6♦", "A♥", "5♦", "2♠"), citizens_waiting=1, pickup="compulsory")
    g.asked()
    g.pos.answer(f("5♦"))
    assert g.pos.pending is None and aboard(g, 0) == [0]  # taken at once
    assert g.asked()[:2] == (1, int(KIND_MOVE))
    _finish_and_referee(g)


def test_no_question_when_the_taxi_may_not_take(spec, board):
    """Full (capacity 1): the citizen stays, nobody is asked, nothing is traced."""
    f = board.index
    g = Hand(spec, 2, _ride_deck(board), capacity=1)
    g.turn(f("5♦"))
    g.turn(f("A♥"))
    g.asked()
    g.pos.answer(f("4♦"))  # citizen 1 waits here; seat 0 carries citizen 0
    assert g.pos.pending is None and 1 in waiting(g)
    assert g.trace()[-1]["type"] == "move"


def test_declining_the_last_citizen_does_not_end_the_game(spec, board):
    f = board.index
    g = Hand(spec, 2, deck(board, "6♦", "A♥", "5♦", "2♠"), citizens_waiting=1, max_turns=3)
    _spent_pile(g)
    assert not g.turn(f("5♦"), take=False)
    assert waiting(g) == [0]
    assert not g.turn(f("A♥"))
    assert g.turn(f("5♦"), take=False)  # the turn cap, after the decline
    assert [e["type"] for e in g.trace()[-3:]] == ["move", "decline", "end"]
    assert g.trace()[-1]["reason"] == "turn_limit"


def test_taking_ends_game_and_lead(spec, board):
    from sims.bahama.state import lead, taking_ends_game

    g = Hand(spec, 3, deck(board, "6♦", "A♥", "8♠", "5♦", "2♠", "K♥", "2♣"), citizens_waiting=2)
    assert not taking_ends_game(g.st)  # two wait and the pile can replace one
    _spent_pile(g)
    assert not taking_ends_game(g.st)  # two wait
    g.turn(board.index("5♦"))
    assert taking_ends_game(g.st)  # the last one waits and nothing replaces it
    g.st[INCOME : INCOME + 3] = [4, 7, 7]
    assert [int(lead(g.st, np.int64(s))) for s in range(3)] == [-3, 0, 0]


# ---- players that use the choices --------------------------------------------------------
def _last_citizen(spec, board, players, incomes_now, **overrides):
    """Seat 0 on 6♦ next to the last waiting citizen (5♦ → 2♠), seat 1 on A♥;
    the pile spent; incomes as given."""
    g = Hand(spec, 2, deck(board, "6♦", "A♥", "5♦", "2♠"), players=players, citizens_waiting=1, **overrides)
    _spent_pile(g)
    g.st[INCOME : INCOME + 2] = incomes_now
    return g


@pytest.mark.parametrize(
    "label,incomes_now,answer",
    [
        ("closer", [0, 3], PICKUP_DECLINE),  # behind: taking would end a lost game
        ("closer", [3, 0], PICKUP_TAKE),  # ahead: taking wins
        ("closer", [3, 3], PICKUP_TAKE),  # a tie: no winner, not a loss (margin 0)
        ("closer:margin=1", [3, 3], PICKUP_DECLINE),
        ("nearest", [0, 3], PICKUP_TAKE),  # the old heuristics always take
    ],
)
def test_closer_leaves_the_last_citizen_while_behind(spec, board, label, incomes_now, answer):
    f = board.index
    g = _last_citizen(spec, board, [label, "nearest"], incomes_now)
    g.asked()
    g.pos.answer(f("5♦"))
    assert g.pos.pending[1] == KIND_PICKUP and g.pos.decide() == answer


def test_closer_does_not_drive_for_a_losing_end(spec, board):
    f = board.index
    behind = _last_citizen(spec, board, ["closer", "nearest"], [0, 3])
    behind.asked()
    assert behind.pos.decide() != f("5♦")  # no job left: it makes way instead
    ahead = _last_citizen(spec, board, ["closer", "nearest"], [3, 0])
    ahead.asked()
    assert ahead.pos.decide() == f("5♦")  # it goes to end the game it leads


def test_waiter_stands_on_the_last_citizen_for_its_patience(spec, board):
    f = board.index
    g = _last_citizen(spec, board, ["waiter:patience=2", "nearest"], [0, 3])
    g.asked()
    assert g.pos.decide() == f("5♦")
    g.pos.answer(f("5♦"))
    assert g.pos.decide() == PICKUP_DECLINE
    g.pos.answer(PICKUP_DECLINE)
    g.turn(f("A♥"))  # seat 1 stays away
    for _ in range(2):  # two turns of guard: it stays and leaves the citizen waiting
        g.asked()
        assert g.pos.decide() == f("5♦")
        g.turn(f("5♦"), take=False)
        g.turn(f("A♥"))
    g.asked()
    assert g.pos.decide() != f("5♦")  # patience spent: it plays closer and makes way
    assert waiting(g) == [0] and not g.ended


def test_waiter_under_must_move_cannot_stand(spec, board):
    f = board.index
    g = _last_citizen(spec, board, ["waiter:patience=0", "nearest"], [0, 3], must_move=True)
    g.turn(f("5♦"), take=False)
    g.turn(f("A♥"))
    g.asked()
    step = g.pos.decide()
    assert step != f("5♦") and is_legal_move(g.st, 0, step)  # the first free neighbour: it must move


def test_waiter_under_compulsory_pickup_does_not_guard_what_it_must_take(spec, board):
    f = board.index
    g = _last_citizen(spec, board, ["waiter:patience=0", "nearest"], [0, 3], pickup="compulsory")
    g.asked()
    assert g.pos.decide() != f("5♦")  # standing there would take the citizen and end the game


def test_blocker_stands_on_the_leaders_destination(spec, board):
    """Seat 1 (the leader) takes the second-last citizen at 2♠, bound for 5♦; the
    blocker on 6♦ gets to 5♦ first and stays there."""
    f = board.index
    cards = deck(board, "6♦", "3♠", "2♠", "5♦", "A♥", "K♥")
    g = Hand(spec, 2, cards, players=["blocker", "nearest"], citizens_waiting=2)
    _spent_pile(g)
    g.st[INCOME : INCOME + 2] = [0, 5]
    g.turn(f("6♦"))
    g.turn(f("2♠"))  # seat 1 takes citizen 0 (2♠ → 5♦); citizen 1 (A♥ → K♥) is the last
    assert aboard(g, 1) == [0] and waiting(g) == [1]
    g.asked()
    assert g.pos.decide() == f("5♦")
    g.turn(f("5♦"))
    g.turn(f("3♠"))
    g.asked()
    assert g.pos.decide() == f("5♦")  # it stays: seat 1 cannot deliver
    ahead = Hand(spec, 2, cards, players=["blocker", "nearest"], citizens_waiting=2)
    _spent_pile(ahead)
    ahead.st[INCOME : INCOME + 2] = [9, 5]
    ahead.turn(f("6♦"))
    ahead.turn(f("2♠"))
    ahead.asked()
    assert ahead.pos.decide() != f("5♦")  # not losing: it plays closer (drives for citizen 1)
