"""Hand-traced positions: the kernel's own rules from constructed decks.

Each test deals a deck whose first cards are chosen (start fields, then
citizens as origin, destination), plays given answers turn by turn with
``kernel.HandGame`` and checks the state and the trace events.  The remaining
cards follow in field order (A♠, K♠, Q♠, ...): replacement citizens come from
there, far from the ♦ fields the taxis use here.

Road facts used (issue 5's board): 6♦–5♦, 5♦–4♦, 4♦–3♦ (inside ♦), 5♦–2♠ and
6♦–8♠, 6♦–2♠ (♦ to ♠), 2♠–3♠, A♥–K♥, and 5♠'s only neighbours 6♠, 4♠, 2♥.
"""

from __future__ import annotations

import pytest

from sims.bahama import kernel
from sims.bahama.kernel import C_PILE, C_TURN, C_WAITING, HandGame


def deck(board, *names):
    first = [board.index(n) for n in names]
    return first + [i for i in range(52) if i not in first]


def params(spec, **overrides):
    return spec.resolve_params(overrides)


def where(game, seat):
    return int(game.st["taxi"][seat])


def aboard(game, seat):
    return [int(c) for c in game.st["aboard"][seat][: game.st["n_aboard"][seat]]]


def waiting(game):
    return [int(c) for c in game.st["waiting"][: game.counter(C_WAITING)]]


def test_setup_draws_starts_then_citizens(spec, board):
    g = HandGame(
        params(spec, citizens_waiting=3),
        board,
        2,
        deck(board, "6♦", "A♥", "5♦", "2♠", "4♦", "K♣"),
    )
    f = board.index
    assert where(g, 0) == f("6♦") and where(g, 1) == f("A♥")
    assert waiting(g) == [0, 1, 2]
    assert [int(x) for x in g.st["origin"][:3]] == [f("5♦"), f("4♦"), f("A♠")]
    assert [int(x) for x in g.st["dest"][:3]] == [f("2♠"), f("K♣"), f("K♠")]
    assert g.counter(C_PILE) == 2 + 2 * 3 and g.counter(C_TURN) == 0
    assert g.trace() == [
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
    ]


@pytest.mark.parametrize("discard,first_origin", [(False, "2♠"), (True, "4♦")])
def test_three_player_discard(spec, board, discard, first_origin):
    cards = deck(board, "6♦", "A♥", "8♠", "2♠", "4♦", "K♣", "Q♣")
    g = HandGame(
        params(spec, citizens_waiting=1, three_player_discard=discard), board, 3, cards
    )
    assert int(g.st["origin"][0]) == board.index(first_origin)
    assert g.counter(C_PILE) == 3 + discard + 2
    # With 2 players the variant does nothing.
    g2 = HandGame(
        params(spec, citizens_waiting=1, three_player_discard=discard), board, 2, cards
    )
    assert int(g2.st["origin"][0]) == board.index("8♠")


def test_pickup_replacement_drop_and_fare(spec, board):
    """The rulebook's 5♦ → 2♠ ride: fare 1."""
    f = board.index
    g = HandGame(
        params(spec, citizens_waiting=1), board, 2, deck(board, "6♦", "A♥", "5♦", "2♠")
    )
    assert not g.turn(
        f("5♦")
    )  # seat 0 takes citizen 0; citizen 1 (A♠ → K♠) replaces it
    assert aboard(g, 0) == [0] and waiting(g) == [1]
    assert not g.turn(f("A♥"))  # seat 1 stays
    assert not g.turn(f("2♠"))  # seat 0 sets citizen 0 down
    assert aboard(g, 0) == [] and [int(x) for x in g.st["income"][:2]] == [1, 0]
    assert g.trace()[1:] == [
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
    g = HandGame(params(spec), board, 2, deck(board, "6♦", "8♠"))
    for answer in (999, -1, f("A♠"), f("8♠")):  # off the board, not adjacent, occupied
        seat = g.counter(kernel.C_SEAT)
        here = where(g, seat)
        g.turn(answer)
        assert where(g, seat) == here
    assert all(e["from"] == e["to"] for e in g.trace() if e["type"] == "move")


def test_must_move(spec, board):
    f = board.index
    # 6♦'s neighbours in field order: 8♠, 2♠, 10♦, 7♦, 5♦, 4♦; seat 1 stands on 8♠.
    free = HandGame(params(spec), board, 2, deck(board, "6♦", "8♠"))
    free.turn(f("6♦"))
    assert where(free, 0) == f("6♦")
    forced = HandGame(params(spec, must_move=True), board, 2, deck(board, "6♦", "8♠"))
    forced.turn(f("6♦"))  # staying is illegal: the first free neighbour in field order
    assert where(forced, 0) == f("2♠")
    forced.turn(f("6♦"))  # seat 1 moves to 6♦, now free: legal
    assert where(forced, 1) == f("6♦")


def test_must_move_boxed_in_stays(spec, board):
    f = board.index
    cards = deck(board, "5♠", "6♠", "4♠", "2♥")
    g = HandGame(params(spec, must_move=True), board, 4, cards)
    g.turn(f("5♠"))
    assert where(g, 0) == f("5♠")  # every neighbour is taken: staying is the only move
    g.turn(
        f("5♠")
    )  # seat 1 (6♠) answers a taken field: must_move sends it to its first free neighbour
    assert where(g, 1) == board.adjacency[f("6♠")][0] != f("5♠")


def _ride_deck(board, **kw):
    # seat 0 on 6♦ can reach 5♦, 4♦, 3♦ in one step each; seat 1 waits on A♥.
    return deck(board, "6♦", "A♥", "5♦", "K♣", "4♦", "Q♣", "3♦", "J♣")


def test_capacity(spec, board):
    f = board.index
    one = HandGame(params(spec, capacity=1), board, 2, _ride_deck(board))
    for to in ("5♦", "A♥", "4♦"):
        one.turn(f(to))
    assert aboard(one, 0) == [0] and 1 in waiting(one)
    three = HandGame(params(spec, capacity=3), board, 2, _ride_deck(board))
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
    g = HandGame(params(spec, **overrides), board, 2, _ride_deck(board))
    g.turn(f("5♦"))  # an empty taxi may always take a 1st passenger; it is replaced
    assert aboard(g, 0) == [0] and len(waiting(g)) == overrides["citizens_waiting"]
    g.turn(f("A♥"))
    g.turn(f("4♦"))
    assert aboard(g, 0) == ([0, 1] if second_taken else [0])
    assert (1 in waiting(g)) != second_taken


@pytest.mark.parametrize("lock,third_taken", [(True, False), (False, True)])
def test_third_passenger_lock_once_the_pile_cannot_supply(
    spec, board, lock, third_taken
):
    """24 citizens with 2 players leave 2 cards: the first replacement empties the pile."""
    f = board.index
    g = HandGame(
        params(spec, citizens_waiting=24, third_passenger_lock=lock),
        board,
        2,
        _ride_deck(board),
    )
    assert g.counter(C_PILE) == 50
    g.turn(f("5♦"))
    assert (
        g.counter(C_PILE) == 52 and len(waiting(g)) == 24
    )  # the last citizen replaced it
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
    g = HandGame(params(spec, citizens_waiting=24), board, 3, cards)
    assert g.counter(C_PILE) == 51  # one card left: the pile cannot supply a citizen
    for to in ("5♦", "A♥", "8♠", "4♦", "A♥", "8♠", "3♦"):
        g.turn(f(to))
    assert aboard(g, 0) == [0, 1]
    assert len(waiting(g)) == 22  # nothing was replaced


def _spent_pile(game):
    # A constructed position: the rest of the pile is gone (as after a long game).
    game.st["counters"][C_PILE] = 52


def test_game_ends_at_once_when_no_citizen_waits(spec, board):
    f = board.index
    g = HandGame(
        params(spec, citizens_waiting=2),
        board,
        2,
        deck(board, "6♦", "A♥", "5♦", "2♠", "3♠", "K♣"),
    )
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
    with pytest.raises(RuntimeError):
        g.turn(f("2♠"))


def test_tie_for_first_has_no_winner(spec, board):
    f = board.index
    g = HandGame(
        params(spec, citizens_waiting=2),
        board,
        2,
        deck(board, "6♦", "A♥", "5♦", "2♠", "K♥", "2♣"),
    )
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
    g = HandGame(
        params(spec, citizens_waiting=1, max_turns=4),
        board,
        2,
        deck(board, "6♦", "A♥", "5♦", "2♠"),
    )
    for to in ("5♦", "A♥", "2♠"):
        assert not g.turn(f(to))
    assert g.turn(f("A♥"))
    end = g.trace()[-1]
    assert end == {
        "type": "end",
        "turn": 4,
        "reason": "turn_limit",
        "income": [1, 0],
        "winner": -1,
    }


def test_builtin_players_answer_legal_moves(spec, board):
    """Every built-in answers a legal move itself (no fallback), under both
    must_move settings, over whole games."""
    import numpy as np

    from balance.rng import rng_seed
    from sims.bahama import players

    rng = np.zeros(2, np.uint64)
    for must_move in (False, True):
        for k, info in enumerate(players.PLAYERS):
            for game in range(3):
                rng_seed(rng, np.uint64(11), game)
                order = np.arange(52)
                np.random.default_rng(game).shuffle(order)
                g = HandGame(
                    params(spec, must_move=must_move, max_turns=300),
                    board,
                    3,
                    order.tolist(),
                )
                while not g.ended:
                    seat = g.counter(kernel.C_SEAT)
                    to = info.func(seat, g.st, rng)
                    assert kernel.is_legal_move(g.st, seat, to), (info.name, seat, to)
                    g.turn(to)


def test_hand_dealt_game_played_by_builtins(spec, board):
    """A constructed deck played to the end by built-in players (same kernel loop)."""
    g = HandGame(params(spec), board, 2, deck(board, "6♦", "A♥", "5♦", "2♠"))
    g.play([1, 3])  # nearest, courier
    end = g.trace()[-1]
    assert g.ended and end["type"] == "end" and end["reason"] == "no_waiting"
    assert end["turn"] == g.counter(C_TURN) and waiting(g) == []
