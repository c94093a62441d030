"""The engine every game's kernel runs on: written once, compiled per game.

A game's rules are a state machine on one flat ``int64`` state
(:mod:`balance.state`).  The game supplies five compiled functions and its
heuristic players; this module supplies everything that drives them, once for
every game: playing a game, a batch of games on every core, a traced game, the
search player ``mc`` and its playouts.

What a game supplies (``compile_kernel``'s keyword arguments)::

    advance(st)                 run the rules from where the game stands until a
                                player must decide (``balance.state.ask``) or the
                                game ends (``balance.state.end_game``); the first
                                call of a game starts from an all-zero dynamic
                                span and does the setup.  Called with a decision
                                pending, it asks the same question and changes
                                nothing (the game-feel samples rely on it).
                                Never called once the game has ended
    apply(st, answer)           resolve the pending decision with a player's
                                answer; an illegal answer becomes the rule's
                                fallback, so no player can break a rule
    heuristics(index, kind, seat, subject, st) -> answer
                                the built-in heuristic players as one switch
    candidates(st, out) -> n    the answers the search player compares at the
                                pending decision (at most MAX_CANDIDATES, written
                                to ``out``); 0 leaves the decision to its rollout
                                policy (a decision not worth a search)
    determinize(st, seat)       resample, in a search copy, what ``seat`` cannot
                                know (deck order, hidden hands) from the copy's
                                own stream; nothing for a game without secrets
    evaluate(st, seat) -> value how good a playout's final position is for
                                ``seat``, 0..VALUE_SCALE (a win is VALUE_SCALE)
    standing(st, seat) -> value optional: who is ahead, for the game-feel
                                counters (its score where the score means
                                standing; by default ``evaluate``); read at
                                every round end, so it must draw no random
                                number and change nothing

The drivers below are plain Python functions, the templates of each game's
compiled copy: :func:`compile_kernel` writes their source, once, to a module
beside the game's numba cache (``<package>/__pycache__/balance_drivers_kernel.py``,
readable: the engine's names it imports, the game's constants, the templates'
own text) with the game's functions bound to the names above, and numba
compiles and caches that module like any module of the game, so two games never
share a cache entry; :func:`compile_kernel` also keys the cache on the game's
files (``balance.kernelcache``), since a copy compiles in the game's code.
Before any of it compiles, :func:`check_compiles` types the game's functions on
their own, so a typing error in a game names the game's file and line.

One decision, as :func:`play_on` plays it::

    advance(st) -> seat = st[DECIDER] -> answer = decide(st[SEATING + seat],
    st[DECISION], seat, st[SUBJECT], st) -> apply(st, answer) -> advance ...

``decide`` is the switch over the built-in players (the heuristics, then
``mc``); a run with players from a user's file recompiles the drivers with a
switch that also calls them (:meth:`Kernel.with_decide`, not cached).

The search player ``mc`` (docs/players.md measures it game by game) races the
candidates against the rollout policy's own answer, the *incumbent*, which it
adds to the candidates when the game's menu lacks it.  A round plays every
answer still in the race once, from a copy of the position (the workspace at
SCRATCH_AT) reseeded from a stream of its own (``rng_seed_search(seed, game,
search, playout)``: the search never reads the game's true stream) and
``determinize``d; the answer is applied and the playout goes on with the rollout
policy in every seat for ``horizon`` turns or rounds (``horizon_unit``; 0: to
the end), scored by ``evaluate``.  Each challenger's value minus the
incumbent's in the same round is one paired difference.  With common random numbers (``crn``) every answer of
a round shares the round's stream (the same dice, the same resampled deck),
which cancels the luck the answers share; without, each answer of each round
has its own stream (better where the same dice would go to another seat after
one answer than after the other: docs/players.md).

After every CHECK_EVERY (4) rounds the race drops every challenger that
cannot beat the incumbent by ``indifference`` (its paired difference's upper
confidence bound, PRUNE_Z standard errors, Student-corrected for the rounds
played, is below it), every challenger clearly below the leader (bounded by
the sum of both standard errors), and every challenger whose predictive
probability of clearing the evidence bound by the end of the budget is
below ``futility`` (``drop_futile``: one that only a lucky streak would
carry); it stops when no challenger is left, or when one is left that is
clearly better than the incumbent, or when the next round would pass
``rollouts`` playouts.  Obvious decisions thus cost a few rounds, hopeless
challengers a few more, close ones with a chance the whole budget.  The
answer is the leading challenger only if its lower confidence bound is above
zero (at least 4 rounds): mc leaves its rollout policy's answer on evidence
only, so that in expectation it plays at least as well as that policy.
``allocation = even`` keeps the plain flat Monte Carlo of earlier versions for
comparison: the budget shared evenly in rounds on common random numbers, the
best total wins (the incumbent on a tie), no test.
The playout never calls ``decide``, so the search cannot recurse.
"""

from __future__ import annotations

import math
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np
from numba import carray, njit, prange, types
from numba.core import cgutils
from numba.core import config as numba_config
from numba.extending import intrinsic

from balance.parallel import batch_size, claim, new_counter
from balance.rng import rng_seed_at, rng_seed_search
from balance.state import (
    ARM_ALIVE,
    ARM_DIFF,
    ARM_HASH,
    ARM_SQUARES,
    ARM_VALUE,
    CANDIDATES,
    CORE,
    DECIDER,
    DECISION,
    DYNAMIC_AT,
    DYNAMIC_END,
    END_REASON,
    EVENT_ROWS,
    EVENT_WIDTH,
    EVENTS_AT,
    F_BOTTOM_SINCE,
    F_CHANGES,
    F_KEPT,
    F_LAST_LEADER,
    F_LEADER,
    F_LEADER_AT_BOTTOM,
    F_LEADER_SINCE,
    F_MARGIN,
    F_RING_AT,
    F_NEXT_TURN,
    F_ROUND_MARGIN,
    F_SAMPLES,
    F_STRIDE,
    F_TRAILER,
    F_VALUES,
    FEEL,
    FEEL_PACK,
    FEEL_RING,
    FEEL_SLOTS,
    FEEL_TURNS,
    GAME,
    HEADER_END,
    HEAT_AT,
    HEAT_CELLS,
    MAX_CANDIDATES,
    MAX_PLAYER_PARAMS,
    MC_PARAMS,
    MC_ROLLOUT_POLICY_SLOT,
    N_SEATS,
    PLAYER_PARAMS,
    RECORD,
    RESET_AT,
    RNG,
    SCORE,
    SCRATCH_AT,
    SEARCH_DEVIATIONS,
    SEARCH_PLAYOUTS,
    SEARCHES,
    SEARCHING,
    SEAT,
    SEATING,
    SEED,
    SIZE,
    SUBJECT,
    TURN,
    VALUE_SCALE,
    WINNER,
)

# The search player's parameters, in slots MC_PARAMS + i of its seat.
MC_ROLLOUTS = MC_PARAMS + 0
MC_ROLLOUT_POLICY = MC_ROLLOUT_POLICY_SLOT  # MC_PARAMS + 1
MC_HORIZON = MC_PARAMS + 2
MC_CRN = MC_PARAMS + 3
MC_EVIDENCE = MC_PARAMS + 4  # a float, stored as its bits
MC_ALLOCATION = MC_PARAMS + 5
MC_INDIFFERENCE = MC_PARAMS + 6  # a float (a share of a win), stored as its bits
MC_FUTILITY = MC_PARAMS + 7  # a float (a probability), stored as its bits
ALLOCATIONS = ("race", "even")  # MC_ALLOCATION's values, in this order
ALLOCATION_EVEN = np.int64(1)
CHECK_EVERY = np.int64(4)  # the race drops answers after rounds 4, 8, 12, ...
MIN_ROUNDS = np.int64(4)  # rounds before mc may leave the incumbent
STREAMS_PER_ROUND = np.int64(MAX_CANDIDATES + 1)  # independent playouts: a stream per answer and round
PRUNE_Z = np.float64(2.0)  # how clearly an answer must lose before the race drops it
HASH_FACTOR = np.uint64(0x100000001B3)  # FNV-1a's 64-bit prime
HASH_START = np.uint64(0xCBF29CE484222325)
# Differences that are all the same so far (most often all 0: two answers
# whose playouts have not parted yet) are read as if one more pair had differed
# by VALUE_SCALE: a few identical rounds are no proof that two answers are
# worth the same when what tells them apart is rare.
PRIOR_SQUARES = np.float64(VALUE_SCALE) * np.float64(VALUE_SCALE)
NO_LIMIT = np.int64(1) << np.int64(62)
# Constants passed to compiled calls are numpy scalars: numba types a plain int
# or bool global as a literal and would compile the callee once per value.
NO_ROWS = np.int64(0)
RECORD_OFF = np.bool_(False)
RECORD_ON = np.bool_(True)
# A game's game-feel record, one row per game of a batch (play_batch's ``feel``),
# computed at the game's end from the counters of balance.state (FEEL):
FO_SAMPLES = 0  # standings sampled: one per round end, then the game's end (R)
FO_CHANGES = 1  # lead changes
FO_LEADER = 2  # the seat strictly ahead at the end (-1: a tie at the top)
FO_LEADER_SINCE = 3  # the sample (1..R) from which it led at every sample
FO_LEAD_AT = 4  # 4, 5, 6: the seat strictly ahead at sample ceil(q R / 4), q = 1, 2, 3 (-1: a tie)
FO_TRAILER_HALF = 7  # the seat strictly last at sample ceil(R / 2) (-1: a tie)
FO_OUT_SINCE = 8  # the first sample from which a seat that did not win was last (ties too) to the end; 0: none
FO_LEADER_AT_OUT = 9  # the seat strictly ahead at that sample (-1: a tie)
FO_MARGIN = 10  # the leader's standing minus the next best at the end
FO_ROUND_MARGIN = 11  # the same at the last round end (the end when no round ended)
FEEL_OUT = 12
# A batch's game-feel counts (balance.feel.COUNTS, in that order), which
# play_batch adds up per worker from each game's record at its end: integers,
# so the sum over workers is the same whoever played what.
FC_GAMES = 0
FC_CHANGES_SUM = 1
FC_CHANGES_SQ = 2
FC_DECISIVE_N = 3
FC_DECISIVE_SUM = 4  # the decisive moment in thousandths (FEEL_PERMILLE)
FC_DECISIVE_SQ = 5
FC_LEAD_GAMES = 6  # 6, 7, 8: games with a strict leader at 25%, 50%, 75%
FC_LEAD_WINS = 9  # 9, 10, 11: ... won by that leader
FC_TRAIL_GAMES = 12
FC_TRAIL_WINS = 13
FC_KING_GAMES = 14
FC_KING_CHANGED = 15
FC_MARGIN_SUM = 16
FC_MARGIN_SQ = 17
FC_ROUND_MARGIN_SUM = 18
FC_ROUND_MARGIN_SQ = 19
FEEL_COUNTS = 20
FEEL_PERMILLE = np.int64(1000)
AT_END = np.bool_(True)
AT_ROUND_END = np.bool_(False)
FEEL_NONE = np.int64(-2)
FEEL_FAR = np.int64(1) << np.int64(62)


# --------------------------------------------------------------------------- helpers
@intrinsic
def _address_as_pointer(typingctx, address):
    """The integer ``address`` as a ``void*`` (for numba.carray)."""

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return types.voidptr(types.uintp), codegen


@njit(cache=True)
def unmanaged(state):
    """``state`` seen through an array without a reference count (numba.carray
    on its address).  Even one array argument leaves a few atomic
    incref/decref pairs per call that numba cannot prune; on an array without
    a meminfo they are a null test (measured on the flagship game: 73k -> 110k games per
    second and core).  The caller keeps ``state`` alive while the view is used."""
    return carray(_address_as_pointer(state.ctypes.data), state.shape[0], np.int64)


@intrinsic
def copy_slots(typingctx, dst, dst_at, src, src_at, count):
    """``dst[dst_at : dst_at + count] = src[src_at : src_at + count]`` as one
    ``memmove`` (the two may be views of one state).  A slice assignment
    compiles to an element loop with index arithmetic: 1,100 slots, the
    search copy of the flagship game, took 550 ns that way against 120 ns."""
    sig = types.void(dst, types.int64, src, types.int64, types.int64)

    def codegen(context, builder, signature, args):
        d, d_at, s, s_at, n = args
        to = cgutils.gep(builder, context.make_array(signature.args[0])(context, builder, d).data, d_at)
        fro = cgutils.gep(builder, context.make_array(signature.args[2])(context, builder, s).data, s_at)
        cgutils.raw_memmove(builder, to, fro, n, context.get_abi_sizeof(context.get_data_type(types.int64)))
        return context.get_dummy_value()

    return sig, codegen


if numba_config.DISABLE_JIT:  # pure Python (coverage, the speed baseline): no pointers

    def unmanaged(state):
        return state

    def copy_slots(dst, dst_at, src, src_at, count):
        dst[dst_at : dst_at + count] = src[src_at : src_at + count]


@njit(cache=True)
def new_state(image, n_seats, n_event_rows, with_scratch):
    """A state for ``n_seats`` players from a game's ``image`` (once per block
    of games): trace rows after the image, then the search workspace."""
    core = image.shape[0]
    size = core + n_event_rows * EVENT_WIDTH + (core if with_scratch else 0)
    st = np.zeros(size, np.int64)
    st[:core] = image
    st[SIZE] = size
    st[N_SEATS] = n_seats
    st[EVENTS_AT] = core
    st[EVENT_ROWS] = n_event_rows
    if with_scratch:
        at = core + n_event_rows * EVENT_WIDTH
        st[SCRATCH_AT] = at
        st[at : at + core] = image
        st[at + SIZE] = core
        st[at + N_SEATS] = n_seats
        st[at + EVENTS_AT] = core
    return st


@njit(cache=True)
def reset_game(st, seating, player_params, seed, game, record):
    """The state before setup: game ``game`` under ``seed``, seats as given,
    an all-zero dynamic span, the game's own stream seeded from (seed, game)."""
    for i in range(RESET_AT, HEADER_END):  # loops, not slices: a slice is a view, counted per game
        st[i] = 0
    st[SEED] = np.int64(seed)
    st[GAME] = game
    st[SEAT] = -1
    st[WINNER] = -1
    st[END_REASON] = -1
    st[DECIDER] = -1
    st[RECORD] = 1 if record else 0
    for seat in range(st[N_SEATS]):
        st[SEATING + seat] = seating[seat]
        for k in range(MAX_PLAYER_PARAMS):
            st[PLAYER_PARAMS + seat * MAX_PLAYER_PARAMS + k] = player_params[seat, k]
    for i in range(st[DYNAMIC_AT], st[DYNAMIC_END]):
        st[i] = 0
    rng_seed_at(st, RNG, seed, game)


@njit(cache=True)
def copy_for_search(st, scratch, seat, playout):
    """``scratch`` becomes the position of ``st`` as ``seat``'s search sees it:
    the header and dynamic span copied, every seat played by ``seat``'s rollout
    policy with its parameter values, nothing recorded, and a stream of its
    own for this playout."""
    copy_slots(scratch, RESET_AT, st, RESET_AT, HEADER_END - RESET_AT)
    lo = st[DYNAMIC_AT]
    copy_slots(scratch, lo, st, lo, st[DYNAMIC_END] - lo)
    scratch[RECORD] = 0
    scratch[SEARCHING] = 1
    own = PLAYER_PARAMS + seat * MAX_PLAYER_PARAMS
    policy = st[own + MC_ROLLOUT_POLICY]
    for s in range(st[N_SEATS]):
        scratch[SEATING + s] = policy
        for k in range(MC_PARAMS):
            scratch[PLAYER_PARAMS + s * MAX_PLAYER_PARAMS + k] = st[own + k]
    rng_seed_search(scratch[RNG : RNG + 2].view(np.uint64), st[SEED], st[GAME], st[SEARCHES], playout)


@njit(cache=True)
def best_arm(st, n, incumbent):
    """The candidate with the highest summed playout value; on a tie the
    rollout policy's own answer (``incumbent``) when it is a candidate, else
    the first (``allocation = even``)."""
    best = 0
    for a in range(n):
        if st[CANDIDATES + a] == incumbent:
            best = a
            break
    for a in range(n):
        if st[ARM_VALUE + a] > st[ARM_VALUE + best]:
            best = a
    return best


@njit(cache=True, inline="always")
def turns_per_round(st):
    """Player turns in a round: the game's FEEL_TURNS, or one per seat in play
    (the game-feel sampler's round and a search horizon counted in rounds)."""
    return st[FEEL_TURNS] if st[FEEL_TURNS] > 0 else st[N_SEATS]


@njit(cache=True)
def playout_last_turn(st, own):
    """The last turn a search playout plays for the seat whose parameters
    start at ``own``: ``horizon`` turns from now, or, stored negative
    (``horizon_unit = rounds``), that many rounds of FEEL_TURNS player turns
    (one per seat in play unless the game says otherwise); none at 0."""
    horizon = st[own + MC_HORIZON]
    if horizon == 0:
        return NO_LIMIT
    if horizon < 0:
        horizon = -horizon * turns_per_round(st)
    return st[TURN] + horizon


@njit(cache=True)
def student(z, rounds):
    """The Student-t quantile matching the normal quantile ``z`` for the mean of
    ``rounds`` paired differences (rounds - 1 degrees of freedom), by the
    Cornish-Fisher expansion (within 0.15 of the exact quantile at 3 degrees of
    freedom and z = 2, within 0.01 from 8 on)."""
    nu = np.float64(rounds - 1)
    z2 = z * z
    g1 = (z2 + 1.0) * z / 4.0
    g2 = ((5.0 * z2 + 16.0) * z2 + 3.0) * z / 96.0
    g3 = (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) * z / 384.0
    return z + g1 / nu + g2 / (nu * nu) + g3 / (nu * nu * nu)


@njit(cache=True)
def arm_mean(st, a, rounds):
    """Mean paired difference of answer ``a`` to the incumbent over ``rounds``."""
    return st[ARM_DIFF + a] / np.float64(rounds)


@njit(cache=True)
def arm_error(st, a, rounds):
    """Standard error of that mean, from the sample variance of the
    differences (PRIOR_SQUARES when they have not varied yet)."""
    total = np.float64(st[ARM_DIFF + a])
    squares = st[ARM_SQUARES + a] - total * total / rounds
    if squares <= 0.0:
        return np.sqrt(PRIOR_SQUARES) / rounds
    return np.sqrt(squares / (rounds - 1) / rounds)


@njit(cache=True)
def position_hash(scratch):
    """A hash of a search copy's position (the header's per-game part but the
    stream, and the dynamic span): two answers that lead to the same position
    are the same answer."""
    h = HASH_START
    for i in range(RESET_AT, HEADER_END):
        if i != RNG and i != RNG + 1:
            h = (h ^ np.uint64(scratch[i])) * HASH_FACTOR
    # The dynamic span in four interleaved lanes: four independent chains of
    # multiplies run side by side where one chain waits on each multiply.
    lo = scratch[DYNAMIC_AT]
    hi = scratch[DYNAMIC_END]
    h1 = h ^ np.uint64(1)
    h2 = h ^ np.uint64(2)
    h3 = h ^ np.uint64(3)
    i = lo
    while i + 4 <= hi:
        h = (h ^ np.uint64(scratch[i])) * HASH_FACTOR
        h1 = (h1 ^ np.uint64(scratch[i + 1])) * HASH_FACTOR
        h2 = (h2 ^ np.uint64(scratch[i + 2])) * HASH_FACTOR
        h3 = (h3 ^ np.uint64(scratch[i + 3])) * HASH_FACTOR
        i += 4
    while i < hi:
        h = (h ^ np.uint64(scratch[i])) * HASH_FACTOR
        i += 1
    return np.int64((((h * HASH_FACTOR) ^ h1) * HASH_FACTOR ^ h2) * HASH_FACTOR ^ h3)


@njit(cache=True)
def leader(st, n, incumbent):
    """The challenger still raced with the largest summed difference; -1: none."""
    best = -1
    for a in range(n):
        if a != incumbent and st[ARM_ALIVE + a] and (best < 0 or st[ARM_DIFF + a] > st[ARM_DIFF + best]):
            best = a
    return best


@njit(cache=True)
def prune(st, n, incumbent, rounds, t, indifference):
    """Drop the challengers that cannot matter: those that cannot beat the
    incumbent by ``indifference`` (their upper bound, ``t`` standard errors,
    below it) and those clearly below the leader.  Returns the answers still
    raced, the incumbent included."""
    for a in range(n):
        if a != incumbent and st[ARM_ALIVE + a] and arm_mean(st, a, rounds) + t * arm_error(st, a, rounds) < indifference:
            st[ARM_ALIVE + a] = 0
    lead = leader(st, n, incumbent)
    alive = 1
    if lead < 0:
        return alive
    lead_mean = arm_mean(st, lead, rounds)
    lead_error = arm_error(st, lead, rounds)
    for a in range(n):
        if a == incumbent or not st[ARM_ALIVE + a]:
            continue
        # Var(d_a - d_lead) <= (se_a + se_lead)^2 whatever their correlation.
        if a != lead and arm_mean(st, a, rounds) - lead_mean + t * (arm_error(st, a, rounds) + lead_error) < 0.0:
            st[ARM_ALIVE + a] = 0
        else:
            alive += 1
    return alive


@njit(cache=True)
def drop_futile(st, n, incumbent, rounds, planned, z, futility):
    """Drop the challengers that are unlikely to end the race clearly better
    than the incumbent: their predictive probability of clearing the evidence
    bound (``z``, Student-corrected) after ``planned`` rounds is below
    ``futility``.  The probability is taken over what the rounds still to come
    may bring given the rounds played: their mean difference as uncertain as
    the mean seen so far (a flat prior), so a challenger measured on few rounds
    keeps the benefit of the doubt, one measured on many is judged on its mean.
    Returns the answers still raced, the incumbent included.  A challenger
    that only a lucky streak would carry stops costing playouts (docs/players.md,
    "The futility bound")."""
    alive = 1
    left = planned - rounds
    need_t = student(z, planned)
    for a in range(n):
        if a == incumbent or not st[ARM_ALIVE + a]:
            continue
        if left > 0:
            spread = arm_error(st, a, rounds) * np.sqrt(np.float64(rounds))  # the differences' standard deviation
            need = need_t * spread / np.sqrt(np.float64(planned))
            # the final mean's spread: the rounds to come, and the doubt on their mean
            to_come = left / planned * spread * np.sqrt(1.0 / left + 1.0 / rounds)
            if 0.5 * math.erfc((need - arm_mean(st, a, rounds)) / (to_come * np.sqrt(2.0))) < futility:
                st[ARM_ALIVE + a] = 0
                continue
        alive += 1
    return alive


@njit(cache=True)
def halve(st, n, incumbent):
    """Keep the better half (rounded up) of the challengers still raced, by
    their summed difference to the incumbent; returns the answers still raced."""
    alive = 0
    for a in range(n):
        if a != incumbent and st[ARM_ALIVE + a]:
            alive += 1
    keep = (alive + 1) // 2
    for _ in range(alive - keep):
        worst = -1
        for a in range(n):
            if a != incumbent and st[ARM_ALIVE + a] and (worst < 0 or st[ARM_DIFF + a] <= st[ARM_DIFF + worst]):
                worst = a
        st[ARM_ALIVE + worst] = 0
    return keep + 1


@njit(cache=True)
def clearly_better(st, a, rounds, t):
    """Answer ``a``'s lower confidence bound over the incumbent is above zero."""
    return rounds >= MIN_ROUNDS and arm_mean(st, a, rounds) - t * arm_error(st, a, rounds) > 0.0


@njit(cache=True)
def feel_reset(st):
    """The game-feel counters before a game (balance.state, FEEL)."""
    for i in range(FEEL, FEEL + FEEL_SLOTS):
        st[i] = 0
    st[FEEL + F_LEADER] = FEEL_NONE
    st[FEEL + F_TRAILER] = FEEL_NONE
    st[FEEL + F_LAST_LEADER] = -1
    st[FEEL + F_STRIDE] = 1
    st[FEEL + F_NEXT_TURN] = turns_per_round(st)


@njit(cache=True, forceinline=True)
def feel_note(st, leader, trailer, margin, bottom, all_tied, at_end):
    """Count one sample of the standing: its strict leader and last place
    (-1: a tie), the leader's margin over the next, and (3+ seats, each
    seat's standing in F_VALUES) who is last.  The ring keeps the samples
    ``stride, 2 stride, ...``; when full, every second one is dropped and the
    stride doubles, so a game of any length fits in FEEL_RING slots."""
    k = st[FEEL + F_SAMPLES] + 1
    st[FEEL + F_SAMPLES] = k
    if leader != st[FEEL + F_LEADER]:
        st[FEEL + F_LEADER] = leader
        st[FEEL + F_LEADER_SINCE] = k
        # (the same leader as at the last sample is the last seat that led)
        if leader >= 0 and leader != st[FEEL + F_LAST_LEADER]:
            if st[FEEL + F_LAST_LEADER] >= 0:
                st[FEEL + F_CHANGES] += 1
            st[FEEL + F_LAST_LEADER] = leader
    st[FEEL + F_TRAILER] = trailer
    n = st[N_SEATS]
    if n >= 3:  # who is out of the running: the kingmaking estimate's only input
        for s in range(n):
            if st[FEEL + F_VALUES + s] > bottom or all_tied:
                st[FEEL + F_BOTTOM_SINCE + s] = 0
            elif st[FEEL + F_BOTTOM_SINCE + s] == 0:
                st[FEEL + F_BOTTOM_SINCE + s] = k
                st[FEEL + F_LEADER_AT_BOTTOM + s] = leader
    if at_end:  # (every game ends with this sample: F_MARGIN is read after it only)
        st[FEEL + F_MARGIN] = margin
        if k == 1:
            st[FEEL + F_ROUND_MARGIN] = margin
    else:
        st[FEEL + F_ROUND_MARGIN] = margin
    stride = st[FEEL + F_STRIDE]  # a power of two
    if k & (stride - 1) != 0:
        return
    ring = FEEL + F_RING_AT
    kept = st[FEEL + F_KEPT]
    if kept == FEEL_RING:
        for j in range(FEEL_RING // 2):
            st[ring + j] = st[ring + 2 * j + 1]
        kept = FEEL_RING // 2
        stride *= 2
        st[FEEL + F_STRIDE] = stride
        if k & (stride - 1) != 0:
            st[FEEL + F_KEPT] = kept
            return
    st[ring + kept] = (leader + 1) + (trailer + 1) * FEEL_PACK
    st[FEEL + F_KEPT] = kept + 1


@njit(cache=True)
def feel_at(st, k):
    """The packed (leader, last place) of sample ``k`` (1..R): exact while the
    game has no more than FEEL_RING samples, else the kept sample at or
    before it (the first kept one for an earlier ``k``)."""
    if k >= st[FEEL + F_SAMPLES]:
        return (st[FEEL + F_LEADER] + 1) + (st[FEEL + F_TRAILER] + 1) * FEEL_PACK
    j = max(np.int64(1), k // st[FEEL + F_STRIDE])
    return st[FEEL + F_RING_AT + j - 1]


@njit(cache=True)
def feel_record(st, feel, i):
    """Game ``i``'s game-feel row (FO_*) into ``feel[i]``, at its end (element
    by element: a row view would cost a reference count per game)."""
    n = st[FEEL + F_SAMPLES]
    feel[i, FO_SAMPLES] = n
    feel[i, FO_CHANGES] = st[FEEL + F_CHANGES]
    feel[i, FO_LEADER] = st[FEEL + F_LEADER]
    feel[i, FO_LEADER_SINCE] = st[FEEL + F_LEADER_SINCE]
    for q in range(1, 4):
        feel[i, FO_LEAD_AT + q - 1] = feel_at(st, max(np.int64(1), (q * n + 3) // 4)) % FEEL_PACK - 1
    feel[i, FO_TRAILER_HALF] = feel_at(st, max(np.int64(1), (n + 1) // 2)) // FEEL_PACK - 1
    # A player's last chance of winning: the sample from which it was last to
    # the end (the first such player of the game, the winner excluded).
    out_since = np.int64(0)
    leader_at_out = np.int64(-1)
    for s in range(st[N_SEATS]):
        since = st[FEEL + F_BOTTOM_SINCE + s]
        if s != st[WINNER] and since > 0 and (out_since == 0 or since < out_since):
            out_since = since
            leader_at_out = st[FEEL + F_LEADER_AT_BOTTOM + s]
    feel[i, FO_OUT_SINCE] = out_since
    feel[i, FO_LEADER_AT_OUT] = leader_at_out
    feel[i, FO_MARGIN] = st[FEEL + F_MARGIN]
    feel[i, FO_ROUND_MARGIN] = st[FEEL + F_ROUND_MARGIN]


@njit(cache=True)
def feel_count(st, rec, counts, w):
    """Add the game's record (``feel_record``, into the scratch row
    ``rec[0]``) to worker ``w``'s game-feel counts ``counts[w]`` (FC_*): what
    balance.feel turns into the figures (docs/architecture.md, "Game feel")."""
    feel_record(st, rec, 0)
    r = rec[0, FO_SAMPLES]
    if r <= 0:
        return
    won = st[WINNER]
    counts[w, FC_GAMES] += 1
    changes = rec[0, FO_CHANGES]
    counts[w, FC_CHANGES_SUM] += changes
    counts[w, FC_CHANGES_SQ] += changes * changes
    if won >= 0:
        since = rec[0, FO_LEADER_SINCE] if rec[0, FO_LEADER] == won else r
        decisive = (FEEL_PERMILLE * since + r // 2) // r
        counts[w, FC_DECISIVE_N] += 1
        counts[w, FC_DECISIVE_SUM] += decisive
        counts[w, FC_DECISIVE_SQ] += decisive * decisive
    for q in range(3):
        leader = rec[0, FO_LEAD_AT + q]
        if leader >= 0:
            counts[w, FC_LEAD_GAMES + q] += 1
            if leader == won:
                counts[w, FC_LEAD_WINS + q] += 1
    trailer = rec[0, FO_TRAILER_HALF]
    if trailer >= 0:
        counts[w, FC_TRAIL_GAMES] += 1
        if trailer == won:
            counts[w, FC_TRAIL_WINS] += 1
    if st[N_SEATS] >= 3 and won >= 0:
        counts[w, FC_KING_GAMES] += 1
        out_since = rec[0, FO_OUT_SINCE]
        at_out = rec[0, FO_LEADER_AT_OUT]
        if 0 < out_since < r and at_out >= 0 and at_out != won:
            counts[w, FC_KING_CHANGED] += 1
    margin = rec[0, FO_MARGIN]
    counts[w, FC_MARGIN_SUM] += margin
    counts[w, FC_MARGIN_SQ] += margin * margin
    margin = rec[0, FO_ROUND_MARGIN]
    counts[w, FC_ROUND_MARGIN_SUM] += margin
    counts[w, FC_ROUND_MARGIN_SQ] += margin * margin


# --------------------------------------------------------------------------- the template
# Plain functions: compile_kernel compiles a copy per game with the game's
# advance, apply, heuristics, candidates, determinize, evaluate, MC (the
# index of the search player, after the heuristics) and BUILTIN_DECIDE (True:
# decide is the built-in switch; False in a user's players' copy) bound.


def decide(player, kind, seat, subject, st):
    """The built-in players as one switch: the heuristics, then mc."""
    if player == MC:
        return mc_player(kind, seat, subject, st)
    return heuristics(player, kind, seat, subject, st)


def play_on(st):
    """Play from whatever ``st`` holds to the game's end, every decision asked
    of the seat's player."""
    while st[END_REASON] < 0:
        advance(st)
        if st[END_REASON] >= 0:
            return
        seat = st[DECIDER]
        apply(st, decide(st[SEATING + seat], st[DECISION], seat, st[SUBJECT], st))


def play_game(state, seating, player_params, seed, game, record):
    """Game ``game`` under master seed ``seed``, from setup to its end.

    With the built-in switch and no search player seated (a state without a
    search workspace), every seat is a heuristic: the game is played as a
    playout to its end, which asks the heuristics directly, without the
    switch's branch to the search player (that branch in the loop of every
    decision measured 2% of the flagship game's games/s); the same decisions."""
    st = unmanaged(state)
    reset_game(st, seating, player_params, seed, game, record)
    feel_reset(st)
    if BUILTIN_DECIDE and st[SCRATCH_AT] == 0:
        feel_playout(st)
    else:
        feel_play_on(st)
    feel_sample(st, AT_END)


def feel_sample(st, at_end):
    """Sample the standing of every seat (the game's ``standing``) into the
    game-feel counters (``feel_note``).  Draws no random number and changes
    nothing the rules read."""
    n = st[N_SEATS]
    if n == 2:  # the common case, without the loop: the same leader, last place and margin
        v0 = np.int64(standing(st, 0))
        v1 = np.int64(standing(st, 1))
        if v0 > v1:
            feel_note(st, np.int64(0), np.int64(1), v0 - v1, v1, False, at_end)
        elif v1 > v0:
            feel_note(st, np.int64(1), np.int64(0), v1 - v0, v0, False, at_end)
        else:
            feel_note(st, np.int64(-1), np.int64(-1), np.int64(0), v0, True, at_end)
        return
    top = -FEEL_FAR
    second = -FEEL_FAR
    bottom = FEEL_FAR
    leader = np.int64(-1)
    trailer = np.int64(-1)
    at_top = 0
    at_bottom = 0
    for s in range(n):
        v = np.int64(standing(st, s))
        if n >= 3:
            st[FEEL + F_VALUES + s] = v
        if v > top:
            second = top
            top = v
            leader = s
            at_top = 1
        elif v == top:
            second = v
            at_top += 1
        elif v > second:
            second = v
        if v < bottom:
            bottom = v
            trailer = s
            at_bottom = 1
        elif v == bottom:
            at_bottom += 1
    feel_note(
        st, leader if at_top == 1 else np.int64(-1), trailer if at_bottom == 1 else np.int64(-1), top - second,
        bottom, at_bottom == n, at_end,
    )


def feel_round_end(st):
    """Sample the standing when the pending decision is the first of a new
    round (a round: FEEL_TURNS player turns, one per seat by default): one
    comparison per decision."""
    if st[TURN] > st[FEEL + F_NEXT_TURN]:
        per_round = turns_per_round(st)
        after = st[FEEL + F_NEXT_TURN] + per_round
        while after < st[TURN]:
            after += per_round
        st[FEEL + F_NEXT_TURN] = after
        feel_sample(st, AT_ROUND_END)


def feel_playout(st):
    """``playout`` to the end with the game-feel samples (the same decisions):
    the playout's own loop, whose check of the turn against a limit is here
    the check for the next round's first decision, where the sample is taken
    (``feel_round_end``, inlined) before that decision is answered.  Measured
    against returning from ``playout`` at each round end and asking the
    pending decision again, 8% less time in the fastest registered game
    (docs/speed-history.md, "Game feel: the counters' cost")."""
    next_turn = st[FEEL + F_NEXT_TURN]
    while st[END_REASON] < 0:
        advance(st)
        if st[END_REASON] >= 0:
            return
        if st[TURN] > next_turn:
            feel_round_end(st)
            next_turn = st[FEEL + F_NEXT_TURN]
        seat = st[DECIDER]
        apply(st, heuristics(st[SEATING + seat], st[DECISION], seat, st[SUBJECT], st))


def feel_play_on(st):
    """``play_on`` with the game-feel samples (the same decisions)."""
    while st[END_REASON] < 0:
        advance(st)
        if st[END_REASON] >= 0:
            return
        feel_round_end(st)
        seat = st[DECIDER]
        apply(st, decide(st[SEATING + seat], st[DECISION], seat, st[SUBJECT], st))


def playout(st, last_turn):
    """A search playout: every seat decides by its heuristic (never a search),
    until the game ends or a decision comes after turn ``last_turn``."""
    while st[END_REASON] < 0:
        advance(st)
        if st[END_REASON] >= 0 or st[TURN] > last_turn:
            return
        seat = st[DECIDER]
        apply(st, heuristics(st[SEATING + seat], st[DECISION], seat, st[SUBJECT], st))


def mc_player(kind, seat, subject, st):
    """The search player: a race of the candidates against the rollout
    policy's answer (the module docstring)."""
    own = PLAYER_PARAMS + seat * MAX_PLAYER_PARAMS
    policy = st[own + MC_ROLLOUT_POLICY]
    n = candidates(st, st[CANDIDATES : CANDIDATES + MAX_CANDIDATES])
    if n == 0:
        return heuristics(policy, kind, seat, subject, st)
    last_turn = playout_last_turn(st, own)
    at = st[SCRATCH_AT]
    scratch = st[at : at + st[CORE]]
    # The rollout policy's own answer, asked on a copy (it may draw random numbers).
    copy_for_search(st, scratch, seat, NO_ROWS)
    incumbent = heuristics(policy, kind, seat, subject, scratch)
    if st[own + MC_ALLOCATION] == ALLOCATION_EVEN:
        return even_search(st, scratch, seat, n, incumbent, last_turn, st[own + MC_ROLLOUTS])
    return race(st, scratch, seat, n, incumbent, last_turn, st[own + MC_ROLLOUTS])


def play_arm(st, scratch, seat, a, stream, last_turn):
    """One playout of answer ``a`` on stream ``stream``: its value for ``seat``."""
    copy_for_search(st, scratch, seat, stream)
    determinize(scratch, seat)
    apply(scratch, st[CANDIDATES + a])
    playout(scratch, last_turn)  # returns at once if that answer ended the game
    return evaluate(scratch, seat)


def play_round(st, scratch, seat, n, inc, r, crn, last_turn):
    """Round ``r``: the incumbent, then every answer still raced, one playout
    each; the paired differences to the incumbent are summed."""
    base = r if crn else r * STREAMS_PER_ROUND
    mine = play_arm(st, scratch, seat, inc, base, last_turn)
    st[ARM_VALUE + inc] += mine
    for a in range(n):
        if a == inc or not st[ARM_ALIVE + a]:
            continue
        value = play_arm(st, scratch, seat, a, base if crn else base + 1 + a, last_turn)
        d = value - mine
        st[ARM_VALUE + a] += value
        st[ARM_DIFF + a] += d
        st[ARM_SQUARES + a] += d * d


def race(st, scratch, seat, n, incumbent, last_turn, budget):
    """The race of the module docstring; returns the answer."""
    own = PLAYER_PARAMS + seat * MAX_PLAYER_PARAMS
    inc = -1
    for a in range(n):
        if st[CANDIDATES + a] == incumbent:
            inc = a
            break
    if inc < 0:  # the menu lacks the policy's answer: it races too
        inc = n if n < MAX_CANDIDATES else n - 1
        st[CANDIDATES + inc] = incumbent
        n = inc + 1
    if n == 1:
        return incumbent
    crn = st[own + MC_CRN] != 0
    z = st[own + MC_EVIDENCE : own + MC_EVIDENCE + 1].view(np.float64)[0]
    indifference = VALUE_SCALE * st[own + MC_INDIFFERENCE : own + MC_INDIFFERENCE + 1].view(np.float64)[0]
    futility = st[own + MC_FUTILITY : own + MC_FUTILITY + 1].view(np.float64)[0]
    # Answers that lead to the same position as an earlier one (or as the
    # incumbent's) are the same answer: they never race.
    for a in range(n):
        copy_for_search(st, scratch, seat, NO_ROWS)
        determinize(scratch, seat)
        apply(scratch, st[CANDIDATES + a])
        st[ARM_HASH + a] = position_hash(scratch)
    alive = 0
    for a in range(n):
        st[ARM_VALUE + a] = 0
        st[ARM_DIFF + a] = 0
        st[ARM_SQUARES + a] = 0
        st[ARM_ALIVE + a] = 1
        if a != inc:
            if st[ARM_HASH + a] == st[ARM_HASH + inc]:
                st[ARM_ALIVE + a] = 0
            else:
                for b in range(a):
                    if st[ARM_ALIVE + b] and b != inc and st[ARM_HASH + b] == st[ARM_HASH + a]:
                        st[ARM_ALIVE + a] = 0
                        break
        alive += st[ARM_ALIVE + a]
    if alive == 1:
        st[SEARCHES] += 1
        return incumbent
    rounds = np.int64(0)
    used = np.int64(0)
    check = CHECK_EVERY
    while used + alive <= budget:
        play_round(st, scratch, seat, n, inc, rounds, crn, last_turn)
        used += alive
        rounds += 1
        if alive > 2 and budget - used < CHECK_EVERY * alive:
            # More answers than the budget can race: keep the better half of the
            # challengers after each round until the rest can be raced (successive halving).
            alive = halve(st, n, inc)
            continue
        if rounds >= check:
            while check <= rounds:
                check += CHECK_EVERY
            alive = prune(st, n, inc, rounds, student(PRUNE_Z, rounds), indifference)
            if alive > 1 and futility > 0.0:
                alive = drop_futile(st, n, inc, rounds, rounds + (budget - used) // alive, z, futility)
            if alive == 1:
                break
            # An early switch needs at least the evidence that drops an answer, and more
            # the earlier it comes (O'Brien-Fleming: the bound grows with the square
            # root of the rounds the budget still allows).
            planned = rounds + (budget - used) // alive
            early = student(max(z, PRUNE_Z), rounds) * np.sqrt(planned / rounds)
            if alive == 2 and clearly_better(st, leader(st, n, inc), rounds, early):
                break
    st[SEARCHES] += 1
    st[SEARCH_PLAYOUTS] += used
    best = leader(st, n, inc)
    if best >= 0 and rounds >= MIN_ROUNDS and clearly_better(st, best, rounds, student(z, rounds)):
        st[SEARCH_DEVIATIONS] += 1
        return st[CANDIDATES + best]
    return incumbent


def even_search(st, scratch, seat, n, incumbent, last_turn, budget):
    """Flat Monte Carlo: ``budget`` playouts shared evenly in rounds on common
    random numbers, the best total wins (``allocation = even``)."""
    if n == 1:
        return st[CANDIDATES]
    rounds = max(1, budget // n)
    for a in range(n):
        st[ARM_VALUE + a] = 0
    for r in range(rounds):
        for a in range(n):
            st[ARM_VALUE + a] += play_arm(st, scratch, seat, a, np.int64(r), last_turn)
    st[SEARCHES] += 1
    st[SEARCH_PLAYOUTS] += rounds * n
    answer = st[CANDIDATES + best_arm(st, n, incumbent)]
    if answer != incumbent:
        st[SEARCH_DEVIATIONS] += 1
    return answer


def crn_probe(st, rounds, out):
    """At the pending decision of a searching seat: for every candidate but the
    rollout policy's answer, the variance of its playout value minus that
    answer's, over ``rounds`` rounds with common random numbers (``out[a, 0]``)
    and with a stream per answer and round (``out[a, 1]``); ``out[a, 2]`` is
    1 for the policy's own answer.  Returns the number of candidates (0: no
    search here).  What docs/players.md's CRN table measures."""
    seat = st[DECIDER]
    own = PLAYER_PARAMS + seat * MAX_PLAYER_PARAMS
    n = candidates(st, st[CANDIDATES : CANDIDATES + MAX_CANDIDATES])
    if n < 2:
        return 0
    last_turn = playout_last_turn(st, own)
    at = st[SCRATCH_AT]
    scratch = st[at : at + st[CORE]]
    copy_for_search(st, scratch, seat, NO_ROWS)
    incumbent = heuristics(st[own + MC_ROLLOUT_POLICY], st[DECISION], seat, st[SUBJECT], scratch)
    inc = -1
    for a in range(n):
        out[a, 0] = 0.0
        out[a, 1] = 0.0
        out[a, 2] = 0.0
        if st[CANDIDATES + a] == incumbent and inc < 0:
            inc = a
    if inc < 0:
        return 0
    out[inc, 2] = 1.0
    for mode in range(2):
        for a in range(n):
            if a == inc:
                continue
            total = 0.0
            squares = 0.0
            for r in range(rounds):
                base = np.int64(r) * STREAMS_PER_ROUND
                mine = play_arm(st, scratch, seat, inc, base, last_turn)
                value = play_arm(st, scratch, seat, a, base if mode == 0 else base + 1 + a, last_turn)
                d = np.float64(value - mine)
                total += d
                squares += d * d
            out[a, mode] = (squares - total * total / rounds) / (rounds - 1)
    return n


def play_batch(
    image, seatings, player_params, seed, first_game, n_games, n_workers, with_scratch,
    winner, end_reason, turns, score, heat, feel,
):
    """Games first_game .. first_game + n_games - 1 into the preallocated outputs.

    prange over ``n_workers`` workers (one per thread; the caller passes
    numba.get_num_threads(): asked inside a kernel, it is a dynamic global that
    defeats the cache).  Each worker allocates one state, then claims batches of
    games from a shared counter (balance.parallel) until none are left.  Game g
    is seeded from (seed, g), seated by seatings[g % P] and written to slot g,
    so results never depend on which worker played it.  A game with a
    heatmap adds each game's cells to ``heat[worker]`` (integers: the sum over
    workers is the same whoever played what); so does every game's
    game-feel record to ``feel[worker]`` (FC_*: ``feel_count``), which keeps
    no row per game.
    """
    if n_games <= 0:
        return
    n_seats = seatings.shape[1]
    n_seatings = seatings.shape[0]
    n_workers = max(1, min(n_games, n_workers))
    batch = batch_size(n_games, n_workers)
    counter = new_counter()
    heat_at = image[HEAT_AT]
    n_cells = image[HEAT_CELLS]
    for w in prange(n_workers):
        st = new_state(image, n_seats, NO_ROWS, with_scratch)
        rows = seatings.copy()  # this worker's own: no shared reference count per game
        values = player_params.copy()
        rec = np.empty((1, FEEL_OUT), np.int64)  # the game's game-feel record, counted at its end
        while True:
            lo = claim(counter, batch)
            if lo >= n_games:
                break
            for i in range(lo, min(lo + batch, n_games)):
                g = first_game + i
                p = g % n_seatings
                play_game(st, rows[p], values[p], seed, g, RECORD_OFF)
                winner[i] = st[WINNER]
                end_reason[i] = st[END_REASON]
                turns[i] = st[TURN]
                for s in range(n_seats):
                    score[i, s] = st[SCORE + s]
                feel_count(st, rec, feel, w)
                for c in range(n_cells):
                    heat[w, c] += st[heat_at + c]


def play_traced(image, seating, player_params, seed, game, n_event_rows, with_scratch):
    """One game with recording on; its final state, trace rows included."""
    st = new_state(image, seating.shape[0], n_event_rows, with_scratch)
    play_game(st, seating, player_params, seed, game, RECORD_ON)
    return st


_TEMPLATE = (
    decide, play_on, play_game, feel_sample, feel_round_end, feel_playout, feel_play_on, playout, play_arm,
    play_round, race, even_search, crn_probe, mc_player, play_batch, play_traced,
)
_PARALLEL = frozenset({"play_batch"})
# inlined by LLVM into their callers: a round-end sample is a few loads and
# stores, less than passing the state array to a call (its seven fields)
_FORCEINLINE = frozenset({"feel_sample", "feel_round_end"})
# what a new decide recompiles (with what they call that is not bound)
_DECIDING = (
    "play_on", "play_game", "play_batch", "play_traced", "feel_sample", "feel_round_end", "feel_playout",
    "feel_play_on",
)
_SUPPLIED = ("advance", "apply", "heuristics", "candidates", "determinize", "evaluate", "standing")

# The files a game's compiled copy of the engine takes code from besides the
# game's own: a change to any of them must flush the game's cache.
ENGINE_FILES = tuple(
    Path(__file__).with_name(name) for name in ("engine.py", "state.py", "rng.py", "parallel.py")
)


@dataclass(frozen=True)
class Kernel:
    """A game's compiled drivers (numba dispatchers); see the module docstring."""

    module: str
    n_heuristics: int
    decide: Any
    play_on: Any
    play_game: Any
    playout: Any
    mc_player: Any
    play_batch: Any
    play_traced: Any
    supplied: dict[str, Any]
    search_parts: tuple[Any, ...] = ()  # play_arm, race, even_search, crn_probe, play_round (mc's own parts)

    @property
    def crn_probe(self) -> Any:
        return self.search_parts[3]

    @property
    def mc(self) -> int:
        """The search player's index in ``decide`` (after the heuristics)."""
        return self.n_heuristics

    def with_decide(self, decide_fn: Any) -> "Kernel":
        """The drivers recompiled to ask ``decide_fn(player, kind, seat, subject,
        st)`` (a compiled switch that may call users' players); not cached, so
        compiled once per process and per switch."""
        bound = {
            "decide": decide_fn,
            "playout": self.playout,
            "mc_player": self.mc_player,
        }
        scope = {**self.supplied, "MC": self.mc, "BUILTIN_DECIDE": False}
        fresh = _instantiate(self.module, scope, bound, _DECIDING, cache=False)
        return Kernel(
            self.module, self.n_heuristics, decide_fn, fresh["play_on"], fresh["play_game"],
            self.playout, self.mc_player, fresh["play_batch"], fresh["play_traced"], self.supplied,
            self.search_parts,
        )

    def dispatchers(self) -> list[Any]:
        return [
            self.decide, self.play_on, self.play_game, self.playout, self.mc_player, self.play_batch,
            self.play_traced, *self.search_parts,
        ]


def _instantiate(
    module: str, supplied: dict[str, Any], bound: dict[str, Any], names: tuple[str, ...] | None, cache: bool
) -> dict[str, Any]:
    """Compile the template functions ``names`` (all when None) for one game:
    their source is written, once, to a readable module of the game's own
    (:func:`driver_file`), whose names the game's ``supplied`` functions, the
    constants MC and BUILTIN_DECIDE and the already compiled ``bound`` ones
    fill in; numba compiles (and caches) it like any module of the game."""
    import importlib.util

    chosen = tuple(t for t in _TEMPLATE if names is None or t.__name__ in names)
    path = driver_file(module, cache)
    source = _driver_source(module, supplied, bound, chosen, cache)
    if not path.is_file() or path.read_text(encoding="utf-8") != source:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(source, encoding="utf-8")
        os.replace(tmp, path)  # atomic: another process may be reading it
    name = f"{module}.{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    generated = importlib.util.module_from_spec(spec)
    generated.__dict__.update({k: v for k, v in supplied.items() if k not in ("MC", "BUILTIN_DECIDE")})
    generated.__dict__.update(bound)
    sys.modules[name] = generated  # numba's cache finds a function's module by name when it loads it
    spec.loader.exec_module(generated)
    return {t.__name__: getattr(generated, t.__name__) for t in chosen}


def driver_file(module: str, cache: bool = True) -> Path:
    """Where a game's compiled copy of the engine lives as source: beside the
    game's numba cache (``<package>/__pycache__/``, or NUMBA_CACHE_DIR when set),
    ``balance_drivers_<kernel module>.py`` (``..._custom.py``: a user's players)."""
    stem = "balance_drivers_" + module.rsplit(".", 1)[-1] + ("" if cache else "_custom")
    if numba_config.CACHE_DIR:
        return Path(numba_config.CACHE_DIR) / "balance_drivers" / module.replace(".", "_") / f"{stem}.py"
    folder = Path(sys.modules[module].__file__).parent / "__pycache__"
    if os.access(folder if folder.exists() else folder.parent, os.W_OK):
        return folder / f"{stem}.py"
    import tempfile

    return Path(tempfile.gettempdir()) / "balance_drivers" / module.replace(".", "_") / f"{stem}.py"


def _driver_source(
    module: str, supplied: dict[str, Any], bound: dict[str, Any], chosen: tuple[Any, ...], cache: bool
) -> str:
    """The generated module's text: the engine's names it reads, the game's
    constants, then each template's own source, decorated."""
    import inspect

    templates = {t.__name__ for t in _TEMPLATE}
    filled = set(supplied) | set(bound)
    used: set[str] = set()
    for t in chosen:
        used.update(t.__code__.co_names)
    engine = sorted(
        n for n in used
        if n in globals() and n not in templates and n not in filled and n not in ("MC", "BUILTIN_DECIDE")
    )
    mc = int(supplied["MC"])
    builtin = bool(supplied["BUILTIN_DECIDE"])
    game_names = sorted(n for n in filled if n not in ("MC", "BUILTIN_DECIDE"))
    lines = [
        f'"""The engine\'s drivers compiled for {module}: generated by balance.engine.compile_kernel',
        "from the templates in balance/engine.py (do not edit: rewritten when they change).",
        "",
        f"Bound by the engine before this module runs: {', '.join(game_names)}",
        f"(the game's functions{' and the drivers compiled already' if bound else ''}).",
        '"""',
        "",
        "from numba import njit",
        "",
        "from balance.engine import (  # the engine's own names the drivers read",
    ]
    lines += [f"    {n}," for n in engine]
    lines += [
        ")",
        "",
        f"MC = {mc}  # the search player's index in decide (after the game's {mc} heuristics)",
        f"BUILTIN_DECIDE = {builtin}  # decide is the built-in switch" + ("" if builtin else " (False: a user's players)"),
        "",
    ]
    for t in chosen:
        options = f"cache={cache}" + (", parallel=True" if t.__name__ in _PARALLEL else "")
        options += ", forceinline=True" if t.__name__ in _FORCEINLINE else ""
        lines += ["", f"@njit({options})", inspect.getsource(t).rstrip(), ""]
    return "\n".join(lines) + "\n"


def compile_kernel(
    module: str,
    *,
    advance: Callable[..., Any],
    apply: Callable[..., Any],
    heuristics: Callable[..., Any],
    n_heuristics: int,
    candidates: Callable[..., Any],
    determinize: Callable[..., Any],
    evaluate: Callable[..., Any],
    standing: Callable[..., Any] | None = None,
) -> Kernel:
    """The engine compiled for the game whose kernel module is ``module``
    (call it at the end of that module: ``KERNEL = compile_kernel(__name__, ...)``).

    Nothing compiles here: numba compiles, or loads from its cache, on the
    first call.  Before that, the game's cache is flushed if any file of the
    game's package or of the engine changed (:mod:`balance.kernelcache`)."""
    supplied = {
        "advance": advance,
        "apply": apply,
        "heuristics": heuristics,
        "candidates": candidates,
        "determinize": determinize,
        "evaluate": evaluate,
        "standing": evaluate if standing is None else standing,
    }
    made = _instantiate(module, {**supplied, "MC": n_heuristics, "BUILTIN_DECIDE": True}, {}, None, cache=True)
    kernel = Kernel(
        module, int(n_heuristics), made["decide"], made["play_on"], made["play_game"], made["playout"],
        made["mc_player"], made["play_batch"], made["play_traced"], supplied,
        (made["play_arm"], made["race"], made["even_search"], made["crn_probe"], made["play_round"]),
    )
    _drop_stale_cache(module, [*kernel.dispatchers(), *made.values()])
    return kernel


_CHECKED: set[int] = set()


def check_compiles(game: str, kernel: Kernel) -> None:
    """Type the game's own functions (``advance``, ``apply``, its players' switch,
    the search hooks) on their own, before any driver of the engine compiles
    them in: a typing error then raises :class:`balance.errors.GameDoesNotCompile`
    naming the game's file and line, not a chain through engine code.  Once per
    kernel and process; free when they are compiled or cached already."""
    if id(kernel) in _CHECKED:
        return
    from numba.core.errors import TypingError

    st = types.Array(types.int64, 1, "C")
    i64 = types.int64
    signatures = {
        "advance": (st,), "apply": (st, i64), "heuristics": (i64, i64, i64, i64, st), "candidates": (st, st),
        "determinize": (st, i64), "evaluate": (st, i64), "standing": (st, i64),
    }
    for name, fn in kernel.supplied.items():
        if not hasattr(fn, "compile") or name not in signatures:
            continue
        try:
            fn.compile(signatures[name])
        except TypingError as exc:
            raise _compile_error(game, name, fn, exc) from None
    _CHECKED.add(id(kernel))


def _compile_error(game: str, name: str, fn: Any, exc: Exception) -> Exception:
    """The first place in the game's own files that numba's message names."""
    import re

    from balance.errors import GameDoesNotCompile

    text = str(exc)
    folder = Path(sys.modules[fn.py_func.__module__].__file__).resolve().parent
    where = None
    for path, line in re.findall(r'File "([^"]+)", line (\d+)', text):
        p = Path(path)
        full = (p if p.is_absolute() else Path.cwd() / p).resolve()
        if folder in full.parents or full.parent == folder:
            where = f"{full}:{line}"
            break
    reason = next(
        (ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith(("Failed in", "During", "File", " "))),
        text.splitlines()[0] if text else "a typing error",
    )
    call = next((ln.strip() for ln in text.splitlines() if ln.strip().startswith(">>>")), None)
    if reason.endswith(":") and call:
        reason = f"{reason} {call[3:].strip()}"
    at = where or f"{fn.py_func.__code__.co_filename}:{fn.py_func.__code__.co_firstlineno}"
    return GameDoesNotCompile(f"{at}: {game}'s {name} does not compile: {reason}")


def _drop_stale_cache(module: str, compiled: list[Any]) -> None:
    """A game's cached functions compile in each other and the engine: key the
    whole package's cache on all those files (balance.kernelcache).  Every
    compiled copy of the engine is flushed with them (the game-feel drivers
    inline the game's rules too)."""
    from balance.kernelcache import cached_functions, drop_stale_cache

    package = module.rsplit(".", 1)[0]
    folder = Path(sys.modules[module].__file__).parent
    modules = [m for name, m in list(sys.modules.items()) if name == package or name.startswith(package + ".")]
    functions = [*cached_functions(modules), *compiled]
    drop_stale_cache(package, functions, [*folder.glob("*.py"), *ENGINE_FILES])
