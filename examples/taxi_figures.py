"""Figures of TAXI! that only a trace shows, for the designer questions of docs/findings/taxi.md.

    python examples/taxi_figures.py --players router,router --games 2000 [--seed 1]
        [--rotate-seats] [--param arrival_window=turn ...] [--json]

It traces games 0..N-1 of the seed exactly as ``balance run taxi`` plays them
(the same seatings, the same outcomes) and reports, each with its 95% interval
and n: player turns per game and the estimated minutes at the table, rounds per
leg (player turns of a leg over the players still in), the share of legs whose
bonus was shared, the share of arrivals whose move used the freeway, plates
bought, won by a taxi bet and sold back per game, the share of games with an
elimination, and each player's mean wealth.

Estimated minutes: 40 s a player turn (a card, two dice, a move counted in
streets), 20 s more per gamble card (the bets) and 60 s per leg's end (bonus,
jumps, fees, Expense cards): our estimate, not the rulebook's.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys

from balance.runspec import parse_param_assignments
from balance.registry import get_game
from balance.runner import seatings_for
from balance.stats import wilson

TURN_S, GAMBLE_S, LEG_END_S = 40, 20, 60


def mean_ci(values: list[float]) -> dict[str, float]:
    n = len(values)
    m = statistics.fmean(values) if n else float("nan")
    se = statistics.stdev(values) / math.sqrt(n) if n > 1 else 0.0
    return {"mean": round(m, 3), "ci95": [round(m - 1.96 * se, 3), round(m + 1.96 * se, 3)], "n": n}


def share(k: int, n: int) -> dict[str, float]:
    lo, hi = wilson(k, n) if n else (float("nan"), float("nan"))
    return {"share": round(k / n, 4) if n else float("nan"), "ci95": [round(lo, 4), round(hi, 4)], "k": k, "n": n}


def figures(players: list[str], games: int, seed: int, params: dict, rotate: bool) -> dict:
    spec = get_game("taxi")
    values = spec.resolve_params(params)
    distinct = list(dict.fromkeys(players))
    seated = [spec.parse_player(p) for p in distinct]
    seatings = seatings_for([distinct.index(p) for p in players], rotate)
    turns, minutes, rounds = [], [], []
    legs = shared = arrivals = by_freeway = eliminated = 0
    bought, won, sold = [], [], []
    wealth: dict[str, list[int]] = {p: [] for p in distinct}
    for g in range(games):
        row = seatings[g % len(seatings)]
        events = spec.trace(values, seated, seatings, seed, g)
        labels = [distinct[k] for k in row]
        last_move = None
        leg_turns = 0
        in_game = len(row)
        gambles = n_legs = 0
        b = w = s = 0
        for e in events:
            kind = e["type"]
            if kind == "turn":
                leg_turns += 1
            elif kind == "move":
                last_move = e
            elif kind == "arrive":
                arrivals += 1
                by_freeway += last_move["whites_used"] > 0
            elif kind == "leg_end":
                n_legs += 1
                shared += len(e["arrived"]) > 1
                rounds.append(leg_turns / in_game)
                leg_turns = 0
            elif kind == "eliminate":
                in_game -= 1
            elif kind == "buy":
                b += 1
            elif kind == "sell":
                s += 1
            elif kind == "reveal":
                gambles += 1
                if e["word"] == "taxi":
                    w += len(e["winners"])
        end = events[-1]
        legs += n_legs
        turns.append(end["turn"])
        minutes.append((end["turn"] * TURN_S + gambles * GAMBLE_S + n_legs * LEG_END_S) / 60)
        eliminated += any(end["out"])
        bought.append(b)
        won.append(w)
        sold.append(s)
        for seat, label in enumerate(labels):
            wealth[label].append(end["wealth"][seat])
    return {
        "players": players, "games": games, "seed": seed, "params": params, "rotate_seats": rotate,
        "turns": mean_ci(turns), "minutes": mean_ci(minutes), "rounds_per_leg": mean_ci(rounds),
        "bonus_shared": share(shared, legs), "arrivals_by_freeway": share(by_freeway, arrivals),
        "plates_bought": mean_ci(bought), "plates_won": mean_ci(won), "plates_sold": mean_ci(sold),
        "games_with_elimination": share(eliminated, games),
        "mean_wealth": {p: mean_ci(v) for p, v in wealth.items()},
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", default="router,gambler,investor,cautious")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--param", action="append", default=[])
    ap.add_argument("--rotate-seats", action="store_true")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    out = figures(a.players.split(","), a.games, a.seed, parse_param_assignments(a.param), a.rotate_seats)
    if a.json:
        print(json.dumps(out))
        return 0
    for key, value in out.items():
        print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
