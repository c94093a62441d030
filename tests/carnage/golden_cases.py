"""Carnage's hand-picked golden games (tests/golden.py adds the standard cases):
games that reach rules the standard cases rarely do."""

CASES = {
    # three seats, cheap cars: a car win, buys before several cars act
    "cheap-cars-three-players": {
        "players": ["nearest", "fleet", "greedy"],
        "params": {"car_cost": 6, "win_cars": 3, "start_money": 15},
        "seed": 99,
        "game": 5,
    },
    # many spawns and a low gridlock limit: a gridlock ending
    "crowded-city": {
        "players": ["greedy", "nearest"],
        "params": {"spawn_on_turn_end": 5, "spawn_on_drop": 6, "gridlock_limit": 6},
        "seed": 3,
        "game": 11,
    },
}
