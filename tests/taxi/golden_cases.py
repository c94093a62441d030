"""Hand-picked TAXI! games for the golden traces (tests/golden.py): rare rules
that the standard cases may miss."""

CASES = {
    # plates bought cheaply, one Expense card per plate, sales and an elimination
    "expense-per-plate-elimination": {
        "players": ["gambler", "investor", "router"],
        "params": {"expense_per_plate": True, "plate_price": 6000, "start_money": 4000},
        "seed": 1, "game": 11,
    },
    # the long game with six seats (random included): an elimination, sales, reshuffles
    "long-6-players": {
        "players": ["router", "gambler", "investor", "cautious", "random", "gambler"],
        "params": {"game_length": "long"}, "seed": 1, "game": 2,
    },
    # the first arrival alone takes the bonus; a reshuffle
    "arrival-window-turn": {
        "players": ["gambler", "gambler"], "params": {"arrival_window": "turn", "taxi_stake": 2000},
        "seed": 1, "game": 26,
    },
    # one player left after an elimination
    "last-standing": {"players": ["random", "router"], "seed": 1, "game": 4},
    # a player in debt plays on
    "debt-without-elimination": {
        "players": ["gambler", "random", "cautious"], "params": {"eliminate_on_debt": False, "start_money": 500},
        "seed": 1, "game": 0,
    },
    # no card drawn, moves that may end on the freeway
    "card-optional-stop-on-freeway": {
        "players": ["random", "router", "investor"], "params": {"card_optional": True, "stop_on_freeway": True},
        "seed": 1, "game": 0,
    },
}
