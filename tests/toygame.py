"""A tiny game for toolkit tests: a dice race that compiles in a second.

Each seat in turn rolls a d6 and advances; the first to reach ``target`` wins.
``first_bonus`` extra steps for seat 0 on its first turn make the first-seat
edge a knob that tests can turn.  Players: ``plain`` (always rolls) and
``cautious`` (rolls, but advances one less on a 6 — a weaker player).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from balance.game import GameSpec, Outcomes, Param, PlayerInfo
from balance.rng import rng_d6, rng_seed


@njit(cache=True)
def plain(roll):
    return roll


@njit(cache=True)
def cautious(roll):
    return roll - 1 if roll == 6 else roll


@njit(cache=True)
def _policy(index, roll):
    if index == 0:
        return plain(roll)
    return cautious(roll)


@njit(cache=True)
def _play(state, target, first_bonus, max_turns, seats, pos, events, record):
    n = seats.shape[0]
    for s in range(n):
        pos[s] = 0
    turn = 0
    n_events = 0
    while turn < max_turns:
        seat = turn % n
        turn += 1
        roll = rng_d6(state)
        step = _policy(seats[seat], roll)
        if turn == 1:
            step += first_bonus
        pos[seat] += step
        if record:
            events[n_events, 0] = turn
            events[n_events, 1] = seat
            events[n_events, 2] = roll
            events[n_events, 3] = pos[seat]
            n_events += 1
        if pos[seat] >= target:
            return seat, 0, turn, n_events
    return -1, 1, turn, n_events


@njit(cache=True, parallel=True)
def _batch(target, first_bonus, max_turns, seatings, seed, first_game, n_games, winner, reason, turns, score):
    n_seats = seatings.shape[1]
    blocks = min(n_games, 8)
    for b in prange(blocks):
        state = np.zeros(2, np.uint64)
        pos = np.zeros(n_seats, np.int64)
        events = np.zeros((1, 4), np.int64)
        lo = b * n_games // blocks
        hi = (b + 1) * n_games // blocks
        for i in range(lo, hi):
            g = first_game + i
            rng_seed(state, seed, g)
            w, r, t, _ = _play(state, target, first_bonus, max_turns, seatings[g % seatings.shape[0]], pos, events, False)
            winner[i] = w
            reason[i] = r
            turns[i] = t
            for s in range(n_seats):
                score[i, s] = pos[s]


class DiceRace(GameSpec):
    name = "dicerace"
    title = "Dice Race (test game)"
    rulebook = "tests/toygame.py"
    summary = "Roll a d6 and advance; first to the target wins."
    params = (
        Param("target", "int", 20, "steps to win", "reading: test game", low=1, high=1000),
        Param("first_bonus", "int", 0, "extra steps for seat 0 on turn 1", "reading: test knob", low=0, high=100),
        Param("max_turns", "int", 400, "cap on player turns", "reading: test cap", low=1, high=100000),
    )
    players = (
        PlayerInfo("plain", "advances by the roll", plain),
        PlayerInfo("cautious", "advances one less on a six", cautious),
    )
    end_reasons = ("target", "turn_limit")
    score_name = "position"
    default_players = ("plain", "plain")

    def load_board(self, path=None):
        return None

    def board_json(self, board):
        return {"nodes": ["track"], "adjacency": [[]]}

    def simulate(self, params, players, seatings, seed, first_game, n_games, board=None):
        ids = np.asarray([[0 if players[k].name == "plain" else 1 for k in row] for row in seatings], np.int64)
        n_seats = seatings.shape[1]
        winner = np.empty(n_games, np.int8)
        reason = np.empty(n_games, np.int8)
        turns = np.empty(n_games, np.int32)
        score = np.empty((n_games, n_seats), np.int32)
        _batch(params["target"], params["first_bonus"], params["max_turns"], ids, np.uint64(seed),
               first_game, n_games, winner, reason, turns, score)
        return Outcomes(winner, reason, turns, score)

    def trace(self, params, players, seatings, seed, game=0, board=None):
        ids = np.asarray([[0 if players[k].name == "plain" else 1 for k in row] for row in seatings], np.int64)
        state = np.zeros(2, np.uint64)
        rng_seed(state, np.uint64(seed), game)
        seats = ids[game % ids.shape[0]]
        events = np.zeros((params["max_turns"], 4), np.int64)
        pos = np.zeros(seats.shape[0], np.int64)
        w, r, t, n = _play(state, params["target"], params["first_bonus"], params["max_turns"], seats, pos, events, True)
        out = [{"type": "setup", "game": self.name, "seed": seed, "params": dict(params),
                "players": [players[k].name for k in seatings[game % seatings.shape[0]]]}]
        for row in events[:n]:
            out.append({"type": "roll", "turn": int(row[0]), "seat": int(row[1]), "roll": int(row[2]), "pos": int(row[3])})
        out.append({"type": "end", "turn": int(t), "winner": int(w), "reason": self.end_reasons[r]})
        return out


SPEC = DiceRace()
