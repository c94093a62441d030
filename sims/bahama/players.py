"""Bahama Taxi's heuristic players: compiled functions with the one player
signature of every game (balance.game)::

    @njit
    def my_player(kind, seat, subject, st):  # -> int
        ...

asked for the taxi of the seat whose turn it is:

* ``kind == state.KIND_MOVE`` (0): "where does your taxi go?", once per turn,
  before it moves; ``subject`` is the field the taxi stands on.  Return the
  destination: the taxi's own field to stay, or a free adjacent field.
* ``kind == state.KIND_PICKUP`` (1), only with the rule ``pickup = optional``
  (the default): "take this citizen?", after the move and the drop, when a
  citizen waits on the field the taxi stopped on and it may take one
  (capacity, end-phase limits); ``subject`` is the citizen.  Return
  ``PICKUP_TAKE`` (1) or ``PICKUP_DECLINE`` (0).  With ``pickup =
  compulsory`` the citizen is taken without asking.
* ``seat``: the seat to move (0 moves first);
* ``st``: the game's state, one flat ``int64`` array, read through
  ``sims.bahama.state`` (``taxi(st, s)``, ``taxi_at(st, f)``,
  ``neighbour(st, f, j)`` for ``j < degree(st, f)``, ``dist(st, a, b)``,
  ``waiting(st, i)`` for ``i < n_waiting(st)`` each going ``origin(st, c)`` →
  ``dest(st, c)`` for ``fare(st, c)``, ``waiting_at(st, f)``,
  ``aboard(st, s, i)`` for ``i < n_aboard(st, s)``, ``income(st, s)``,
  ``n_seats(st)``, ``turn(st)``, ``pile_size(st)``, ``rule(st, P_*)``).
  Read only: a player must not write to it (numba cannot stop it), except
  its own scratch through ``balance.state.remember(st, seat, i, value)`` /
  ``memory(st, seat, i)`` (zeroed every game).  Its parameters:
  ``balance.state.player_param(st, seat, k)``, ``k`` the declaration index.

Random numbers only through ``balance.state.draw_below(st, n)`` (the game's
stream), so games stay reproducible.

Drop-offs follow from the rules (setting a passenger down only adds income and
frees a seat).  The kernel checks every answer: an illegal move (not adjacent,
occupied, off the board, or staying under ``must_move`` while a neighbour is
free) becomes *stay*, or under ``must_move`` the first free neighbour in
adjacency order; a pick-up answer other than ``PICKUP_DECLINE`` takes.

Helpers for players (state.py): ``may_take`` (could this taxi take a citizen
now), ``may_stay``, ``is_legal_move``, ``pile_can_supply``,
``pickup_is_optional``, ``taking_ends_game`` (the last citizen waits and the
pile cannot replace it), ``lead`` (income minus the best other).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from balance.game import Param, PlayerInfo
from balance.state import draw_below, memory, player_param, remember
from sims.bahama.state import (
    KIND_PICKUP,
    MAX_CAPACITY,
    PICKUP_DECLINE,
    PICKUP_TAKE,
    aboard,
    degree,
    dest,
    dist,
    fare,
    first_of,
    free_neighbours,
    income,
    lead,
    may_stay,
    may_take,
    n_aboard,
    n_seats,
    n_waiting,
    neighbour,
    origin,
    pickup_is_optional,
    pile_can_supply,
    route_word,
    taking_ends_game,
    taxi,
    taxi_at,
    waiting,
    waiting_at,
    word_as_far,
    word_nearer,
)

_FAR = 1 << 20
_TWO = np.int64(2)
_NO = np.bool_(False)


@njit(cache=True, _nrt=False, forceinline=False)
def random_player(kind, seat, subject, st):
    """Uniformly among the legal answers: a move (staying included unless
    must_move forbids it); take or leave a citizen on a coin flip."""
    if kind == KIND_PICKUP:
        return draw_below(st, _TWO)
    here = taxi(st, seat)
    stay = may_stay(st, seat)
    count = 1 if stay else 0
    for j in range(degree(st, here)):
        if taxi_at(st, neighbour(st, here, j)) < 0:
            count += 1
    k = draw_below(st, count)
    if stay:
        if k == 0:
            return here
        k -= 1
    for j in range(degree(st, here)):
        f = neighbour(st, here, j)
        if taxi_at(st, f) < 0:
            if k == 0:
                return f
            k -= 1
    return here


# The heuristics below first choose a target field from where the taxi stands (a
# passenger's destination or a citizen's origin), then take one step along a
# shortest path to it (_step_toward).  Scoring every neighbour against every job
# gave the same play at four times the cost.
#
# Compiled into the engine's loops (forceinline, through ``heuristics``): the
# default player, nearest, its job and its step; a call per turn costs a nearest
# game about 5%.  The other heuristics stay calls (forceinline=False): the switch
# is compiled again into every loop that asks a player (a game, a playout, the
# search and its menu), and inlining all four there cost ~6 s more of a cold
# compile.
@njit(cache=True, _nrt=False, forceinline=True)
def _step_toward(st, seat, target, can_take, avoid_pickups):
    """One step toward ``target``: the first free neighbour that is closer (with
    ``avoid_pickups``, one where no citizen would board, if there is one); when
    every closer field is taken by a taxi, a free neighbour as far as here, else
    any free neighbour: giving way breaks the jam of two taxis that each want the
    other's field.  Staying only on the target itself or when boxed in.

    "First" is in the neighbours' ascending order, as a scan would meet them:
    the route word of (here, target) holds which neighbours are nearer and
    which as far (state.ROUTE), the free ones are a mask too, so the step is a
    few bit operations instead of a look-up and a hard-to-predict branch per
    neighbour."""
    here = taxi(st, seat)
    if target == here and may_stay(st, seat):
        return here
    word = route_word(st, here, target)
    free = free_neighbours(st, here)
    nearer = word_nearer(word) & free
    if nearer != 0:
        if avoid_pickups and can_take:
            rest = nearer
            while rest != 0:
                f = first_of(st, here, rest)
                if waiting_at(st, f) < 0:
                    return f
                rest &= rest - 1
        return first_of(st, here, nearer)
    as_far = word_as_far(word) & free
    if as_far != 0:
        return first_of(st, here, as_far)
    if free != 0:
        return first_of(st, here, free)
    return here


# The parameters of nearest and best_fare (their declaration index).  Each is 0
# at the player as written: the search's menu (kernel.candidates) asks nearest and
# best_fare in mc's seat, whose slots hold its rollout policy's values (nearest's:
# all 0), so the menu's plans stay those of the players as written.
K_CITIZEN_STEPS = 0  # nearest
K_RIDE_DISCOUNT = 0  # best_fare
K_ABOARD_BONUS = 1  # best_fare


@njit(cache=True, _nrt=False, forceinline=True)
def nearest(kind, seat, subject, st):
    """Heads for the nearest job: a passenger's destination or a citizen it may
    take (a citizen counted ``citizen_steps`` farther); takes every citizen it may."""
    if kind == KIND_PICKUP:
        return PICKUP_TAKE
    here = taxi(st, seat)
    can_take = may_take(st, seat)
    target = _nearest_job(st, seat, here, can_take, player_param(st, seat, K_CITIZEN_STEPS))
    return _step_toward(st, seat, target, can_take, False)


@njit(cache=True, _nrt=False, forceinline=False)
def best_fare(kind, seat, subject, st):
    """Goes for the best fare per step: a passenger's fare over the steps to its
    destination, a citizen's fare over the steps to it plus its ride; takes
    every citizen it may.  Weighted by its parameters, in percent (0 and 0 by
    default: every comparison scaled alike, the player as written): a
    passenger's fare counts 100 + ``aboard_bonus``, a citizen's 100, and a
    citizen's ride 100 - ``ride_discount`` of its steps (a fare is the ride's
    length)."""
    if kind == KIND_PICKUP:
        return PICKUP_TAKE
    here = taxi(st, seat)
    can_take = may_take(st, seat)
    ride = 100 - player_param(st, seat, K_RIDE_DISCOUNT)
    aboard_weight = 100 + player_param(st, seat, K_ABOARD_BONUS)
    target = here
    best_fare_ = 0
    best_steps = 1
    for i in range(n_aboard(st, seat)):
        c = aboard(st, seat, i)
        f = dest(st, c)
        pays = aboard_weight * fare(st, c)
        steps = 100 * dist(st, here, f)
        if pays * best_steps > best_fare_ * steps:
            best_fare_ = pays
            best_steps = steps
            target = f
    if can_take:
        for i in range(n_waiting(st)):
            c = waiting(st, i)
            f = origin(st, c)
            pays = fare(st, c)
            steps = 100 * dist(st, here, f) + ride * pays
            pays = 100 * pays
            if pays * best_steps > best_fare_ * steps:
                best_fare_ = pays
                best_steps = steps
                target = f
    return _step_toward(st, seat, target, can_take, False)


@njit(cache=True, _nrt=False, forceinline=False)
def courier(kind, seat, subject, st):
    """Delivers before taking more: with passengers aboard it drives to the nearest
    destination avoiding citizens on the way; empty, it fetches the highest fare.
    It takes every citizen it stops on (as under compulsory pick-up)."""
    if kind == KIND_PICKUP:
        return PICKUP_TAKE
    here = taxi(st, seat)
    target = here
    n = n_aboard(st, seat)
    if n > 0:
        best = _FAR
        for i in range(n):
            f = dest(st, aboard(st, seat, i))
            d = dist(st, here, f)
            if d < best:
                best = d
                target = f
    else:
        best_fare_ = -1
        best_steps = _FAR
        for i in range(n_waiting(st)):
            c = waiting(st, i)
            f = origin(st, c)
            pays = fare(st, c)
            steps = dist(st, here, f)
            if pays > best_fare_ or (pays == best_fare_ and steps < best_steps):
                best_fare_ = pays
                best_steps = steps
                target = f
    return _step_toward(st, seat, target, may_take(st, seat), n > 0)


# ------------------------------------------------------------------------------------
# Players that use the rulebook's choices: leaving a citizen waiting (pickup =
# optional) and keeping the taxi standing.  Each drives like nearest until the
# end phase, where the choices matter: the game ends the moment the last waiting
# citizen is taken, and whoever leads then wins.  Their state is one counter in
# the player's memory (balance.state.remember): the turns it has stood guard.
_GUARD_TURNS = np.int64(0)  # memory slot: turns spent standing on a field to keep it


# A job's key for _nearest_job: its steps (the sort key), then its rank in the
# order the jobs are compared (passengers in pick-up order, then the waiting
# citizens in draw order: the first of equally near jobs wins), then its field.
_KEY_STEPS = 16  # steps << 16: at most 51 + 12 (citizen_steps)
_KEY_RANK = 8  # rank << 8: a passenger's index (< MAX_CAPACITY), a citizen's MAX_CAPACITY + index
_KEY_FIELD = np.int64(0xFF)
_NO_JOB = np.int64(1) << 40  # above every job's key


@njit(cache=True, _nrt=False, forceinline=True)
def _nearest_job(st, seat, here, take_citizens, extra):
    """The nearest passenger destination, or citizen when ``take_citizens`` (each
    citizen counted ``extra`` steps farther); here if none.  Of equally near
    jobs the first: passengers before citizens, each in its row's order.

    The nearest job is the least of the jobs' keys (steps, rank, field): a
    minimum with no branch per job (the comparison of one job with the best so
    far was a branch the processor could not predict, one or two a turn
    mispredicted).  Inlined into nearest, so no call passes the state."""
    best = _NO_JOB | here
    for i in range(n_aboard(st, seat)):
        f = dest(st, aboard(st, seat, i))
        best = min(best, (dist(st, here, f) << _KEY_STEPS) | (i << _KEY_RANK) | f)
    if take_citizens:
        for i in range(n_waiting(st)):
            f = origin(st, waiting(st, i))
            best = min(best, ((dist(st, here, f) + extra) << _KEY_STEPS) | ((MAX_CAPACITY + i) << _KEY_RANK) | f)
    return best & _KEY_FIELD


@njit(cache=True, _nrt=False, forceinline=False)
def _stand(st, seat, here):
    """Stay on ``here``; where must_move forbids it, the first free neighbour
    (the field is won back next turn if still free)."""
    if may_stay(st, seat):
        return here
    for j in range(degree(st, here)):
        f = neighbour(st, here, j)
        if taxi_at(st, f) < 0:
            return f
    return here


@njit(cache=True, _nrt=False, forceinline=False)
def _in_the_way(st, seat, f):
    """``f`` lies on a shortest route of another seat's taxi to its nearest job
    (a passenger's destination, or a citizen it may take), that job included."""
    for s in range(n_seats(st)):
        if s != seat:
            t = taxi(st, s)
            goal = _nearest_job(st, s, t, may_take(st, s), 0)
            if t != f and goal != t and dist(st, t, f) + dist(st, f, goal) == dist(st, t, goal):
                return True
    return False


@njit(cache=True, _nrt=False, forceinline=False)
def _make_way(st, seat, here):
    """Idle: stay, unless this taxi stands in another taxi's way (_in_the_way);
    then a free neighbour out of every way, with no citizen (if there is one)."""
    if may_stay(st, seat) and waiting_at(st, here) < 0 and not _in_the_way(st, seat, here):
        return here
    for j in range(degree(st, here)):
        f = neighbour(st, here, j)
        if taxi_at(st, f) < 0 and waiting_at(st, f) < 0 and not _in_the_way(st, seat, f):
            return f
    return _stand(st, seat, here)


@njit(cache=True, _nrt=False, forceinline=False)
def _hopeless(st, seat, margin):
    """Behind by ``margin`` even once every passenger aboard is delivered."""
    gain = 0
    for i in range(n_aboard(st, seat)):
        gain += fare(st, aboard(st, seat, i))
    return lead(st, seat) + gain < margin


@njit(cache=True, _nrt=False, forceinline=False)
def _losing_end(st, seat, margin):
    """Taking a citizen now would end the game without winning it by ``margin``."""
    return taking_ends_game(st) and lead(st, seat) < margin


@njit(cache=True, _nrt=False, forceinline=False)
def _closer_move(st, seat, margin):
    """nearest's move, except that a citizen whose pick-up would end the game
    without a win is no job: it delivers instead, and once idle it makes way
    (off that citizen's field and off the others' routes to it: it does not
    camp or block)."""
    here = taxi(st, seat)
    can_take = may_take(st, seat)
    keep_off = can_take and _losing_end(st, seat, margin)
    target = _nearest_job(st, seat, here, can_take and not keep_off, 0)
    if target == here and keep_off:
        return _make_way(st, seat, here)
    return _step_toward(st, seat, target, can_take, keep_off)


@njit(cache=True, _nrt=False, forceinline=False)
def _closer_pickup(st, seat, margin):
    if _losing_end(st, seat, margin):
        return PICKUP_DECLINE
    return PICKUP_TAKE


@njit(cache=True, _nrt=False, forceinline=False)
def closer(kind, seat, subject, st):
    """Drives like nearest; leaves a citizen waiting when taking it would end the
    game without winning by ``margin`` (and does not drive for that citizen)."""
    margin = player_param(st, seat, 0)
    if kind == KIND_PICKUP:
        return _closer_pickup(st, seat, margin)
    return _closer_move(st, seat, margin)


@njit(cache=True, _nrt=False, forceinline=False)
def _patient(st, seat, patience):
    return patience == 0 or memory(st, seat, _GUARD_TURNS) < patience


@njit(cache=True, _nrt=False, forceinline=False)
def _stands_guard(st, seat, margin, guard, patience):
    """The end of a lost game: the pile out, at most ``guard`` citizens waiting,
    behind by ``margin`` even with its passengers delivered, patience left."""
    if pile_can_supply(st) or n_waiting(st) > guard or not _hopeless(st, seat, margin):
        return False
    return _patient(st, seat, patience)


@njit(cache=True, _nrt=False, forceinline=False)
def _guards(st, seat, margin, guard, patience):
    """The waiter keeps a citizen from the others (_stands_guard); under
    compulsory pick-up only while it may not take one itself (standing there
    would take it)."""
    if not pickup_is_optional(st) and may_take(st, seat):
        return False
    return _stands_guard(st, seat, margin, guard, patience)


@njit(cache=True, _nrt=False, forceinline=False)
def waiter(kind, seat, subject, st):
    """closer, but at the end of a lost game (_stands_guard: by default the last
    citizen waits and its passengers cannot make up the gap) it stands on a
    waiting citizen's field and leaves the citizen waiting, so nobody can end
    the game, for at most ``patience`` of its turns."""
    margin = player_param(st, seat, 0)
    guarding = _guards(st, seat, margin, player_param(st, seat, 1), player_param(st, seat, 2))
    if kind == KIND_PICKUP:
        if guarding:
            return PICKUP_DECLINE
        return _closer_pickup(st, seat, margin)
    if not guarding:
        return _closer_move(st, seat, margin)
    here = taxi(st, seat)
    if waiting_at(st, here) >= 0:
        remember(st, seat, _GUARD_TURNS, memory(st, seat, _GUARD_TURNS) + 1)
        return _stand(st, seat, here)
    # The nearest waiting citizen no other taxi stands on.
    target = here
    best = _FAR
    for i in range(n_waiting(st)):
        f = origin(st, waiting(st, i))
        d = dist(st, here, f)
        if d < best and taxi_at(st, f) < 0:
            best = d
            target = f
    if target == here:
        return _closer_move(st, seat, margin)
    return _step_toward(st, seat, target, may_take(st, seat), True)


@njit(cache=True, _nrt=False, forceinline=False)
def _block_field(st, seat, reach):
    """The field the leading other seat needs next (its nearest passenger's
    destination, else the nearest citizen it may take) when this taxi stands on
    it or gets there first within ``reach`` moves (not a citizen it would have
    to take); else -1."""
    leader = -1
    best = -1
    for s in range(n_seats(st)):
        if s != seat and income(st, s) > best:
            best = income(st, s)
            leader = s
    there = taxi(st, leader)
    f = _nearest_job(st, leader, there, may_take(st, leader), 0)
    if f == there:
        return -1
    here = taxi(st, seat)
    if waiting_at(st, f) >= 0 and not pickup_is_optional(st) and may_take(st, seat):
        return -1  # under compulsory pick-up it would have to take that citizen
    mine = dist(st, here, f)
    if f == here or (mine <= reach and mine <= dist(st, there, f) and taxi_at(st, f) < 0):
        return f
    return -1


@njit(cache=True, _nrt=False, forceinline=False)
def blocker(kind, seat, subject, st):
    """closer, but at the end of a lost game (_stands_guard) it drives to the
    field the leader needs next (a passenger's destination or a citizen) when it
    gets there first within ``reach`` moves, and stands on it (leaving a citizen
    there waiting), for at most ``patience`` of its turns."""
    margin = player_param(st, seat, 0)
    block = -1
    if _stands_guard(st, seat, margin, player_param(st, seat, 1), player_param(st, seat, 3)):
        block = _block_field(st, seat, player_param(st, seat, 2))
    here = taxi(st, seat)
    if kind == KIND_PICKUP:
        if block == here:
            return PICKUP_DECLINE
        return _closer_pickup(st, seat, margin)
    if block < 0:
        return _closer_move(st, seat, margin)
    if block == here:
        remember(st, seat, _GUARD_TURNS, memory(st, seat, _GUARD_TURNS) + 1)
        return _stand(st, seat, here)
    return _step_toward(st, seat, block, may_take(st, seat), True)


_MARGIN = Param(
    "margin",
    "int",
    0,
    "the lead in income it needs to end the game by taking the last citizen (0: a tie, which has no winner, "
    "will do; below it the player counts as behind)",
    "reading: 0 = it leaves the last citizen only while behind, as issue 11 asks; measured against nearest "
    "(RULES.md, Players), 1 (only a win) lost the ties that 0 keeps",
    low=0,
    high=100,
)
_GUARD = Param(
    "guard",
    "int",
    1,
    "the end of a lost game, where it stands guard: the pile out and at most this many citizens waiting",
    "reading: 1 = the last citizen, whose pick-up ends the game: only then is 'behind even with its passengers "
    "delivered' final",
    low=1,
    high=24,
)
_PATIENCE_SOURCE = (
    "reading: players at a table would not keep a game from ending for ever; "
    "0 (no limit) shows what the rules allow (RULES.md, Players)"
)


# Order = the built-in player index of ``heuristics`` (mc comes after them).
PLAYERS: tuple[PlayerInfo, ...] = (
    PlayerInfo(
        "random",
        "drives to a uniformly random legal field (or stays); takes or leaves a citizen on a coin flip",
        random_player,
        stochastic=True,
    ),
    PlayerInfo(
        "nearest",
        "heads for the nearest job: a passenger's destination or a citizen it may take",
        nearest,
        params=(
            Param(
                "citizen_steps",
                "int",
                0,
                "steps added to the way to a citizen when it compares jobs (0: the nearest job, whatever it is; "
                "more: it delivers first unless a citizen is that much nearer)",
                "reading: 0 is the player as written; up to a board's width",
                low=0,
                high=12,
            ),
        ),
    ),
    PlayerInfo(
        "best_fare",
        "goes for the best fare per step, counting a citizen's whole ride",
        best_fare,
        params=(
            Param(
                "ride_discount",
                "int",
                0,
                "percent of a citizen's ride left out of its steps (0: the whole ride counts, the player as "
                "written; 100: only the way to it; -100: the ride counts twice)",
                "reading: 0 is the player as written (fare per step of the whole job); -100..100 spans "
                "'a long ride blocks the taxi' to 'a fare is money now'",
                low=-100,
                high=100,
            ),
            Param(
                "aboard_bonus",
                "int",
                0,
                "percent added to a passenger's fare against a waiting citizen's (above 0: it delivers first; "
                "below: it fills the taxi first)",
                "reading: 0 is the player as written; -75..300 is a factor of 4 either way",
                low=-75,
                high=300,
            ),
        ),
    ),
    PlayerInfo(
        "courier",
        "delivers before taking more; when empty, fetches the highest fare waiting",
        courier,
    ),
    PlayerInfo(
        "closer",
        "drives like nearest; leaves a citizen waiting when taking it would end the game without a win",
        closer,
        params=(_MARGIN,),
    ),
    PlayerInfo(
        "waiter",
        "closer, but losing at the end it stands on the last citizen and leaves it waiting (patience turns at most)",
        waiter,
        params=(
            _MARGIN,
            _GUARD,
            Param(
                "patience",
                "int",
                20,
                "the most turns it stands guard in a game (0: no limit)",
                _PATIENCE_SOURCE,
                low=0,
                high=100_000,
            ),
        ),
    ),
    PlayerInfo(
        "blocker",
        "closer, but losing at the end it stands on the field the leader needs next (patience turns at most)",
        blocker,
        params=(
            _MARGIN,
            _GUARD,
            Param(
                "reach",
                "int",
                4,
                "the farthest it drives to block a field (it must get there first)",
                "reading: a few moves; farther, the leader has changed its plan",
                low=0,
                high=20,
            ),
            Param(
                "patience",
                "int",
                20,
                "the most turns it stands on a blocked field in a game (0: no limit)",
                _PATIENCE_SOURCE,
                low=0,
                high=100_000,
            ),
        ),
    ),
)


@njit(cache=True, _nrt=False, forceinline=True)
def heuristics(index, kind, seat, subject, st):
    """The built-in heuristic ``PLAYERS[index]`` (a compiled switch)."""
    if index == 1:
        return nearest(kind, seat, subject, st)
    if index == 0:
        return random_player(kind, seat, subject, st)
    if index == 2:
        return best_fare(kind, seat, subject, st)
    if index == 3:
        return courier(kind, seat, subject, st)
    if index == 4:
        return closer(kind, seat, subject, st)
    if index == 5:
        return waiter(kind, seat, subject, st)
    return blocker(kind, seat, subject, st)
