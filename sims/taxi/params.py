"""TAXI!'s rule parameters: one declaration each (``balance params taxi``).

Quotes are from the rulebook, seed 001 (``../shared/seeds/001_15b32619ce928c7b.txt``);
``reading:`` marks our choice where the rulebook is silent or unclear.  RULES.md
gives every rule with its sentence and every reading with why.  The kernel reads
the values at ``PARAMS + P_*`` (a choice as its index, a bool as 0/1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from balance.errors import UserError
from balance.game import Param

MONEY_MAX = 1_000_000
SMALLEST_NOTE = 10
SUPPLY_MAX = 1_000_000

# Order: as the spec's table, except that the die's faces come before the amounts
# of money (tests/golden.py's "one rule change" moves the first integer parameter
# by one, which an amount, a multiple of $10, cannot take).
PARAMS: tuple[Param, ...] = (
    Param("game_length", "choice", "short", "15 destinations (short) or 30 (long)",
          "\"fifteen (short game) or thirty (long game) character destinations\"", choices=("short", "long")),
    Param("freeway_faces", "int", 2, "faces of the 12-sided die that win a freeway tablet",
          "\"two white freeway dots\"", low=0, high=12),
    Param("green_faces", "int", 5,
          "faces that win a green tablet (the rest are blank); freeway_faces + green_faces <= 12",
          "\"five green light dots, and five blank faces\"", low=0, high=12),
    Param("start_money", "int", 9340, "money each player starts with (a multiple of $10)",
          "\"The banker now distributes to each player $9,340\"", low=0, high=MONEY_MAX, step=SMALLEST_NOTE),
    Param("destination_bonus", "int", 6000, "bonus of a leg, shared by its arrivals (a multiple of $10)",
          "\"the destination bonus of six thousand dollars ($6,000)\"", low=0, high=MONEY_MAX, step=SMALLEST_NOTE),
    Param("hire_fee", "int", 500,
          "paid by a non-owner at every destination (0: still a hire event, with fee 0; a multiple of $10)",
          "\"pays a $500 taxi hire fee to the bank\"", low=0, high=100_000, step=SMALLEST_NOTE),
    Param("plate_price", "int", 15000, "price of a plate bought at the start of one's turn (a multiple of $10)",
          "reading: \"upon purchase or winning of a taxi\" gives no price; a plate's stated value",
          low=0, high=MONEY_MAX, step=SMALLEST_NOTE),
    Param("plate_value", "int", 15000, "a plate's worth in the final tally (a multiple of $10)",
          "\"The value of each taxi is still $15,000 when tallies are taken\"", low=0, high=MONEY_MAX, step=SMALLEST_NOTE),
    Param("plate_sale", "int", 5000, "what the bank pays for a plate sold in debt (a multiple of $10)",
          "\"a depreciated amount of $5,000\"", low=0, high=MONEY_MAX, step=SMALLEST_NOTE),
    Param("money_stake", "int", 1000, "stake of a money bet (a multiple of $10)",
          "\"s/he bets $1,000 dollars\"", low=0, high=MONEY_MAX, step=SMALLEST_NOTE),
    Param("money_prize", "int", 3000, "bank's payment to a right money bet (a multiple of $10)",
          "\"s/he collects $3,000 (from the bank)\"", low=0, high=MONEY_MAX, step=SMALLEST_NOTE),
    Param("taxi_stake", "int", 5000, "stake of a taxi bet (a multiple of $10)",
          "\"s/he bets $5,000 dollars\"", low=0, high=MONEY_MAX, step=SMALLEST_NOTE),
    Param("green_supply", "int", 30, "green tablets with the minister",
          "\"Thirty (green) 'green light' tablets\"", low=0, high=SUPPLY_MAX),
    Param("freeway_supply", "int", 12, "freeway tablets",
          "\"Twelve (white) freeway entries pass tablets\"", low=0, high=SUPPLY_MAX),
    Param("barrier_supply", "int", 12, "roadwork barriers",
          "\"Twelve (yellow/black) roadwork detour barriers\"", low=0, high=SUPPLY_MAX),
    Param("plate_supply", "int", 36, "taxi plates",
          "\"Thirty-six (blue) taxi plate tablets\"", low=0, high=SUPPLY_MAX),
    Param("arrival_window", "choice", "round",
          "who shares the bonus: all arrivals of the round of the first arrival (round), "
          "or the first arrival alone, the leg ending after its turn (turn)",
          "reading: \"share ... with any opponent/s who reach their destination on the same dice round\"",
          choices=("round", "turn")),
    Param("expense_per_plate", "bool", False, "an owner draws one Expense card per plate instead of one",
          "reading: \"Each taxi owner picks up an Expense card\""),
    Param("eliminate_on_debt", "bool", True,
          "a player in debt with no plate left is out (else it plays on with negative money)",
          "reading: \"completed by all players still in the game\""),
    Param("stop_on_freeway", "bool", False, "a move may end on a freeway node",
          "reading: \"stop at any point on any street, road or freeway off ramp\""),
    Param("card_optional", "bool", False, "a player may draw no card",
          "reading: \"If a player forgets s/he forfeits the card\""),
    Param("final_hire_fee", "bool", True,
          "non-owners pay the hire fee at the last destination too; false: they pay nothing there "
          "and no hire event is written for them",
          "reading: \"Once all players are back at the base taxi owners pick up their last Expense card\""),
    Param("max_turns", "int", 2000, "cap on player turns; then turn_limit, no winner",
          "reading: a simulation must end; default players end a long 6-player game in about 220 turns, "
          "random players rarely finish", low=1, high=1_000_000),
)

_NAMES = [p.name for p in PARAMS]
P_GAME_LENGTH = _NAMES.index("game_length")
P_START_MONEY = _NAMES.index("start_money")
P_DESTINATION_BONUS = _NAMES.index("destination_bonus")
P_HIRE_FEE = _NAMES.index("hire_fee")
P_PLATE_PRICE = _NAMES.index("plate_price")
P_PLATE_VALUE = _NAMES.index("plate_value")
P_PLATE_SALE = _NAMES.index("plate_sale")
P_MONEY_STAKE = _NAMES.index("money_stake")
P_MONEY_PRIZE = _NAMES.index("money_prize")
P_TAXI_STAKE = _NAMES.index("taxi_stake")
P_FREEWAY_FACES = _NAMES.index("freeway_faces")
P_GREEN_FACES = _NAMES.index("green_faces")
P_GREEN_SUPPLY = _NAMES.index("green_supply")
P_FREEWAY_SUPPLY = _NAMES.index("freeway_supply")
P_BARRIER_SUPPLY = _NAMES.index("barrier_supply")
P_PLATE_SUPPLY = _NAMES.index("plate_supply")
P_ARRIVAL_WINDOW = _NAMES.index("arrival_window")
P_EXPENSE_PER_PLATE = _NAMES.index("expense_per_plate")
P_ELIMINATE_ON_DEBT = _NAMES.index("eliminate_on_debt")
P_STOP_ON_FREEWAY = _NAMES.index("stop_on_freeway")
P_CARD_OPTIONAL = _NAMES.index("card_optional")
P_FINAL_HIRE_FEE = _NAMES.index("final_hire_fee")
P_MAX_TURNS = _NAMES.index("max_turns")
N_PARAMS = len(PARAMS)

# Parameters that are amounts of money: every one a multiple of the smallest note.
MONEY_PARAMS = (
    "start_money", "destination_bonus", "hire_fee", "plate_price", "plate_value", "plate_sale",
    "money_stake", "money_prize", "taxi_stake",
)
ARRIVAL_ROUND = 0  # arrival_window choices, as the kernel sees them
ARRIVAL_TURN = 1

assert [p.name for p in PARAMS][P_MAX_TURNS] == "max_turns"


def check_params(values: Mapping[str, Any]) -> None:
    """Cross-parameter checks: the die has 12 faces (money comes in $10 notes: each
    amount's ``step``)."""
    if values["freeway_faces"] + values["green_faces"] > 12:
        raise UserError(
            f"freeway_faces={values['freeway_faces']} + green_faces={values['green_faces']} > 12: "
            "the tablet die has 12 faces"
        )


def legs(values: Mapping[str, Any]) -> int:
    """Destinations of the game: 15 (short) or 30 (long)."""
    return 15 if values["game_length"] == "short" else 30
