"""TAXI!'s heuristic players (spec section (e); RULES.md, "Players").

Every heuristic drives and places barriers the same way; they differ in the
game's three strategic choices: the card (Journey or Passenger), the bets and
the purchases.

* **Drive** (a move): repeat at most *allowance* times: among the menu's drives
  (state.py, "The move menu") that may end the move, take the one ending at the
  smallest tablet-free distance ``D0`` to the destination (the destination
  itself first), ties broken by fewer tablets spent, then fewer segments, then
  the lowest end node, then the menu's order; stop when it does not strictly
  reduce ``D0`` or the destination is reached.
* **Bar**: at the start of an opponent's turn, with a barrier in hand and the
  opponent within ``D0`` <= 2 of its destination, bar the segment touching that
  destination whose other end is nearest (``D0``) to the opponent (ties: the
  lowest segment), among those not barred yet this turn; else keep it.
* **EV of a bet** on word *w*: *p_w* = the gamble cards of *w* not revealed since
  the Journey deck's last shuffle over all such cards; EV(money) = p*prize -
  (1-p)*stake, EV(taxi) = p*plate_value - (1-p)*taxi_stake, EV(freeway) =
  (p - 1/2)*600.  Computed exactly, multiplied by the number of such cards.
  Ties between words: money, then freeway, then taxi.

Players read the state through state.py only.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from balance.game import Param, PlayerInfo
from balance.state import draw_below, memory, player_param, remember
from sims.taxi.params import (
    P_CARD_OPTIONAL,
    P_MONEY_PRIZE,
    P_MONEY_STAKE,
    P_PLATE_PRICE,
    P_PLATE_VALUE,
    P_STOP_ON_FREEWAY,
    P_TAXI_STAKE,
)
from sims.taxi.state import (
    ALLOWANCE,
    BET_FREEWAY,
    BET_MONEY,
    BET_NONE,
    BET_TAXI,
    CARD_JOURNEY,
    CARD_PASSENGER,
    DRIVES,
    KEEP,
    KIND_BARRIER,
    KIND_BET,
    KIND_BUY,
    KIND_CARD,
    KIND_MOVE,
    MENU_N,
    N_BARRED,
    N_SEGS,
    STOP,
    barred_at,
    can_end,
    d0,
    d0_at,
    d0_to_view,
    dest_at,
    freeway_view,
    gamble_copies_at,
    greens_at,
    menu_greens_view,
    menu_node_view,
    menu_steps_view,
    menu_whites_view,
    money_at,
    node_seg_at,
    node_seg_start_at,
    pos_at,
    revealed_at,
    rule_at,
    seg_a_at,
    seg_b_at,
    taxi_node,
    unsigned,
)

BAR_WITHIN = 2  # Bar: an opponent this close (D0) to its destination is barred
BIG = np.int64(1) << np.int64(40)
NEVER = np.int64(-(1 << 62))


# --------------------------------------------------------------------------- shared rules
@njit(cache=True, _nrt=False, forceinline=True)
def drive(st, seat):
    """Drive: the menu entry to take next, or STOP.  Compiled into its callers
    (``forceinline``): the heuristics' switch, which asks it directly for the
    move decisions of every player that drives by it."""
    if st[DRIVES] >= st[ALLOWANCE]:
        return STOP
    dest = st[dest_at(seat)]
    u = taxi_node(st)
    if u == dest:
        return STOP
    here = st[d0_at(st, u, dest)]
    anywhere = st[rule_at(P_STOP_ON_FREEWAY)] != 0
    best = -1
    bd = BIG
    bt = BIG
    bs = BIG
    bx = BIG
    # The menu and the tables through views at unsigned indices (plain
    # loads), D0 through the destination's row (D0 is stored by target).
    m_node = menu_node_view(st)
    m_greens = menu_greens_view(st)
    m_whites = menu_whites_view(st)
    m_steps = menu_steps_view(st)
    fw = freeway_view(st)
    to_dest = d0_to_view(st, dest)
    for i in range(st[MENU_N]):
        x = m_node[unsigned(i)]
        if not anywhere and fw[unsigned(x)] != 0:
            continue
        dd = to_dest[unsigned(x)]
        if dd > bd:
            continue
        t = m_greens[unsigned(i)] + m_whites[unsigned(i)]
        steps = m_steps[unsigned(i)]
        if dd < bd or t < bt or (t == bt and (steps < bs or (steps == bs and x < bx))):
            best = i
            bd = dd
            bt = t
            bs = steps
            bx = x
    if best < 0 or bd >= here:
        return STOP
    return best


@njit(cache=True, _nrt=False)
def _is_barred(st, seg):
    for k in range(st[N_BARRED]):
        if st[barred_at(k)] == seg:
            return True
    return False


@njit(cache=True, _nrt=False)
def bar_segment(st, target):
    """The segment Bar would block for ``target`` (whatever its distance), or -1."""
    pos = st[pos_at(target)]
    dest = st[dest_at(target)]
    if pos < 0:
        return -1
    best = -1
    bd = BIG
    for k in range(st[node_seg_start_at(st, dest)], st[node_seg_start_at(st, dest + 1)]):
        seg = st[node_seg_at(st, k)]
        if _is_barred(st, seg):
            continue
        a = st[seg_a_at(st, seg)]
        other = st[seg_b_at(st, seg)] if a == dest else a
        dd = d0(st, pos, other)
        if dd < bd:
            bd = dd
            best = seg
    return best


@njit(cache=True, _nrt=False)
def bar(st, seat, target):
    """Bar: block the opponent when it is within BAR_WITHIN streets of its destination."""
    pos = st[pos_at(target)]
    if pos < 0 or d0(st, pos, st[dest_at(target)]) > BAR_WITHIN:
        return KEEP
    return bar_segment(st, target)


@njit(cache=True, _nrt=False)
def bet_value(st, word):
    """EV of a bet on ``word`` (BET_MONEY, BET_FREEWAY, BET_TAXI) times the number
    of gamble cards not revealed since the Journey deck's last shuffle."""
    total = 0
    for w in range(3):
        total += st[gamble_copies_at(w)] - st[revealed_at(w)]
    if total <= 0:
        return np.int64(0)
    c = st[gamble_copies_at(word - 1)] - st[revealed_at(word - 1)]
    if word == BET_MONEY:
        return c * st[rule_at(P_MONEY_PRIZE)] - (total - c) * st[rule_at(P_MONEY_STAKE)]
    if word == BET_TAXI:
        return c * st[rule_at(P_PLATE_VALUE)] - (total - c) * st[rule_at(P_TAXI_STAKE)]
    return (2 * c - total) * 300


@njit(cache=True, _nrt=False)
def legal_bet(st, seat, word):
    if word == BET_MONEY:
        return st[money_at(seat)] >= st[rule_at(P_MONEY_STAKE)]
    if word == BET_FREEWAY:
        return st[greens_at(seat)] >= 1
    if word == BET_TAXI:
        return st[money_at(seat)] >= st[rule_at(P_TAXI_STAKE)]
    return word == BET_NONE


# --------------------------------------------------------------------------- the players
@njit(cache=True, _nrt=False, forceinline=False)
def random_player(kind, seat, subject, st):
    """Uniform among the legal answers (a move: k uniform in 0..allowance drives)."""
    if kind == KIND_BARRIER:
        if draw_below(st, np.int64(2)) == 0:
            return KEEP
        free = st[N_SEGS] - st[N_BARRED]
        r = draw_below(st, np.int64(free))
        for seg in range(st[N_SEGS]):
            if not _is_barred(st, seg):
                if r == 0:
                    return seg
                r -= 1
        return KEEP
    if kind == KIND_BUY:
        return draw_below(st, np.int64(2))
    if kind == KIND_CARD:
        return draw_below(st, np.int64(3 if st[rule_at(P_CARD_OPTIONAL)] != 0 else 2))
    if kind == KIND_BET:
        n = 0
        for w in range(4):
            if legal_bet(st, seat, w):
                n += 1
        r = draw_below(st, np.int64(n))
        for w in range(4):
            if legal_bet(st, seat, w):
                if r == 0:
                    return w
                r -= 1
        return BET_NONE
    # KIND_MOVE
    if st[DRIVES] == 0:
        remember(st, seat, 0, draw_below(st, st[ALLOWANCE] + 1))
    if st[DRIVES] >= memory(st, seat, 0):
        return STOP
    m_node = menu_node_view(st)
    n = 0
    for i in range(st[MENU_N]):
        if can_end(st, m_node[i]):
            n += 1
    if n == 0:
        return STOP
    r = draw_below(st, np.int64(n))
    for i in range(st[MENU_N]):
        if can_end(st, m_node[i]):
            if r == 0:
                return i
            r -= 1
    return STOP


@njit(cache=True, _nrt=False, forceinline=False)
def cautious(kind, seat, subject, st):
    """Passenger cards, never bets, never buys."""
    if kind == KIND_BARRIER:
        return bar(st, seat, subject)
    if kind == KIND_BUY:
        return 0
    if kind == KIND_CARD:
        return CARD_PASSENGER
    if kind == KIND_BET:
        return BET_NONE
    return drive(st, seat)


@njit(cache=True, _nrt=False, forceinline=False)
def router(kind, seat, subject, st):
    """Journey while rich, the best positive bet it can afford with a reserve,
    buys with a margin."""
    money = st[money_at(seat)]
    if kind == KIND_BARRIER:
        return bar(st, seat, subject)
    if kind == KIND_BUY:
        return 1 if money >= st[rule_at(P_PLATE_PRICE)] + player_param(st, seat, 2) else 0
    if kind == KIND_CARD:
        return CARD_JOURNEY if money >= player_param(st, seat, 0) else CARD_PASSENGER
    if kind == KIND_BET:
        reserve = player_param(st, seat, 1)
        best = BET_NONE
        best_ev = np.int64(0)
        for w in range(1, 4):
            if w == BET_MONEY:
                ok = money - st[rule_at(P_MONEY_STAKE)] >= reserve
            elif w == BET_FREEWAY:
                ok = st[greens_at(seat)] >= player_param(st, seat, 3)
            else:
                ok = money - st[rule_at(P_TAXI_STAKE)] >= reserve
            if ok:
                ev = bet_value(st, w)
                if ev > best_ev:
                    best_ev = ev
                    best = w
        return best
    return drive(st, seat)


@njit(cache=True, _nrt=False, forceinline=False)
def gambler(kind, seat, subject, st):
    """Journey cards, always the affordable bet of highest EV, never buys."""
    if kind == KIND_BARRIER:
        return bar(st, seat, subject)
    if kind == KIND_BUY:
        return 0
    if kind == KIND_CARD:
        return CARD_JOURNEY
    if kind == KIND_BET:
        best = BET_NONE
        best_ev = NEVER
        for w in range(1, 4):
            if legal_bet(st, seat, w):
                ev = bet_value(st, w)
                if ev > best_ev:
                    best_ev = ev
                    best = w
        return best
    return drive(st, seat)


@njit(cache=True, _nrt=False, forceinline=False)
def investor(kind, seat, subject, st):
    """Passenger cards, taxi bets of positive EV with a reserve, buys whenever it may."""
    if kind == KIND_BARRIER:
        return bar(st, seat, subject)
    if kind == KIND_BUY:
        return 1
    if kind == KIND_CARD:
        return CARD_PASSENGER
    if kind == KIND_BET:
        if bet_value(st, BET_TAXI) > 0 and st[money_at(seat)] >= st[rule_at(P_TAXI_STAKE)] + player_param(st, seat, 0):
            return BET_TAXI
        return BET_NONE
    return drive(st, seat)


PLAYERS = (
    PlayerInfo(
        "random",
        "uniform among the legal answers: card, bet, purchase (1/2), barrier (1/2, any free segment), "
        "a move of k uniform in 0..allowance random drives",
        random_player,
        stochastic=True,
    ),
    PlayerInfo("cautious", "Passenger cards, never bets, never buys; Bar and Drive", cautious),
    PlayerInfo(
        "router",
        "Journey while money >= $5,000, else Passenger; the positive-EV bet that leaves $1,000 "
        "(freeway with 2 greens); buys with money >= price + $3,000; Bar and Drive",
        router,
        params=(
            Param("journey_above", "int", 5000, "draws Journey cards while its money is at least this",
                  "spec (e): router draws Journey while money >= $5,000", low=0, high=1_000_000),
            Param("bet_reserve", "int", 1000, "money a bet must leave after its stake",
                  "spec (e): a bet that leaves >= $1,000 after the stake", low=0, high=1_000_000),
            Param("buy_margin", "int", 3000, "buys a plate when money >= plate_price + this",
                  "spec (e): buys when money >= plate_price + $3,000", low=0, high=1_000_000),
            Param("freeway_greens", "int", 2, "green tablets needed before a freeway bet",
                  "spec (e): freeway only with >= 2 greens", low=1, high=1000),
        ),
    ),
    PlayerInfo(
        "gambler",
        "Journey cards; always the affordable bet of highest EV; never buys; Bar and Drive",
        gambler,
    ),
    PlayerInfo(
        "investor",
        "Passenger cards; a taxi bet when its EV > 0 and money >= taxi_stake + $1,000; buys whenever "
        "it may; Bar and Drive",
        investor,
        params=(
            Param("bet_reserve", "int", 1000, "money a taxi bet must leave after its stake",
                  "spec (e): money >= taxi_stake + $1,000", low=0, high=1_000_000),
        ),
    ),
)


@njit(cache=True, _nrt=False, forceinline=True)
def heuristics(index, kind, seat, subject, st):
    """The heuristics as one switch on their index in PLAYERS.  A move decision
    of a player that drives by Drive (all but ``random``; each one's last
    branch) is Drive's, asked here without the player's call.  Compiled into
    the engine's loops with Drive (``forceinline``); the players stay calls
    (``forceinline=False``: numba's callees would otherwise inherit the flag)."""
    if kind == KIND_MOVE and index >= 1 and index <= 4:
        return drive(st, seat)
    if index == 2:
        return router(kind, seat, subject, st)
    if index == 3:
        return gambler(kind, seat, subject, st)
    if index == 4:
        return investor(kind, seat, subject, st)
    if index == 1:
        return cautious(kind, seat, subject, st)
    return random_player(kind, seat, subject, st)
