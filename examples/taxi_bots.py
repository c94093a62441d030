"""Example TAXI! players, loaded without touching the package:

    balance run taxi --player-file examples/taxi_bots.py --players saver,router
    balance trace taxi --player-file examples/taxi_bots.py --players sprinter,cautious

A player is a numba ``@njit`` function with the one player signature::

    def my_player(kind, seat, subject, st) -> int

``kind`` is one of the decisions of ``sims/taxi/state.py`` (KIND_BARRIER,
KIND_BUY, KIND_CARD, KIND_BET, KIND_MOVE) and the module docstring there says
what ``subject`` is and what to answer.  A move is a sequence of answers: the
kernel lists the one-street drives from the taxi's node (``menu_node(st, i)``,
``menu_greens``, ``menu_whites``, ``menu_steps``, ``menu_streets`` for
``i < st[MENU_N]``); answer an index to drive it, ``STOP`` to end the move.
Read holdings as ``st[money_at(seat)]``, ``st[greens_at(seat)]`` ...; distances
with ``d0(st, u, v)``; random numbers only with ``draw_below(st, n)``.  An
illegal answer is replaced by the passive one (no purchase, the Passenger
deck, no bet, keep the barrier, stay put), so a bug makes a player weak, never
a cheater.  The heuristics' own building blocks (``drive``, ``bar``,
``bet_value``) are in ``sims/taxi/players.py`` and may be reused.
"""

from numba import njit

from balance import player
from sims.taxi.players import bar, bet_value, drive
from sims.taxi.state import (
    BET_MONEY,
    BET_NONE,
    CARD_JOURNEY,
    CARD_PASSENGER,
    KIND_BARRIER,
    KIND_BET,
    KIND_BUY,
    KIND_CARD,
    MENU_N,
    STOP,
    can_end,
    d0,
    dest_at,
    menu_greens,
    menu_node,
    menu_steps,
    menu_whites,
    money_at,
    taxi_node,
)


@player("taxi", "saver", "Passenger cards; drives like the heuristics but never spends a tablet")
@njit
def saver(kind, seat, subject, st):
    if kind == KIND_BARRIER:
        return bar(st, seat, subject)
    if kind == KIND_BUY:
        return 0
    if kind == KIND_CARD:
        return CARD_PASSENGER
    if kind == KIND_BET:
        return BET_NONE
    # KIND_MOVE: the tablet-free drive that gets nearest the destination
    dest = st[dest_at(seat)]
    here = d0(st, taxi_node(st), dest)
    best = -1
    best_d = here
    for i in range(st[MENU_N]):
        x = menu_node(st, i)
        if menu_greens(st, i) + menu_whites(st, i) > 0 or not can_end(st, x):
            continue
        dd = d0(st, x, dest)
        if dd < best_d or (dd == best_d and best >= 0 and menu_steps(st, i) < menu_steps(st, best)):
            best = i
            best_d = dd
    return STOP if best < 0 else best


@player("taxi", "sprinter", "Journey cards for their extra streets, money bets only; drives and bars like the heuristics")
@njit
def sprinter(kind, seat, subject, st):
    if kind == KIND_BARRIER:
        return bar(st, seat, subject)
    if kind == KIND_BUY:
        return 0
    if kind == KIND_CARD:
        return CARD_JOURNEY if st[money_at(seat)] >= 2000 else CARD_PASSENGER
    if kind == KIND_BET:
        return BET_MONEY if bet_value(st, BET_MONEY) > 0 and st[money_at(seat)] >= 4000 else BET_NONE
    return drive(st, seat)
