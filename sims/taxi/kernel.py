"""TAXI!'s rules as a state machine for balance.engine (RULES.md, rules 1-15).

``advance`` runs the rules from where the game stands until a seat must decide
(a barrier, a purchase, a card, a bet, a move) or the game ends; ``apply``
resolves the pending decision, an illegal answer becoming the most passive
legal one (keep the barrier, no purchase, the Passenger deck, no bet, stay
put).  Every step of a turn is a phase in the state (state.PH_*), so a search
may copy the state at any decision and go on from there.

Nothing here allocates, so every function is compiled without reference
counting (``_nrt=False``): a call no longer counts a reference to the state
on entry and back on return (two more calls, each an atomic operation, per
call of advance, apply and the players).  A view made here is counted by
nobody; none is returned (state.py's ``deck_view`` is for Python and tests).
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
    score_at,
    SEAT,
    TURN,
    VALUE_SCALE,
    WINNER,
    ask,
    draw_below,
    end_game,
    event_value,
    shuffle,
)
from sims.taxi import players
from sims.taxi.events import (
    begin_data,
    write_arrive,
    write_barrier,
    write_bet,
    write_buy,
    write_card,
    write_data,
    write_eliminate,
    write_end,
    write_expense,
    write_hire,
    write_leg,
    write_leg_end,
    write_move,
    write_order,
    write_reveal,
    write_roll,
    write_sell,
    write_shuffle,
    write_tablet,
    write_turn,
)
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
    BASE,
    BET_FREEWAY,
    BET_MONEY,
    BET_NONE,
    BET_TAXI,
    BONUS,
    CARD_DECK,
    CARD_ID,
    CARD_KIND,
    CARD_NONE,
    CURSOR,
    C_CASH,
    C_EXPENSE,
    C_FINE,
    C_FREEWAY,
    C_GAMBLE_MONEY,
    C_GREEN,
    C_NO_MOVE,
    C_ROADWORK,
    C_STREETS,
    DIE,
    DRIVES,
    EXPENSE_DECK,
    GREENS_USED,
    HOLDER,
    JOURNEY,
    JOURNEY_CARDS,
    KIND_BARRIER,
    KIND_BET,
    KIND_BUY,
    KIND_CARD,
    KIND_MOVE,
    LAST_ARC,
    LEG,
    LEGS,
    LEG_ENDED,
    MENU_CAP,
    MENU_N,
    NEXT,
    NO_MOVE,
    N_BARRED,
    N_DECKS,
    N_IN,
    N_SEGS,
    PASSENGER,
    PATH_CAP,
    PATH_LEN,
    PHASE,
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
    STOP,
    STREETS_USED,
    SUPPLY_BARRIER,
    SUPPLY_GREEN,
    SUPPLY_PLATE,
    SUPPLY_WHITE,
    TREE_ARC_MASK,
    TREE_COUNT_MASK,
    TREE_COUNT_SHIFT,
    TREE_ENTRY_SHIFT,
    TREE_KIDS_MASK,
    TREE_KIDS_SHIFT,
    TREE_LIT_SHIFT,
    TREE_NODE_MASK,
    TREE_NODE_SHIFT,
    WHITES_USED,
    arc_cont_at,
    arc_cont_view,
    arc_entry_view,
    arc_seg_at,
    arc_seg_view,
    arc_to_view,
    arrived_at,
    arrived_view,
    barred_at,
    barriers_at,
    bet_at,
    can_end,
    card_kind,
    card_value,
    d0,
    deck_size,
    dest_at,
    dest_view,
    drive_tree_view,
    expense_value_at,
    freeway_at,
    freeway_view,
    greens_at,
    greens_view,
    guide_at,
    journey_kind_at,
    journey_order_view,
    lit_view,
    menu_arc_at,
    menu_arc_view,
    menu_greens_at,
    menu_greens_view,
    menu_node_at,
    menu_node_view,
    menu_parent_view,
    menu_steps_at,
    menu_steps_view,
    menu_streets_at,
    menu_streets_view,
    menu_whites_at,
    menu_whites_view,
    money_at,
    money_view,
    next_in,
    order_at,
    out_arc_view,
    out_at,
    out_start_at,
    out_start_view,
    path_at,
    path_view,
    plates_at,
    plates_view,
    pos_at,
    pos_view,
    revealed_at,
    rule_at,
    seg_a_at,
    seg_b_at,
    top_at,
    unsigned,
    whites_at,
    whites_view,
)

END_COMPLETED = np.int64(0)
END_LAST_STANDING = np.int64(1)
END_TURN_LIMIT = np.int64(2)
NO_WINNER = np.int64(-1)
INT32_MAX = 2**31 - 1
DATA_WIDTH = 6


# --------------------------------------------------------------------------- trace helpers
@njit(cache=True, _nrt=False)
def _seat_row(st, values, pad):
    """A DATA row: ``values[s]`` for every seat (``pad`` after the last)."""
    at = begin_data(st)
    n = st[N_SEATS]
    for s in range(DATA_WIDTH):
        st[event_value(at, s)] = values[s] if s < n else pad


@njit(cache=True, _nrt=False)
def _seat_row_out(st, nodes):
    """A DATA row of a per-seat node (-1 for a seat that is out)."""
    at = begin_data(st)
    n = st[N_SEATS]
    for s in range(DATA_WIDTH):
        st[event_value(at, s)] = nodes[s] if s < n and st[out_at(s)] == 0 else -1


@njit(cache=True, _nrt=False)
def _id_rows(st, values, count):
    """``values[:count]``, six per DATA row."""
    i = 0
    while i < count:
        row = begin_data(st)
        for k in range(DATA_WIDTH):
            st[event_value(row, k)] = values[i + k] if i + k < count else -1
        i += DATA_WIDTH


# --------------------------------------------------------------------------- decks
@njit(cache=True, _nrt=False)
def _draw(st, deck):
    """The top card of ``deck``; an empty pile is first refilled by shuffling the
    whole discard pile (every card: the others are all discarded)."""
    size = deck_size(st, deck)
    if st[top_at(deck)] >= size:
        shuffle(st, order_at(st, deck, 0), order_at(st, deck, size))
        st[top_at(deck)] = 0
        if deck == JOURNEY:
            for w in range(3):
                st[revealed_at(w)] = 0
        if st[RECORD]:
            write_shuffle(st, deck, size)
            _id_rows(st, st[order_at(st, deck, 0) : order_at(st, deck, size)], size)
    card = st[order_at(st, deck, st[top_at(deck)])]
    st[top_at(deck)] += 1
    return card


# --------------------------------------------------------------------------- money
@njit(cache=True, _nrt=False)
def _finish(st, reason, winner):
    n = st[N_SEATS]
    pv = st[rule_at(P_PLATE_VALUE)]
    for s in range(n):
        w = st[money_at(s)] + pv * st[plates_at(s)]
        st[score_at(s)] = min(max(w, -INT32_MAX), INT32_MAX)
    end_game(st, reason, winner)
    if st[RECORD]:
        legs_done = st[LEG] - 1 + st[LEG_ENDED]
        write_end(st, winner, reason, legs_done)


@njit(cache=True, _nrt=False)
def _eliminate(st, s):
    st[out_at(s)] = 1
    st[N_IN] -= 1
    st[SUPPLY_GREEN] += st[greens_at(s)]
    st[SUPPLY_WHITE] += st[whites_at(s)]
    st[SUPPLY_BARRIER] += st[barriers_at(s)]
    st[greens_at(s)] = 0
    st[whites_at(s)] = 0
    st[barriers_at(s)] = 0
    st[pos_at(s)] = -1
    st[arrived_at(s)] = 0
    if st[RECORD]:
        write_eliminate(st, s, st[money_at(s)])


@njit(cache=True, _nrt=False)
def _settle_debt(st, s):
    """Rule 14 after a payment by ``s``: sell plates while in debt, then out.
    True when the game has ended (one player left)."""
    if st[money_at(s)] >= 0:
        return False
    sale = st[rule_at(P_PLATE_SALE)]
    while st[money_at(s)] < 0 and st[plates_at(s)] > 0:
        st[plates_at(s)] -= 1
        st[SUPPLY_PLATE] += 1
        st[money_at(s)] += sale
        if st[RECORD]:
            write_sell(st, s, sale, st[money_at(s)], st[plates_at(s)])
    if st[money_at(s)] < 0 and st[rule_at(P_ELIMINATE_ON_DEBT)] != 0:
        _eliminate(st, s)
        if st[N_IN] == 1:
            last = 0
            for t in range(st[N_SEATS]):
                if st[out_at(t)] == 0:
                    last = t
            _finish(st, END_LAST_STANDING, np.int64(last))
            return True
    return False


# --------------------------------------------------------------------------- setup
@njit(cache=True, _nrt=False)
def _setup(st):
    n = st[N_SEATS]
    base = st[BASE]
    for s in range(n):
        st[money_at(s)] = st[rule_at(P_START_MONEY)]
        st[pos_at(s)] = base
        st[dest_at(s)] = st[guide_at(s, 0)]
        st[out_at(s)] = 0
    st[N_IN] = n
    st[SUPPLY_GREEN] = st[rule_at(P_GREEN_SUPPLY)]
    st[SUPPLY_WHITE] = st[rule_at(P_FREEWAY_SUPPLY)]
    st[SUPPLY_BARRIER] = st[rule_at(P_BARRIER_SUPPLY)]
    st[SUPPLY_PLATE] = st[rule_at(P_PLATE_SUPPLY)]
    for d in range(N_DECKS):
        size = deck_size(st, d)
        for i in range(size):
            st[order_at(st, d, i)] = i
        shuffle(st, order_at(st, d, 0), order_at(st, d, size))
        st[top_at(d)] = 0
        if st[RECORD]:
            write_order(st, d, size)
            _id_rows(st, st[order_at(st, d, 0) : order_at(st, d, size)], size)
    st[LEG] = 1
    if st[RECORD]:
        write_leg(st, 1)
        _seat_row_out(st, dest_view(st))
    st[NEXT] = 0
    st[PHASE] = PH_TURN_START


# --------------------------------------------------------------------------- the move menu
@njit(cache=True, _nrt=False)
def _barred(st, seg):
    for k in range(st[N_BARRED]):
        if st[barred_at(k)] == seg:
            return True
    return False


@njit(cache=True, _nrt=False, forceinline=True)
def build_menu(st):
    """List the one-street drives from the mover's node (state.py, "The move
    menu") into the menu; returns their number.

    Walks the node's drive tree (state.py, "The drive trees"): the menu is the
    breadth-first order of that tree pruned by the conditions that change
    during a game, the same entries in the same order as ``_search_menu``
    lists them (tests/taxi/test_menu.py compares both on many states).  A node
    whose tree is not kept is searched.

    The tree and the menu are read and written through views at unsigned
    indices (``unsigned``: no guard against a negative index); a view costs
    nothing more here (no reference is counted)."""
    s = st[SEAT]
    plen = st[PATH_LEN]
    room = st[PATH_CAP] - plen
    st[MENU_N] = 0
    if room <= 0:
        return 0
    u = st[path_at(st, plen - 1)]
    lo = st[out_start_at(st, u)]
    hi = st[out_start_at(st, u + 1)]
    tree = drive_tree_view(st)
    if lo < hi and tree[unsigned(lo)] < 0:
        return _search_menu(st)
    cap = st[MENU_CAP]
    g_left = st[greens_at(s)] - st[GREENS_USED]
    w_left = st[whites_at(s)] - st[WHITES_USED]
    allowance = st[ALLOWANCE]
    used = st[STREETS_USED]
    m_node = menu_node_view(st)
    m_parent = menu_parent_view(st)
    m_arc = menu_arc_view(st)
    m_steps = menu_steps_view(st)
    m_greens = menu_greens_view(st)
    m_whites = menu_whites_view(st)
    m_streets = menu_streets_view(st)
    any_barred = st[N_BARRED] > 0
    # The first step begins a street (1) unless the move goes on from a freeway
    # node or straight on along the street it last drove (0).
    first = plen == 1
    free = not first and st[freeway_at(st, u)] != 0
    cont_last = st[arc_cont_at(st, st[LAST_ARC])] if not first else -2
    # Until the queue (the menu itself) reaches an entry, its arc slot holds
    # its word in the tree; then its arc.
    n = 0
    for k in range(lo, hi):
        word = tree[unsigned(k)]
        a = word & TREE_ARC_MASK
        cost = 0 if free or a == cont_last else 1
        if used + cost > allowance:
            continue
        g = (word >> TREE_LIT_SHIFT) & 1
        w = (word >> TREE_ENTRY_SHIFT) & 1
        if g > g_left or w > w_left:
            continue
        if any_barred and _barred(st, st[arc_seg_at(st, a)]):
            continue
        if n >= cap:
            break
        m_node[unsigned(n)] = (word >> TREE_NODE_SHIFT) & TREE_NODE_MASK
        m_parent[unsigned(n)] = -1
        m_arc[unsigned(n)] = word
        m_steps[unsigned(n)] = 1
        m_greens[unsigned(n)] = g
        m_whites[unsigned(n)] = w
        m_streets[unsigned(n)] = used + cost
        n += 1
    i = 0
    while i < n and n < cap:
        word = m_arc[unsigned(i)]
        m_arc[unsigned(i)] = word & TREE_ARC_MASK
        steps = m_steps[unsigned(i)]
        if steps < room:
            first_kid = (word >> TREE_KIDS_SHIFT) & TREE_KIDS_MASK
            kids = (word >> TREE_COUNT_SHIFT) & TREE_COUNT_MASK
            gi = m_greens[unsigned(i)]
            wi = m_whites[unsigned(i)]
            streets = m_streets[unsigned(i)]
            for c in range(first_kid, first_kid + kids):
                kid = tree[unsigned(c)]
                g = gi + ((kid >> TREE_LIT_SHIFT) & 1)
                w = wi + ((kid >> TREE_ENTRY_SHIFT) & 1)
                if g > g_left or w > w_left:
                    continue
                if any_barred and _barred(st, st[arc_seg_at(st, kid & TREE_ARC_MASK)]):
                    continue
                if n >= cap:
                    break
                m_node[unsigned(n)] = (kid >> TREE_NODE_SHIFT) & TREE_NODE_MASK
                m_parent[unsigned(n)] = i
                m_arc[unsigned(n)] = kid
                m_steps[unsigned(n)] = steps + 1
                m_greens[unsigned(n)] = g
                m_whites[unsigned(n)] = w
                m_streets[unsigned(n)] = streets
                n += 1
        i += 1
    for j in range(i, n):  # the entries the queue did not reach (a full menu)
        m_arc[unsigned(j)] = m_arc[unsigned(j)] & TREE_ARC_MASK
    st[MENU_N] = n
    return n


@njit(cache=True, _nrt=False)
def _search_menu(st):
    """The move menu by a breadth-first search over the board's arcs (what
    build_menu does from a node whose drive tree is not kept, and the
    reference its tests compare it with)."""
    s = st[SEAT]
    plen = st[PATH_LEN]
    room = st[PATH_CAP] - plen
    st[MENU_N] = 0
    if room <= 0:
        return 0
    cap = st[MENU_CAP]
    u = path_view(st)[plen - 1]
    g_left = st[greens_at(s)] - st[GREENS_USED]
    w_left = st[whites_at(s)] - st[WHITES_USED]
    allowance = st[ALLOWANCE]
    used = st[STREETS_USED]
    fw = freeway_view(st)
    lit = lit_view(st)
    arc_to = arc_to_view(st)
    arc_seg = arc_seg_view(st)
    arc_entry = arc_entry_view(st)
    arc_cont = arc_cont_view(st)
    out_start = out_start_view(st)
    out_arc = out_arc_view(st)
    m_node = menu_node_view(st)
    m_parent = menu_parent_view(st)
    m_arc = menu_arc_view(st)
    m_steps = menu_steps_view(st)
    m_greens = menu_greens_view(st)
    m_whites = menu_whites_view(st)
    m_streets = menu_streets_view(st)
    any_barred = st[N_BARRED] > 0
    u_fw = fw[u] != 0
    first = plen == 1
    cont_last = arc_cont[st[LAST_ARC]] if not first else -2
    n = 0
    for k in range(out_start[u], out_start[u + 1]):
        a = out_arc[k]
        cost = 1
        if not first and (u_fw or a == cont_last):
            cost = 0
        if used + cost > allowance:
            continue
        v = arc_to[a]
        g = lit[v]
        w = arc_entry[a]
        if g > g_left or w > w_left:
            continue
        if any_barred and _barred(st, arc_seg[a]):
            continue
        if n >= cap:
            break
        m_node[n] = v
        m_parent[n] = -1
        m_arc[n] = a
        m_steps[n] = 1
        m_greens[n] = g
        m_whites[n] = w
        m_streets[n] = used + cost
        n += 1
    i = 0
    while i < n:
        steps = m_steps[i]
        if steps >= room:
            i += 1
            continue
        v = m_node[i]
        a = m_arc[i]
        if fw[v] != 0:
            lo = out_start[v]
            hi = out_start[v + 1]
        else:
            lo = 0
            hi = 0
            if arc_cont[a] >= 0:
                hi = 1
        for k in range(lo, hi):
            b = out_arc[k] if fw[v] != 0 else arc_cont[a]
            x = arc_to[b]
            g = m_greens[i] + lit[x]
            w = m_whites[i] + arc_entry[b]
            if g > g_left or w > w_left:
                continue
            if any_barred and _barred(st, arc_seg[b]):
                continue
            if x == u and not u_fw:
                continue
            j = i
            seen = False
            while j >= 0:
                if m_node[j] == x:
                    seen = True
                    break
                j = m_parent[j]
            if seen:
                continue
            if n >= cap:
                break
            m_node[n] = x
            m_parent[n] = i
            m_arc[n] = b
            m_steps[n] = steps + 1
            m_greens[n] = g
            m_whites[n] = w
            m_streets[n] = m_streets[i]
            n += 1
        i += 1
    st[MENU_N] = n
    return n


@njit(cache=True, _nrt=False, forceinline=True)
def _take_entry(st, e):
    plen = st[PATH_LEN]
    steps = st[menu_steps_at(st, e)]
    path = path_view(st)
    m_node = menu_node_view(st)
    m_parent = menu_parent_view(st)
    k = plen + steps - 1  # an entry is one segment longer than the entry it extends
    j = e
    while j >= 0:
        path[unsigned(k)] = m_node[unsigned(j)]
        j = m_parent[unsigned(j)]
        k -= 1
    st[PATH_LEN] = plen + steps
    st[LAST_ARC] = st[menu_arc_at(st, e)]
    st[STREETS_USED] = st[menu_streets_at(st, e)]
    st[GREENS_USED] += st[menu_greens_at(st, e)]
    st[WHITES_USED] += st[menu_whites_at(st, e)]
    st[DRIVES] += 1


@njit(cache=True, _nrt=False, forceinline=False)
def _end_move(st, legal):
    """The move is over: an illegal one (a bad answer, or a stop the rules do not
    allow) is undone: the taxi stays put and spends nothing."""
    s = st[SEAT]
    if not legal:
        st[PATH_LEN] = 1
        st[STREETS_USED] = 0
        st[GREENS_USED] = 0
        st[WHITES_USED] = 0
    gu = st[GREENS_USED]
    wu = st[WHITES_USED]
    st[greens_at(s)] -= gu
    st[SUPPLY_GREEN] += gu
    st[whites_at(s)] -= wu
    st[SUPPLY_WHITE] += wu
    plen = st[PATH_LEN]
    end = st[path_at(st, plen - 1)]
    st[pos_at(s)] = end
    st[MENU_N] = 0
    if st[RECORD]:
        write_move(st, s, plen, st[STREETS_USED], gu, wu)
        write_data(st, st[greens_at(s)], st[whites_at(s)], 0, 0, 0, 0)
        _id_rows(st, path_view(st), plen)
    if plen > 1 and end == st[dest_at(s)]:
        st[arrived_at(s)] = 1
        st[ANY_ARRIVED] = 1
        if st[RECORD]:
            write_arrive(st, s, end, st[LEG])
    st[PHASE] = PH_TABLET


# --------------------------------------------------------------------------- gambles
@njit(cache=True, _nrt=False)
def _reveal(st):
    h = st[HOLDER]
    word = st[CARD_KIND] - C_GAMBLE_MONEY  # 0 money, 1 freeway, 2 taxi
    right = word + 1
    stake = st[rule_at(P_MONEY_STAKE)]
    prize = st[rule_at(P_MONEY_PRIZE)]
    taxi_stake = st[rule_at(P_TAXI_STAKE)]
    n_won = 0
    winners = 0  # packed seats, 4 bits each, in betting order
    c = next_in(st, h)
    while c != h:
        b = st[bet_at(c)]
        if b == right:
            winners |= c << (4 * n_won)
            n_won += 1
            if b == BET_MONEY:
                st[money_at(c)] += prize
            elif b == BET_FREEWAY:
                if st[SUPPLY_WHITE] > 0:
                    st[whites_at(c)] += 1
                    st[SUPPLY_WHITE] -= 1
            else:
                if st[SUPPLY_PLATE] > 0:
                    st[plates_at(c)] += 1
                    st[SUPPLY_PLATE] -= 1
        elif b == BET_MONEY:
            st[money_at(c)] -= stake
            st[money_at(h)] += stake
        elif b == BET_FREEWAY:
            st[greens_at(c)] -= 1
            st[greens_at(h)] += 1
        elif b == BET_TAXI:
            st[money_at(c)] -= taxi_stake
            st[money_at(h)] += taxi_stake
        c = next_in(st, c)
    st[revealed_at(word)] += 1
    if st[RECORD]:
        write_reveal(st, h, word, n_won)
        at = begin_data(st)
        for k in range(DATA_WIDTH):
            st[event_value(at, k)] = (winners >> (4 * k)) & 15 if k < n_won else -1
        _seat_row(st, money_view(st), 0)
        _seat_row(st, greens_view(st), 0)
        _seat_row(st, whites_view(st), 0)
        _seat_row(st, plates_view(st), 0)


# --------------------------------------------------------------------------- the rules
@njit(cache=True, _nrt=False)
def _draw_card(st):
    """Rule 3.3: the chosen card takes effect.  False when the game ended."""
    s = st[SEAT]
    deck = st[CARD_DECK]
    if deck < 0:
        if st[RECORD]:
            write_card(st, s, -1, -1, st[money_at(s)], st[greens_at(s)], st[whites_at(s)])
            write_data(st, st[barriers_at(s)], st[plates_at(s)], 0, 0, 0, 0)
        st[PHASE] = PH_ROLL
        return True
    card = _draw(st, deck)
    kind = card_kind(st, deck, card)
    v = card_value(st, deck, card)
    st[CARD_ID] = card
    st[CARD_KIND] = kind
    paid = False
    if kind == C_CASH:
        st[money_at(s)] += v
        paid = v < 0
    elif kind == C_FINE or kind == C_EXPENSE:
        st[money_at(s)] -= v
        paid = True
    elif kind == C_GREEN:
        if v > 0:
            t = min(v, st[SUPPLY_GREEN])
        else:
            t = -min(-v, st[greens_at(s)])
        st[greens_at(s)] += t
        st[SUPPLY_GREEN] -= t
    elif kind == C_FREEWAY:
        if v > 0:
            t = min(v, st[SUPPLY_WHITE])
        else:
            t = -min(-v, st[whites_at(s)])
        st[whites_at(s)] += t
        st[SUPPLY_WHITE] -= t
    elif kind == C_STREETS:
        st[BONUS] = v
    elif kind == C_NO_MOVE:
        st[NO_MOVE] = 1
    elif kind == C_ROADWORK:
        if st[SUPPLY_BARRIER] > 0:
            st[barriers_at(s)] += 1
            st[SUPPLY_BARRIER] -= 1
    if st[RECORD]:
        write_card(st, s, deck, card, st[money_at(s)], st[greens_at(s)], st[whites_at(s)])
        write_data(st, st[barriers_at(s)], st[plates_at(s)], 0, 0, 0, 0)
    if kind >= C_GAMBLE_MONEY:
        st[HOLDER] = s
        for t in range(st[N_SEATS]):
            st[bet_at(t)] = -1
        st[CURSOR] = s
        st[PHASE] = PH_BET
        return True
    if paid and st[money_at(s)] < 0:
        if _settle_debt(st, s):
            return False
        if st[out_at(s)] != 0:
            st[PHASE] = PH_TURN_END
            return True
    st[PHASE] = PH_ROLL
    return True


@njit(cache=True, _nrt=False)
def _leg_end(st):
    """Rule 11: bonus, jumps, charges; then the next leg or the end.  False when
    the game ended."""
    n = st[N_SEATS]
    k = 0
    for s in range(n):
        if st[arrived_at(s)] != 0 and st[out_at(s)] == 0:
            k += 1
    share = (st[rule_at(P_DESTINATION_BONUS)] // max(k, 1)) // 10 * 10
    for s in range(n):
        if st[out_at(s)] != 0:
            continue
        if st[arrived_at(s)] != 0:
            st[money_at(s)] += share
        else:
            st[pos_at(s)] = st[dest_at(s)]
    st[LEG_ENDED] = 1
    if st[RECORD]:
        write_leg_end(st, st[LEG], share)
        _seat_row(st, arrived_view(st), 0)
        _seat_row(st, money_view(st), 0)
        _seat_row_out(st, pos_view(st))
    last_leg = st[LEG] >= st[LEGS]
    fee = st[rule_at(P_HIRE_FEE)]
    per_plate = st[rule_at(P_EXPENSE_PER_PLATE)] != 0
    free_last = st[rule_at(P_FINAL_HIRE_FEE)] == 0
    for s in range(n):
        if st[out_at(s)] != 0:
            continue
        paid = True
        if st[plates_at(s)] > 0:
            cards = st[plates_at(s)] if per_plate else 1
            for _ in range(cards):
                card = _draw(st, EXPENSE_DECK)
                amount = st[expense_value_at(st, card)]
                st[money_at(s)] -= amount
                if st[RECORD]:
                    write_expense(st, s, card, amount, st[money_at(s)])
        elif last_leg and free_last:
            paid = False
        else:
            st[money_at(s)] -= fee
            if st[RECORD]:
                write_hire(st, s, fee, st[money_at(s)])
        if paid and st[money_at(s)] < 0:
            if _settle_debt(st, s):
                return False
    if last_leg:
        pv = st[rule_at(P_PLATE_VALUE)]
        best = -1
        best_w = 0
        tie = False
        for s in range(n):
            if st[out_at(s)] != 0:
                continue
            w = st[money_at(s)] + pv * st[plates_at(s)]
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
    for s in range(n):
        st[arrived_at(s)] = 0
        st[dest_at(s)] = st[guide_at(s, st[LEG] - 1)]
    if st[RECORD]:
        write_leg(st, st[LEG])
        _seat_row_out(st, dest_view(st))
    if st[rule_at(P_ARRIVAL_WINDOW)] == 0:
        st[NEXT] = next_in(st, np.int64(n - 1))  # a new round: the lowest seat still in
    else:
        st[NEXT] = next_in(st, st[SEAT])
    st[PHASE] = PH_TURN_START
    return True


@njit(cache=True, _nrt=False)
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
            _end_move(st, can_end(st, st[path_at(st, st[PATH_LEN] - 1)]))
        elif ph == PH_TURN_START:
            if st[TURN] >= st[rule_at(P_MAX_TURNS)]:
                _finish(st, END_TURN_LIMIT, NO_WINNER)
                return
            s = st[NEXT]
            st[TURN] += 1
            st[SEAT] = s
            if st[RECORD]:
                write_turn(st, s)
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
            while c != s and st[barriers_at(c)] == 0:
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
            if st[SUPPLY_PLATE] > 0 and st[money_at(s)] >= st[rule_at(P_PLATE_PRICE)]:
                ask(st, s, KIND_BUY, st[rule_at(P_PLATE_PRICE)])
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
                    write_roll(st, s, die, st[BONUS])
                st[path_at(st, 0)] = st[pos_at(s)]
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
            ff = st[rule_at(P_FREEWAY_FACES)]
            gf = st[rule_at(P_GREEN_FACES)]
            granted = 0
            if face <= ff:
                result = 0
                if st[SUPPLY_WHITE] > 0:
                    st[SUPPLY_WHITE] -= 1
                    st[whites_at(s)] += 1
                    granted = 1
            elif face <= ff + gf:
                result = 1
                if st[SUPPLY_GREEN] > 0:
                    st[SUPPLY_GREEN] -= 1
                    st[greens_at(s)] += 1
                    granted = 1
            else:
                result = 2
            if st[RECORD]:
                write_tablet(st, s, face, result, granted, st[greens_at(s)], st[whites_at(s)])
            st[PHASE] = PH_TURN_END
        elif ph == PH_TURN_END:
            s = st[SEAT]
            st[SUPPLY_BARRIER] += st[N_BARRED]
            st[N_BARRED] = 0
            if st[rule_at(P_ARRIVAL_WINDOW)] == 0:
                last = True
                for t in range(s + 1, st[N_SEATS]):
                    if st[out_at(t)] == 0:
                        last = False
                        break
                if last and st[ANY_ARRIVED] != 0:
                    st[PHASE] = PH_LEG_END
                    continue
            elif st[arrived_at(s)] != 0:
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


@njit(cache=True, _nrt=False, forceinline=True)
def apply(st, answer):
    """Resolve the pending decision; an illegal answer becomes the passive one.
    Compiled into the engine's loops (``forceinline``), a drive taken with it;
    the end of a move stays a call (``_end_move``, ``forceinline=False``)."""
    seat = st[DECIDER]
    kind = st[DECISION]
    st[DECIDER] = -1
    if kind == KIND_MOVE:
        if answer == STOP:
            _end_move(st, can_end(st, st[path_at(st, st[PATH_LEN] - 1)]))
        elif 0 <= answer < st[MENU_N]:
            _take_entry(st, answer)
        else:
            _end_move(st, False)
    elif kind == KIND_CARD:
        if answer == 0 or answer == 1:
            st[CARD_DECK] = answer
        elif answer == CARD_NONE and st[rule_at(P_CARD_OPTIONAL)] != 0:
            st[CARD_DECK] = -1
        else:
            st[CARD_DECK] = PASSENGER
        st[PHASE] = PH_DRAW
    elif kind == KIND_BET:
        w = BET_NONE
        if answer == BET_MONEY and st[money_at(seat)] >= st[rule_at(P_MONEY_STAKE)]:
            w = BET_MONEY
        elif answer == BET_FREEWAY and st[greens_at(seat)] >= 1:
            w = BET_FREEWAY
        elif answer == BET_TAXI and st[money_at(seat)] >= st[rule_at(P_TAXI_STAKE)]:
            w = BET_TAXI
        st[bet_at(seat)] = w
        if st[RECORD]:
            write_bet(st, seat, st[HOLDER], w)
    elif kind == KIND_BARRIER:
        target = st[SEAT]
        if 0 <= answer < st[N_SEGS] and not _barred(st, answer) and st[barriers_at(seat)] > 0:
            st[barred_at(st[N_BARRED])] = answer
            st[N_BARRED] += 1
            st[barriers_at(seat)] -= 1
            if st[RECORD]:
                a = st[seg_a_at(st, answer)]
                b = st[seg_b_at(st, answer)]
                write_barrier(st, seat, target, a, b, st[barriers_at(seat)])
    elif kind == KIND_BUY:
        price = st[rule_at(P_PLATE_PRICE)]
        if answer == 1 and st[money_at(seat)] >= price and st[SUPPLY_PLATE] > 0:
            st[money_at(seat)] -= price
            st[plates_at(seat)] += 1
            st[SUPPLY_PLATE] -= 1
            if st[RECORD]:
                write_buy(st, seat, price, st[money_at(seat)], st[plates_at(seat)])


# --------------------------------------------------------------------------- the search player
@njit(cache=True, _nrt=False)
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
        if st[rule_at(P_CARD_OPTIONAL)] != 0:
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
        if st[money_at(seat)] >= st[rule_at(P_MONEY_STAKE)]:
            out[n] = BET_MONEY
            n += 1
        if st[greens_at(seat)] >= 1:
            out[n] = BET_FREEWAY
            n += 1
        if st[money_at(seat)] >= st[rule_at(P_TAXI_STAKE)]:
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


@njit(cache=True, _nrt=False)
def _drive_key(st, seat, i):
    """Drive's order of a menu entry: D0 to the stop, tablets, segments, end node."""
    x = st[menu_node_at(st, i)]
    d = d0(st, x, st[dest_at(seat)])
    t = st[menu_greens_at(st, i)] + st[menu_whites_at(st, i)]
    return ((d * 64 + min(t, 63)) * 1024 + min(st[menu_steps_at(st, i)], 1023)) * 65536 + x


@njit(cache=True, _nrt=False)
def _move_candidates(st, seat, out):
    """The first drive of a move: the MOVE_CANDIDATES best drives by Drive's order
    (one per end node) that may end the move."""
    n = 0
    for i in range(st[MENU_N]):
        x = st[menu_node_at(st, i)]
        if not can_end(st, x):
            continue
        key = _drive_key(st, seat, i)
        dup = -1
        for j in range(n):
            if st[menu_node_at(st, out[j])] == x:
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


@njit(cache=True, _nrt=False)
def determinize(st, seat):
    """A search copy as ``seat`` sees it: every draw pile in a new order (the
    discard piles are known), and during a gamble the card in the holder's hand
    one of the gamble cards not revealed since the last Journey shuffle."""
    for d in range(N_DECKS):
        shuffle(st, order_at(st, d, st[top_at(d)]), order_at(st, d, deck_size(st, d)))
    if st[DECISION] == KIND_BET and st[DECIDER] == seat and st[HOLDER] != seat:
        order = journey_order_view(st)
        top = st[top_at(JOURNEY)]
        size = st[JOURNEY_CARDS]
        m = 1
        for i in range(top, size):
            if st[journey_kind_at(st, order[i])] >= C_GAMBLE_MONEY:
                m += 1
        r = draw_below(st, np.int64(m))
        if r > 0:
            for i in range(top, size):
                if st[journey_kind_at(st, order[i])] >= C_GAMBLE_MONEY:
                    r -= 1
                    if r == 0:
                        held = order[top - 1]
                        order[top - 1] = order[i]
                        order[i] = held
                        st[CARD_ID] = order[top - 1]
                        st[CARD_KIND] = st[journey_kind_at(st, st[CARD_ID])]
                        break


@njit(cache=True, _nrt=False)
def standing(st, seat):
    """What a seat is worth in a playout cut by the horizon: its wealth, its
    tablets ($500 a green, $1,000 a freeway tablet: what they win in races), and
    its expected share of the current leg's bonus (the arrivals' share; else
    shared among the seats racing in proportion to 1 / (1 + D0 to their stop)^2)."""
    pv = st[rule_at(P_PLATE_VALUE)]
    w = st[money_at(seat)] + pv * st[plates_at(seat)] + 500 * st[greens_at(seat)] + 1000 * st[whites_at(seat)]
    bonus = st[rule_at(P_DESTINATION_BONUS)]
    n = st[N_SEATS]
    arrived = 0
    for s in range(n):
        if st[out_at(s)] == 0 and st[arrived_at(s)] != 0:
            arrived += 1
    if st[LEG_ENDED] != 0:
        return w
    if arrived > 0:
        return w + (bonus // arrived if st[arrived_at(seat)] != 0 else 0)
    mine = 0.0
    total = 0.0
    for s in range(n):
        if st[out_at(s)] == 0:
            d = d0(st, st[pos_at(s)], st[dest_at(s)])
            m = 1.0 / ((1.0 + d) * (1.0 + d))
            total += m
            if s == seat:
                mine = m
    return w + np.int64(bonus * mine / total)


@njit(cache=True, _nrt=False)
def evaluate(st, seat):
    """A finished playout: VALUE_SCALE for a win, 0 otherwise.  A playout cut by
    the horizon: 0 when out, else from the lead of its ``standing`` over the best
    opponent's, relative to what the legs left can still move (about $3,000 a
    leg): VALUE_SCALE/2 for level, towards VALUE_SCALE for a clear lead."""
    if st[END_REASON] >= 0:
        return VALUE_SCALE if st[WINNER] == seat else 0
    if st[out_at(seat)] != 0:
        return 0
    mine = standing(st, seat)
    best = -(1 << 62)
    for s in range(st[N_SEATS]):
        if s != seat and st[out_at(s)] == 0:
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
