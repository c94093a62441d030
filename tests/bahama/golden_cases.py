"""Bahama Taxi's hand-picked golden games (tests/golden.py adds the standard cases)."""

CASES = {
    # must_move with the 3-player discard: forced moves and the odd card set aside.
    "must-move-three-player-discard": {
        "players": ["best_fare", "courier", "nearest"],
        "params": {"must_move": True, "three_player_discard": True},
        "seed": 4,
        "game": 9,
    },
    # Both end-phase limits off: taxis fill up to capacity until the last citizen.
    "no-end-phase-limits": {
        "players": ["nearest", "best_fare"],
        "params": {"third_passenger_lock": False, "second_passenger_lock": False},
        "seed": 6,
        "game": 1,
    },
    # pickup = optional: losing at the end, the waiter stands on the last citizen and
    # leaves it waiting turn after turn (no limit): the game runs to max_turns.
    "waiter-keeps-the-last-citizen": {
        "players": ["waiter:patience=0", "nearest"],
        "params": {"max_turns": 200},
        "seed": 1,
        "game": 10,
    },
    # must_move: the blocker cannot stand on the leader's field; the leader gets in and
    # the game ends (without must_move the same deal runs to max_turns).
    "blocker-under-must-move": {
        "players": ["blocker:patience=0", "nearest"],
        "params": {"must_move": True, "max_turns": 300},
        "seed": 1,
        "game": 1,
    },
    # pickup = compulsory: the waiter may stand on a citizen only while it may not take
    # it (carrying a passenger under the second-passenger limit); three players.
    "compulsory-pickup-three-players": {
        "players": ["waiter:patience=0", "closer", "blocker"],
        "params": {"pickup": "compulsory", "max_turns": 200},
        "seed": 1,
        "game": 7,
    },
}
