"""Carmarace's rules as a state machine for balance.engine (RULES.md, R1-R25).

``advance`` runs the rules until a seat must decide or the game ends; ``apply``
resolves the pending decision, any illegal answer becoming the rule's safe
default (stop drawing -- in setup and refill draws, which must happen, the
first drawable deck --, ride the kept card, play nothing, pass, stop moving,
no step, discard nothing).  All progress lives in the state's named regions (state.py), so
the search player can copy a game in the middle of a karma round or a move.

Speed (docs/speed-history.md, "Carmarace's kernel"): the state is the engine's
unmanaged view and nothing is allocated per turn, so every function of the game
is compiled without reference counting (``_nrt=False``: no pair of reference-count
calls per function that takes the state).  ``apply`` asks the next question
itself where it is the next step of a move or the next draw (``_ask_step``,
``_ask_draw``, which ``_advance`` uses too), and ``advance`` is then one test
inlined into the engine's loops: no call for most decisions.
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
    lend_params,
    return_params,
    shuffle,
    event_value,
)
from sims.carmarace import players
from sims.carmarace.events import (
    begin_data,
    begin_remove,
    begin_start,
    write_cleanup,
    write_deck,
    write_draw,
    write_end,
    write_gift,
    write_karma,
    write_land,
    write_leave,
    write_move,
    write_pass,
    write_path,
    write_refill,
    write_shuffle,
    write_step,
    write_transport,
    write_turn,
)
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
    C_COUNTS,
    C_SPEED,
    CARD_SLOT,
    COUNT_WORDS,
    CONVENTION,
    D_TRANSPORT,
    DRAW,
    E_LAND,
    E_ON_TOP,
    E_REMOVE_ALL,
    E_REMOVE_NEGATIVE,
    E_REMOVE_POSITIVE,
    GIFT_AIRPORT,
    GIFT_STATION,
    GO_ON,
    HAND_LIMIT,
    K_AIRPORT,
    K_SKY,
    K_STATION,
    KARMA,
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
    OPP,
    OWN_KARMA,
    PASSED,
    PHASE,
    REFILL,
    REFILL_LEFT,
    REMOVED,
    RIDE,
    ROW_N,
    SETUP_SEAT,
    STEP,
    STEP_SEAT,
    SUB_DRAW,
    SUB_REFILL,
    SUB_SETUP,
    TRANSPORT,
    V_KEPT,
    V_LIMIT,
    VEHICLE,
    any_drawable,
    card,
    card_at,
    deck_drawable,
    deck_first_at,
    deck_size_at,
    disc_n_at,
    discard_at,
    draw_n_at,
    draw_pile_at,
    effect_of,
    effective_limit,
    first_drawable,
    gps_of,
    hand_at,
    hand_counts_at,
    hand_n_at,
    has_legal_karma,
    has_step_option,
    is_step_option,
    karma_legal,
    keep_left_at,
    keep_of,
    kept_at,
    kind_of,
    land_at,
    lot_at,
    move_class,
    n_land_at,
    n_next,
    next_of,
    number_at,
    pawn_at,
    playable,
    playable_in_hand,
    row_card_at,
    row_slot_at,
    rule_at,
    slot_top_at,
    square_at,
    step_mask,
    togo,
    togo_score_at,
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
@njit(cache=True, _nrt=False)
def _pile_data(st, first, n):
    """Data rows listing the draw pile of the deck whose first id is ``first``,
    top first (the top is its last card); six ids a row."""
    k = 0
    while k < n:
        at = begin_data(st)
        for j in range(6):
            if k + j < n:
                st[event_value(at, j)] = st[draw_pile_at(st, first + n - 1 - (k + j))]
        k += 6


@njit(cache=True, _nrt=False)
def _end(st, reason, winner):
    for s in range(st[N_SEATS]):
        st[togo_score_at(s)] = togo(st, st[pawn_at(s)])
    end_game(st, reason, winner)
    write_end(st, winner, reason)


# --------------------------------------------------------------------------- cards
@njit(cache=True, _nrt=False)
def _discard(st, c):
    d = card(st, c, C_DECK)
    st[discard_at(st, st[deck_first_at(d)] + st[disc_n_at(d)])] = c
    st[disc_n_at(d)] += 1


@njit(cache=True, _nrt=False, forceinline=True)
def _count(st, seat, c, sign):
    """The hand's counts (state.HAND_COUNTS) gain (sign 1) or lose (-1) card ``c``."""
    for w in range(COUNT_WORDS):
        st[hand_counts_at(seat, w)] += sign * st[card_at(st, c, C_COUNTS + w)]


@njit(cache=True, _nrt=False, forceinline=True)
def _hand_add(st, seat, c):
    """Insert ``c`` keeping the hand sorted by id."""
    i = st[hand_n_at(seat)]
    while i > 0 and st[hand_at(seat, i - 1)] > c:
        st[hand_at(seat, i)] = st[hand_at(seat, i - 1)]
        i -= 1
    st[hand_at(seat, i)] = c
    st[hand_n_at(seat)] += 1
    _count(st, seat, c, 1)


@njit(cache=True, _nrt=False, forceinline=True)
def _hand_remove(st, seat, c):
    """Take ``c``, a card of the seat's hand, out of it."""
    n = st[hand_n_at(seat)]
    i = 0
    while i < n and st[hand_at(seat, i)] != c:
        i += 1
    for j in range(i, n - 1):
        st[hand_at(seat, j)] = st[hand_at(seat, j + 1)]
    st[hand_n_at(seat)] = n - 1
    _count(st, seat, c, -1)


@njit(cache=True, _nrt=False)
def _in_hand(st, seat, c):
    for i in range(st[hand_n_at(seat)]):
        if st[hand_at(seat, i)] == c:
            return True
    return False


@njit(cache=True, _nrt=False, forceinline=True)
def _draw(st, seat, d, phase):
    """R7: draw the top card of deck ``d``, reshuffling its discard pile when the draw pile is empty."""
    first = st[deck_first_at(d)]
    if st[draw_n_at(d)] == 0:
        n = st[disc_n_at(d)]
        for i in range(n):
            st[draw_pile_at(st, first + i)] = st[discard_at(st, first + i)]
        st[disc_n_at(d)] = 0
        st[draw_n_at(d)] = n
        pile = draw_pile_at(st, first)
        shuffle(st, pile, pile + n)
        write_shuffle(st, d, n)
        if st[RECORD]:
            _pile_data(st, first, n)
    st[draw_n_at(d)] -= 1
    c = st[draw_pile_at(st, first + st[draw_n_at(d)])]
    _hand_add(st, seat, c)
    write_draw(st, seat, d, c, phase, st[hand_n_at(seat)])


# --------------------------------------------------------------------------- setup (R1-R5)
@njit(cache=True, _nrt=False)
def _setup(st):
    n_seats = st[N_SEATS]
    n_lot = st[N_LOT]
    mode = st[rule_at(P_START_SQUARES)]
    # R2: squares by number; seat order = square order
    if mode == SQUARES_RANDOM:
        # P distinct squares (their indices held in PAWN meanwhile), then in number order
        for s in range(n_seats):
            while True:
                k = draw_below(st, n_lot)
                dup = False
                for q in range(s):
                    if st[pawn_at(q)] == k:
                        dup = True
                if not dup:
                    break
            j = s
            while j > 0 and st[pawn_at(j - 1)] > k:
                st[pawn_at(j)] = st[pawn_at(j - 1)]
                j -= 1
            st[pawn_at(j)] = k
        for s in range(n_seats):
            st[pawn_at(s)] = st[lot_at(st, st[pawn_at(s)])]
    elif mode == SQUARES_HIGHEST:
        for s in range(n_seats):
            st[pawn_at(s)] = st[lot_at(st, n_lot - n_seats + s)]
    else:
        for s in range(n_seats):
            st[pawn_at(s)] = st[lot_at(st, s)]
    for s in range(n_seats):
        st[square_at(s)] = st[number_at(st, st[pawn_at(s)])]
        st[kept_at(s)] = -1
    st[VEHICLE] = -1
    if st[RECORD]:
        at = begin_start(st)
        for s in range(n_seats):
            st[event_value(at, s)] = st[pawn_at(s)]
    # R3: gifts, seat by seat, airport before station, each card once
    gift_a = -1
    gift_s = -1
    if st[rule_at(P_START_GIFTS)]:
        for s in range(n_seats):
            u = st[pawn_at(s)]
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
                write_gift(st, s, gift_a)
            if to_station and gift_s < 0 and st[GIFT_STATION] >= 0:
                gift_s = st[GIFT_STATION]
                _hand_add(st, s, gift_s)
                write_gift(st, s, gift_s)
    # R1: each deck shuffled separately, less the gifts
    for d in range(4):
        first = st[deck_first_at(d)]
        n = 0
        for c in range(first, first + st[deck_size_at(d)]):
            if c != gift_a and c != gift_s:
                st[draw_pile_at(st, first + n)] = c
                n += 1
        st[draw_n_at(d)] = n
        st[disc_n_at(d)] = 0
        pile = draw_pile_at(st, first)
        shuffle(st, pile, pile + n)
        write_deck(st, d, n)
        if st[RECORD]:
            _pile_data(st, first, n)


# --------------------------------------------------------------------------- the ride
@njit(cache=True, _nrt=False, forceinline=True)
def _start_ride(st, c, kept):
    seat = st[SEAT]
    st[VEHICLE] = c
    st[V_LIMIT] = effective_limit(st, c)
    st[V_KEPT] = 1 if kept else 0
    st[N_SLOTS] = 0
    st[ROW_N] = 0
    st[REMOVED] = 0
    st[LANDED] = 0
    write_transport(st, seat, c, 1 if kept else 0, st[V_LIMIT])
    st[PHASE] = PH_OWN


@njit(cache=True, _nrt=False)
def _leave(st, seat):
    c = st[kept_at(seat)]
    st[kept_at(seat)] = -1
    st[keep_left_at(seat)] = 0
    _discard(st, c)
    write_leave(st, seat, c)


@njit(cache=True, _nrt=False)
def _no_ride(st):
    st[VEHICLE] = -1
    write_transport(st, st[SEAT], -1, 0, -1)
    st[PHASE] = PH_REFILL


@njit(cache=True, _nrt=False)
def _play_karma(st, seat, c, slot):
    """Put Karma card ``c`` on the row (R11, R12); returns True when it ends the ride (R13)."""
    _hand_remove(st, seat, c)
    k = st[ROW_N]
    st[row_card_at(k)] = c
    st[row_slot_at(k)] = slot
    st[ROW_N] = k + 1
    st[slot_top_at(slot)] = c
    if slot == st[N_SLOTS]:
        st[N_SLOTS] += 1
    write_karma(st, seat, c, slot)
    if effect_of(st, c) == E_LAND:
        _land(st, c)
        return True
    return False


@njit(cache=True, _nrt=False)
def _land(st, c):
    """R13: the active pawn moves to its space's closest road or track; the ride ends."""
    seat = st[SEAT]
    u = st[pawn_at(seat)]
    n = st[n_land_at(st, u)]
    to = u
    by = -1
    roll = 0
    if n == 1:
        to = st[land_at(st, u, 0)]
    elif n >= 2:
        if st[rule_at(P_TIE_RULE)] == TIE_RANDOM:
            roll = draw_below(st, n) + 1  # the roll-th entry in index order
            for i in range(n):
                rank = 0
                for j in range(n):
                    if st[land_at(st, u, j)] < st[land_at(st, u, i)]:
                        rank += 1
                if rank == roll - 1:
                    to = st[land_at(st, u, i)]
        else:
            n_seats = st[N_SEATS]
            largest = True  # the opponents outvote the moved player: the entry farthest away
            if n_seats == 2:
                # tied votes: the player in last position decides (ties: the higher seat)
                last = 0
                for s in range(1, n_seats):
                    if togo(st, st[pawn_at(s)]) >= togo(st, st[pawn_at(last)]):
                        last = s
                by = last
                largest = last != seat
            to = -1
            for i in range(n):
                e = st[land_at(st, u, i)]
                if to < 0:
                    to = e
                    continue
                t = togo(st, e)
                tt = togo(st, to)
                if (largest and t > tt) or (not largest and t < tt) or (t == tt and e < to):
                    to = e
    st[pawn_at(seat)] = to
    if to != u:
        visit(st, to)
    st[LANDED] = 1
    write_land(st, seat, c, u, to, by, roll)
    st[PHASE] = PH_CLEANUP


@njit(cache=True, _nrt=False)
def _removals(st):
    """R15: each slot topped by a removal card resolves, left to right, skipping removed slots."""
    seat = st[SEAT]
    n = st[N_SLOTS]
    for s in range(n):
        if (st[REMOVED] >> s) & 1:
            continue
        top = st[slot_top_at(s)]
        e = effect_of(st, top)
        if e != E_REMOVE_NEGATIVE and e != E_REMOVE_POSITIVE and e != E_REMOVE_ALL:
            continue
        mask = np.int64(0)
        for o in range(n):
            if o == s or (st[REMOVED] >> o) & 1:
                continue
            sp = card(st, st[slot_top_at(o)], C_SPEED)
            if e == E_REMOVE_ALL or (e == E_REMOVE_NEGATIVE and sp < 0) or (e == E_REMOVE_POSITIVE and sp > 0):
                mask |= np.int64(1) << np.int64(o)
        st[REMOVED] |= mask
        if st[RECORD]:
            at = begin_remove(st)
            st[event_value(at, 0)] = seat
            st[event_value(at, 1)] = top
            st[event_value(at, 2)] = s
            st[event_value(at, 3)] = mask
            count = 0
            for o in range(n):
                if (mask >> o) & 1:
                    for k in range(st[ROW_N]):
                        if st[row_slot_at(k)] == o:
                            count += 1
            st[event_value(at, 4)] = count
            k6 = 0
            row = 0
            for o in range(n):
                if (mask >> o) & 1:
                    for k in range(st[ROW_N]):
                        if st[row_slot_at(k)] == o:
                            if k6 % 6 == 0:
                                row = begin_data(st)
                            st[event_value(row, k6 % 6)] = st[row_card_at(k)]
                            k6 += 1


@njit(cache=True, _nrt=False, forceinline=True)
def _start_move(st):
    seat = st[SEAT]
    v = st[VEHICLE]
    karma = 0
    for s in range(st[N_SLOTS]):
        if not (st[REMOVED] >> s) & 1:
            karma += card(st, st[slot_top_at(s)], C_SPEED)
    base = card(st, v, C_SPEED)
    speed = max(0, base + karma)  # R16
    st[MV_AT] = st[pawn_at(seat)]
    st[MV_LEFT] = speed
    st[MV_ENTERED] = 0
    write_move(st, seat, v, base, karma, speed, st[MV_AT])
    st[PHASE] = PH_MOVE


@njit(cache=True, _nrt=False, forceinline=True)
def _step_to(st, w, roll):
    """One step of the move; True when it reaches the Convention (R20)."""
    seat = st[SEAT]
    u = st[MV_AT]
    st[MV_AT] = w
    st[pawn_at(seat)] = w
    visit(st, w)
    st[MV_LEFT] -= 1
    st[MV_ENTERED] = 1
    write_path(st, u, w, roll, 0)
    if w == st[CONVENTION]:
        _end(st, END_CONVENTION, seat)
        return True
    return False


@njit(cache=True, _nrt=False)
def _cleanup(st):
    """R21: the vehicle and every card of its row to the discard piles, in the
    trace's order, but for a Taxi/Bus with stays left or a plane still aloft."""
    seat = st[SEAT]
    v = st[VEHICLE]
    kept = -1
    if not st[LANDED]:
        mode = card(st, v, C_MODE)
        if mode == MODE_ROAD and st[keep_left_at(seat)] > 0:
            kept = v
            st[keep_left_at(seat)] -= 1
        elif mode == MODE_PLANE and st[rule_at(P_PLANE_STAYS_ALOFT)] and kind_of(st, st[pawn_at(seat)]) == K_SKY:
            kept = v
    st[kept_at(seat)] = kept
    if kept < 0:
        st[keep_left_at(seat)] = 0
    count = 0
    row = 0
    record = st[RECORD]
    write_cleanup(st, seat, kept, st[ROW_N] + (1 if kept < 0 else 0))
    if kept < 0:
        _discard(st, v)
        if record:
            row = begin_data(st)
            st[event_value(row, 0)] = v
            count = 1
    n = st[N_SLOTS]
    for pass_ in range(2):  # the slots left, then the removed ones
        for s in range(n):
            removed = (st[REMOVED] >> s) & 1
            if removed != pass_:
                continue
            for k in range(st[ROW_N]):
                if st[row_slot_at(k)] == s:
                    c = st[row_card_at(k)]
                    _discard(st, c)
                    if record:
                        if count % 6 == 0:
                            row = begin_data(st)
                        st[event_value(row, count % 6)] = c
                        count += 1
    st[VEHICLE] = -1
    st[N_SLOTS] = 0
    st[ROW_N] = 0
    st[REMOVED] = 0
    st[PHASE] = PH_REFILL


# --------------------------------------------------------------------------- advance
@njit(cache=True, _nrt=False, forceinline=True)
def _ask_draw(st, seat, phase):
    """R6, R22: the seat's next draw of the draw phase or the refill, if it may draw
    (True: asked)."""
    if phase == SUB_DRAW:
        may = st[hand_n_at(seat)] < st[HAND_LIMIT]
    else:
        may = st[REFILL_LEFT] > 0
    if may and any_drawable(st):
        ask(st, seat, DRAW, phase)
        return True
    st[PHASE] = PH_TRANSPORT if phase == SUB_DRAW else PH_TURN_END
    return False


@njit(cache=True, _nrt=False, forceinline=True)
def _ask_step(st):
    """R17-R20: the move's next question (GO_ON on an arrow entered, else NEXT),
    or its end (True: asked)."""
    u = st[MV_AT]
    if st[MV_LEFT] <= 0 or u == st[CONVENTION]:
        st[PHASE] = PH_CLEANUP
        return False
    entered = st[MV_ENTERED]
    if step_mask(st, move_class(st, st[VEHICLE]), u, entered) == 0:
        st[PHASE] = PH_CLEANUP
        return False
    if entered and gps_of(st, u, 0) >= 0:
        ask(st, st[SEAT], GO_ON, u)
    else:
        ask(st, st[SEAT], NEXT, u)
    return True


@njit(cache=True, _nrt=False, forceinline=True)
def advance(st):
    """Run the rules until a seat must decide or the game ends.

    Inlined into the engine's loops: when ``apply`` has already asked the next
    question (the next step of a move, the next draw of a draw phase: the
    questions of most decisions), this is one test and no call."""
    if st[DECIDER] < 0 and st[END_REASON] < 0:
        _advance(st)


@njit(cache=True, _nrt=False)
def _advance(st):
    """advance's rules, from a state with no decision pending."""
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
            elif st[hand_n_at(s)] < st[HAND_LIMIT] and any_drawable(st):
                ask(st, s, DRAW, SUB_SETUP)
                return
            else:
                st[SETUP_SEAT] = s + 1
        elif ph == PH_TURN:
            st[TURN] += 1
            seat = (st[TURN] - 1) % n_seats
            st[SEAT] = seat
            write_turn(st, seat, st[pawn_at(seat)])
            st[PHASE] = PH_DRAW
        elif ph == PH_DRAW:
            if _ask_draw(st, st[SEAT], SUB_DRAW):
                return
        elif ph == PH_TRANSPORT:
            seat = st[SEAT]
            u = st[pawn_at(seat)]
            kept = st[kept_at(seat)]
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
            if playable_in_hand(st, seat, u) > 0:
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
            write_pass(st, s)
        elif ph == PH_STEP:
            s = st[STEP_SEAT]
            u = st[pawn_at(s)]
            if has_step_option(st, u):
                ask(st, s, STEP, u)
                return
            st[PHASE] = PH_ROUND
        elif ph == PH_REMOVE:
            _removals(st)
            _start_move(st)
        elif ph == PH_MOVE:
            if _ask_step(st):
                return
        elif ph == PH_CLEANUP:
            _cleanup(st)
        elif ph == PH_REFILL:
            seat = st[SEAT]
            if st[hand_n_at(seat)] > 0:
                ask(st, seat, REFILL, st[hand_n_at(seat)])
                return
            _refill(st, seat, np.int64(0))
        elif ph == PH_REFILL_DRAW:
            if _ask_draw(st, st[SEAT], SUB_REFILL):
                return
        else:  # PH_TURN_END
            if st[TURN] >= st[rule_at(P_MAX_TURNS)]:
                _end(st, END_TURN_LIMIT, NO_WINNER)
                return
            st[PHASE] = PH_TURN


@njit(cache=True, _nrt=False)
def _refill(st, seat, mask):
    """R22: discard the hand cards of ``mask`` (bits over hand positions), then draw as many."""
    n = st[hand_n_at(seat)]
    mask &= (np.int64(1) << n) - 1
    count = 0
    for i in range(n):
        if (mask >> i) & 1:
            count += 1
    record = st[RECORD]
    row = 0
    write_refill(st, seat, count)
    k = 0
    j = 0
    for i in range(n):
        c = st[hand_at(seat, i)]
        if (mask >> i) & 1:
            _discard(st, c)
            _count(st, seat, c, -1)
            if record:
                if k % 6 == 0:
                    row = begin_data(st)
                st[event_value(row, k % 6)] = c
            k += 1
        else:
            st[hand_at(seat, j)] = c
            j += 1
    st[hand_n_at(seat)] = j
    st[REFILL_LEFT] = count
    st[PHASE] = PH_REFILL_DRAW


# --------------------------------------------------------------------------- apply
@njit(cache=True, _nrt=False)
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
        if phase != SUB_SETUP:
            _ask_draw(st, seat, phase)  # the next draw asked here: advance has nothing to do
    elif kind == RIDE:
        if answer == 0:
            _leave(st, seat)  # then the player acts as without a kept card (PH_TRANSPORT)
        else:
            _start_ride(st, st[kept_at(seat)], True)
    elif kind == TRANSPORT:
        u = st[pawn_at(seat)]
        if (
            0 <= answer < st[N_CARDS] and card(st, answer, C_DECK) == D_TRANSPORT
            and _in_hand(st, seat, answer) and playable(st, answer, u)
        ):
            _hand_remove(st, seat, answer)
            st[keep_left_at(seat)] = keep_of(st, answer)
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
            if st[rule_at(P_GOOD_KARMA_STEP)] and seat != active and card(st, c, C_SPEED) > 0:
                st[STEP_SEAT] = seat  # R14
                st[PHASE] = PH_STEP
        else:
            st[PASSED] |= np.int64(1) << seat
            st[OPP] = (seat + 1) % st[N_SEATS]
            write_pass(st, seat)
    elif kind == STEP:
        st[PHASE] = PH_ROUND
        u = st[pawn_at(seat)]
        ok = answer >= 0 and is_step_option(st, u, answer)
        if ok:
            st[pawn_at(seat)] = answer
            visit(st, answer)
            write_step(st, seat, u, answer)
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
                if not _step_to(st, w, roll):
                    _ask_step(st)
            else:
                # the die names a space this vehicle cannot use (a user's map): the move
                # ends on the arrow; the roll is still in the trace
                st[PHASE] = PH_CLEANUP
                write_path(st, u, w, roll, 1)
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
            if not _step_to(st, answer, 0):
                _ask_step(st)  # the move's next question asked here: advance has nothing to do
        else:
            st[PHASE] = PH_CLEANUP
    else:  # REFILL
        _refill(st, seat, answer if answer > 0 else np.int64(0))


# --------------------------------------------------------------------------- search
@njit(cache=True, _nrt=False)
def _add(out, n, a):
    """Append answer ``a`` unless already listed; the new count."""
    for i in range(n):
        if out[i] == a:
            return n
    out[n] = a
    return n + 1


@njit(cache=True, _nrt=False)
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
        u = st[pawn_at(seat)]
        for i in range(st[hand_n_at(seat)]):
            c = st[hand_at(seat, i)]
            if card(st, c, C_DECK) == D_TRANSPORT and playable(st, c, u) and n < cap - 1:
                out[n] = c
                n += 1
        out[n] = -1
        return n + 1
    if kind == OWN_KARMA or kind == KARMA:
        slots = st[N_SLOTS]
        for i in range(st[hand_n_at(seat)]):
            c = st[hand_at(seat, i)]
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


@njit(cache=True, _nrt=False)
def determinize(st, seat):
    """Resample what ``seat`` cannot know: the order of every draw pile and the
    other seats' hands, keeping how many cards of each deck each hand holds
    (draws are made from visible decks) and every public card (discard piles,
    cards in front, the row)."""
    n_seats = st[N_SEATS]
    for d in range(4):
        first = st[deck_first_at(d)]
        n = st[draw_n_at(d)]
        # pool: the draw pile, then the other hands' cards of this deck, appended
        # behind the pile (the region has room: it holds the whole deck)
        k = n
        for s in range(n_seats):
            if s == seat:
                continue
            for i in range(st[hand_n_at(s)]):
                c = st[hand_at(s, i)]
                if card(st, c, C_DECK) == d:
                    st[draw_pile_at(st, first + k)] = c
                    k += 1
        pile = draw_pile_at(st, first)
        shuffle(st, pile, pile + k)
        j = n
        for s in range(n_seats):
            if s == seat:
                continue
            m = st[hand_n_at(s)]
            for i in range(m):
                if card(st, st[hand_at(s, i)], C_DECK) == d:
                    st[hand_at(s, i)] = st[draw_pile_at(st, first + j)]
                    j += 1
    for s in range(n_seats):  # hands sorted by id again, and counted again
        if s == seat:
            continue
        m = st[hand_n_at(s)]
        for w in range(COUNT_WORDS):
            st[hand_counts_at(s, w)] = 0
        for i in range(m):
            _count(st, s, st[hand_at(s, i)], 1)
        for i in range(1, m):
            x = st[hand_at(s, i)]
            j = i
            while j > 0 and st[hand_at(s, j - 1)] > x:
                st[hand_at(s, j)] = st[hand_at(s, j - 1)]
                j -= 1
            st[hand_at(s, j)] = x


@njit(cache=True, _nrt=False)
def evaluate(st, seat):
    """A win is worth VALUE_SCALE, a loss 0; a cut playout 500 + 10 per space
    this seat is ahead of its nearest opponent (togo), within 1..999."""
    if st[WINNER] >= 0:
        return VALUE_SCALE if st[WINNER] == seat else 0
    own = togo(st, st[pawn_at(seat)])
    best = np.int64(1) << np.int64(40)
    for s in range(st[N_SEATS]):
        if s != seat:
            t = togo(st, st[pawn_at(s)])
            if t < best:
                best = t
    return min(VALUE_SCALE - 1, max(1, VALUE_SCALE // 2 + 10 * (best - own)))


@njit(cache=True, _nrt=False)
def standing(st, seat):
    """Who is ahead, for the game-feel counters: the distance the seat's car
    has left to the finish (togo), negated: the nearest car leads."""
    return -togo(st, st[pawn_at(seat)])


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
