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
}
