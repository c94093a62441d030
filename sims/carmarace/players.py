"""Carmarace's built-in players (the one player signature, balance.game).

``random`` answers uniformly among the legal answers.  ``hunter``,
``saboteur`` and ``racer`` share one skeleton (the spec's section (e), in
sims/carmarace/RULES.md "Players") and differ in the karma round against
another seat's vehicle (racer never attacks, saboteur always may, hunter only
a threat), in their draws and in the refill (racer drops attack cards).

Values are those of the spec: ``value(v) = togo(v)`` (+10 on a stranded space)
and ``V(c, u, r, entered)``, the best expected value a move of vehicle ``c``
can end on from ``u`` with ``r`` points left; they come from the value tables
of state.py (exact integers scaled by VSCALE) and, for more than R_TABLE points
left, from the same recursion here.  Every tie-break uses card ids and node
indices, never hand order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from balance.game import Param, PlayerInfo
from balance.state import MEMORY_SLOTS, N_SEATS, SEAT, draw_below, player_param
from sims.carmarace.params import P_KARMA_MUST_MATCH, P_PLANE_STAYS_ALOFT
from sims.carmarace.state import (
    CARD_SLOT,
    CONVENTION,
    C_COUNTS,
    C_DECK,
    C_MODE,
    C_SPEED,
    C_TRACKS,
    DRAW,
    D_TRANSPORT,
    E_LAND,
    E_NONE,
    E_ON_TOP,
    E_REMOVE_ALL,
    E_REMOVE_NEGATIVE,
    E_REMOVE_POSITIVE,
    GO_ON,
    KARMA,
    K_AIRPORT,
    K_SKY,
    K_STATION,
    K_TRACK,
    MODE_PLANE,
    MODE_ROAD,
    MODE_TRAIN,
    M_PLANE,
    M_TRACKS,
    M_TRACKS_IGNORES,
    M_TRAIN,
    MV_ENTERED,
    MV_LEFT,
    NEXT,
    N_SLOTS,
    OWN_KARMA,
    RIDE,
    R_TABLE,
    STEP,
    SUB_DRAW,
    T_CLASS,
    T_FAST,
    T_ON_TOP,
    T_PLAIN,
    T_SLOW,
    TRANSPORT,
    VEHICLE,
    V_LIMIT,
    card,
    card_at,
    cls_of,
    count_in,
    deck_drawable,
    effect_of,
    effective_limit,
    first_drawable,
    gps_of,
    hand_at,
    hand_count,
    hand_counts_at,
    hand_n_at,
    is_step_option,
    karma_legal,
    kept_at,
    kind_of,
    move_class,
    n_next,
    near_airport_at,
    near_station_at,
    next_of,
    node_value,
    pawn_at,
    playable,
    playable_in_hand,
    reach_airport_at,
    reach_station_at,
    rule_at,
    slot_top_at,
    step_mask,
    sure_next,
    table_index,
    table_value,
    togo,
)

HUNTER = 0
SABOTEUR = 1
RACER = 2
RANDOM = 3
BIG = np.int64(1) << np.int64(60)
NO_ANSWER = np.int64(-1)


# --------------------------------------------------------------------------- values
@njit(cache=True, _nrt=False, forceinline=True)
def stranded_flags(st, seat, without):
    """(track spaces stranded, sky spaces stranded) for ``hand'`` = the seat's hand
    less card ``without`` (a card of that hand, or -1: the whole hand): a track
    space is stranded when hand' holds no train and no tracks road vehicle
    (R24: none for young players), a sky space when plane_stays_aloft is off
    and hand' holds no plane.  Read from the hand's counts (state.HAND_COUNTS)."""
    w = st[hand_counts_at(seat, 0)]
    if without >= 0:
        w -= st[card_at(st, without, C_COUNTS)]
    rail = count_in(w, T_CLASS + M_TRAIN) + count_in(w, T_CLASS + M_TRACKS) + count_in(w, T_CLASS + M_TRACKS_IGNORES)
    track = 0 if rail > 0 else 1
    sky = 1 if (st[rule_at(P_PLANE_STAYS_ALOFT)] == 0 and count_in(w, T_CLASS + M_PLANE) == 0) else 0
    return track, sky


@njit(cache=True, _nrt=False, forceinline=True)
def _legal_face(st, m, u, w):
    mask = step_mask(st, m, u, 1)
    for k in range(n_next(st, u)):
        if next_of(st, u, k) == w and (mask >> k) & 1:
            return True
    return False


@njit(cache=True, _nrt=False, forceinline=True)
def entered_value(st, m, track, sky, u, r):
    """V(c, u, r, entered=true) for a vehicle of movement class ``m``: a look-up
    in the value tables, inlined where a move is weighed (a speed beyond
    R_TABLE, rare, recurses in _entered_beyond)."""
    if r <= R_TABLE:
        return table_value(st, table_index(m, track, sky), u, r)
    return _entered_beyond(st, m, track, sky, u, r)


@njit(cache=True, _nrt=False)
def _entered_beyond(st, m, track, sky, u, r):
    """entered_value for r > R_TABLE: the tables' recursion, one step at a time."""
    own = node_value(st, u, track, sky)
    mask = step_mask(st, m, u, 1)
    if u == st[CONVENTION] or mask == 0:
        return own
    if gps_of(st, u, 0) >= 0:
        total = np.int64(0)
        for f in range(6):
            w = gps_of(st, u, f)
            if _legal_face(st, m, u, w):
                if r - 1 <= R_TABLE:
                    total += table_value(st, table_index(m, track, sky), w, r - 1)
                else:
                    total += _entered_beyond(st, m, track, sky, w, r - 1)
            else:
                total += own
        go = total // 6
    else:
        go = BIG
        for k in range(n_next(st, u)):
            if (mask >> k) & 1:
                w = next_of(st, u, k)
                if r - 1 <= R_TABLE:
                    x = table_value(st, table_index(m, track, sky), w, r - 1)
                else:
                    x = _entered_beyond(st, m, track, sky, w, r - 1)
                if x < go:
                    go = x
    return min(own, go)


@njit(cache=True, _nrt=False, forceinline=True)
def start_value(st, c, u, r, track, sky):
    """V(c, u, r, entered=false): a move that starts on ``u`` (a Stop there does
    not stop it; at an arrow it chooses its branch)."""
    own = node_value(st, u, track, sky)
    if r <= 0 or u == st[CONVENTION]:
        return own
    m = move_class(st, c)
    mask = step_mask(st, m, u, 0)
    best = own
    for k in range(n_next(st, u)):
        if (mask >> k) & 1:
            x = entered_value(st, m, track, sky, next_of(st, u, k), r - 1)
            if x < best:
                best = x
    return best


@njit(cache=True, _nrt=False, forceinline=True)
def leader(st, seat):
    """The seat's leading opponent: least togo (ties: the lowest seat)."""
    best = -1
    best_togo = BIG
    for s in range(st[N_SEATS]):
        if s != seat:
            t = togo(st, st[pawn_at(s)])
            if t < best_togo:
                best_togo = t
                best = s
    return best


# --------------------------------------------------------------------------- the skeleton
# Every helper below is inlined by LLVM (forceinline) into ``skeleton``, and
# ``skeleton`` into ``heuristics``: a decision is one call from the engine's
# loop instead of three or four nested ones, each passing the state array (its
# seven fields) and reloading what its caller had just read.
@njit(cache=True, _nrt=False, forceinline=True)
def _transport_choice(st, seat):
    """The playable hand card of least V (ties: lower effective limit, lower id),
    played iff its value beats staying put; -1 otherwise."""
    u = st[pawn_at(seat)]
    best = NO_ANSWER
    best_v = BIG
    best_limit = BIG
    for i in range(st[hand_n_at(seat)]):
        c = st[hand_at(seat, i)]
        if card(st, c, C_DECK) != D_TRANSPORT or not playable(st, c, u):
            continue
        track, sky = stranded_flags(st, seat, c)
        v = start_value(st, c, u, card(st, c, C_SPEED), track, sky)
        lim = effective_limit(st, c)
        if v < best_v or (v == best_v and lim < best_limit):
            best = c
            best_v = v
            best_limit = lim
    if best >= 0:
        track, sky = stranded_flags(st, seat, best)
        if best_v < node_value(st, u, track, sky):
            return best
    return NO_ANSWER


@njit(cache=True, _nrt=False, forceinline=True)
def _ride_choice(st, seat, kept):
    """Ride the kept Taxi/Bus unless a playable hand card does strictly better."""
    u = st[pawn_at(seat)]
    track, sky = stranded_flags(st, seat, NO_ANSWER)
    mine = start_value(st, kept, u, card(st, kept, C_SPEED), track, sky)
    for i in range(st[hand_n_at(seat)]):
        c = st[hand_at(seat, i)]
        if card(st, c, C_DECK) != D_TRANSPORT or not playable(st, c, u):
            continue
        track, sky = stranded_flags(st, seat, c)
        if start_value(st, c, u, card(st, c, C_SPEED), track, sky) < mine:
            return 0
    return 1


@njit(cache=True, _nrt=False, forceinline=True)
def _own_karma_choice(st, seat):
    """The plain card of highest positive speed (ties: lowest id)."""
    best = NO_ANSWER
    best_speed = 0
    for i in range(st[hand_n_at(seat)]):
        c = st[hand_at(seat, i)]
        if card(st, c, C_DECK) == D_TRANSPORT or effect_of(st, c) != E_NONE:
            continue
        sp = card(st, c, C_SPEED)
        if sp > best_speed and karma_legal(st, c, st[N_SLOTS]):
            best = c
            best_speed = sp
    return best


@njit(cache=True, _nrt=False, forceinline=True)
def _gain(st, c, slot):
    """What a play adds to the vehicle's speed as the row stands (land: not used)."""
    e = effect_of(st, c)
    sp = card(st, c, C_SPEED)
    if e == E_ON_TOP:
        return sp - card(st, st[slot_top_at(slot)], C_SPEED)
    if e == E_REMOVE_NEGATIVE or e == E_REMOVE_POSITIVE or e == E_REMOVE_ALL:
        total = 0
        for s in range(st[N_SLOTS]):
            x = card(st, st[slot_top_at(s)], C_SPEED)
            if e == E_REMOVE_ALL or (e == E_REMOVE_NEGATIVE and x < 0) or (e == E_REMOVE_POSITIVE and x > 0):
                total += x
        return -total
    return sp


@njit(cache=True, _nrt=False, forceinline=True)
def _karma_matches(st, c):
    if card(st, c, C_DECK) == D_TRANSPORT:
        return False
    if st[rule_at(P_KARMA_MUST_MATCH)] and card(st, c, C_DECK) != card(st, st[VEHICLE], C_MODE) + 1:
        return False
    return True


@njit(cache=True, _nrt=False, forceinline=True)
def _round_own(st, seat):
    """On its own vehicle: the legal play of largest gain > 0 (ties: lowest id, slot)."""
    best = NO_ANSWER
    best_gain = 0
    n = st[N_SLOTS]
    for i in range(st[hand_n_at(seat)]):
        c = st[hand_at(seat, i)]
        if not _karma_matches(st, c):
            continue
        e = effect_of(st, c)
        if e == E_LAND:
            continue
        if e == E_ON_TOP:
            for s in range(n):
                g = _gain(st, c, s)
                if g > best_gain:
                    best_gain = g
                    best = c + CARD_SLOT * s
        elif n < st[V_LIMIT]:
            g = _gain(st, c, n)
            if g > best_gain:
                best_gain = g
                best = c + CARD_SLOT * n
    return best


@njit(cache=True, _nrt=False, forceinline=True)
def _round_attack(st, seat, least):
    """On another seat's vehicle: the play that slows it most, if by more than
    ``least`` speed points (0: any slowing), else pass."""
    v = st[VEHICLE]
    n = st[N_SLOTS]
    speed = card(st, v, C_SPEED)
    for s in range(n):
        speed += card(st, st[slot_top_at(s)], C_SPEED)
    plus = max(0, speed)
    if plus == 0:
        return NO_ANSWER
    best = NO_ANSWER
    best_effect = -least
    for i in range(st[hand_n_at(seat)]):
        c = st[hand_at(seat, i)]
        if not _karma_matches(st, c):
            continue
        e = effect_of(st, c)
        if e == E_ON_TOP:
            for s in range(n):
                eff = max(0, speed + _gain(st, c, s)) - plus
                if eff < best_effect:
                    best_effect = eff
                    best = c + CARD_SLOT * s
        elif n < st[V_LIMIT]:
            eff = -plus - 1 if e == E_LAND else max(0, speed + _gain(st, c, n)) - plus
            if eff < best_effect:
                best_effect = eff
                best = c + CARD_SLOT * n
    return best


@njit(cache=True, _nrt=False, forceinline=True)
def _move_choice(st, seat, u):
    """NEXT: the legal next space of least V (ties: lowest index) if no worse
    than stopping; read from SURE_NEXT where the points left do not matter."""
    m = move_class(st, st[VEHICLE])
    track, sky = stranded_flags(st, seat, NO_ANSWER)
    sure = sure_next(st, table_index(m, track, sky), u, st[MV_ENTERED])
    if sure != -2:
        return sure
    return move_by_values(st, u, m, track, sky)


@njit(cache=True, _nrt=False, forceinline=True)
def move_by_values(st, u, m, track, sky):
    """_move_choice from the value tables, whatever SURE_NEXT says (tests compare the two)."""
    r = st[MV_LEFT]
    mask = step_mask(st, m, u, st[MV_ENTERED])
    best = NO_ANSWER
    best_v = BIG
    for k in range(n_next(st, u)):
        if (mask >> k) & 1:
            w = next_of(st, u, k)
            x = entered_value(st, m, track, sky, w, r - 1)
            if x < best_v or (x == best_v and w < best):
                best_v = x
                best = w
    if best >= 0 and best_v <= node_value(st, u, track, sky):
        return best
    return NO_ANSWER


@njit(cache=True, _nrt=False, forceinline=True)
def _go_on_choice(st, seat, u):
    """GO_ON: go on iff the mean over the die's faces is no worse than stopping."""
    m = move_class(st, st[VEHICLE])
    track, sky = stranded_flags(st, seat, NO_ANSWER)
    r = st[MV_LEFT]
    own = node_value(st, u, track, sky)
    total = np.int64(0)
    for f in range(6):
        w = gps_of(st, u, f)
        if _legal_face(st, m, u, w):
            total += entered_value(st, m, track, sky, w, r - 1)
        else:
            total += own
    return 1 if total <= 6 * own else 0


@njit(cache=True, _nrt=False, forceinline=True)
def _step_choice(st, seat, u):
    """R14: always step, to the option of least togo (ties: lowest index)."""
    best = NO_ANSWER
    for k in range(n_next(st, u)):
        w = next_of(st, u, k)
        if is_step_option(st, u, w):
            if best < 0 or togo(st, w) < togo(st, best) or (togo(st, w) == togo(st, best) and w < best):
                best = w
    return best


@njit(cache=True, _nrt=False, forceinline=True)
def _usable(st, seat):
    """Hand transports playable from the pawn's space, +1 for a card kept in front."""
    n = 1 if st[kept_at(seat)] >= 0 else 0
    return n + playable_in_hand(st, seat, st[pawn_at(seat)])


@njit(cache=True, _nrt=False, forceinline=True)
def _own_mode(st, seat):
    """The kept card's mode, else the fastest playable hand transport's (ties: lowest id), else road."""
    kept = st[kept_at(seat)]
    if kept >= 0:
        return card(st, kept, C_MODE)
    u = st[pawn_at(seat)]
    best = -1
    best_speed = -1
    for i in range(st[hand_n_at(seat)]):
        c = st[hand_at(seat, i)]
        if card(st, c, C_DECK) == D_TRANSPORT and playable(st, c, u) and card(st, c, C_SPEED) > best_speed:
            best = c
            best_speed = card(st, c, C_SPEED)
    return MODE_ROAD if best < 0 else card(st, best, C_MODE)


@njit(cache=True, _nrt=False, forceinline=True)
def _target_mode(st, seat):
    """The leader's space: sky or airport -> plane, track or station -> train, else road."""
    k = kind_of(st, st[pawn_at(leader(st, seat))])
    if k == K_SKY or k == K_AIRPORT:
        return MODE_PLANE
    if k == K_TRACK or k == K_STATION:
        return MODE_TRAIN
    return MODE_ROAD


@njit(cache=True, _nrt=False, forceinline=True)
def _count_sign(st, seat, deck, sign):
    """Karma cards of ``deck`` (1..3) in the seat's hand whose speed has ``sign``."""
    return hand_count(st, seat, (T_FAST if sign > 0 else T_SLOW) + deck - 1)


@njit(cache=True, _nrt=False, forceinline=True)
def _draw_choice(st, seat, style):
    """Always fill the hand: a transport while usable transports < min_transports,
    else the style's Karma deck; an undrawable choice -> the first drawable deck."""
    if _usable(st, seat) < player_param(st, seat, K_MIN_TRANSPORTS):
        d = D_TRANSPORT
    else:
        own = _own_mode(st, seat) + 1
        target = _target_mode(st, seat) + 1
        if style == RACER:
            d = own
        elif style == SABOTEUR:
            d = target
        else:
            d = own if _count_sign(st, seat, own, 1) <= _count_sign(st, seat, target, -1) else target
    if deck_drawable(st, d):
        return d
    return first_drawable(st)


@njit(cache=True, _nrt=False, forceinline=True)
def _mode_in_reach(st, mode):
    """Whether some pawn stands on the class of ``mode`` (train: a track, plane:
    the sky) or next to its station or airport."""
    cls = 1 if mode == MODE_TRAIN else 2
    for s in range(st[N_SEATS]):
        p = st[pawn_at(s)]
        if cls_of(st, p) == cls or (st[near_station_at(st, p)] if mode == MODE_TRAIN else st[near_airport_at(st, p)]):
            return True
    return False


@njit(cache=True, _nrt=False, forceinline=True)
def _dead(st, seat, c, style, reach):
    """R22 for the heuristics: is hand card ``c`` dead?  ``reach`` (bit mode - 1:
    train, plane) says for which mode _mode_in_reach holds, asked once per refill."""
    u = st[pawn_at(seat)]
    deck = card(st, c, C_DECK)
    if deck == D_TRANSPORT:
        mode = card(st, c, C_MODE)
        if mode == MODE_TRAIN:
            return cls_of(st, u) != 1 and st[reach_station_at(st, u)] == 0
        if mode == MODE_PLANE:
            return cls_of(st, u) != 2 and st[reach_airport_at(st, u)] == 0
        return False
    if style == RACER:
        e = effect_of(st, c)
        if card(st, c, C_SPEED) < 0 or e == E_LAND or e == E_REMOVE_POSITIVE:
            return True
    if deck == 2 or deck == 3:  # train or plane Karma
        mode = deck - 1
        if hand_count(st, seat, T_CLASS + (M_TRAIN if mode == MODE_TRAIN else M_PLANE)) > 0:
            return False  # the hand holds a transport of that mode
        return ((reach >> (mode - 1)) & 1) == 0
    return False


@njit(cache=True, _nrt=False, forceinline=True)
def _refill_choice(st, seat, style):
    """Discard every dead card; with none dead and no usable transport, the Karma
    card of least |speed| (ties: lowest id), or holding none, the slowest transport."""
    n = st[hand_n_at(seat)]
    # which modes' Karma cards a pawn could still use: asked only for a mode whose
    # Karma the hand holds without a transport of that mode (else _dead never looks)
    w = st[hand_counts_at(seat, 0)]
    reach = 0
    for mode, cls in ((MODE_TRAIN, M_TRAIN), (MODE_PLANE, M_PLANE)):
        held = count_in(w, T_PLAIN + mode) + count_in(w, T_ON_TOP + mode)
        if held > 0 and count_in(w, T_CLASS + cls) == 0 and _mode_in_reach(st, mode):
            reach |= 1 << (mode - 1)
    mask = np.int64(0)
    for i in range(n):
        if _dead(st, seat, st[hand_at(seat, i)], style, reach):
            mask |= np.int64(1) << np.int64(i)
    if mask != 0 or _usable(st, seat) > 0:
        return mask
    best = -1
    best_key = BIG
    for i in range(n):
        c = st[hand_at(seat, i)]
        if card(st, c, C_DECK) != D_TRANSPORT and abs(card(st, c, C_SPEED)) < best_key:
            best_key = abs(card(st, c, C_SPEED))
            best = i
    if best < 0:
        for i in range(n):
            c = st[hand_at(seat, i)]
            if card(st, c, C_SPEED) < best_key:
                best_key = card(st, c, C_SPEED)
                best = i
    if best < 0:
        return np.int64(0)
    return np.int64(1) << np.int64(best)


@njit(cache=True, _nrt=False, forceinline=True)
def _threat(st, seat):
    """hunter: the active seat is no farther than this seat, or leads its opponents."""
    active = st[SEAT]
    mine = togo(st, st[pawn_at(seat)])
    theirs = togo(st, st[pawn_at(active)])
    return theirs <= mine or leader(st, seat) == active


@njit(cache=True, _nrt=False, forceinline=True)
def _spared(st, seat):
    """saboteur: the active seat is at least ``spare_behind`` spaces behind this
    seat (0: no seat is spared)."""
    spare = player_param(st, seat, K_SPARE_BEHIND)
    if spare <= 0:
        return False
    return togo(st, st[pawn_at(st[SEAT])]) - togo(st, st[pawn_at(seat)]) >= spare


@njit(cache=True, _nrt=False, forceinline=True)
def skeleton(kind, seat, subject, st, style):
    """The shared heuristic (hunter, saboteur, racer)."""
    if kind == DRAW:
        return _draw_choice(st, seat, style)
    if kind == RIDE:
        return _ride_choice(st, seat, subject)
    if kind == TRANSPORT:
        return _transport_choice(st, seat)
    if kind == OWN_KARMA:
        return _own_karma_choice(st, seat)
    if kind == KARMA:
        if seat == st[SEAT]:
            return _round_own(st, seat)
        if style == RACER or (style == HUNTER and not _threat(st, seat)):
            return NO_ANSWER
        if style == SABOTEUR:
            if _spared(st, seat):
                return NO_ANSWER
            return _round_attack(st, seat, player_param(st, seat, K_LEAST_SLOWDOWN))
        return _round_attack(st, seat, np.int64(0))
    if kind == GO_ON:
        return _go_on_choice(st, seat, subject)
    if kind == NEXT:
        return _move_choice(st, seat, subject)
    if kind == STEP:
        return _step_choice(st, seat, subject)
    return _refill_choice(st, seat, style)


@njit(cache=True, _nrt=False)
def hunter(kind, seat, subject, st):
    """Races, and attacks only a threat: a seat no farther than itself, or its leading opponent."""
    return skeleton(kind, seat, subject, st, HUNTER)


@njit(cache=True, _nrt=False)
def saboteur(kind, seat, subject, st):
    """Races, and slows down every other seat's vehicle it can."""
    return skeleton(kind, seat, subject, st, SABOTEUR)


@njit(cache=True, _nrt=False)
def racer(kind, seat, subject, st):
    """Races: never plays against another seat, drops its attack cards."""
    return skeleton(kind, seat, subject, st, RACER)


# --------------------------------------------------------------------------- random
@njit(cache=True, _nrt=False)
def _uniform_karma(st, seat, own):
    """A uniform legal play, or -1 (own karma: a card or none; round: a (card, slot) or pass)."""
    n = st[N_SLOTS]
    count = 1
    r = np.int64(-1)
    for pick in range(2):
        k = 0
        if pick == 1:
            r = draw_below(st, np.int64(count))
            if r == count - 1:
                return NO_ANSWER
        for i in range(st[hand_n_at(seat)]):
            c = st[hand_at(seat, i)]
            if not _karma_matches(st, c):
                continue
            if effect_of(st, c) == E_ON_TOP:
                if own:
                    continue
                for s in range(n):
                    if pick == 1 and k == r:
                        return c + CARD_SLOT * s
                    k += 1
            elif n < st[V_LIMIT]:
                if pick == 1 and k == r:
                    return c if own else c + CARD_SLOT * n
                k += 1
        count = k + 1
    return NO_ANSWER


@njit(cache=True, _nrt=False)
def random_player(kind, seat, subject, st):
    """Uniform among the legal answers (fills its hand, never stops a move early)."""
    if kind == DRAW:
        k = 0
        for d in range(4):
            if deck_drawable(st, d):
                k += 1
        r = draw_below(st, np.int64(k))
        for d in range(4):
            if deck_drawable(st, d):
                if r == 0:
                    return d
                r -= 1
        return NO_ANSWER
    if kind == RIDE:
        return draw_below(st, np.int64(2))
    if kind == TRANSPORT:
        u = st[pawn_at(seat)]
        k = 0
        for i in range(st[hand_n_at(seat)]):
            c = st[hand_at(seat, i)]
            if card(st, c, C_DECK) == D_TRANSPORT and playable(st, c, u):
                k += 1
        r = draw_below(st, np.int64(k + 1))
        for i in range(st[hand_n_at(seat)]):
            c = st[hand_at(seat, i)]
            if card(st, c, C_DECK) == D_TRANSPORT and playable(st, c, u):
                if r == 0:
                    return c
                r -= 1
        return NO_ANSWER
    if kind == OWN_KARMA:
        return _uniform_karma(st, seat, True)
    if kind == KARMA:
        return _uniform_karma(st, seat, False)
    if kind == GO_ON:
        return 1
    if kind == NEXT:
        m = move_class(st, st[VEHICLE])
        mask = step_mask(st, m, subject, st[MV_ENTERED])
        k = 0
        for j in range(n_next(st, subject)):
            if (mask >> j) & 1:
                k += 1
        r = draw_below(st, np.int64(k))
        for j in range(n_next(st, subject)):
            if (mask >> j) & 1:
                if r == 0:
                    return next_of(st, subject, j)
                r -= 1
        return NO_ANSWER
    if kind == STEP:
        k = 0
        for j in range(n_next(st, subject)):
            if is_step_option(st, subject, next_of(st, subject, j)):
                k += 1
        r = draw_below(st, np.int64(k))
        for j in range(n_next(st, subject)):
            w = next_of(st, subject, j)
            if is_step_option(st, subject, w):
                if r == 0:
                    return w
                r -= 1
        return NO_ANSWER
    mask = np.int64(0)  # REFILL: each card with probability 1/4
    for i in range(st[hand_n_at(seat)]):
        if draw_below(st, np.int64(4)) == 0:
            mask |= np.int64(1) << np.int64(i)
    return mask


# The players' parameters (declaration index).  saboteur's attack rules are 0
# at the player as written, as are the slots of hunter and racer there: the
# search's menu (kernel.candidates) asks every skeleton player in mc's seat,
# whose slots hold its rollout policy's values.
K_MIN_TRANSPORTS = 0
K_SPARE_BEHIND = 1  # saboteur
K_LEAST_SLOWDOWN = 2  # saboteur

_ATTACK_RULES = (
    Param(
        "spare_behind", "int", 0,
        "it does not attack a seat at least this many spaces farther from the finish than itself "
        "(0: it attacks every seat it can)",
        "reading: 0 is the spec's saboteur; a seat far behind is no threat (hunter's reading of a threat)",
        low=0, high=60,
    ),
    Param(
        "least_slowdown", "int", 0,
        "it attacks only with a play that takes more than this many points off the vehicle's speed "
        "(0: any play that slows it)",
        "reading: 0 is the spec's saboteur; a larger value keeps weak attack cards for a better target",
        low=0, high=6,
    ),
)


def _min_transports(default: int) -> tuple[Param, ...]:
    return (
        Param(
            "min_transports", "int", default,
            "draw Transportation cards while fewer usable ones are held (a kept card counts)",
            "reading: the spec's player definitions (racer 2, hunter 2, saboteur 1)",
            low=0, high=10,
        ),
    )


PLAYERS = (
    PlayerInfo(
        "hunter", "races; attacks only a threat (a seat no farther than itself, or its leading opponent)",
        hunter, params=_min_transports(2),
    ),
    PlayerInfo("saboteur", "races; slows down every other seat's vehicle it can", saboteur,
               params=(*_min_transports(1), *_ATTACK_RULES)),
    PlayerInfo("racer", "races; never plays against another seat and drops its attack cards", racer,
               params=_min_transports(2)),
    PlayerInfo("random", "uniform among the legal answers", random_player, stochastic=True),
)


@njit(cache=True, _nrt=False)
def heuristics(index, kind, seat, subject, st):
    """The built-in players as one switch on their index in PLAYERS."""
    if index <= RACER:  # one call of the shared skeleton, the style being the index (compiles once)
        return skeleton(kind, seat, subject, st, index)
    return random_player(kind, seat, subject, st)


assert MEMORY_SLOTS >= 0 and SUB_DRAW >= 0
