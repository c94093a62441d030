"""Tag City's heuristic players (RULES.md, "Players"; the specification's
section (e), to the letter: its reference figures were measured with them).

Every player answers two questions (state.py documents the answers):

* ``KIND_ASSIGN``: the leader puts each die on one of the two ring slots of its
  face; the heuristics put it on the slot whose tile has the better best value
  on their own sheet (no legal placement: minus infinity; a tie: the first slot).
* ``KIND_ACT``: which die to take and what to do with it.

Values, as exact integers (``state.best_cached``, ``state.placement_value``), for the acting seat and
a legal placement S: ``gain`` = the values of the targets S completes now,
``progress`` = the sum of w * k / e over the targets S touches without
completing them, ``contact`` = sides of S against the sheet's edge or painted
cells.  V1 = 10 gain + progress (greedy), V2 = 3 gain + progress + 0.5 contact
(builder, sniper, closer); both are kept multiplied by 2L.

The weights are each player's parameters (``gain_weight``, ``contact_halves``:
V = gain_weight * gain + progress + contact_halves / 2 * contact), their
defaults the specification's V1 (greedy) and V2 (the others); closer's
``close_circles`` is the specification's "1 or 2 circles free".
"""

from __future__ import annotations

import numpy as np
from numba import njit

from balance.game import Param, PlayerInfo
from balance.state import N_SEATS, draw_below, memory, player_param, remember, score_at
from sims.tagcity.params import P_SOCIAL_POINTS
from sims.tagcity.state import (
    ACT_DRONE,
    ACT_PAINT,
    ACT_SOCIAL,
    B_COLS,
    B_TARGETS,
    B_WORDS,
    FREE_CIRCLES,
    KIND_ASSIGN,
    N_DICE,
    N_POOL,
    NO_VALUE,
    POOL_LONG,
    POOL_MAX,
    V1,
    V2,
    act,
    any_legal,
    best_cached,
    can_drone,
    count_legal,
    dice_at,
    die_shape,
    drone_pool_at,
    drone_cost,
    empty_at,
    faces_at,
    lowest_bit,
    lowest_free_circle,
    lowest_offered,
    n_free_circles,
    nth_legal,
    offered,
    ring_at,
    row_of_at,
    rule_at,
    sheet_at,
    target_mask_at,
    value_type,
    weight_at,
)

VALUE_1 = np.int64(V1)  # greedy's value
VALUE_2 = np.int64(V2)  # builder's, sniper's and closer's

# The parameters of greedy, builder, sniper and closer, in declaration order.
K_GAIN_WEIGHT = 0
K_CONTACT_HALVES = 1
K_CLOSE_CIRCLES = 2  # closer's only

RANK_PAINT = 2
RANK_DRONE = 1
RANK_SOCIAL = 0
_SLOTS_DONE = np.int64(12)  # memory slot: bit k = ring slot k's value is in memory slot k


# --------------------------------------------------------------------------- building blocks
@njit(cache=True)
def assign_by_value(st, seat, vtype):
    """Each die on the slot whose tile has the better best value on ``seat``'s
    sheet (no legal placement: minus infinity; a tie: the first slot)."""
    remember(st, seat, _SLOTS_DONE, np.int64(0))
    mask = 0
    for d in range(st[N_DICE]):
        face = st[dice_at(d)] - 1
        a = _slot_value(st, seat, st[faces_at(face, 0)], vtype)
        b = _slot_value(st, seat, st[faces_at(face, 1)], vtype)
        if b > a:
            mask |= 1 << d
    return mask


@njit(cache=True)
def _slot_value(st, seat, slot, vtype):
    done = memory(st, seat, _SLOTS_DONE)
    if (done >> slot) & 1:
        return memory(st, seat, slot)
    _, value, _ = best_cached(st, seat, st[ring_at(slot)], vtype)
    remember(st, seat, slot, value)
    remember(st, seat, _SLOTS_DONE, done | (1 << slot))
    return value


@njit(cache=True)
def best_paint(st, seat, vtype):
    """(die, placement, value, gain): for each offered die in index order the
    best placement of its tile; the highest value (ties: the lower die)."""
    best_die = -1
    best_p = -1
    best_value = NO_VALUE
    best_gain = 0
    seen = 0
    for d in range(st[N_DICE]):
        if not offered(st, d):
            continue
        s = die_shape(st, d)
        if (seen >> s) & 1:  # the same tile as a lower die: the same values, the lower die kept
            continue
        seen |= 1 << s
        p, value, gain = best_cached(st, seat, s, vtype)
        if p >= 0 and value > best_value:
            best_die = d
            best_p = p
            best_value = value
            best_gain = gain
    return best_die, best_p, best_value, best_gain


@njit(cache=True)
def best_drone(st, seat, vtype):
    """(placement, value, gain): the best placement over the drone pool in HQ
    order (ring slots, then centre; each tile once)."""
    best_p = -1
    best_value = NO_VALUE
    best_gain = 0
    for i in range(st[N_POOL]):
        p, value, gain = best_cached(st, seat, st[drone_pool_at(i)], vtype)
        if p >= 0 and value > best_value:
            best_p = p
            best_value = value
            best_gain = gain
    return best_p, best_value, best_gain


@njit(cache=True)
def drone_gain_bound(st, seat):
    """An upper bound on what any drone placement scores now: the positive
    values of the targets one pool tile might complete, those whose empty
    cells are at most the largest pool tile's count and fit a bounding box
    of h x w with h + w - 1 cells at most that count (a connected tile
    spanning it has that many) and a longest side at most the pool's."""
    bound = 0
    largest = st[POOL_MAX]
    longest = st[POOL_LONG]
    cols = st[B_COLS]
    words = st[B_WORDS]
    for t in range(st[B_TARGETS]):
        e = st[empty_at(seat, t)]
        if e < 1 or e > largest or st[weight_at(t)] <= 0:
            continue
        r_lo = 1 << 20
        r_hi = -1
        c_lo = 1 << 20
        c_hi = -1
        for k in range(words):
            m = st[target_mask_at(t, k)] & ~st[sheet_at(seat, k)]
            while m != 0:
                x = 64 * k + lowest_bit(m)
                m &= m - 1
                r = st[row_of_at(x)]
                c = x - r * cols
                r_lo = min(r_lo, r)
                r_hi = max(r_hi, r)
                c_lo = min(c_lo, c)
                c_hi = max(c_hi, c)
        h = r_hi - r_lo + 1
        w = c_hi - c_lo + 1
        if h + w - 1 <= largest and max(h, w) <= longest:
            bound += st[weight_at(t)]
    return bound


@njit(cache=True)
def social_now(st):
    """Points a social action scores now (0 with no free circle)."""
    return st[rule_at(P_SOCIAL_POINTS)] if st[FREE_CIRCLES] != 0 else 0


@njit(cache=True)
def social_answer(st):
    return act(ACT_SOCIAL, lowest_offered(st), max(lowest_free_circle(st), 0))


@njit(cache=True)
def take_points(st, seat, vtype):
    """greedy and sniper: the candidate with the largest (points now, kind rank
    paint > drone > social, value)."""
    die, p, _, gain = best_paint(st, seat, vtype)
    sp = social_now(st)
    best_pts = sp
    best_rank = RANK_SOCIAL
    answer = social_answer(st)
    if p >= 0 and (gain > best_pts or (gain == best_pts and RANK_PAINT > best_rank)):
        best_pts = gain
        best_rank = RANK_PAINT
        answer = act(ACT_PAINT, die, p)
    if can_drone(st, seat) and st[N_POOL] > 0:
        cost = drone_cost(st, seat)
        # Exact shortcut: skip the search when no drone can win.
        top = drone_gain_bound(st, seat) + cost
        if top > best_pts or (top == best_pts and RANK_DRONE > best_rank):
            dp, _, dgain = best_drone(st, seat, vtype)
            pts = dgain + cost
            if dp >= 0 and (pts > best_pts or (pts == best_pts and RANK_DRONE > best_rank)):
                answer = act(ACT_DRONE, lowest_offered(st), dp)
    return answer


@njit(cache=True)
def build(st, seat, vtype):
    """builder: paint if any offered die can be painted; else drone if a box is
    free and the drone's points now are at least social's; else social."""
    die, p, _, _ = best_paint(st, seat, vtype)
    if p >= 0:
        return act(ACT_PAINT, die, p)
    return stuck(st, seat, vtype)


@njit(cache=True)
def stuck(st, seat, vtype):
    """No paint: a drone if it scores at least what social scores now, else social."""
    sp = social_now(st)
    if can_drone(st, seat) and st[N_POOL] > 0:
        cost = drone_cost(st, seat)
        if drone_gain_bound(st, seat) + cost >= sp:
            dp, _, dgain = best_drone(st, seat, vtype)
            if dp >= 0 and dgain + cost >= sp:
                return act(ACT_DRONE, lowest_offered(st), dp)
    return social_answer(st)


@njit(cache=True)
def leads(st, seat):
    """``seat``'s score is strictly above every other seat's."""
    mine = st[score_at(seat)]
    for s in range(st[N_SEATS]):
        if s != seat and st[score_at(s)] >= mine:
            return False
    return True


@njit(cache=True, inline="always")
def own_value(st, seat):
    """The value type of the player in ``seat`` (its weights; V1 or V2 at the defaults)."""
    return value_type(player_param(st, seat, K_GAIN_WEIGHT), player_param(st, seat, K_CONTACT_HALVES))


# --------------------------------------------------------------------------- the players
@njit(cache=True)
def random_player(kind, seat, subject, st):
    """Uniform among the legal choices, step by step (RULES.md, "Players")."""
    if kind == KIND_ASSIGN:
        mask = 0
        for d in range(st[N_DICE]):
            if draw_below(st, np.int64(2)) == 1:
                mask |= 1 << d
        return mask
    n_off = 0
    for d in range(st[N_DICE]):
        if offered(st, d):
            n_off += 1
    j = draw_below(st, np.int64(n_off))
    die = -1
    for d in range(st[N_DICE]):
        if offered(st, d):
            if j == 0:
                die = d
                break
            j -= 1
    shape = die_shape(st, die)
    paint_ok = any_legal(st, seat, shape)
    n_drone_shapes = 0
    if can_drone(st, seat):
        for i in range(st[N_POOL]):
            if any_legal(st, seat, st[drone_pool_at(i)]):
                n_drone_shapes += 1
    n_kinds = 1 + (1 if paint_ok else 0) + (1 if n_drone_shapes > 0 else 0)
    k = draw_below(st, np.int64(n_kinds))
    if paint_ok:
        if k == 0:
            j = draw_below(st, np.int64(count_legal(st, seat, shape)))
            return act(ACT_PAINT, die, nth_legal(st, seat, shape, j))
        k -= 1
    if n_drone_shapes > 0:
        if k == 0:
            j = draw_below(st, np.int64(n_drone_shapes))
            for i in range(st[N_POOL]):
                s = st[drone_pool_at(i)]
                if any_legal(st, seat, s):
                    if j == 0:
                        m = draw_below(st, np.int64(count_legal(st, seat, s)))
                        return act(ACT_DRONE, die, nth_legal(st, seat, s, m))
                    j -= 1
        k -= 1
    free = n_free_circles(st)
    circle = np.int64(0)
    if free > 0:
        j = draw_below(st, np.int64(free))
        while True:
            if (st[FREE_CIRCLES] >> circle) & 1:
                if j == 0:
                    break
                j -= 1
            circle += 1
    return act(ACT_SOCIAL, die, circle)


@njit(cache=True)
def greedy(kind, seat, subject, st):
    """V1 (its weights); takes points now: drones whenever a drone scores more now than any paint."""
    vtype = own_value(st, seat)
    if kind == KIND_ASSIGN:
        return assign_by_value(st, seat, vtype)
    return take_points(st, seat, vtype)


@njit(cache=True)
def builder(kind, seat, subject, st):
    """V2 (its weights); packs the city: paints whenever it can, drones only when stuck."""
    vtype = own_value(st, seat)
    if kind == KIND_ASSIGN:
        return assign_by_value(st, seat, vtype)
    return build(st, seat, vtype)


@njit(cache=True)
def sniper(kind, seat, subject, st):
    """V2 (its weights), chosen like greedy: packs the city but drones whenever that pays now."""
    vtype = own_value(st, seat)
    if kind == KIND_ASSIGN:
        return assign_by_value(st, seat, vtype)
    return take_points(st, seat, vtype)


@njit(cache=True)
def closer(kind, seat, subject, st):
    """builder, but with 1 to ``close_circles`` (2) circles free and a strict lead
    it checks social networks rather than paint for nothing: it runs the clock out."""
    vtype = own_value(st, seat)
    if kind == KIND_ASSIGN:
        return assign_by_value(st, seat, vtype)
    die, p, _, gain = best_paint(st, seat, vtype)
    free = n_free_circles(st)
    if 1 <= free <= player_param(st, seat, K_CLOSE_CIRCLES) and leads(st, seat) and (p < 0 or gain == 0):
        return social_answer(st)
    if p >= 0:
        return act(ACT_PAINT, die, p)
    return stuck(st, seat, vtype)


def _value_params(gain_weight: int, contact_halves: int) -> tuple[Param, ...]:
    """The weights of a player's value V (the order of K_*)."""
    return (
        Param(
            "gain_weight", "int", gain_weight,
            "weight of the points a placement scores now in its value V (V1: 10, V2: 3)",
            "reading: the specification's V1 and V2 (section (e)); 0..30 spans points-blind to points-only",
            low=0, high=30,
        ),
        Param(
            "contact_halves", "int", contact_halves,
            "weight of each side of contact (on the sheet's edge or a painted cell) in V, in half points "
            "(V1: 0, V2: 1 = 1/2 a point per side)",
            "reading: the specification's V1 and V2 (section (e)); up to 6 points per side (a trained sniper "
            "went to the top of 0..6, docs/train.md)",
            low=0, high=12,
        ),
    )


PLAYERS = (
    PlayerInfo(
        "random",
        "uniform among the legal choices: a die, an action kind, then a placement or a circle",
        random_player,
        stochastic=True,
    ),
    PlayerInfo("greedy", "takes points now (value V1): drones whenever a drone scores more now than any paint", greedy,
               params=_value_params(10, 0)),
    PlayerInfo("builder", "packs the city (value V2): paints whenever it can, drones only when stuck", builder,
               params=_value_params(3, 1)),
    PlayerInfo(
        "sniper", "packs the city (value V2) but drones whenever a drone scores more now than any paint", sniper,
        params=_value_params(3, 1),
    ),
    PlayerInfo(
        "closer",
        "builder, but with 1 or 2 circles left and a strict lead checks social networks rather than paint for nothing",
        closer,
        params=(
            *_value_params(3, 1),
            Param(
                "close_circles", "int", 2,
                "the most free circles at which, leading strictly and with no paint that scores, it checks social "
                "networks to run the clock out (0: never)",
                "reading: the specification's 'with 1 or 2 circles free'; up to the largest social_circles",
                low=0, high=16,
            ),
        ),
    ),
)

RANDOM = 0
GREEDY = 1
BUILDER = 2
SNIPER = 3
CLOSER = 4


@njit(cache=True)
def heuristics(index, kind, seat, subject, st):
    """The heuristics as one switch on their index in PLAYERS."""
    if index == BUILDER:
        return builder(kind, seat, subject, st)
    if index == SNIPER:
        return sniper(kind, seat, subject, st)
    if index == GREEDY:
        return greedy(kind, seat, subject, st)
    if index == CLOSER:
        return closer(kind, seat, subject, st)
    return random_player(kind, seat, subject, st)
