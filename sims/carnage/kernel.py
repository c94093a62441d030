"""Carnage's rules as a state machine for balance.engine (rulebook:
../shared/seeds/000_898c1d9018ac3fe3.txt; the readings: RULES.md).

Every rule lives here once; simulation, traces, hand-built positions and the
search player's playouts run the same code (recording on or off).  The state
layout is state.py's.

The setup, as :func:`advance` and :func:`apply` play it: the start money
dealt (from the bank when ``bank_money`` limits it), then each seat's HQ and
first car in seat order (``hq = fixed``: the board's site of the seat; ``chosen``
and ``anywhere``: the seat's answer to KIND_HQ), then two spawns.

A turn::

    turn event -> stuck? (lose, then the end-of-turn checks)
    while a car owned at the start of the turn may still act:
        offer a buy (KIND_BUY); choose the car that acts next (KIND_ORDER,
        asked when two or more may); then its actions, one decision
        (KIND_CAR) at a time: drop / take / move, each at most once, in any
        order, until it is done; a drop's spawn rolls come right after it
    offer a buy -> turn_end spawn roll -> upkeep -> bankrupt? (lose)
    end-of-turn checks: last standing, gridlock, turn limit

The turn's progress lives in the state (PHASE, CAR, OFFERING, N_START,
FINISHED), never in Python locals across a decision, so a search may copy the
state in the middle of a turn and play on from there.  An illegal answer ends
the car's actions (after a buy offer: no buy; choosing a car or an HQ: the
decision's subject, the kernel's own choice), so no player can break a rule.

Nothing is allocated per game or per turn; constants passed to compiled calls
are numpy scalars (numba types an int global as a literal and would compile
the callee once per value).  ``advance`` and ``apply``, with the turn's start
and end, are inlined into the engine's loops (``inline="always"``: numba
inlines them in its own IR), and so is ``players.heuristics``: each of these
as a call per decision or turn cost 4-6% of the games/s (one thread, default
players; measured when the kernel moved onto balance.engine).

Calls (docs/speed-history.md, "Carnage's kernel"): a compiled call passes the
state as seven words and, with reference counting on, makes two more calls
(an increment and a decrement of the view's count), which was more than the
body of most helpers here.  Nothing in the game allocates, so every function
is compiled without reference counting (``_nrt=False``), and the small helpers
of every turn (a move, the state's rule helpers, the players' driving
helpers) are compiled into their callers (``forceinline=True``: LLVM's
alwaysinline).  The rest stay calls, said so (``forceinline=False``: numba's
callees would otherwise inherit the flag) to keep the engine's inlined loops
small: a spawn, a take, a drop, a buy, the end-of-turn checks and the rare
steps of the setup and the search's hooks.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from balance.engine import compile_kernel
from balance.state import (
    DECIDER,
    DECISION,
    SUBJECT,
    END_REASON,
    N_SEATS,
    SEAT,
    TURN,
    VALUE_SCALE,
    WINNER,
    ask,
    draw_below,
    end_game,
)
from sims.carnage import players
from sims.carnage.events import (
    write_buy,
    write_drop,
    write_end,
    write_hq,
    write_lose,
    write_move,
    write_spawn,
    write_take,
    write_turn,
    write_upkeep,
)
from sims.carnage.params import (
    HQ_FIXED,
    P_BANK_MONEY,
    P_CAR_CAPACITY,
    P_CAR_COST,
    P_COMMUTER_TOKENS,
    P_FARE_PER_BLOCK,
    P_GRIDLOCK_LIMIT,
    P_GRIDLOCK_TURNS,
    P_HQ,
    P_MAX_TURNS,
    P_SPAWN_ON_DROP,
    P_SPAWN_ON_TURN_END,
    P_START_MONEY,
    P_UPKEEP_PER_CAR,
    P_WIN_CARS,
    P_WIN_DELIVERIES,
)
from sims.carnage.state import (
    ACT_DONE,
    ACT_DROP,
    ACT_MOVE,
    ACT_TAKE,
    ACT_TAKE_RANKS,
    BANK,
    CAR,
    CAUSE_DROP,
    CAUSE_SETUP,
    CAUSE_TURN_END,
    FINISHED,
    HQ_SEAT,
    KIND_BUY,
    KIND_CAR,
    KIND_HQ,
    KIND_ORDER,
    LOSE_BANKRUPT,
    LOSE_STUCK,
    MAX_CARS,
    MAX_NEIGHBOURS,
    MAX_RANKS,
    MAX_TOKENS,
    MAY_ACT,
    NO_CAR,
    N_ALIVE,
    N_CARDS,
    N_FREE,
    N_SITES,
    N_START,
    N_STREETS,
    N_WAITING,
    OFFERING,
    PHASE,
    PHASE_ACT,
    PHASE_HQ,
    PHASE_SETUP,
    PHASE_TURN,
    STREAK,
    TOKEN_FREE,
    TOKEN_RIDING,
    TOKEN_WAITING,
    USED_DROP,
    USED_MOVE,
    USED_TAKE,
    alive_at,
    can_buy,
    can_choose_hq,
    can_drop,
    can_move,
    can_take,
    can_take_ranks,
    car_bought_at,
    car_can_move_now,
    car_load_at,
    car_street_at,
    car_street_view,
    car_used_at,
    card_at,
    delivered_at,
    dist,
    has_option,
    hq_at,
    hq_site,
    may_act,
    money_at,
    n_cars_at,
    n_neighbours,
    neighbour,
    passengers_at,
    rule_at,
    street_car,
    street_car_at,
    street_car_view,
    street_waiting,
    street_waiting_at,
    token_dest_at,
    token_fare_at,
    token_origin_at,
    token_status_at,
    token_street_at,
    waiting_at,
)

NO_WINNER = np.int64(-1)
TAKE_ALL = np.int64(-1)  # _take: fill the free seats in rank order
TAKE_FIRST = np.int64(1)  # ranks mask: the first commuter of the take order only
MENU_HQ = 8  # HQ streets the search compares
# The search's evaluation (strength): a logistic model's weights, fitted to
# turn ends of the heuristics' games (RULES.md, 'The search player').
EVAL_MONEY = 0.043
EVAL_SAFE = 0.19
EVAL_CAR = 0.55
EVAL_DELIVERED = 0.35
D6 = np.int64(6)
CARDS_IN_DECK = np.int64(N_CARDS)

# End reasons, in SPEC.end_reasons order.
END_DELIVERIES = np.int64(0)
END_CARS = np.int64(1)
END_LAST_STANDING = np.int64(2)
END_GRIDLOCK = np.int64(3)
END_TURN_LIMIT = np.int64(4)


@njit(cache=True, _nrt=False, forceinline=False)
def _end(st, reason, winner):
    end_game(st, reason, winner)
    write_end(st, winner, reason)


# --------------------------------------------------------------------------- rules
@njit(cache=True, _nrt=False, forceinline=False)
def _spawn(st, cause, chance):
    """Spawn one commuter: roll a d6 (not at setup); on ``roll <= chance`` and a
    free token, draw a card (with replacement) and place the lowest free token."""
    roll = -1
    hit = True
    if cause != CAUSE_SETUP:
        roll = draw_below(st, D6) + 1
        hit = roll <= chance
    card = -1
    token = -1
    if hit and st[N_FREE] > 0:
        card = draw_below(st, CARDS_IN_DECK)
        for k in range(MAX_TOKENS):
            if st[token_status_at(k)] == TOKEN_FREE:
                token = k
                break
        origin = st[card_at(card, 0)]
        dest = st[card_at(card, 1)]
        st[token_status_at(token)] = TOKEN_WAITING
        st[token_origin_at(token)] = origin
        st[token_dest_at(token)] = dest
        st[token_fare_at(token)] = st[rule_at(P_FARE_PER_BLOCK)] * dist(st, origin, dest)
        st[token_street_at(token)] = origin
        st[waiting_at(st[N_WAITING])] = token
        st[N_WAITING] += 1
        st[N_FREE] -= 1
        st[street_waiting_at(st, origin)] += 1
    write_spawn(st, cause, roll, 1 if token >= 0 else 0, card, token)


@njit(cache=True, _nrt=False, forceinline=False)
def empty_city(st):
    """The table before setup: no car on the board, every commuter token free,
    each seat in the game with its start money (dealt from the bank in seat
    order when ``bank_money`` limits it: a seat gets what is left when the bank
    runs short) and the board's HQ site of its seat (the rest of the dynamic
    span is zero).  Hand-built positions start from here too."""
    n_seats = st[N_SEATS]
    car_street_view(st)[:] = -1
    street_car_view(st)[:] = -1
    st[N_ALIVE] = n_seats
    st[N_FREE] = st[rule_at(P_COMMUTER_TOKENS)]
    st[BANK] = st[rule_at(P_BANK_MONEY)]
    for seat in range(n_seats):
        money = st[rule_at(P_START_MONEY)]
        if st[rule_at(P_BANK_MONEY)] > 0:
            money = min(money, st[BANK])
            st[BANK] -= money
        st[money_at(seat)] = money
        st[alive_at(seat)] = 1
        st[hq_at(seat)] = hq_site(st, seat)
    st[CAR] = NO_CAR
    st[PHASE] = PHASE_TURN


@njit(cache=True, _nrt=False, forceinline=False)
def _place_hq(st, seat, street):
    """The seat's HQ is ``street``; its first car stands there."""
    st[hq_at(seat)] = street
    st[car_street_at(seat * MAX_CARS)] = street
    st[car_bought_at(seat * MAX_CARS)] = 0
    st[street_car_at(st, street)] = seat * MAX_CARS
    st[n_cars_at(seat)] = 1
    write_hq(st, seat, street)


@njit(cache=True, _nrt=False, forceinline=False)
def _hq_fallback(st):
    """The street an illegal HQ answer gets: the first board site still free."""
    for i in range(st[N_SITES]):
        street = hq_site(st, i)
        if street_car(st, street) < 0:
            return street
    for street in range(st[N_STREETS]):  # pragma: no cover - the board has a site per seat
        if street_car(st, street) < 0:
            return street
    return np.int64(0)


@njit(cache=True, _nrt=False, forceinline=False)
def _setup_spawns(st):
    """The 2 commuters of the setup, without a roll; the first turn is next."""
    for _ in range(2):
        _spawn(st, CAUSE_SETUP, D6)
    st[PHASE] = PHASE_TURN


@njit(cache=True, _nrt=False, forceinline=False)
def setup(st):
    """The money dealt; under hq = fixed each seat's car on its site and the 2
    setup spawns; else the HQ choices come first (PHASE_HQ)."""
    empty_city(st)
    if st[rule_at(P_HQ)] == HQ_FIXED:
        for seat in range(st[N_SEATS]):
            _place_hq(st, np.int64(seat), hq_site(st, seat))
        _setup_spawns(st)
    else:
        st[HQ_SEAT] = 0
        st[PHASE] = PHASE_HQ


@njit(cache=True, _nrt=False, forceinline=False)
def _buy(st, seat):
    """Buy a car onto the HQ; owning win_cars cars wins at once."""
    car = st[n_cars_at(seat)]
    c = seat * MAX_CARS + car
    street = st[hq_at(seat)]
    cost = st[rule_at(P_CAR_COST)]
    st[car_street_at(c)] = street
    st[car_bought_at(c)] = st[TURN]
    st[car_used_at(c)] = USED_DROP | USED_TAKE | USED_MOVE  # cannot act this turn
    st[car_load_at(c)] = 0
    st[street_car_at(st, street)] = c
    st[money_at(seat)] -= cost
    st[BANK] += cost
    st[n_cars_at(seat)] = car + 1
    write_buy(st, seat, car, street, cost)
    if car + 1 >= st[rule_at(P_WIN_CARS)]:
        _end(st, END_CARS, seat)


@njit(cache=True, _nrt=False, forceinline=False)
def _drop(st, seat, car):
    """Drop every passenger bound for this street; win at win_deliveries, else a
    spawn roll per commuter dropped (their tokens are back in the supply first)."""
    c = seat * MAX_CARS + car
    street = st[car_street_at(c)]
    st[car_used_at(c)] |= USED_DROP
    kept = 0
    mask = 0
    count = 0
    for i in range(st[car_load_at(c)]):
        k = st[passengers_at(c, i)]
        if st[token_dest_at(k)] == street:
            st[token_status_at(k)] = TOKEN_FREE
            mask |= np.int64(1) << k
            count += 1
        else:
            st[passengers_at(c, kept)] = k
            kept += 1
    st[car_load_at(c)] = kept
    st[N_FREE] += count
    st[delivered_at(seat)] += count
    write_drop(st, seat, car, street, mask)
    if st[delivered_at(seat)] >= st[rule_at(P_WIN_DELIVERIES)]:
        _end(st, END_DELIVERIES, seat)
        return
    for _ in range(count):
        _spawn(st, CAUSE_DROP, st[rule_at(P_SPAWN_ON_DROP)])


@njit(cache=True, _nrt=False, forceinline=False)
def _take(st, seat, car, ranks):
    """Take the commuters waiting here of the ranks in ``ranks`` (bit r: the
    r-th in take order, longest ride first, ties by lowest token id; TAKE_ALL:
    fill the free seats in that order); each pays fare_per_block x blocks at
    once, from the bank as far as it goes when ``bank_money`` limits it."""
    c = seat * MAX_CARS + car
    street = st[car_street_at(c)]
    st[car_used_at(c)] |= USED_TAKE
    if ranks < 0:
        ranks = (np.int64(1) << (st[rule_at(P_CAR_CAPACITY)] - st[car_load_at(c)])) - 1
    waiting_here = street_waiting_at(st, street)
    mask = 0
    fare = 0
    prev_fare = np.int64(1) << 40
    prev_k = -1
    for r in range(MAX_RANKS):
        if (ranks >> r) == 0 or st[waiting_here] == 0:
            break
        best = -1
        best_i = -1
        for i in range(st[N_WAITING]):  # the commuter of rank r: the first after rank r - 1
            k = st[waiting_at(i)]
            if st[token_street_at(k)] != street:
                continue
            f = st[token_fare_at(k)]
            if f > prev_fare or (f == prev_fare and k <= prev_k):  # ranks up to r - 1 (a skipped one still waits)
                continue
            if best < 0 or f > st[token_fare_at(best)] or (f == st[token_fare_at(best)] and k < best):
                best = k
                best_i = i
        if best < 0:
            break
        prev_fare = st[token_fare_at(best)]
        prev_k = best
        if not (ranks >> r) & 1:
            continue
        st[N_WAITING] -= 1
        st[waiting_at(best_i)] = st[waiting_at(st[N_WAITING])]
        st[waiting_here] -= 1
        st[token_status_at(best)] = TOKEN_RIDING
        st[passengers_at(c, st[car_load_at(c)])] = best
        st[car_load_at(c)] += 1
        mask |= np.int64(1) << best
        fare += st[token_fare_at(best)]
    if st[rule_at(P_BANK_MONEY)] > 0:
        fare = min(fare, st[BANK])
        st[BANK] -= fare
    st[money_at(seat)] += fare
    write_take(st, seat, car, street, mask, fare)


@njit(cache=True, _nrt=False, forceinline=True)
def _move(st, seat, car, k):
    c = seat * MAX_CARS + car
    origin = st[car_street_at(c)]
    to = neighbour(st, origin, k)
    st[car_used_at(c)] |= USED_MOVE
    st[street_car_at(st, origin)] = -1
    st[street_car_at(st, to)] = c
    st[car_street_at(c)] = to
    write_move(st, seat, car, origin, to)


@njit(cache=True, _nrt=False, forceinline=False)
def _lose(st, seat, reason):
    """The seat is out: its cars leave the board, its passengers' tokens return,
    and so do its money tokens to the bank (its money stays on record)."""
    st[alive_at(seat)] = 0
    if st[money_at(seat)] > 0:
        st[BANK] += st[money_at(seat)]
    st[N_ALIVE] -= 1
    for car in range(st[n_cars_at(seat)]):
        c = seat * MAX_CARS + car
        street = st[car_street_at(c)]
        if street >= 0:
            st[street_car_at(st, street)] = -1
        st[car_street_at(c)] = -1
        for i in range(st[car_load_at(c)]):
            st[token_status_at(st[passengers_at(c, i)])] = TOKEN_FREE
        st[N_FREE] += st[car_load_at(c)]
        st[car_load_at(c)] = 0
    st[n_cars_at(seat)] = 0
    write_lose(st, seat, reason)


@njit(cache=True, _nrt=False, forceinline=False)
def _end_of_turn_checks(st, turn):
    """After a turn's last event: one player left, gridlock, turn cap."""
    if st[N_ALIVE] == 1:
        for seat in range(st[N_SEATS]):
            if st[alive_at(seat)]:
                _end(st, END_LAST_STANDING, np.int64(seat))
        return
    if st[N_WAITING] > st[rule_at(P_GRIDLOCK_LIMIT)]:
        st[STREAK] += 1
    else:
        st[STREAK] = 0
    if st[STREAK] >= st[rule_at(P_GRIDLOCK_TURNS)]:
        _end(st, END_GRIDLOCK, NO_WINNER)
        return
    if turn >= st[rule_at(P_MAX_TURNS)]:
        _end(st, END_TURN_LIMIT, NO_WINNER)


@njit(cache=True, _nrt=False, inline="always")
def _begin_turn(st):
    """The next seat still in the game begins a turn: True if it plays it, False
    if it was stuck (it lost, and the end-of-turn checks have run)."""
    n_seats = st[N_SEATS]
    turn = st[TURN] + 1
    st[TURN] = turn
    seat = st[SEAT]
    for _ in range(n_seats):
        seat = (seat + 1) % n_seats
        if st[alive_at(seat)]:
            break
    st[SEAT] = seat
    write_turn(st, seat)
    n_start = st[n_cars_at(seat)]  # cars bought this turn come after these and never act
    stuck = True
    for car in range(n_start):
        st[car_used_at(seat * MAX_CARS + car)] = 0
        if stuck and car_can_move_now(st, seat, car):
            stuck = False
    if stuck:
        _lose(st, seat, LOSE_STUCK)
        _end_of_turn_checks(st, turn)
        return False
    st[N_START] = n_start
    st[FINISHED] = 0
    st[CAR] = NO_CAR
    st[OFFERING] = 1
    st[PHASE] = PHASE_ACT
    return True


@njit(cache=True, _nrt=False, inline="always")
def _end_turn(st):
    """After the last buy offer: the turn_end spawn roll, upkeep, bankruptcy and
    the end-of-turn checks; the next turn is to begin."""
    seat = st[SEAT]
    turn = st[TURN]
    st[PHASE] = PHASE_TURN
    _spawn(st, CAUSE_TURN_END, st[rule_at(P_SPAWN_ON_TURN_END)])
    paying = 0
    for car in range(st[n_cars_at(seat)]):
        if st[car_bought_at(seat * MAX_CARS + car)] != turn:
            paying += 1
    paid = st[rule_at(P_UPKEEP_PER_CAR)] * paying
    st[BANK] += min(paid, max(st[money_at(seat)], 0))  # what it has goes back to the bank
    st[money_at(seat)] -= paid
    write_upkeep(st, seat, paid, st[money_at(seat)])
    if st[money_at(seat)] <= 0:
        _lose(st, seat, LOSE_BANKRUPT)
    _end_of_turn_checks(st, turn)


# --------------------------------------------------------------------------- the state machine
@njit(cache=True, _nrt=False, forceinline=False)
def _may_act_mask(st, seat, first, second):
    """MAY_ACT: the bits of the cars that may act next, ``first`` and ``second``
    (the first two, already tested) and those after them."""
    mask = (np.int64(1) << first) | (np.int64(1) << second)
    for car in range(second + 1, st[N_START]):
        if may_act(st, seat, car):
            mask |= np.int64(1) << car
    st[MAY_ACT] = mask


@njit(cache=True, _nrt=False, inline="always")
def advance(st):
    """Run the rules until a player must decide or the game ends.

    The first call of a game does the setup (asking for HQs under hq =
    chosen or anywhere).  Within a turn, while no car is acting, the next
    question is a buy offer while a buy is legal (at the turn's start and
    after each car has finished), then which car acts next when two or more
    may; while a car is acting, its next action while it has a legal unused
    one.  When no car may act any more the turn ends.  Called again with a
    decision pending, it asks the same question.
    """
    if st[PHASE] == PHASE_SETUP:
        setup(st)
    if st[PHASE] == PHASE_HQ:
        seat = st[HQ_SEAT]
        if seat < st[N_SEATS]:
            ask(st, seat, KIND_HQ, _hq_fallback(st))
            return
        _setup_spawns(st)
    while True:
        if st[PHASE] == PHASE_TURN:
            if not _begin_turn(st):
                if st[END_REASON] >= 0:
                    return
                continue
        seat = st[SEAT]
        while True:
            car = st[CAR]
            if car == NO_CAR:
                if st[OFFERING]:
                    if can_buy(st, seat):
                        ask(st, seat, KIND_BUY, st[n_cars_at(seat)])
                        return
                    st[OFFERING] = 0
                first = NO_CAR  # the first two cars that may act (the first alone: no question)
                second = NO_CAR
                finished = st[FINISHED]
                for c in range(st[N_START]):
                    if (finished >> c) & 1 == 0 and has_option(st, seat, c):
                        if first == NO_CAR:
                            first = c
                        else:
                            second = c
                            break
                if first == NO_CAR:
                    break
                if second != NO_CAR:
                    _may_act_mask(st, seat, first, second)
                    ask(st, seat, KIND_ORDER, first)
                    return
                st[CAR] = first  # the one car that may act: it has a legal action
                ask(st, seat, KIND_CAR, first)
                return
            if (st[MAY_ACT] >> car) & 1:  # just chosen among the cars that may act: no need to test again
                st[MAY_ACT] = 0
                ask(st, seat, KIND_CAR, car)
                return
            if has_option(st, seat, car):
                ask(st, seat, KIND_CAR, car)
                return
            st[FINISHED] |= np.int64(1) << car
            st[CAR] = NO_CAR
            st[OFFERING] = 1
        _end_turn(st)
        if st[END_REASON] >= 0:
            return


@njit(cache=True, _nrt=False, inline="always")
def apply(st, answer):
    """Resolve the pending decision.  An HQ: a street ``can_choose_hq`` allows,
    else the subject (the first free board site).  A buy offer: 1 buys
    (another offer may follow), anything else declines.  The next car: a car
    that ``may_act``, else the subject (the first in fleet order).  A car:
    ACT_DROP, ACT_TAKE, ACT_MOVE + k or ACT_TAKE_RANKS + mask when legal;
    anything else (ACT_DONE, an illegal or unknown answer) ends the car's
    actions for this turn, and a buy offer comes next."""
    kind = st[DECISION]
    if kind == KIND_HQ:
        seat = st[HQ_SEAT]
        if can_choose_hq(st, answer):
            _place_hq(st, seat, answer)
        else:
            _place_hq(st, seat, _hq_fallback(st))
        st[HQ_SEAT] = seat + 1
        return
    seat = st[SEAT]
    if kind == KIND_BUY:
        if answer == 1:
            _buy(st, seat)
        else:
            st[OFFERING] = 0
        return
    if kind == KIND_ORDER:  # MAY_ACT: the cars that may act, set when the question was asked
        legal = 0 <= answer < st[N_START] and (st[MAY_ACT] >> answer) & 1
        st[CAR] = answer if legal else st[SUBJECT]
        return
    car = st[CAR]
    if answer == ACT_DROP and can_drop(st, seat, car):
        _drop(st, seat, car)
    elif answer == ACT_TAKE and can_take(st, seat, car):
        _take(st, seat, car, TAKE_ALL)
    elif ACT_MOVE <= answer < ACT_MOVE + MAX_NEIGHBOURS and can_move(st, seat, car, answer - ACT_MOVE):
        _move(st, seat, car, answer - ACT_MOVE)
    elif answer > ACT_TAKE_RANKS and can_take_ranks(st, seat, car, answer - ACT_TAKE_RANKS):
        _take(st, seat, car, answer - ACT_TAKE_RANKS)
    else:
        st[FINISHED] |= np.int64(1) << car
        st[CAR] = NO_CAR
        st[OFFERING] = 1


# --------------------------------------------------------------------------- the search player's hooks
@njit(cache=True, _nrt=False, forceinline=False)
def candidates(st, out):
    """The answers the search compares, a small menu of the legal ones.

    An HQ: the allowed streets with the best ``players.hq_score`` (every free
    site under hq = chosen; the best MENU_HQ streets under anywhere).  A buy
    offer: 1 then 0.  The next car: every car that may act.  A car: a drop
    alone when one is possible (a delivery is never worth holding back);
    else the take of every commuter the seats allow, the take of the first
    one only when two or more could be taken, each legal move in neighbour
    order, then ACT_DONE."""
    seat = st[DECIDER]
    kind = st[DECISION]
    if kind == KIND_HQ:
        return _hq_menu(st, seat, out)
    if kind == KIND_BUY:
        out[0] = 1
        out[1] = 0
        return 2
    if kind == KIND_ORDER:
        n = 0
        for car in range(st[N_START]):
            if (st[MAY_ACT] >> car) & 1:
                out[n] = car
                n += 1
        return n
    car = st[CAR]
    if can_drop(st, seat, car):
        out[0] = ACT_DROP
        return 1
    n = 0
    if can_take(st, seat, car):
        out[n] = ACT_TAKE
        n += 1
        if can_take_ranks(st, seat, car, TAKE_FIRST):
            c = seat * MAX_CARS + car
            free = st[rule_at(P_CAR_CAPACITY)] - st[car_load_at(c)]
            if free >= 2 and street_waiting(st, st[car_street_at(c)]) >= 2:
                out[n] = ACT_TAKE_RANKS + TAKE_FIRST
                n += 1
    street = st[car_street_at(seat * MAX_CARS + car)]
    for k in range(n_neighbours(st, street)):
        if can_move(st, seat, car, k):
            out[n] = ACT_MOVE + k
            n += 1
    out[n] = ACT_DONE
    return n + 1


@njit(cache=True, _nrt=False, forceinline=False)
def _hq_menu(st, seat, out):
    """The MENU_HQ allowed streets with the best hq_score, best first."""
    n = 0
    last_score = np.int64(1) << 60
    last_street = -1
    while n < MENU_HQ:
        best = -1
        best_score = 0
        for street in range(st[N_STREETS]):
            if not can_choose_hq(st, street):
                continue
            score = players.hq_score(st, seat, street)
            if score > last_score or (score == last_score and street <= last_street):
                continue  # already in the menu
            if best < 0 or score > best_score:
                best = street
                best_score = score
        if best < 0:
            break
        out[n] = best
        n += 1
        last_score = best_score
        last_street = best
    return n


@njit(cache=True, _nrt=False, forceinline=False)
def determinize(st, seat):
    """Carnage hides nothing: dice and cards (drawn with replacement) come from
    the playout's own stream."""
    return


@njit(cache=True, _nrt=False, forceinline=True)
def strength(st, s):
    """A seat's strength in a position, the exponent of a logistic model of
    who wins (fitted to 25,000 turn ends of 3,000 games among the driving
    heuristics, default rules: RULES.md 'The search player'): EVAL_MONEY per
    dollar, EVAL_SAFE more per dollar up to three turns of upkeep (money that
    keeps the seat out of bankruptcy), EVAL_CAR per car, EVAL_DELIVERED per
    commuter delivered; parameters scale the counts (car_cost, win_cars,
    win_deliveries, upkeep_per_car relative to the defaults)."""
    money = max(st[money_at(s)], 0)
    car_cost = max(st[rule_at(P_CAR_COST)], 1)
    cars = st[n_cars_at(s)] * 4.0 / max(st[rule_at(P_WIN_CARS)], 1)
    delivered = st[delivered_at(s)] * 7.0 / max(st[rule_at(P_WIN_DELIVERIES)], 1)
    safe = min(money, 3 * st[n_cars_at(s)] * st[rule_at(P_UPKEEP_PER_CAR)])
    dollars = 10.0 / car_cost
    return (EVAL_MONEY * money + EVAL_SAFE * safe) * dollars + EVAL_CAR * cars + EVAL_DELIVERED * delivered


@njit(cache=True, _nrt=False, forceinline=False)
def evaluate(st, seat):
    """A playout's value for ``seat``.

    A win is VALUE_SCALE; a game another seat won, a gridlock (everybody
    loses) or a loss of ``seat`` is 0.  A playout cut by the horizon or the
    turn cap is worth VALUE_SCALE times the seat's estimated chance to win:
    exp(strength) of the seat over the sum for every seat still in the game
    (for two seats, the logistic model's probability itself)."""
    if st[WINNER] >= 0:
        return VALUE_SCALE if st[WINNER] == seat else 0
    if st[END_REASON] == END_GRIDLOCK or not st[alive_at(seat)]:
        return 0
    mine = strength(st, seat)
    total = 0.0
    for s in range(st[N_SEATS]):
        if st[alive_at(s)]:
            total += np.exp(strength(st, s) - mine)
    return np.int64(VALUE_SCALE / total)


STANDING_WON = np.int64(1) << np.int64(40)


@njit(cache=True, _nrt=False, forceinline=True)
def standing(st, seat):
    """Who is ahead, for the game-feel counters: the search's win estimate
    read as its logit, the seat's ``strength`` in thousandths (the same order
    of the seats as ``evaluate``, without its exponentials: a sample is one
    strength per seat); the winner above every seat, a seat out below."""
    if st[WINNER] >= 0:
        return STANDING_WON if st[WINNER] == seat else -STANDING_WON
    if st[END_REASON] == END_GRIDLOCK or not st[alive_at(seat)]:
        return -STANDING_WON
    return np.int64(1000.0 * strength(st, seat))


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
