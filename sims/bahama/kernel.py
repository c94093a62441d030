"""Bahama Taxi's rules as a state machine for balance.engine (seed 003, issue 5; RULES.md).

One game, in the rulebook's words: the shuffled deck is the draw pile of
fields; each player draws the start field of its taxi; 8 waiting citizens are
drawn as two cards each (origin, then destination).  In turn each taxi moves to
an adjacent free field or stays; at the end of the move it drops every
passenger bound for this field (fare = shortest-path distance origin →
destination) and may take the citizen waiting there if the capacity and the
end-phase limits allow (``pickup``: the player's choice, or compulsory); a
citizen taken is replaced while the pile holds two cards.  The game ends as
soon as no citizen waits.

As a state machine (state.py has the layout)::

    advance: PHASE_SETUP -> shuffle the deck, deal (setup), then
             PHASE_TURN  -> next seat's turn begins: ask it KIND_MOVE
                            (PHASE_MOVE until answered)
    apply:   PHASE_MOVE  -> move (an illegal answer: the fallback), drop; a
                            citizen here that the taxi may take: with pickup =
                            optional ask KIND_PICKUP (PHASE_PICKUP until
                            answered), else take it
             PHASE_PICKUP-> take (and replace) or leave it waiting
             then end when no citizen waits, or after max_turns turns

The one random draw of the rules is the shuffle at setup (51 draws of the
game's stream, Fisher-Yates from the last card down); a random player's draws
follow it on the same stream.  A hand-built position forces the shuffle with a
script (:func:`deck_script`): ``SPEC.position(params, players,
script=deck_script(deck))`` deals ``deck`` in that order.

Speed (RULES.md, "Speed"): a turn is ~55 ns, so a call matters.  ``advance``
and ``apply`` are compiled into the engine's loops (``forceinline``: LLVM's
alwaysinline), as is the default heuristic (players.py); a call passes the
state as seven words and, with reference counting on, makes two more calls,
which made a game 20% slower than the same rules inlined.  Nothing here
allocates, so every function is compiled without reference counting
(``_nrt=False``).  The rare steps (setup, a citizen drawn, the end) stay calls
(``forceinline=False``: numba's callees would otherwise inherit the flag) to
keep the inlined loops small.  A trace row is written by its event's writer
(events.py): an untraced game pays one test of ``st[RECORD]`` a row.  The
state is addressed through its regions' helpers (state.py), never by offset
arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from balance.engine import compile_kernel
from balance.state import (
    DECIDER,
    DECISION,
    N_SEATS,
    RECORD,
    SEAT,
    SUBJECT,
    TURN,
    VALUE_SCALE,
    WINNER,
    ask,
    end_game,
    event_value,
    lend_params,
    return_params,
    shuffle,
)
from sims.bahama import players
from sims.bahama.params import (
    P_CITIZENS_WAITING,
    P_MAX_TURNS,
    P_PICKUP,
    P_THREE_PLAYER_DISCARD,
    PICKUP_OPTIONAL,
)
from sims.bahama.events import (
    begin_end,
    write_citizen,
    write_decline,
    write_drop,
    write_move,
    write_pickup,
    write_turn,
)
from sims.bahama.state import (
    DECK,
    DECK_END,
    KIND_MOVE,
    KIND_PICKUP,
    MAX_TAXIS,
    N_CITIZENS,
    N_FIELDS,
    N_WAITING,
    PHASE,
    PHASE_MOVE,
    PHASE_PICKUP,
    PHASE_SETUP,
    PHASE_TURN,
    PICKUP_DECLINE,
    PICKUP_TAKE,
    PILE,
    aboard_slot,
    deck_slot,
    dest_slot,
    dist,
    fallback_move,
    fare_slot,
    income_slot,
    is_legal_move,
    may_take,
    n_aboard_slot,
    origin_slot,
    pile_can_supply,
    rule_slot,
    taxi_at_slot,
    taxi_slot,
    waiting_at_slot,
    waiting_slot,
)

# End reasons, in the order of SPEC.end_reasons.
END_NO_WAITING = np.int64(0)
END_TURN_LIMIT = np.int64(1)
NO_WINNER = np.int64(-1)


# ------------------------------------------------------------------------------------ setup
@njit(cache=True, _nrt=False, forceinline=False)
def _draw_citizen(st):
    """Two cards from the pile: the origin (bottom card), then the destination (top)."""
    pile = st[PILE]
    k = st[N_CITIZENS]
    o = st[deck_slot(pile)]
    d = st[deck_slot(pile + 1)]
    st[PILE] = pile + 2
    st[origin_slot(k)] = o
    st[dest_slot(k)] = d
    st[fare_slot(k)] = dist(st, o, d)
    st[waiting_at_slot(o)] = k
    n = st[N_WAITING]
    st[waiting_slot(n)] = k
    st[N_WAITING] = n + 1
    st[N_CITIZENS] = k + 1
    write_citizen(st, -1, k, o, d)


@njit(cache=True, _nrt=False, forceinline=False)
def setup(st):
    """Shuffle the deck, place the taxis on the start cards, draw the citizens."""
    n_seats = st[N_SEATS]
    for f in range(N_FIELDS):
        st[deck_slot(f)] = f
        st[taxi_at_slot(f)] = -1
        st[waiting_at_slot(f)] = -1
    shuffle(st, DECK, DECK_END)
    for s in range(MAX_TAXIS):
        st[taxi_slot(s)] = -1
    # Start cards go to the discard pile: no citizen can ever use those fields.
    for s in range(n_seats):
        f = st[deck_slot(s)]
        st[taxi_slot(s)] = f
        st[taxi_at_slot(f)] = s
    pile = n_seats
    if n_seats == 3 and st[rule_slot(P_THREE_PLAYER_DISCARD)] != 0:
        pile += 1
    st[PILE] = pile
    for _ in range(st[rule_slot(P_CITIZENS_WAITING)]):
        if pile_can_supply(st):
            _draw_citizen(st)


# ------------------------------------------------------------------------------------- turn
@njit(cache=True, _nrt=False, forceinline=False)
def _end(st, reason):
    winner = NO_WINNER
    # turn_limit: the rulebook's game has not ended, so nobody has won it (RULES.md).
    if reason == END_NO_WAITING:
        best = -1
        for s in range(st[N_SEATS]):
            if st[income_slot(s)] > best:
                best = st[income_slot(s)]
                winner = s
            elif st[income_slot(s)] == best:
                winner = NO_WINNER
    end_game(st, reason, winner)
    if st[RECORD]:
        at = begin_end(st)
        st[event_value(at, 0)] = reason
        st[event_value(at, 1)] = winner
        for s in range(st[N_SEATS]):  # income of each seat
            st[event_value(at, 2 + s)] = st[income_slot(s)]


@njit(cache=True, _nrt=False, forceinline=True)
def advance(st):
    """Set up on the first call; then begin the next player turn: the seat to
    move is asked where to go."""
    phase = st[PHASE]
    if phase >= PHASE_MOVE:  # a decision is pending (PHASE_MOVE, PHASE_PICKUP): nothing to run
        return
    if phase == PHASE_SETUP:
        setup(st)
    st[TURN] += 1
    seat = st[SEAT] + 1  # -1 before the first turn
    if seat >= st[N_SEATS]:
        seat = 0
    st[SEAT] = seat
    write_turn(st, seat)
    st[PHASE] = PHASE_MOVE
    ask(st, seat, KIND_MOVE, st[taxi_slot(seat)])


@njit(cache=True, _nrt=False, forceinline=False)
def _take(st, seat, c):
    """``seat``'s taxi takes citizen ``c`` (waiting on its field), a replacement is
    drawn while the pile holds two cards; True when that left nobody waiting
    (the game has ended)."""
    st[waiting_at_slot(st[origin_slot(c)])] = -1
    w = st[N_WAITING]
    k = 0
    while st[waiting_slot(k)] != c:
        k += 1
    for j in range(k, w - 1):  # keep draw order
        st[waiting_slot(j)] = st[waiting_slot(j + 1)]
    st[N_WAITING] = w - 1
    n = st[n_aboard_slot(seat)]
    st[aboard_slot(seat, n)] = c
    st[n_aboard_slot(seat)] = n + 1
    write_pickup(st, seat, st[taxi_slot(seat)], c)
    if pile_can_supply(st):
        _draw_citizen(st)
    if st[N_WAITING] == 0:
        _end(st, END_NO_WAITING)
        return True
    return False


@njit(cache=True, _nrt=False, forceinline=True)
def _turn_over(st):
    """The mover's turn is over: end the game at the turn cap."""
    if st[TURN] >= st[rule_slot(P_MAX_TURNS)]:
        _end(st, END_TURN_LIMIT)


@njit(cache=True, _nrt=False, forceinline=True)
def apply(st, answer):
    """Resolve the pending decision.  A move: drive to ``answer`` (an illegal
    answer: the fallback), drop, then take the citizen waiting here when the
    taxi may (with ``pickup = optional``, ask first: KIND_PICKUP).  A pick-up:
    take (``PICKUP_TAKE``, or any illegal answer) or leave the citizen waiting
    (``PICKUP_DECLINE``).  The game ends when no citizen waits, or at the turn
    cap once the turn is over."""
    seat = st[SEAT]
    st[DECIDER] = -1
    if st[PHASE] == PHASE_PICKUP:
        st[PHASE] = PHASE_TURN
        c = st[SUBJECT]
        if answer == PICKUP_DECLINE:
            write_decline(st, seat, st[taxi_slot(seat)], c)
        elif _take(st, seat, c):
            return
        _turn_over(st)
        return
    st[PHASE] = PHASE_TURN
    here = st[taxi_slot(seat)]
    to = answer
    if not is_legal_move(st, seat, to):
        to = fallback_move(st, seat)
    st[taxi_at_slot(here)] = -1
    st[taxi_at_slot(to)] = seat
    st[taxi_slot(seat)] = to
    write_move(st, seat, here, to)

    # Drop every passenger bound for this field.  Each card is drawn once, so at most
    # one passenger can be bound for a field, and a field is never both a destination
    # and an origin: drop and pick-up cannot interact (issue 5).
    n = st[n_aboard_slot(seat)]
    i = 0
    while i < n:
        c = st[aboard_slot(seat, i)]
        if st[dest_slot(c)] == to:
            pays = st[fare_slot(c)]
            st[income_slot(seat)] += pays
            for j in range(i, n - 1):  # keep pick-up order
                st[aboard_slot(seat, j)] = st[aboard_slot(seat, j + 1)]
            n -= 1
            write_drop(st, seat, to, c, pays)
        else:
            i += 1
    st[n_aboard_slot(seat)] = n

    # The citizen waiting here (at most one: each field's card is drawn once).
    c = st[waiting_at_slot(to)]
    if c >= 0 and may_take(st, seat):
        if st[rule_slot(P_PICKUP)] == PICKUP_OPTIONAL:
            st[PHASE] = PHASE_PICKUP  # the turn goes on with the mover's answer
            ask(st, seat, KIND_PICKUP, c)
            return
        if _take(st, seat, c):
            return
    _turn_over(st)


# ------------------------------------------------------------------------------- search
# The heuristics whose answers make the search's menu (players.PLAYERS indices:
# nearest, best_fare, courier; random is left out, and none of them draws).
PLANS = (np.int64(1), np.int64(2), np.int64(3))


@njit(cache=True, _nrt=False)
def candidates(st, out):
    """A small menu of plans: the distinct moves nearest, best_fare and courier
    would make here (each one legal).

    Not every legal move: a move's value is the outcome of a whole game away,
    so 64 playouts shared by the 5-8 legal moves tell them apart mostly by
    chance, and the search left its rollout policy's good move a quarter of
    the time; against any opponent but its own rollout policy it then played
    worse than the rollout policy alone.  Measured, 600 games each, seats rotated
    (seed 2026): with every legal move, mc won 44-45% against best_fare
    (nearest wins 76%) and 54% against courier; with stay added to this menu,
    68% and 84%; with this menu, 89% and 97%, and 81% against nearest."""
    if st[DECISION] == KIND_PICKUP:
        if pile_can_supply(st):
            return 0  # before the end phase: the rollout policy's answer (take)
        out[0] = PICKUP_TAKE
        out[1] = PICKUP_DECLINE
        return 2
    seat = st[SEAT]
    here = st[taxi_slot(seat)]
    n = 0
    for k in PLANS:
        lent = lend_params(st, seat, k)  # each plan with its own player's parameters
        a = players.heuristics(k, KIND_MOVE, seat, here, st)
        return_params(st, seat, lent)
        new = True
        for i in range(n):
            if out[i] == a:
                new = False
        if new:
            out[n] = a
            n += 1
    return n


@njit(cache=True, _nrt=False)
def determinize(st, seat):
    """The order of the cards still in the pile is hidden from every player:
    reshuffle them in the search's copy from the copy's own stream.  Everything
    else (taxis, citizens and where they go, passengers, incomes) lies open."""
    if st[PHASE] != PHASE_SETUP:
        shuffle(st, deck_slot(st[PILE]), DECK_END)


@njit(cache=True, _nrt=False)
def evaluate(st, seat):
    """A playout's value for ``seat``: a win VALUE_SCALE, a loss to another seat
    0; otherwise (a tie for first, the turn cap, or a playout cut at its
    horizon) the seat's share of its own and the best other seat's income,
    ``VALUE_SCALE * mine / (mine + best other)`` (half when both are 0): a
    tie for first is worth half a win, and a cut playout is worth more the
    further the seat leads."""
    winner = st[WINNER]
    if winner >= 0:
        return VALUE_SCALE if winner == seat else 0
    mine = st[income_slot(seat)]
    other = 0
    for s in range(st[N_SEATS]):
        if s != seat and st[income_slot(s)] > other:
            other = st[income_slot(s)]
    if mine + other == 0:
        return VALUE_SCALE // 2
    return VALUE_SCALE * mine // (mine + other)


# ------------------------------------------------------------------------------ positions
def deck_script(deck: Sequence[int]) -> list[int]:
    """The forced draws (``SPEC.position(..., script=...)``) that make the
    setup's shuffle deal ``deck``, a permutation of the 52 field indices in draw
    order (start cards first, then each citizen's origin and destination)."""
    cards = [int(x) for x in deck]
    if sorted(cards) != list(range(N_FIELDS)):
        raise ValueError("deck must be a permutation of the 52 field indices")
    current = list(range(N_FIELDS))
    script = []
    for i in range(N_FIELDS - 1, 0, -1):
        j = current.index(cards[i])
        script.append(j)
        current[i], current[j] = current[j], current[i]
    return script


@njit(cache=True)
def standing(st, seat):
    """Who is ahead, for the game-feel counters: the fares the seat has
    collected (its income, the score the game is won on)."""
    return st[income_slot(seat)]


KERNEL = compile_kernel(
    __name__,
    advance=advance,
    apply=apply,
    heuristics=players.heuristics,
    n_heuristics=len(players.PLAYERS),
    candidates=candidates,
    determinize=determinize,
    evaluate=evaluate,
    standing=standing,
)
