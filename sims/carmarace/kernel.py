"""Carmarace's rules as a state machine for balance.engine (RULES.md, R1-R25).

``advance`` runs the rules until a seat must decide or the game ends; ``apply``
resolves the pending decision, any illegal answer becoming the rule's safe
default (stop drawing -- in setup and refill draws, which must happen, the
first drawable deck --, ride the kept card, play nothing, pass, stop moving,
no step, discard nothing).  All progress lives in state slots (state.py), so
the search player can copy a game in the middle of a karma round or a move.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from balance.engine import compile_kernel
from balance.state import (
    DECIDER,
    DECISION,
    END_REASON,
    N_SEATS,
    RECORD,
    SEAT,
    SUBJECT,
    TURN,
    VALUE_SCALE,
    WINNER,
    ask,
    draw_below,
    end_game,
    event,
    lend_params,
    return_params,
    shuffle,
)
from sims.carmarace import players
from sims.carmarace.params import (
    P_GOOD_KARMA_STEP,
    P_MAX_TURNS,
    P_PLANE_STAYS_ALOFT,
    P_START_GIFTS,
    P_START_SQUARES,
    P_TIE_RULE,
    SQUARES_HIGHEST,
    SQUARES_RANDOM,
    TIE_RANDOM,
)
from sims.carmarace.state import (
    C_DECK,
    C_MODE,
    C_SPEED,
    CARD_SLOT,
    CONVENTION,
    D_TRANSPORT,
    DECK_FIRST,
    DECK_SIZE,
    DISC_N,
    DRAW,
    DRAW_N,
    E_LAND,
    E_ON_TOP,
    E_REMOVE_ALL,
    E_REMOVE_NEGATIVE,
    E_REMOVE_POSITIVE,
    EV_CLEANUP,
    EV_DATA,
    EV_DECK,
    EV_DRAW,
    EV_END,
    EV_GIFT,
    EV_KARMA,
    EV_LAND,
    EV_LEAVE,
    EV_MOVE,
    EV_PASS,
    EV_PATH,
    EV_REFILL,
    EV_REMOVE,
    EV_SHUFFLE,
    EV_START,
    EV_STEP,
    EV_TRANSPORT,
    EV_TURN,
    GIFT_AIRPORT,
    GIFT_STATION,
    GO_ON,
    HAND,
    HAND_CAP,
    HAND_LIMIT,
    HAND_N,
    K_AIRPORT,
    K_SKY,
    K_STATION,
    KARMA,
    KEEP_LEFT,
    KEPT,
    LANDED,
    MODE_PLANE,
    MODE_ROAD,
    MV_AT,
    MV_ENTERED,
    MV_LEFT,
    N_CARDS,
    N_LOT,
    N_SLOTS,
    NEXT,
    O_DISC,
    O_DRAW,
    O_LAND,
    O_LOT,
    O_N_LAND,
    O_NUMBER,
    OPP,
    OWN_KARMA,
    PARAMS,
    PASSED,
    PAWN,
    PHASE,
    REFILL,
    REFILL_LEFT,
    REMOVED,
    RIDE,
    ROW_CARD,
    ROW_N,
    ROW_SLOT,
    SETUP_SEAT,
    SLOT_TOP,
    SQUARE,
    STEP,
    STEP_SEAT,
    SUB_DRAW,
    SUB_REFILL,
    SUB_SETUP,
    TOGO_SCORE,
    TRANSPORT,
    V_KEPT,
    V_LIMIT,
    VEHICLE,
    any_drawable,
    card,
    deck_drawable,
    effect_of,
    effective_limit,
    first_drawable,
    gps_of,
    has_legal_karma,
    has_step_option,
    is_step_option,
    karma_legal,
    keep_of,
    kind_of,
    move_class,
    n_next,
    next_of,
    playable,
    step_mask,
    togo,
    visit,
)

END_CONVENTION = np.int64(0)
END_TURN_LIMIT = np.int64(1)
NO_WINNER = np.int64(-1)

# Phases (state PHASE)
PH_SETUP = 0
PH_SETUP_DRAW = 1
PH_TURN = 2
PH_DRAW = 3
PH_TRANSPORT = 4
PH_OWN = 5
PH_ROUND = 6
PH_STEP = 7
PH_REMOVE = 8
PH_MOVE = 9
PH_CLEANUP = 10
PH_REFILL = 11
PH_REFILL_DRAW = 12
PH_TURN_END = 13


# --------------------------------------------------------------------------- trace helpers
@njit(cache=True)
def _data(st, st_at, n):
    """EV_DATA rows holding st[st_at .. st_at + n) (6 a row)."""
    k = 0
    while k < n:
        at = event(st, EV_DATA)
        for j in range(6):
            if k + j < n:
                st[at + 2 + j] = st[st_at + k + j]
        k += 6


@njit(cache=True)
def _pile_data(st, base, n):
    """EV_DATA rows listing a draw pile top first (the top is its last card)."""
    k = 0
    while k < n:
        at = event(st, EV_DATA)
        for j in range(6):
            if k + j < n:
                st[at + 2 + j] = st[base + n - 1 - (k + j)]
        k += 6


@njit(cache=True)
def _end(st, reason, winner):
    for s in range(st[N_SEATS]):
        st[TOGO_SCORE + s] = togo(st, st[PAWN + s])
    end_game(st, reason, winner)
    if st[RECORD]:
        at = event(st, EV_END)
        st[at + 2] = winner
        st[at + 3] = reason


# --------------------------------------------------------------------------- cards
@njit(cache=True)
def _discard(st, c):
    d = card(st, c, C_DECK)
    st[st[O_DISC] + st[DECK_FIRST + d] + st[DISC_N + d]] = c
    st[DISC_N + d] += 1


@njit(cache=True)
def _hand_add(st, seat, c):
    """Insert ``c`` keeping the hand sorted by id."""
    base = HAND + seat * HAND_CAP
    i = st[HAND_N + seat]
    while i > 0 and st[base + i - 1] > c:
        st[base + i] = st[base + i - 1]
        i -= 1
    st[base + i] = c
    st[HAND_N + seat] += 1


@njit(cache=True)
def _hand_remove(st, seat, c):
    base = HAND + seat * HAND_CAP
    n = st[HAND_N + seat]
    i = 0
    while i < n and st[base + i] != c:
        i += 1
    for j in range(i, n - 1):
        st[base + j] = st[base + j + 1]
    st[HAND_N + seat] = n - 1


@njit(cache=True)
def _in_hand(st, seat, c):
    base = HAND + seat * HAND_CAP
    for i in range(st[HAND_N + seat]):
        if st[base + i] == c:
            return True
    return False


@njit(cache=True)
def _draw(st, seat, d, phase):
    """R7: draw the top card of deck ``d``, reshuffling its discard pile when the draw pile is empty."""
    first = st[DECK_FIRST + d]
    pile = st[O_DRAW] + first
    if st[DRAW_N + d] == 0:
        n = st[DISC_N + d]
        disc = st[O_DISC] + first
        for i in range(n):
            st[pile + i] = st[disc + i]
        st[DISC_N + d] = 0
        st[DRAW_N + d] = n
        shuffle(st, pile, pile + n)
        if st[RECORD]:
            at = event(st, EV_SHUFFLE)
            st[at + 2] = d
            st[at + 3] = n
            _pile_data(st, pile, n)
    st[DRAW_N + d] -= 1
    c = st[pile + st[DRAW_N + d]]
    _hand_add(st, seat, c)
    if st[RECORD]:
        at = event(st, EV_DRAW)
        st[at + 2] = seat
        st[at + 3] = d
        st[at + 4] = c
        st[at + 5] = phase
        st[at + 6] = st[HAND_N + seat]


# --------------------------------------------------------------------------- setup (R1-R5)
@njit(cache=True)
def _setup(st):
    n_seats = st[N_SEATS]
    n_lot = st[N_LOT]
    lot = st[O_LOT]
    mode = st[PARAMS + P_START_SQUARES]
    # R2: squares by number; seat order = square order
    if mode == SQUARES_RANDOM:
        # P distinct squares (their indices held in PAWN meanwhile), then in number order
        for s in range(n_seats):
            while True:
                k = draw_below(st, n_lot)
                dup = False
                for q in range(s):
                    if st[PAWN + q] == k:
                        dup = True
                if not dup:
                    break
            j = s
            while j > 0 and st[PAWN + j - 1] > k:
                st[PAWN + j] = st[PAWN + j - 1]
                j -= 1
            st[PAWN + j] = k
        for s in range(n_seats):
            st[PAWN + s] = st[lot + st[PAWN + s]]
    elif mode == SQUARES_HIGHEST:
        for s in range(n_seats):
            st[PAWN + s] = st[lot + n_lot - n_seats + s]
    else:
        for s in range(n_seats):
            st[PAWN + s] = st[lot + s]
    for s in range(n_seats):
        st[SQUARE + s] = st[st[O_NUMBER] + st[PAWN + s]]
        st[KEPT + s] = -1
    st[VEHICLE] = -1
    if st[RECORD]:
        at = event(st, EV_START)
        for s in range(n_seats):
            st[at + 2 + s] = st[PAWN + s]
    # R3: gifts, seat by seat, airport before station, each card once
    gift_a = -1
    gift_s = -1
    if st[PARAMS + P_START_GIFTS]:
        for s in range(n_seats):
            u = st[PAWN + s]
            to_airport = False
            to_station = False
            for k in range(n_next(st, u)):
                kw = kind_of(st, next_of(st, u, k))
                if kw == K_AIRPORT:
                    to_airport = True
                elif kw == K_STATION:
                    to_station = True
            if to_airport and gift_a < 0 and st[GIFT_AIRPORT] >= 0:
                gift_a = st[GIFT_AIRPORT]
                _hand_add(st, s, gift_a)
                if st[RECORD]:
                    at = event(st, EV_GIFT)
                    st[at + 2] = s
                    st[at + 3] = gift_a
            if to_station and gift_s < 0 and st[GIFT_STATION] >= 0:
                gift_s = st[GIFT_STATION]
                _hand_add(st, s, gift_s)
                if st[RECORD]:
                    at = event(st, EV_GIFT)
                    st[at + 2] = s
                    st[at + 3] = gift_s
    # R1: each deck shuffled separately, less the gifts
    for d in range(4):
        first = st[DECK_FIRST + d]
        pile = st[O_DRAW] + first
        n = 0
        for c in range(first, first + st[DECK_SIZE + d]):
            if c != gift_a and c != gift_s:
                st[pile + n] = c
                n += 1
        st[DRAW_N + d] = n
        st[DISC_N + d] = 0
        shuffle(st, pile, pile + n)
        if st[RECORD]:
            at = event(st, EV_DECK)
            st[at + 2] = d
            st[at + 3] = n
            _pile_data(st, pile, n)


# --------------------------------------------------------------------------- the ride
@njit(cache=True)
def _start_ride(st, c, kept):
    seat = st[SEAT]
    st[VEHICLE] = c
    st[V_LIMIT] = effective_limit(st, c)
    st[V_KEPT] = 1 if kept else 0
    st[N_SLOTS] = 0
    st[ROW_N] = 0
    st[REMOVED] = 0
    st[LANDED] = 0
    if st[RECORD]:
        at = event(st, EV_TRANSPORT)
        st[at + 2] = seat
        st[at + 3] = c
        st[at + 4] = 1 if kept else 0
        st[at + 5] = st[V_LIMIT]
    st[PHASE] = PH_OWN


@njit(cache=True)
def _leave(st, seat):
    c = st[KEPT + seat]
    st[KEPT + seat] = -1
    st[KEEP_LEFT + seat] = 0
    _discard(st, c)
    if st[RECORD]:
        at = event(st, EV_LEAVE)
        st[at + 2] = seat
        st[at + 3] = c


@njit(cache=True)
def _no_ride(st):
    st[VEHICLE] = -1
    if st[RECORD]:
        at = event(st, EV_TRANSPORT)
        st[at + 2] = st[SEAT]
        st[at + 3] = -1
        st[at + 4] = 0
        st[at + 5] = -1
    st[PHASE] = PH_REFILL


@njit(cache=True)
def _play_karma(st, seat, c, slot):
    """Put Karma card ``c`` on the row (R11, R12); returns True when it ends the ride (R13)."""
    _hand_remove(st, seat, c)
    k = st[ROW_N]
    st[ROW_CARD + k] = c
    st[ROW_SLOT + k] = slot
    st[ROW_N] = k + 1
    st[SLOT_TOP + slot] = c
    if slot == st[N_SLOTS]:
        st[N_SLOTS] += 1
    if st[RECORD]:
        at = event(st, EV_KARMA)
        st[at + 2] = seat
        st[at + 3] = c
        st[at + 4] = slot
    if effect_of(st, c) == E_LAND:
        _land(st, c)
        return True
    return False


@njit(cache=True)
def _land(st, c):
    """R13: the active pawn moves to its space's closest road or track; the ride ends."""
    seat = st[SEAT]
    u = st[PAWN + seat]
    n = st[st[O_N_LAND] + u]
    base = st[O_LAND] + u * 4
    to = u
    by = -1
    roll = 0
    if n == 1:
        to = st[base]
    elif n >= 2:
        if st[PARAMS + P_TIE_RULE] == TIE_RANDOM:
            roll = draw_below(st, n) + 1  # the roll-th entry in index order
            for i in range(n):
                rank = 0
                for j in range(n):
                    if st[base + j] < st[base + i]:
                        rank += 1
                if rank == roll - 1:
                    to = st[base + i]
        else:
            n_seats = st[N_SEATS]
            largest = True  # the opponents outvote the moved player: the entry farthest away
            if n_seats == 2:
                # tied votes: the player in last position decides (ties: the higher seat)
                last = 0
                for s in range(1, n_seats):
                    if togo(st, st[PAWN + s]) >= togo(st, st[PAWN + last]):
                        last = s
                by = last
                largest = last != seat
            to = -1
            for i in range(n):
                e = st[base + i]
                if to < 0:
                    to = e
                    continue
                t = togo(st, e)
                tt = togo(st, to)
                if (largest and t > tt) or (not largest and t < tt) or (t == tt and e < to):
                    to = e
    st[PAWN + seat] = to
    if to != u:
        visit(st, to)
    st[LANDED] = 1
    if st[RECORD]:
        at = event(st, EV_LAND)
        st[at + 2] = seat
        st[at + 3] = c
        st[at + 4] = u
        st[at + 5] = to
        st[at + 6] = by
        st[at + 7] = roll
    st[PHASE] = PH_CLEANUP


@njit(cache=True)
def _removals(st):
    """R15: each slot topped by a removal card resolves, left to right, skipping removed slots."""
    seat = st[SEAT]
    n = st[N_SLOTS]
    for s in range(n):
        if (st[REMOVED] >> s) & 1:
            continue
        top = st[SLOT_TOP + s]
        e = effect_of(st, top)
        if e != E_REMOVE_NEGATIVE and e != E_REMOVE_POSITIVE and e != E_REMOVE_ALL:
            continue
        mask = np.int64(0)
        for o in range(n):
            if o == s or (st[REMOVED] >> o) & 1:
                continue
            sp = card(st, st[SLOT_TOP + o], C_SPEED)
            if e == E_REMOVE_ALL or (e == E_REMOVE_NEGATIVE and sp < 0) or (e == E_REMOVE_POSITIVE and sp > 0):
                mask |= np.int64(1) << np.int64(o)
        st[REMOVED] |= mask
        if st[RECORD]:
            at = event(st, EV_REMOVE)
            st[at + 2] = seat
            st[at + 3] = top
            st[at + 4] = s
            st[at + 5] = mask
            count = 0
            for o in range(n):
                if (mask >> o) & 1:
                    for k in range(st[ROW_N]):
                        if st[ROW_SLOT + k] == o:
                            count += 1
            st[at + 6] = count
            k6 = 0
            row = 0
            for o in range(n):
                if (mask >> o) & 1:
                    for k in range(st[ROW_N]):
                        if st[ROW_SLOT + k] == o:
                            if k6 % 6 == 0:
                                row = event(st, EV_DATA)
                            st[row + 2 + k6 % 6] = st[ROW_CARD + k]
                            k6 += 1


@njit(cache=True)
def _start_move(st):
    seat = st[SEAT]
    v = st[VEHICLE]
    karma = 0
    for s in range(st[N_SLOTS]):
        if not (st[REMOVED] >> s) & 1:
            karma += card(st, st[SLOT_TOP + s], C_SPEED)
    base = card(st, v, C_SPEED)
    speed = max(0, base + karma)  # R16
    st[MV_AT] = st[PAWN + seat]
    st[MV_LEFT] = speed
    st[MV_ENTERED] = 0
    if st[RECORD]:
        at = event(st, EV_MOVE)
        st[at + 2] = seat
        st[at + 3] = v
        st[at + 4] = base
        st[at + 5] = karma
        st[at + 6] = speed
        st[at + 7] = st[MV_AT]
    st[PHASE] = PH_MOVE


@njit(cache=True)
def _step_to(st, w, roll):
    """One step of the move; True when it reaches the Convention (R20)."""
    seat = st[SEAT]
    u = st[MV_AT]
    st[MV_AT] = w
    st[PAWN + seat] = w
    visit(st, w)
    st[MV_LEFT] -= 1
    st[MV_ENTERED] = 1
    if st[RECORD]:
        at = event(st, EV_PATH)
        st[at + 2] = u
        st[at + 3] = w
        st[at + 4] = roll
    if w == st[CONVENTION]:
        _end(st, END_CONVENTION, seat)
        return True
    return False


@njit(cache=True)
def _cleanup(st):
    """R21: the vehicle and every card of its row to the discard piles, in the
    trace's order, but for a Taxi/Bus with stays left or a plane still aloft."""
    seat = st[SEAT]
    v = st[VEHICLE]
    kept = -1
    if not st[LANDED]:
        mode = card(st, v, C_MODE)
        if mode == MODE_ROAD and st[KEEP_LEFT + seat] > 0:
            kept = v
            st[KEEP_LEFT + seat] -= 1
        elif mode == MODE_PLANE and st[PARAMS + P_PLANE_STAYS_ALOFT] and kind_of(st, st[PAWN + seat]) == K_SKY:
            kept = v
    st[KEPT + seat] = kept
    if kept < 0:
        st[KEEP_LEFT + seat] = 0
    count = 0
    row = 0
    record = st[RECORD]
    at = 0
    if record:
        at = event(st, EV_CLEANUP)
        st[at + 2] = seat
        st[at + 3] = kept
        st[at + 4] = st[ROW_N] + (1 if kept < 0 else 0)
    if kept < 0:
        _discard(st, v)
        if record:
            row = event(st, EV_DATA)
            st[row + 2] = v
            count = 1
    n = st[N_SLOTS]
    for pass_ in range(2):  # the slots left, then the removed ones
        for s in range(n):
            removed = (st[REMOVED] >> s) & 1
            if removed != pass_:
                continue
            for k in range(st[ROW_N]):
                if st[ROW_SLOT + k] == s:
                    c = st[ROW_CARD + k]
                    _discard(st, c)
                    if record:
                        if count % 6 == 0:
                            row = event(st, EV_DATA)
                        st[row + 2 + count % 6] = c
                        count += 1
    st[VEHICLE] = -1
    st[N_SLOTS] = 0
    st[ROW_N] = 0
    st[REMOVED] = 0
    st[PHASE] = PH_REFILL


# --------------------------------------------------------------------------- advance
@njit(cache=True)
def advance(st):
    """Run the rules until a seat must decide or the game ends."""
    if st[DECIDER] >= 0 or st[END_REASON] >= 0:
        return  # a decision is pending, or the game is over
    n_seats = st[N_SEATS]
    while True:
        ph = st[PHASE]
        if ph == PH_SETUP:
            _setup(st)
            st[SETUP_SEAT] = 0
            st[PHASE] = PH_SETUP_DRAW
        elif ph == PH_SETUP_DRAW:
            s = st[SETUP_SEAT]
            if s >= n_seats:
                st[PHASE] = PH_TURN
            elif st[HAND_N + s] < st[HAND_LIMIT] and any_drawable(st):
                ask(st, s, DRAW, SUB_SETUP)
                return
            else:
                st[SETUP_SEAT] = s + 1
        elif ph == PH_TURN:
            st[TURN] += 1
            seat = (st[TURN] - 1) % n_seats
            st[SEAT] = seat
            if st[RECORD]:
                at = event(st, EV_TURN)
                st[at + 2] = seat
                st[at + 3] = st[PAWN + seat]
            st[PHASE] = PH_DRAW
        elif ph == PH_DRAW:
            seat = st[SEAT]
            if st[HAND_N + seat] < st[HAND_LIMIT] and any_drawable(st):
                ask(st, seat, DRAW, SUB_DRAW)
                return
            st[PHASE] = PH_TRANSPORT
        elif ph == PH_TRANSPORT:
            seat = st[SEAT]
            u = st[PAWN + seat]
            kept = st[KEPT + seat]
            if kept >= 0:
                if card(st, kept, C_MODE) == MODE_PLANE:
                    if kind_of(st, u) == K_SKY:
                        _start_ride(st, kept, True)  # R8: a plane aloft must be ridden
                        continue
                    _leave(st, seat)  # a kept plane whose pawn is no longer aloft (R14 steps)
                elif playable(st, kept, u):
                    ask(st, seat, RIDE, kept)
                    return
                else:
                    _leave(st, seat)
            found = False
            for i in range(st[HAND_N + seat]):
                c = st[HAND + seat * HAND_CAP + i]
                if card(st, c, C_DECK) == D_TRANSPORT and playable(st, c, u):
                    found = True
                    break
            if found:
                ask(st, seat, TRANSPORT, u)
                return
            _no_ride(st)
        elif ph == PH_OWN:
            seat = st[SEAT]
            if has_legal_karma(st, seat):
                ask(st, seat, OWN_KARMA, st[VEHICLE])
                return
            st[OPP] = (seat + 1) % n_seats
            st[PASSED] = 0
            st[PHASE] = PH_ROUND
        elif ph == PH_ROUND:
            everyone = (np.int64(1) << n_seats) - 1
            if st[PASSED] == everyone:
                st[PHASE] = PH_REMOVE
                continue
            s = st[OPP]
            while (st[PASSED] >> s) & 1:
                s = (s + 1) % n_seats
            if has_legal_karma(st, s):
                st[OPP] = s
                ask(st, s, KARMA, st[SEAT])
                return
            st[PASSED] |= np.int64(1) << s  # a seat with no legal card passes (R10)
            st[OPP] = (s + 1) % n_seats
            if st[RECORD]:
                at = event(st, EV_PASS)
                st[at + 2] = s
        elif ph == PH_STEP:
            s = st[STEP_SEAT]
            u = st[PAWN + s]
            if has_step_option(st, u):
                ask(st, s, STEP, u)
                return
            st[PHASE] = PH_ROUND
        elif ph == PH_REMOVE:
            _removals(st)
            _start_move(st)
        elif ph == PH_MOVE:
            u = st[MV_AT]
            if st[MV_LEFT] <= 0 or u == st[CONVENTION]:
                st[PHASE] = PH_CLEANUP
                continue
            entered = st[MV_ENTERED]
            if step_mask(st, move_class(st, st[VEHICLE]), u, entered) == 0:
                st[PHASE] = PH_CLEANUP
                continue
            if entered and gps_of(st, u, 0) >= 0:
                ask(st, st[SEAT], GO_ON, u)
                return
            ask(st, st[SEAT], NEXT, u)
            return
        elif ph == PH_CLEANUP:
            _cleanup(st)
        elif ph == PH_REFILL:
            seat = st[SEAT]
            if st[HAND_N + seat] > 0:
                ask(st, seat, REFILL, st[HAND_N + seat])
                return
            _refill(st, seat, np.int64(0))
        elif ph == PH_REFILL_DRAW:
            if st[REFILL_LEFT] > 0 and any_drawable(st):
                ask(st, st[SEAT], DRAW, SUB_REFILL)
                return
            st[PHASE] = PH_TURN_END
        else:  # PH_TURN_END
            if st[TURN] >= st[PARAMS + P_MAX_TURNS]:
                _end(st, END_TURN_LIMIT, NO_WINNER)
                return
            st[PHASE] = PH_TURN


@njit(cache=True)
def _refill(st, seat, mask):
    """R22: discard the hand cards of ``mask`` (bits over hand positions), then draw as many."""
    base = HAND + seat * HAND_CAP
    n = st[HAND_N + seat]
    mask &= (np.int64(1) << n) - 1
    count = 0
    for i in range(n):
        if (mask >> i) & 1:
            count += 1
    record = st[RECORD]
    row = 0
    if record:
        at = event(st, EV_REFILL)
        st[at + 2] = seat
        st[at + 3] = count
    k = 0
    j = 0
    for i in range(n):
        c = st[base + i]
        if (mask >> i) & 1:
            _discard(st, c)
            if record:
                if k % 6 == 0:
                    row = event(st, EV_DATA)
                st[row + 2 + k % 6] = c
            k += 1
        else:
            st[base + j] = c
            j += 1
    st[HAND_N + seat] = j
    st[REFILL_LEFT] = count
    st[PHASE] = PH_REFILL_DRAW


# --------------------------------------------------------------------------- apply
@njit(cache=True)
def apply(st, answer):
    """Resolve the pending decision with ``answer`` (an illegal one: the safe default)."""
    seat = st[DECIDER]
    kind = st[DECISION]
    st[DECIDER] = -1
    active = st[SEAT]
    if kind == DRAW:
        phase = st[SUBJECT]
        if 0 <= answer < 4 and deck_drawable(st, answer):
            d = answer
        elif phase == SUB_DRAW:
            st[PHASE] = PH_TRANSPORT  # stop drawing
            return
        else:
            d = first_drawable(st)
        _draw(st, seat, d, phase)
        if phase == SUB_REFILL:
            st[REFILL_LEFT] -= 1
    elif kind == RIDE:
        if answer == 0:
            _leave(st, seat)  # then the player acts as without a kept card (PH_TRANSPORT)
        else:
            _start_ride(st, st[KEPT + seat], True)
    elif kind == TRANSPORT:
        u = st[PAWN + seat]
        if (
            0 <= answer < st[N_CARDS] and card(st, answer, C_DECK) == D_TRANSPORT
            and _in_hand(st, seat, answer) and playable(st, answer, u)
        ):
            _hand_remove(st, seat, answer)
            st[KEEP_LEFT + seat] = keep_of(st, answer)
            _start_ride(st, answer, False)
        else:
            _no_ride(st)
    elif kind == OWN_KARMA:
        if (
            0 <= answer < st[N_CARDS] and _in_hand(st, seat, answer)
            and effect_of(st, answer) != E_ON_TOP and karma_legal(st, answer, st[N_SLOTS])
        ):
            if _play_karma(st, seat, answer, st[N_SLOTS]):
                return  # R13: the ride ends, no round
        st[OPP] = (active + 1) % st[N_SEATS]
        st[PASSED] = 0
        st[PHASE] = PH_ROUND
    elif kind == KARMA:
        c = answer % CARD_SLOT if answer >= 0 else -1
        slot = answer // CARD_SLOT if answer >= 0 else -1
        if 0 <= c < st[N_CARDS] and _in_hand(st, seat, c) and karma_legal(st, c, slot):
            if _play_karma(st, seat, c, slot):
                return
            st[OPP] = (seat + 1) % st[N_SEATS]
            if st[PARAMS + P_GOOD_KARMA_STEP] and seat != active and card(st, c, C_SPEED) > 0:
                st[STEP_SEAT] = seat  # R14
                st[PHASE] = PH_STEP
        else:
            st[PASSED] |= np.int64(1) << seat
            st[OPP] = (seat + 1) % st[N_SEATS]
            if st[RECORD]:
                at = event(st, EV_PASS)
                st[at + 2] = seat
    elif kind == STEP:
        st[PHASE] = PH_ROUND
        u = st[PAWN + seat]
        ok = answer >= 0 and is_step_option(st, u, answer)
        if ok:
            st[PAWN + seat] = answer
            visit(st, answer)
            if st[RECORD]:
                at = event(st, EV_STEP)
                st[at + 2] = seat
                st[at + 3] = u
                st[at + 4] = answer
            if answer == st[CONVENTION]:
                _end(st, END_CONVENTION, seat)
    elif kind == GO_ON:
        if answer == 1:
            u = st[MV_AT]
            roll = draw_below(st, np.int64(6)) + 1  # R19
            w = gps_of(st, u, roll - 1)
            mask = step_mask(st, move_class(st, st[VEHICLE]), u, 1)
            legal = False
            for k in range(n_next(st, u)):
                if next_of(st, u, k) == w and (mask >> k) & 1:
                    legal = True
            if legal:
                _step_to(st, w, roll)
            else:
                # the die names a space this vehicle cannot use (a user's map): the move
                # ends on the arrow; the roll is still in the trace
                st[PHASE] = PH_CLEANUP
                if st[RECORD]:
                    at = event(st, EV_PATH)
                    st[at + 2] = u
                    st[at + 3] = w
                    st[at + 4] = roll
                    st[at + 5] = 1
        else:
            st[PHASE] = PH_CLEANUP
    elif kind == NEXT:
        u = st[MV_AT]
        mask = step_mask(st, move_class(st, st[VEHICLE]), u, st[MV_ENTERED])
        legal = False
        for k in range(n_next(st, u)):
            if next_of(st, u, k) == answer and (mask >> k) & 1:
                legal = True
        if legal and not (st[MV_ENTERED] and gps_of(st, u, 0) >= 0):
            _step_to(st, answer, 0)
        else:
            st[PHASE] = PH_CLEANUP
    else:  # REFILL
        _refill(st, seat, answer if answer > 0 else np.int64(0))


# --------------------------------------------------------------------------- search
@njit(cache=True)
def _add(out, n, a):
    """Append answer ``a`` unless already listed; the new count."""
    for i in range(n):
        if out[i] == a:
            return n
    out[n] = a
    return n + 1


@njit(cache=True)
def candidates(st, out):
    """What mc compares: every legal answer where a choice shapes the race (ride,
    transport, own Karma, a karma play or pass, up to MAX_CANDIDATES), the
    heuristics' discards and none at the refill.  Draws, moves and steps are
    left to the rollout policy (0), which plays them as the spec's skeleton does."""
    kind = st[DECISION]
    seat = st[DECIDER]
    cap = out.shape[0]
    n = 0
    if kind == RIDE:
        out[0] = 1
        out[1] = 0
        return 2
    if kind == TRANSPORT:
        u = st[PAWN + seat]
        for i in range(st[HAND_N + seat]):
            c = st[HAND + seat * HAND_CAP + i]
            if card(st, c, C_DECK) == D_TRANSPORT and playable(st, c, u) and n < cap - 1:
                out[n] = c
                n += 1
        out[n] = -1
        return n + 1
    if kind == OWN_KARMA or kind == KARMA:
        slots = st[N_SLOTS]
        for i in range(st[HAND_N + seat]):
            c = st[HAND + seat * HAND_CAP + i]
            if card(st, c, C_DECK) == D_TRANSPORT:
                continue
            if effect_of(st, c) == E_ON_TOP:
                if kind == KARMA:
                    for s in range(slots):
                        if karma_legal(st, c, s) and n < cap - 1:
                            out[n] = c + CARD_SLOT * s
                            n += 1
            elif karma_legal(st, c, slots) and n < cap - 1:
                out[n] = c if kind == OWN_KARMA else c + CARD_SLOT * slots
                n += 1
        out[n] = -1
        return n + 1
    if kind == REFILL:
        n = _add(out, 0, np.int64(0))
        for h in range(3):  # hunter, saboteur, racer (deterministic: no draw from the game's stream)
            lent = lend_params(st, seat, h)  # each with its own parameters
            n = _add(out, n, players.heuristics(h, kind, seat, st[SUBJECT], st))
            return_params(st, seat, lent)
        return n
    return 0


@njit(cache=True)
def determinize(st, seat):
    """Resample what ``seat`` cannot know: the order of every draw pile and the
    other seats' hands, keeping how many cards of each deck each hand holds
    (draws are made from visible decks) and every public card (discard piles,
    cards in front, the row)."""
    n_seats = st[N_SEATS]
    for d in range(4):
        first = st[DECK_FIRST + d]
        pile = st[O_DRAW] + first
        n = st[DRAW_N + d]
        # pool: the draw pile, then the other hands' cards of this deck, appended
        # behind the pile (the region has room: it holds the whole deck)
        k = n
        for s in range(n_seats):
            if s == seat:
                continue
            for i in range(st[HAND_N + s]):
                c = st[HAND + s * HAND_CAP + i]
                if card(st, c, C_DECK) == d:
                    st[pile + k] = c
                    k += 1
        shuffle(st, pile, pile + k)
        j = n
        for s in range(n_seats):
            if s == seat:
                continue
            base = HAND + s * HAND_CAP
            m = st[HAND_N + s]
            for i in range(m):
                if card(st, st[base + i], C_DECK) == d:
                    st[base + i] = st[pile + j]
                    j += 1
    for s in range(n_seats):  # hands sorted by id again
        if s == seat:
            continue
        base = HAND + s * HAND_CAP
        m = st[HAND_N + s]
        for i in range(1, m):
            x = st[base + i]
            j = i
            while j > 0 and st[base + j - 1] > x:
                st[base + j] = st[base + j - 1]
                j -= 1
            st[base + j] = x


@njit(cache=True)
def evaluate(st, seat):
    """A win is worth VALUE_SCALE, a loss 0; a cut playout 500 + 10 per space
    this seat is ahead of its nearest opponent (togo), within 1..999."""
    if st[WINNER] >= 0:
        return VALUE_SCALE if st[WINNER] == seat else 0
    own = togo(st, st[PAWN + seat])
    best = np.int64(1) << np.int64(40)
    for s in range(st[N_SEATS]):
        if s != seat:
            t = togo(st, st[PAWN + s])
            if t < best:
                best = t
    return min(VALUE_SCALE - 1, max(1, VALUE_SCALE // 2 + 10 * (best - own)))


@njit(cache=True)
def standing(st, seat):
    """Who is ahead, for the game-feel counters: the distance the seat's car
    has left to the finish (togo), negated: the nearest car leads."""
    return -togo(st, st[PAWN + seat])


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
