"""Example Carmarace players, loaded without touching the package:

    balance players carmarace --player-file examples/carmarace_bots.py
    balance run carmarace --player-file examples/carmarace_bots.py --players cruiser,hunter,hunter,hunter --rotate-seats

A player has the one player signature ``(kind, seat, subject, st) -> int`` and
reads the state through ``sims.carmarace.state`` (its module docstring lists
the decision kinds, their subjects and answers, and the state's regions):
``st[pawn_at(seat)]`` is the seat's space, ``st[hand_at(seat, i)]`` for
``i < st[hand_n_at(seat)]`` its hand (card ids in id order), ``card(st, c,
C_SPEED)`` a card's printed speed, ``playable(st, c, node)`` whether a
transport can move from a space, ``togo(st, node)`` the spaces still to go,
``step_mask(st, move_class(st, st[VEHICLE]), node, st[MV_ENTERED])`` the legal
steps of the current move (bit k: the k-th of ``next_of(st, node, k)``).
Random numbers only through ``balance.state.draw_below(st, n)``.  An illegal
answer becomes the rule's safe default, so a buggy player cannot break a rule.
"""

from numba import njit

from balance import player
from sims.carmarace.state import (
    C_DECK,
    C_MODE,
    C_SPEED,
    D_ROAD,
    D_TRANSPORT,
    DRAW,
    GO_ON,
    MODE_ROAD,
    MV_ENTERED,
    NEXT,
    REFILL,
    RIDE,
    TRANSPORT,
    VEHICLE,
    card,
    deck_drawable,
    first_drawable,
    hand_at,
    hand_n_at,
    move_class,
    n_next,
    next_of,
    pawn_at,
    playable,
    step_mask,
    togo,
)


@njit
def _playable_transports(st, seat):
    n = 0
    for i in range(st[hand_n_at(seat)]):
        c = st[hand_at(seat, i)]
        if card(st, c, C_DECK) == D_TRANSPORT and playable(st, c, st[pawn_at(seat)]):
            n += 1
    return n


@player("carmarace", "cruiser", "rides its fastest road vehicle as far as it goes; never plays Karma")
@njit
def cruiser(kind, seat, subject, st):
    if kind == DRAW:
        # a transport while it holds no playable one, else road Karma (a fuller hand to discard)
        d = D_ROAD if _playable_transports(st, seat) > 0 else D_TRANSPORT
        return d if deck_drawable(st, d) else first_drawable(st)
    if kind == RIDE or kind == GO_ON:
        return 1
    if kind == TRANSPORT:
        # the fastest playable road vehicle (trains and planes only when nothing else moves)
        best = -1
        for i in range(st[hand_n_at(seat)]):
            c = st[hand_at(seat, i)]
            if card(st, c, C_DECK) != D_TRANSPORT or not playable(st, c, st[pawn_at(seat)]):
                continue
            road = card(st, c, C_MODE) == MODE_ROAD
            if best < 0 or (road and card(st, best, C_MODE) != MODE_ROAD) or (
                road == (card(st, best, C_MODE) == MODE_ROAD) and card(st, c, C_SPEED) > card(st, best, C_SPEED)
            ):
                best = c
        return best
    if kind == NEXT:
        # the legal next space nearest the Convention
        mask = step_mask(st, move_class(st, st[VEHICLE]), subject, st[MV_ENTERED])
        best = -1
        for k in range(n_next(st, subject)):
            w = next_of(st, subject, k)
            if (mask >> k) & 1 and (best < 0 or togo(st, w) < togo(st, best)):
                best = w
        return best
    if kind == REFILL:
        # every Karma card and every transport it cannot play from here: bit i = hand position i
        mask = 0
        for i in range(st[hand_n_at(seat)]):
            c = st[hand_at(seat, i)]
            if card(st, c, C_DECK) != D_TRANSPORT or not playable(st, c, st[pawn_at(seat)]):
                mask |= 1 << i
        return mask
    return -1  # no own Karma, pass every karma opportunity, no Good-Karma step
