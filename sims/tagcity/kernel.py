"""Tag City's rules (RULES.md) as a state machine for balance.engine.

A round: roll (the leader rolls N + 1 dice), assign (the leader puts each die
on one of the two ring slots beside its face), the draft (from the leader's
left, each seat takes one die and paints its tile, uses a drone or checks its
social networks; completions score at once), then the shared step (every seat
acts with the last die on the state before the step; the answers are applied
together).  The end conditions are checked after each draft action and after
the shared step; once one holds the round is played out (``finish_round``).
All progress lives in state slots (state.py), so a search copies the state
anywhere in a round.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from balance.engine import compile_kernel
from balance.state import (
    DECIDER,
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
    event_value,
    score_at,
    seating_at,
)
from sims.tagcity import players
from sims.tagcity.events import begin_assign, begin_roll, write_action, write_complete, write_end
from sims.tagcity.params import (
    DRONE_HQ,
    P_DRONE_BOXES,
    P_DRONE_SHAPES,
    P_FINISH_ROUND,
    P_HQ_SIDE,
    P_MAX_ROUNDS,
    P_SOCIAL_CIRCLES,
    P_SOCIAL_POINTS,
    P_TIE_RULE,
    SIDE_B,
    TIE_ALL_HIGH,
)
from sims.tagcity.state import (
    ACT_DRONE,
    ACT_PAINT,
    ACT_SOCIAL,
    B_CENTRE,
    B_N_PLACE,
    B_PAIR_WORDS,
    B_TILE_CELLS,
    B_POOL_B,
    B_RING,
    B_TARGETS,
    B_WORDS,
    CLOSED,
    END_ROUND_LIMIT,
    FIRST_END,
    FREE_CIRCLES,
    KIND_ACT,
    KIND_ASSIGN,
    LEADER,
    N_CLOSED,
    N_DICE,
    N_POOL,
    PAIR_BITS,
    PH_ASSIGN,
    PH_DRAFT,
    PH_OVER,
    PH_ROUND,
    PH_SETUP,
    PH_SHARED,
    PHASE,
    POOL_LONG,
    POOL_MAX,
    R_NCELLS,
    STEP,
    SUBJECT_DRAFT,
    SUBJECT_SHARED,
    TAKEN,
    WEIGHT_VERSION,
    act,
    act_arg,
    act_die,
    act_kind,
    best_placement,
    can_drone,
    centre_at,
    cover_field,
    cover_row,
    dice_at,
    die_shape,
    drone_pool_at,
    drone_pts_at,
    drones_at,
    empty_at,
    faces_at,
    heat_cell_at,
    in_drone_pool,
    init_cell_values,
    inv_at,
    legal,
    pair_count,
    pair_target,
    lowest_free_circle,
    lowest_offered,
    offered,
    pending_at,
    placement_field,
    placement_row,
    placement_shape,
    pool_b_at,
    pool_order_at,
    remote_at,
    ring_a_at,
    ring_at,
    rule_at,
    shape_long_at,
    shape_size_at,
    sheet_at,
    sheet_version_at,
    shift_target,
    slot_at,
    social_pts_at,
    socials_at,
    target_high_at,
    target_low_at,
    target_pts_at,
    target_size_at,
    touch_neighbours,
    update_near,
    weight_at,
)

NO_WINNER = np.int64(-1)
IN_DRAFT = np.bool_(False)
IN_SHARED_STEP = np.bool_(True)


# --------------------------------------------------------------------------- setup and rounds
@njit(cache=True)
def _setup(st):
    """Rules 1-3: the ring (side B: drawn from the shuffled pool), empty sheets,
    every score 0, every circle free."""
    n = st[N_SEATS]
    n_ring = st[B_RING]
    if st[rule_at(P_HQ_SIDE)] == SIDE_B:
        n_pool = st[B_POOL_B]
        for i in range(n_pool):
            st[pool_order_at(i)] = st[pool_b_at(i)]
        for i in range(n_pool - 1, 0, -1):
            j = draw_below(st, np.int64(i + 1))
            tmp = st[pool_order_at(i)]
            st[pool_order_at(i)] = st[pool_order_at(j)]
            st[pool_order_at(j)] = tmp
        for k in range(n_ring):
            st[ring_at(k)] = st[pool_order_at(k)]
    else:
        for k in range(n_ring):
            st[ring_at(k)] = st[ring_a_at(k)]
    # the drone pool: ring slots 0.., then the centre, each tile once
    n_pool = np.int64(0)
    if st[rule_at(P_DRONE_SHAPES)] == DRONE_HQ:
        for k in range(n_ring):
            n_pool = _pool_add(st, n_pool, st[ring_at(k)])
    for k in range(st[B_CENTRE]):
        n_pool = _pool_add(st, n_pool, st[centre_at(k)])
    st[N_POOL] = n_pool
    largest = 0
    longest = 0
    for i in range(n_pool):
        largest = max(largest, st[shape_size_at(st[drone_pool_at(i)])])
        longest = max(longest, st[shape_long_at(st[drone_pool_at(i)])])
    st[POOL_MAX] = largest
    st[POOL_LONG] = longest
    for t in range(st[B_TARGETS]):
        st[weight_at(t)] = st[target_high_at(t)]
        for s in range(n):
            st[empty_at(s, t)] = st[target_size_at(t)]
    for s in range(n):
        init_cell_values(st, s)
        update_near(st, s)
    st[FREE_CIRCLES] = (np.int64(1) << st[rule_at(P_SOCIAL_CIRCLES)]) - 1
    st[TURN] = 0
    st[PHASE] = PH_ROUND


@njit(cache=True)
def _pool_add(st, n, shape):
    for i in range(n):
        if st[drone_pool_at(i)] == shape:
            return n
    st[drone_pool_at(n)] = shape
    return n + 1


@njit(cache=True)
def _start_round(st):
    """Rules 4, 5, 14: a new round (or the cap), its leader, the roll."""
    if st[TURN] >= st[rule_at(P_MAX_ROUNDS)]:
        _finish(st, np.int64(END_ROUND_LIMIT))
        return
    n = st[N_SEATS]
    st[TURN] += 1
    leader = (st[TURN] - 1) % n
    st[LEADER] = leader
    st[N_DICE] = n + 1
    st[TAKEN] = 0
    for d in range(n + 1):
        st[dice_at(d)] = draw_below(st, np.int64(6)) + 1
    if st[RECORD]:
        at = begin_roll(st)
        st[event_value(at, 0)] = leader
        for d in range(n + 1):
            st[event_value(at, 1 + d)] = st[dice_at(d)]
    st[PHASE] = PH_ASSIGN


@njit(cache=True)
def advance(st):
    """Run the rules to the next decision (or the end)."""
    while True:
        phase = st[PHASE]
        if phase == PH_SETUP:
            _setup(st)
        elif phase == PH_ROUND:
            _start_round(st)
            if st[END_REASON] >= 0:
                return
        elif phase == PH_ASSIGN:
            st[SEAT] = st[LEADER]
            ask(st, st[LEADER], KIND_ASSIGN, np.int64(0))
            return
        elif phase == PH_DRAFT:
            seat = (st[LEADER] + 1 + st[STEP]) % st[N_SEATS]
            st[SEAT] = seat
            ask(st, seat, KIND_ACT, SUBJECT_DRAFT)
            return
        elif phase == PH_SHARED:
            st[SEAT] = st[STEP]
            ask(st, st[STEP], KIND_ACT, SUBJECT_SHARED)
            return
        else:
            return


# --------------------------------------------------------------------------- answers
@njit(cache=True)
def checked_act(st, seat, answer):
    """``answer`` if it is a legal act for ``seat`` now, else the fallback:
    social with the lowest free circle and the lowest offered die."""
    if answer >= 0:
        kind = act_kind(answer)
        die = act_die(answer)
        arg = act_arg(answer)
        if offered(st, die):
            if kind == ACT_PAINT:
                if arg < st[B_N_PLACE] and placement_shape(st, arg) == die_shape(st, die) and legal(st, seat, arg):
                    return answer
            elif kind == ACT_DRONE:
                if (
                    arg < st[B_N_PLACE]
                    and can_drone(st, seat)
                    and in_drone_pool(st, placement_shape(st, arg))
                    and legal(st, seat, arg)
                ):
                    return answer
            elif kind == ACT_SOCIAL:
                if st[FREE_CIRCLES] == 0:
                    return act(ACT_SOCIAL, die, np.int64(0))
                if arg < 64 and (st[FREE_CIRCLES] >> arg) & 1:
                    return answer
    return act(ACT_SOCIAL, lowest_offered(st), max(lowest_free_circle(st), 0))


@njit(cache=True)
def _assign(st, answer):
    """Rule 5: each die on one of the two slots beside its face."""
    n_dice = st[N_DICE]
    if answer < 0 or answer >= (np.int64(1) << n_dice):
        answer = 0
    for d in range(n_dice):
        face = st[dice_at(d)] - 1
        st[slot_at(d)] = st[faces_at(face, (answer >> d) & 1)]
    if st[RECORD]:
        at = begin_assign(st)
        st[event_value(at, 0)] = st[LEADER]
        for d in range(n_dice):
            st[event_value(at, 1 + d)] = st[slot_at(d)]
    st[PHASE] = PH_DRAFT
    st[STEP] = 0


@njit(cache=True)
def _paint(st, seat, p):
    """Paint placement ``p`` on ``seat``'s sheet; the targets it completes (bits)."""
    words = st[B_WORDS]
    row = cover_row(st, p)
    for w in range(words):
        st[sheet_at(seat, w)] |= st[cover_field(row, w)]
    st[sheet_version_at(seat)] += 1
    done = np.int64(0)
    near = False
    largest = st[B_TILE_CELLS]
    for k in range(st[B_PAIR_WORDS]):
        pairs = st[cover_field(row, words + k)]
        while pairs != 0:
            t = pair_target(pairs)
            before = st[empty_at(seat, t)]
            st[empty_at(seat, t)] = before - pair_count(pairs)
            pairs >>= PAIR_BITS
            near |= st[empty_at(seat, t)] <= largest
            if st[empty_at(seat, t)] == 0:
                done |= np.int64(1) << t
            else:
                shift_target(
                    st, seat, t, 2 * st[weight_at(t)] * (st[inv_at(st[empty_at(seat, t)])] - st[inv_at(before)])
                )
    touch_neighbours(st, seat, p)
    rec = placement_row(st, p)
    # NEAR holds the targets with at most B_TILE_CELLS empty cells; a target the paint left with more
    # had more before, and the others' empty cells did not change: NEAR changes only if one is left near
    if near:
        update_near(st, seat)
    r_cells = st[R_NCELLS]
    for k in range(st[placement_field(rec, r_cells)]):
        st[heat_cell_at(st[placement_field(rec, r_cells + 1 + k)])] += 1
    return done


@njit(cache=True)
def _perform(st, seat, answer, shared, free):
    """Do a checked act for ``seat``; ``free`` = the circles free for it (the
    state before the step, in the shared step).  Returns (targets completed,
    circle circled or -1)."""
    kind = act_kind(answer)
    die = act_die(answer)
    arg = act_arg(answer)
    done = np.int64(0)
    circle = -1
    points = 0
    box = -1
    if kind == ACT_PAINT:
        done = _paint(st, seat, arg)
    elif kind == ACT_DRONE:
        done = _paint(st, seat, arg)
        box = st[drones_at(seat)]
        points = st[remote_at(box)]
        st[drones_at(seat)] = box + 1
        st[drone_pts_at(seat)] += points
    else:
        if (free >> arg) & 1:
            circle = arg
            points = st[rule_at(P_SOCIAL_POINTS)]
            st[socials_at(seat)] += 1
            st[social_pts_at(seat)] += points
    st[score_at(seat)] += points
    packed = seat | (die << 4) | ((1 if shared else 0) << 8) | (kind << 12)
    write_action(st, packed, circle if kind == ACT_SOCIAL else arg, box, points, st[score_at(seat)])
    return done, circle


@njit(cache=True)
def _complete(st, seat, t, high):
    points = st[target_high_at(t)] if high else st[target_low_at(t)]
    st[target_pts_at(seat)] += points
    st[score_at(seat)] += points
    write_complete(st, seat, t, 1 if high else 0, points, st[score_at(seat)])


@njit(cache=True)
def _close(st, t):
    bit = np.int64(1) << t
    if st[CLOSED] & bit == 0:
        st[CLOSED] |= bit
        st[N_CLOSED] += 1
        st[WEIGHT_VERSION] += 1
        st[weight_at(t)] = st[target_low_at(t)]
        for s in range(st[N_SEATS]):
            e = st[empty_at(s, t)]
            if e > 0:
                shift_target(st, s, t, 2 * (st[target_low_at(t)] - st[target_high_at(t)]) * st[inv_at(e)])


@njit(cache=True)
def conditions(st):
    """The end conditions that hold now: bit 0 all_targets, 1 social, 2 drones."""
    out = 0
    if st[N_CLOSED] == st[B_TARGETS]:
        out |= 1
    if st[FREE_CIRCLES] == 0:
        out |= 2
    for s in range(st[N_SEATS]):
        if st[drones_at(s)] >= st[rule_at(P_DRONE_BOXES)]:
            out |= 4
            break
    return out


@njit(cache=True)
def _check_end(st):
    """Rule 15: note the first condition to hold; rule 16: without
    finish_round, end at once.  True if the game ended."""
    if st[FIRST_END] == 0:
        held = conditions(st)
        if held != 0:
            reason = 0
            while (held >> reason) & 1 == 0:
                reason += 1
            st[FIRST_END] = reason + 1
    if st[FIRST_END] != 0 and st[rule_at(P_FINISH_ROUND)] == 0:
        _finish(st, st[FIRST_END] - 1)
        return True
    return False


@njit(cache=True)
def _finish(st, reason):
    """Rule 17: the highest score wins; a tie goes to the most social circles;
    a tie that remains, or the cap, has no winner."""
    n = st[N_SEATS]
    winner = NO_WINNER
    if reason != END_ROUND_LIMIT:
        best = 0
        for s in range(1, n):
            if st[score_at(s)] > st[score_at(best)] or (
                st[score_at(s)] == st[score_at(best)] and st[socials_at(s)] > st[socials_at(best)]
            ):
                best = s
        winner = best
        for s in range(n):
            if s != best and st[score_at(s)] == st[score_at(best)] and st[socials_at(s)] == st[socials_at(best)]:
                winner = NO_WINNER
    if st[RECORD]:
        write_end(st, winner, reason, conditions(st) if reason != END_ROUND_LIMIT else 0)
    st[PHASE] = PH_OVER
    end_game(st, reason, winner)


@njit(cache=True)
def _draft(st, answer):
    """Rules 6-9, 12: one drafter's act; its completions score at once."""
    seat = st[DECIDER]
    answer = checked_act(st, seat, answer)
    st[TAKEN] |= np.int64(1) << act_die(answer)
    done, circle = _perform(st, seat, answer, IN_DRAFT, st[FREE_CIRCLES])
    if circle >= 0:
        st[FREE_CIRCLES] &= ~(np.int64(1) << circle)
    t = np.int64(0)
    while done:
        if done & 1:
            high = (st[CLOSED] >> t) & 1 == 0
            _complete(st, seat, t, high)
            _close(st, t)
        done >>= 1
        t += 1
    if _check_end(st):
        return
    st[STEP] += 1
    if st[STEP] == st[N_SEATS]:
        st[PHASE] = PH_SHARED
        st[STEP] = 0


@njit(cache=True)
def _shared(st, answer):
    """Rule 10: a seat's answer with the shared die, checked on the state before
    the step; once every seat has answered, the step is applied."""
    seat = st[DECIDER]
    st[pending_at(seat)] = checked_act(st, seat, answer)
    st[STEP] += 1
    if st[STEP] < st[N_SEATS]:
        return
    n = st[N_SEATS]
    free = st[FREE_CIRCLES]
    closed = st[CLOSED]
    circled = np.int64(0)
    for s in range(n):
        done, circle = _perform(st, s, st[pending_at(s)], IN_SHARED_STEP, free)
        st[pending_at(s)] = done  # from here on: the targets s completed in the step
        if circle >= 0:
            circled |= np.int64(1) << circle
    leader = st[LEADER]
    all_high = st[rule_at(P_TIE_RULE)] == TIE_ALL_HIGH
    union = np.int64(0)
    for s in range(n):
        done = st[pending_at(s)]
        union |= done
        t = np.int64(0)
        while done:
            if done & 1:
                high = (closed >> t) & 1 == 0
                if high and not all_high:
                    # rule 13, draft_order: only the earliest in the round's draft order
                    mine = (s - leader - 1) % n
                    for o in range(n):
                        if o != s and (st[pending_at(o)] >> t) & 1 and (o - leader - 1) % n < mine:
                            high = False
                _complete(st, s, t, high)
            done >>= 1
            t += 1
    t = np.int64(0)
    while union:
        if union & 1:
            _close(st, t)
        union >>= 1
        t += 1
    st[FREE_CIRCLES] &= ~circled
    _check_end(st)
    if st[END_REASON] >= 0:
        return
    if st[FIRST_END] != 0:
        _finish(st, st[FIRST_END] - 1)
        return
    st[PHASE] = PH_ROUND


@njit(cache=True)
def apply(st, answer):
    """Resolve the pending decision (an illegal answer becomes the fallback)."""
    phase = st[PHASE]
    st[DECIDER] = -1
    if phase == PH_ASSIGN:
        _assign(st, answer)
    elif phase == PH_DRAFT:
        st[DECIDER] = (st[LEADER] + 1 + st[STEP]) % st[N_SEATS]
        _draft(st, answer)
        if st[END_REASON] < 0:
            st[DECIDER] = -1
    elif phase == PH_SHARED:
        st[DECIDER] = st[STEP]
        _shared(st, answer)
        if st[END_REASON] < 0:
            st[DECIDER] = -1


# --------------------------------------------------------------------------- search hooks
@njit(cache=True)
def candidates(st, out):
    """What mc compares: at the assign question every placement of the dice
    when they are at most 3 (8 answers), else the heuristics' choices and
    single-die changes of builder's; at an act question a menu of plans: for
    each offered tile its best paint by V1 and by V2, the best drone by V1 and
    by V2, social with each offered tile's die."""
    seat = st[SEAT]
    n = np.int64(0)
    if st[PHASE] == PH_ASSIGN:
        n_dice = st[N_DICE]
        if n_dice <= 3:
            for m in range(np.int64(1) << n_dice):
                out[n] = m
                n += 1
            return n
        b = players.assign_by_value(st, seat, players.VALUE_2)
        n = _add(out, n, b)
        n = _add(out, n, players.assign_by_value(st, seat, players.VALUE_1))
        for d in range(n_dice):
            n = _add(out, n, b ^ (np.int64(1) << d))
        return n
    seen = 0
    for d in range(st[N_DICE]):
        if not offered(st, d):
            continue
        s = die_shape(st, d)
        if (seen >> s) & 1:
            continue
        seen |= 1 << s
        p1, _, _ = best_placement(st, seat, s, players.VALUE_1)
        if p1 >= 0:
            n = _add(out, n, act(ACT_PAINT, d, p1))
        p2, _, _ = best_placement(st, seat, s, players.VALUE_2)
        if p2 >= 0:
            n = _add(out, n, act(ACT_PAINT, d, p2))
        n = _add(out, n, act(ACT_SOCIAL, d, max(lowest_free_circle(st), 0)))
    if can_drone(st, seat):
        die = lowest_offered(st)
        p1, _, _ = players.best_drone(st, seat, players.VALUE_1)
        if p1 >= 0:
            n = _add(out, n, act(ACT_DRONE, die, p1))
        p2, _, _ = players.best_drone(st, seat, players.VALUE_2)
        if p2 >= 0:
            n = _add(out, n, act(ACT_DRONE, die, p2))
    return n


@njit(cache=True)
def _add(out, n, answer):
    for i in range(n):
        if out[i] == answer:
            return n
    out[n] = answer
    return n + 1


@njit(cache=True)
def determinize(st, seat):
    """The shared step is simultaneous: a seat asked after others must not know
    their answers, so in a search copy the earlier seats' answers are replaced
    by their (rollout) players' answers on the same state.  Nothing else is
    hidden: the dice to come are drawn from the copy's own stream."""
    if st[PHASE] != PH_SHARED:
        return
    for s in range(st[STEP]):
        if s != seat:
            answer = players.heuristics(st[seating_at(s)], KIND_ACT, s, SUBJECT_SHARED, st)
            st[pending_at(s)] = checked_act(st, s, answer)


@njit(cache=True)
def evaluate(st, seat):
    """A playout's value for ``seat``.  Finished: VALUE_SCALE for a win, half of
    it for a share of the top score with no winner, else 3/10 of it less 12
    thousandths per point behind the best other seat (at least 0): a near loss
    is worth more than a rout, never as much as a win.  Cut by the horizon:
    half of VALUE_SCALE plus 1/40 of it per point of lead over the best other
    seat, clamped to 0..VALUE_SCALE."""
    n = st[N_SEATS]
    other = -(2**40)
    for s in range(n):
        if s != seat and st[score_at(s)] > other:
            other = st[score_at(s)]
    margin = st[score_at(seat)] - other
    if st[END_REASON] >= 0:
        if st[WINNER] == seat:
            return VALUE_SCALE
        if st[WINNER] < 0 and margin >= 0:
            return VALUE_SCALE // 2
        return max(0, 3 * VALUE_SCALE // 10 + 12 * VALUE_SCALE * min(margin, 0) // 1000)
    v = VALUE_SCALE // 2 + margin * VALUE_SCALE // 40
    return min(VALUE_SCALE, max(0, v))


@njit(cache=True)
def standing(st, seat):
    """Who is ahead, for the game-feel counters: the seat's points (rule 12)."""
    return st[score_at(seat)]


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
