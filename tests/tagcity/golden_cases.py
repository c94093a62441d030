"""Hand-picked Tag City games that reach the rare rules (found by scanning
seed 2): a shared-step tie under each tie rule, every end reason, the social
action with no free circle left, side B, drones limited to the centre tiles,
each orientation rule, a game stopped mid-round, the round cap, a tie broken by
social circles and a tie that stays."""

CASES = {
    "shared-tie-draft-order": {
        "players": ["builder", "builder"],
        "params": {"tie_rule": "draft_order"},
        "seed": 2,
        "game": 1,
    },
    "shared-tie-all-high": {"players": ["builder", "sniper", "closer"], "seed": 2, "game": 0},
    "social-end-no-free-circle": {
        "players": ["closer", "builder"],
        "params": {"social_points": -1, "social_circles": 3},
        "seed": 2,
        "game": 13,
    },
    "stop-at-once-drones": {
        "players": ["sniper", "greedy", "builder"],
        "params": {"finish_round": False},
        "seed": 2,
        "game": 15,
    },
    "side-b-centre-drones": {
        "players": ["sniper", "builder", "greedy", "closer"],
        "params": {"hq_side": "B", "drone_shapes": "centre"},
        "seed": 2,
        "game": 17,
    },
    "fixed-orientations": {"players": ["builder", "random"], "params": {"orientations": "fixed"}, "seed": 2, "game": 3},
    "rotate-orientations": {
        "players": ["greedy", "random", "sniper"],
        "params": {"orientations": "rotate"},
        "seed": 2,
        "game": 4,
    },
    "two-drone-boxes": {"players": ["greedy", "sniper"], "params": {"drone_boxes": 2}, "seed": 2, "game": 0},
    "round-limit": {"players": ["builder", "sniper"], "params": {"max_rounds": 3}, "seed": 2, "game": 0},
    "tie-broken-by-socials": {"players": ["builder", "sniper", "closer"], "seed": 2, "game": 52},
    "tie-without-winner": {
        "players": ["builder", "builder"],
        "params": {"tie_rule": "draft_order"},
        "seed": 2,
        "game": 34,
    },
}
