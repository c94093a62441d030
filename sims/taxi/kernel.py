"""TAXI!'s rules as a state machine for balance.engine (RULES.md, rules 1-15).

``advance`` runs the rules from where the game stands until a seat must decide
(a barrier, a purchase, a card, a bet, a move) or the game ends; ``apply``
resolves the pending decision, an illegal answer becoming the most passive
legal one (keep the barrier, no purchase, the Passenger deck, no bet, stay
put).  Every step of a turn is a phase in the state (state.PH_*), so a search
may copy the state at any decision and go on from there.
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
    SCORE,
    SEAT,
    TURN,
    VALUE_SCALE,
    WINNER,
    ask,
    draw_below,
    end_game,
    event,
    shuffle,
)
from sims.taxi import players
from sims.taxi.params import (
    P_ARRIVAL_WINDOW,
    P_BARRIER_SUPPLY,
    P_CARD_OPTIONAL,
    P_DESTINATION_BONUS,
    P_ELIMINATE_ON_DEBT,
    P_EXPENSE_PER_PLATE,
    P_FINAL_HIRE_FEE,
    P_FREEWAY_FACES,
    P_FREEWAY_SUPPLY,
    P_GREEN_FACES,
    P_GREEN_SUPPLY,
    P_HIRE_FEE,
    P_MAX_TURNS,
    P_MONEY_PRIZE,
    P_MONEY_STAKE,
    P_PLATE_PRICE,
    P_PLATE_SALE,
    P_PLATE_SUPPLY,
    P_PLATE_VALUE,
    P_START_MONEY,
    P_TAXI_STAKE,
)
from sims.taxi.state import (
    ALLOWANCE,
    ANY_ARRIVED,
    ARRIVED,
    BARRED,
    BARRIERS,
    BASE,
    BET,
    BET_FREEWAY,
    BET_MONEY,
    BET_NONE,
    BET_TAXI,
    BONUS,
    C_CASH,
    C_EXPENSE,
    C_FINE,
    C_FREEWAY,
    C_GAMBLE_MONEY,
    C_GREEN,
    C_NO_MOVE,
    C_ROADWORK,
    C_STREETS,
    CARD_DECK,
    CARD_ID,
    CARD_KIND,
    CARD_NONE,
    CURSOR,
    DECK_SIZE,
    DEST,
    DIE,
    DRIVES,
    EV_ARRIVE,
    EV_BARRIER,
    EV_BET,
    EV_BUY,
    EV_CARD,
    EV_DATA,
    EV_ELIMINATE,
    EV_END,
    EV_EXPENSE,
    EV_HIRE,
    EV_LEG,
    EV_LEG_END,
    EV_MOVE,
    EV_ORDER,
    EV_REVEAL,
    EV_ROLL,
    EV_SELL,
    EV_SHUFFLE,
    EV_TABLET,
    EV_TURN,
    EXPENSE_DECK,
    GREENS,
    GREENS_USED,
    HOLDER,
    JOURNEY,
    KIND_BARRIER,
    KIND_BET,
    KIND_BUY,
    KIND_CARD,
    KIND_MOVE,
    LAST_ARC,
    LEG,
    LEG_ENDED,
    LEGS,
    MENU_CAP,
    MENU_N,
    MONEY,
    N_BARRED,
    N_DECKS,
    N_IN,
    N_SEGS,
    NEXT,
    NO_MOVE,
    O_ARC_CONT,
    O_ARC_ENTRY,
    O_ARC_SEG,
    O_ARC_TO,
    O_DECK_KIND,
    O_DECK_VALUE,
    O_FREEWAY,
    O_GUIDE,
    O_LIT,
    O_MENU_ARC,
    O_MENU_GREENS,
    O_MENU_NODE,
    O_MENU_PARENT,
    O_MENU_STEPS,
    O_MENU_STREETS,
    O_MENU_WHITES,
    O_ORDER,
    O_OUT_ARC,
    O_OUT_START,
    O_PATH,
    O_SEG_A,
    O_SEG_B,
    OUT,
    PARAMS,
    PASSENGER,
    PATH_CAP,
    PATH_LEN,
    PH_BARRIER,
    PH_BET,
    PH_BUY,
    PH_CARD,
    PH_DRAW,
    PH_LEG_END,
    PH_MOVE,
    PH_ROLL,
    PH_SETUP,
    PH_TABLET,
    PH_TURN_END,
    PH_TURN_START,
    PHASE,
    PLATES,
    POS,
    REVEALED,
    STOP,
    STREETS_USED,
    SUPPLY_BARRIER,
    SUPPLY_GREEN,
    SUPPLY_PLATE,
    SUPPLY_WHITE,
    TOP,
    WHITES,
    WHITES_USED,
    can_end,
    d0,
    next_in,
)

END_COMPLETED = np.int64(0)
END_LAST_STANDING = np.int64(1)
END_TURN_LIMIT = np.int64(2)
NO_WINNER = np.int64(-1)
INT32_MAX = 2**31 - 1
DATA_WIDTH = 6


# --------------------------------------------------------------------------- trace helpers
@njit(cache=True)
def _row(st, kind, a, b, c, d, e, f):
    at = event(st, kind)
    st[at + 2] = a
    st[at + 3] = b
    st[at + 4] = c
    st[at + 5] = d
    st[at + 6] = e
    st[at + 7] = f


@njit(cache=True)
def _seat_row(st, region, pad):
    """A DATA row: ``st[region + s]`` for every seat (``pad`` after the last)."""
    at = event(st, EV_DATA)
    n = st[N_SEATS]
    for s in range(DATA_WIDTH):
        st[at + 2 + s] = st[region + s] if s < n else pad


@njit(cache=True)
def _seat_row_out(st, region):
    """A DATA row of a per-seat node (-1 for a seat that is out)."""
    at = event(st, EV_DATA)
    n = st[N_SEATS]
    for s in range(DATA_WIDTH):
        st[at + 2 + s] = st[region + s] if s < n and st[OUT + s] == 0 else -1


@njit(cache=True)
def _id_rows(st, at, count):
    """``count`` values from ``st[at:]``, six per DATA row."""
    i = 0
    while i < count:
        row = event(st, EV_DATA)
        for k in range(DATA_WIDTH):
            st[row + 2 + k] = st[at + i + k] if i + k < count else -1
        i += DATA_WIDTH


# --------------------------------------------------------------------------- decks
@njit(cache=True)
def _draw(st, deck):
    """The top card of ``deck``; an empty pile is first refilled by shuffling the
    whole discard pile (every card: the others are all discarded)."""
    size = st[DECK_SIZE + deck]
    at = st[O_ORDER + deck]
    if st[TOP + deck] >= size:
        shuffle(st, at, at + size)
        st[TOP + deck] = 0
        if deck == JOURNEY:
            for w in range(3):
                st[REVEALED + w] = 0
        if st[RECORD]:
            _row(st, EV_SHUFFLE, deck, size, 0, 0, 0, 0)
            _id_rows(st, at, size)
    card = st[at + st[TOP + deck]]
    st[TOP + deck] += 1
    return card


# --------------------------------------------------------------------------- money
@njit(cache=True)
def _finish(st, reason, winner):
    n = st[N_SEATS]
    pv = st[PARAMS + P_PLATE_VALUE]
    for s in range(n):
        w = st[MONEY + s] + pv * st[PLATES + s]
        st[SCORE + s] = min(max(w, -INT32_MAX), INT32_MAX)
    end_game(st, reason, winner)
    if st[RECORD]:
        legs_done = st[LEG] - 1 + st[LEG_ENDED]
        _row(st, EV_END, winner, reason, legs_done, 0, 0, 0)


@njit(cache=True)
def _eliminate(st, s):
    st[OUT + s] = 1
    st[N_IN] -= 1
    st[SUPPLY_GREEN] += st[GREENS + s]
    st[SUPPLY_WHITE] += st[WHITES + s]
    st[SUPPLY_BARRIER] += st[BARRIERS + s]
    st[GREENS + s] = 0
    st[WHITES + s] = 0
    st[BARRIERS + s] = 0
    st[POS + s] = -1
    st[ARRIVED + s] = 0
    if st[RECORD]:
        _row(st, EV_ELIMINATE, s, st[MONEY + s], 0, 0, 0, 0)


@njit(cache=True)
def _settle_debt(st, s):
    """Rule 14 after a payment by ``s``: sell plates while in debt, then out.
    True when the game has ended (one player left)."""
    if st[MONEY + s] >= 0:
        return False
    sale = st[PARAMS + P_PLATE_SALE]
    while st[MONEY + s] < 0 and st[PLATES + s] > 0:
        st[PLATES + s] -= 1
        st[SUPPLY_PLATE] += 1
        st[MONEY + s] += sale
        if st[RECORD]:
            _row(st, EV_SELL, s, sale, st[MONEY + s], st[PLATES + s], 0, 0)
    if st[MONEY + s] < 0 and st[PARAMS + P_ELIMINATE_ON_DEBT] != 0:
        _eliminate(st, s)
        if st[N_IN] == 1:
            last = 0
            for t in range(st[N_SEATS]):
                if st[OUT + t] == 0:
                    last = t
            _finish(st, END_LAST_STANDING, np.int64(last))
            return True
    return False


# --------------------------------------------------------------------------- setup
@njit(cache=True)
def _setup(st):
    n = st[N_SEATS]
    base = st[BASE]
    guide = st[O_GUIDE]
    for s in range(n):
        st[MONEY + s] = st[PARAMS + P_START_MONEY]
        st[POS + s] = base
        st[DEST + s] = st[guide + s * 30]
        st[OUT + s] = 0
    st[N_IN] = n
    st[SUPPLY_GREEN] = st[PARAMS + P_GREEN_SUPPLY]
    st[SUPPLY_WHITE] = st[PARAMS + P_FREEWAY_SUPPLY]
    st[SUPPLY_BARRIER] = st[PARAMS + P_BARRIER_SUPPLY]
    st[SUPPLY_PLATE] = st[PARAMS + P_PLATE_SUPPLY]
    for d in range(N_DECKS):
        at = st[O_ORDER + d]
        size = st[DECK_SIZE + d]
        for i in range(size):
            st[at + i] = i
        shuffle(st, at, at + size)
        st[TOP + d] = 0
        if st[RECORD]:
            _row(st, EV_ORDER, d, size, 0, 0, 0, 0)
            _id_rows(st, at, size)
    st[LEG] = 1
    if st[RECORD]:
        _row(st, EV_LEG, 1, 0, 0, 0, 0, 0)
        _seat_row_out(st, DEST)
    st[NEXT] = 0
    st[PHASE] = PH_TURN_START


# --------------------------------------------------------------------------- the move menu
@njit(cache=True)
def _barred(st, seg):
    for k in range(st[N_BARRED]):
        if st[BARRED + k] == seg:
            return True
    return False


@njit(cache=True)
def build_menu(st):
    """List the one-street drives from the mover's node (state.py, "The move
    menu") into the menu; returns their number."""
    s = st[SEAT]
    path = st[O_PATH]
    plen = st[PATH_LEN]
    room = st[PATH_CAP] - plen
    st[MENU_N] = 0
    if room <= 0:
        return 0
    cap = st[MENU_CAP]
    u = st[path + plen - 1]
    g_left = st[GREENS + s] - st[GREENS_USED]
    w_left = st[WHITES + s] - st[WHITES_USED]
    allowance = st[ALLOWANCE]
    used = st[STREETS_USED]
    fw = st[O_FREEWAY]
    lit = st[O_LIT]
    arc_to = st[O_ARC_TO]
    arc_seg = st[O_ARC_SEG]
    arc_entry = st[O_ARC_ENTRY]
    arc_cont = st[O_ARC_CONT]
    out_start = st[O_OUT_START]
    out_arc = st[O_OUT_ARC]
    m_node = st[O_MENU_NODE]
    m_parent = st[O_MENU_PARENT]
    m_arc = st[O_MENU_ARC]
    m_steps = st[O_MENU_STEPS]
    m_greens = st[O_MENU_GREENS]
    m_whites = st[O_MENU_WHITES]
    m_streets = st[O_MENU_STREETS]
    any_barred = st[N_BARRED] > 0
    u_fw = st[fw + u] != 0
    first = plen == 1
    cont_last = st[arc_cont + st[LAST_ARC]] if not first else -2
    n = 0
    for k in range(st[out_start + u], st[out_start + u + 1]):
        a = st[out_arc + k]
        cost = 1
        if not first and (u_fw or a == cont_last):
            cost = 0
        if used + cost > allowance:
            continue
        v = st[arc_to + a]
        g = st[lit + v]
        w = st[arc_entry + a]
        if g > g_left or w > w_left:
            continue
        if any_barred and _barred(st, st[arc_seg + a]):
            continue
        if n >= cap:
            break
        st[m_node + n] = v
        st[m_parent + n] = -1
        st[m_arc + n] = a
        st[m_steps + n] = 1
        st[m_greens + n] = g
        st[m_whites + n] = w
        st[m_streets + n] = used + cost
        n += 1
    i = 0
    while i < n:
        steps = st[m_steps + i]
        if steps >= room:
            i += 1
            continue
        v = st[m_node + i]
        a = st[m_arc + i]
        if st[fw + v] != 0:
            lo = st[out_start + v]
            hi = st[out_start + v + 1]
        else:
            lo = 0
            hi = 0
            if st[arc_cont + a] >= 0:
                hi = 1
        for k in range(lo, hi):
            b = st[out_arc + k] if st[fw + v] != 0 else st[arc_cont + a]
            x = st[arc_to + b]
            g = st[m_greens + i] + st[lit + x]
            w = st[m_whites + i] + st[arc_entry + b]
            if g > g_left or w > w_left:
                continue
            if any_barred and _barred(st, st[arc_seg + b]):
                continue
            if x == u and not u_fw:
                continue
            j = i
            seen = False
            while j >= 0:
                if st[m_node + j] == x:
                    seen = True
                    break
                j = st[m_parent + j]
            if seen:
                continue
            if n >= cap:
                break
            st[m_node + n] = x
            st[m_parent + n] = i
            st[m_arc + n] = b
            st[m_steps + n] = steps + 1
            st[m_greens + n] = g
            st[m_whites + n] = w
            st[m_streets + n] = st[m_streets + i]
            n += 1
        i += 1
    st[MENU_N] = n
    return n


@njit(cache=True)
def _take_entry(st, e):
    path = st[O_PATH]
    plen = st[PATH_LEN]
    steps = st[st[O_MENU_STEPS] + e]
    m_node = st[O_MENU_NODE]
    m_parent = st[O_MENU_PARENT]
    m_steps = st[O_MENU_STEPS]
    j = e
    while j >= 0:
        st[path + plen + st[m_steps + j] - 1] = st[m_node + j]
        j = st[m_parent + j]
    st[PATH_LEN] = plen + steps
    st[LAST_ARC] = st[st[O_MENU_ARC] + e]
    st[STREETS_USED] = st[st[O_MENU_STREETS] + e]
    st[GREENS_USED] += st[st[O_MENU_GREENS] + e]
    st[WHITES_USED] += st[st[O_MENU_WHITES] + e]
    st[DRIVES] += 1


@njit(cache=True)
def _end_move(st, legal):
    """The move is over: an illegal one (a bad answer, or a stop the rules do not
    allow) is undone: the taxi stays put and spends nothing."""
    s = st[SEAT]
    path = st[O_PATH]
    if not legal:
        st[PATH_LEN] = 1
        st[STREETS_USED] = 0
        st[GREENS_USED] = 0
        st[WHITES_USED] = 0
    gu = st[GREENS_USED]
    wu = st[WHITES_USED]
    st[GREENS + s] -= gu
    st[SUPPLY_GREEN] += gu
    st[WHITES + s] -= wu
    st[SUPPLY_WHITE] += wu
    plen = st[PATH_LEN]
    end = st[path + plen - 1]
    st[POS + s] = end
    st[MENU_N] = 0
    if st[RECORD]:
        _row(st, EV_MOVE, s, plen, st[STREETS_USED], gu, wu, 0)
        _row(st, EV_DATA, st[GREENS + s], st[WHITES + s], 0, 0, 0, 0)
        _id_rows(st, path, plen)
    if plen > 1 and end == st[DEST + s]:
        st[ARRIVED + s] = 1
        st[ANY_ARRIVED] = 1
        if st[RECORD]:
            _row(st, EV_ARRIVE, s, end, st[LEG], 0, 0, 0)
    st[PHASE] = PH_TABLET


# --------------------------------------------------------------------------- gambles
@njit(cache=True)
def _reveal(st):
    h = st[HOLDER]
    word = st[CARD_KIND] - C_GAMBLE_MONEY  # 0 money, 1 freeway, 2 taxi
    right = word + 1
    stake = st[PARAMS + P_MONEY_STAKE]
    prize = st[PARAMS + P_MONEY_PRIZE]
    taxi_stake = st[PARAMS + P_TAXI_STAKE]
    n_won = 0
    winners = 0  # packed seats, 4 bits each, in betting order
    c = next_in(st, h)
    while c != h:
        b = st[BET + c]
        if b == right:
            winners |= c << (4 * n_won)
            n_won += 1
            if b == BET_MONEY:
                st[MONEY + c] += prize
            elif b == BET_FREEWAY:
                if st[SUPPLY_WHITE] > 0:
                    st[WHITES + c] += 1
                    st[SUPPLY_WHITE] -= 1
            else:
                if st[SUPPLY_PLATE] > 0:
                    st[PLATES + c] += 1
                    st[SUPPLY_PLATE] -= 1
        elif b == BET_MONEY:
            st[MONEY + c] -= stake
            st[MONEY + h] += stake
        elif b == BET_FREEWAY:
            st[GREENS + c] -= 1
            st[GREENS + h] += 1
        elif b == BET_TAXI:
            st[MONEY + c] -= taxi_stake
            st[MONEY + h] += taxi_stake
        c = next_in(st, c)
    st[REVEALED + word] += 1
    if st[RECORD]:
        _row(st, EV_REVEAL, h, word, n_won, 0, 0, 0)
        at = event(st, EV_DATA)
        for k in range(DATA_WIDTH):
            st[at + 2 + k] = (winners >> (4 * k)) & 15 if k < n_won else -1
        _seat_row(st, MONEY, 0)
        _seat_row(st, GREENS, 0)
        _seat_row(st, WHITES, 0)
        _seat_row(st, PLATES, 0)


# --------------------------------------------------------------------------- the rules
@njit(cache=True)
def _draw_card(st):
    """Rule 3.3: the chosen card takes effect.  False when the game ended."""
    s = st[SEAT]
    deck = st[CARD_DECK]
    if deck < 0:
        if st[RECORD]:
            _row(st, EV_CARD, s, -1, -1, st[MONEY + s], st[GREENS + s], st[WHITES + s])
            _row(st, EV_DATA, st[BARRIERS + s], st[PLATES + s], 0, 0, 0, 0)
        st[PHASE] = PH_ROLL
        return True
    card = _draw(st, deck)
    kind = st[st[O_DECK_KIND + deck] + card]
    v = st[st[O_DECK_VALUE + deck] + card]
    st[CARD_ID] = card
    st[CARD_KIND] = kind
    paid = False
    if kind == C_CASH:
        st[MONEY + s] += v
        paid = v < 0
    elif kind == C_FINE or kind == C_EXPENSE:
        st[MONEY + s] -= v
        paid = True
    elif kind == C_GREEN:
        if v > 0:
            t = min(v, st[SUPPLY_GREEN])
        else:
            t = -min(-v, st[GREENS + s])
        st[GREENS + s] += t
        st[SUPPLY_GREEN] -= t
    elif kind == C_FREEWAY:
        if v > 0:
            t = min(v, st[SUPPLY_WHITE])
        else:
            t = -min(-v, st[WHITES + s])
        st[WHITES + s] += t
        st[SUPPLY_WHITE] -= t
    elif kind == C_STREETS:
        st[BONUS] = v
    elif kind == C_NO_MOVE:
        st[NO_MOVE] = 1
    elif kind == C_ROADWORK:
        if st[SUPPLY_BARRIER] > 0:
            st[BARRIERS + s] += 1
            st[SUPPLY_BARRIER] -= 1
    if st[RECORD]:
        _row(st, EV_CARD, s, deck, card, st[MONEY + s], st[GREENS + s], st[WHITES + s])
        _row(st, EV_DATA, st[BARRIERS + s], st[PLATES + s], 0, 0, 0, 0)
    if kind >= C_GAMBLE_MONEY:
        st[HOLDER] = s
        for t in range(st[N_SEATS]):
            st[BET + t] = -1
        st[CURSOR] = s
        st[PHASE] = PH_BET
        return True
    if paid and st[MONEY + s] < 0:
        if _settle_debt(st, s):
            return False
        if st[OUT + s] != 0:
            st[PHASE] = PH_TURN_END
            return True
    st[PHASE] = PH_ROLL
    return True


@njit(cache=True)
def _leg_end(st):
    """Rule 11: bonus, jumps, charges; then the next leg or the end.  False when
    the game ended."""
    n = st[N_SEATS]
    k = 0
    for s in range(n):
        if st[ARRIVED + s] != 0 and st[OUT + s] == 0:
            k += 1
    share = (st[PARAMS + P_DESTINATION_BONUS] // max(k, 1)) // 10 * 10
    for s in range(n):
        if st[OUT + s] != 0:
            continue
        if st[ARRIVED + s] != 0:
            st[MONEY + s] += share
        else:
            st[POS + s] = st[DEST + s]
    st[LEG_ENDED] = 1
    if st[RECORD]:
        _row(st, EV_LEG_END, st[LEG], share, 0, 0, 0, 0)
        _seat_row(st, ARRIVED, 0)
        _seat_row(st, MONEY, 0)
        _seat_row_out(st, POS)
    last_leg = st[LEG] >= st[LEGS]
    fee = st[PARAMS + P_HIRE_FEE]
    per_plate = st[PARAMS + P_EXPENSE_PER_PLATE] != 0
    free_last = st[PARAMS + P_FINAL_HIRE_FEE] == 0
    ex_value = st[O_DECK_VALUE + EXPENSE_DECK]
    for s in range(n):
        if st[OUT + s] != 0:
            continue
        paid = True
        if st[PLATES + s] > 0:
            cards = st[PLATES + s] if per_plate else 1
            for _ in range(cards):
                card = _draw(st, EXPENSE_DECK)
                amount = st[ex_value + card]
                st[MONEY + s] -= amount
                if st[RECORD]:
                    _row(st, EV_EXPENSE, s, card, amount, st[MONEY + s], 0, 0)
        elif last_leg and free_last:
            paid = False
        else:
            st[MONEY + s] -= fee
            if st[RECORD]:
                _row(st, EV_HIRE, s, fee, st[MONEY + s], 0, 0, 0)
        if paid and st[MONEY + s] < 0:
            if _settle_debt(st, s):
                return False
    if last_leg:
        pv = st[PARAMS + P_PLATE_VALUE]
        best = -1
        best_w = 0
        tie = False
        for s in range(n):
            if st[OUT + s] != 0:
                continue
            w = st[MONEY + s] + pv * st[PLATES + s]
            if best < 0 or w > best_w:
                best = s
                best_w = w
                tie = False
            elif w == best_w:
                tie = True
        _finish(st, END_COMPLETED, np.int64(-1 if tie else best))
        return False
    st[LEG] += 1
    st[LEG_ENDED] = 0
    st[ANY_ARRIVED] = 0
    guide = st[O_GUIDE]
    for s in range(n):
        st[ARRIVED + s] = 0
        st[DEST + s] = st[guide + s * 30 + st[LEG] - 1]
    if st[RECORD]:
        _row(st, EV_LEG, st[LEG], 0, 0, 0, 0, 0)
        _seat_row_out(st, DEST)
    if st[PARAMS + P_ARRIVAL_WINDOW] == 0:
        st[NEXT] = next_in(st, np.int64(n - 1))  # a new round: the lowest seat still in
    else:
        st[NEXT] = next_in(st, st[SEAT])
    st[PHASE] = PH_TURN_START
    return True


@njit(cache=True)
def advance(st):
    """Run the rules until a decision is pending or the game is over."""
    if st[DECIDER] >= 0 or st[END_REASON] >= 0:
        return
    while True:
        ph = st[PHASE]
        if ph == PH_MOVE:
            if build_menu(st) > 0:
                ask(st, st[SEAT], KIND_MOVE, st[ALLOWANCE] - st[STREETS_USED])
                return
            path = st[O_PATH]
            _end_move(st, can_end(st, st[path + st[PATH_LEN] - 1]))
        elif ph == PH_TURN_START:
            if st[TURN] >= st[PARAMS + P_MAX_TURNS]:
                _finish(st, END_TURN_LIMIT, NO_WINNER)
                return
            s = st[NEXT]
            st[TURN] += 1
            st[SEAT] = s
            if st[RECORD]:
                _row(st, EV_TURN, s, 0, 0, 0, 0, 0)
            st[N_BARRED] = 0
            st[CARD_DECK] = -1
            st[CARD_ID] = -1
            st[CARD_KIND] = -1
            st[BONUS] = 0
            st[NO_MOVE] = 0
            st[DIE] = 0
            st[ALLOWANCE] = 0
            st[HOLDER] = -1
            st[CURSOR] = s
            st[PHASE] = PH_BARRIER
        elif ph == PH_BARRIER:
            s = st[SEAT]
            c = next_in(st, st[CURSOR])
            while c != s and st[BARRIERS + c] == 0:
                c = next_in(st, c)
            if c == s:
                st[PHASE] = PH_BUY
            else:
                st[CURSOR] = c
                ask(st, c, KIND_BARRIER, s)
                return
        elif ph == PH_BUY:
            s = st[SEAT]
            st[PHASE] = PH_CARD
            if st[SUPPLY_PLATE] > 0 and st[MONEY + s] >= st[PARAMS + P_PLATE_PRICE]:
                ask(st, s, KIND_BUY, st[PARAMS + P_PLATE_PRICE])
                return
        elif ph == PH_CARD:
            ask(st, st[SEAT], KIND_CARD, np.int64(0))
            return
        elif ph == PH_DRAW:
            if not _draw_card(st):
                return
        elif ph == PH_BET:
            h = st[HOLDER]
            c = next_in(st, st[CURSOR])
            if c == h:
                _reveal(st)
                st[PHASE] = PH_ROLL
            else:
                st[CURSOR] = c
                ask(st, c, KIND_BET, h)
                return
        elif ph == PH_ROLL:
            s = st[SEAT]
            if st[NO_MOVE] != 0:
                st[PHASE] = PH_TABLET
            else:
                die = 1 + draw_below(st, np.int64(6))
                st[DIE] = die
                st[ALLOWANCE] = die + st[BONUS]
                if st[RECORD]:
                    _row(st, EV_ROLL, s, die, st[BONUS], 0, 0, 0)
                st[st[O_PATH]] = st[POS + s]
                st[PATH_LEN] = 1
                st[LAST_ARC] = -1
                st[STREETS_USED] = 0
                st[GREENS_USED] = 0
                st[WHITES_USED] = 0
                st[DRIVES] = 0
                st[PHASE] = PH_MOVE
        elif ph == PH_TABLET:
            s = st[SEAT]
            face = 1 + draw_below(st, np.int64(12))
            ff = st[PARAMS + P_FREEWAY_FACES]
            gf = st[PARAMS + P_GREEN_FACES]
            granted = 0
            if face <= ff:
                result = 0
                if st[SUPPLY_WHITE] > 0:
                    st[SUPPLY_WHITE] -= 1
                    st[WHITES + s] += 1
                    granted = 1
            elif face <= ff + gf:
                result = 1
                if st[SUPPLY_GREEN] > 0:
                    st[SUPPLY_GREEN] -= 1
                    st[GREENS + s] += 1
                    granted = 1
            else:
                result = 2
            if st[RECORD]:
                _row(st, EV_TABLET, s, face, result, granted, st[GREENS + s], st[WHITES + s])
            st[PHASE] = PH_TURN_END
        elif ph == PH_TURN_END:
            s = st[SEAT]
            st[SUPPLY_BARRIER] += st[N_BARRED]
            st[N_BARRED] = 0
            if st[PARAMS + P_ARRIVAL_WINDOW] == 0:
                last = True
                for t in range(s + 1, st[N_SEATS]):
                    if st[OUT + t] == 0:
                        last = False
                        break
                if last and st[ANY_ARRIVED] != 0:
                    st[PHASE] = PH_LEG_END
                    continue
            elif st[ARRIVED + s] != 0:
                st[PHASE] = PH_LEG_END
                continue
            st[NEXT] = next_in(st, s)
            st[PHASE] = PH_TURN_START
        elif ph == PH_LEG_END:
            if not _leg_end(st):
                return
        elif ph == PH_SETUP:
            _setup(st)
        else:  # pragma: no cover - every phase is handled above
            return


@njit(cache=True)
def apply(st, answer):
    """Resolve the pending decision; an illegal answer becomes the passive one."""
    seat = st[DECIDER]
    kind = st[DECISION]
    st[DECIDER] = -1
    if kind == KIND_MOVE:
        if answer == STOP:
            path = st[O_PATH]
            _end_move(st, can_end(st, st[path + st[PATH_LEN] - 1]))
        elif 0 <= answer < st[MENU_N]:
            _take_entry(st, answer)
        else:
            _end_move(st, False)
    elif kind == KIND_CARD:
        if answer == 0 or answer == 1:
            st[CARD_DECK] = answer
        elif answer == CARD_NONE and st[PARAMS + P_CARD_OPTIONAL] != 0:
            st[CARD_DECK] = -1
        else:
            st[CARD_DECK] = PASSENGER
        st[PHASE] = PH_DRAW
    elif kind == KIND_BET:
        w = BET_NONE
        if answer == BET_MONEY and st[MONEY + seat] >= st[PARAMS + P_MONEY_STAKE]:
            w = BET_MONEY
        elif answer == BET_FREEWAY and st[GREENS + seat] >= 1:
            w = BET_FREEWAY
        elif answer == BET_TAXI and st[MONEY + seat] >= st[PARAMS + P_TAXI_STAKE]:
            w = BET_TAXI
        st[BET + seat] = w
        if st[RECORD]:
            _row(st, EV_BET, seat, st[HOLDER], w, 0, 0, 0)
    elif kind == KIND_BARRIER:
        target = st[SEAT]
        if 0 <= answer < st[N_SEGS] and not _barred(st, answer) and st[BARRIERS + seat] > 0:
            st[BARRED + st[N_BARRED]] = answer
            st[N_BARRED] += 1
            st[BARRIERS + seat] -= 1
            if st[RECORD]:
                _row(
                    st, EV_BARRIER, seat, target, st[st[O_SEG_A] + answer], st[st[O_SEG_B] + answer],
                    st[BARRIERS + seat], 0,
                )
    elif kind == KIND_BUY:
        price = st[PARAMS + P_PLATE_PRICE]
        if answer == 1 and st[MONEY + seat] >= price and st[SUPPLY_PLATE] > 0:
            st[MONEY + seat] -= price
            st[PLATES + seat] += 1
            st[SUPPLY_PLATE] -= 1
            if st[RECORD]:
                _row(st, EV_BUY, seat, price, st[MONEY + seat], st[PLATES + seat], 0, 0)


# --------------------------------------------------------------------------- the search player
@njit(cache=True)
def candidates(st, out):
    """What mc compares: both decks (and none), every legal bet, buy or not,
    keep or place the barrier where Bar would, and the first drive of a move
    (the best few by Drive's order); the rest of a move is left to the rollout
    policy (its Drive)."""
    kind = st[DECISION]
    seat = st[DECIDER]
    if kind == KIND_CARD:
        out[0] = 0
        out[1] = 1
        if st[PARAMS + P_CARD_OPTIONAL] != 0:
            out[2] = CARD_NONE
            return 3
        return 2
    if kind == KIND_BUY:
        out[0] = 0
        out[1] = 1
        return 2
    if kind == KIND_BET:
        n = 0
        out[n] = BET_NONE
        n += 1
        if st[MONEY + seat] >= st[PARAMS + P_MONEY_STAKE]:
            out[n] = BET_MONEY
            n += 1
        if st[GREENS + seat] >= 1:
            out[n] = BET_FREEWAY
            n += 1
        if st[MONEY + seat] >= st[PARAMS + P_TAXI_STAKE]:
            out[n] = BET_TAXI
            n += 1
        return n
    if kind == KIND_BARRIER:
        seg = players.bar_segment(st, st[SEAT])
        if seg < 0:
            return 0
        out[0] = -1
        out[1] = seg
        return 2
    if kind == KIND_MOVE and st[DRIVES] == 0:
        return _move_candidates(st, seat, out)
    return 0


MOVE_CANDIDATES = 4


@njit(cache=True)
def _drive_key(st, seat, i):
    """Drive's order of a menu entry: D0 to the stop, tablets, segments, end node."""
    x = st[st[O_MENU_NODE] + i]
    d = d0(st, x, st[DEST + seat])
    t = st[st[O_MENU_GREENS] + i] + st[st[O_MENU_WHITES] + i]
    return ((d * 64 + min(t, 63)) * 1024 + min(st[st[O_MENU_STEPS] + i], 1023)) * 65536 + x


@njit(cache=True)
def _move_candidates(st, seat, out):
    """The first drive of a move: the MOVE_CANDIDATES best drives by Drive's order
    (one per end node) that may end the move."""
    n = 0
    for i in range(st[MENU_N]):
        x = st[st[O_MENU_NODE] + i]
        if not can_end(st, x):
            continue
        key = _drive_key(st, seat, i)
        dup = -1
        for j in range(n):
            if st[st[O_MENU_NODE] + out[j]] == x:
                dup = j
                break
        if dup >= 0:
            if key < _drive_key(st, seat, out[dup]):
                out[dup] = i
            continue
        if n < MOVE_CANDIDATES:
            out[n] = i
            n += 1
        else:
            worst = 0
            for j in range(1, n):
                if _drive_key(st, seat, out[j]) > _drive_key(st, seat, out[worst]):
                    worst = j
            if key < _drive_key(st, seat, out[worst]):
                out[worst] = i
    return n


@njit(cache=True)
def determinize(st, seat):
    """A search copy as ``seat`` sees it: every draw pile in a new order (the
    discard piles are known), and during a gamble the card in the holder's hand
    one of the gamble cards not revealed since the last Journey shuffle."""
    for d in range(N_DECKS):
        shuffle(st, st[O_ORDER + d] + st[TOP + d], st[O_ORDER + d] + st[DECK_SIZE + d])
    if st[DECISION] == KIND_BET and st[DECIDER] == seat and st[HOLDER] != seat:
        at = st[O_ORDER + JOURNEY]
        top = st[TOP + JOURNEY]
        size = st[DECK_SIZE + JOURNEY]
        kinds = st[O_DECK_KIND + JOURNEY]
        m = 1
        for i in range(top, size):
            if st[kinds + st[at + i]] >= C_GAMBLE_MONEY:
                m += 1
        r = draw_below(st, np.int64(m))
        if r > 0:
            for i in range(top, size):
                if st[kinds + st[at + i]] >= C_GAMBLE_MONEY:
                    r -= 1
                    if r == 0:
                        held = st[at + top - 1]
                        st[at + top - 1] = st[at + i]
                        st[at + i] = held
                        st[CARD_ID] = st[at + top - 1]
                        st[CARD_KIND] = st[kinds + st[CARD_ID]]
                        break


@njit(cache=True)
def standing(st, seat):
    """What a seat is worth in a playout cut by the horizon: its wealth, its
    tablets ($500 a green, $1,000 a freeway tablet: what they win in races), and
    its expected share of the current leg's bonus (the arrivals' share; else
    shared among the seats racing in proportion to 1 / (1 + D0 to their stop)^2)."""
    pv = st[PARAMS + P_PLATE_VALUE]
    w = st[MONEY + seat] + pv * st[PLATES + seat] + 500 * st[GREENS + seat] + 1000 * st[WHITES + seat]
    bonus = st[PARAMS + P_DESTINATION_BONUS]
    n = st[N_SEATS]
    arrived = 0
    for s in range(n):
        if st[OUT + s] == 0 and st[ARRIVED + s] != 0:
            arrived += 1
    if st[LEG_ENDED] != 0:
        return w
    if arrived > 0:
        return w + (bonus // arrived if st[ARRIVED + seat] != 0 else 0)
    mine = 0.0
    total = 0.0
    for s in range(n):
        if st[OUT + s] == 0:
            d = d0(st, st[POS + s], st[DEST + s])
            m = 1.0 / ((1.0 + d) * (1.0 + d))
            total += m
            if s == seat:
                mine = m
    return w + np.int64(bonus * mine / total)


@njit(cache=True)
def evaluate(st, seat):
    """A finished playout: VALUE_SCALE for a win, 0 otherwise.  A playout cut by
    the horizon: 0 when out, else from the lead of its ``standing`` over the best
    opponent's, relative to what the legs left can still move (about $3,000 a
    leg): VALUE_SCALE/2 for level, towards VALUE_SCALE for a clear lead."""
    if st[END_REASON] >= 0:
        return VALUE_SCALE if st[WINNER] == seat else 0
    if st[OUT + seat] != 0:
        return 0
    mine = standing(st, seat)
    best = -(1 << 62)
    for s in range(st[N_SEATS]):
        if s != seat and st[OUT + s] == 0:
            best = max(best, standing(st, s))
    diff = mine - best
    spread = 3000 * (st[LEGS] - st[LEG] + 2)
    half = VALUE_SCALE // 2
    return half + half * diff // (abs(diff) + spread)


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
