"""Two Tag City players written outside the toolkit, as a designer would.

    balance players tagcity --player-file examples/tagcity_bots.py
    balance run tagcity --player-file examples/tagcity_bots.py --players hoarder,builder --rotate-seats

Every player is a compiled function with the one player signature
``(kind, seat, subject, st) -> answer``.  Tag City asks two questions
(sims/tagcity/state.py documents them): ``KIND_ASSIGN`` (the leader places the
dice: a bit mask, bit d set = die d on the second slot of its face) and
``KIND_ACT`` (subject ``SUBJECT_DRAFT`` or ``SUBJECT_SHARED``: an answer made
with ``act(kind, die, arg)``).  The state is read through the helpers of
``sims.tagcity.state``; an illegal answer becomes social with the lowest free
circle and die, so a mistake plays badly but never breaks a rule.
"""

from numba import njit

from balance import player
from sims.tagcity.state import (
    ACT_PAINT,
    ACT_SOCIAL,
    KIND_ASSIGN,
    N_DICE,
    V2,
    act,
    best_placement,
    die_shape,
    lowest_free_circle,
    lowest_offered,
    offered,
    placement_gain,
)


@player("tagcity", "hoarder", "paints the die whose best placement scores most now (V2 breaks ties); never drones")
@njit
def hoarder(kind, seat, subject, st):
    if kind == KIND_ASSIGN:
        return 0  # every die on the first slot beside its face
    best_die = -1
    best_p = -1
    best_gain = -1
    for d in range(st[N_DICE]):
        if offered(st, d):
            p, _, _ = best_placement(st, seat, die_shape(st, d), V2)
            if p >= 0:
                gain = placement_gain(st, seat, p)
                if gain > best_gain:
                    best_die, best_p, best_gain = d, p, gain
    if best_p >= 0:
        return act(ACT_PAINT, best_die, best_p)
    return act(ACT_SOCIAL, lowest_offered(st), max(lowest_free_circle(st), 0))


@player("tagcity", "influencer", "checks social networks whenever a circle is free, paints otherwise")
@njit
def influencer(kind, seat, subject, st):
    if kind == KIND_ASSIGN:
        return 0
    circle = lowest_free_circle(st)
    if circle >= 0:
        return act(ACT_SOCIAL, lowest_offered(st), circle)
    die = lowest_offered(st)
    p, _, _ = best_placement(st, seat, die_shape(st, die), V2)
    return act(ACT_PAINT, die, p) if p >= 0 else act(ACT_SOCIAL, die, 0)
