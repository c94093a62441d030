"""Figures of Tag City that only a trace shows, for the designer questions of docs/findings/tagcity.md.

    python examples/tagcity_figures.py --players builder,builder --games 4000 [--seed 0]
        [--rotate-seats] [--param social_points=-1 ...] [--board FILE.toml] [--json]

It traces games 0..N-1 of the seed exactly as ``balance run tagcity`` plays
them (the same seatings, the same outcomes) and reports, each with its 95%
interval and n: social circles circled and drones used per player, the share
of games with a shared-step tie (two or more players completing, with the
shared die, a target nobody had completed before the step), targets completed
and completed first per player, and each player's mean score and its target
and drone points.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics

from balance.runspec import parse_param_assignments
from balance.registry import get_game
from balance.runner import seatings_for
from balance.stats import wilson


def mean_ci(values: list[float]) -> dict[str, float]:
    n = len(values)
    m = statistics.fmean(values) if n else float("nan")
    se = statistics.stdev(values) / math.sqrt(n) if n > 1 else 0.0
    return {"mean": round(m, 3), "ci95": [round(m - 1.96 * se, 3), round(m + 1.96 * se, 3)], "n": n}


def share(k: int, n: int) -> dict[str, float]:
    lo, hi = wilson(k, n) if n else (float("nan"), float("nan"))
    return {"share": round(k / n, 4) if n else float("nan"), "ci95": [round(lo, 4), round(hi, 4)], "k": k, "n": n}


def shared_ties(events: list[dict]) -> int:
    """Shared steps in which several players completed the same target that
    nobody had completed before the step (whatever the tie rule)."""
    ties = 0
    closed: set[tuple[str, int]] = set()
    step: dict[tuple[str, int], int] = {}
    in_step = False

    def close_step() -> int:
        tie = any(n > 1 for t, n in step.items() if t not in closed)
        closed.update(step)
        step.clear()
        return int(tie)

    for e in events:
        if e["type"] in ("roll", "end"):
            ties += close_step()
            in_step = False
        elif e["type"] == "action":
            in_step = e["shared"]
        elif e["type"] == "complete":
            key = (e["target"], e["index"])
            if in_step:
                step[key] = step.get(key, 0) + 1
            else:
                closed.add(key)
    return ties


def figures(players: list[str], games: int, seed: int, params: dict, rotate: bool, board_file: str | None) -> dict:
    import numpy as np

    spec = get_game("tagcity")
    values = spec.resolve_params(params)
    board = spec.board_for(board_file)
    distinct = list(dict.fromkeys(players))
    seated = [spec.parse_player(p) for p in distinct]
    seatings = seatings_for([distinct.index(p) for p in players], rotate)
    socials: dict[str, list[int]] = {p: [] for p in distinct}
    drones: dict[str, list[int]] = {p: [] for p in distinct}
    targets: dict[str, list[int]] = {p: [] for p in distinct}
    firsts: dict[str, list[int]] = {p: [] for p in distinct}
    target_points: dict[str, list[int]] = {p: [] for p in distinct}
    drone_points: dict[str, list[int]] = {p: [] for p in distinct}
    scores: dict[str, list[int]] = {p: [] for p in distinct}
    tie_games = 0
    for g in range(games):
        row = seatings[g % len(seatings)]
        events = spec.trace(values, seated, np.asarray([row]), seed, g, board)
        end = events[-1]
        for s, k in enumerate(row):
            name = distinct[k]
            socials[name].append(end["socials"][s])
            drones[name].append(end["drones"][s])
            scores[name].append(end["score"][s])
            targets[name].append(sum(1 for e in events if e["type"] == "complete" and e["seat"] == s))
            firsts[name].append(sum(1 for e in events if e["type"] == "complete" and e["seat"] == s and e["high"]))
            target_points[name].append(end["target_points"][s])
            drone_points[name].append(end["drone_points"][s])
        tie_games += shared_ties(events) > 0
    return {
        "game": "tagcity",
        "players": players,
        "games": games,
        "seed": seed,
        "params": params,
        "rotate_seats": rotate,
        "board": board_file,
        "socials_per_player": {p: mean_ci(v) for p, v in socials.items()},
        "drones_per_player": {p: mean_ci(v) for p, v in drones.items()},
        "targets_per_player": {p: mean_ci(v) for p, v in targets.items()},
        "first_completions_per_player": {p: mean_ci(v) for p, v in firsts.items()},
        "target_points": {p: mean_ci(v) for p, v in target_points.items()},
        "drone_points": {p: mean_ci(v) for p, v in drone_points.items()},
        "score": {p: mean_ci(v) for p, v in scores.items()},
        "games_with_a_shared_step_tie": share(tie_games, games),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="builder,sniper")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--param", action="append", default=[])
    parser.add_argument("--board", default=None)
    parser.add_argument("--rotate-seats", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out = figures(
        args.players.split(","),
        args.games,
        args.seed,
        parse_param_assignments(args.param),
        args.rotate_seats,
        args.board,
    )
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"tagcity: {args.games} games, seed {args.seed}, players {args.players}, params {out['params']}")
    for key in (
        "score",
        "target_points",
        "drone_points",
        "socials_per_player",
        "drones_per_player",
        "targets_per_player",
        "first_completions_per_player",
    ):
        for p, v in out[key].items():
            print(f"  {key:28s} {p:10s} {v['mean']:8.3f}  ({v['ci95'][0]:.3f}-{v['ci95'][1]:.3f})")
    t = out["games_with_a_shared_step_tie"]
    print(f"  games with a shared-step tie: {t['share']:.1%} ({t['ci95'][0]:.1%}-{t['ci95'][1]:.1%}), n={t['n']}")


if __name__ == "__main__":
    main()
