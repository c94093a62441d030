"""Carmarace's hand-picked golden games: variants and rare rules (found by search, seed 2024).

The standard cases of tests/golden.py cover the default players, every player
and every seat count; these add the variants and the rules a default game
rarely reaches.
"""

CASES = {
    # 2 players on squares 5 and 6: both gifts, the western air route, a tied
    # move-to-closest settled by the player in last position (land.by)
    "highest-squares-2p-vote": {"players": ["saboteur", "hunter"], "params": {"start_squares": "highest"},
                                "seed": 2024, "game": 8},
    # 3 players: a tied move-to-closest outvoted by the opponents
    "highest-squares-3p-tie": {"players": ["saboteur", "saboteur", "hunter"], "params": {"start_squares": "highest"},
                               "seed": 2024, "game": 13},
    # Good Karma: steps, a land card and a removal in one game
    "good-karma": {"players": ["saboteur", "random", "hunter"], "params": {"good_karma_step": True},
                   "seed": 2024, "game": 10},
    # Good Karma: the game is won by a step in another player's round
    "good-karma-step-wins": {"players": ["saboteur", "random", "hunter", "racer"],
                             "params": {"good_karma_step": True}, "seed": 2024, "game": 273},
    "young-players": {"players": ["hunter", "saboteur", "racer"], "params": {"young_players": True},
                      "seed": 2024, "game": 1},
    "random-ties-6p": {"players": ["saboteur", "hunter", "random", "saboteur", "hunter", "racer"],
                       "params": {"tie_rule": "random", "start_squares": "random"}, "seed": 2024, "game": 3},
    "planes-land-no-match": {"players": ["hunter", "saboteur", "random", "racer", "hunter", "saboteur"],
                             "params": {"plane_stays_aloft": False, "karma_must_match": False, "karma_limit_delta": 2},
                             "seed": 2024, "game": 4},
    "small-hands-turn-limit": {"players": ["random", "random"], "params": {"hand_limit": 1, "max_turns": 60},
                               "seed": 2024, "game": 5},
}
