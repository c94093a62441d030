"""Carmarace: how often does the winner fly?  (docs/findings/carmarace.md, "Is the plane too strong?")

    python examples/carmarace_flights.py --games 2000 --players hunter,hunter,hunter,hunter,hunter,hunter
    python examples/carmarace_flights.py --games 2000 --players ... --param plane_stays_aloft=false

Traces ``--games`` games (game indices 0.., seed ``--seed``) and counts, from
their ``transport`` events, the games whose winner rode a plane (a train) at
least once, against the share of all seats that did; each figure with its
95% Wilson interval.
"""

from __future__ import annotations

import argparse

from balance import api
from balance.runspec import parse_param_assignments
from balance.stats import wilson


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--players", default="hunter,hunter,hunter,hunter")
    ap.add_argument("--param", action="append", default=[])
    ap.add_argument("--board", default=None)
    args = ap.parse_args()
    params = parse_param_assignments(args.param)
    won = {"plane": 0, "train": 0}
    rode = {"plane": 0, "train": 0}
    wins = seats = 0
    for g in range(args.games):
        events = api.trace("carmarace", seed=args.seed, game_index=g, players=args.players, params=params,
                           board=args.board)
        cards = events[0]["cards"]
        end = events[-1]
        modes = [set() for _ in events[0]["players"]]
        for e in events:
            if e["type"] == "transport" and e["card"] is not None:
                modes[e["seat"]].add(cards[e["card"]]["mode"])
        seats += len(modes)
        for mode in won:
            rode[mode] += sum(mode in m for m in modes)
        if end["winner"] >= 0:
            wins += 1
            for mode in won:
                won[mode] += mode in modes[end["winner"]]
    print(f"{args.games} games, {wins} won, players {args.players}, params {params or 'default'}")
    for mode in ("plane", "train"):
        lo, hi = wilson(won[mode], wins)
        slo, shi = wilson(rode[mode], seats)
        print(f"  winners who rode a {mode}: {won[mode] / wins:.1%} [{lo:.1%}-{hi:.1%}] (n={wins}); "
              f"all seats: {rode[mode] / seats:.1%} [{slo:.1%}-{shi:.1%}] (n={seats})")


if __name__ == "__main__":
    main()
