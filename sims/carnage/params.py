"""Carnage's rule parameters: one declaration each, with its rulebook source.

Rulebook: ../shared/seeds/000_898c1d9018ac3fe3.txt (KerDelos & Tyrannas,
Ludum Dare).  Every number the rulebook gives is a parameter with that number as
its default; where the rulebook is silent the source starts with "reading:" and
says why (sims/carnage/RULES.md has the long form).

The kernel receives the values as one ``int64`` array in the order of
:data:`PARAMS`; the ``P_*`` constants are the indices into it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from balance.errors import UserError
from balance.game import Param

PARAMS: tuple[Param, ...] = (
    Param(
        "start_money",
        "int",
        10,
        "money each player starts with",
        "reading: the rulebook gives none; 10 (one car's price): with mc against greedy and greedy against "
        "blocker, $8-$12 decide no game (mc: <= 0.6%) in the first four rounds, gridlock <= 0.5% at $10, "
        "even seats; less starves, more is a car rush (RULES.md section 4, 'start_money')",
        low=1,
        high=1000,
    ),
    Param(
        "fare_per_block",
        "int",
        2,
        "money a commuter pays per block of its ride, at pick-up",
        "The price for the ride is twice the number of blocks between where he is and his destination.",
        low=0,
        high=100,
    ),
    Param(
        "car_cost",
        "int",
        10,
        "price of a new car",
        "At any time during your turn you can buy a car for 10 $.",
        low=0,
        high=1000,
    ),
    Param(
        "max_cars",
        "int",
        4,
        "most cars one player may own (cars in the box per colour)",
        "4 cars of each color",
        low=1,
        high=8,
    ),
    Param(
        "win_cars",
        "int",
        4,
        "owning this many cars wins at once (the starting car counts)",
        "The first player to successfully drop off 7 commuters or to buy 4 cars wins. "
        "(reading: 'buy 4 cars' = own 4, since the box holds 4 per colour)",
        low=2,
        high=8,
    ),
    Param(
        "win_deliveries",
        "int",
        7,
        "delivering this many commuters wins at once",
        "If he was you seventh passenger then you win and the game ends.",
        low=1,
        high=100,
    ),
    Param(
        "spawn_on_drop",
        "int",
        3,
        "after each drop-off a d6 at most this spawns a commuter",
        "If you spawn a commuter because you just dropped one off, 1,2 or 3 will make a new one appear.",
        low=0,
        high=6,
    ),
    Param(
        "spawn_on_turn_end",
        "int",
        2,
        "at each turn's end a d6 at most this spawns a commuter",
        "If you spawn the commuter at the end of your turn 1 or 2 will make a new one appear.",
        low=0,
        high=6,
    ),
    Param(
        "upkeep_per_car",
        "int",
        1,
        "money paid per car at each turn's end (not for a car bought that turn)",
        "At the end of each of your turn you loose 1$ per car your own ( exccept the one you just bought ).",
        low=0,
        high=100,
    ),
    Param(
        "gridlock_limit",
        "int",
        10,
        "more commuters than this waiting at two consecutive turn ends: everybody loses",
        "If more than 10 commuters are present on the board ( those in the players cars do not count ) "
        "for more than one turn, everybody loses.",
        low=0,
        high=63,
    ),
    Param(
        "gridlock_turns",
        "int",
        2,
        "consecutive turn ends with more than gridlock_limit commuters waiting that make everybody lose",
        "reading: 'for more than one turn' = still over the limit at the next turn end, so 2 consecutive "
        "turn ends (RULES.md, reading 24)",
        low=1,
        high=20,
    ),
    Param(
        "max_turns",
        "int",
        500,
        "cap on player turns; the game then ends with no winner (turn_limit)",
        "reading: the rulebook has no cap; a simulation needs one. Default games last 19.9 turns "
        "on average, the longest of 10^6 took 74",
        low=1,
        high=10000,
    ),
    Param(
        "car_capacity",
        "int",
        2,
        "passengers a car holds",
        "Cars can each fit up to two passengers.",
        low=1,
        high=8,
    ),
    Param(
        "commuter_tokens",
        "int",
        16,
        "commuter tokens in the supply (a spawn needs a free one)",
        "16 commuters tokens",
        low=1,
        high=63,
    ),
    Param(
        "bank_money",
        "int",
        0,
        "money tokens in the box (0: no limit); start money, fares and change come out of it",
        "40 money tokens (reading: a component count, not a rule; 0 = unlimited by default: a limit of 40 "
        "pays a fare short in 4.7% of greedy-vs-fleet games, 89% with three seats, every game with four; "
        "RULES.md reading 28 and section 5 'The bank')",
        low=0,
        high=10000,
    ),
    Param(
        "hq",
        "choice",
        "fixed",
        "fixed: seat i gets the board's i-th HQ site; chosen: in seat order each player chooses a free "
        "HQ site of the board; anywhere: each chooses any street without a car",
        "Every players chooses a HQ on the map and puts one car on it (reading: fixed by default: on the "
        "default board chosen plays exactly fixed's games for every heuristic and changes nothing significant "
        "for mc; RULES.md reading 2 and section 5 'HQ')",
        choices=("fixed", "chosen", "anywhere"),
    ),
)

PARAM_NAMES: tuple[str, ...] = tuple(p.name for p in PARAMS)

# Indices into the kernel's parameter array (the order of PARAMS).
P_START_MONEY = 0
P_FARE_PER_BLOCK = 1
P_CAR_COST = 2
P_MAX_CARS = 3
P_WIN_CARS = 4
P_WIN_DELIVERIES = 5
P_SPAWN_ON_DROP = 6
P_SPAWN_ON_TURN_END = 7
P_UPKEEP_PER_CAR = 8
P_GRIDLOCK_LIMIT = 9
P_GRIDLOCK_TURNS = 10
P_MAX_TURNS = 11
P_CAR_CAPACITY = 12
P_COMMUTER_TOKENS = 13
P_BANK_MONEY = 14
P_HQ = 15
N_PARAMS = 16

# Values of the choice parameter hq as the kernel sees them (its index in choices).
HQ_FIXED = 0
HQ_CHOSEN = 1
HQ_ANYWHERE = 2

assert (
    PARAM_NAMES.index("commuter_tokens") == P_COMMUTER_TOKENS
    and PARAM_NAMES.index("gridlock_turns") == P_GRIDLOCK_TURNS
    and PARAM_NAMES.index("hq") == P_HQ
    and PARAMS[P_HQ].choices == ("fixed", "chosen", "anywhere")
    and len(PARAMS) == N_PARAMS
)


def check_params(values: Mapping[str, Any]) -> None:
    """Refuse combinations that leave nobody any way to win.

    Single values are checked by their ranges.  Combinations the rules survive
    are allowed on purpose: ``win_cars > max_cars`` switches the car win off,
    ``gridlock_limit >= commuter_tokens`` switches gridlock off, a start below
    the first upkeep makes the first turn decisive.  What is refused is a game
    with neither win: no car win (``win_cars > max_cars``) and fewer commuters
    than ``win_deliveries`` can ever appear (no spawn chance after setup, so at
    most the 2 setup commuters exist) -- every game would only end by
    elimination or the turn cap, which is not Carnage.
    """
    no_car_win = values["win_cars"] > values["max_cars"]
    no_new_commuters = values["spawn_on_drop"] == 0 and values["spawn_on_turn_end"] == 0
    most_commuters = min(2, values["commuter_tokens"])
    if no_car_win and no_new_commuters and values["win_deliveries"] > most_commuters:
        raise UserError(
            f"parameters leave no way to win: win_cars={values['win_cars']} > max_cars={values['max_cars']} "
            f"and with spawn_on_drop=0 and spawn_on_turn_end=0 only {most_commuters} commuters ever appear "
            f"(< win_deliveries={values['win_deliveries']}); allow a car win or a spawn chance"
        )


def param_array(values: Mapping[str, Any]) -> np.ndarray:
    """The kernel's ``int64[N_PARAMS]`` parameter array (values already validated)."""
    return np.array([p.encode(values[p.name]) for p in PARAMS], dtype=np.int64)
