"""Carnage's rules as a state machine for balance.engine (rulebook:
../shared/seeds/000_898c1d9018ac3fe3.txt; the readings: RULES.md).

Every rule lives here once; simulation, traces, hand-built positions and the
search player's playouts run the same code (recording on or off).  The state
layout is state.py's.

A turn, as :func:`advance` and :func:`apply` play it::

    turn event -> stuck? (lose, then the end-of-turn checks)
    for each car owned at the start of the turn, in fleet order:
        offer a buy (KIND_BUY); then the car's actions, one decision
        (KIND_CAR) at a time: drop / take / move, each at most once, in any
        order; a drop's spawn rolls come right after it
    offer a buy -> turn_end spawn roll -> upkeep -> bankrupt? (lose)
    end-of-turn checks: last standing, gridlock, turn limit

The turn's progress lives in the state (PHASE, CAR, OFFERING, N_START), never
in Python locals across a decision, so a search may copy the state in the
middle of a turn and play on from there.  An illegal answer ends the car's
actions (after a buy offer: no buy), so no player can break a rule.

Nothing is allocated per game or per turn; constants passed to compiled calls
are numpy scalars (numba types an int global as a literal and would compile
the callee once per value).  ``advance`` and ``apply``, with the turn's start
and end, are inlined into the engine's loops (``inline="always"``: numba
inlines them in its own IR), and so is ``players.heuristics``: each of these
as a call per decision or turn cost 4-6% of the games/s (one thread, default
players; measured when the kernel moved onto balance.engine).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from balance.engine import compile_kernel
from balance.state import (
    DECISION,
    END_REASON,
    N_SEATS,
    RECORD,
    SEAT,
    TURN,
    VALUE_SCALE,
    WINNER,
    ask,
    draw_below,
    end_game,
    event,
)
from sims.carnage import players
from sims.carnage.params import (
    P_CAR_CAPACITY,
    P_CAR_COST,
    P_COMMUTER_TOKENS,
    P_FARE_PER_BLOCK,
    P_GRIDLOCK_LIMIT,
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
    ALIVE,
    CAR,
    CAR_BOUGHT,
    CAR_LOAD,
    CAR_STREET,
    CAR_USED,
    CARDS,
    CAUSE_DROP,
    CAUSE_SETUP,
    CAUSE_TURN_END,
    DELIVERED,
    EV_BUY,
    EV_DROP,
    EV_END,
    EV_LOSE,
    EV_MOVE,
    EV_SPAWN,
    EV_TAKE,
    EV_TURN,
    EV_UPKEEP,
    HQ,
    KIND_BUY,
    KIND_CAR,
    LOSE_BANKRUPT,
    LOSE_STUCK,
    MAX_CAPACITY,
    MAX_CARS,
    MAX_PLAYERS,
    MAX_TOKENS,
    MONEY,
    N_ALIVE,
    N_CARDS,
    N_CARS,
    N_FREE,
    N_START,
    N_STREETS,
    N_WAITING,
    OFFERING,
    PARAMS,
    PASSENGERS,
    PHASE,
    PHASE_ACT,
    PHASE_SETUP,
    PHASE_TURN,
    STREAK,
    STREET_CAR_AT,
    STREET_WAITING_AT,
    TOKEN_DEST,
    TOKEN_FARE,
    TOKEN_FREE,
    TOKEN_ORIGIN,
    TOKEN_RIDING,
    TOKEN_STATUS,
    TOKEN_STREET,
    TOKEN_WAITING,
    USED_DROP,
    USED_MOVE,
    USED_TAKE,
    WAITING,
    can_buy,
    can_drop,
    can_move,
    can_take,
    car_can_move_now,
    dist,
    has_option,
    n_neighbours,
    neighbour,
)

NO_WINNER = np.int64(-1)
D6 = np.int64(6)
CARDS_IN_DECK = np.int64(N_CARDS)

# End reasons, in SPEC.end_reasons order.
END_DELIVERIES = np.int64(0)
END_CARS = np.int64(1)
END_LAST_STANDING = np.int64(2)
END_GRIDLOCK = np.int64(3)
END_TURN_LIMIT = np.int64(4)


@njit(cache=True)
def _end(st, reason, winner):
    end_game(st, reason, winner)
    if st[RECORD]:
        at = event(st, EV_END)
        st[at + 2] = winner
        st[at + 3] = reason


# --------------------------------------------------------------------------- rules
@njit(cache=True)
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
            if st[TOKEN_STATUS + k] == TOKEN_FREE:
                token = k
                break
        origin = st[CARDS + 2 * card]
        dest = st[CARDS + 2 * card + 1]
        st[TOKEN_STATUS + token] = TOKEN_WAITING
        st[TOKEN_ORIGIN + token] = origin
        st[TOKEN_DEST + token] = dest
        st[TOKEN_FARE + token] = st[PARAMS + P_FARE_PER_BLOCK] * dist(st, origin, dest)
        st[TOKEN_STREET + token] = origin
        st[WAITING + st[N_WAITING]] = token
        st[N_WAITING] += 1
        st[N_FREE] -= 1
        st[st[STREET_WAITING_AT] + origin] += 1
    if st[RECORD]:
        at = event(st, EV_SPAWN)
        st[at + 2] = cause
        st[at + 3] = roll
        st[at + 4] = 1 if token >= 0 else 0
        st[at + 5] = card
        st[at + 6] = token


@njit(cache=True)
def empty_city(st):
    """The table before setup: no car on the board, every commuter token free,
    each seat in the game with its start money (the rest of the dynamic span is
    zero).  Hand-built positions start from here too."""
    n_seats = st[N_SEATS]
    st[CAR_STREET : CAR_STREET + MAX_PLAYERS * MAX_CARS] = -1
    at = st[STREET_CAR_AT]
    st[at : at + st[N_STREETS]] = -1
    st[N_ALIVE] = n_seats
    st[N_FREE] = st[PARAMS + P_COMMUTER_TOKENS]
    for seat in range(n_seats):
        st[MONEY + seat] = st[PARAMS + P_START_MONEY]
        st[ALIVE + seat] = 1
    st[PHASE] = PHASE_TURN


@njit(cache=True)
def setup(st):
    """Each seat's car on its HQ; 2 commuters spawn without a roll."""
    empty_city(st)
    for seat in range(st[N_SEATS]):
        street = st[HQ + seat]
        st[CAR_STREET + seat * MAX_CARS] = street
        st[CAR_BOUGHT + seat * MAX_CARS] = 0
        st[st[STREET_CAR_AT] + street] = seat * MAX_CARS
        st[N_CARS + seat] = 1
    for _ in range(2):
        _spawn(st, CAUSE_SETUP, D6)


@njit(cache=True)
def _buy(st, seat):
    """Buy a car onto the HQ; owning win_cars cars wins at once."""
    car = st[N_CARS + seat]
    c = seat * MAX_CARS + car
    street = st[HQ + seat]
    cost = st[PARAMS + P_CAR_COST]
    st[CAR_STREET + c] = street
    st[CAR_BOUGHT + c] = st[TURN]
    st[CAR_USED + c] = USED_DROP | USED_TAKE | USED_MOVE  # cannot act this turn
    st[CAR_LOAD + c] = 0
    st[st[STREET_CAR_AT] + street] = c
    st[MONEY + seat] -= cost
    st[N_CARS + seat] = car + 1
    if st[RECORD]:
        at = event(st, EV_BUY)
        st[at + 2] = seat
        st[at + 3] = car
        st[at + 4] = street
        st[at + 5] = cost
    if car + 1 >= st[PARAMS + P_WIN_CARS]:
        _end(st, END_CARS, seat)


@njit(cache=True)
def _drop(st, seat, car):
    """Drop every passenger bound for this street; win at win_deliveries, else a
    spawn roll per commuter dropped (their tokens are back in the supply first)."""
    c = seat * MAX_CARS + car
    street = st[CAR_STREET + c]
    st[CAR_USED + c] |= USED_DROP
    kept = 0
    mask = 0
    count = 0
    for i in range(st[CAR_LOAD + c]):
        k = st[PASSENGERS + c * MAX_CAPACITY + i]
        if st[TOKEN_DEST + k] == street:
            st[TOKEN_STATUS + k] = TOKEN_FREE
            mask |= np.int64(1) << k
            count += 1
        else:
            st[PASSENGERS + c * MAX_CAPACITY + kept] = k
            kept += 1
    st[CAR_LOAD + c] = kept
    st[N_FREE] += count
    st[DELIVERED + seat] += count
    if st[RECORD]:
        at = event(st, EV_DROP)
        st[at + 2] = seat
        st[at + 3] = car
        st[at + 4] = street
        st[at + 5] = mask
    if st[DELIVERED + seat] >= st[PARAMS + P_WIN_DELIVERIES]:
        _end(st, END_DELIVERIES, seat)
        return
    for _ in range(count):
        _spawn(st, CAUSE_DROP, st[PARAMS + P_SPAWN_ON_DROP])


@njit(cache=True)
def _take(st, seat, car):
    """Fill free seats from the commuters waiting here, longest ride first (ties:
    lowest token id); each pays fare_per_block x blocks at once."""
    c = seat * MAX_CARS + car
    street = st[CAR_STREET + c]
    st[CAR_USED + c] |= USED_TAKE
    capacity = st[PARAMS + P_CAR_CAPACITY]
    waiting_here = st[STREET_WAITING_AT] + street
    mask = 0
    fare = 0
    while st[CAR_LOAD + c] < capacity and st[waiting_here] > 0:
        best = -1
        best_i = -1
        for i in range(st[N_WAITING]):
            k = st[WAITING + i]
            if st[TOKEN_STREET + k] != street:
                continue
            if (
                best < 0
                or st[TOKEN_FARE + k] > st[TOKEN_FARE + best]
                or (st[TOKEN_FARE + k] == st[TOKEN_FARE + best] and k < best)
            ):
                best = k
                best_i = i
        st[N_WAITING] -= 1
        st[WAITING + best_i] = st[WAITING + st[N_WAITING]]
        st[waiting_here] -= 1
        st[TOKEN_STATUS + best] = TOKEN_RIDING
        st[PASSENGERS + c * MAX_CAPACITY + st[CAR_LOAD + c]] = best
        st[CAR_LOAD + c] += 1
        mask |= np.int64(1) << best
        fare += st[TOKEN_FARE + best]
    st[MONEY + seat] += fare
    if st[RECORD]:
        at = event(st, EV_TAKE)
        st[at + 2] = seat
        st[at + 3] = car
        st[at + 4] = street
        st[at + 5] = mask
        st[at + 6] = fare


@njit(cache=True)
def _move(st, seat, car, k):
    c = seat * MAX_CARS + car
    origin = st[CAR_STREET + c]
    to = neighbour(st, origin, k)
    st[CAR_USED + c] |= USED_MOVE
    st[st[STREET_CAR_AT] + origin] = -1
    st[st[STREET_CAR_AT] + to] = c
    st[CAR_STREET + c] = to
    if st[RECORD]:
        at = event(st, EV_MOVE)
        st[at + 2] = seat
        st[at + 3] = car
        st[at + 4] = origin
        st[at + 5] = to


@njit(cache=True)
def _lose(st, seat, reason):
    """The seat is out: its cars leave the board, its passengers' tokens return."""
    st[ALIVE + seat] = 0
    st[N_ALIVE] -= 1
    for car in range(st[N_CARS + seat]):
        c = seat * MAX_CARS + car
        street = st[CAR_STREET + c]
        if street >= 0:
            st[st[STREET_CAR_AT] + street] = -1
        st[CAR_STREET + c] = -1
        for i in range(st[CAR_LOAD + c]):
            st[TOKEN_STATUS + st[PASSENGERS + c * MAX_CAPACITY + i]] = TOKEN_FREE
        st[N_FREE] += st[CAR_LOAD + c]
        st[CAR_LOAD + c] = 0
    st[N_CARS + seat] = 0
    if st[RECORD]:
        at = event(st, EV_LOSE)
        st[at + 2] = seat
        st[at + 3] = reason


@njit(cache=True)
def _end_of_turn_checks(st, turn):
    """After a turn's last event: one player left, gridlock, turn cap."""
    if st[N_ALIVE] == 1:
        for seat in range(st[N_SEATS]):
            if st[ALIVE + seat]:
                _end(st, END_LAST_STANDING, np.int64(seat))
        return
    if st[N_WAITING] > st[PARAMS + P_GRIDLOCK_LIMIT]:
        st[STREAK] += 1
    else:
        st[STREAK] = 0
    if st[STREAK] >= 2:
        _end(st, END_GRIDLOCK, NO_WINNER)
        return
    if turn >= st[PARAMS + P_MAX_TURNS]:
        _end(st, END_TURN_LIMIT, NO_WINNER)


@njit(cache=True, inline="always")
def _begin_turn(st):
    """The next seat still in the game begins a turn: True if it plays it, False
    if it was stuck (it lost, and the end-of-turn checks have run)."""
    n_seats = st[N_SEATS]
    turn = st[TURN] + 1
    st[TURN] = turn
    seat = st[SEAT]
    for _ in range(n_seats):
        seat = (seat + 1) % n_seats
        if st[ALIVE + seat]:
            break
    st[SEAT] = seat
    if st[RECORD]:
        at = event(st, EV_TURN)
        st[at + 2] = seat
    n_start = st[N_CARS + seat]  # cars bought this turn come after these and never act
    stuck = True
    for car in range(n_start):
        st[CAR_USED + seat * MAX_CARS + car] = 0
        if stuck and car_can_move_now(st, seat, car):
            stuck = False
    if stuck:
        _lose(st, seat, LOSE_STUCK)
        _end_of_turn_checks(st, turn)
        return False
    st[N_START] = n_start
    st[CAR] = 0
    st[OFFERING] = 1
    st[PHASE] = PHASE_ACT
    return True


@njit(cache=True, inline="always")
def _end_turn(st):
    """After the last buy offer: the turn_end spawn roll, upkeep, bankruptcy and
    the end-of-turn checks; the next turn is to begin."""
    seat = st[SEAT]
    turn = st[TURN]
    st[PHASE] = PHASE_TURN
    _spawn(st, CAUSE_TURN_END, st[PARAMS + P_SPAWN_ON_TURN_END])
    paying = 0
    for car in range(st[N_CARS + seat]):
        if st[CAR_BOUGHT + seat * MAX_CARS + car] != turn:
            paying += 1
    paid = st[PARAMS + P_UPKEEP_PER_CAR] * paying
    st[MONEY + seat] -= paid
    if st[RECORD]:
        at = event(st, EV_UPKEEP)
        st[at + 2] = seat
        st[at + 3] = paid
        st[at + 4] = st[MONEY + seat]
    if st[MONEY + seat] <= 0:
        _lose(st, seat, LOSE_BANKRUPT)
    _end_of_turn_checks(st, turn)


# --------------------------------------------------------------------------- the state machine
@njit(cache=True, inline="always")
def advance(st):
    """Run the rules until a player must decide or the game ends.

    The first call of a game does the setup.  Within a turn the next question
    is a buy offer (before each car that owned at the turn's start acts, and
    once after the last) while a buy is legal, else the acting car's next
    action while it has a legal unused one; when neither is left the turn
    ends.  Called again with a decision pending, it asks the same question.
    """
    if st[PHASE] == PHASE_SETUP:
        setup(st)
    while True:
        if st[PHASE] == PHASE_TURN:
            if not _begin_turn(st):
                if st[END_REASON] >= 0:
                    return
                continue
        seat = st[SEAT]
        car = st[CAR]
        offering = st[OFFERING]
        n_start = st[N_START]
        while True:
            if offering:
                if can_buy(st, seat):
                    st[CAR] = car
                    st[OFFERING] = 1
                    ask(st, seat, KIND_BUY, st[N_CARS + seat])
                    return
                offering = 0
            if car >= n_start:
                break
            if has_option(st, seat, car):
                st[CAR] = car
                st[OFFERING] = 0
                ask(st, seat, KIND_CAR, car)
                return
            car += 1
            offering = 1
        _end_turn(st)
        if st[END_REASON] >= 0:
            return


@njit(cache=True, inline="always")
def apply(st, answer):
    """Resolve the pending decision.  A buy offer: 1 buys (another offer may
    follow), anything else declines.  A car: ACT_DROP, ACT_TAKE or ACT_MOVE + k
    when legal; anything else (ACT_DONE, an illegal or unknown answer) ends the
    car's actions, and the next buy offer comes."""
    seat = st[SEAT]
    if st[DECISION] == KIND_BUY:
        if answer == 1:
            _buy(st, seat)
        else:
            st[OFFERING] = 0
        return
    car = st[CAR]
    if answer == ACT_DROP and can_drop(st, seat, car):
        _drop(st, seat, car)
    elif answer == ACT_TAKE and can_take(st, seat, car):
        _take(st, seat, car)
    elif answer >= ACT_MOVE and can_move(st, seat, car, answer - ACT_MOVE):
        _move(st, seat, car, answer - ACT_MOVE)
    else:
        st[CAR] = car + 1
        st[OFFERING] = 1


# --------------------------------------------------------------------------- the search player's hooks
@njit(cache=True)
def candidates(st, out):
    """The legal answers: a buy offer 1 then 0; a car's drop, take and moves
    (neighbour order) when legal, then ACT_DONE."""
    seat = st[SEAT]
    if st[DECISION] == KIND_BUY:
        out[0] = 1
        out[1] = 0
        return 2
    car = st[CAR]
    n = 0
    if can_drop(st, seat, car):
        out[n] = ACT_DROP
        n += 1
    if can_take(st, seat, car):
        out[n] = ACT_TAKE
        n += 1
    street = st[CAR_STREET + seat * MAX_CARS + car]
    for k in range(n_neighbours(st, street)):
        if can_move(st, seat, car, k):
            out[n] = ACT_MOVE + k
            n += 1
    out[n] = ACT_DONE
    return n + 1


@njit(cache=True)
def determinize(st, seat):
    """Carnage hides nothing: dice and cards (drawn with replacement) come from
    the playout's own stream."""


@njit(cache=True)
def evaluate(st, seat):
    """A playout's value for ``seat``.

    A win is VALUE_SCALE; a game another seat won, a gridlock (everybody
    loses) or a loss of ``seat`` is 0.  A playout cut by the horizon or the
    turn cap is scored by strength relative to the others: each seat still in
    the game has 1 + its progress towards each win, delivered /
    win_deliveries + (cars + money / car_cost) / win_cars (money counts as the
    cars it could buy; debts count nothing), and ``seat`` gets VALUE_SCALE
    times its share of the total (equal seats: 1 / seats left).
    """
    if st[WINNER] >= 0:
        return VALUE_SCALE if st[WINNER] == seat else 0
    if st[END_REASON] == END_GRIDLOCK or not st[ALIVE + seat]:
        return 0
    win_deliveries = max(st[PARAMS + P_WIN_DELIVERIES], 1)
    win_cars = max(st[PARAMS + P_WIN_CARS], 1)
    car_cost = max(st[PARAMS + P_CAR_COST], 1)
    mine = 0.0
    total = 0.0
    for s in range(st[N_SEATS]):
        if not st[ALIVE + s]:
            continue
        money = max(st[MONEY + s], 0)
        value = (
            1.0
            + st[DELIVERED + s] / win_deliveries
            + (st[N_CARS + s] + money / car_cost) / win_cars
        )
        total += value
        if s == seat:
            mine = value
    return np.int64(VALUE_SCALE * mine / total)


KERNEL = compile_kernel(
    __name__,
    advance=advance,
    apply=apply,
    heuristics=players.heuristics,
    n_heuristics=len(players.PLAYERS),
    candidates=candidates,
    determinize=determinize,
    evaluate=evaluate,
)
